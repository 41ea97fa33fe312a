import type Stripe from 'stripe'
import { resourceMissing } from './errors.ts'
import type { EventLog } from './events.ts'
import type { LineInput, MissingPaymentMethod } from './objects.ts'

export type CardBehaviour = 'ok' | 'declines'

/** What a Checkout session was created with that its object has no field for. */
export type CheckoutExtras = {
	lineItems: Array<{ price: Stripe.Price; quantity: number }>
	trialEnd: number | null
	trialPeriodDays: number | null
	subscriptionMetadata: Record<string, string>
	subscriptionDescription: string | null
	missingPaymentMethod: MissingPaymentMethod
}

/** What Stripe keeps about a subscription outside its object. */
export type SubscriptionExtras = {
	/** Prorations made with `create_prorations`, billed on the next invoice. */
	pendingProrations: LineInput[]
	trialWillEndSent: boolean
}

/**
 * The fake's whole state. Each map holds the objects exactly as the API answers them (the SDK's types), so a
 * test can assert on `fake.store` directly; the operations in the other modules mutate them in place.
 */
export class FakeStripeStore {
	readonly products = new Map<string, Stripe.Product>()
	readonly prices = new Map<string, Stripe.Price>()
	readonly customers = new Map<string, Stripe.Customer>()
	readonly paymentMethods = new Map<string, Stripe.PaymentMethod>()
	readonly subscriptions = new Map<string, Stripe.Subscription>()
	readonly invoices = new Map<string, Stripe.Invoice>()
	readonly checkoutSessions = new Map<string, Stripe.Checkout.Session>()
	readonly portalSessions = new Map<string, Stripe.BillingPortal.Session>()
	readonly schedules = new Map<string, Stripe.SubscriptionSchedule>()
	/** Whether charging a payment method succeeds. */
	readonly cards = new Map<string, CardBehaviour>()
	readonly checkoutExtras = new Map<string, CheckoutExtras>()
	readonly subscriptionExtras = new Map<string, SubscriptionExtras>()

	customer(id: string, param = 'id'): Stripe.Customer {
		return found(this.customers.get(id), 'cus', id, param)
	}

	price(id: string, param = 'id'): Stripe.Price {
		return found(this.prices.get(id), 'price', id, param)
	}

	subscription(id: string, param = 'id'): Stripe.Subscription {
		return found(this.subscriptions.get(id), 'sub', id, param)
	}

	invoice(id: string, param = 'id'): Stripe.Invoice {
		return found(this.invoices.get(id), 'in', id, param)
	}

	paymentMethod(id: string, param = 'id'): Stripe.PaymentMethod {
		return found(this.paymentMethods.get(id), 'pm', id, param)
	}

	checkoutSession(id: string, param = 'id'): Stripe.Checkout.Session {
		return found(this.checkoutSessions.get(id), 'cs', id, param)
	}

	portalSession(id: string, param = 'id'): Stripe.BillingPortal.Session {
		return found(this.portalSessions.get(id), 'bps', id, param)
	}

	schedule(id: string, param = 'id'): Stripe.SubscriptionSchedule {
		return found(this.schedules.get(id), 'sub_sched', id, param)
	}

	extras(subscriptionId: string): SubscriptionExtras {
		let extras = this.subscriptionExtras.get(subscriptionId)
		if (!extras) {
			extras = { pendingProrations: [], trialWillEndSent: false }
			this.subscriptionExtras.set(subscriptionId, extras)
		}
		return extras
	}

	/** Any stored object by its id, for `expand[]`. */
	find(id: string): { id: string } | undefined {
		const maps: Array<Map<string, { id: string }>> = [
			this.customers,
			this.subscriptions,
			this.schedules,
			this.invoices,
			this.paymentMethods,
			this.prices,
			this.products,
			this.checkoutSessions,
			this.portalSessions,
		]
		for (const map of maps) {
			const value = map.get(id)
			if (value) {
				return value
			}
		}
		return undefined
	}

	subscriptionsOf(customerId: string): Stripe.Subscription[] {
		return [...this.subscriptions.values()].filter((subscription) => subscription.customer === customerId)
	}

	invoicesOf(subscriptionId: string): Stripe.Invoice[] {
		return [...this.invoices.values()].filter(
			(invoice) => invoice.parent?.subscription_details?.subscription === subscriptionId,
		)
	}
}

function found<T>(value: T | undefined, kind: string, id: string, param: string): T {
	if (value === undefined) {
		throw resourceMissing(kind, id, param)
	}
	return value
}

/** What every operation needs: the state, Stripe's clock (Unix seconds), the event log and the fake's URL. */
export type Ctx = {
	store: FakeStripeStore
	now: () => number
	events: EventLog
	baseUrl: () => string
}

export function idOf(value: string | { id: string } | null | undefined): string | null {
	if (value === null || value === undefined) {
		return null
	}
	return typeof value === 'string' ? value : value.id
}
