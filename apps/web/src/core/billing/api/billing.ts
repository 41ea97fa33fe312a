import {
	type BillingInterval,
	type CreateSubscriptionWithoutLogin,
	type CreateSubscriptionWithoutLoginResult,
	createSubscriptionWithoutLoginResultSchema,
	type PaymentProvider,
	type PlanId,
	type PlansResponse,
	plansResponseSchema,
	type SubscriptionActionResult,
	type SubscriptionOverview,
	subscriptionActionResultSchema,
	subscriptionOverviewSchema,
} from '@blocksmith/contracts/subscriptions.ts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '#src/lib/api-client.ts'

export const billingKeys = {
	all: ['billing'] as const,
	plans: ['billing', 'plans'] as const,
	subscription: ['billing', 'subscription'] as const,
}

export const plansQuery = queryOptions({
	queryKey: billingKeys.plans,
	queryFn: ({ signal }): Promise<PlansResponse> => api('/api/plans', { schema: plansResponseSchema, signal }),
	// The catalogue changes with a deploy, not while a page is open.
	staleTime: 10 * 60_000,
	meta: { isErrorShownInPage: true },
})

export const subscriptionQuery = queryOptions({
	queryKey: billingKeys.subscription,
	queryFn: ({ signal }): Promise<SubscriptionOverview> =>
		api('/api/subscriptions', { schema: subscriptionOverviewSchema, signal }),
	meta: { isErrorShownInPage: true },
})

function act(path: string, body: object = {}): Promise<SubscriptionActionResult> {
	return api(path, { json: body, schema: subscriptionActionResultSchema })
}

export function cancelSubscription(): Promise<SubscriptionActionResult> {
	return act('/api/subscriptions/cancel_subscription')
}

/** Without `resumesAt` the pause lasts until someone resumes it. */
export function pauseSubscription(resumesAt: string | null): Promise<SubscriptionActionResult> {
	return act('/api/subscriptions/pause_subscription', { resumesAt })
}

export function resumeSubscription(): Promise<SubscriptionActionResult> {
	return act('/api/subscriptions/resume_subscription')
}

export function updatePaymentDetails(): Promise<SubscriptionActionResult> {
	return act('/api/subscriptions/update_payment_details')
}

export function endTrialAndBill(): Promise<SubscriptionActionResult> {
	return act('/api/subscriptions/end_trial_and_bill')
}

// The plan change and its undoing go to the provider's own path: with Stripe they may answer
// Checkout's address instead of changing anything here.

export function updatePlan(
	provider: PaymentProvider,
	choice: { planId: PlanId; interval: BillingInterval },
): Promise<SubscriptionActionResult> {
	return act(`/api/${provider}/update_plan`, choice)
}

export function dontCancel(provider: PaymentProvider): Promise<SubscriptionActionResult> {
	return act(`/api/${provider}/dont_cancel`)
}

/** The pricing page's sign-up for visitors: Stripe's Checkout address, or (local) a confirmation e-mail. */
export function createSubscriptionWithoutLogin(
	input: CreateSubscriptionWithoutLogin,
): Promise<CreateSubscriptionWithoutLoginResult> {
	return api('/api/subscriptions/create_subs_without_login', {
		json: input,
		schema: createSubscriptionWithoutLoginResultSchema,
	})
}
