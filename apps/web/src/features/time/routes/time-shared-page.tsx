import type { SharedTimeReport } from '@blocksmith/contracts/time-reports.ts'
import { Download, Link2Off } from 'lucide-react'
import { useEffect, useState, useSyncExternalStore } from 'react'
import { useParams } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { ThemeProvider } from '#src/components/ui/theme.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { fetchSharedReport, sharedExportPath } from '../api/reports.ts'
import { ReportGroupTable, ReportNotes, ReportSeries, ReportTotals } from '../components/report-figures.tsx'
import { describeDates, formatDate } from '../components/report-format.ts'

type Loaded =
	| { status: 'loading' }
	| { status: 'ready'; report: SharedTimeReport }
	| { status: 'gone' }
	| { status: 'failed'; message: string }

const darkQuery = '(prefers-color-scheme: dark)'

function subscribeToSystem(onChange: () => void): () => void {
	const query = window.matchMedia(darkQuery)
	query.addEventListener('change', onChange)
	return () => query.removeEventListener('change', onChange)
}

const systemTheme = () => (window.matchMedia(darkQuery).matches ? 'dark' : 'light')

/**
 * /time/shared/:token: a report shared read-only by a link, for a visitor who is signed out. No
 * app chrome and no React Query (the page sits outside the data layout, like the public form).
 * Light or dark as the visitor's system says, whatever this browser chose in the app.
 */
export function TimeSharedPage() {
	const theme = useSyncExternalStore(subscribeToSystem, systemTheme, () => 'light' as const)
	return (
		<ThemeProvider forcedTheme={theme}>
			<SharedPage />
		</ThemeProvider>
	)
}

function SharedPage() {
	const { token = '' } = useParams()
	const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' })

	useEffect(() => {
		const controller = new AbortController()
		setLoaded({ status: 'loading' })
		fetchSharedReport(token, controller.signal).then(
			(report) => setLoaded({ status: 'ready', report }),
			(error: unknown) => {
				if (controller.signal.aborted) {
					return
				}
				setLoaded(
					error instanceof ApiError && error.status === 404
						? { status: 'gone' }
						: { status: 'failed', message: errorMessage(error) },
				)
			},
		)
		return () => controller.abort()
	}, [token])

	useEffect(() => {
		if (loaded.status === 'ready') {
			document.title = `${loaded.report.name} · Time report`
		}
	}, [loaded])

	return (
		<main className="mx-auto grid min-h-dvh w-full max-w-5xl content-start gap-6 bg-background px-4 py-8 sm:px-6">
			{loaded.status === 'loading' ? (
				<SkeletonGroup label="Loading the report…" className="grid gap-4">
					<Skeleton className="h-8 w-72" />
					<div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
						<Skeleton className="h-24" />
						<Skeleton className="h-24" />
						<Skeleton className="h-24" />
					</div>
					<Skeleton className="h-72" />
				</SkeletonGroup>
			) : loaded.status === 'gone' ? (
				<EmptyState
					icon={Link2Off}
					title="This report link has expired or was revoked."
					description="Ask the person who shared it for a new link."
				/>
			) : loaded.status === 'failed' ? (
				<Alert variant="error" title="The report could not be loaded">
					{loaded.message}
				</Alert>
			) : (
				<SharedReport token={token} report={loaded.report} />
			)}
		</main>
	)
}

function SharedReport({ token, report }: { token: string; report: SharedTimeReport }) {
	const { analytics } = report
	return (
		<>
			<header className="flex flex-wrap items-end justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="font-semibold text-2xl tracking-tight">{report.name}</h1>
					<p className="text-muted-foreground text-sm">
						{describeDates(analytics.from, analytics.to)} · {analytics.timeZone}
						{report.expiresAt ? ` · This link works until ${formatDate(report.expiresAt.slice(0, 10))}` : ''}
					</p>
				</div>
				<div className="flex gap-2">
					{(['csv', 'pdf'] as const).map((format) => (
						<Button key={format} asChild variant="outline" size="sm">
							<a href={sharedExportPath(token, format)} download>
								<Download aria-hidden /> {format.toUpperCase()}
							</a>
						</Button>
					))}
				</div>
			</header>
			<ReportTotals analytics={analytics} />
			<ReportNotes analytics={analytics} />
			<ReportSeries series={report.series} isLoading={false} error={null} />
			<section aria-labelledby="by-project-heading" className="grid gap-3">
				<h2 id="by-project-heading" className="font-semibold text-base">
					By project
				</h2>
				<ReportGroupTable analytics={analytics} groupBy="project" />
			</section>
		</>
	)
}
