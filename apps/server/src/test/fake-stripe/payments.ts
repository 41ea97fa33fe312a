import type { Hono } from 'hono'
import Stripe from 'stripe'
import { cardDeclined, invalidRequest, missingParam, resourceMissing, unsupported } from './errors.ts'
import type { EventRecord } from './events.ts'
import { type Env, json, newestFirst, page, params, respond } from './http.ts'
import { checkoutSession } from './objects-sessions.ts'
import { newId, type Params } from './params.ts'
import type { CardBehaviour, Ctx, FakeStripeStore } from './store.ts'

/**
 * One-off payments, as a team's own Stripe account takes an invoice's payment: Checkout Sessions in `mode:
 * 'payment'` with `line_items[].price_data` (an ad-hoc price, no Price object), completed on the hosted page
 * with a PaymentIntent; webhook endpoints (`/v1/webhook_endpoints`, each with its own signing secret, shown only
 * when created) that events are delivered to, signed per endpoint; and `GET /v1/account`, the account the key
 * belongs to. Shapes as the SDK's pinned API version answers them.
 *
 * Where it is not Stripe: minimum charge amounts only for USD, EUR, GBP, CHF and JPY, no PaymentIntent object to retrieve (the session names
 * its id), no `checkout.session.async_payment_*` events (cards only), and endpoint deliveries are tried a few
 * times right away instead of over three days.
 */

export type FakeWebhookEndpoint = Stripe.WebhookEndpoint & { secret: string }

type PaymentState = {
	endpoints: Map<string, FakeWebhookEndpoint>
	/** Per endpoint: the events it should have received, signed with its secret, and whether each got a 2xx. */
	deliveries: Map<string, Array<{ event: Stripe.Event; delivered: boolean }>>
	/** What a payment-mode session was created with that its object does not show. */
	lines: Map<string, Array<{ name: string; unitAmount: number; quantity: number }>>
}

const states = new WeakMap<FakeStripeStore, PaymentState>()

function stateOf(store: FakeStripeStore): PaymentState {
	let state = states.get(store)
	if (!state) {
		state = { endpoints: new Map(), deliveries: new Map(), lines: new Map() }
		states.set(store, state)
	}
	return state
}

/** The endpoints created in the fake (with their secrets), for tests. */
export function webhookEndpoints(store: FakeStripeStore): FakeWebhookEndpoint[] {
	return [...stateOf(store).endpoints.values()].map((endpoint) => structuredClone(endpoint))
}

/** The body and headers of `event` as Stripe delivers it to `endpoint`: signed with that endpoint's secret, now. */
export function signedFor(
	endpoint: { secret: string },
	event: Stripe.Event,
): {
	payload: string
	headers: Record<string, string>
} {
	const payload = JSON.stringify(event, null, 2)
	const header = Stripe.webhooks.generateTestHeaderString({
		payload,
		secret: endpoint.secret,
		timestamp: Math.floor(Date.now() / 1000),
	})
	return {
		payload,
		headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
	}
}

/** Every event an endpoint is subscribed to, since it was created, oldest first, ready to replay. */
export function endpointEvents(store: FakeStripeStore, endpointId: string): Stripe.Event[] {
	return (stateOf(store).deliveries.get(endpointId) ?? []).map((entry) => structuredClone(entry.event))
}

// --- Checkout in payment mode --------------------------------------------------------------------------------

