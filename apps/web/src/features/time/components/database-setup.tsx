import type { TimeDatabase } from '@blocksmith/contracts/time.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Database } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { workspacesQuery } from '#src/workspaces/api/workspaces.ts'
import { removeMapping, timeDatabasesQuery } from '../api/time.ts'
import { timeKeys } from '../api/time-keys.ts'
import { CreateDatabaseDialog } from './create-database-dialog.tsx'
import { fieldLabels, MappingDialog } from './mapping-dialog.tsx'

const toolLabels = { local: 'Built-in', notion: 'Notion' } as const

/** What the database is missing to hold entries, in a few words ("Start, End or Duration"). */
function missingOf(database: TimeDatabase): string | null {
	const review = database.saved ?? database.suggested
	const missing = review.fields.filter((check) => check.isRequired && !check.isMapped).map((check) => check.field)
	if (missing.length === 0) {
		return null
	}
	const hasNoEnd = missing.includes('end') && missing.includes('duration')
	const named = missing.filter((field) => !(hasNoEnd && (field === 'end' || field === 'duration')))
	return [...named.map((field) => fieldLabels[field]), ...(hasNoEnd ? ['an End or a Duration'] : [])].join(', ')
}

/**
 * The databases that can hold entries (both tools), each with its mapping's state, and the way to
 * create one. On first run it is what /time shows: the first database that fits is offered first.
 */
export function DatabaseSetup({ isFirstRun = false }: { isFirstRun?: boolean }) {
	const databases = useQuery(timeDatabasesQuery)
	const workspaces = useQuery(workspacesQuery)
	const navigate = useNavigate()
	const [mapping, setMapping] = useState<TimeDatabase | null>(null)
	const onReady = () => void navigate(paths.time)
	const create = <CreateDatabaseDialog onCreated={onReady} variant={databases.data?.length ? 'outline' : 'primary'} />

	if (databases.isPending) {
		return (
			<SkeletonGroup label="Loading databases…">
				<Skeleton className="h-40 w-full" />
			</SkeletonGroup>
		)
	}
	if (databases.isError) {
		return (
			<Alert variant="error" title="Your databases could not be loaded">
				{errorMessage(databases.error)}
			</Alert>
		)
	}
	if (databases.data.length === 0) {
		return (
			<EmptyState
				icon={Database}
				title="No database can hold time entries yet"
				description="Time entries are rows of a database with a date. Create one here, or connect Notion or add the sample workspace in Workspaces."
				action={
					<>
						{create}
						<Button asChild variant="ghost">
							<Link to={paths.workspaces}>Go to Workspaces</Link>
						</Button>
					</>
				}
			/>
		)
	}
	const workspaceName = (id: string) => workspaces.data?.find((workspace) => workspace.id === id)?.name
	// The one to offer first, while nothing is in use: the list puts the likeliest on top.
	const best = databases.data.some((database) => database.saved?.isComplete)
		? undefined
		: databases.data.find((database) => !database.saved && database.suggested.isComplete)
	return (
		<div className="grid gap-4">
			{isFirstRun ? (
				<div className="grid gap-1">
					<h2 className="font-semibold text-lg">Where should your time go?</h2>
					<p className="text-muted-foreground text-sm">
						Time entries are rows of one of your databases. Choose it, check which property holds what, and start the
						timer.
					</p>
				</div>
			) : null}
			<ul className="grid gap-2" aria-label="Databases for time entries">
				{databases.data.map((database) => {
					const missing = missingOf(database)
					const workspace = workspaceName(database.workspaceId)
					return (
						<li
							key={`${database.tool}:${database.id}`}
							className="flex flex-wrap items-center gap-3 rounded-xl border bg-card p-4 sm:flex-nowrap"
						>
							<div className="grid min-w-0 flex-1 gap-1">
								<div className="flex flex-wrap items-center gap-2">
									<h3 className="truncate font-medium">{database.name}</h3>
									<StateBadge database={database} isBest={database === best} />
								</div>
								<p className="text-muted-foreground text-sm">
									{workspace ? `${workspace} · ` : ''}
									{toolLabels[database.tool]}
									{missing ? ` · Missing: ${missing}` : ''}
								</p>
							</div>
							<div className="flex items-center gap-1">
								{database.saved ? <StopUsing database={database} /> : null}
								<Button
									variant={database === best || (database.saved && !database.saved.isComplete) ? 'primary' : 'outline'}
									onClick={() => setMapping(database)}
								>
									{/* Named with the database for screen readers; the visible words come first (WCAG 2.5.3). */}
									{database.saved ? 'Edit mapping ' : 'Use this database '}
									<span className="sr-only">
										{database.saved ? 'of' : 'for'} {database.name}
									</span>
								</Button>
							</div>
						</li>
					)
				})}
			</ul>
			<div className="flex flex-wrap items-center gap-3">
				{create}
				<p className="text-muted-foreground text-sm">In a built-in workspace, with everything already mapped.</p>
			</div>
			{mapping ? (
				<MappingDialog
					database={mapping}
					isOpen
					onOpenChange={(isOpen) => (isOpen ? null : setMapping(null))}
					onSaved={(saved) => {
						setMapping(null)
						if (saved.saved?.isComplete) {
							onReady()
						}
					}}
				/>
			) : null}
		</div>
	)
}

/** In use, needs attention, or (only the one offered first) ready to use: most databases with a date "fit". */
function StateBadge({ database, isBest }: { database: TimeDatabase; isBest: boolean }) {
	if (database.saved) {
		return database.saved.isComplete ? (
			<Badge variant="success">In use</Badge>
		) : (
			<Badge variant="warning" title="The database changed since it was mapped.">
				Needs attention
			</Badge>
		)
	}
	return isBest ? <Badge variant="primary">Ready to use</Badge> : null
}

function StopUsing({ database }: { database: TimeDatabase }) {
	const queryClient = useQueryClient()
	const remove = useMutation({
		mutationFn: removeMapping,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: timeKeys.databases })
			toast.success(`${database.name} is no longer used for time tracking.`)
		},
	})
	return (
		<ConfirmDialog
			title={`Stop tracking time in ${database.name}?`}
			description="Its rows stay in the database. You can map it again at any time."
			confirmLabel="Stop using"
			onConfirm={() => remove.mutateAsync(database)}
			trigger={
				<Button variant="ghost" size="sm">
					Stop using
				</Button>
			}
		/>
	)
}
