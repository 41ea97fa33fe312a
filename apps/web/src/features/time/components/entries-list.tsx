import { entryUndoSeconds, type TimeDatabase, type TimeEntry } from '@blocksmith/contracts/time.ts'
import { formatDuration } from '@blocksmith/contracts/time-duration.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertTriangle, CircleDollarSign, Clock3, FolderKanban, PencilLine, Play, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { continueEntry, deleteEntry, entriesQuery, restoreEntry, stopEntry, timerQuery } from '../api/time.ts'
import { timeKeys } from '../api/time-keys.ts'
import { groupByDay, localTime, overlappingIds, secondsOf } from '../lib/entries.ts'
import type { EntryProperties } from '../lib/hooks.ts'
import { useTimerChanged } from '../lib/timer-channel.ts'
import { EntryDialog } from './entry-dialog.tsx'

type EntriesListProps = {
	database: TimeDatabase
	properties: EntryProperties
	projectName: (value: string | null) => string | null
}

/** The caller's finished entries in the database, by local day with each day's total. */
export function EntriesList({ database, properties, projectName }: EntriesListProps) {
	const { tool } = database
	const queryClient = useQueryClient()
	const entries = useQuery(entriesQuery(tool, database.id))
	const timer = useQuery(timerQuery(tool))
	const changed = useTimerChanged()
	const [editing, setEditing] = useState<TimeEntry | null>(null)
	const now = Date.now()

	const restore = useMutation({
		mutationFn: restoreEntry,
		onSuccess: async () => {
			toast.success('Entry restored.')
			await changed()
		},
	})
	const remove = useMutation({
		mutationFn: deleteEntry,
		onSuccess: async (deleted) => {
			queryClient.setQueryData(timeKeys.entryList(tool, database.id), (list: TimeEntry[] | undefined) =>
				list?.filter((entry) => entry.id !== deleted.id),
			)
			toast('Entry deleted.', {
				duration: entryUndoSeconds * 1000,
				action: { label: 'Undo', onClick: () => restore.mutate({ tool, id: deleted.id }) },
			})
			await changed()
		},
	})
	// Continuing while a timer runs stops that one first, as people expect from a timer.
	const resume = useMutation({
		mutationFn: async (entry: TimeEntry) => {
			if (timer.data) {
				await stopEntry({ tool, id: timer.data.id })
			}
			return continueEntry({ tool, id: entry.id })
		},
		onSuccess: async (entry) => {
			queryClient.setQueryData(timeKeys.timer(tool), entry)
			await changed()
		},
	})

	if (entries.isPending) {
		return (
			<SkeletonGroup label="Loading entries…">
				<Skeleton className="h-40 w-full" />
			</SkeletonGroup>
		)
	}
	if (entries.isError) {
		return (
			<Alert variant="error" title="Your entries could not be loaded">
				{errorMessage(entries.error)}
			</Alert>
		)
	}
	const finished = entries.data.filter((entry) => !entry.isRunning)
	if (finished.length === 0) {
		return (
			<EmptyState
				icon={Clock3}
				title="No time tracked yet"
				description="Start the timer above, or add time you already spent."
			/>
		)
	}
	const overlaps = overlappingIds(entries.data, now)
	return (
		<div className="grid gap-6">
			{groupByDay(finished, now).map((group) => (
				<section key={group.day} aria-label={group.label} className="grid gap-1">
					<div className="flex items-baseline justify-between border-b px-1 pb-1.5">
						<h2 className="font-medium text-sm">{group.label}</h2>
						<span className="text-muted-foreground text-sm tabular-nums">
							<span className="sr-only">Total </span>
							{formatDuration(group.totalSeconds, { precision: 'minutes' })}
						</span>
					</div>
					<ul className="divide-y">
						{group.entries.map((entry) => (
							<EntryRow
								key={entry.id}
								entry={entry}
								database={database}
								projectName={projectName(entry.project)}
								isOverlapping={overlaps.has(entry.id)}
								onEdit={() => setEditing(entry)}
								onContinue={() => resume.mutate(entry)}
								onDelete={() => remove.mutate({ tool, id: entry.id })}
							/>
						))}
					</ul>
				</section>
			))}
			<EntryDialog
				database={database}
				properties={properties}
				projectName={projectName}
				{...(editing ? { entry: editing } : {})}
				isOpen={editing !== null}
				onOpenChange={(isOpen) => (isOpen ? null : setEditing(null))}
			/>
		</div>
	)
}