export function createPaymentCheckoutSession(ctx: Ctx, params: Params): Stripe.Checkout.Session {
	const customerId = params.string('customer')
	const customerEmail = params.string('customer_email')
	if (customerId && customerEmail) {
		throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', 'customer_email')
	}
	if (params.has('subscription_data')) {
		throw invalidRequest('You can only pass `subscription_data` in `subscription` mode.', 'subscription_data')
	}
	const customer = customerId ? ctx.store.customer(customerId, 'customer') : null
	const entries = params.array('line_items') ?? []
	if (entries.length === 0) {
		throw missingParam('line_items')
	}
	const lines = entries.map((entry) => {
		entry.allow('price', 'price_data', 'quantity')
		if (entry.has('price')) {
			throw unsupported(entry.name('price'), 'payment mode takes price_data')
		}
		const data = entry.object('price_data')
		if (!data) {
			throw missingParam(entry.name('price_data'))
		}
		data.allow('currency', 'unit_amount', 'product_data', 'product', 'tax_behavior', 'recurring', 'unit_amount_decimal')
		if (data.has('recurring')) {
			throw invalidRequest(
				'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
				data.name('recurring'),
			)
		}
		if (data.has('product') || data.has('unit_amount_decimal')) {
			throw unsupported(data.name(data.has('product') ? 'product' : 'unit_amount_decimal'))
		}
		const currency = data.requiredString('currency')
		if (!/^[a-z]{3}$/.test(currency)) {
			throw invalidRequest(`Invalid currency: ${currency}.`, data.name('currency'))
		}
		const unitAmount = data.int('unit_amount')
		if (unitAmount === undefined) {
			throw missingParam(data.name('unit_amount'))
		}
		if (unitAmount < 0) {
			throw invalidRequest('This value must be greater than or equal to 0.', data.name('unit_amount'))
		}
		const product = data.object('product_data')
		if (!product) {
			throw missingParam(data.name('product_data'))
		}
		product.allow('name', 'description', 'metadata')
		const quantity = entry.int('quantity')
		if (quantity === undefined) {
			throw missingParam(entry.name('quantity'))
		}
		if (quantity < 1) {
			throw invalidRequest('This value must be greater than or equal to 1.', entry.name('quantity'))
		}
		return { currency, unitAmount, quantity, name: product.requiredString('name') }
	})
	if (new Set(lines.map((line) => line.currency)).size > 1) {
		throw invalidRequest('All prices on a Checkout Session must have the same currency.', 'line_items')
	}
	const successUrl = params.string('success_url')
	if (!successUrl) {
		throw missingParam('success_url')
	}
	const total = lines.reduce((sum, line) => sum + line.unitAmount * line.quantity, 0)
	const currency = lines[0]?.currency ?? 'usd'
	const minimum = minimumCharge[currency]
	if (minimum !== undefined && total < minimum) {
		throw invalidRequest(
			`The Checkout Session's total amount due must add up to at least ${formatAmount(minimum, currency)} ${currency}`,
			'line_items',
		)
	}
	const created = checkoutSession({
		mode: 'payment',
		customer: customer?.id ?? null,
		customerEmail: customerEmail ?? null,
		successUrl,
		cancelUrl: params.string('cancel_url') ?? null,
		clientReferenceId: params.string('client_reference_id') ?? null,
		metadata: params.metadata() || {},
		amountTotal: total,
		currency: lines[0]?.currency ?? null,
		paymentMethodCollection: 'always',
		created: ctx.now(),
		baseUrl: ctx.baseUrl(),
	})
	created.customer_creation = 'if_required'
	ctx.store.checkoutSessions.set(created.id, created)
	stateOf(ctx.store).lines.set(
		created.id,
		lines.map(({ name, unitAmount, quantity }) => ({ name, unitAmount, quantity })),
	)
	return created
}

/** Stripe's minimum charge amounts for the currencies tests use (docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). */
const minimumCharge: Record<string, number> = { usd: 50, eur: 50, gbp: 30, chf: 50, jpy: 50 }

const zeroDecimal = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '))
const threeDecimal = new Set('bhd jod kwd omr tnd'.split(' '))

/** An amount in Stripe's minor units as the hosted page shows it (¥1,190 is 1190; BD 1.250 is 1250). */
export function formatAmount(amount: number, currency: string): string {
	const digits = zeroDecimal.has(currency) ? 0 : threeDecimal.has(currency) ? 3 : 2
	return new Intl.NumberFormat('en-US', {
		style: 'currency',
		currency: currency.toUpperCase(),
		minimumFractionDigits: digits,
		maximumFractionDigits: digits,
	}).format(amount / 10 ** digits)
}

/** The line items of a payment-mode session, for the hosted page. */
export function paymentLines(store: FakeStripeStore, sessionId: string) {
	return stateOf(store).lines.get(sessionId) ?? []
}

/** Paying on the hosted page: a declining card is refused there; otherwise the PaymentIntent succeeds. */
export function completePaymentCheckout(
	ctx: Ctx,
	session: Stripe.Checkout.Session,
	input: { email?: string; card?: CardBehaviour | 'none' },
): Stripe.Checkout.Session {
	if (input.card === 'none') {
		throw invalidRequest('A card is required to pay.')
	}
	if (input.card === 'declines') {
		throw cardDeclined()
	}
	const email = session.customer_email ?? input.email ?? null
	if (!email) {
		throw invalidRequest('An email address is required to complete this Checkout Session.', 'email')
	}
	const before = structuredClone(session)
	session.status = 'complete'
	session.payment_status = 'paid'
	session.payment_intent = newId('pi')
	session.customer_details = {
		address: null,
		business_name: null,
		email,
		individual_name: null,
		name: null,
		phone: null,
		tax_exempt: 'none',
		tax_ids: [],
	}
	session.url = null
	ctx.events.record('checkout.session.completed', session, before)
	return session
}

// --- the account and webhook endpoints ---------------------------------------------------------------------

function account(ctx: Ctx): Stripe.Account {
	return {
		id: 'acct_1FakeStripeTeamAcct',
		object: 'account',
		business_profile: { name: 'Fake Team Ltd', url: null, support_email: null, mcc: null },
		business_type: 'company',
		capabilities: { card_payments: 'active', transfers: 'active' },
		charges_enabled: true,
		country: 'DE',
		created: ctx.now() - 86_400 * 365,
		default_currency: 'eur',
		details_submitted: true,
		email: 'team@example.com',
		metadata: {},
		payouts_enabled: true,
		settings: { dashboard: { display_name: 'Fake Team', timezone: 'Etc/UTC' } },
		type: 'standard',
	} as unknown as Stripe.Account
}

