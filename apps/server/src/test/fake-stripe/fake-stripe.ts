/**
 * A fake of the Stripe API (the version the official `stripe` SDK pins, `Stripe.API_VERSION`) for tests and
 * browser journeys, driven through the SDK itself:
 *
 * ```ts
 * const fake = await startFakeStripe({ prices: DEFAULT_PRICES, webhook: { url, secret } })
 * const stripe = new Stripe(fake.apiKey, { host: fake.host, port: fake.port, protocol: 'http' })
 * const session = await stripe.checkout.sessions.create({ mode: 'subscription', … })
 * fake.completeCheckout(session.id)          // what paying on the hosted page does
 * fake.advance(31 * 86_400)                   // renewals, trials ending, schedules…
 * await fake.close()
 * ```
 *
 * Wire format as Stripe's: form-encoded requests (`items[0][price]`, `expand[]`), JSON objects with Stripe's ids
 * and fields, list objects, `{ error: { type, message, code, param } }` errors (401 bad key, 400 bad
 * parameters, 402 declines, 404 `resource_missing`), idempotency keys, and signed webhooks. Unknown or
 * unimplemented parameters are refused loudly rather than ignored.
 *
 * Endpoints: customers (create, retrieve, update, list payment methods), payment_methods/:id, prices (list by
 * `lookup_keys[]`/`active`, retrieve), products/:id, checkout/sessions (create, retrieve), billing_portal/
 * sessions (create), subscriptions (list, retrieve, update, cancel, resume), subscription_schedules (create
 * `from_subscription`, retrieve, update phases, release, cancel), invoices (list, retrieve), events (list,
 * retrieve). Hosted pages: `GET /checkout/:id`, `GET /portal/:id`, `GET /invoices/:id`.
 *
 * Controls (also over HTTP, see pages.ts): `advance(seconds)`, `completeCheckout(id, { email, card })`,
 * `completePortal(id)`, `setCard(customerId, 'ok' | 'declines')`, `setWebhook`, `pauseWebhooks`,
 * `resumeWebhooks`, `flushWebhooks`, `webhooksIdle`, `events()`, and `store` for assertions.
 *
 * Where it is not Stripe (so a test passing here may still need a look against test mode):
 * - Checkout saves the card as the customer's `invoice_settings.default_payment_method`; real Checkout sets
 *   the subscription's `default_payment_method`. Invoices charge the subscription's card, else the customer's.
 * - A failed renewal leaves the subscription `past_due` for good: no Smart Retries, no dunning that ends in
 *   `unpaid`/`canceled`; it is paid when a card is saved (portal, setup-mode Checkout) or resumed.
 * - No pending updates (`payment_behavior=pending_if_incomplete`), no adding/removing items, no coupons, taxes,
 *   quantities beyond plain proration, and no proration credit when `cancel_at` falls mid-period (only the
 *   period billed after it is shortened). Schedules are only made `from_subscription`.
 * - Events are recorded in one plausible order; Stripe does not promise an order. Events recorded while no
 *   webhook is set are never delivered. Signatures use real time (receivers check tolerance against it);
 *   `created` fields use the fake's clock.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { Hono } from 'hono'
import { installApi } from './api.ts'
import { type CheckoutCompletion, completeCheckout, completePortal, successRedirect } from './checkout.ts'
import { Clock } from './clock.ts'
import { setCard } from './customers.ts'
import { EventLog, type WebhookTarget } from './events.ts'
import { type Env, installPlumbing } from './http.ts'
import { type PriceSeed, price, product } from './objects.ts'
import { installPages } from './pages.ts'
import { installPaymentApi } from './payments.ts'
import { type CardBehaviour, type Ctx, FakeStripeStore } from './store.ts'
import type { FakeEventView, FakeStripe, FakeStripeOptions } from './types.ts'

export type { PriceSeed } from './objects.ts'
export type { CardBehaviour } from './store.ts'
export type { FakeStripe, FakeStripeOptions } from './types.ts'

const FAKE_STRIPE_API_KEY = 'sk_test_fake_stripe_0000000000000000000000000000'

/** Three plans, monthly and yearly, with the lookup keys the product asks for (`blocksmith_<plan>_<interval>`). */
export const DEFAULT_PRICES: PriceSeed[] = [
	['starter', 'Starter', 1200, 12000],
	['pro', 'Pro', 2900, 29000],
	['business', 'Business', 7900, 79000],
].flatMap(([plan, name, monthly, yearly]) => [
	{
		lookupKey: `blocksmith_${plan}_month`,
		unitAmount: Number(monthly),
		currency: 'usd',
		interval: 'month' as const,
		productName: String(name),
	},
	{
		lookupKey: `blocksmith_${plan}_year`,
		unitAmount: Number(yearly),
		currency: 'usd',
		interval: 'year' as const,
		productName: String(name),
	},
])

