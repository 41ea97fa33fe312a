import type Stripe from 'stripe'
import type { CheckoutCompletion } from './checkout.ts'
import type { DeliveryAttempt, WebhookTarget } from './events.ts'
import type { PriceSeed } from './objects.ts'
import type { CardBehaviour, FakeStripeStore } from './store.ts'

// The fake's public types, apart from its implementation so the hosted pages can name the
// controls they drive without importing the module that installs them.

export type FakeStripeOptions = {
	prices: PriceSeed[]
	webhook?: WebhookTarget
	/** false: events wait in the log until `flushWebhooks()` or `resumeWebhooks()`. Default true. */
	deliverWebhooks?: boolean
	/** 0 (default): a free port. */
	port?: number
	host?: string
}

/** An event with the body and headers a webhook delivery has, signed just now, ready to replay. */
export type FakeEventView = {
	event: Stripe.Event
	payload: string
	headers: Record<string, string>
	delivered: boolean
	failed: boolean
	attempts: DeliveryAttempt[]
}

export type FakeStripe = {
	/** `http://127.0.0.1:<port>`, no trailing slash. */
	url: string
	host: string
	port: number
	/** The only key the fake accepts (`Authorization: Bearer …`). */
	apiKey: string
	/** The live state, for assertions: maps of Stripe objects by id. Do not mutate. */
	store: FakeStripeStore
	/** Where events go; set it later when the app's port is known. `null` stops deliveries. */
	setWebhook(target: WebhookTarget | null): void
	/** Moves Stripe's clock forward, running what comes due on the way; returns the new time (Unix seconds). */
	advance(seconds: number): number
	/** Stripe's current time, Unix seconds. */
	now(): number
	events(): FakeEventView[]
	completeCheckout(
		id: string,
		options?: CheckoutCompletion,
	): { session: Stripe.Checkout.Session; redirectUrl: string | null }
	completePortal(id: string, options?: { card?: CardBehaviour }): { redirectUrl: string | null }
	setCard(customerId: string, card: CardBehaviour): void
	pauseWebhooks(): void
	resumeWebhooks(): void
	/** Delivers every waiting event (even while paused); resolves when all were answered. */
	flushWebhooks(): Promise<void>
	/** Resolves when automatic deliveries have nothing left to send. */
	webhooksIdle(): Promise<void>
	close(): Promise<void>
}

export type FakeStripeControls = Pick<
	FakeStripe,
	| 'setWebhook'
	| 'advance'
	| 'now'
	| 'events'
	| 'completeCheckout'
	| 'completePortal'
	| 'setCard'
	| 'pauseWebhooks'
	| 'resumeWebhooks'
	| 'flushWebhooks'
	| 'webhooksIdle'
>
