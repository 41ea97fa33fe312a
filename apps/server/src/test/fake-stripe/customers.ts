import type Stripe from 'stripe'
import { invalidRequest, unsupported } from './errors.ts'
import { cardPaymentMethod, customer } from './objects.ts'
import { mergeMetadata, type Params } from './params.ts'
import { type CardBehaviour, type Ctx, idOf } from './store.ts'
import { customerPaymentMethod } from './subscription-update.ts'

/** Customers and their cards: a card that `declines` is saved fine but every charge to it fails. */

export function newCustomer(
	ctx: Ctx,
	input: { email: string | null; name?: string | null; description?: string | null; metadata?: Record<string, string> },
): Stripe.Customer {
	const created = customer({
		email: input.email,
		name: input.name ?? null,
		description: input.description ?? null,
		metadata: input.metadata ?? {},
		created: ctx.now(),
	})
	ctx.store.customers.set(created.id, created)
	ctx.events.record('customer.created', created)
	return created
}

export function createCustomer(ctx: Ctx, params: Params): Stripe.Customer {
	params.allow('email', 'name', 'description', 'metadata', 'expand', 'phone', 'preferred_locales', 'invoice_settings')
	if (params.has('invoice_settings')) {
		throw invalidRequest(
			'A new customer has no payment methods yet; attach one before setting invoice_settings[default_payment_method].',
			'invoice_settings',
		)
	}
	const created = newCustomer(ctx, {
		email: params.string('email') || null,
		name: params.string('name') || null,
		description: params.string('description') || null,
		metadata: params.metadata() || {},
	})
	const phone = params.string('phone')
	if (phone) {
		created.phone = phone
	}
	const locales = params.stringList('preferred_locales')
	if (locales) {
		created.preferred_locales = locales
	}
	return created
}

export function updateCustomer(ctx: Ctx, target: Stripe.Customer, params: Params): void {
	params.allow('email', 'name', 'description', 'metadata', 'expand', 'phone', 'preferred_locales', 'invoice_settings')
	const settings = params.object('invoice_settings')
	let defaultMethod: string | null | undefined
	if (settings) {
		settings.allow('default_payment_method', 'custom_fields', 'footer', 'rendering_options')
		for (const key of ['custom_fields', 'footer', 'rendering_options']) {
			if (settings.has(key)) {
				throw unsupported(settings.name(key))
			}
		}
		const id = settings.string('default_payment_method')
		if (id === '') {
			defaultMethod = null
		} else if (id !== undefined) {
			defaultMethod = customerPaymentMethod(ctx, target.id, id, settings.name('default_payment_method')).id
		}
	}
	const metadata = params.metadata()
	const before = structuredClone(target)
	for (const key of ['email', 'name', 'description', 'phone'] as const) {
		const value = params.string(key)
		if (value !== undefined) {
			target[key] = value === '' ? null : value
		}
	}
	const locales = params.stringList('preferred_locales')
	if (locales) {
		target.preferred_locales = locales
	}
	if (metadata !== undefined) {
		target.metadata = mergeMetadata(target.metadata, metadata)
	}
	if (defaultMethod !== undefined) {
		target.invoice_settings.default_payment_method = defaultMethod
	}
	ctx.events.recordChange('customer.updated', target, before)
}

/** A new card (visa •••• 4242, or •••• 0002 when it declines) attached to the customer as their default. */
export function saveCard(ctx: Ctx, target: Stripe.Customer, card: CardBehaviour): Stripe.PaymentMethod {
	const method = cardPaymentMethod(target.id, card === 'declines' ? '0002' : '4242', target.email, ctx.now())
	ctx.store.paymentMethods.set(method.id, method)
	ctx.store.cards.set(method.id, card)
	ctx.events.record('payment_method.attached', method)
	const before = structuredClone(target)
	target.invoice_settings.default_payment_method = method.id
	ctx.events.recordChange('customer.updated', target, before)
	return method
}

/** Makes later charges to the customer's current card fail or succeed (a card that expired, got topped up…). */
export function setCard(ctx: Ctx, customerId: string, card: CardBehaviour): void {
	const target = ctx.store.customer(customerId)
	const methods = new Set<string>()
	const own = idOf(target.invoice_settings.default_payment_method)
	if (own) {
		methods.add(own)
	}
	for (const subscription of ctx.store.subscriptionsOf(customerId)) {
		const id = idOf(subscription.default_payment_method)
		if (id) {
			methods.add(id)
		}
	}
	if (methods.size === 0) {
		throw invalidRequest(`Customer ${customerId} has no card to change; complete a Checkout or portal session first.`)
	}
	for (const id of methods) {
		ctx.store.cards.set(id, card)
	}
}
