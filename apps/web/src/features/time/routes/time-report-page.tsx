import type { TimeViewSettings } from '@blocksmith/contracts/time-reports.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { BarChart3, Check, CircleAlert } from 'lucide-react'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { PageGate } from '#src/components/page-gate.tsx'
import { ItemPageHeader } from '#src/components/page-header.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import {
	analyticsQuery,
	reportKeys,
	type SeriesInterval,
	seriesQuery,
	type ToolView,
	updateView,
	viewQuery,
} from '../api/reports.ts'
import { ReportExportMenu } from '../components/report-export-menu.tsx'
import { ReportGroupTable, ReportNotes, ReportSeries, ReportTotals } from '../components/report-figures.tsx'
import { ReportFilters } from '../components/report-filters.tsx'
import { describeDates, groupLabels } from '../components/report-format.ts'
import { ReportInvoiceDialog } from '../components/report-invoice-dialog.tsx'
import { ReportRatesDialog } from '../components/report-rates-dialog.tsx'
import { ReportShareDialog } from '../components/report-share-dialog.tsx'
import { ReportActionsMenu } from '../components/report-view-dialogs.tsx'
import { TimeNav } from '../components/time-nav.tsx'

/** How long the filters must rest before they are saved: one save per pause, not per click. */
const autosaveDelayMs = 600

const intervals: { value: SeriesInterval; label: string }[] = [
	{ value: 'day', label: 'Daily' },
	{ value: 'week', label: 'Weekly' },
	{ value: 'month', label: 'Monthly' },
]

type SaveState = { state: 'idle' } | { state: 'saving' } | { state: 'saved' } | { state: 'failed'; message: string }

/** /time/reports/:id: a saved view's filters, saved as they change, and its figures, chart and table. */
export function TimeReportPage() {
	const { id = '' } = useParams()
	const [search] = useSearchParams()
	const hint = search.get('tool')
	const view = useQuery(viewQuery(id, hint === 'local' || hint === 'notion' ? hint : null))
	return (
		<div className="grid grid-cols-1 gap-6">
			<TimeNav />
			<PageGate
				query={view}
				loadingLabel="Loading the report…"
				icon={BarChart3}
				errorTitle="This report could not be loaded"
				backTo={paths.timeReports}
				backLabel="Back to reports"
			>
				{(loaded) => <Report key={loaded.id} view={loaded} />}
			</PageGate>
		</div>
	)
}

const sameSettings = (left: TimeViewSettings, right: TimeViewSettings) => JSON.stringify(left) === JSON.stringify(right)

