import type { SubscriptionState } from '@blocksmith/contracts/subscriptions.ts'

// What the dashboard's shell needs on every page (its gate, the trial banner): apart from
// billing-format.ts, so that the shell carries no formatting of money or limits.

const dayMs = 86_400_000

/** Whole days left, rounded up (the last afternoon still counts as a day), never negative. */
export function daysLeft(until: string, now: number = Date.now()): number {
	return Math.max(0, Math.ceil((Date.parse(until) - now) / dayMs))
}

export function daysLeftLabel(days: number): string {
	return `${days} ${days === 1 ? 'day' : 'days'} left`
}

/** The states in which the dashboard is closed and /paused explains why. */
export function isInactive(state: SubscriptionState): boolean {
	return state === 'paused' || state === 'past_due' || state === 'canceled'
}
