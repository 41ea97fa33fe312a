import Stripe from 'stripe'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_PRICES, type FakeStripe, startFakeStripe } from './fake-stripe.ts'
import { eventTypes, item, priceId, rejection, sdk, subscribe } from './testing.ts'

let fake: FakeStripe
let stripe: Stripe

beforeEach(async () => {
	fake = await startFakeStripe({ prices: DEFAULT_PRICES })
	stripe = sdk(fake)
})

afterEach(async () => {
	await fake.close()
})

describe('prices', () => {
	it('finds seeded prices by lookup key and active flag, and retrieves them by id', async () => {
		const both = await stripe.prices.list({
			lookup_keys: ['blocksmith_pro_month', 'blocksmith_pro_year'],
			active: true,
		})
		expect(both.object).toBe('list')
		expect(both.url).toBe('/v1/prices')
		expect(both.data.map((price) => [price.lookup_key, price.unit_amount, price.recurring?.interval]).sort()).toEqual([
			['blocksmith_pro_month', 2900, 'month'],
			['blocksmith_pro_year', 29000, 'year'],
		])
		expect((await stripe.prices.list({ lookup_keys: ['blocksmith_pro_month'], active: false })).data).toEqual([])
		const id = await priceId(stripe, 'blocksmith_business_year')
		const price = await stripe.prices.retrieve(id, { expand: ['product'] })
		expect(price.id).toMatch(/^price_/)
		expect(price.unit_amount).toBe(79000)
		expect(price.currency).toBe('usd')
		expect(typeof price.product === 'object' && 'name' in price.product ? price.product.name : null).toBe('Business')
		const all = await stripe.prices.list({ limit: 100 })
		expect(all.data).toHaveLength(6)
	})
})

