import Stripe from 'stripe'
import { newId } from './params.ts'

export type WebhookTarget = { url: string; secret: string }

export type DeliveryAttempt = {
	/** Real time of the attempt (ms), not the fake's clock. */
	at: number
	status: number | null
	error: string | null
}

export type EventRecord = {
	event: Stripe.Event
	/** Whether it was ever handed to the webhook (answered 2xx). */
	delivered: boolean
	/** Out of retries without a 2xx; not tried again unless flushed. */
	failed: boolean
	attempts: DeliveryAttempt[]
}

/** The API request that caused an event; `{ id: null, idempotency_key: null }` for automatic changes. */
export type RequestInfo = { id: string | null; idempotency_key: string | null }

const DEFAULT_SECRET = 'whsec_fake_stripe_default_secret'
const RETRY_DELAYS_MS = [50, 200, 500]

/**
 * Every change records an Event (as `GET /v1/events` answers it). With a webhook target, events are POSTed
 * to it one at a time in the order they happened, signed as Stripe signs them, and retried a few times with a
 * short backoff on a non-2xx answer or a network error. Paused (or `deliverWebhooks: false`), they wait until
 * `flush()` or `resume()`.
 */
export class EventLog {
	readonly records: EventRecord[] = []
	/** Set by the API layer while a request runs, so its events carry `request.id` and the idempotency key. */
	request: RequestInfo | null = null
	/** Told of every event as it is recorded (payments.ts delivers to webhook endpoints from here). */
	readonly listeners: Array<(record: EventRecord) => void> = []
	private target: WebhookTarget | null
	private paused: boolean
	private readonly queue: EventRecord[] = []
	private worker: Promise<void> | null = null
	private readonly now: () => number

	constructor(options: { now: () => number; webhook?: WebhookTarget | null; deliver?: boolean }) {
		this.now = options.now
		this.target = options.webhook ?? null
		this.paused = options.deliver === false
	}

	get secret(): string {
		return this.target?.secret ?? DEFAULT_SECRET
	}

	get webhook(): WebhookTarget | null {
		return this.target
	}

	get isPaused(): boolean {
		return this.paused
	}

	/** Records an event about `object` as it is now; `before` (a snapshot) yields `previous_attributes`. */
	record(type: string, object: { id: string }, before?: object): Stripe.Event {
		const snapshot = structuredClone(object)
		const previous = before ? previousAttributes(before, snapshot) : undefined
		const event = {
			id: newId('evt'),
			object: 'event',
			api_version: Stripe.API_VERSION,
			created: this.now(),
			data: { object: snapshot, ...(previous ? { previous_attributes: previous } : {}) },
			livemode: false,
			pending_webhooks: this.target ? 1 : 0,
			request: this.request ?? { id: null, idempotency_key: null },
			type,
		} as unknown as Stripe.Event
		const record: EventRecord = { event, delivered: false, failed: false, attempts: [] }
		this.records.push(record)
		for (const listener of this.listeners) {
			listener(record)
		}
		if (this.target) {
			this.queue.push(record)
			this.kick()
		}
		return event
	}

	/** Records `customer.subscription.updated`-style events only when something changed. */
	recordChange(type: string, object: { id: string }, before: object): Stripe.Event | null {
		if (!previousAttributes(before, object)) {
			return null
		}
		return this.record(type, object, before)
	}

	setWebhook(target: WebhookTarget | null): void {
		this.target = target
		this.kick()
	}

	pause(): void {
		this.paused = true
	}

	resume(): void {
		this.paused = false
		this.kick()
	}

	/** Delivers every event still waiting (even when paused) and resolves once they are all answered. */
	async flush(): Promise<void> {
		if (!this.target) {
			throw new Error('The fake Stripe has no webhook URL; call setWebhook first')
		}
		await this.idle()
		while (this.queue.length > 0) {
			const record = this.queue.shift() as EventRecord
			await this.deliver(record)
		}
	}

	/** Resolves when the delivery worker has nothing left it may send. */
	async idle(): Promise<void> {
		while (this.worker) {
			await this.worker
		}
	}

	/** The body and headers a webhook delivery of `record` has, signed now (signatures expire after 5 min). */
	signed(record: EventRecord): { payload: string; headers: Record<string, string> } {
		const payload = JSON.stringify(record.event, null, 2)
		const header = Stripe.webhooks.generateTestHeaderString({
			payload,
			secret: this.secret,
			timestamp: Math.floor(Date.now() / 1000),
		})
		return {
			payload,
			headers: {
				'content-type': 'application/json; charset=utf-8',
				'stripe-signature': header,
				'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
			},
		}
	}

	private kick(): void {
		if (this.worker || this.paused || !this.target || this.queue.length === 0) {
			return
		}
		this.worker = (async () => {
			while (!this.paused && this.target && this.queue.length > 0) {
				const record = this.queue.shift() as EventRecord
				await this.deliver(record)
			}
		})().finally(() => {
			this.worker = null
		})
	}

	private async deliver(record: EventRecord): Promise<void> {
		for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
			const target = this.target
			if (!target) {
				this.queue.unshift(record)
				return
			}
			const { payload, headers } = this.signed(record)
			const entry: DeliveryAttempt = { at: Date.now(), status: null, error: null }
			record.attempts.push(entry)
			try {
				const response = await fetch(target.url, {
					method: 'POST',
					headers,
					body: payload,
					signal: AbortSignal.timeout(10_000),
				})
				entry.status = response.status
				await response.body?.cancel()
				if (response.ok) {
					record.delivered = true
					record.failed = false
					record.event.pending_webhooks = 0
					return
				}
			} catch (error) {
				entry.error = error instanceof Error ? error.message : String(error)
			}
			const delay = RETRY_DELAYS_MS[attempt]
			if (delay !== undefined) {
				await new Promise((resolve) => setTimeout(resolve, delay))
			}
		}
		record.failed = true
	}
}

/** Top-level fields whose value differs, with their earlier values (Stripe's `previous_attributes`). */
function previousAttributes(before: object, after: object): Record<string, unknown> | undefined {
	const previous: Record<string, unknown> = {}
	const old = before as Record<string, unknown>
	const current = after as Record<string, unknown>
	for (const key of new Set([...Object.keys(old), ...Object.keys(current)])) {
		if (JSON.stringify(old[key]) !== JSON.stringify(current[key])) {
			previous[key] = old[key] ?? null
		}
	}
	return Object.keys(previous).length > 0 ? previous : undefined
}
