import type { TimeAnalytics, TimeGroup, TimeGroupFigures, TimeSeries } from '@blocksmith/contracts/time-reports.ts'
import { lazy, type ReactNode, Suspense } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { formatDecimal, formatHours, formatMoney, groupLabels } from './report-format.ts'

// What a report shows, on its page and on its shared link alike: the totals, the chart of a
// series, the table by the grouping, and the notes on running and overlapping entries.

const ReportChart = lazy(() => import('./report-chart.tsx').then((m) => ({ default: m.ReportChart })))

type Figures = Pick<TimeAnalytics['totals'], 'seconds' | 'billableSeconds' | 'amount'>

function amountOf(amount: number | null, currency: string): string {
	return amount === null ? '—' : formatMoney(amount, currency)
}

export function ReportTotals({ analytics }: { analytics: Pick<TimeAnalytics, 'totals' | 'currency'> }) {
	const { totals, currency } = analytics
	const figures = [
		{ name: 'Total hours', value: formatHours(totals.seconds), title: formatDecimal(totals.seconds) },
		{
			name: 'Billable hours',
			value: formatHours(totals.billableSeconds),
			title: formatDecimal(totals.billableSeconds),
		},
		{ name: 'Amount', value: amountOf(totals.amount, currency), title: currency },
	]
	return (
		<dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
			{figures.map((figure) => (
				<div key={figure.name} className="grid gap-1 rounded-xl border bg-card p-4 shadow-xs">
					<dt className="text-muted-foreground text-sm">{figure.name}</dt>
					<dd className="font-semibold text-2xl tabular-nums tracking-tight" title={figure.title}>
						{figure.value}
					</dd>
				</div>
			))}
		</dl>
	)
}

/** The rows of the table for a grouping; "billable" is read from the totals, as it splits them in two. */
function rowsOf(analytics: TimeAnalytics | Omit<TimeAnalytics, 'viewId'>, groupBy: TimeGroup): TimeGroupFigures[] {
	if (groupBy !== 'billable') {
		return analytics.groups[groupBy]
	}
	const { totals } = analytics
	return [
		{ key: 'billable', label: 'Billable', ...totals, seconds: totals.billableSeconds },
		{
			key: 'non_billable',
			label: 'Not billable',
			seconds: totals.seconds - totals.billableSeconds,
			billableSeconds: 0,
			amount: null,
			entries: 0,
		},
	]
}

export function ReportGroupTable({
	analytics,
	groupBy,
}: {
	analytics: TimeAnalytics | Omit<TimeAnalytics, 'viewId'>
	groupBy: TimeGroup
}) {
	const rows = rowsOf(analytics, groupBy)
	const label = groupLabels[groupBy]
	return (
		<Table aria-label={`Time by ${label.toLowerCase()}`}>
			<TableHeader>
				<TableRow>
					<TableHead>{label}</TableHead>
					<TableHead isNumeric>Hours</TableHead>
					{/* On a phone the billable hours are in the cards above: the amount fits beside the hours. */}
					<TableHead isNumeric className="hidden sm:table-cell">
						Billable
					</TableHead>
					<TableHead isNumeric>Amount</TableHead>
				</TableRow>
			</TableHeader>
			<TableBody>
				{rows.length === 0 ? (
					<TableRow>
						<TableCell colSpan={4} className="text-center text-muted-foreground">
							No time in this range.
						</TableCell>
					</TableRow>
				) : (
					rows.map((row) => <FiguresRow key={row.key} label={row.label} figures={row} currency={analytics.currency} />)
				)}
				{rows.length > 1 ? (
					<FiguresRow label="Total" figures={analytics.totals} currency={analytics.currency} isTotal />
				) : null}
			</TableBody>
		</Table>
	)
}

function FiguresRow({
	label,
	figures,
	currency,
	isTotal = false,
}: {
	label: string
	figures: Figures
	currency: string
	isTotal?: boolean
}) {
	return (
		<TableRow className={isTotal ? 'font-semibold' : undefined}>
			<TableCell className="max-w-72 truncate">{label}</TableCell>
			<TableCell isNumeric title={formatDecimal(figures.seconds)}>
				{formatHours(figures.seconds)}
			</TableCell>
			<TableCell isNumeric className="hidden sm:table-cell" title={formatDecimal(figures.billableSeconds)}>
				{formatHours(figures.billableSeconds)}
			</TableCell>
			<TableCell isNumeric>{amountOf(figures.amount, currency)}</TableCell>
		</TableRow>
	)
}

/** Running entries count up to the moment the report was computed; overlaps are counted in full. */
export function ReportNotes({ analytics }: { analytics: Pick<TimeAnalytics, 'running' | 'overlaps' | 'rounding'> }) {
	const notes: string[] = []
	if (analytics.running > 0) {
		notes.push(
			analytics.running === 1
				? 'One entry is still running: it counts up to the time of this report.'
				: `${analytics.running} entries are still running: they count up to the time of this report.`,
		)
	}
	if (analytics.overlaps > 0) {
		notes.push(
			analytics.overlaps === 1
				? 'Two entries of one person overlap: both count in full.'
				: `${analytics.overlaps} pairs of one person's entries overlap: each counts in full.`,
		)
	}
	if (analytics.rounding) {
		const { mode, minutes, scope } = analytics.rounding
		const how = mode === 'nearest' ? 'to the nearest' : mode
		notes.push(`Rounded ${how} ${minutes} min ${scope === 'entry' ? 'per entry' : 'on each total'}.`)
	}
	if (notes.length === 0) {
		return null
	}
	return (
		<ul className="grid gap-1 text-muted-foreground text-sm">
			{notes.map((note) => (
				<li key={note}>{note}</li>
			))}
		</ul>
	)
}

/** The series as a chart, with its own heading and, on the report page, the interval switch. */
export function ReportSeries({
	series,
	isLoading,
	error,
	controls,
}: {
	series: TimeSeries | undefined
	isLoading: boolean
	error: string | null
	controls?: ReactNode
}) {
	const isEmpty = series?.buckets.every((bucket) => bucket.seconds === 0)
	return (
		<section aria-labelledby="series-heading" className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs sm:p-5">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<h2 id="series-heading" className="font-semibold text-base">
					Hours over time
				</h2>
				{controls}
			</div>
			{error ? (
				<Alert variant="error" title="The chart could not be loaded">
					{error}
				</Alert>
			) : isLoading || !series ? (
				<Skeleton className="h-[280px] w-full" />
			) : isEmpty ? (
				<p className="text-muted-foreground text-sm">No time in this range.</p>
			) : (
				<figure className="grid gap-2" aria-label="Hours per period">
					<Suspense fallback={<Skeleton className="h-[280px] w-full" />}>
						<ReportChart series={series} />
					</Suspense>
				</figure>
			)}
		</section>
	)
}
