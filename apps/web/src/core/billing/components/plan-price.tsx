import type { BillingInterval, Plan } from '@blocksmith/contracts/subscriptions.ts'
import { Badge } from '#src/components/ui/badge.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { formatMoney, monthlyPrice, yearlySaving } from '../lib/billing-format.ts'

/** A plan's price per month on the interval, how it is billed, and (yearly) what that saves. */
export function PlanPrice({
	plan,
	interval,
	isCompact = false,
}: {
	plan: Plan
	interval: BillingInterval
	isCompact?: boolean
}) {
	const saving = yearlySaving(plan)
	return (
		<div className="grid gap-1">
			<p className="flex items-baseline gap-1">
				<span className={cn('font-semibold tracking-tight', isCompact ? 'text-lg' : 'text-3xl')}>
					{formatMoney(monthlyPrice(plan, interval), plan.currency, { isShort: true })}
				</span>{' '}
				<span className="text-muted-foreground text-sm">/ month</span>
			</p>
			<p className="flex flex-wrap items-center gap-1.5 text-muted-foreground text-xs">
				{interval === 'year'
					? `Billed ${formatMoney(plan.prices.year, plan.currency, { isShort: true })} yearly`
					: 'Billed monthly'}{' '}
				{interval === 'year' && saving.percent > 0 ? <Badge variant="success">Save {saving.percent}%</Badge> : null}
			</p>
		</div>
	)
}
