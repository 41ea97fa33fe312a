import type { Chart } from '@blocksmith/contracts/charts.ts'
import { useQuery } from '@tanstack/react-query'
import { BarChart3 } from 'lucide-react'
import { Link, useSearchParams } from 'react-router'
import { ListPageHeader } from '#src/components/page-header.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#src/components/ui/tabs.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { workspacesQuery } from '#src/workspaces/api/workspaces.ts'
import { formatDateTime, relativeTime } from '#src/workspaces/lib/values.ts'
import { chartsQuery } from '../api/charts.ts'
import { dashboardsQuery } from '../api/dashboards.ts'
import { ChartActionsMenu, ChartStatusBadge } from '../components/chart-actions.tsx'
import { chartTypeIcon } from '../components/chart-type-icon.tsx'
import { DashboardsView, NewDashboardDialog } from '../components/dashboard-list.tsx'
import { NewChartDialog, NoChartDatabases } from '../components/new-chart-dialog.tsx'
import { typeChoiceOf, typeLabels } from '../lib/chart-config.ts'
import { chartPaths } from '../lib/chart-paths.ts'

const toolLabels = { local: 'Built-in', notion: 'Notion' } as const

type View = 'charts' | 'dashboards'

/**
 * /charts: every chart of the organization, on Notion or built-in databases, newest change first;
 * `?view=dashboards` shows the dashboards that arrange them instead (the URL keeps the choice).
 */
export function ChartsPage() {
	const [searchParams, setSearchParams] = useSearchParams()
	const view: View = searchParams.get('view') === 'dashboards' ? 'dashboards' : 'charts'
	const charts = useQuery(chartsQuery)
	const dashboards = useQuery({ ...dashboardsQuery, enabled: view === 'dashboards' })
	// As with charts, an empty list offers its first one in its empty state, not twice.
	const newButton =
		view === 'charts' ? (
			charts.data?.length ? (
				<NewChartDialog />
			) : null
		) : dashboards.data?.length ? (
			<NewDashboardDialog />
		) : null
	return (
		<div className="grid grid-cols-1 gap-6">
			<ListPageHeader
				title="Charts"
				description={
					view === 'charts'
						? 'Live charts of your databases, embeddable in Notion.'
						: 'Several charts on one page, published and embedded as one.'
				}
				action={newButton}
			/>
			<Tabs
				value={view}
				onValueChange={(value) =>
					setSearchParams(
						(current) => {
							const next = new URLSearchParams(current)
							if (value === 'dashboards') {
								next.set('view', 'dashboards')
							} else {
								next.delete('view')
							}
							return next
						},
						{ replace: true },
					)
				}
			>
				<TabsList variant="pills" aria-label="Show">
					<TabsTrigger value="charts">Charts</TabsTrigger>
					<TabsTrigger value="dashboards">Dashboards</TabsTrigger>
				</TabsList>
				<TabsContent value="charts">
					<ChartsList />
				</TabsContent>
				<TabsContent value="dashboards">
					<DashboardsView />
				</TabsContent>
			</Tabs>
		</div>
	)
}

function ChartsList() {
	const charts = useQuery(chartsQuery)
	const workspaces = useQuery(workspacesQuery)
	const workspaceName = (chart: Chart) => workspaces.data?.find((item) => item.id === chart.workspaceId)?.name
	return charts.isPending ? (
		<SkeletonGroup label="Loading charts…">
			<Skeleton className="h-48 w-full" />
		</SkeletonGroup>
	) : charts.isError ? (
		<Alert variant="error" title="Your charts could not be loaded">
			{errorMessage(charts.error)}
		</Alert>
	) : charts.data.length ? (
		<Table aria-label="Charts">
			<TableHeader>
				<TableRow>
					<TableHead>Chart</TableHead>
					<TableHead className="hidden md:table-cell">Database</TableHead>
					<TableHead>Status</TableHead>
					<TableHead className="hidden sm:table-cell">Updated</TableHead>
					<TableHead>
						<span className="sr-only">Actions</span>
					</TableHead>
				</TableRow>
			</TableHeader>
			<TableBody>
				{charts.data.map((chart) => {
					const choice = typeChoiceOf(chart.config)
					const Icon = chartTypeIcon(choice, chart.config.display.orientation)
					const workspace = workspaceName(chart)
					return (
						<TableRow key={chart.id}>
							<TableCell className="max-w-72">
								<div className="flex min-w-0 items-center gap-2.5">
									<span
										className="flex size-7 shrink-0 items-center justify-center rounded-md border bg-muted/40"
										title={`${typeLabels[choice]} chart`}
									>
										<Icon aria-hidden className="size-4 text-muted-foreground" />
										<span className="sr-only">{typeLabels[choice]} chart:</span>
									</span>
									<Link to={chartPaths.edit(chart.id, chart.tool)} className="truncate font-medium hover:underline">
										{chart.name}
									</Link>
								</div>
							</TableCell>
							<TableCell className="hidden max-w-64 text-muted-foreground md:table-cell">
								<div className="flex min-w-0 items-center gap-2">
									<span className="truncate">
										{chart.databaseId ? chart.databaseName : 'Database removed'}
										{workspace ? ` · ${workspace}` : ''}
									</span>
									<span className="shrink-0 rounded border px-1 text-[11px] leading-4">{toolLabels[chart.tool]}</span>
								</div>
							</TableCell>
							<TableCell>
								<div className="flex flex-wrap items-center gap-1.5">
									<ChartStatusBadge chart={chart} />
									{/* A property the chart uses was removed: its embeds show the problem until it is fixed. */}
									{chart.problems.length > 0 ? (
										<Badge variant="warning" title={chart.problems.map((problem) => problem.message).join(' ')}>
											Needs attention
										</Badge>
									) : null}
								</div>
							</TableCell>
							<TableCell className="hidden text-muted-foreground sm:table-cell" title={formatDateTime(chart.updatedAt)}>
								{relativeTime(chart.updatedAt)}
							</TableCell>
							<TableCell className="text-right">
								<ChartActionsMenu chart={chart} isInList />
							</TableCell>
						</TableRow>
					)
				})}
			</TableBody>
		</Table>
	) : (
		<EmptyCharts hasDatabases={workspaces.data?.some((workspace) => workspace.databasesCount > 0)} />
	)
}

/** What a chart is, and the first step: a chart, or the database a chart needs. */
function EmptyCharts({ hasDatabases }: { hasDatabases: boolean | undefined }) {
	return (
		<EmptyState
			icon={BarChart3}
			title="No charts yet"
			description="A chart counts, sums or averages the rows of a database — by month, by status, by anything — and stays up to date as the rows change. Publish it to embed it in a Notion page, in light or dark."
			action={hasDatabases === false ? <NoChartDatabases /> : <NewChartDialog />}
		/>
	)
}
