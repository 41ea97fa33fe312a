import { limitLabels, type Usage, type UsageMeter } from '@blocksmith/contracts/subscriptions.ts'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { cn } from '#src/components/ui/cn.ts'
import {
	formatDate,
	formatLimit,
	formatLimitValue,
	isMonthlyMeter,
	type MeterTone,
	meterTone,
} from '../lib/billing-format.ts'

const barClasses: Record<MeterTone, string> = {
	normal: 'bg-primary dark:bg-ring',
	warning: 'bg-warning',
	full: 'bg-error',
}

/** What the organization uses of each of its plan's limits. */
export function UsageCard({ usage, planName }: { usage: Usage; planName: string }) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>Usage</CardTitle>
				<CardDescription>What your organization uses of the {planName} plan's limits.</CardDescription>
			</CardHeader>
			<CardContent>
				<ul className="grid gap-x-8 gap-y-5 sm:grid-cols-2">
					{usage.meters.map((meter) => (
						<li key={meter.key}>
							<Meter meter={meter} monthEnd={usage.monthEnd} />
						</li>
					))}
				</ul>
			</CardContent>
		</Card>
	)
}

function Meter({ meter, monthEnd }: { meter: UsageMeter; monthEnd: string }) {
	const { name } = limitLabels[meter.key]
	const used = formatLimitValue(meter.key, meter.used)
	const tone = meterTone(meter.used, meter.limit)
	const amount = meter.limit === null ? `${used} · Unlimited` : `${used} of ${formatLimit(meter.key, meter.limit)}`
	// The bar's width is for the eye only; the words carry the figures.
	const share = meter.limit === null || meter.limit === 0 ? 1 : Math.min(1, meter.used / meter.limit)
	return (
		<div className="grid gap-1.5">
			<div className="flex items-baseline justify-between gap-3 text-sm">
				<span className="font-medium">{name}</span>
				<span className={cn('tabular-nums', tone === 'full' ? 'text-error' : 'text-muted-foreground')}>
					{amount}
					{tone === 'full' ? ' · limit reached' : null}
				</span>
			</div>
			{meter.limit === null ? null : (
				<div
					role="progressbar"
					aria-label={name}
					aria-valuemin={0}
					aria-valuemax={meter.limit}
					aria-valuenow={Math.min(meter.used, meter.limit)}
					aria-valuetext={amount}
					data-tone={tone}
					className="h-2 overflow-hidden rounded-full bg-muted dark:bg-secondary"
				>
					<div className={cn('h-full rounded-full', barClasses[tone])} style={{ width: `${share * 100}%` }} />
				</div>
			)}
			{isMonthlyMeter(meter.key) ? (
				<p className="text-muted-foreground text-xs">Resets {formatDate(monthEnd, { isUtc: true })}</p>
			) : null}
		</div>
	)
}