/** Seeds one product per `productName` and a recurring price per entry. */
function seedPrices(ctx: Ctx, seeds: PriceSeed[]): void {
	const products = new Map<string, string>()
	for (const seed of seeds) {
		let productId = products.get(seed.productName)
		if (!productId) {
			const created = product(seed.productName, ctx.now())
			ctx.store.products.set(created.id, created)
			productId = created.id
			products.set(seed.productName, productId)
		}
		const created = price(seed, productId, ctx.now())
		ctx.store.prices.set(created.id, created)
	}
}

export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
	const clock = new Clock()
	const store = new FakeStripeStore()
	let baseUrl = ''
	const events = new EventLog({
		now: () => clock.now(),
		webhook: options.webhook ?? null,
		deliver: options.deliverWebhooks ?? true,
	})
	const ctx: Ctx = { store, now: () => clock.now(), events, baseUrl: () => baseUrl }
	seedPrices(ctx, options.prices)
	const catchUp = () => clock.runUntil(ctx, clock.now())

	const controls = {
		setWebhook(target: WebhookTarget | null): void {
			events.setWebhook(target)
		},
		advance(seconds: number): number {
			if (!Number.isFinite(seconds) || seconds < 0) {
				throw new Error(`advance needs a number of seconds ≥ 0, got ${seconds}`)
			}
			catchUp()
			clock.runUntil(ctx, clock.now() + Math.round(seconds))
			return clock.now()
		},
		now: () => clock.now(),
		events(): FakeEventView[] {
			return events.records.map((record) => ({
				event: structuredClone(record.event),
				...events.signed(record),
				delivered: record.delivered,
				failed: record.failed,
				attempts: [...record.attempts],
			}))
		},
		completeCheckout(id: string, input: CheckoutCompletion = {}) {
			catchUp()
			const session = completeCheckout(ctx, id, input)
			return { session: structuredClone(session), redirectUrl: successRedirect(session) }
		},
		completePortal(id: string, input: { card?: CardBehaviour } = {}) {
			catchUp()
			return completePortal(ctx, id, input.card ?? 'ok')
		},
		setCard(customerId: string, card: CardBehaviour): void {
			setCard(ctx, customerId, card)
		},
		pauseWebhooks: () => events.pause(),
		resumeWebhooks: () => events.resume(),
		flushWebhooks: () => events.flush(),
		webhooksIdle: () => events.idle(),
	}

	const app = new Hono<Env>()
	installPlumbing(app, {
		apiKey: FAKE_STRIPE_API_KEY,
		store,
		catchUp,
		setRequest: (request) => {
			events.request = request
		},
	})
	installApi(app, ctx)
	installPaymentApi(app, ctx)
	installPages(app, ctx, controls)

	const server = createAdaptorServer({ fetch: app.fetch }) as Server
	const host = options.host ?? '127.0.0.1'
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(options.port ?? 0, host, () => resolve())
	})
	const port = (server.address() as AddressInfo).port
	baseUrl = `http://${host}:${port}`

	return {
		url: baseUrl,
		host,
		port,
		apiKey: FAKE_STRIPE_API_KEY,
		store,
		...controls,
		async close(): Promise<void> {
			events.pause()
			await events.idle()
			await new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()))
				server.closeAllConnections()
			})
		},
	}
}
