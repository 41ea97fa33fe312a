import type { FormAnalytics } from '@blocksmith/contracts/forms.ts'
import { Area, Bar, CartesianGrid, ComposedChart, Legend, Tooltip, XAxis, YAxis } from 'recharts'

// Recharts is loaded with this file only, when the analytics page shows a chart.

const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' })

function formatDay(date: string): string {
	const parsed = new Date(`${date}T00:00:00Z`)
	return Number.isNaN(parsed.getTime()) ? date : dayLabel.format(parsed)
}

/** Views as a grey area behind submissions as bars, one point per day. */
export function DailyChart({ daily }: { daily: FormAnalytics['daily'] }) {
	return (
		<ComposedChart
			responsive
			data={daily}
			style={{ width: '100%', height: 280 }}
			margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
			title="Views and submissions per day"
		>
			<CartesianGrid vertical={false} stroke="var(--border)" />
			<XAxis
				dataKey="date"
				tickFormatter={formatDay}
				tickLine={false}
				axisLine={false}
				minTickGap={24}
				tick={{ fill: 'var(--muted-foreground)', fontSize: 12 }}
			/>
			<YAxis
				allowDecimals={false}
				tickLine={false}
				axisLine={false}
				width={48}
				tick={{ fill: 'var(--muted-foreground)', fontSize: 12 }}
			/>
			<Tooltip
				labelFormatter={(label) => formatDay(String(label))}
				contentStyle={{
					background: 'var(--popover)',
					color: 'var(--popover-foreground)',
					border: '1px solid var(--border)',
					borderRadius: 8,
					fontSize: 13,
				}}
				cursor={{ fill: 'var(--muted)', opacity: 0.5 }}
			/>
			<Legend wrapperStyle={{ fontSize: 13 }} />
			<Area
				dataKey="views"
				name="Views"
				type="monotone"
				stroke="var(--muted-foreground)"
				strokeWidth={1.5}
				fill="var(--muted-foreground)"
				fillOpacity={0.12}
				activeDot={{ r: 4 }}
			/>
			<Bar dataKey="submissions" name="Submissions" fill="var(--primary)" radius={[3, 3, 0, 0]} maxBarSize={28} />
		</ComposedChart>
	)
}
