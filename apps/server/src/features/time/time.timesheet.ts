import type { setTimesheetCellSchema, Timesheet, TimesheetRow } from '@blocksmith/contracts/time.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { AppError } from '#src/lib/errors.ts'
import { addDays, findOverlaps, localDayBounds, splitIntoLocalDays, type Weekday, weekStartKey } from './time.days.ts'
import { deleteEntry } from './time.delete.ts'
import type { TimeCtx } from './time.deps.ts'
import { parseDurationField } from './time.duration.ts'
import { createEntry, updateEntry } from './time.entries.ts'
import { timeEntries } from './time.schema.ts'
import { findTimeDatabase } from './time.service.ts'
import { readSourceEntries, type SourceEntry, type SourceTarget, sourceTargetOf } from './time.source.ts'
import { invalid, personValue } from './time.timer.ts'

// The weekly timesheet: the caller's time in one database, a row per project and task, a column
// per local day of their week (time.days.ts splits entries at local midnights and DST changes; a
// running entry counts up to now). Entries are read from the database's rows and our records
// alike (time.source.ts), so rows typed in the workspace count too. Setting a cell goes through
// the same paths as everything else: a new entry (storeEntry), an edit (a chained update), or a
// delete; a cell made of several entries, or of a row we did not write, only grows from here.

type Week = { days: string[]; from: Date; to: Date }

function weekOf(date: string, weekStart: number, timeZone: string): Week {
	const first = dayOrInvalid(() => weekStartKey(date, weekStart as Weekday))
	const days = Array.from({ length: 7 }, (_, index) => addDays(first, index))
	return {
		days,
		from: new Date(localDayBounds(first, timeZone).start),
		to: new Date(localDayBounds(days[6] as string, timeZone).end),
	}
}

/** A calendar date the format lets through but the calendar has not (2026-02-30) is a 400 naming `date`. */
function dayOrInvalid<T>(read: () => T): T {
	try {
		return read()
	} catch (error) {
		if (error instanceof RangeError) {
			invalid([{ field: 'date', message: 'Use a date that exists, as in 2026-03-24.' }])
		}
		throw error
	}
}

/**
 * Which entries are the caller's: by the person the rows store (their member id in a built-in
 * database; in Notion, the person their own entries were written with), and every entry of
 * theirs tracked here (also one written without a person, when Notion did not know them).
 */
async function callersEntries(ctx: TimeCtx, target: SourceTarget) {
	const records = await ctx.db
		.select({ id: timeEntries.id, personRef: timeEntries.personRef })
		.from(timeEntries)
		.where(
			and(
				eq(timeEntries.organizationId, ctx.orgId),
				eq(timeEntries.databaseId, target.databaseId),
				eq(timeEntries.userId, ctx.userId),
			),
		)
	const mine = new Set(records.map((record) => record.id))
	const people = new Set(
		target.tool === 'local' ? [ctx.userId] : records.flatMap((record) => (record.personRef ? [record.personRef] : [])),
	)
	const isCallers = (entry: SourceEntry) =>
		(entry.entryId !== null && mine.has(entry.entryId)) ||
		(target.mapping.person !== null && entry.person !== null && people.has(entry.person))
	return { mine, isCallers }
}

async function callersWeek(ctx: TimeCtx, target: SourceTarget, week: Week, now: Date) {
	const { mine, isCallers } = await callersEntries(ctx, target)
	const entries = (await readSourceEntries(ctx, target, { from: week.from, to: week.to }, now)).filter(isCallers)
	return { mine, entries }
}

const rowKey = (project: string | null, task: string | null) => JSON.stringify([project, task])
const blank = (text: string | null | undefined) => (text?.trim() ? text.trim() : null)

