import type { TimeDatabase, TimeEntry, Timesheet } from '@blocksmith/contracts/time.ts'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { isTrackable, timeDatabasesQuery, timerQuery } from '../api/time.ts'
import { setTimesheetCell, type TimesheetParams, timesheetKeys, timesheetQuery } from '../api/timesheet.ts'
import { TimeLayout } from '../components/time-nav.tsx'
import { TimesheetAddRow } from '../components/timesheet-add-row.tsx'
import { type GridRow, TimesheetGrid } from '../components/timesheet-grid.tsx'
import {
	addDays,
	browserTimeZone,
	browserWeekStart,
	describeWeek,
	isIsoDate,
	todayIn,
	weekOf,
} from '../components/timesheet-week.ts'

const databaseParam = 'database'
const weekParam = 'week'

/** /time/timesheet: the caller's week, a row per project and task, a cell per day, saved as typed. */
export function TimeTimesheetPage() {
	const databases = useQuery(timeDatabasesQuery)
	const mapped = useMemo(() => (databases.data ?? []).filter(isTrackable), [databases.data])
	const [search, setSearch] = useSearchParams()
	const chosen = mapped.find((database) => database.id === search.get(databaseParam)) ?? mapped[0]

	function choose(id: string): void {
		setSearch(
			(current) => {
				const next = new URLSearchParams(current)
				next.set(databaseParam, id)
				return next
			},
			{ replace: true },
		)
	}

	return (
		<TimeLayout
			title="Timesheet"
			description="Your week by project and task. Type 1:30, 1.5h or 90m; each cell is saved as you leave it."
		>
			{databases.isPending ? (
				<SkeletonGroup label="Loading your time databases…">
					<Skeleton className="h-80 w-full" />
				</SkeletonGroup>
			) : databases.isError ? (
				<Alert variant="error" title="Your time databases could not be loaded">
					{errorMessage(databases.error)}
				</Alert>
			) : !chosen ? (
				<EmptyState
					icon={CalendarDays}
					title="No time database yet"
					description="Choose the database that holds your time entries and map its properties; the week fills from it."
					action={
						<Button asChild>
							<Link to={paths.timeSetup}>Set up time tracking</Link>
						</Button>
					}
				/>
			) : (
				<Week key={`${chosen.tool}:${chosen.id}`} database={chosen} databases={mapped} onChoose={choose} />
			)}
		</TimeLayout>
	)
}

type WeekProps = { database: TimeDatabase; databases: TimeDatabase[]; onChoose: (id: string) => void }

function Week({ database, databases, onChoose }: WeekProps) {
	const queryClient = useQueryClient()
	const [search, setSearch] = useSearchParams()
	const timeZone = useMemo(browserTimeZone, [])
	const weekStart = useMemo(() => browserWeekStart(), [])
	const today = todayIn(timeZone)
	const asked = search.get(weekParam)
	const first = weekOf(isIsoDate(asked) ? asked : today, weekStart)
	const params: TimesheetParams = { tool: database.tool, databaseId: database.id, date: first, weekStart, timeZone }

	const timer = useQuery(timerQuery(database.tool))
	const runningEntry = timer.data?.databaseId === database.id ? timer.data : null
	const sheet = useQuery(timesheetQuery(params, runningEntry !== null))
	const [added, setAdded] = useState<GridRow[]>([])

	function goTo(date: string): void {
		setSearch(
			(current) => {
				const next = new URLSearchParams(current)
				if (weekOf(date, weekStart) === weekOf(today, weekStart)) {
					next.delete(weekParam)
				} else {
					next.set(weekParam, date)
				}
				return next
			},
			{ replace: true },
		)
	}

	async function save(row: GridRow, date: string, typed: string): Promise<void> {
		// The answer is the week as it is now, starting on the grid's first day: it replaces the one shown.
		const cell = {
			databaseId: database.id,
			date,
			timeZone,
			weekStart,
			project: row.project,
			task: row.task,
			...(typed === '' ? { seconds: 0 } : { duration: typed }),
		}
		const changed = await setTimesheetCell({ tool: database.tool, cell })
		queryClient.setQueryData(timesheetKeys.week(params), changed)
	}

	return (
		<div className="grid gap-4">
			<div className="flex flex-wrap items-end justify-between gap-3">
				<div className="flex flex-wrap items-center gap-2">
					<Button variant="outline" size="icon-sm" aria-label="Previous week" onClick={() => goTo(addDays(first, -7))}>
						<ChevronLeft aria-hidden />
					</Button>
					<Button variant="outline" size="sm" onClick={() => goTo(today)} disabled={first === weekOf(today, weekStart)}>
						This week
					</Button>
					<Button variant="outline" size="icon-sm" aria-label="Next week" onClick={() => goTo(addDays(first, 7))}>
						<ChevronRight aria-hidden />
					</Button>
					<h2 className="ml-1 font-semibold text-base" aria-live="polite">
						{describeWeek(first)}
					</h2>
				</div>
				<div className="flex flex-wrap items-end gap-2">
					{databases.length > 1 ? (
						<Field label="Database" className="w-56">
							<NativeSelect value={database.id} onChange={(event) => onChoose(event.target.value)}>
								{databases.map((candidate) => (
									<option key={`${candidate.tool}:${candidate.id}`} value={candidate.id}>
										{candidate.name}
									</option>
								))}
							</NativeSelect>
						</Field>
					) : null}
					<TimesheetAddRow
						database={database}
						rows={sheet.data?.rows ?? []}
						onAdd={(row) =>
							setAdded((current) => [...current, { key: `new:${current.length}`, ...row, seconds: [], entries: [] }])
						}
					/>
				</div>
			</div>
			{sheet.isPending ? (
				<SkeletonGroup label="Loading the week…">
					<Skeleton className="h-72 w-full" />
				</SkeletonGroup>
			) : sheet.isError ? (
				<Alert variant="error" title="The week could not be loaded">
					{errorMessage(sheet.error)}
				</Alert>
			) : (
				<Grid sheet={sheet.data} added={added} running={runningEntry} readAt={sheet.dataUpdatedAt} onSave={save} />
			)}
			<p className="text-muted-foreground text-xs">
				Days are counted in your time zone, {timeZone}. Arrows, Tab and Enter move between cells; Escape puts a cell
				back.
			</p>
		</div>
	)
}

