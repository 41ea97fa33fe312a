import type { BillingInterval, PlanId } from '@blocksmith/contracts/subscriptions.ts'
import { paths } from '#src/app/paths.ts'

// Settings → Billing's change-plan dialog opens from a link (the pricing page, the 402 toast,
// /paused): the address says so, and which plan and interval to preselect.

export const changePlanParam = { dialog: 'dialog', value: 'change-plan', plan: 'plan', interval: 'interval' } as const

export function changePlanPath(choice: { planId?: PlanId; interval?: BillingInterval } = {}): string {
	const search = new URLSearchParams({ [changePlanParam.dialog]: changePlanParam.value })
	if (choice.planId) {
		search.set(changePlanParam.plan, choice.planId)
	}
	if (choice.interval) {
		search.set(changePlanParam.interval, choice.interval)
	}
	return `${paths.billing}&${search.toString()}`
}
