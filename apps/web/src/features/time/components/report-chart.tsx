import type { TimeSeries } from '@blocksmith/contracts/time-reports.ts'
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts'
import { formatHours } from './report-format.ts'

// Recharts is loaded with this file only, when a report shows its chart (as the forms' analytics).

/** The Notion palette the chart builder starts with, then a few more for long breakdowns. */
const colors = ['#2383e2', '#d9730d', '#0f7b6c', '#9065b0', '#dfab01', '#e03e3e', '#64473a', '#ad1a72', '#9b9a97']

const tooltipStyle = {
	background: 'var(--popover)',
	color: 'var(--popover-foreground)',
	border: '1px solid var(--border)',
	borderRadius: 8,
	fontSize: 13,
}

type Datum = Record<string, string | number>

/**
 * Hours per bucket as bars, stacked by the breakdown when there is one. Values are drawn as
 * decimal hours (a float is fine on an axis); the tooltip writes them as h:mm from the seconds.
 */
export function ReportChart({ series }: { series: TimeSeries }) {
	const groups = series.breakdown ?? null
	const data: Datum[] = series.buckets.map((bucket, index) => {
		const datum: Datum = { label: bucket.label, total: bucket.seconds / 3600 }
		for (const [groupIndex, group] of (groups ?? []).entries()) {
			datum[`g${groupIndex}`] = (group.seconds[index] ?? 0) / 3600
		}
		return datum
	})
	return (
		<BarChart
			responsive
			data={data}
			style={{ width: '100%', height: 280 }}
			margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
			title="Hours per period"
		>
			<CartesianGrid vertical={false} stroke="var(--border)" />
			<XAxis
				dataKey="label"
				tickLine={false}
				axisLine={false}
				minTickGap={16}
				tick={{ fill: 'var(--muted-foreground)', fontSize: 12 }}
			/>
			<YAxis
				tickLine={false}
				axisLine={false}
				width={48}
				tickFormatter={(hours: number) => `${Math.round(hours * 10) / 10}h`}
				tick={{ fill: 'var(--muted-foreground)', fontSize: 12 }}
			/>
			<Tooltip
				contentStyle={tooltipStyle}
				cursor={{ fill: 'var(--muted)', opacity: 0.5 }}
				formatter={(value) => formatHours(Math.round(Number(value) * 3600))}
			/>
			{groups && groups.length > 0 ? (
				<>
					<Legend wrapperStyle={{ fontSize: 13 }} />
					{groups.map((group, index) => (
						<Bar
							key={group.key}
							dataKey={`g${index}`}
							name={group.label}
							stackId="hours"
							fill={colors[index % colors.length]}
							maxBarSize={36}
						/>
					))}
				</>
			) : (
				<Bar dataKey="total" name="Hours" fill="var(--primary)" radius={[3, 3, 0, 0]} maxBarSize={36} />
			)}
		</BarChart>
	)
}