describe('checkout', () => {
	it('creates a subscription session, completes it, and the subscription is retrievable', async () => {
		const price = await priceId(stripe, 'blocksmith_pro_month')
		const session = await stripe.checkout.sessions.create({
			mode: 'subscription',
			customer_email: 'owner@example.com',
			line_items: [{ price, quantity: 1 }],
			subscription_data: { metadata: { organizationId: 'org_42' } },
			metadata: { organizationId: 'org_42' },
			client_reference_id: 'org_42',
			success_url: 'https://app.test/done?session={CHECKOUT_SESSION_ID}',
			cancel_url: 'https://app.test/canceled',
		})
		expect(session.id).toMatch(/^cs_test_/)
		expect(session.object).toBe('checkout.session')
		expect(session.status).toBe('open')
		expect(session.payment_status).toBe('unpaid')
		expect(session.amount_total).toBe(2900)
		expect(session.url).toBe(`${fake.url}/checkout/${session.id}`)
		expect(session.success_url).toBe('https://app.test/done?session={CHECKOUT_SESSION_ID}')

		const { redirectUrl } = fake.completeCheckout(session.id)
		expect(redirectUrl).toBe(`https://app.test/done?session=${session.id}`)

		const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] })
		expect(completed.status).toBe('complete')
		expect(completed.payment_status).toBe('paid')
		expect(completed.client_reference_id).toBe('org_42')
		expect(completed.metadata).toEqual({ organizationId: 'org_42' })
		const expanded = completed.subscription as Stripe.Subscription
		expect(expanded.object).toBe('subscription')

		const subscription = await stripe.subscriptions.retrieve(expanded.id)
		expect(subscription.id).toMatch(/^sub_/)
		expect(subscription.status).toBe('active')
		expect(subscription.customer).toBe(completed.customer)
		expect(subscription.metadata).toEqual({ organizationId: 'org_42' })
		expect(item(subscription).id).toMatch(/^si_/)
		expect(item(subscription).price.lookup_key).toBe('blocksmith_pro_month')
		const start = item(subscription).current_period_start
		const end = new Date(start * 1000)
		end.setUTCMonth(end.getUTCMonth() + 1)
		expect(item(subscription).current_period_end).toBe(end.getTime() / 1000)
		expect(subscription).not.toHaveProperty('current_period_end')

		const customer = (await stripe.customers.retrieve(String(completed.customer))) as Stripe.Customer
		expect(customer.email).toBe('owner@example.com')
		const method = await stripe.paymentMethods.retrieve(String(customer.invoice_settings.default_payment_method))
		expect(method.id).toMatch(/^pm_/)
		expect(method.card).toMatchObject({ brand: 'visa', last4: '4242' })

		const invoices = await stripe.invoices.list({ subscription: subscription.id })
		expect(invoices.data).toHaveLength(1)
		expect(invoices.data[0]).toMatchObject({
			status: 'paid',
			amount_due: 2900,
			amount_paid: 2900,
			billing_reason: 'subscription_create',
			parent: { subscription_details: { subscription: subscription.id } },
		})
		expect(invoices.data[0]?.id).toBe(subscription.latest_invoice)
		expect(eventTypes(fake, subscription.id)).toEqual([
			'customer.subscription.created',
			'customer.subscription.updated',
		])
		expect(eventTypes(fake)).toContain('checkout.session.completed')
	})

	it('serves a hosted page whose form pays and redirects to the success URL', async () => {
		const session = await stripe.checkout.sessions.create({
			mode: 'subscription',
			line_items: [{ price: await priceId(stripe, 'blocksmith_starter_year'), quantity: 1 }],
			success_url: 'https://app.test/paid?session={CHECKOUT_SESSION_ID}',
		})
		const page = await fetch(session.url ?? '')
		const text = await page.text()
		expect(page.status).toBe(200)
		expect(text).toContain('$120.00')
		expect(text).toContain('type="email"')
		expect(text).toContain('>Pay</button>')

		const declined = await fetch(`${fake.url}/checkout/${session.id}/complete`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'email=buyer%40example.com&card=declines',
		})
		expect(declined.status).toBe(402)
		expect(await declined.text()).toContain('Your card was declined.')
		expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open')

		const paid = await fetch(`${fake.url}/checkout/${session.id}/complete`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'email=buyer%40example.com&card=ok',
			redirect: 'manual',
		})
		expect(paid.status).toBe(303)
		expect(paid.headers.get('location')).toBe(`https://app.test/paid?session=${session.id}`)
		const completed = await stripe.checkout.sessions.retrieve(session.id)
		expect(completed.status).toBe('complete')
		const customer = (await stripe.customers.retrieve(String(completed.customer))) as Stripe.Customer
		expect(customer.email).toBe('buyer@example.com')
	})

	it('starts a trial without charging, and setup mode saves a card as the default', async () => {
		const { subscription, customerId } = await subscribe(fake, stripe, { trialDays: 14 })
		expect(subscription.status).toBe('trialing')
		expect(subscription.trial_end).toBe(subscription.trial_start ? subscription.trial_start + 14 * 86_400 : null)
		expect(item(subscription).current_period_end).toBe(subscription.trial_end)
		const [first] = (await stripe.invoices.list({ customer: customerId })).data
		expect(first).toMatchObject({ amount_due: 0, status: 'paid' })

		const setup = await stripe.checkout.sessions.create({
			mode: 'setup',
			customer: customerId,
			success_url: 'https://app.test/card-saved',
		})
		expect(setup.payment_status).toBe('no_payment_required')
		const before = (await stripe.customers.retrieve(customerId)) as Stripe.Customer
		fake.completeCheckout(setup.id)
		const after = (await stripe.customers.retrieve(customerId)) as Stripe.Customer
		expect(after.invoice_settings.default_payment_method).toMatch(/^pm_/)
		expect(after.invoice_settings.default_payment_method).not.toBe(before.invoice_settings.default_payment_method)
		expect((await stripe.checkout.sessions.retrieve(setup.id)).setup_intent).toMatch(/^seti_/)
	})

	it('refuses a trial that ends in less than two days, as Stripe does', async () => {
		const error = await rejection(
			stripe.checkout.sessions.create({
				mode: 'subscription',
				customer_email: 'a@example.com',
				line_items: [{ price: await priceId(stripe, 'blocksmith_pro_month'), quantity: 1 }],
				subscription_data: { trial_end: fake.now() + 86_400 },
				success_url: 'https://app.test/ok',
			}),
		)
		expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
		expect((error as Stripe.errors.StripeInvalidRequestError).param).toBe('subscription_data[trial_end]')
	})
})

describe('customers', () => {
	it('updates the default payment method only to a card of that customer', async () => {
		const { customerId } = await subscribe(fake, stripe)
		const other = await stripe.customers.create({ email: 'other@example.com', metadata: { organizationId: 'org_2' } })
		const card = ((await stripe.customers.retrieve(customerId)) as Stripe.Customer).invoice_settings
			.default_payment_method
		const refused = await rejection(
			stripe.customers.update(other.id, { invoice_settings: { default_payment_method: String(card) } }),
		)
		expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
		expect((refused as Error).message).toContain('must be attached to the customer')
		const updated = await stripe.customers.update(other.id, { metadata: { plan: 'pro', organizationId: '' } })
		expect(updated.metadata).toEqual({ plan: 'pro' })
		const event = fake
			.events()
			.find((view) => view.event.type === 'customer.updated' && view.event.data.object.id === other.id)
		expect(event?.event.data.previous_attributes).toEqual({ metadata: { organizationId: 'org_2' } })
	})
})

