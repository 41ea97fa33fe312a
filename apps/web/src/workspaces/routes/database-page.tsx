import type { Database, Property, RowFilter, RowSort, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import {
	ChevronLeft,
	ChevronRight,
	ChevronsLeft,
	ChevronsRight,
	Download,
	Plus,
	Search,
	Settings2,
	Table2,
} from 'lucide-react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { Link, useParams } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import {
	createRow,
	databaseQuery,
	databasesQuery,
	downloadCsv,
	isSyncing,
	type RowsParams,
	rowFileUrl,
	rowsQuery,
	updateDatabase,
	usersQuery,
	workspaceKeys,
	workspacesQuery,
} from '../api/workspaces.ts'
import { CellContext } from '../components/cells.tsx'
import { FilterBar } from '../components/filter-bar.tsx'
import { draftsFromProperties, PropertiesDialog } from '../components/properties-editor.tsx'
import { orderedProperties, RowsTable } from '../components/rows-table.tsx'
import { SyncButton, SyncStatus } from '../components/sync-status.tsx'

const pageSizes = [
	{ value: '50', label: '50 rows' },
	{ value: '100', label: '100 rows' },
]

const numberFormat = new Intl.NumberFormat()

/** /workspaces/:workspaceId/databases/:databaseId: the table editor. */
export function DatabasePage() {
	const { workspaceId = '', databaseId = '' } = useParams()
	const workspaces = useQuery(workspacesQuery)
	const workspace = workspaces.data?.find((candidate) => candidate.id === workspaceId)
	if (workspaces.isPending) {
		return <PageSkeleton />
	}
	if (!workspace) {
		return (
			<EmptyState
				icon={Table2}
				title="This workspace is not connected"
				description="It may have been disconnected, or it belongs to another organization."
				action={
					<Button asChild>
						<Link to={paths.workspaces}>Back to workspaces</Link>
					</Button>
				}
			/>
		)
	}
	return (
		<DatabaseEditor
			tool={workspace.tool}
			workspaceId={workspaceId}
			workspaceName={workspace.name}
			databaseId={databaseId}
		/>
	)
}

function PageSkeleton() {
	return (
		<SkeletonGroup className="grid gap-4">
			<Skeleton className="h-8 w-64" />
			<Skeleton className="h-9 w-full" />
			<Skeleton className="h-96 w-full" />
		</SkeletonGroup>
	)
}

