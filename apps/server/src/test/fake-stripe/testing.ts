import Stripe from 'stripe'
import type { CardBehaviour, FakeStripe } from './fake-stripe.ts'

/** Helpers the fake's own tests share: an SDK client for it and a subscription bought through Checkout. */

export const DAY = 86_400

export function sdk(fake: FakeStripe): Stripe {
	return new Stripe(fake.apiKey, { host: fake.host, port: fake.port, protocol: 'http', maxNetworkRetries: 0 })
}

export async function priceId(stripe: Stripe, lookupKey: string): Promise<string> {
	const prices = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 })
	const found = prices.data[0]
	if (!found) {
		throw new Error(`no price ${lookupKey}`)
	}
	return found.id
}

/** Creates a subscription Checkout session and completes it as a customer paying on the page would. */
export async function subscribe(
	fake: FakeStripe,
	stripe: Stripe,
	options: {
		lookupKey?: string
		trialDays?: number
		card?: CardBehaviour | 'none'
		email?: string
		missingPaymentMethod?: 'cancel' | 'create_invoice' | 'pause'
	} = {},
): Promise<{ session: Stripe.Checkout.Session; subscription: Stripe.Subscription; customerId: string }> {
	const session = await stripe.checkout.sessions.create({
		mode: 'subscription',
		customer_email: options.email ?? 'owner@example.com',
		line_items: [{ price: await priceId(stripe, options.lookupKey ?? 'blocksmith_pro_month'), quantity: 1 }],
		subscription_data: {
			metadata: { organizationId: 'org_1' },
			...(options.trialDays ? { trial_period_days: options.trialDays } : {}),
			...(options.missingPaymentMethod
				? { trial_settings: { end_behavior: { missing_payment_method: options.missingPaymentMethod } } }
				: {}),
		},
		...(options.card === 'none' ? { payment_method_collection: 'if_required' as const } : {}),
		success_url: 'https://app.test/billing?session={CHECKOUT_SESSION_ID}',
		cancel_url: 'https://app.test/billing?checkout=canceled',
	})
	fake.completeCheckout(session.id, { card: options.card ?? 'ok' })
	const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] })
	const subscription = completed.subscription
	if (!subscription || typeof subscription === 'string') {
		throw new Error('the completed session has no expanded subscription')
	}
	return { session: completed, subscription, customerId: String(completed.customer) }
}

export function item(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
	const first = subscription.items.data[0]
	if (!first) {
		throw new Error('subscription without items')
	}
	return first
}

export function eventTypes(fake: FakeStripe, objectId?: string): string[] {
	return fake
		.events()
		.filter((view) => !objectId || (view.event.data.object as { id?: string }).id === objectId)
		.map((view) => view.event.type)
}

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
	try {
		await promise
	} catch (error) {
		return error
	}
	throw new Error('expected the call to fail')
}
