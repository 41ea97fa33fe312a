import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_PRICES, type FakeStripe, startFakeStripe } from '#src/test/fake-stripe/fake-stripe.ts'
import { endpointEvents, signedFor, webhookEndpoints } from '#src/test/fake-stripe/payments.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { stripeAmount } from './invoices.stripe.ts'

// Paying an invoice online through the team's own Stripe account, against the fake Stripe driven
// by the official SDK: connecting the account (a wrong key named), Checkout for exactly the amount
// due (JPY and EUR), completed on the fake's page, recorded once whether the webhook arrives twice
// or the return from Checkout is confirmed twice, a bad signature refused, a paid invoice no
// longer payable. Webhooks are handed to the app by the test (the fake does not deliver them).

let fake: FakeStripe
let t: TestApp

beforeAll(async () => {
	fake = await startFakeStripe({ prices: DEFAULT_PRICES, deliverWebhooks: false })
	t = await createTestApp({ STRIPE_API_BASE_URL: fake.url })
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

const base = '/dashboard/local_invoice/invoices'
const address = { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' }

async function invoiceIn(currency: string, unitPrice: string) {
	const owner = await t.signUp()
	const profile = await t.request('POST', '/dashboard/local_invoice/settings', {
		token: owner.token,
		json: {
			legalName: 'Acme GmbH',
			address,
			currency,
			taxRates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true }],
		},
	})
	expect(profile.status, JSON.stringify(profile.body)).toBe(201)
	const draft = await t.request('POST', base, {
		token: owner.token,
		json: {
			client: { name: 'Northwind Ltd', email: 'ap@northwind.example' },
			lines: [{ description: 'Work', quantity: '1', unitPrice, taxRateId: profile.body.taxRates[0].id }],
		},
	})
	expect(draft.status, JSON.stringify(draft.body)).toBe(201)
	const invoice = await t.request('POST', `${base}/${draft.body.id}/finalize`, { token: owner.token })
	expect(invoice.status).toBe(200)
	return { token: owner.token, profileId: profile.body.id as string, invoice: invoice.body }
}

type Setup = Awaited<ReturnType<typeof invoiceIn>>

async function connect(s: Setup) {
	const connected = await t.request('PUT', `/dashboard/local_invoice/settings/${s.profileId}/stripe`, {
		token: s.token,
		json: { secretKey: fake.apiKey },
	})
	expect(connected.status, JSON.stringify(connected.body)).toBe(200)
	return connected.body
}

const endpointOf = (profileId: string) =>
	webhookEndpoints(fake.store).find((endpoint) => endpoint.url.endsWith(`/api/invoices/stripe_webhook/${profileId}`))

async function checkout(s: Setup) {
	const response = await t.request('POST', `/api/invoices/${s.invoice.publicToken}/checkout`)
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	const id = new URL(response.body.url).pathname.split('/').pop() as string
	return fake.store.checkoutSession(id)
}

async function deliver(profileId: string, event: Stripe.Event, secret?: string) {
	const endpoint = endpointOf(profileId)
	const { payload, headers } = signedFor({ secret: secret ?? (endpoint?.secret as string) }, event)
	return t.request('POST', `/api/invoices/stripe_webhook/${profileId}`, { body: payload, headers })
}

const payments = async (s: Setup) =>
	(await t.request('GET', `${base}/${s.invoice.id}/payments`, { token: s.token })).body
const page = async (s: Setup) => (await t.request('GET', `/api/invoices/${s.invoice.publicToken}`)).body

describe('the team’s Stripe account', () => {
	test('a wrong key is a 400 naming secretKey; the right one is checked, gets a webhook endpoint, and can be disconnected', async () => {
		const s = await invoiceIn('EUR', '100')
		const path = `/dashboard/local_invoice/settings/${s.profileId}/stripe`
		const wrong = await t.request('PUT', path, { token: s.token, json: { secretKey: 'sk_test_not_the_right_key' } })
		expect(wrong.status).toBe(400)
		expect(wrong.body.errors.map((error: { field: string }) => error.field)).toEqual(['secretKey'])
		const malformed = await t.request('PUT', path, { token: s.token, json: { secretKey: 'pk_test_publishable' } })
		expect(malformed.body.errors.map((error: { field: string }) => error.field)).toEqual(['secretKey'])

		expect(await connect(s)).toMatchObject({ isConnected: true, accountName: 'Fake Team', isLive: false })
		const endpoint = endpointOf(s.profileId)
		expect(endpoint).toMatchObject({
			url: `http://localhost:3000/api/invoices/stripe_webhook/${s.profileId}`,
			enabled_events: ['checkout.session.completed'],
		})
		const read = await t.request('GET', path, { token: s.token })
		expect(read.body).toMatchObject({ isConnected: true, accountId: 'acct_1FakeStripeTeamAcct' })
		// Never the key itself.
		expect(JSON.stringify(read.body)).not.toContain(fake.apiKey)
		expect((await page(s)).canPayOnline).toBe(true)

		const removed = await t.request('DELETE', path, { token: s.token })
		expect(removed.body).toMatchObject({ isConnected: false })
		expect(endpointOf(s.profileId)).toBeUndefined()
		expect((await page(s)).canPayOnline).toBe(false)
		expect((await t.request('POST', `/api/invoices/${s.invoice.publicToken}/checkout`)).status).toBe(409)
	})
})

describe('paying online', () => {
	test('EUR, partly paid by hand: Checkout for exactly what is left; the webhook delivered twice pays once', async () => {
		const s = await invoiceIn('EUR', '1000.00')
		await connect(s)
		const byHand = await t.request('POST', `${base}/${s.invoice.id}/payments`, {
			token: s.token,
			json: { date: '2026-03-02', amount: '190.01', method: 'bank_transfer' },
		})
		expect(byHand.status, JSON.stringify(byHand.body)).toBe(201)

		const session = await checkout(s)
		expect(session).toMatchObject({
			mode: 'payment',
			amount_total: 99999,
			currency: 'eur',
			client_reference_id: s.invoice.id,
			metadata: { invoiceId: s.invoice.id, profileId: s.profileId },
			customer_email: 'ap@northwind.example',
			cancel_url: `http://localhost:3000/i/${s.invoice.publicToken}`,
		})
		const { redirectUrl } = fake.completeCheckout(session.id)
		expect(redirectUrl).toBe(`http://localhost:3000/i/${s.invoice.publicToken}?session_id=${session.id}`)

		const endpoint = endpointOf(s.profileId)
		const events = endpointEvents(fake.store, endpoint?.id as string).filter(
			(event) => (event.data.object as { id: string }).id === session.id,
		)
		expect(events.map((event) => event.type)).toEqual(['checkout.session.completed'])
		const event = events[0] as Stripe.Event

		const forged = await deliver(s.profileId, event, 'whsec_someone_else')
		expect(forged.status).toBe(400)
		expect(forged.body.errors[0].field).toBe('stripe-signature')
		expect(await payments(s)).toHaveLength(1)

		expect((await deliver(s.profileId, event)).status).toBe(200)
		expect((await deliver(s.profileId, event)).status).toBe(200)
		const recorded = await payments(s)
		expect(recorded).toHaveLength(2)
		expect(recorded[1]).toMatchObject({ method: 'stripe', amount: { minor: 99999, decimal: '999.99' } })

		const after = await page(s)
		expect(after).toMatchObject({ status: 'paid', canPayOnline: false, totals: { due: { minor: 0 } } })
		expect((await t.request('POST', `/api/invoices/${s.invoice.publicToken}/checkout`)).status).toBe(409)
		// The return from Checkout after the webhook: nothing more is recorded.
		const confirmed = await t.request('POST', `/api/invoices/${s.invoice.publicToken}/checkout/confirm`, {
			json: { sessionId: session.id },
		})
		expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
		expect(confirmed.body.status).toBe('paid')
		expect(await payments(s)).toHaveLength(2)
		const history = await t.request('GET', `${base}/${s.invoice.id}/events`, { token: s.token })
		expect(history.body.filter((entry: { kind: string }) => entry.kind === 'payment')).toHaveLength(2)
	})

	test('JPY: the amount in yen as it is; the return from Checkout records it once, and the later webhook adds nothing', async () => {
		const s = await invoiceIn('JPY', '1000')
		await connect(s)
		const session = await checkout(s)
		expect(session).toMatchObject({ amount_total: 1190, currency: 'jpy' })
		const confirm = () =>
			t.request('POST', `/api/invoices/${s.invoice.publicToken}/checkout/confirm`, { json: { sessionId: session.id } })
		// Not paid yet: nothing recorded, the page still offers to pay.
		const early = await confirm()
		expect(early.status).toBe(200)
		expect(early.body).toMatchObject({ status: 'finalized', canPayOnline: true })

		fake.completeCheckout(session.id)
		const [first, second] = await Promise.all([confirm(), confirm()])
		expect(first?.status).toBe(200)
		expect(second?.status).toBe(200)
		expect((await confirm()).body).toMatchObject({ status: 'paid', canPayOnline: false, totals: { due: { minor: 0 } } })
		const event = endpointEvents(fake.store, endpointOf(s.profileId)?.id as string).find(
			(entry) => (entry.data.object as { id: string }).id === session.id,
		) as Stripe.Event
		expect((await deliver(s.profileId, event)).status).toBe(200)
		const recorded = await payments(s)
		expect(recorded).toEqual([expect.objectContaining({ method: 'stripe', amount: { minor: 1190, decimal: '1190' } })])

		// Another invoice's session is not this invoice's payment.
		const other = await invoiceIn('JPY', '10')
		await connect(other)
		const foreign = await t.request('POST', `/api/invoices/${other.invoice.publicToken}/checkout/confirm`, {
			json: { sessionId: session.id },
		})
		expect(foreign.status).toBe(404)
		expect(await payments(other)).toEqual([])
	})

	test('a session for part of the amount: recorded once by webhook and confirm, whichever comes and however often', async () => {
		// With something still left to pay after it, a second recording would be accepted by the
		// payments' rules: only the session id keeps it to one.
		const s = await invoiceIn('EUR', '1000.00')
		await connect(s)
		const stripe = new Stripe(fake.apiKey, { host: fake.host, port: fake.port, protocol: 'http' })
		const session = await stripe.checkout.sessions.create({
			mode: 'payment',
			line_items: [
				{ quantity: 1, price_data: { currency: 'eur', unit_amount: 40000, product_data: { name: 'Part' } } },
			],
			client_reference_id: s.invoice.id,
			metadata: { invoiceId: s.invoice.id, profileId: s.profileId },
			customer_email: 'ap@northwind.example',
			success_url: 'http://localhost:3000/i/x?session_id={CHECKOUT_SESSION_ID}',
		})
		fake.completeCheckout(session.id)
		const event = endpointEvents(fake.store, endpointOf(s.profileId)?.id as string).find(
			(entry) => (entry.data.object as { id: string }).id === session.id,
		) as Stripe.Event
		expect((await deliver(s.profileId, event)).status).toBe(200)
		expect((await deliver(s.profileId, event)).status).toBe(200)
		const confirm = await t.request('POST', `/api/invoices/${s.invoice.publicToken}/checkout/confirm`, {
			json: { sessionId: session.id },
		})
		expect(confirm.body).toMatchObject({
			status: 'partially_paid',
			totals: { due: { decimal: '790.00' } },
			canPayOnline: true,
		})
		expect(await payments(s)).toEqual([
			expect.objectContaining({ method: 'stripe', amount: { minor: 40000, decimal: '400.00' } }),
		])
		// The rest through the page's own Checkout: exactly what is left.
		expect((await checkout(s)).amount_total).toBe(79000)
	})

	test('starting Checkout is rate-limited per address', async () => {
		const s = await invoiceIn('EUR', '10')
		await connect(s)
		const statuses: number[] = []
		for (let i = 0; i < 11; i++) {
			statuses.push(
				(await t.request('POST', `/api/invoices/${s.invoice.publicToken}/checkout`, { ip: '198.51.100.77' })).status,
			)
		}
		expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true)
		expect(statuses[10]).toBe(429)
	})

	test('an amount Stripe refuses (under its minimum charge) is a 409 telling the client to pay another way', async () => {
		const s = await invoiceIn('EUR', '0.10')
		await connect(s)
		const refused = await t.request('POST', `/api/invoices/${s.invoice.publicToken}/checkout`)
		expect(refused.status).toBe(409)
		expect(refused.body.detail).toMatch(/Stripe refused this payment .*at least €0.50.*bank details/)
	})

	test('amounts in Stripe’s units: zero-decimal, ISK, three-decimal rounded to ten', () => {
		expect(stripeAmount(1190, 'JPY')).toBe(1190)
		expect(stripeAmount(119000, 'EUR')).toBe(119000)
		expect(stripeAmount(1190, 'ISK')).toBe(119000)
		expect(stripeAmount(1250, 'BHD')).toBe(1250)
		expect(stripeAmount(1251, 'BHD')).toBeNull()
		expect(stripeAmount(12300, 'MGA')).toBe(123)
		expect(stripeAmount(12345, 'MGA')).toBeNull()
	})

	test('unknown tokens and profiles: 404; a webhook for a profile without an account: 404', async () => {
		expect((await t.request('POST', '/api/invoices/nope/checkout')).status).toBe(404)
		const missing = await t.request('POST', '/api/invoices/stripe_webhook/00000000-0000-4000-8000-000000000000', {
			body: '{}',
			headers: { 'stripe-signature': 't=1,v1=abc' },
		})
		expect(missing.status).toBe(404)
		const noHeader = await t.request('POST', '/api/invoices/stripe_webhook/00000000-0000-4000-8000-000000000000', {
			body: '{}',
		})
		expect(noHeader.status).toBe(400)
	})
})
