import type Stripe from 'stripe'
import { payOpenInvoices } from './billing.ts'
import { newCustomer, saveCard } from './customers.ts'
import { cardDeclined, invalidRequest, missingParam, unsupported } from './errors.ts'
import type { MissingPaymentMethod } from './objects.ts'
import { checkoutSession, portalSession } from './objects-sessions.ts'
import { newId, type Params } from './params.ts'
import { completePaymentCheckout, createPaymentCheckoutSession } from './payments.ts'
import type { CardBehaviour, Ctx } from './store.ts'
import { createSubscription } from './subscriptions.ts'

/** Checkout sessions (`subscription` and `setup` mode) and billing portal sessions, and what completing them does. */

const TWO_DAYS = 2 * 86_400

export function createCheckoutSession(ctx: Ctx, params: Params): Stripe.Checkout.Session {
	params.allow(
		'mode',
		'customer',
		'customer_email',
		'line_items',
		'subscription_data',
		'metadata',
		'client_reference_id',
		'success_url',
		'cancel_url',
		'payment_method_collection',
		'payment_method_types',
		'currency',
		'locale',
		'expand',
		'allow_promotion_codes',
		'billing_address_collection',
		'customer_update',
		'ui_mode',
	)
	const now = ctx.now()
	const mode = params.oneOf('mode', ['payment', 'setup', 'subscription'] as const)
	if (!mode) {
		throw missingParam('mode')
	}
	if (mode === 'payment') {
		return createPaymentCheckoutSession(ctx, params)
	}
	const uiMode = params.string('ui_mode')
	if (uiMode && uiMode !== 'hosted' && uiMode !== 'hosted_page') {
		throw unsupported('ui_mode', uiMode)
	}
	const customerId = params.string('customer')
	const customerEmail = params.string('customer_email')
	if (customerId && customerEmail) {
		throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', 'customer_email')
	}
	const customer = customerId ? ctx.store.customer(customerId, 'customer') : null
	const lineItems = (params.array('line_items') ?? []).map((entry) => {
		entry.allow('price', 'quantity', 'adjustable_quantity', 'price_data')
		if (entry.has('price_data') || entry.has('adjustable_quantity')) {
			throw unsupported(entry.name(entry.has('price_data') ? 'price_data' : 'adjustable_quantity'))
		}
		const priceId = entry.string('price')
		if (!priceId) {
			throw missingParam(entry.name('price'))
		}
		const price = ctx.store.price(priceId, entry.name('price'))
		if (!price.active) {
			throw invalidRequest(`The price \`${priceId}\` is not active.`, entry.name('price'))
		}
		const quantity = entry.int('quantity')
		if (quantity === undefined) {
			throw missingParam(entry.name('quantity'))
		}
		return { price, quantity }
	})
	if (mode === 'setup' && lineItems.length > 0) {
		throw invalidRequest('You cannot pass `line_items` in `setup` mode.', 'line_items')
	}
	if (mode === 'subscription' && lineItems.length === 0) {
		throw invalidRequest(
			'You must provide at least one recurring price in `subscription` mode when using prices.',
			'line_items',
		)
	}
	const currencies = new Set(lineItems.map((item) => item.price.currency))
	if (currencies.size > 1) {
		throw invalidRequest('All prices on a Checkout Session must have the same currency.', 'line_items')
	}

	const data = params.object('subscription_data') || undefined
	if (data && mode !== 'subscription') {
		throw invalidRequest('You can only pass `subscription_data` in `subscription` mode.', 'subscription_data')
	}
	data?.allow('trial_end', 'trial_period_days', 'metadata', 'trial_settings', 'description')
	const trialEnd = data?.int('trial_end') ?? null
	const trialPeriodDays = data?.int('trial_period_days') ?? null
	if (trialEnd !== null && trialPeriodDays !== null) {
		throw invalidRequest(
			'You may only specify one of these parameters: subscription_data[trial_end], subscription_data[trial_period_days].',
			'subscription_data[trial_end]',
		)
	}
	if (trialEnd !== null && trialEnd < now + TWO_DAYS) {
		throw invalidRequest(
			'The `trial_end` date has to be at least 2 days in the future.',
			'subscription_data[trial_end]',
		)
	}
	if (trialPeriodDays !== null && trialPeriodDays < 1) {
		throw invalidRequest('trial_period_days must be at least 1.', 'subscription_data[trial_period_days]')
	}
	let missingPaymentMethod: MissingPaymentMethod = 'create_invoice'
	const trialSettings = data?.object('trial_settings') || undefined
	if (trialSettings) {
		trialSettings.allow('end_behavior')
		const endBehavior = trialSettings.object('end_behavior') || undefined
		endBehavior?.allow('missing_payment_method')
		missingPaymentMethod =
			endBehavior?.oneOf('missing_payment_method', ['cancel', 'create_invoice', 'pause'] as const) ??
			missingPaymentMethod
	}
	const collection = params.oneOf('payment_method_collection', ['always', 'if_required'] as const) ?? 'always'
	const hasTrial = trialEnd !== null || trialPeriodDays !== null
	const successUrl = params.string('success_url')
	if (!successUrl) {
		throw missingParam('success_url')
	}
	const created = checkoutSession({
		mode,
		customer: customer?.id ?? null,
		customerEmail: customerEmail ?? null,
		successUrl,
		cancelUrl: params.string('cancel_url') ?? null,
		clientReferenceId: params.string('client_reference_id') ?? null,
		metadata: params.metadata() || {},
		amountTotal:
			mode === 'subscription'
				? hasTrial
					? 0
					: lineItems.reduce((sum, item) => sum + (item.price.unit_amount ?? 0) * item.quantity, 0)
				: null,
		currency: lineItems[0]?.price.currency ?? params.string('currency') ?? null,
		paymentMethodCollection: collection,
		created: now,
		baseUrl: ctx.baseUrl(),
	})
	ctx.store.checkoutSessions.set(created.id, created)
	ctx.store.checkoutExtras.set(created.id, {
		lineItems,
		trialEnd,
		trialPeriodDays,
		subscriptionMetadata: data?.metadata() || {},
		subscriptionDescription: data?.string('description') ?? null,
		missingPaymentMethod,
	})
	return created
}