function DatabaseEditor({
	tool,
	workspaceId,
	workspaceName,
	databaseId,
}: {
	tool: WorkspaceTool
	workspaceId: string
	workspaceName: string
	databaseId: string
}) {
	const queryClient = useQueryClient()
	const database = useQuery(databaseQuery(tool, databaseId))
	const [limit, setLimit] = useState(50)
	const [offset, setOffset] = useState(0)
	const [searchText, setSearchText] = useState('')
	const [search, setSearch] = useState('')
	const [filters, setFilters] = useState<RowFilter[]>([])
	const [sorts, setSorts] = useState<RowSort[]>([])
	const [highlightedRowId, setHighlightedRowId] = useState<string | null>(null)
	const [isEditingProperties, setIsEditingProperties] = useState(false)
	const isLocal = tool === 'local'

	useEffect(() => {
		const timer = setTimeout(() => setSearch(searchText), 300)
		return () => clearTimeout(timer)
	}, [searchText])
	// A new search, filter, sort or page size starts again from the first page.
	// biome-ignore lint/correctness/useExhaustiveDependencies: the dependencies are the triggers
	useEffect(() => setOffset(0), [search, filters, sorts, limit])

	const params: RowsParams = { offset, limit, search, filters, sorts }
	const rows = useQuery({ ...rowsQuery(tool, databaseId, params), enabled: database.isSuccess })
	const properties = database.data ? orderedProperties(database.data) : []
	const needsUsers = properties.some((property) => ['people', 'created_by', 'last_edited_by'].includes(property.type))
	const users = useQuery({ ...usersQuery(tool, workspaceId), enabled: needsUsers })
	const relationTitle = useRelationTitles(tool, properties)
	const cellContext = useMemo(
		() => ({
			tool,
			users: users.data ?? [],
			relationTitle,
			openHostedFile: async (rowId: string, propertyId: string, index: number) => {
				try {
					window.open(await rowFileUrl(tool, databaseId, rowId, propertyId, index), '_blank', 'noopener')
				} catch (error) {
					toast.error(errorMessage(error))
				}
			},
		}),
		[tool, databaseId, users.data, relationTitle],
	)

	// When a sync finishes, the rows it brought are fetched.
	const wasSyncing = useRef(false)
	const syncing = database.data ? isSyncing(database.data) : false
	useEffect(() => {
		if (wasSyncing.current && !syncing) {
			void queryClient.invalidateQueries({ queryKey: workspaceKeys.rows(tool, databaseId) })
		}
		wasSyncing.current = syncing
	}, [syncing, queryClient, tool, databaseId])

	const addRow = useMutation({
		mutationFn: createRow,
		onSuccess: (row) => {
			queryClient.setQueryData(rowsQuery(tool, databaseId, params).queryKey, (page) =>
				page ? { ...page, rows: [row, ...page.rows], total: page.total + 1 } : page,
			)
			setHighlightedRowId(row.id)
			void queryClient.invalidateQueries({ queryKey: workspaceKeys.database(tool, databaseId) })
		},
	})
	const exportCsv = useMutation({
		mutationFn: downloadCsv,
		onError: (error) => toast.error(errorMessage(error)),
	})
	const editProperties = useMutation({
		mutationFn: updateDatabase,
		meta: { isFormMutation: true },
		onSuccess: async (updated) => {
			queryClient.setQueryData(workspaceKeys.database(tool, updated.id), updated)
			await queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
			toast.success('The properties were saved.')
		},
	})
	const siblings = useQuery({ ...databasesQuery(tool, workspaceId), enabled: isEditingProperties })

	if (database.isPending) {
		return <PageSkeleton />
	}
	if (!database.data) {
		return (
			<EmptyState
				icon={Table2}
				title="This database could not be loaded"
				description={errorMessage(database.error)}
				action={
					<Button asChild>
						<Link to={paths.workspaces}>Back to workspaces</Link>
					</Button>
				}
			/>
		)
	}
	const data: Database = database.data
	const page = rows.data
	const total = page?.total ?? 0
	const lastOffset = total > 0 ? Math.floor((total - 1) / limit) * limit : 0
	const isFiltered = Boolean(search.trim()) || filters.length > 0
	// Unfiltered, the page's total is the freshest count; filtered, the database's own.
	const rowCount = page && !isFiltered ? total : data.sync.rowCount

	return (
		<div className="grid grid-cols-1 gap-5">
			<div className="grid gap-3">
				<nav aria-label="Breadcrumb" className="text-muted-foreground text-sm">
					<Link to={paths.workspaces} className="hover:underline">
						Workspaces
					</Link>
					<span aria-hidden> / </span>
					<Link to={paths.workspace(workspaceId)} className="hover:underline">
						{workspaceName}
					</Link>
				</nav>
				<div className="flex flex-wrap items-start justify-between gap-4">
					<div className="grid gap-1">
						<h1 className="flex items-center gap-2 font-semibold text-2xl tracking-tight">
							{data.icon ? <span aria-hidden>{data.icon}</span> : <Table2 aria-hidden className="size-6" />}
							{data.name}
						</h1>
						<div className="flex flex-wrap items-center gap-2 text-sm">
							<Badge variant={isLocal ? 'neutral' : 'primary'}>{isLocal ? 'Built-in' : 'Notion'}</Badge>
							<span className="text-muted-foreground">
								{numberFormat.format(rowCount)} {rowCount === 1 ? 'row' : 'rows'}
							</span>
							{isLocal ? null : <SyncStatus database={data} />}
						</div>
					</div>
					<div className="flex flex-wrap items-center gap-2">
						{isLocal ? (
							<>
								<Button variant="outline" size="sm" onClick={() => setIsEditingProperties(true)}>
									<Settings2 aria-hidden /> Edit properties
								</Button>
								<Button
									size="sm"
									isLoading={addRow.isPending}
									onClick={() => addRow.mutate({ databaseId, values: {} })}
								>
									{addRow.isPending ? null : <Plus aria-hidden />} Add row
								</Button>
							</>
						) : (
							<SyncButton database={data} />
						)}
						<Button
							variant="outline"
							size="sm"
							isLoading={exportCsv.isPending}
							onClick={() => exportCsv.mutate({ tool, databaseId, name: data.name })}
						>
							{exportCsv.isPending ? null : <Download aria-hidden />} Export CSV
						</Button>
					</div>
				</div>
			</div>

			{isLocal ? null : (
				<Alert variant="info" title="Read-only mirror of a Notion database">
					Change the data in Notion, then sync. Forms and the other modules write into it for you: their writes are
					queued and delivered with retries (see Deliveries on the workspace).
				</Alert>
			)}

			<div className="grid gap-3">
				<div className="flex flex-wrap items-center gap-2">
					<div className="relative w-full max-w-xs">
						<Search
							aria-hidden
							className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
						/>
						<Input
							type="search"
							aria-label="Search titles"
							placeholder="Search titles…"
							className="pl-8"
							value={searchText}
							onChange={(event) => setSearchText(event.target.value)}
						/>
					</div>
					<Select
						aria-label="Rows per page"
						className="w-32"
						value={String(limit)}
						options={pageSizes}
						onValueChange={(value) => setLimit(Number(value))}
					/>
				</div>
				<FilterBar properties={properties} users={users.data ?? []} onChange={setFilters} />
			</div>

			<CellContext value={cellContext}>
				{rows.isPending ? (
					<SkeletonGroup label="Loading rows…">
						<Skeleton className="h-72 w-full" />
					</SkeletonGroup>
				) : page && page.rows.length > 0 ? (
					<div className={rows.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
						<RowsTable
							database={data}
							rows={page.rows}
							isEditable={isLocal}
							sorts={sorts}
							onSortsChange={setSorts}
							highlightedRowId={highlightedRowId}
						/>
					</div>
				) : (
					<EmptyState
						icon={Table2}
						headingLevel={2}
						title={isFiltered ? 'No rows match' : 'No rows yet'}
						description={
							isFiltered
								? 'Change the search or the filters to see more rows.'
								: isLocal
									? 'Add a row, or import a CSV file from the workspace page.'
									: 'Sync the database to bring its rows from Notion.'
						}
						action={
							isLocal && !isFiltered ? (
								<Button onClick={() => addRow.mutate({ databaseId, values: {} })} isLoading={addRow.isPending}>
									Add row
								</Button>
							) : undefined
						}
					/>
				)}
			</CellContext>

			{page && total > 0 ? (
				<nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 text-sm">
					<p className="text-muted-foreground tabular-nums" aria-live="polite">
						Rows {numberFormat.format(page.offset + 1)}–{numberFormat.format(page.offset + page.rows.length)} of{' '}
						{numberFormat.format(total)}
					</p>
					<div className="flex items-center gap-1">
						<Button
							variant="outline"
							size="icon-sm"
							aria-label="First page"
							disabled={offset === 0}
							onClick={() => setOffset(0)}
						>
							<ChevronsLeft aria-hidden />
						</Button>
						<Button
							variant="outline"
							size="icon-sm"
							aria-label="Previous page"
							disabled={offset === 0}
							onClick={() => setOffset(Math.max(0, offset - limit))}
						>
							<ChevronLeft aria-hidden />
						</Button>
						<span className="px-2 text-muted-foreground tabular-nums">
							Page {numberFormat.format(Math.floor(offset / limit) + 1)} of{' '}
							{numberFormat.format(Math.floor(lastOffset / limit) + 1)}
						</span>
						<Button
							variant="outline"
							size="icon-sm"
							aria-label="Next page"
							disabled={offset >= lastOffset}
							onClick={() => setOffset(Math.min(lastOffset, offset + limit))}
						>
							<ChevronRight aria-hidden />
						</Button>
						<Button
							variant="outline"
							size="icon-sm"
							aria-label="Last page"
							disabled={offset >= lastOffset}
							onClick={() => setOffset(lastOffset)}
						>
							<ChevronsRight aria-hidden />
						</Button>
					</div>
				</nav>
			) : null}

			{isLocal ? (
				<PropertiesDialog
					open={isEditingProperties}
					onOpenChange={setIsEditingProperties}
					title="Edit properties"
					description="Removing a property removes its values from every row."
					initialName={data.name}
					initialDrafts={draftsFromProperties(data.properties)}
					relationTargets={(siblings.data ?? [data]).map(({ id, name }) => ({ id, name }))}
					submitLabel="Save properties"
					onSubmit={({ name, properties: next }) =>
						editProperties.mutateAsync({ id: databaseId, changes: { name, properties: next } })
					}
				/>
			) : null}
		</div>
	)
}

/** Titles of related rows, from the first 200 rows of each related database. */
function useRelationTitles(tool: WorkspaceTool, properties: readonly Property[]) {
	const targets = [
		...new Set(
			properties.flatMap((property) =>
				property.type === 'relation' && property.relationDatabaseId ? [property.relationDatabaseId] : [],
			),
		),
	]
	const results = useQueries({
		queries: targets.map((id) => ({ ...rowsQuery(tool, id, { offset: 0, limit: 200 }), staleTime: 60_000 })),
	})
	const signature = results.map((result) => result.dataUpdatedAt).join(',')
	// biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt when any result changes (the signature)
	const titles = useMemo(() => {
		const map = new Map<string, Map<string, string>>()
		targets.forEach((id, index) => {
			// Local relations hold our row ids; Notion's hold page ids (the rows' external ids).
			const rows = results[index]?.data?.rows ?? []
			map.set(
				id,
				new Map(
					rows.flatMap((row) => [
						[row.id, row.title || 'Untitled'] as const,
						[row.externalId, row.title || 'Untitled'] as const,
					]),
				),
			)
		})
		return map
	}, [signature, targets.join(',')])
	return useCallback(
		(databaseId: string | null | undefined, rowId: string) =>
			databaseId ? titles.get(databaseId)?.get(rowId) : undefined,
		[titles],
	)
}
