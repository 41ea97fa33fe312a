import { eq, or } from 'drizzle-orm'
import type Stripe from 'stripe'
import { AppError } from '#src/lib/errors.ts'
import type { SubscriptionsDeps } from '../subscriptions.deps.ts'
import { planById } from '../subscriptions.plans.ts'
import { billingEvents, billingInvoices, billingSignups, subscriptions } from '../subscriptions.schema.ts'
import { completeSignup, signupConfirmationUrl } from '../subscriptions.signup.ts'
import { stateFromStripe } from './stripe.sync.ts'
import { syncSubscription } from './stripe.ts'

// Stripe's events. Each is verified with the signing secret, recorded by its id (one handled
// before is acknowledged and skipped), and handled by fetching the objects it names as they are
// now: events arrive late, twice and out of order, and the state we keep is rebuilt from
// Stripe's objects, never from the order of events.

/** The provider's own client: one SDK instance (and its connections) per process. */
function stripeOf(deps: SubscriptionsDeps): Stripe {
	const provider = deps.provider as { stripe?: Stripe }
	if (!provider.stripe) {
		throw new AppError('NOT_FOUND')
	}
	return provider.stripe
}

export async function handleStripeWebhook(deps: SubscriptionsDeps, body: string, signature: string): Promise<void> {
	const config = deps.billing.stripe
	if (!config) {
		throw new AppError('NOT_FOUND')
	}
	const stripe = stripeOf(deps)
	let event: Stripe.Event
	try {
		event = await stripe.webhooks.constructEventAsync(body, signature, config.webhookSecret)
	} catch {
		throw new AppError('VALIDATION_FAILED', {
			detail: 'The Stripe-Signature header does not match this body and the webhook signing secret.',
			errors: [{ field: 'stripe-signature', message: 'Invalid signature.' }],
		})
	}
	await deps.db
		.insert(billingEvents)
		.values({ id: event.id, provider: 'stripe', type: event.type, payload: event })
		.onConflictDoNothing()
	const [recorded] = await deps.db.select().from(billingEvents).where(eq(billingEvents.id, event.id))
	if (recorded?.handledAt) {
		return
	}
	await handleEvent(deps, stripe, event)
	await deps.db.update(billingEvents).set({ handledAt: new Date() }).where(eq(billingEvents.id, event.id))
}

async function handleEvent(deps: SubscriptionsDeps, stripe: Stripe, event: Stripe.Event): Promise<void> {
	const object = event.data.object as { object?: string; id?: string }
	switch (object.object) {
		case 'checkout.session':
			return checkoutCompleted(deps, stripe, await stripe.checkout.sessions.retrieve(object.id ?? ''))
		case 'subscription':
			return refreshSubscription(deps, stripe, object.id ?? '')
		case 'invoice':
			return refreshInvoice(deps, stripe, object.id ?? '')
		case 'customer':
			// A card saved in the portal can change only the customer's default payment method.
			return refreshCustomer(deps, stripe, object.id ?? '')
		default:
			deps.log.debug({ type: event.type }, 'Stripe event not needed')
	}
}

/** The organization a Stripe subscription belongs to: by its id, its customer, or its metadata. */
async function organizationOf(deps: SubscriptionsDeps, subscription: Stripe.Subscription): Promise<string | null> {
	const customer = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id
	const [row] = await deps.db
		.select({ organizationId: subscriptions.organizationId })
		.from(subscriptions)
		.where(or(eq(subscriptions.stripeSubscriptionId, subscription.id), eq(subscriptions.stripeCustomerId, customer)))
	if (row) {
		return row.organizationId
	}
	const fromMetadata = subscription.metadata?.organizationId
	return fromMetadata ?? null
}

async function refreshSubscription(deps: SubscriptionsDeps, stripe: Stripe, id: string): Promise<void> {
	const subscription = await stripe.subscriptions.retrieve(id)
	const organizationId = await organizationOf(deps, subscription)
	if (!organizationId) {
		// A signup's subscription before its Checkout completes: that event makes the organization.
		return
	}
	const [current] = await deps.db.select().from(subscriptions).where(eq(subscriptions.organizationId, organizationId))
	if (
		current?.stripeSubscriptionId &&
		current.stripeSubscriptionId !== subscription.id &&
		subscription.status === 'canceled'
	) {
		// An older subscription ending after the organization started a new one: nothing to change.
		return
	}
	await syncSubscription(stripe, deps.db, organizationId, subscription)
	deps.forget(organizationId)
}

