import { useQuery } from '@tanstack/react-query'
import { BarChart3 } from 'lucide-react'
import { useMemo } from 'react'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { formatDateTime, relativeTime } from '#src/workspaces/lib/values.ts'
import { viewsQuery } from '../api/reports.ts'
import { isTrackable, timeDatabasesQuery } from '../api/time.ts'
import { describeRange, groupLabels } from '../components/report-format.ts'
import { NewReportDialog, ReportActionsMenu } from '../components/report-view-dialogs.tsx'
import { TimeLayout } from '../components/time-nav.tsx'

/** /time/reports: the saved views of the mapped time databases, newest change first. */
export function TimeReportsPage() {
	const views = useQuery(viewsQuery)
	const databases = useQuery(timeDatabasesQuery)
	const mapped = useMemo(() => (databases.data ?? []).filter(isTrackable), [databases.data])
	return (
		<TimeLayout
			title="Reports"
			description="Saved views of your time: totals, billable amounts and charts by project, person or client."
			action={views.data?.length ? <NewReportDialog databases={mapped} /> : null}
		>
			{views.isPending ? (
				<SkeletonGroup label="Loading reports…">
					<Skeleton className="h-48 w-full" />
				</SkeletonGroup>
			) : views.isError ? (
				<Alert variant="error" title="Your reports could not be loaded">
					{errorMessage(views.error)}
				</Alert>
			) : views.data.length === 0 ? (
				<EmptyState
					icon={BarChart3}
					title="No reports yet"
					description="A report is a saved view of a time database: a range such as this month, filters, rounding and a grouping. Share it by a link or export it."
					action={
						databases.isPending ? null : mapped.length > 0 ? (
							<NewReportDialog databases={mapped} />
						) : (
							<Button asChild>
								<Link to={paths.timeSetup}>Set up a time database first</Link>
							</Button>
						)
					}
				/>
			) : (
				<Table aria-label="Reports">
					<TableHeader>
						<TableRow>
							<TableHead>Report</TableHead>
							<TableHead className="hidden md:table-cell">Database</TableHead>
							<TableHead className="hidden sm:table-cell">Range</TableHead>
							<TableHead className="hidden sm:table-cell">Updated</TableHead>
							<TableHead>
								<span className="sr-only">Actions</span>
							</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{views.data.map((view) => (
							<TableRow key={`${view.tool}:${view.id}`}>
								<TableCell className="max-w-72">
									<Link to={paths.timeReport(view.id, view.tool)} className="truncate font-medium hover:underline">
										{view.name}
									</Link>
								</TableCell>
								<TableCell className="hidden max-w-64 truncate text-muted-foreground md:table-cell">
									{view.databaseName}
								</TableCell>
								<TableCell className="hidden text-muted-foreground sm:table-cell">
									{describeRange(view.settings.range)} · by {groupLabels[view.settings.groupBy].toLowerCase()}
								</TableCell>
								<TableCell
									className="hidden text-muted-foreground sm:table-cell"
									title={formatDateTime(view.updatedAt)}
								>
									{relativeTime(view.updatedAt)}
								</TableCell>
								<TableCell className="text-right">
									<ReportActionsMenu view={view} isInList />
								</TableCell>
							</TableRow>
						))}
					</TableBody>
				</Table>
			)}
		</TimeLayout>
	)
}
