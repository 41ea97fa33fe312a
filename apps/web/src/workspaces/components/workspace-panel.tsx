import type { Database, Workspace, WorkspaceWrite, WriteState } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { FileUp, Plus, Send, Table2, Trash2, Unplug } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#src/components/ui/tabs.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import {
	createDatabase,
	databasesQuery,
	deleteDatabase,
	disconnectWorkspace,
	retryWrite,
	workspaceKeys,
	writesQuery,
} from '../api/workspaces.ts'
import { formatDateTime, relativeTime } from '../lib/values.ts'
import { defaultDrafts, PropertiesDialog } from './properties-editor.tsx'
import { SyncButton, SyncStatus } from './sync-status.tsx'

// papaparse and the import screen load when the import opens, not with the page.
const CsvImportDialog = lazy(() => import('./csv-import-dialog.tsx').then((m) => ({ default: m.CsvImportDialog })))

export function ToolBadge({ workspace }: { workspace: Workspace }) {
	return workspace.tool === 'notion' ? <Badge variant="primary">Notion</Badge> : <Badge>Built-in</Badge>
}

/** One workspace: its databases and its deliveries, and disconnecting it. */
export function WorkspacePanel({ workspace, onDisconnected }: { workspace: Workspace; onDisconnected: () => void }) {
	const queryClient = useQueryClient()
	const canRemove = useIsOwnerOrAdmin()
	// A built-in workspace is ours to delete; a Notion one is only disconnected (Notion keeps its data).
	const isBuiltIn = workspace.tool === 'local'
	const removeLabel = isBuiltIn ? 'Delete' : 'Disconnect'
	const disconnect = useMutation({
		mutationFn: disconnectWorkspace,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
			toast.success(`${workspace.name} was ${isBuiltIn ? 'deleted' : 'disconnected'}.`)
			onDisconnected()
		},
	})
	return (
		<section className="grid min-w-0 gap-4" aria-labelledby="workspace-heading">
			<div className="flex flex-wrap items-start justify-between gap-3">
				<div className="grid gap-1">
					<h2 id="workspace-heading" className="flex items-center gap-2 font-semibold text-lg">
						{workspace.icon ? <span aria-hidden>{workspace.icon}</span> : null}
						{workspace.name}
					</h2>
					<div className="flex flex-wrap items-center gap-2 text-muted-foreground text-sm">
						<ToolBadge workspace={workspace} />
						{workspace.status === 'needs_reauth' ? <Badge variant="warning">Needs reconnecting</Badge> : null}
						<span>Connected {relativeTime(workspace.createdAt)}</span>
					</div>
				</div>
				{canRemove ? (
					<ConfirmDialog
						title={`${removeLabel} ${workspace.name}?`}
						description={
							workspace.tool === 'local'
								? 'Its databases and all their rows are deleted. Forms, charts and other modules using them stop working.'
								: 'The mirror of its databases is removed from here (nothing changes in Notion), with any deliveries not yet made to it. Modules using them stop working.'
						}
						confirmLabel={removeLabel}
						isDestructive
						onConfirm={() => disconnect.mutateAsync(workspace.id)}
						trigger={
							<Button variant="ghost" size="sm" className="text-error">
								{isBuiltIn ? <Trash2 aria-hidden /> : <Unplug aria-hidden />} {removeLabel}
							</Button>
						}
					/>
				) : (
					<p className="max-w-56 text-muted-foreground text-xs">
						Only an owner or admin can {workspace.tool === 'local' ? 'delete' : 'disconnect'} this workspace.
					</p>
				)}
			</div>
			{workspace.status === 'needs_reauth' ? (
				<Alert variant="warning" title="Notion refused this connection">
					The integration was removed or its token was revoked. Connect Notion again to resume syncing; queued writes
					wait until then.
				</Alert>
			) : null}
			<Tabs defaultValue="databases">
				<TabsList>
					<TabsTrigger value="databases">
						<Table2 aria-hidden /> Databases
					</TabsTrigger>
					<TabsTrigger value="deliveries">
						<Send aria-hidden /> Deliveries
					</TabsTrigger>
				</TabsList>
				<TabsContent value="databases">
					<DatabasesList workspace={workspace} />
				</TabsContent>
				<TabsContent value="deliveries">
					<DeliveriesList workspace={workspace} />
				</TabsContent>
			</Tabs>
		</section>
	)
}