type EntryRowProps = {
	entry: TimeEntry
	database: TimeDatabase
	projectName: string | null
	isOverlapping: boolean
	onEdit: () => void
	onContinue: () => void
	onDelete: () => void
}

function EntryRow({ entry, database, projectName, isOverlapping, onEdit, onContinue, onDelete }: EntryRowProps) {
	// An entry made with a task only (the title may hold both) is named by its task.
	const name = entry.description || entry.task || 'No description'
	const seconds = secondsOf(entry, Date.now())
	return (
		<li className="group flex flex-wrap items-center gap-x-4 gap-y-1 px-1 py-2.5 sm:flex-nowrap">
			{/* On a phone the details take the first line and the times the second. */}
			<div className="grid min-w-0 flex-1 basis-full gap-0.5 sm:basis-0">
				<button
					type="button"
					onClick={onEdit}
					className="truncate text-left font-medium text-sm hover:underline data-[empty=true]:text-muted-foreground"
					data-empty={!(entry.description || entry.task)}
				>
					{name}
				</button>
				<div className="flex flex-wrap items-center gap-1.5 text-muted-foreground text-xs">
					{projectName ? (
						<span className="inline-flex items-center gap-1">
							<FolderKanban aria-hidden className="size-3.5" />
							{projectName}
						</span>
					) : null}
					{entry.tags.map((tag) => (
						<Badge key={tag} variant="neutral">
							{tag}
						</Badge>
					))}
					{isOverlapping ? (
						<Badge variant="warning" title="This entry's time overlaps another entry's.">
							<AlertTriangle aria-hidden /> Overlaps
						</Badge>
					) : null}
					<DeliveryState entry={entry} tool={database.tool} />
				</div>
			</div>
			<div className="ml-auto flex shrink-0 items-center gap-4">
				{entry.billable ? (
					<CircleDollarSign aria-label="Billable" role="img" className="size-4 shrink-0 text-success" />
				) : null}
				<span className="text-muted-foreground text-sm tabular-nums">
					{localTime(entry.startedAt)}–{entry.endedAt ? localTime(entry.endedAt) : ''}
				</span>
				<span className="w-14 text-right font-medium text-sm tabular-nums">
					{formatDuration(seconds, { precision: 'minutes' })}
				</span>
				<div className="flex items-center gap-0.5">
					<Button variant="ghost" size="icon-sm" aria-label={`Continue ${name}`} title="Continue" onClick={onContinue}>
						<Play aria-hidden />
					</Button>
					<Button variant="ghost" size="icon-sm" aria-label={`Edit ${name}`} title="Edit" onClick={onEdit}>
						<PencilLine aria-hidden />
					</Button>
					<Button variant="ghost" size="icon-sm" aria-label={`Delete ${name}`} title="Delete" onClick={onDelete}>
						<Trash2 aria-hidden />
					</Button>
				</div>
			</div>
		</li>
	)
}

/** Said only while the row is not in the workspace yet: pending quietly, a failure plainly. */
function DeliveryState({ entry, tool }: { entry: TimeEntry; tool: TimeDatabase['tool'] }) {
	const where = tool === 'notion' ? 'Notion' : 'the database'
	if (entry.delivery === 'pending') {
		return <span>Saving to {where}…</span>
	}
	if (entry.delivery === 'failed') {
		return <span className="text-warning-on-tint">Not in {where} yet: trying again</span>
	}
	if (entry.delivery === 'dead') {
		return <span className="text-error">Could not be saved to {where}: retry it from Workspaces → Deliveries</span>
	}
	return null
}
