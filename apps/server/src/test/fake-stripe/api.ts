import type { Context, Hono } from 'hono'
import { createCheckoutSession, createPortalSession } from './checkout.ts'
import { createCustomer, updateCustomer } from './customers.ts'
import { invalidRequest, resourceMissing } from './errors.ts'
import { type Env, newestFirst, page, params, respond } from './http.ts'
import { cancelSchedule, createSchedule, releaseSchedule, updateSchedule } from './schedules.ts'
import { type Ctx, idOf } from './store.ts'
import { cancelSubscription, updateSubscription } from './subscription-update.ts'
import { resume } from './subscriptions.ts'

/** The `/v1` endpoints the product uses, answering as Stripe does for the SDK's pinned API version. */
export function installApi(app: Hono<Env>, ctx: Ctx): void {
	const store = ctx.store
	const retrieve = (find: (id: string) => unknown) => (c: Context<Env>) => {
		params(c).allow('expand')
		return respond(c, find(c.req.param('id') ?? ''), store)
	}

	// --- customers, prices, products, payment methods ---------------------------------------------------------

	app.post('/v1/customers', (c) => respond(c, createCustomer(ctx, params(c)), store))
	app.get(
		'/v1/customers/:id',
		retrieve((id) => store.customer(id)),
	)
	app.post('/v1/customers/:id', (c) => {
		const customer = store.customer(c.req.param('id'))
		updateCustomer(ctx, customer, params(c))
		return respond(c, customer, store)
	})
	app.get('/v1/customers/:id/payment_methods', (c) => {
		const query = params(c).allow('type', 'limit', 'starting_after', 'ending_before', 'expand', 'allow_redisplay')
		const customer = store.customer(c.req.param('id'))
		const methods = newestFirst([...store.paymentMethods.values()].filter((method) => method.customer === customer.id))
		return respond(c, page(methods, query, `/v1/customers/${customer.id}/payment_methods`, 'pm'), store)
	})
	app.get(
		'/v1/payment_methods/:id',
		retrieve((id) => store.paymentMethod(id)),
	)
	app.get('/v1/prices', (c) => {
		const query = params(c).allow(
			'lookup_keys',
			'active',
			'product',
			'type',
			'currency',
			'limit',
			'starting_after',
			'ending_before',
			'expand',
		)
		const lookupKeys = query.stringList('lookup_keys')
		const active = query.bool('active')
		const product = query.string('product')
		const type = query.string('type')
		const currency = query.string('currency')
		const prices = newestFirst(store.prices.values()).filter(
			(price) =>
				(!lookupKeys || (price.lookup_key !== null && lookupKeys.includes(price.lookup_key))) &&
				(active === undefined || price.active === active) &&
				(!product || idOf(price.product) === product) &&
				(!type || price.type === type) &&
				(!currency || price.currency === currency.toLowerCase()),
		)
		return respond(c, page(prices, query, '/v1/prices', 'price'), store)
	})
	app.get(
		'/v1/prices/:id',
		retrieve((id) => store.price(id)),
	)
	app.get(
		'/v1/products/:id',
		retrieve((id) => store.products.get(id) ?? raise(resourceMissing('prod', id))),
	)

	// --- Checkout and the billing portal --------------------------------------------------------------------------

	app.post('/v1/checkout/sessions', (c) => respond(c, createCheckoutSession(ctx, params(c)), store))
	app.get(
		'/v1/checkout/sessions/:id',
		retrieve((id) => store.checkoutSession(id)),
	)
	app.post('/v1/billing_portal/sessions', (c) => respond(c, createPortalSession(ctx, params(c)), store))

	// --- subscriptions and schedules ------------------------------------------------------------------------------

	app.get('/v1/subscriptions', (c) => {
		const query = params(c).allow('customer', 'status', 'price', 'limit', 'starting_after', 'ending_before', 'expand')
		const customer = query.string('customer')
		const status = query.string('status')
		const price = query.string('price')
		const subscriptions = newestFirst(store.subscriptions.values()).filter(
			(subscription) =>
				(!customer || idOf(subscription.customer) === customer) &&
				(status === 'all' ||
					(status
						? subscription.status === status
						: !['canceled', 'incomplete_expired'].includes(subscription.status))) &&
				(!price || subscription.items.data.some((item) => item.price.id === price)),
		)
		return respond(c, page(subscriptions, query, '/v1/subscriptions', 'sub'), store)
	})
	app.get(
		'/v1/subscriptions/:id',
		retrieve((id) => store.subscription(id)),
	)
	app.post('/v1/subscriptions/:id', (c) => {
		const subscription = store.subscription(c.req.param('id'))
		updateSubscription(ctx, subscription, params(c))
		return respond(c, subscription, store)
	})
	app.delete('/v1/subscriptions/:id', (c) => {
		const subscription = store.subscription(c.req.param('id'))
		cancelSubscription(ctx, subscription, params(c))
		return respond(c, subscription, store)
	})
	app.post('/v1/subscriptions/:id/resume', (c) => {
		const subscription = store.subscription(c.req.param('id'))
		const query = params(c).allow('billing_cycle_anchor', 'proration_behavior', 'expand')
		if (query.oneOf('billing_cycle_anchor', ['now', 'unchanged'] as const) === 'unchanged') {
			throw invalidRequest('The fake Stripe resumes with billing_cycle_anchor=now only.', 'billing_cycle_anchor')
		}
		if (subscription.status !== 'paused') {
			throw invalidRequest('Only subscriptions with status `paused` can be resumed.')
		}
		resume(ctx, subscription)
		return respond(c, subscription, store)
	})
	app.post('/v1/subscription_schedules', (c) => respond(c, createSchedule(ctx, params(c)), store))
	app.get(
		'/v1/subscription_schedules/:id',
		retrieve((id) => store.schedule(id)),
	)
	app.post('/v1/subscription_schedules/:id', (c) => {
		const schedule = store.schedule(c.req.param('id'))
		updateSchedule(ctx, schedule, params(c))
		return respond(c, schedule, store)
	})
	app.post('/v1/subscription_schedules/:id/release', (c) => {
		const schedule = store.schedule(c.req.param('id'))
		releaseSchedule(ctx, schedule, params(c))
		return respond(c, schedule, store)
	})
	app.post('/v1/subscription_schedules/:id/cancel', (c) => {
		const schedule = store.schedule(c.req.param('id'))
		cancelSchedule(ctx, schedule, params(c))
		return respond(c, schedule, store)
	})

	// --- invoices and events --------------------------------------------------------------------------------------

	app.get('/v1/invoices', (c) => {
		const query = params(c).allow(
			'customer',
			'subscription',
			'status',
			'limit',
			'starting_after',
			'ending_before',
			'expand',
		)
		const customer = query.string('customer')
		const subscription = query.string('subscription')
		const status = query.oneOf('status', ['draft', 'open', 'paid', 'uncollectible', 'void'] as const)
		const invoices = newestFirst(store.invoices.values()).filter(
			(invoice) =>
				(!customer || idOf(invoice.customer) === customer) &&
				(!subscription || invoice.parent?.subscription_details?.subscription === subscription) &&
				(!status || invoice.status === status),
		)
		return respond(c, page(invoices, query, '/v1/invoices', 'in'), store)
	})
	app.get(
		'/v1/invoices/:id',
		retrieve((id) => store.invoice(id)),
	)
	app.get('/v1/events', (c) => {
		const query = params(c).allow('type', 'types', 'limit', 'starting_after', 'ending_before', 'expand', 'created')
		if (query.has('created')) {
			throw invalidRequest('The fake Stripe does not filter events by created.', 'created', 'parameter_unknown')
		}
		const type = query.string('type')
		const types = query.stringList('types')
		const matches = (name: string) =>
			(!type || (type.endsWith('*') ? name.startsWith(type.slice(0, -1)) : name === type)) &&
			(!types || types.includes(name))
		const events = newestFirst(ctx.events.records.map((record) => record.event)).filter((event) => matches(event.type))
		return respond(c, page(events, query, '/v1/events', 'evt'), store)
	})
	app.get(
		'/v1/events/:id',
		retrieve(
			(id) => ctx.events.records.find((record) => record.event.id === id)?.event ?? raise(resourceMissing('evt', id)),
		),
	)
}

function raise(error: Error): never {
	throw error
}