function DatabasesList({ workspace }: { workspace: Workspace }) {
	const databases = useQuery(databasesQuery(workspace.tool, workspace.id))
	const canDelete = useIsOwnerOrAdmin()
	const queryClient = useQueryClient()
	const [isCreating, setIsCreating] = useState(false)
	const [isImporting, setIsImporting] = useState(false)
	const isLocal = workspace.tool === 'local'
	const create = useMutation({
		mutationFn: createDatabase,
		meta: { isFormMutation: true },
		onSuccess: async (database) => {
			await queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
			toast.success(`${database.name} was created.`)
		},
	})
	const remove = useMutation({
		mutationFn: deleteDatabase,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
			toast.success('The database was deleted.')
		},
	})

	const actions = isLocal ? (
		<>
			<Button size="sm" onClick={() => setIsCreating(true)}>
				<Plus aria-hidden /> New database
			</Button>
			<Button variant="outline" size="sm" onClick={() => setIsImporting(true)}>
				<FileUp aria-hidden /> Import CSV
			</Button>
		</>
	) : null

	return (
		<div className="grid gap-3">
			{isLocal && databases.data?.length ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
			{databases.isPending ? (
				<SkeletonGroup label="Loading databases…">
					<Skeleton className="h-32" />
				</SkeletonGroup>
			) : databases.data?.length ? (
				<Table aria-label={`Databases of ${workspace.name}`}>
					<TableHeader>
						<TableRow>
							<TableHead>Database</TableHead>
							<TableHead isNumeric>Rows</TableHead>
							<TableHead>{isLocal ? 'Properties' : 'Sync'}</TableHead>
							<TableHead>
								<span className="sr-only">Actions</span>
							</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{databases.data.map((database) => (
							<DatabaseRow
								key={database.id}
								database={database}
								onDelete={canDelete ? () => remove.mutateAsync(database.id) : undefined}
							/>
						))}
					</TableBody>
				</Table>
			) : (
				<EmptyState
					icon={Table2}
					headingLevel={3}
					title="No databases yet"
					description={
						isLocal
							? 'Create a database with the properties you need, or import a CSV file with a header row.'
							: 'Add the integration to your databases in Notion (••• → Connections); they appear here on the next sync.'
					}
					action={actions}
				/>
			)}
			{isLocal && !canDelete && databases.data?.length ? (
				<p className="text-muted-foreground text-xs">Only an owner or admin can delete a database.</p>
			) : null}
			{isLocal ? (
				<>
					<PropertiesDialog
						open={isCreating}
						onOpenChange={setIsCreating}
						title="New database"
						description="Each property is a column. You can change them later."
						initialName=""
						initialDrafts={defaultDrafts()}
						relationTargets={databases.data ?? []}
						submitLabel="Create database"
						onSubmit={({ name, properties }) => create.mutateAsync({ workspaceId: workspace.id, name, properties })}
					/>
					{isImporting ? (
						<Suspense fallback={null}>
							<CsvImportDialog workspaceId={workspace.id} open={isImporting} onOpenChange={setIsImporting} />
						</Suspense>
					) : null}
				</>
			) : null}
		</div>
	)
}

/** `onDelete` is absent for members: only owners and admins delete databases. */
function DatabaseRow({ database, onDelete }: { database: Database; onDelete: (() => Promise<unknown>) | undefined }) {
	const isLocal = database.tool === 'local'
	return (
		<TableRow>
			<TableCell>
				<Link
					to={paths.database(database.workspaceId, database.id)}
					className="inline-flex items-center gap-2 font-medium hover:underline"
				>
					{database.icon ? (
						<span aria-hidden>{database.icon}</span>
					) : (
						<Table2 aria-hidden className="size-4 text-muted-foreground" />
					)}
					{database.name}
				</Link>
			</TableCell>
			<TableCell isNumeric>{database.sync.rowCount.toLocaleString()}</TableCell>
			<TableCell>
				{isLocal ? (
					<span className="text-muted-foreground">{database.properties.length}</span>
				) : (
					<SyncStatus database={database} className="whitespace-normal" />
				)}
			</TableCell>
			<TableCell className="text-right">
				{!isLocal ? (
					<SyncButton database={database} />
				) : onDelete ? (
					<ConfirmDialog
						title={`Delete ${database.name}?`}
						description={`Its ${database.sync.rowCount.toLocaleString()} rows are deleted, and modules using it stop working.`}
						confirmLabel="Delete"
						isDestructive
						onConfirm={onDelete}
						trigger={
							<Button variant="ghost" size="icon-sm" aria-label={`Delete ${database.name}`}>
								<Trash2 aria-hidden />
							</Button>
						}
					/>
				) : null}
			</TableCell>
		</TableRow>
	)
}

const stateBadges: Record<WriteState, { label: string; variant: 'neutral' | 'success' | 'warning' | 'error' }> = {
	pending: { label: 'Pending', variant: 'neutral' },
	delivered: { label: 'Delivered', variant: 'success' },
	failed: { label: 'Failed', variant: 'warning' },
	dead: { label: 'Dead', variant: 'error' },
}

