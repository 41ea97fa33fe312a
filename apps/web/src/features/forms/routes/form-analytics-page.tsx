import type { Form, FormAnalytics } from '@blocksmith/contracts/forms.ts'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useMemo, useState } from 'react'
import { useParams } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { type AnalyticsRange, analyticsQuery } from '../api/forms.ts'
import { FormGate, FormHeader } from '../components/form-frame.tsx'

// Recharts is the largest library of the builder: it downloads with the chart, on this page only.
const DailyChart = lazy(() => import('../components/daily-chart.tsx').then((m) => ({ default: m.DailyChart })))
// Below the daily figures: the drop-off bars load with the chart rather than before the page shows.
const DropOffChart = lazy(() => import('../components/drop-off-chart.tsx').then((m) => ({ default: m.DropOffChart })))

const rangeDays = [7, 30, 90] as const
type RangeDays = (typeof rangeDays)[number]

const numberFormat = new Intl.NumberFormat()
const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 })

/** The last `days` days up to today, counted in the browser's time zone. */
function rangeOf(days: number, now: Date = new Date()): AnalyticsRange {
	const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone
	const to = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
		now,
	)
	const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10)
	return { from, to, timeZone }
}

/** /forms/:id/analytics: views, starts, submissions and completion over a range of days, and drop-off per step. */
export function FormAnalyticsPage() {
	const { id = '' } = useParams()
	return (
		<FormGate id={id}>
			{(form) => (
				<div className="grid grid-cols-1 gap-5">
					<FormHeader form={form} />
					<Analytics form={form} />
				</div>
			)}
		</FormGate>
	)
}

function Analytics({ form }: { form: Form }) {
	const [days, setDays] = useState<RangeDays>(30)
	const range = useMemo(() => rangeOf(days), [days])
	const analytics = useQuery(analyticsQuery(form.id, range))
	const data = analytics.data

	return (
		<div className="grid gap-5">
			<div className="flex flex-wrap items-center justify-between gap-3">
				<p className="text-muted-foreground text-sm">
					Counted per day in your time zone ({range.timeZone}). Views and starts are counted without cookies.
				</p>
				<fieldset className="flex gap-1 rounded-lg bg-muted p-1">
					<legend className="sr-only">Range</legend>
					{rangeDays.map((candidate) => (
						<Button
							key={candidate}
							size="sm"
							variant={days === candidate ? 'outline' : 'ghost'}
							aria-pressed={days === candidate}
							className={cn('h-7 pointer-coarse:h-9', days === candidate && 'shadow-xs')}
							onClick={() => setDays(candidate)}
						>
							{candidate} days
						</Button>
					))}
				</fieldset>
			</div>

			{analytics.isPending ? (
				<SkeletonGroup label="Loading analytics…" className="grid gap-4">
					<div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
						{[0, 1, 2, 3].map((index) => (
							<Skeleton key={index} className="h-24" />
						))}
					</div>
					<Skeleton className="h-72" />
				</SkeletonGroup>
			) : !data ? (
				<Alert variant="error" title="The analytics could not be loaded">
					{errorMessage(analytics.error)}
				</Alert>
			) : (
				<div className={cn('grid gap-5', analytics.isPlaceholderData && 'opacity-60 transition-opacity')}>
					<Totals data={data} />
					<section
						aria-labelledby="daily-heading"
						className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs sm:p-5"
					>
						<h2 id="daily-heading" className="font-semibold text-base">
							Per day
						</h2>
						{data.views === 0 && data.submissions === 0 ? (
							<p className="text-muted-foreground text-sm">
								Nothing yet in these {days} days. Views and submissions show here once the published form is opened.
							</p>
						) : (
							<figure className="grid gap-2" aria-label="Views and submissions per day">
								<Suspense fallback={<Skeleton className="h-[280px] w-full" />}>
									<DailyChart daily={data.daily} />
								</Suspense>
							</figure>
						)}
						<details className="text-sm">
							<summary className="w-fit cursor-pointer text-muted-foreground hover:text-foreground">
								Show the figures as a table
							</summary>
							<Table
								aria-label="Views, starts and submissions per day"
								containerClassName="mt-3 max-h-96 overflow-y-auto"
							>
								<TableHeader>
									<TableRow>
										<TableHead>Day</TableHead>
										<TableHead isNumeric>Views</TableHead>
										<TableHead isNumeric>Starts</TableHead>
										<TableHead isNumeric>Submissions</TableHead>
									</TableRow>
								</TableHeader>
								<TableBody>
									{[...data.daily].reverse().map((day) => (
										<TableRow key={day.date}>
											<TableCell>{day.date}</TableCell>
											<TableCell isNumeric>{numberFormat.format(day.views)}</TableCell>
											<TableCell isNumeric>{numberFormat.format(day.starts)}</TableCell>
											<TableCell isNumeric>{numberFormat.format(day.submissions)}</TableCell>
										</TableRow>
									))}
								</TableBody>
							</Table>
						</details>
					</section>
					<section
						aria-labelledby="drop-off-heading"
						className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs sm:p-5"
					>
						<div className="grid gap-1">
							<h2 id="drop-off-heading" className="font-semibold text-base">
								Drop-off
							</h2>
							<p className="text-muted-foreground text-sm">
								How far visits got: each page and question, how many visits reached it, and the share that went no
								further (after the last question: did not submit). No answers are sent to count this.
							</p>
						</div>
						<Suspense fallback={<Skeleton className="h-40 w-full" />}>
							<DropOffChart steps={data.steps} />
						</Suspense>
					</section>
				</div>
			)}
		</div>
	)
}

function Totals({ data }: { data: FormAnalytics }) {
	const figures = [
		{ name: 'Views', value: numberFormat.format(data.views), note: 'Times the page was opened' },
		{ name: 'Starts', value: numberFormat.format(data.starts), note: 'Visitors who began to answer' },
		{ name: 'Submissions', value: numberFormat.format(data.submissions), note: 'Answers sent, spam left out' },
		{
			name: 'Completion rate',
			value: data.completionRate === null ? '—' : percentFormat.format(data.completionRate),
			note: 'Submissions per view',
		},
	]
	return (
		<dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
			{figures.map((figure) => (
				<div key={figure.name} className="grid gap-1 rounded-xl border bg-card p-4 shadow-xs">
					<dt className="text-muted-foreground text-sm">{figure.name}</dt>
					<dd className="font-semibold text-2xl tabular-nums tracking-tight">{figure.value}</dd>
					<dd className="text-muted-foreground text-xs">{figure.note}</dd>
				</div>
			))}
		</dl>
	)
}
