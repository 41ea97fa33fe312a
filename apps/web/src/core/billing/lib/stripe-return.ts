import type { SubscriptionOverview } from '@blocksmith/contracts/subscriptions.ts'

// Back from Stripe (Checkout or its portal), Billing reads the subscription again until it shows
// what happened there. "What happened" is a change from the subscription as it was when the
// browser left for Stripe, kept for this tab in sessionStorage.

const storageKey = 'blocksmith.billing.before-stripe'

/** What a visit to Stripe can change: the state, the plan, the card, the invoices. */
export function fingerprint({ subscription, invoices }: SubscriptionOverview): string {
	const { status, planId, interval, cancelAtPeriodEnd, paymentMethod } = subscription
	const invoiceStates = invoices.map((invoice) => `${invoice.id}:${invoice.status}`)
	return JSON.stringify([status, planId, interval, cancelAtPeriodEnd, paymentMethod?.label, invoiceStates])
}

/** Kept until the next visit to Stripe replaces it (or the tab closes). */
export function rememberBeforeStripe(overview: SubscriptionOverview | undefined): void {
	try {
		if (overview) {
			sessionStorage.setItem(storageKey, fingerprint(overview))
		} else {
			sessionStorage.removeItem(storageKey)
		}
	} catch {
		// Storage refused (private mode): the page compares with its first read instead.
	}
}

/** The subscription as it was before Stripe, or null. */
export function readBeforeStripe(): string | null {
	try {
		return sessionStorage.getItem(storageKey)
	} catch {
		return null
	}
}
