import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_PRICES, type FakeStripe, startFakeStripe } from '#src/test/fake-stripe/fake-stripe.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Deleting an organization billed through Stripe ends its subscription at Stripe at once, not at
// the period's end (decision 040); restoring the organization does not start it again.

const secret = 'whsec_blocksmith_test_secret'
let fake: FakeStripe
let t: TestApp

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

async function deliverAll(): Promise<void> {
	for (const { payload, headers } of fake.events()) {
		const response = await t.request('POST', '/api/stripe/webhook', { body: payload, headers })
		expect(response.status).toBe(200)
	}
}

describe('deleting an organization billed through Stripe', () => {
	test('cancels the Stripe subscription now; restoring leaves it canceled', async () => {
		const owner = await t.signUp()
		const start = await t.request('POST', '/api/subscriptions/end_trial_and_bill', { token: owner.token, json: {} })
		fake.completeCheckout(new URL(start.body.redirectUrl).pathname.split('/').pop() ?? '')
		await deliverAll()
		const bought = await t.request('GET', '/api/subscriptions', { token: owner.token })
		expect(bought.body.subscription.status).toBe('active')
		const stripeSubscription = [...fake.store.subscriptions.values()].find((s) => s.status === 'active')
		expect(stripeSubscription).toBeDefined()

		const name = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.name
		const deleted = await t.request('POST', '/dashboard/organization/delete', { token: owner.token, json: { name } })
		expect(deleted.status).toBe(200)
		expect(fake.store.subscriptions.get(stripeSubscription?.id ?? '')?.status).toBe('canceled')

		expect((await t.request('POST', '/dashboard/organization/restore', { token: owner.token })).status).toBe(200)
		const after = await t.request('GET', '/api/subscriptions', { token: owner.token })
		expect(after.body.subscription.status).toBe('canceled')
		expect(fake.store.subscriptions.get(stripeSubscription?.id ?? '')?.status).toBe('canceled')
	})
})