/** The grid of the week from the caller's entries that touch it. */
function toTimesheet(target: SourceTarget, timeZone: string, week: Week, entries: SourceEntry[], now: Date): Timesheet {
	const rows = new Map<string, TimesheetRow>()
	const dayIndex = new Map(week.days.map((day, index) => [day, index]))
	const dayTotals = week.days.map(() => 0)
	for (const entry of entries) {
		const project = entry.project
		const task = blank(entry.task)
		const key = rowKey(project, task)
		let row = rows.get(key)
		for (const { date, seconds } of splitIntoLocalDays(entry, timeZone, now)) {
			const index = dayIndex.get(date)
			if (index === undefined) {
				continue
			}
			row ??= {
				key,
				project,
				projectName: entry.projectName,
				task,
				seconds: week.days.map(() => 0),
				entries: week.days.map(() => 0),
				total: 0,
			}
			row.seconds[index] = (row.seconds[index] ?? 0) + seconds
			row.entries[index] = (row.entries[index] ?? 0) + 1
			row.total += seconds
			dayTotals[index] = (dayTotals[index] ?? 0) + seconds
			rows.set(key, row)
		}
	}
	const byName = (row: TimesheetRow) => [row.projectName ?? row.project ?? '\uffff', row.task ?? ''] as const
	const sorted = [...rows.values()].sort((a, b) => {
		const [pa, ta] = byName(a)
		const [pb, tb] = byName(b)
		return pa.localeCompare(pb) || ta.localeCompare(tb)
	})
	const overlaps = findOverlaps(
		entries.map((entry) => ({ id: entry.key, start: entry.start, end: entry.end })),
		now,
	).length
	return {
		databaseId: target.databaseId,
		timeZone,
		days: week.days,
		rows: sorted,
		dayTotals,
		total: dayTotals.reduce((sum, seconds) => sum + seconds, 0),
		overlaps,
	}
}

/** The caller's week in one database: a row per project and task, seconds per local day. */
export async function readTimesheet(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	query: { databaseId: string; date: string; weekStart: number; timeZone: string },
): Promise<Timesheet> {
	const target = { ...(await sourceTargetOf(ctx, tool, query.databaseId)), timeZone: query.timeZone }
	const now = ctx.now()
	const week = weekOf(query.date, query.weekStart, query.timeZone)
	const { entries } = await callersWeek(ctx, target, week, now)
	return toTimesheet(target, query.timeZone, week, entries, now)
}

/** Minutes past local midnight of an instant in `timeZone`. */
function wallMinutes(instant: Date, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		hour: 'numeric',
		minute: 'numeric',
	}).formatToParts(instant)
	const part = (type: string) => Number(parts.find((candidate) => candidate.type === type)?.value ?? 0)
	return part('hour') * 60 + part('minute')
}

/** Where a new entry of `seconds` goes on a local day: its start, as an instant. */
export function placeOnDay(
	day: { start: Date; end: Date },
	busy: { start: Date; end: Date }[],
	seconds: number,
	timeZone: string,
): Date {
	const ms = seconds * 1000
	// 09:00 on the wall clock, also on a day whose night had a DST change.
	const guess = new Date(day.start.getTime() + 9 * 3_600_000)
	const nine = new Date(guess.getTime() + (540 - wallMinutes(guess, timeZone)) * 60_000)
	const taken = busy
		.map((interval) => ({
			start: Math.max(interval.start.getTime(), day.start.getTime()),
			end: Math.min(interval.end.getTime(), day.end.getTime()),
		}))
		.filter((interval) => interval.end > interval.start)
		.sort((a, b) => a.start - b.start)
	const gaps: { start: number; end: number }[] = []
	let cursor = day.start.getTime()
	for (const interval of taken) {
		if (interval.start > cursor) {
			gaps.push({ start: cursor, end: interval.start })
		}
		cursor = Math.max(cursor, interval.end)
	}
	gaps.push({ start: cursor, end: day.end.getTime() })
	// The first free stretch from 09:00 on; else the latest one before (ending where it ends, so
	// as close to the working day as it fits); else right after the day's last entry.
	const fromNine = gaps.find((gap) => Math.max(gap.start, nine.getTime()) + ms <= gap.end)
	if (fromNine) {
		return new Date(Math.max(fromNine.start, nine.getTime()))
	}
	const before = gaps.findLast((gap) => gap.start + ms <= gap.end)
	if (before) {
		return new Date(before.end - ms)
	}
	const lastEnd = taken.length > 0 ? Math.max(...taken.map((interval) => interval.end)) : nine.getTime()
	return new Date(Math.max(day.start.getTime(), Math.min(lastEnd, day.end.getTime() - ms)))
}

/**
 * Sets one cell to a total (see `setTimesheetCellSchema`) and answers the week it is in. An empty
 * cell gets a new entry of that length; a cell of one entry of ours within the day changes its
 * length (0 deletes it); any other cell only grows, by a new entry for the difference.
 */