const stateFilter = [
	{ value: 'all', label: 'All states' },
	{ value: 'pending', label: 'Pending' },
	{ value: 'delivered', label: 'Delivered' },
	{ value: 'failed', label: 'Failed' },
	{ value: 'dead', label: 'Dead' },
]

function DeliveriesList({ workspace }: { workspace: Workspace }) {
	const [state, setState] = useState<WriteState | undefined>(undefined)
	const writes = useQuery(writesQuery(workspace.id, state))
	const databases = useQuery(databasesQuery(workspace.tool, workspace.id))
	const queryClient = useQueryClient()
	const retry = useMutation({
		mutationFn: retryWrite,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: ['workspaces', 'writes', workspace.id] })
			toast.success('The write is queued again.')
		},
	})
	const databaseName = (id: string) => databases.data?.find((database) => database.id === id)?.name ?? 'A database'

	return (
		<div className="grid gap-3">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<p className="text-muted-foreground text-sm">
					Rows written by forms and modules, delivered in order and retried until they land.
				</p>
				<Select
					aria-label="Show deliveries in state"
					className="w-40"
					value={state ?? 'all'}
					options={stateFilter}
					onValueChange={(value) => setState(value === 'all' ? undefined : (value as WriteState))}
				/>
			</div>
			{writes.isPending ? (
				<SkeletonGroup label="Loading deliveries…">
					<Skeleton className="h-24" />
				</SkeletonGroup>
			) : writes.data?.length ? (
				<Table aria-label={`Deliveries of ${workspace.name}`}>
					<TableHeader>
						<TableRow>
							<TableHead>When</TableHead>
							<TableHead>Write</TableHead>
							<TableHead>State</TableHead>
							<TableHead>Reason</TableHead>
							<TableHead>
								<span className="sr-only">Actions</span>
							</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{writes.data.map((write) => {
							const badge = stateBadges[write.state]
							return (
								<TableRow key={write.id}>
									<TableCell className="text-muted-foreground" title={formatDateTime(write.createdAt)}>
										{relativeTime(write.createdAt)}
									</TableCell>
									<TableCell>
										<div className="grid">
											<span>
												{writeKindLabels[write.kind]} {databaseName(write.databaseId)}
											</span>
											<span className="text-muted-foreground text-xs">{sourceInWords(write)}</span>
										</div>
									</TableCell>
									<TableCell>
										<div className="grid gap-0.5">
											<Badge variant={badge.variant}>{badge.label}</Badge>
											<span className="text-muted-foreground text-xs">
												{write.attempts} {write.attempts === 1 ? 'attempt' : 'attempts'}
												{write.state === 'failed' && write.nextAttemptAt
													? ` · next ${relativeTime(write.nextAttemptAt)}`
													: ''}
											</span>
										</div>
									</TableCell>
									<TableCell className="max-w-80 whitespace-normal text-sm">
										{write.lastError ? (
											<span className="text-error">{write.lastError}</span>
										) : (
											<span className="text-muted-foreground">—</span>
										)}
									</TableCell>
									<TableCell className="text-right">
										{write.state === 'failed' || write.state === 'dead' ? (
											<Button
												variant="outline"
												size="sm"
												isLoading={retry.isPending && retry.variables?.writeId === write.id}
												onClick={() => retry.mutate({ workspaceId: workspace.id, writeId: write.id })}
											>
												Retry
											</Button>
										) : null}
									</TableCell>
								</TableRow>
							)
						})}
					</TableBody>
				</Table>
			) : (
				<EmptyState
					icon={Send}
					headingLevel={3}
					title={state ? `No ${stateBadges[state].label.toLowerCase()} deliveries` : 'No deliveries yet'}
					description="When a form or another module writes a row into this workspace, it shows here with its delivery state."
				/>
			)}
		</div>
	)
}

/** What a delivery does to its row, in the deliveries list. */
const writeKindLabels: Record<WorkspaceWrite['kind'], string> = {
	create: 'New row in',
	update: 'Update in',
	delete: 'Row deleted in',
	restore: 'Row restored in',
}

/** Who asked for a write, for people: "from the form Contact us", "by Ada Lovelace". */
function sourceInWords(write: Pick<WorkspaceWrite, 'source' | 'sourceLabel'>): string {
	const kind = write.source.slice(0, write.source.indexOf(':'))
	if (write.sourceLabel) {
		return kind === 'form' ? `from the form ${write.sourceLabel}` : `by ${write.sourceLabel}`
	}
	return kind === 'form' ? 'from a form' : kind === 'user' ? 'by a former member' : `from ${write.source}`
}