describe('wire behaviour', () => {
	it('replays a POST with a known idempotency key and refuses the key with other parameters', async () => {
		const first = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'customer:org_1' })
		const again = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'customer:org_1' })
		expect(again.id).toBe(first.id)
		expect(again.lastResponse.headers['idempotent-replayed']).toBe('true')
		expect([...fake.store.customers.values()].filter((customer) => customer.email === 'once@example.com')).toHaveLength(
			1,
		)
		const conflict = await rejection(
			stripe.customers.create({ email: 'twice@example.com' }, { idempotencyKey: 'customer:org_1' }),
		)
		expect(conflict).toBeInstanceOf(Stripe.errors.StripeIdempotencyError)
		const other = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'customer:org_2' })
		expect(other.id).not.toBe(first.id)
	})

	it('creates one customer for concurrent requests sharing an idempotency key', async () => {
		const retrying = new Stripe(fake.apiKey, {
			host: fake.host,
			port: fake.port,
			protocol: 'http',
			maxNetworkRetries: 3,
		})
		const results = await Promise.all(
			[1, 2, 3].map(() =>
				retrying.customers.create({ email: 'double@example.com' }, { idempotencyKey: 'double-click' }),
			),
		)
		expect(new Set(results.map((customer) => customer.id)).size).toBe(1)
		expect(
			[...fake.store.customers.values()].filter((customer) => customer.email === 'double@example.com'),
		).toHaveLength(1)
	})

	it('answers unknown ids with resource_missing and a 404', async () => {
		const error = await rejection(stripe.subscriptions.retrieve('sub_doesnotexist'))
		expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
		const stripeError = error as Stripe.errors.StripeInvalidRequestError
		expect(stripeError.code).toBe('resource_missing')
		expect(stripeError.statusCode).toBe(404)
		expect(stripeError.message).toBe("No such subscription: 'sub_doesnotexist'")
		const asParam = await rejection(
			stripe.checkout.sessions.create({ mode: 'setup', customer: 'cus_nope', success_url: 'https://app.test' }),
		)
		expect(asParam).toMatchObject({ code: 'resource_missing', param: 'customer', statusCode: 400 })
	})

	it('refuses a wrong API key, unknown parameters and unknown endpoints in Stripe’s error format', async () => {
		const wrongKey = new Stripe('sk_test_wrong', { host: fake.host, port: fake.port, protocol: 'http' })
		expect(await rejection(wrongKey.customers.create({}))).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
		const unknown = await rejection(stripe.customers.create({ email: 'a@example.com', colour: 'blue' } as never))
		expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'colour' })
		const response = await fetch(`${fake.url}/v1/teleporters`, { headers: { authorization: `Bearer ${fake.apiKey}` } })
		expect(response.status).toBe(404)
		const body = (await response.json()) as { error: { type: string; message: string } }
		expect(body.error.type).toBe('invalid_request_error')
		expect(body.error.message).toContain('Unrecognized request URL (GET: /v1/teleporters)')
		const anonymous = await fetch(`${fake.url}/v1/customers`, { method: 'POST' })
		expect(anonymous.status).toBe(401)
	})

	it('pages lists newest first with limit and starting_after', async () => {
		const ids: string[] = []
		for (let index = 0; index < 3; index++) {
			ids.push((await stripe.customers.create({ email: `c${index}@example.com` })).id)
		}
		const events = await stripe.events.list({ type: 'customer.created', limit: 2 })
		expect(events.has_more).toBe(true)
		expect(events.data.map((event) => (event.data.object as Stripe.Customer).id)).toEqual([ids[2], ids[1]])
		const rest = await stripe.events.list({ type: 'customer.created', limit: 2, starting_after: events.data[1]?.id })
		expect(rest.data.map((event) => (event.data.object as Stripe.Customer).id)).toEqual([ids[0]])
		expect(rest.has_more).toBe(false)
		const one = await stripe.events.retrieve(rest.data[0]?.id ?? '')
		expect(one).toMatchObject({
			object: 'event',
			type: 'customer.created',
			livemode: false,
			api_version: Stripe.API_VERSION,
		})
	})
})