export async function setTimesheetCell(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	input: z.output<typeof setTimesheetCellSchema>,
): Promise<Timesheet> {
	// A Notion person is read from Notion: before the transaction, never while it holds the
	// database (PGlite has one connection).
	const { mapping } = await sourceTargetOf(ctx, tool, input.databaseId)
	const person =
		tool === 'notion' && mapping.person
			? await personValue(ctx, tool, (await findTimeDatabase(ctx, tool, input.databaseId)).database.workspaceId)
			: undefined
	// Two tabs setting one empty cell at once would each find it empty and each add an entry: a
	// cell's read and its write are one transaction, and one person's cells are set one at a time.
	return ctx.db.transaction(async (tx) => {
		await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`time-sheet:${ctx.orgId}:${ctx.userId}`}))`)
		return setCell({ ...ctx, db: tx, person }, tool, input)
	})
}

async function setCell(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	input: z.output<typeof setTimesheetCellSchema>,
): Promise<Timesheet> {
	const target = { ...(await sourceTargetOf(ctx, tool, input.databaseId)), timeZone: input.timeZone }
	const wanted = input.seconds ?? parseDurationField('duration', input.duration) ?? 0
	const bounds = dayOrInvalid(() => localDayBounds(input.date, input.timeZone))
	const day = { start: new Date(bounds.start), end: new Date(bounds.end) }
	const dayMs = day.end.getTime() - day.start.getTime()
	if (wanted * 1000 > dayMs) {
		invalid([
			{
				field: input.seconds === null ? 'duration' : 'seconds',
				message:
					dayMs === 0
						? `${input.date} does not exist in ${input.timeZone}.`
						: `${input.date} has ${dayMs / 3_600_000} hours in ${input.timeZone}.`,
			},
		])
	}
	const project = input.project ?? null
	const task = blank(input.task)
	const now = ctx.now()
	const { mine, isCallers } = await callersEntries(ctx, target)
	const sameDay = (await readSourceEntries(ctx, target, { from: day.start, to: day.end }, now)).filter(isCallers)
	const secondsOn = (entry: SourceEntry) =>
		splitIntoLocalDays(entry, input.timeZone, now).find((part) => part.date === input.date)?.seconds ?? 0
	const cell = sameDay.filter(
		(entry) => entry.project === project && blank(entry.task) === task && secondsOn(entry) > 0,
	)
	const current = cell.reduce((sum, entry) => sum + secondsOn(entry), 0)
	const [only] = cell
	const isOneOfOurs =
		cell.length === 1 &&
		only?.entryId != null &&
		mine.has(only.entryId) &&
		only.end !== null &&
		only.start >= day.start &&
		only.end <= day.end
	if (wanted === current) {
		// Nothing to change.
	} else if (cell.length === 0 || (wanted > current && !isOneOfOurs)) {
		const seconds = wanted - current
		const busy = sameDay.map((entry) => ({
			start: entry.start,
			end: entry.end ?? new Date(Math.max(now.getTime(), entry.start.getTime())),
		}))
		const startedAt = placeOnDay(day, busy, seconds, input.timeZone)
		await createEntry(ctx, tool, {
			databaseId: input.databaseId,
			startedAt: startedAt.toISOString(),
			durationSeconds: seconds,
			project,
			task,
		})
	} else if (isOneOfOurs && only?.entryId) {
		if (wanted === 0) {
			await deleteEntry(ctx, tool, only.entryId)
		} else {
			await updateEntry(ctx, tool, only.entryId, {
				startedAt: only.start.toISOString(),
				endedAt: new Date(only.start.getTime() + wanted * 1000).toISOString(),
			})
		}
	} else {
		throw new AppError('CONFLICT', {
			detail:
				cell.length > 1
					? `This cell is made of ${cell.length} entries: edit its entries to make it smaller.`
					: 'This cell is an entry that is running, crosses midnight or was written in the workspace: edit the entry to make it smaller.',
		})
	}
	const week = weekOf(input.date, input.weekStart, input.timeZone)
	const { entries } = await callersWeek(ctx, target, week, now)
	return toTimesheet(target, input.timeZone, week, entries, now)
}
