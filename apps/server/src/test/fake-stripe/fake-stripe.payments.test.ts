import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_PRICES, type FakeStripe, startFakeStripe } from './fake-stripe.ts'
import { endpointEvents, signedFor, webhookEndpoints } from './payments.ts'
import { rejection, sdk } from './testing.ts'

// One-off payments as a team's own account takes them: payment-mode Checkout with ad-hoc prices,
// webhook endpoints with their own secrets, and the account behind a key.

let fake: FakeStripe
let stripe: Stripe

beforeAll(async () => {
	fake = await startFakeStripe({ prices: DEFAULT_PRICES, deliverWebhooks: false })
	stripe = sdk(fake)
})
afterAll(async () => {
	await fake?.close()
})

describe('payments in the fake Stripe', () => {
	test('the account behind a key; a wrong key is an authentication error', async () => {
		const account = await stripe.accounts.retrieveCurrent()
		expect(account).toMatchObject({ object: 'account', charges_enabled: true })
		expect(account.settings?.dashboard.display_name).toBe('Fake Team')
		const wrong = new Stripe('sk_test_wrong_key_123456', { host: fake.host, port: fake.port, protocol: 'http' })
		expect(await rejection(wrong.accounts.retrieveCurrent())).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
	})

	test('a payment-mode session for an ad-hoc price is paid on the page, and its event is signed per endpoint', async () => {
		const endpoint = await stripe.webhookEndpoints.create({
			url: 'https://app.test/hook',
			enabled_events: ['checkout.session.completed'],
		})
		expect(endpoint.secret).toMatch(/^whsec_/)
		const session = await stripe.checkout.sessions.create({
			mode: 'payment',
			line_items: [
				{ quantity: 1, price_data: { currency: 'jpy', unit_amount: 1190, product_data: { name: 'Invoice 1' } } },
			],
			client_reference_id: 'doc_1',
			metadata: { invoiceId: 'doc_1' },
			customer_email: 'client@example.com',
			success_url: 'https://app.test/i/t?session_id={CHECKOUT_SESSION_ID}',
			cancel_url: 'https://app.test/i/t',
		})
		expect(session).toMatchObject({ mode: 'payment', amount_total: 1190, currency: 'jpy', payment_status: 'unpaid' })
		expect(session.payment_intent).toBeNull()
		const page = await (await fetch(String(session.url))).text()
		expect(page).toContain('¥1,190')

		const completed = await fetch(`${fake.url}/checkout/${session.id}/complete`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'card=ok',
			redirect: 'manual',
		})
		expect(completed.headers.get('location')).toBe(`https://app.test/i/t?session_id=${session.id}`)
		const paid = await stripe.checkout.sessions.retrieve(session.id)
		expect(paid).toMatchObject({ status: 'complete', payment_status: 'paid', client_reference_id: 'doc_1' })
		expect(paid.payment_intent).toMatch(/^pi_/)

		const [stored] = webhookEndpoints(fake.store)
		const [event] = endpointEvents(fake.store, endpoint.id)
		expect(event?.type).toBe('checkout.session.completed')
		const { payload, headers } = signedFor(stored as { secret: string }, event as Stripe.Event)
		const verified = await stripe.webhooks.constructEventAsync(
			payload,
			headers['stripe-signature'] as string,
			String(endpoint.secret),
		)
		expect((verified.data.object as Stripe.Checkout.Session).id).toBe(session.id)
		expect(
			await rejection(
				stripe.webhooks.constructEventAsync(payload, headers['stripe-signature'] as string, 'whsec_other'),
			),
		).toBeInstanceOf(Error)

		const shown = await stripe.webhookEndpoints.retrieve(endpoint.id)
		expect(shown.secret).toBeUndefined()
		expect(await stripe.webhookEndpoints.del(endpoint.id)).toMatchObject({ id: endpoint.id, deleted: true })
		expect(await rejection(stripe.webhookEndpoints.retrieve(endpoint.id))).toBeInstanceOf(
			Stripe.errors.StripeInvalidRequestError,
		)
	})

	test('a declining card is refused on the page; recurring prices and price ids are refused in payment mode', async () => {
		const session = await stripe.checkout.sessions.create({
			mode: 'payment',
			line_items: [{ quantity: 1, price_data: { currency: 'eur', unit_amount: 500, product_data: { name: 'X' } } }],
			customer_email: 'client@example.com',
			success_url: 'https://app.test/ok',
		})
		expect(() => fake.completeCheckout(session.id, { card: 'declines' })).toThrow(/declined/)
		expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open')
		const recurring = await rejection(
			stripe.checkout.sessions.create({
				mode: 'payment',
				line_items: [
					{
						quantity: 1,
						price_data: {
							currency: 'eur',
							unit_amount: 500,
							product_data: { name: 'X' },
							recurring: { interval: 'month' },
						},
					},
				],
				success_url: 'https://app.test/ok',
			}),
		)
		expect((recurring as Stripe.errors.StripeError).param).toBe('line_items[0][price_data][recurring]')
	})
})
