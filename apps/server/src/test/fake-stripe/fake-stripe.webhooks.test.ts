import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_PRICES, type FakeStripe, startFakeStripe } from './fake-stripe.ts'
import { item, sdk, subscribe } from './testing.ts'

const SECRET = 'whsec_test_secret_for_the_fake'

type Received = { body: string; signature: string; contentType: string }

/** A webhook endpoint that records raw bodies and answers `failFirst` requests with a 500. */
async function receiver(failFirst = 0): Promise<{ url: string; received: Received[]; server: Server }> {
	const received: Received[] = []
	let failures = failFirst
	const server = createServer((request, response) => {
		const chunks: Buffer[] = []
		request.on('data', (chunk: Buffer) => chunks.push(chunk))
		request.on('end', () => {
			if (failures > 0) {
				failures--
				response.writeHead(500).end('not yet')
				return
			}
			received.push({
				body: Buffer.concat(chunks).toString('utf8'),
				signature: String(request.headers['stripe-signature']),
				contentType: String(request.headers['content-type']),
			})
			response.writeHead(200).end('ok')
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stripe/webhook`, received, server }
}

let fake: FakeStripe
let stripe: Stripe
let endpoint: Awaited<ReturnType<typeof receiver>>

beforeEach(async () => {
	endpoint = await receiver()
	fake = await startFakeStripe({ prices: DEFAULT_PRICES, webhook: { url: endpoint.url, secret: SECRET } })
	stripe = sdk(fake)
})

afterEach(async () => {
	await fake.close()
	await new Promise((resolve) => endpoint.server.close(resolve))
})

describe('webhooks', () => {
	it('delivers every event in order, signed so constructEvent verifies it (and a wrong secret does not)', async () => {
		const { subscription } = await subscribe(fake, stripe)
		await fake.webhooksIdle()
		const recorded = fake.events()
		expect(recorded.length).toBeGreaterThan(5)
		expect(endpoint.received.map((entry) => (JSON.parse(entry.body) as Stripe.Event).id)).toEqual(
			recorded.map((view) => view.event.id),
		)
		const events = endpoint.received.map((entry) => stripe.webhooks.constructEvent(entry.body, entry.signature, SECRET))
		expect(events.map((event) => event.type)).toEqual(
			expect.arrayContaining([
				'customer.created',
				'customer.subscription.created',
				'invoice.paid',
				'checkout.session.completed',
			]),
		)
		const created = events.find((event) => event.type === 'customer.subscription.created')
		expect(created).toMatchObject({
			object: 'event',
			api_version: Stripe.API_VERSION,
			livemode: false,
			data: { object: { id: subscription.id, object: 'subscription' } },
		})
		expect(endpoint.received[0]?.contentType).toBe('application/json; charset=utf-8')
		const first = endpoint.received[0] as Received
		expect(() => stripe.webhooks.constructEvent(first.body, first.signature, 'whsec_wrong')).toThrow(
			Stripe.errors.StripeSignatureVerificationError,
		)
		expect(fake.events().every((view) => view.delivered && view.event.pending_webhooks === 0)).toBe(true)
	})

	it('marks the events of an API request with its id and idempotency key, automatic ones with nulls', async () => {
		const customer = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'create-a' })
		const request = customer.lastResponse.requestId
		const { subscription } = await subscribe(fake, stripe)
		fake.advance(item(subscription).current_period_end - fake.now() + 60)
		await fake.webhooksIdle()
		const events = endpoint.received.map((entry) => JSON.parse(entry.body) as Stripe.Event)
		expect(events.find((event) => event.type === 'customer.created')?.request).toEqual({
			id: request,
			idempotency_key: 'create-a',
		})
		const renewal = events.filter((event) => event.type === 'customer.subscription.updated').at(-1)
		expect(renewal?.request).toEqual({ id: null, idempotency_key: null })
		expect(renewal?.data.previous_attributes).toHaveProperty('items')
		expect(renewal?.created).toBe(item(subscription).current_period_end)
	})

	it('retries a delivery answered with a 500 and keeps the order', async () => {
		const flaky = await receiver(2)
		fake.setWebhook({ url: flaky.url, secret: SECRET })
		await stripe.customers.create({ email: 'first@example.com' })
		await stripe.customers.create({ email: 'second@example.com' })
		await fake.webhooksIdle()
		const emails = flaky.received.map(
			(entry) => (JSON.parse(entry.body) as { data: { object: Stripe.Customer } }).data.object.email,
		)
		expect(emails).toEqual(['first@example.com', 'second@example.com'])
		const [firstView] = fake.events()
		expect(firstView?.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200])
		await new Promise((resolve) => flaky.server.close(resolve))
	})

	it('holds events while paused; they can be replayed from events() and flushed later', async () => {
		fake.pauseWebhooks()
		const customer = await stripe.customers.create({ email: 'held@example.com' })
		await fake.webhooksIdle()
		expect(endpoint.received).toHaveLength(0)
		const [view] = fake.events()
		expect(view?.delivered).toBe(false)
		const replayed = stripe.webhooks.constructEvent(
			view?.payload ?? '',
			view?.headers['stripe-signature'] ?? '',
			SECRET,
		)
		expect(replayed.data.object).toMatchObject({ id: customer.id })
		const flushed = await fetch(`${fake.url}/_fake/webhooks/flush`, { method: 'POST' })
		expect(flushed.status).toBe(200)
		expect(endpoint.received).toHaveLength(1)
		expect(fake.events()[0]?.delivered).toBe(true)
	})
})

describe('controls over HTTP', () => {
	it('advances the clock and completes a checkout through /_fake', async () => {
		const session = await stripe.checkout.sessions.create({
			mode: 'subscription',
			customer_email: 'http@example.com',
			line_items: [
				{ price: (await stripe.prices.list({ lookup_keys: ['blocksmith_pro_year'] })).data[0]?.id ?? '', quantity: 1 },
			],
			success_url: 'https://app.test/ok',
		})
		const completed = await fetch(`${fake.url}/_fake/checkout/${session.id}/complete`, {
			method: 'POST',
			body: JSON.stringify({ card: 'ok' }),
		})
		expect(completed.status).toBe(200)
		const { redirectUrl } = (await completed.json()) as { redirectUrl: string }
		expect(redirectUrl).toBe('https://app.test/ok')
		const before = fake.now()
		const advanced = await fetch(`${fake.url}/_fake/clock/advance`, {
			method: 'POST',
			body: JSON.stringify({ seconds: 3600 }),
		})
		expect(((await advanced.json()) as { now: number }).now).toBeGreaterThanOrEqual(before + 3600)
		const unknown = await fetch(`${fake.url}/_fake/checkout/cs_test_nope/complete`, { method: 'POST' })
		expect(unknown.status).toBe(404)
		expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('resource_missing')
	})
})
