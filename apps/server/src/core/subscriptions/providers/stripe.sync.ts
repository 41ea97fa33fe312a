import {
	type BillingInterval,
	billingIntervalSchema,
	type PlanId,
	planIdSchema,
	type SubscriptionState,
} from '@blocksmith/contracts/subscriptions.ts'
import type Stripe from 'stripe'
import type { SubState } from '../subscriptions.machine.ts'
import type { SubscriptionRow } from '../subscriptions.store.ts'

/** Where Checkout and the billing portal send the owner back to. */
export const billingPath = '/settings?tab=billing'

const fromUnix = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null)

/** The plan and interval of a Stripe price, read from its lookup key (`blocksmith_<plan>_<interval>`). */
function planOfPrice(price: Stripe.Price): { planId: PlanId; interval: BillingInterval } | null {
	const match = /^blocksmith_([a-z]+)_([a-z]+)$/.exec(price.lookup_key ?? '')
	const planId = planIdSchema.safeParse(match?.[1])
	const interval = billingIntervalSchema.safeParse(match?.[2] ?? price.recurring?.interval)
	return planId.success && interval.success ? { planId: planId.data, interval: interval.data } : null
}

function statusOf(subscription: Stripe.Subscription): SubscriptionState {
	switch (subscription.status) {
		case 'trialing':
			return 'trialing'
		case 'active':
			// Stripe keeps a subscription with paused collection "active"; for us it is paused.
			return subscription.pause_collection ? 'paused' : 'active'
		case 'paused':
			return 'paused'
		case 'past_due':
		case 'unpaid':
		case 'incomplete':
			return 'past_due'
		case 'canceled':
		case 'incomplete_expired':
			return 'canceled'
	}
	return 'past_due'
}

/**
 * Our state of a subscription as Stripe has it now. Plans come from the price; a pending
 * downgrade is ours (a schedule Stripe applies at the period's end) and kept while the
 * subscription still has its schedule.
 */
export function stateFromStripe(subscription: Stripe.Subscription, existing: SubscriptionRow | null): SubState {
	const item = subscription.items.data[0]
	const plan = (item && planOfPrice(item.price)) ?? {
		planId: existing?.planId ?? 'pro',
		interval: existing?.interval ?? 'month',
	}
	const status = statusOf(subscription)
	const wasPaused = existing?.status === 'paused'
	const hasSchedule = subscription.schedule !== null
	const pendingPlanId =
		hasSchedule && existing?.pendingPlanId !== plan.planId ? (existing?.pendingPlanId ?? null) : null
	return {
		status,
		planId: plan.planId,
		interval: plan.interval,
		trialEndsAt: fromUnix(subscription.trial_end),
		currentPeriodStart: fromUnix(item?.current_period_start),
		currentPeriodEnd: fromUnix(item?.current_period_end),
		cancelAtPeriodEnd: status !== 'canceled' && (subscription.cancel_at_period_end || subscription.cancel_at !== null),
		canceledAt:
			status === 'canceled' ? (fromUnix(subscription.ended_at ?? subscription.canceled_at) ?? new Date()) : null,
		pausedAt: status === 'paused' ? (wasPaused ? (existing?.pausedAt ?? new Date()) : new Date()) : null,
		pauseReason:
			status === 'paused'
				? subscription.status === 'paused' && !subscription.pause_collection
					? 'trial_ended'
					: 'requested'
				: null,
		resumesAt: fromUnix(subscription.pause_collection?.resumes_at),
		pendingPlanId,
		pendingInterval: pendingPlanId ? (existing?.pendingInterval ?? null) : null,
		hasPaymentMethod: subscription.default_payment_method !== null,
	}
}