type GridProps = {
	sheet: Timesheet
	added: GridRow[]
	running: TimeEntry | null
	readAt: number
	onSave: (row: GridRow, date: string, typed: string) => Promise<void>
}

const sameRow = (left: Pick<GridRow, 'project' | 'task'>, right: Pick<GridRow, 'project' | 'task'>) =>
	left.project === right.project && (left.task || null) === (right.task || null)

function Grid({ sheet, added, running, readAt, onSave }: GridProps) {
	const now = useNow(running !== null)
	// Rows added here stay last, in the order added, under the key they were added with, also once
	// the server has them (after a cell got time): a new key would mount the row's inputs again and
	// a keyboard user typing along the row would lose the focus, and what they typed, mid-week.
	const rows: GridRow[] = useMemo(() => {
		const isAdded = (row: GridRow) => added.some((other) => sameRow(other, row))
		return [
			...sheet.rows.filter((row) => !isAdded(row)),
			...added
				.filter((row, index) => added.findIndex((other) => sameRow(other, row)) === index)
				.map((row) => {
					const stored = sheet.rows.find((other) => sameRow(other, row))
					return stored
						? { ...stored, key: row.key }
						: { ...row, seconds: sheet.days.map(() => 0), entries: sheet.days.map(() => 0) }
				}),
		]
	}, [sheet, added])
	const runningCell = useMemo(() => {
		if (!running) {
			return null
		}
		const dayIndex = sheet.days.indexOf(todayIn(sheet.timeZone, new Date(now)))
		const row = rows.find((candidate) => sameRow(candidate, running))
		// The week's figures count the timer up to when they were read; the screen adds what passed since.
		return dayIndex < 0 || !row
			? null
			: { rowKey: row.key, dayIndex, seconds: Math.max(0, Math.floor((now - readAt) / 1000)) }
	}, [running, rows, sheet, now, readAt])

	if (rows.length === 0) {
		return (
			<EmptyState
				icon={CalendarDays}
				title="Nothing this week yet"
				description="Add a row for a project and task, then type the time of each day."
			/>
		)
	}
	return (
		<>
			<TimesheetGrid sheet={sheet} rows={rows} running={runningCell} onSave={onSave} />
			{sheet.overlaps > 0 ? (
				<Alert variant="warning" title="Some entries overlap">
					{sheet.overlaps === 1
						? 'Two of your entries this week overlap; both count in full.'
						: `${sheet.overlaps} pairs of your entries this week overlap; each counts in full.`}
				</Alert>
			) : null}
		</>
	)
}

/** The current time, moving each second while a timer runs. */
function useNow(isTicking: boolean): number {
	const [now, setNow] = useState(() => Date.now())
	useEffect(() => {
		if (!isTicking) {
			return
		}
		const timer = setInterval(() => setNow(Date.now()), 1000)
		return () => clearInterval(timer)
	}, [isTicking])
	return now
}
