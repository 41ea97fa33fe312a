import type { BillingInterval, Plan } from '@blocksmith/contracts/subscriptions.ts'
import type { ReactNode } from 'react'
import { Badge } from '#src/components/ui/badge.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { PlanPrice } from './plan-price.tsx'

/** The plans side by side: name, what it is for, its price on the interval, and its call to action. */
export function PlanCards({
	plans,
	interval,
	action,
}: {
	plans: readonly Plan[]
	interval: BillingInterval
	action: (plan: Plan) => ReactNode
}) {
	return (
		<ul className="grid gap-4 md:grid-cols-3">
			{plans.map((plan) => (
				<li
					key={plan.id}
					aria-labelledby={`plan-${plan.id}`}
					className={cn(
						'relative flex flex-col gap-5 rounded-xl border bg-card p-6 shadow-xs',
						plan.isHighlighted && 'border-primary shadow-md ring-1 ring-primary',
					)}
				>
					<div className="grid gap-1.5">
						<div className="flex flex-wrap items-center gap-2">
							<h2 id={`plan-${plan.id}`} className="font-semibold text-lg">
								{plan.name}
							</h2>
							{plan.isHighlighted ? <Badge variant="primary">Most popular</Badge> : null}
						</div>
						<p className="text-muted-foreground text-sm">{plan.description}</p>
					</div>
					<PlanPrice plan={plan} interval={interval} />
					<div className="mt-auto">{action(plan)}</div>
				</li>
			))}
		</ul>
	)
}