function Report({ view }: { view: ToolView }) {
	const queryClient = useQueryClient()
	const [settings, setSettings] = useState(view.settings)
	const [interval, setSeriesInterval] = useState<SeriesInterval>('day')
	const [saveState, setSaveState] = useState<SaveState>({ state: 'idle' })
	const [errors, setErrors] = useState<Record<string, string>>({})
	// What the server holds: a change is saved only when it differs from it.
	const saved = useRef(view.settings)
	const latest = useRef({ view, settings })
	latest.current = { view, settings }

	const save = useMutation({
		mutationFn: updateView,
		meta: { isErrorShownInPage: true },
		onMutate: () => setSaveState({ state: 'saving' }),
		onSuccess: (updated, variables) => {
			// What was sent is what the page holds: the server's copy of it may only add defaults.
			saved.current = (variables.changes.settings as TimeViewSettings | undefined) ?? saved.current
			queryClient.setQueryData(reportKeys.view(updated.id), updated)
			void queryClient.invalidateQueries({ queryKey: reportKeys.views })
			setErrors({})
			setSaveState({ state: 'saved' })
		},
		onError: (error) => {
			setErrors(
				error instanceof ApiError
					? Object.fromEntries(error.fieldErrors.map((item) => [item.field, item.message]))
					: {},
			)
			setSaveState({ state: 'failed', message: errorMessage(error) })
		},
	})
	const { mutate } = save

	useEffect(() => {
		if (sameSettings(settings, saved.current)) {
			return
		}
		const timer = setTimeout(() => mutate({ view, changes: { settings } }), autosaveDelayMs)
		return () => clearTimeout(timer)
	}, [settings, view, mutate])

	// Leaving the page within the pause still saves the last change.
	useEffect(
		() => () => {
			const { view: last, settings: pending } = latest.current
			if (!sameSettings(pending, saved.current)) {
				void updateView({ view: last, changes: { settings: pending } }).then(
					(updated) => queryClient.setQueryData(reportKeys.view(updated.id), updated),
					() => undefined,
				)
			}
		},
		[queryClient],
	)

	const analytics = useQuery(analyticsQuery(view))
	const series = useQuery(seriesQuery(view, interval, settings.groupBy))
	const data = analytics.data

	return (
		<div className="grid gap-5">
			<ItemPageHeader
				crumbs={[
					{ label: 'Time', to: paths.time },
					{ label: 'Reports', to: paths.timeReports },
				]}
				title={view.name}
				badge={<SaveStatus state={saveState} />}
				details={
					<p className="text-muted-foreground text-sm">
						{view.databaseName}
						{data ? ` · ${describeDates(data.from, data.to)} · ${data.timeZone}` : ''}
					</p>
				}
				actions={
					<div className="flex flex-wrap gap-2">
						<ReportRatesDialog view={view} projects={data?.groups.project ?? []} />
						<ReportExportMenu view={view} />
						<ReportShareDialog view={view} />
						<ReportInvoiceDialog view={view} />
						<ReportActionsMenu view={view} isInList={false} />
					</div>
				}
			/>
			<ReportFilters settings={settings} onChange={setSettings} analytics={data} errors={errors} />
			{analytics.isPending ? (
				<SkeletonGroup label="Loading the figures…" className="grid gap-4">
					<Skeleton className="h-24 w-full" />
					<Skeleton className="h-72 w-full" />
				</SkeletonGroup>
			) : !data ? (
				<Alert variant="error" title="The figures could not be loaded">
					{errorMessage(analytics.error)}
				</Alert>
			) : (
				<div className={cn('grid gap-5', analytics.isPlaceholderData && 'opacity-60 transition-opacity')}>
					<ReportTotals analytics={data} />
					<ReportNotes analytics={data} />
					<ReportSeries
						series={series.data}
						isLoading={series.isPending}
						error={series.isError && !series.data ? errorMessage(series.error) : null}
						controls={<IntervalSwitch value={interval} onChange={setSeriesInterval} />}
					/>
					<section aria-labelledby="groups-heading" className="grid gap-3">
						<h2 id="groups-heading" className="font-semibold text-base">
							By {groupLabels[settings.groupBy].toLowerCase()}
						</h2>
						<ReportGroupTable analytics={data} groupBy={settings.groupBy} />
					</section>
				</div>
			)}
		</div>
	)
}

function IntervalSwitch({ value, onChange }: { value: SeriesInterval; onChange: (value: SeriesInterval) => void }) {
	return (
		<fieldset className="flex gap-1 rounded-lg bg-muted p-1">
			<legend className="sr-only">Period</legend>
			{intervals.map((candidate) => (
				<Button
					key={candidate.value}
					size="sm"
					variant={value === candidate.value ? 'outline' : 'ghost'}
					aria-pressed={value === candidate.value}
					className={cn('h-7 pointer-coarse:h-9', value === candidate.value && 'shadow-xs')}
					onClick={() => onChange(candidate.value)}
				>
					{candidate.label}
				</Button>
			))}
		</fieldset>
	)
}

function SaveStatus({ state }: { state: SaveState }) {
	let content: ReactNode = null
	if (state.state === 'saving') {
		content = (
			<>
				<Spinner size="sm" /> Saving…
			</>
		)
	} else if (state.state === 'saved') {
		content = (
			<>
				<Check aria-hidden className="size-3.5 text-success" /> Saved
			</>
		)
	} else if (state.state === 'failed') {
		content = (
			<span className="flex items-center gap-1 text-error" title={state.message}>
				<CircleAlert aria-hidden className="size-3.5" /> Not saved: {state.message}
			</span>
		)
	}
	return (
		<span role="status" className="flex items-center gap-1.5 text-muted-foreground text-xs">
			{content}
		</span>
	)
}