function publicEndpoint(endpoint: FakeWebhookEndpoint): Stripe.WebhookEndpoint {
	const { secret: _, ...shown } = endpoint
	return shown as Stripe.WebhookEndpoint
}

function createEndpoint(ctx: Ctx, params: Params): FakeWebhookEndpoint {
	params.allow('url', 'enabled_events', 'description', 'metadata', 'api_version', 'connect', 'expand')
	const url = params.requiredString('url')
	if (!/^https?:\/\/\S+$/.test(url)) {
		throw invalidRequest('Invalid URL: URL must be publicly accessible.', 'url', 'url_invalid')
	}
	const events = params.stringList('enabled_events')
	if (!events || events.length === 0) {
		throw missingParam('enabled_events')
	}
	if (params.string('connect') === 'true') {
		throw unsupported('connect')
	}
	const endpoint = {
		id: newId('we'),
		object: 'webhook_endpoint',
		api_version: params.string('api_version') ?? null,
		application: null,
		created: ctx.now(),
		description: params.string('description') ?? null,
		enabled_events: events,
		livemode: false,
		metadata: params.metadata() || {},
		status: 'enabled',
		url,
		secret: `whsec_${newId('x').slice(2)}`,
	} as FakeWebhookEndpoint
	const state = stateOf(ctx.store)
	state.endpoints.set(endpoint.id, endpoint)
	state.deliveries.set(endpoint.id, [])
	return endpoint
}

function endpoint(ctx: Ctx, id: string): FakeWebhookEndpoint {
	const found = stateOf(ctx.store).endpoints.get(id)
	if (!found) {
		throw resourceMissing('webhook_endpoint', id)
	}
	return found
}

const RETRY_DELAYS_MS = [50, 200]

async function deliverTo(target: FakeWebhookEndpoint, entry: { event: Stripe.Event; delivered: boolean }) {
	for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
		const { payload, headers } = signedFor(target, entry.event)
		try {
			const response = await fetch(target.url, {
				method: 'POST',
				headers,
				body: payload,
				signal: AbortSignal.timeout(10_000),
			})
			await response.body?.cancel()
			if (response.ok) {
				entry.delivered = true
				return
			}
		} catch {
			// Unreachable: tried again below, then given up (Stripe would keep trying for three days).
		}
		await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt] ?? 0))
	}
}

/**
 * Each new event goes to the endpoints subscribed to its type. Delivered at once unless webhooks are paused
 * (`pauseWebhooks()`): tests that hand events to the app themselves pause them and replay `endpointEvents`.
 */
function onEvent(ctx: Ctx, record: EventRecord): void {
	const state = stateOf(ctx.store)
	for (const target of state.endpoints.values()) {
		const wanted = target.enabled_events.includes('*') || target.enabled_events.includes(record.event.type)
		if (!wanted || target.status !== 'enabled') {
			continue
		}
		const entry = { event: structuredClone(record.event), delivered: false }
		state.deliveries.get(target.id)?.push(entry)
		if (!ctx.events.isPaused) {
			void deliverTo(target, entry)
		}
	}
}

export function installPaymentApi(app: Hono<Env>, ctx: Ctx): void {
	ctx.events.listeners.push((record) => onEvent(ctx, record))
	app.get('/v1/account', (c) => {
		params(c).allow('expand')
		return respond(c, account(ctx), ctx.store)
	})
	app.post('/v1/webhook_endpoints', (c) => respond(c, createEndpoint(ctx, params(c)), ctx.store))
	app.get('/v1/webhook_endpoints', (c) => {
		const query = params(c).allow('limit', 'starting_after', 'ending_before', 'expand')
		const all = newestFirst([...stateOf(ctx.store).endpoints.values()].map(publicEndpoint))
		return respond(c, page(all, query, '/v1/webhook_endpoints', 'we'), ctx.store)
	})
	app.get('/v1/webhook_endpoints/:id', (c) => {
		params(c).allow('expand')
		return respond(c, publicEndpoint(endpoint(ctx, c.req.param('id'))), ctx.store)
	})
	// A control for a fake in another process: each endpoint with what was delivered to it (2xx) so far.
	app.get('/_fake/webhook_endpoints', () => {
		const state = stateOf(ctx.store)
		return json(
			[...state.endpoints.values()].map((endpoint) => ({
				id: endpoint.id,
				url: endpoint.url,
				deliveries: (state.deliveries.get(endpoint.id) ?? []).map((entry) => ({
					type: entry.event.type,
					objectId: (entry.event.data.object as { id?: string }).id ?? null,
					delivered: entry.delivered,
				})),
			})),
		)
	})
	app.delete('/v1/webhook_endpoints/:id', (c) => {
		params(c).allow()
		const removed = endpoint(ctx, c.req.param('id'))
		stateOf(ctx.store).endpoints.delete(removed.id)
		return respond(c, { id: removed.id, object: 'webhook_endpoint', deleted: true }, ctx.store)
	})
}
