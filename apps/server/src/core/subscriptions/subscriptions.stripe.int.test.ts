import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_PRICES, type FakeStripe, startFakeStripe } from '#src/test/fake-stripe/fake-stripe.ts'
import { createTestApp, randomIp, type TestApp } from '#src/test/test-app.ts'
import { billingEvents } from './subscriptions.schema.ts'

// Billing through Stripe, against the fake Stripe driven by the official SDK: Checkout after a
// trial without a card, every action on a Stripe subscription, webhooks (verified, recorded by
// id, replayed twice and shuffled to the same state), a payment that fails and is fixed, and a
// visitor who pays before having an account. Webhooks are handed to the app by the test, so it
// decides when, how often and in which order they arrive.

const secret = 'whsec_blocksmith_test_secret'
let fake: FakeStripe
let t: TestApp
let delivered = 0

beforeAll(async () => {
	fake = await startFakeStripe({ prices: DEFAULT_PRICES })
	fake.setWebhook({ url: 'http://127.0.0.1:9/nowhere', secret })
	fake.pauseWebhooks()
	t = await createTestApp({
		BILLING_PROVIDER: 'stripe',
		STRIPE_SECRET_KEY: fake.apiKey,
		STRIPE_WEBHOOK_SECRET: secret,
		STRIPE_API_BASE_URL: fake.url,
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Delivery = { payload: string; headers: Record<string, string> }

async function deliver(events: Delivery[]): Promise<void> {
	for (const { payload, headers } of events) {
		const response = await t.request('POST', '/api/stripe/webhook', { body: payload, headers })
		expect(response.status, JSON.stringify(response.body)).toBe(200)
	}
}

/** Hands the app every event it has not seen yet, in Stripe's order. */
async function deliverNew(): Promise<void> {
	const events = fake.events()
	await deliver(events.slice(delivered))
	delivered = events.length
}

const act = (token: string, path: string, json: unknown = {}) => t.request('POST', path, { token, json })
const subscriptionOf = async (token: string) => (await t.request('GET', '/api/subscriptions', { token })).body

function checkoutIdOf(url: string): string {
	const id = new URL(url).pathname.split('/').pop() ?? ''
	expect(id).toMatch(/^cs_/)
	return id
}

describe('an organization billed through Stripe', () => {
	test('buys its plan through Checkout, then cancels, undoes, pauses, resumes, upgrades and downgrades', async () => {
		const owner = await t.signUp()
		expect((await subscriptionOf(owner.token)).subscription).toMatchObject({ provider: 'stripe', status: 'trialing' })

		const start = await act(owner.token, '/api/subscriptions/end_trial_and_bill')
		expect(start.status).toBe(200)
		expect(start.body.redirectUrl).toMatch(/\/checkout\/cs_/)
		expect(start.body.subscription.status).toBe('trialing')
		fake.completeCheckout(checkoutIdOf(start.body.redirectUrl))
		await deliverNew()
		const bought = await subscriptionOf(owner.token)
		expect(bought.subscription).toMatchObject({
			status: 'active',
			planId: 'pro',
			interval: 'month',
			paymentMethod: { label: 'Visa •••• 4242' },
			nextInvoice: { amount: 2900, currency: 'USD' },
		})
		expect(bought.invoices).toEqual([expect.objectContaining({ status: 'paid', amount: 2900, currency: 'USD' })])

		const cancel = await act(owner.token, '/api/subscriptions/cancel_subscription')
		expect(cancel.body.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true })
		const stripeId = [...fake.store.subscriptions.values()].find((s) => s.cancel_at_period_end)?.id
		expect(stripeId).toBeDefined()
		const undo = await act(owner.token, '/api/stripe/dont_cancel')
		expect(undo.body.subscription.cancelAtPeriodEnd).toBe(false)
		expect(fake.store.subscriptions.get(stripeId ?? '')?.cancel_at_period_end).toBe(false)

		const paused = await act(owner.token, '/api/subscriptions/pause_subscription', { resumesAt: null })
		expect(paused.body.subscription).toMatchObject({ status: 'paused', pauseReason: 'requested' })
		expect(fake.store.subscriptions.get(stripeId ?? '')?.pause_collection).toMatchObject({ behavior: 'void' })
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
		expect(details.body.subscriptionState).toBe('paused')
		const resumed = await act(owner.token, '/api/subscriptions/resume_subscription')
		expect(resumed.body.subscription.status).toBe('active')

		const up = await act(owner.token, '/api/stripe/update_plan', { planId: 'business', interval: 'month' })
		expect(up.status).toBe(200)
		expect(up.body.subscription).toMatchObject({ planId: 'business', pendingChange: null })
		await deliverNew()
		// The upgrade is billed now, prorated: a second invoice.
		expect((await subscriptionOf(owner.token)).invoices.length).toBeGreaterThanOrEqual(2)

		const down = await act(owner.token, '/api/stripe/update_plan', { planId: 'starter', interval: 'month' })
		expect(down.body.subscription).toMatchObject({ planId: 'business', pendingChange: { planId: 'starter' } })
		await deliverNew()
		expect((await subscriptionOf(owner.token)).subscription.pendingChange).toMatchObject({ planId: 'starter' })

		// The period ends at Stripe: the schedule's second phase puts the subscription on Starter.
		fake.advance(32 * 86_400)
		await deliverNew()
		expect((await subscriptionOf(owner.token)).subscription).toMatchObject({
			status: 'active',
			planId: 'starter',
			pendingChange: null,
		})

		// Every event again, twice, shuffled: the same state.
		const before = await subscriptionOf(owner.token)
		const all = fake.events().map((event) => ({ payload: event.payload, headers: event.headers }))
		await deliver(shuffled([...all, ...all]))
		expect(await subscriptionOf(owner.token)).toEqual(before)
	})

	test('a payment that fails makes it past due until the payment details are updated', async () => {
		const owner = await t.signUp()
		const start = await act(owner.token, '/api/subscriptions/end_trial_and_bill')
		fake.completeCheckout(checkoutIdOf(start.body.redirectUrl))
		await deliverNew()
		const customer = [...fake.store.customers.values()].find((c) => c.email === owner.email)
		expect(customer).toBeDefined()
		fake.setCard(customer?.id ?? '', 'declines')
		fake.advance(32 * 86_400)
		await deliverNew()
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
		expect(details.body.subscriptionState).toBe('past_due')
		expect((await act(owner.token, '/api/subscriptions/pause_subscription', { resumesAt: null })).body.detail).toMatch(
			/Update the payment details first/,
		)

		const update = await act(owner.token, '/api/subscriptions/update_payment_details')
		expect(update.body.redirectUrl).toMatch(/\/portal\//)
		fake.completePortal(new URL(update.body.redirectUrl).pathname.split('/').pop() ?? '', { card: 'ok' })
		await deliverNew()
		expect((await subscriptionOf(owner.token)).subscription.status).toBe('active')
	})

	test('a card saved in the portal shows on Billing once Stripe reports it, and the portal comes back to Billing', async () => {
		const owner = await t.signUp()
		const start = await act(owner.token, '/api/subscriptions/end_trial_and_bill')
		fake.completeCheckout(checkoutIdOf(start.body.redirectUrl))
		await deliverNew()
		expect((await subscriptionOf(owner.token)).subscription.paymentMethod).toEqual({ label: 'Visa •••• 4242' })

		const update = await act(owner.token, '/api/subscriptions/update_payment_details')
		const portal = fake.completePortal(new URL(update.body.redirectUrl).pathname.split('/').pop() ?? '', {
			card: 'declines',
		})
		// Back on Billing with a marker that makes the page look again until the events arrive.
		expect(portal.redirectUrl).toBe('http://localhost:3000/settings?tab=billing&portal=done')
		await deliverNew()
		expect((await subscriptionOf(owner.token)).subscription.paymentMethod).toEqual({ label: 'Visa •••• 0002' })
	})

	test('a trial that ends with no card pauses the organization; choosing a plan goes through Checkout', async () => {
		const owner = await t.signUp()
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
		const { subscriptions } = await import('./subscriptions.schema.ts')
		await t.db
			.update(subscriptions)
			.set({ trialEndsAt: new Date(Date.now() - 1000) })
			.where(eq(subscriptions.organizationId, details.body.id))
		expect((await subscriptionOf(owner.token)).subscription).toMatchObject({
			status: 'paused',
			pauseReason: 'trial_ended',
		})
		const chosen = await act(owner.token, '/api/stripe/update_plan', { planId: 'starter', interval: 'year' })
		expect(chosen.body.redirectUrl).toMatch(/\/checkout\/cs_/)
		fake.completeCheckout(checkoutIdOf(chosen.body.redirectUrl))
		await deliverNew()
		expect((await subscriptionOf(owner.token)).subscription).toMatchObject({
			status: 'active',
			planId: 'starter',
			interval: 'year',
		})
	})

	test('a webhook with a bad signature is a 400 and changes nothing', async () => {
		const [event] = fake.events()
		expect(event).toBeDefined()
		const count = (await t.db.select().from(billingEvents)).length
		const forged = await t.request('POST', '/api/stripe/webhook', {
			body: event?.payload.replace('"livemode": false', '"livemode": true') ?? '',
			headers: event?.headers ?? {},
		})
		expect(forged.status).toBe(400)
		expect(forged.body.errors[0].field).toBe('stripe-signature')
		const unsigned = await t.request('POST', '/api/stripe/webhook', {
			body: event?.payload ?? '',
			headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
		})
		expect(unsigned.status).toBe(400)
		expect((await t.db.select().from(billingEvents)).length).toBe(count)
	})
})

describe('a visitor who pays before having an account', () => {
	test('gets an account on the plan bought once Stripe reports the payment, and a link to choose a password', async () => {
		const email = `payer-${Date.now()}@example.com`
		const started = await t.request('POST', '/api/subscriptions/create_subs_without_login', {
			json: { planId: 'business', interval: 'month', email, name: 'Pat Payer' },
			ip: randomIp(),
		})
		expect(started.status).toBe(200)
		// The tab is closed after paying: only the webhook is left to make the account.
		fake.completeCheckout(checkoutIdOf(started.body.redirectUrl))
		await deliverNew()
		const mail = await t.waitForMail(email, /Business subscription is ready/)
		const token = new URL(mail.links[0] ?? '').searchParams.get('token') ?? ''
		const confirmed = await t.request('POST', '/api/confirm_user', { json: { token }, ip: randomIp() })
		expect(confirmed.status).toBe(200)
		const next = new URL(confirmed.body.next, 'http://x')
		await t.request('PUT', '/auth/password', {
			json: { token: next.searchParams.get('token'), password: 'paid and ready' },
			ip: randomIp(),
		})
		const signedIn = await t.signIn(email, 'paid and ready')
		expect(signedIn.status).toBe(200)
		const sessionToken = signedIn.headers.get('set-auth-token') ?? ''
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: sessionToken })
		expect(details.body).toMatchObject({ plan: 'business', role: 'owner', subscriptionState: 'trialing' })
		expect((await subscriptionOf(sessionToken)).subscription).toMatchObject({
			provider: 'stripe',
			paymentMethod: { label: 'Visa •••• 4242' },
		})
	})
})

function shuffled<T>(items: T[]): T[] {
	const copy = [...items]
	for (let i = copy.length - 1; i > 0; i--) {
		const j = Math.floor(Math.random() * (i + 1))
		;[copy[i], copy[j]] = [copy[j] as T, copy[i] as T]
	}
	return copy
}