export type CheckoutCompletion = { email?: string; card?: CardBehaviour | 'none' }

/** Where the browser goes after a session: its success URL with `{CHECKOUT_SESSION_ID}` filled in. */
export function successRedirect(session: Stripe.Checkout.Session): string | null {
	return session.success_url ? session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id) : null
}

/**
 * What a customer paying on the hosted page does: the customer is created if needed, the card saved as their
 * default, and in `subscription` mode the subscription starts (trialing, or active with its first invoice paid).
 * A declining card is refused when money is due now, as the real page refuses it; during a trial it is saved
 * (and fails later). `card: 'none'` skips the card where `payment_method_collection=if_required` allows it.
 */
export function completeCheckout(ctx: Ctx, id: string, input: CheckoutCompletion = {}): Stripe.Checkout.Session {
	const session = ctx.store.checkoutSession(id)
	if (session.mode === 'payment' && session.status === 'open') {
		return completePaymentCheckout(ctx, session, input)
	}
	const extras = ctx.store.checkoutExtras.get(id)
	if (session.status !== 'open' || !extras) {
		throw invalidRequest(`This Checkout Session is no longer active (status: ${session.status}).`)
	}
	const card = input.card ?? 'ok'
	const dueNow = session.mode === 'subscription' ? (session.amount_total ?? 0) : 0
	if (
		card === 'none' &&
		(session.mode !== 'subscription' || session.payment_method_collection !== 'if_required' || dueNow > 0)
	) {
		throw invalidRequest(
			'A card is required: only a subscription Checkout with payment_method_collection=if_required and nothing due now can skip it.',
		)
	}
	if (card === 'declines' && dueNow > 0) {
		throw cardDeclined()
	}
	let customer = session.customer ? ctx.store.customer(String(session.customer)) : null
	// The page locks an e-mail given at creation; otherwise the customer types one.
	const email = customer?.email ?? session.customer_email ?? input.email ?? null
	if (!customer) {
		if (!email) {
			throw invalidRequest('An email address is required to complete this Checkout Session.', 'email')
		}
		customer = newCustomer(ctx, { email })
	}
	if (card !== 'none') {
		saveCard(ctx, customer, card)
	}
	const now = ctx.now()
	const before = structuredClone(session)
	if (session.mode === 'subscription') {
		const trialEnd = extras.trialEnd ?? (extras.trialPeriodDays === null ? null : now + extras.trialPeriodDays * 86_400)
		const created = createSubscription(ctx, {
			customer,
			items: extras.lineItems,
			trialEnd,
			metadata: { ...extras.subscriptionMetadata },
			description: extras.subscriptionDescription,
			missingPaymentMethod: extras.missingPaymentMethod,
		})
		session.subscription = created.id
		session.invoice = typeof created.latest_invoice === 'string' ? created.latest_invoice : null
		session.payment_status = dueNow > 0 ? 'paid' : 'no_payment_required'
	} else {
		session.setup_intent = newId('seti')
		payOpenInvoices(ctx, customer.id)
	}
	session.status = 'complete'
	session.customer = customer.id
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

export function expireCheckoutSession(ctx: Ctx, session: Stripe.Checkout.Session): void {
	const before = structuredClone(session)
	session.status = 'expired'
	session.url = null
	ctx.events.record('checkout.session.expired', session, before)
}

export function createPortalSession(ctx: Ctx, params: Params): Stripe.BillingPortal.Session {
	params.allow('customer', 'return_url', 'flow_data', 'configuration', 'locale', 'expand')
	const customerId = params.string('customer')
	if (!customerId) {
		throw missingParam('customer')
	}
	ctx.store.customer(customerId, 'customer')
	const returnUrl = params.string('return_url') ?? null
	let flow: Stripe.BillingPortal.Session.Flow | null = null
	const flowData = params.object('flow_data') || undefined
	if (flowData) {
		flowData.allow('type', 'after_completion')
		const type = flowData.oneOf('type', [
			'payment_method_update',
			'subscription_cancel',
			'subscription_update',
			'subscription_update_confirm',
		] as const)
		if (!type) {
			throw missingParam(flowData.name('type'))
		}
		if (type !== 'payment_method_update') {
			throw unsupported(flowData.name('type'), type)
		}
		const after = flowData.object('after_completion') || undefined
		after?.allow('type', 'redirect', 'hosted_confirmation')
		const afterType =
			after?.oneOf('type', ['hosted_confirmation', 'portal_homepage', 'redirect'] as const) ?? 'portal_homepage'
		const redirect = after?.object('redirect') || undefined
		redirect?.allow('return_url')
		const redirectUrl = redirect?.string('return_url')
		if (afterType === 'redirect' && !redirectUrl) {
			throw missingParam(`${flowData.name('after_completion')}[redirect][return_url]`)
		}
		flow = {
			after_completion: {
				hosted_confirmation: afterType === 'hosted_confirmation' ? { custom_message: null } : null,
				redirect: afterType === 'redirect' && redirectUrl ? { return_url: redirectUrl } : null,
				type: afterType,
			},
			customer_update: null,
			subscription_cancel: null,
			subscription_pause: null,
			subscription_update: null,
			subscription_update_confirm: null,
			type,
		}
	}
	const created = portalSession({ customer: customerId, returnUrl, flow, created: ctx.now(), baseUrl: ctx.baseUrl() })
	ctx.store.portalSessions.set(created.id, created)
	return created
}

/**
 * Saving a card in the portal: it becomes the customer's default (and the default of their subscriptions that
 * had one of their own), then the open invoices of past-due subscriptions are paid with it.
 */
export function completePortal(ctx: Ctx, id: string, card: CardBehaviour = 'ok'): { redirectUrl: string | null } {
	const session = ctx.store.portalSession(id)
	const customer = ctx.store.customer(session.customer)
	const method = saveCard(ctx, customer, card)
	for (const subscription of ctx.store.subscriptionsOf(customer.id)) {
		if (subscription.default_payment_method && subscription.status !== 'canceled') {
			const before = structuredClone(subscription)
			subscription.default_payment_method = method.id
			ctx.events.recordChange('customer.subscription.updated', subscription, before)
		}
	}
	payOpenInvoices(ctx, customer.id)
	return { redirectUrl: session.flow?.after_completion.redirect?.return_url ?? session.return_url }
}