async function refreshCustomer(deps: SubscriptionsDeps, stripe: Stripe, customerId: string): Promise<void> {
	const [row] = await deps.db
		.select({ stripeSubscriptionId: subscriptions.stripeSubscriptionId })
		.from(subscriptions)
		.where(eq(subscriptions.stripeCustomerId, customerId))
	if (row?.stripeSubscriptionId) {
		await refreshSubscription(deps, stripe, row.stripeSubscriptionId)
	}
}

async function checkoutCompleted(
	deps: SubscriptionsDeps,
	stripe: Stripe,
	session: Stripe.Checkout.Session,
): Promise<void> {
	if (session.status !== 'complete') {
		return
	}
	const subscriptionId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id
	const signupId = session.metadata?.signupId
	if (signupId && subscriptionId) {
		return signupPaid(deps, stripe, signupId, await stripe.subscriptions.retrieve(subscriptionId))
	}
	const organizationId = session.metadata?.organizationId ?? session.client_reference_id
	if (!organizationId || !subscriptionId) {
		return
	}
	await syncSubscription(stripe, deps.db, organizationId, await stripe.subscriptions.retrieve(subscriptionId))
	deps.forget(organizationId)
}

/** A visitor paid before having an account: the account, organization and subscription are made now. */
async function signupPaid(
	deps: SubscriptionsDeps,
	stripe: Stripe,
	signupId: string,
	subscription: Stripe.Subscription,
): Promise<void> {
	const [signup] = await deps.db.select().from(billingSignups).where(eq(billingSignups.id, signupId))
	if (!signup) {
		deps.log.warn({ signupId }, 'Stripe checkout for an unknown signup')
		return
	}
	const wasDone = signup.completedAt !== null
	const state = stateFromStripe(subscription, null)
	const { hasPaymentMethod: _, ...columns } = state
	const customer = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id
	const { organizationId } = await completeSignup(
		deps.db,
		signup,
		{ ...columns, provider: 'stripe', stripeCustomerId: customer, stripeSubscriptionId: subscription.id },
		{ emailVerified: false },
	)
	await syncSubscription(stripe, deps.db, organizationId, subscription)
	if (!wasDone) {
		const plan = planById(signup.planId)
		await deps.mail.send({
			to: signup.email,
			subject: `Your ${plan.name} subscription is ready: confirm your e-mail`,
			text: [
				`Hi ${signup.name},`,
				'',
				`Thank you: your ${plan.name} subscription is active. Open this link to confirm your e-mail address and choose a password:`,
				signupConfirmationUrl(deps, signup.id),
				'',
				'The link works for 7 days.',
			].join('\n'),
		})
	}
}

const invoiceStatuses = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const

async function refreshInvoice(deps: SubscriptionsDeps, stripe: Stripe, id: string): Promise<void> {
	const invoice = await stripe.invoices.retrieve(id)
	const customer = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id
	if (!customer) {
		return
	}
	const [owner] = await deps.db
		.select({ organizationId: subscriptions.organizationId })
		.from(subscriptions)
		.where(eq(subscriptions.stripeCustomerId, customer))
	if (!owner) {
		return
	}
	const values = {
		organizationId: owner.organizationId,
		provider: 'stripe' as const,
		number: invoice.number ?? null,
		status: invoiceStatuses.find((status) => status === invoice.status) ?? 'open',
		amount: invoice.amount_due,
		currency: invoice.currency.toUpperCase(),
		url: invoice.hosted_invoice_url ?? null,
		createdAt: new Date(invoice.created * 1000),
	}
	await deps.db
		.insert(billingInvoices)
		.values({ id: invoice.id ?? id, ...values })
		.onConflictDoUpdate({ target: billingInvoices.id, set: values })
	const subscriptionId = invoice.parent?.subscription_details?.subscription
	if (subscriptionId) {
		await refreshSubscription(deps, stripe, typeof subscriptionId === 'string' ? subscriptionId : subscriptionId.id)
	}
}
