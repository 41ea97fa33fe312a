import type { TimeDatabase, TimeEntry } from '@blocksmith/contracts/time.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Play, Square } from 'lucide-react'
import { type FormEvent, useEffect, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { startTimer, stopEntry, timerQuery, updateEntry } from '../api/time.ts'
import { timeKeys } from '../api/time-keys.ts'
import { formatElapsed, secondsOf } from '../lib/entries.ts'
import { type EntryProperties, rememberDatabase } from '../lib/hooks.ts'
import { useTimerChanged } from '../lib/timer-channel.ts'
import { useNow } from '../lib/use-now.ts'
import { BillableToggle, ProjectPicker, TagsPicker } from './detail-pickers.tsx'

type Draft = { description: string; project: string | null; tags: string[]; billable: boolean }
const emptyDraft: Draft = { description: '', project: null, tags: [], billable: false }

type TimerBarProps = {
	database: TimeDatabase
	properties: EntryProperties
	projectName: (value: string | null) => string | null
}

/**
 * "What are you working on?", its project, tags and billable, and Start/Stop. The running entry
 * is the server's (this tool's timer, read again on focus, every 30 s and when another tab says
 * so); while it runs, a change to its details is saved to it at once.
 */
export function TimerBar({ database, properties, projectName }: TimerBarProps) {
	const { tool } = database
	const queryClient = useQueryClient()
	const timer = useQuery(timerQuery(tool))
	const running = timer.data ?? null
	const now = useNow(Boolean(running))
	const changed = useTimerChanged()
	const [draft, setDraft] = useState<Draft>(emptyDraft)
	const [chosenName, setChosenName] = useState<string | null>(null)
	// The running entry's description as being typed; saved on Enter or when the field is left.
	const [description, setDescription] = useState('')
	useEffect(() => setDescription(running?.description ?? ''), [running?.description])

	const setTimer = (entry: TimeEntry | null) => queryClient.setQueryData(timeKeys.timer(tool), entry)
	const start = useMutation({
		mutationFn: startTimer,
		onSuccess: async (entry) => {
			setTimer(entry)
			rememberDatabase(database)
			setDraft(emptyDraft)
			await changed()
		},
	})
	const stop = useMutation({
		mutationFn: stopEntry,
		onSuccess: async () => {
			setTimer(null)
			await changed()
		},
	})
	const update = useMutation({
		mutationFn: updateEntry,
		onSuccess: async (entry) => {
			setTimer(entry)
			await changed()
		},
	})

	// Another database's timer (of this tool) is shown and can be stopped, not edited from here.
	const isOtherDatabase = Boolean(running && running.databaseId !== database.id)
	const change = (changes: Partial<Omit<Draft, 'description'>>) => {
		if (!running) {
			setDraft((current) => ({ ...current, ...changes }))
		} else if (!isOtherDatabase) {
			update.mutate({ tool, id: running.id, changes })
		}
	}
	const shown: Draft = running
		? {
				description,
				project: running.project,
				tags: running.tags,
				billable: running.billable ?? false,
			}
		: draft

	function submit(event: FormEvent): void {
		event.preventDefault()
		if (running) {
			stop.mutate({ tool, id: running.id })
			return
		}
		start.mutate({
			tool,
			timer: {
				databaseId: database.id,
				description: draft.description.trim() || null,
				project: draft.project,
				tags: draft.tags,
				billable: properties.billable ? draft.billable : null,
			},
		})
	}

	function saveDescription(): void {
		if (running && !isOtherDatabase && description.trim() !== (running.description ?? '')) {
			update.mutate({ tool, id: running.id, changes: { description: description.trim() || null } })
		}
	}

	return (
		<form
			onSubmit={submit}
			aria-label="Timer"
			className="flex flex-wrap items-center gap-2 rounded-xl border bg-card p-2 shadow-xs sm:flex-nowrap"
		>
			<Input
				aria-label="What are you working on?"
				placeholder="What are you working on?"
				value={shown.description}
				maxLength={2000}
				disabled={isOtherDatabase}
				onChange={(event) =>
					running ? setDescription(event.target.value) : setDraft({ ...draft, description: event.target.value })
				}
				onBlur={saveDescription}
				onKeyDown={(event) => {
					// Enter while running saves the description; it must not stop the timer.
					if (event.key === 'Enter' && running) {
						event.preventDefault()
						saveDescription()
					}
				}}
				className="h-10 min-w-0 flex-1 basis-full border-0 bg-transparent text-base shadow-none focus-visible:ring-0 sm:basis-auto dark:bg-transparent"
			/>
			<div className="flex flex-1 flex-wrap items-center gap-1 sm:flex-none sm:flex-nowrap">
				{properties.project ? (
					<ProjectPicker
						database={database}
						property={properties.project}
						value={shown.project}
						name={running ? projectName(running.project) : chosenName}
						isDisabled={isOtherDatabase}
						onChange={(project, name) => {
							setChosenName(name)
							change({ project })
						}}
					/>
				) : null}
				{properties.tags ? (
					<TagsPicker
						property={properties.tags}
						value={shown.tags}
						isDisabled={isOtherDatabase}
						onChange={(tags) => change({ tags })}
					/>
				) : null}
				{properties.billable ? (
					<BillableToggle
						value={shown.billable}
						isDisabled={isOtherDatabase}
						onChange={(billable) => change({ billable })}
					/>
				) : null}
				<span
					role="timer"
					aria-label="Elapsed time"
					className="ml-auto min-w-20 px-2 text-right font-medium font-mono text-lg tabular-nums"
				>
					{formatElapsed(running ? secondsOf(running, now) : 0)}
				</span>
				{running ? (
					<Button type="submit" variant="destructive" isLoading={stop.isPending} className="min-w-24">
						<Square aria-hidden className="fill-current" /> Stop
					</Button>
				) : (
					<Button type="submit" isLoading={start.isPending} disabled={timer.isPending} className="min-w-24">
						<Play aria-hidden className="fill-current" /> Start
					</Button>
				)}
			</div>
			{isOtherDatabase ? (
				<p className="basis-full px-2 text-muted-foreground text-sm">
					This timer runs in another database. Stop it to track time here.
				</p>
			) : null}
		</form>
	)
}
