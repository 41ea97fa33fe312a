import type Stripe from 'stripe'
import { paymentMethodFor } from './billing.ts'
import { cardDeclined, invalidRequest, resourceMissing, unsupported } from './errors.ts'
import { mergeMetadata, type Params } from './params.ts'
import { type Ctx, idOf } from './store.ts'
import {
	cancelNow,
	changePrice,
	endTrial,
	firstItem,
	type ProrationBehavior,
	priceChangeCharge,
	trialWillEnd,
} from './subscriptions.ts'

/** `POST /v1/subscriptions/:id`: every parameter is validated before anything changes, as Stripe does. */

const PRORATIONS = ['always_invoice', 'create_prorations', 'none'] as const
const PAYMENT_BEHAVIORS = [
	'allow_incomplete',
	'default_incomplete',
	'error_if_incomplete',
	'pending_if_incomplete',
] as const

const NO_PAYMENT_METHOD =
	'This customer has no attached payment source or default payment method. Please consider adding a default payment method. For more information, visit https://stripe.com/docs/billing/subscriptions/payment-methods-setting#payment-method-priority.'

/** A payment method id given as a parameter, which must belong to the subscription's customer. */
export function customerPaymentMethod(ctx: Ctx, customerId: string, id: string, param: string): Stripe.PaymentMethod {
	const method = ctx.store.paymentMethods.get(id)
	if (!method) {
		throw resourceMissing('pm', id, param)
	}
	if (idOf(method.customer) !== customerId) {
		throw invalidRequest(
			`The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
			param,
		)
	}
	return method
}

type ItemChange = { item: Stripe.SubscriptionItem; price: Stripe.Price; quantity: number }

function parseItems(ctx: Ctx, target: Stripe.Subscription, params: Params): ItemChange[] {
	return (params.array('items') ?? []).map((entry) => {
		entry.allow('id', 'price', 'quantity', 'plan', 'metadata', 'deleted', 'price_data', 'clear_usage')
		for (const key of ['deleted', 'price_data', 'clear_usage', 'metadata'] as const) {
			if (entry.has(key)) {
				throw unsupported(entry.name(key))
			}
		}
		const id = entry.string('id')
		if (!id) {
			throw unsupported(entry.name('price'), 'adding an item to a subscription; pass the item id to change its price')
		}
		const item = target.items.data.find((candidate) => candidate.id === id)
		if (!item) {
			throw resourceMissing('si', id, entry.name('id'))
		}
		const priceId = entry.string('price') ?? entry.string('plan')
		const price = priceId ? ctx.store.price(priceId, entry.name('price')) : item.price
		if (price.currency !== target.currency) {
			throw invalidRequest(
				`The price specified has currency ${price.currency}, but the subscription is in ${target.currency}.`,
				entry.name('price'),
			)
		}
		const quantity = entry.int('quantity') ?? item.quantity ?? 1
		if (quantity < 0) {
			throw invalidRequest('Invalid positive integer', entry.name('quantity'))
		}
		return { item, price, quantity }
	})
}

function parseCancelAt(params: Params, target: Stripe.Subscription, now: number): number | null | undefined {
	const raw = params.values.cancel_at
	if (raw === undefined) {
		return undefined
	}
	if (raw === '') {
		return null
	}
	if (raw === 'max_period_end' || raw === 'min_period_end') {
		return firstItem(target).current_period_end
	}
	const value = params.int('cancel_at') as number
	if (value < now) {
		throw invalidRequest('cancel_at must be in the future.', 'cancel_at')
	}
	return value
}

export function updateSubscription(ctx: Ctx, target: Stripe.Subscription, params: Params): void {
	params.allow(
		'cancel_at',
		'cancel_at_period_end',
		'cancellation_details',
		'default_payment_method',
		'description',
		'expand',
		'items',
		'metadata',
		'off_session',
		'pause_collection',
		'payment_behavior',
		'proration_behavior',
		'trial_end',
		'trial_settings',
	)
	const now = ctx.now()
	const customerId = idOf(target.customer) ?? ''
	if (target.status === 'canceled' || target.status === 'incomplete_expired') {
		const refused = params.keys().filter((key) => !['metadata', 'cancellation_details', 'expand'].includes(key))
		if (refused.length > 0) {
			throw invalidRequest(
				'A canceled subscription can only update its cancellation_details and metadata.',
				refused[0],
				'invalid_canceled_subscription_fields',
			)
		}
	}
	const metadata = params.metadata()
	const description = params.string('description')
	const details = params.object('cancellation_details')
	if (details) {
		details.allow('comment', 'feedback')
	}
	const methodId = params.string('default_payment_method')
	const method = methodId ? customerPaymentMethod(ctx, customerId, methodId, 'default_payment_method') : undefined

	const pause = params.object('pause_collection')
	let pauseCollection: Stripe.Subscription.PauseCollection | null | undefined
	if (pause === '') {
		pauseCollection = null
	} else if (pause) {
		pause.allow('behavior', 'resumes_at')
		const behavior = pause.oneOf('behavior', ['keep_as_draft', 'mark_uncollectible', 'void'] as const)
		if (!behavior) {
			throw invalidRequest(
				`Missing required param: ${pause.name('behavior')}.`,
				pause.name('behavior'),
				'parameter_missing',
			)
		}
		const resumesAt = pause.int('resumes_at') ?? null
		if (resumesAt !== null && resumesAt <= now) {
			throw invalidRequest('resumes_at must be in the future.', pause.name('resumes_at'))
		}
		pauseCollection = { behavior, resumes_at: resumesAt }
	}

	const cancelAtPeriodEnd = params.bool('cancel_at_period_end')
	const cancelAt = parseCancelAt(params, target, now)
	if (cancelAtPeriodEnd !== undefined && cancelAt !== undefined) {
		throw invalidRequest('You may only specify one of these parameters: cancel_at, cancel_at_period_end.', 'cancel_at')
	}
	const scheduleId = idOf(target.schedule)
	if (scheduleId && (cancelAtPeriodEnd !== undefined || cancelAt !== undefined)) {
		throw invalidRequest(
			`The subscription is managed by the subscription schedule \`${scheduleId}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
			cancelAt === undefined ? 'cancel_at_period_end' : 'cancel_at',
		)
	}

	const items = parseItems(ctx, target, params)
	const proration: ProrationBehavior = params.oneOf('proration_behavior', PRORATIONS) ?? 'create_prorations'
	const paymentBehavior = params.oneOf('payment_behavior', PAYMENT_BEHAVIORS) ?? 'allow_incomplete'
	if (paymentBehavior === 'pending_if_incomplete') {
		throw unsupported('payment_behavior', 'pending_if_incomplete (pending updates)')
	}
	const trialEnd = params.timestamp('trial_end', true)
	if (typeof trialEnd === 'number') {
		if (trialEnd <= now) {
			throw invalidRequest('Invalid timestamp: must be an integer Unix timestamp in the future.', 'trial_end')
		}
		if (target.status !== 'trialing') {
			throw unsupported('trial_end', 'starting a trial on a subscription that is not trialing')
		}
	}
	const trialSettings = params.object('trial_settings')
	let missingPaymentMethod: 'cancel' | 'create_invoice' | 'pause' | undefined
	if (trialSettings) {
		trialSettings.allow('end_behavior')
		const endBehavior = trialSettings.object('end_behavior')
		if (endBehavior) {
			endBehavior.allow('missing_payment_method')
			missingPaymentMethod = endBehavior.oneOf('missing_payment_method', ['cancel', 'create_invoice', 'pause'] as const)
		}
	}
	const endsTrial = trialEnd === 'now' && target.status === 'trialing'

	if (paymentBehavior === 'error_if_incomplete') {
		// Stripe refuses the whole update with a 402 when the invoice it would create cannot be paid.
		let amount = 0
		for (const change of items) {
			amount += priceChangeCharge(ctx, target, change.item, change, proration, now)
		}
		if (endsTrial) {
			for (const item of target.items.data) {
				const change = items.find((candidate) => candidate.item.id === item.id)
				amount += ((change ?? item).price.unit_amount ?? 0) * (change?.quantity ?? item.quantity ?? 1)
			}
		}
		const customer = ctx.store.customer(customerId)
		if (amount + customer.balance > 0) {
			const payer = method ?? paymentMethodFor(ctx, target)
			if (!payer) {
				throw invalidRequest(NO_PAYMENT_METHOD, undefined, 'resource_missing')
			}
			if (ctx.store.cards.get(payer.id) === 'declines') {
				throw cardDeclined()
			}
		}
	}

	const before = structuredClone(target)
	if (metadata !== undefined) {
		target.metadata = mergeMetadata(target.metadata, metadata)
	}
	if (description !== undefined) {
		target.description = description === '' ? null : description
	}
	if (details && target.cancellation_details) {
		const comment = details.string('comment')
		if (comment !== undefined) {
			target.cancellation_details.comment = comment === '' ? null : comment
		}
		const feedback = details.string('feedback')
		if (feedback !== undefined) {
			target.cancellation_details.feedback =
				feedback === '' ? null : (feedback as Stripe.Subscription.CancellationDetails.Feedback)
		}
	}
	if (method) {
		target.default_payment_method = method.id
	}
	if (missingPaymentMethod && target.trial_settings) {
		target.trial_settings.end_behavior.missing_payment_method = missingPaymentMethod
	}
	if (pauseCollection !== undefined) {
		target.pause_collection = pauseCollection
	}
	applyCancellation(target, cancelAtPeriodEnd, cancelAt, now)
	for (const change of items) {
		changePrice(ctx, target, change.item, change, proration, now)
	}
	if (typeof trialEnd === 'number') {
		target.trial_end = trialEnd
		target.billing_cycle_anchor = trialEnd
		for (const item of target.items.data) {
			item.current_period_end = trialEnd
		}
		ctx.store.extras(target.id).trialWillEndSent = false
	}
	if (endsTrial) {
		trialWillEnd(ctx, target)
		endTrial(ctx, target, now, true)
	}
	if (target.status !== 'canceled') {
		ctx.events.recordChange('customer.subscription.updated', target, before)
	}
}

function applyCancellation(
	target: Stripe.Subscription,
	atPeriodEnd: boolean | undefined,
	cancelAt: number | null | undefined,
	now: number,
): void {
	const details = target.cancellation_details
	if (atPeriodEnd === true) {
		target.cancel_at_period_end = true
		target.cancel_at = firstItem(target).current_period_end
		target.canceled_at = now
		if (details) {
			details.reason = 'cancellation_requested'
		}
	} else if (atPeriodEnd === false) {
		if (target.cancel_at_period_end) {
			target.cancel_at = null
		}
		target.cancel_at_period_end = false
		target.canceled_at = target.cancel_at ? target.canceled_at : null
		if (details && !target.cancel_at) {
			details.reason = null
		}
	}
	if (cancelAt === null) {
		target.cancel_at = null
		target.cancel_at_period_end = false
		target.canceled_at = null
		if (details) {
			details.reason = null
		}
	} else if (cancelAt !== undefined) {
		target.cancel_at = cancelAt
		target.cancel_at_period_end = false
		target.canceled_at = now
		if (details) {
			details.reason = 'cancellation_requested'
		}
	}
}

/** `DELETE /v1/subscriptions/:id`: cancels now. */
export function cancelSubscription(ctx: Ctx, target: Stripe.Subscription, params: Params): void {
	params.allow('cancellation_details', 'expand', 'invoice_now', 'prorate')
	if (target.status === 'canceled' || target.status === 'incomplete_expired') {
		throw invalidRequest(
			'A canceled subscription can only update its cancellation_details and metadata.',
			undefined,
			'invalid_canceled_subscription_fields',
		)
	}
	if (params.bool('invoice_now') || params.bool('prorate')) {
		throw unsupported(params.has('invoice_now') ? 'invoice_now' : 'prorate')
	}
	const details = params.object('cancellation_details')
	const before = structuredClone(target)
	if (details && target.cancellation_details) {
		details.allow('comment', 'feedback')
		target.cancellation_details.comment = details.string('comment') || null
		const feedback = details.string('feedback')
		target.cancellation_details.feedback = feedback
			? (feedback as Stripe.Subscription.CancellationDetails.Feedback)
			: null
	}
	target.canceled_at = ctx.now()
	cancelNow(ctx, target, ctx.now(), before, 'cancellation_requested')
}
