import type Stripe from 'stripe'
import {
	addInterval,
	attemptPayment,
	type BillOutcome,
	bill,
	createInvoice,
	finalizeInvoice,
	intervalOf,
	nextBoundary,
	partialLine,
	periodLine,
	prorationLines,
} from './billing.ts'
import { type MissingPaymentMethod, planOf, subscription, subscriptionItem } from './objects.ts'
import { type Ctx, idOf } from './store.ts'

/** The subscription lifecycle: creation, renewals, trials ending, price changes, pauses and cancellations. */

const THREE_DAYS = 3 * 86_400

export type ProrationBehavior = 'always_invoice' | 'create_prorations' | 'none'

/** Creates a subscription as Checkout does, bills its first invoice ($0 during a trial) and charges it. */
export function createSubscription(
	ctx: Ctx,
	input: {
		customer: Stripe.Customer
		items: Array<{ price: Stripe.Price; quantity: number }>
		trialEnd: number | null
		metadata: Record<string, string>
		description: string | null
		missingPaymentMethod: MissingPaymentMethod
	},
): Stripe.Subscription {
	const now = ctx.now()
	const first = input.items[0]?.price
	if (!first) {
		throw new Error('a subscription needs an item')
	}
	const created = subscription({
		customer: input.customer.id,
		currency: first.currency,
		created: now,
		metadata: input.metadata,
		description: input.description,
		missingPaymentMethod: input.missingPaymentMethod,
	})
	const trial = input.trialEnd !== null
	const periodEnd = input.trialEnd ?? addInterval(now, intervalOf(first), 1)
	const period = { start: now, end: periodEnd }
	created.billing_cycle_anchor = input.trialEnd ?? now
	created.items.data = input.items.map((item) => subscriptionItem(created.id, item.price, item.quantity, period, now))
	if (trial) {
		created.status = 'trialing'
		created.trial_start = now
		created.trial_end = input.trialEnd
	}
	ctx.store.subscriptions.set(created.id, created)
	ctx.store.extras(created.id)
	// The first invoice exists before the subscription is announced, so the event carries `latest_invoice`.
	const lines = created.items.data.map((item) => periodLine(ctx, item, period, trial))
	const firstInvoice = createInvoice(ctx, created, lines, 'subscription_create', { start: now, end: now })
	ctx.events.record('customer.subscription.created', created)
	const before = structuredClone(created)
	finalizeInvoice(ctx, firstInvoice)
	const paid = attemptPayment(ctx, firstInvoice, created)
	if (!trial) {
		created.status = paid ? 'active' : 'incomplete'
	}
	ctx.events.recordChange('customer.subscription.updated', created, before)
	if (trial && periodEnd - now <= THREE_DAYS) {
		trialWillEnd(ctx, created)
	}
	return created
}

export function trialWillEnd(ctx: Ctx, target: Stripe.Subscription): void {
	ctx.store.extras(target.id).trialWillEndSent = true
	ctx.events.record('customer.subscription.trial_will_end', target)
}

function setPeriod(target: Stripe.Subscription, start: number, end: number): void {
	for (const item of target.items.data) {
		item.current_period_start = start
		item.current_period_end = end
	}
}

export function firstItem(target: Stripe.Subscription): Stripe.SubscriptionItem {
	const item = target.items.data[0]
	if (!item) {
		throw new Error(`subscription ${target.id} has no item`)
	}
	return item
}

/** The period ended: the next one starts (shortened by a `cancel_at` inside it) and is billed. */
export function renew(ctx: Ctx, target: Stripe.Subscription): BillOutcome {
	const before = structuredClone(target)
	const item = firstItem(target)
	const previous = { start: item.current_period_start, end: item.current_period_end }
	const start = previous.end
	const fullEnd = nextBoundary(target.billing_cycle_anchor, intervalOf(item.price), start)
	const end = target.cancel_at && target.cancel_at > start && target.cancel_at < fullEnd ? target.cancel_at : fullEnd
	setPeriod(target, start, end)
	const lines = target.items.data.map((each) =>
		end === fullEnd ? periodLine(ctx, each, { start, end }) : partialLine(ctx, each, start, fullEnd, end),
	)
	const outcome = bill(ctx, target, lines, 'subscription_cycle', previous)
	ctx.events.recordChange('customer.subscription.updated', target, before)
	return outcome
}

/**
 * The trial ends at `at` (its natural end, or `trial_end=now`). With a payment method the first paid period
 * starts and is charged; without one `trial_settings.end_behavior.missing_payment_method` decides: `cancel`,
 * `pause` (status `paused`), or `create_invoice` (an open invoice that cannot be paid: `past_due`).
 * The caller records `customer.subscription.updated` (one event for the whole change).
 */
export function endTrial(ctx: Ctx, target: Stripe.Subscription, at: number, early: boolean): void {
	const before = structuredClone(target)
	const hasMethod = Boolean(
		idOf(target.default_payment_method) ??
			idOf(ctx.store.customers.get(idOf(target.customer) ?? '')?.invoice_settings.default_payment_method),
	)
	const missing = target.trial_settings?.end_behavior.missing_payment_method ?? 'create_invoice'
	if (early) {
		target.trial_end = at
	}
	if (!hasMethod && missing === 'cancel') {
		cancelNow(ctx, target, at, before, null)
		return
	}
	if (!hasMethod && missing === 'pause') {
		target.status = 'paused'
		target.status_details = {
			paused: { subscription: { type: 'trial_end_without_payment_method' }, transitioned_at: at, type: 'subscription' },
		}
		ctx.events.record('customer.subscription.paused', target, before)
		return
	}
	if (early) {
		target.billing_cycle_anchor = at
	}
	const item = firstItem(target)
	const end = nextBoundary(target.billing_cycle_anchor, intervalOf(item.price), at)
	setPeriod(target, at, end)
	target.status = 'active'
	const lines = target.items.data.map((each) => periodLine(ctx, each, { start: at, end }))
	bill(ctx, target, lines, early ? 'subscription_update' : 'subscription_cycle', { start: at, end: at })
}

/** Ends the subscription at `at`; emits `customer.subscription.deleted` (and cancels its schedule). */
export function cancelNow(
	ctx: Ctx,
	target: Stripe.Subscription,
	at: number,
	before: Stripe.Subscription,
	reason: Stripe.Subscription.CancellationDetails.Reason | null,
): void {
	target.status = 'canceled'
	target.ended_at = at
	target.canceled_at = target.canceled_at ?? at
	if (target.cancellation_details && reason) {
		target.cancellation_details.reason = target.cancellation_details.reason ?? reason
	}
	const scheduleId = idOf(target.schedule)
	const attached = scheduleId ? ctx.store.schedules.get(scheduleId) : undefined
	if (attached && (attached.status === 'active' || attached.status === 'not_started')) {
		const scheduleBefore = structuredClone(attached)
		attached.status = 'canceled'
		attached.canceled_at = at
		attached.current_phase = null
		ctx.events.record('subscription_schedule.canceled', attached, scheduleBefore)
	}
	ctx.events.record('customer.subscription.deleted', target, before)
}

/**
 * Switches an item to another price at `at`. During a trial (or while paused) it only switches. A different
 * interval restarts the billing cycle now and bills at once (unused time credited unless `none`). Otherwise
 * `always_invoice` bills the prorations now, `create_prorations` keeps them for the next invoice, `none` has none.
 */
export function changePrice(
	ctx: Ctx,
	target: Stripe.Subscription,
	item: Stripe.SubscriptionItem,
	to: { price: Stripe.Price; quantity: number },
	behavior: ProrationBehavior,
	at: number,
): void {
	const from = { price: item.price, quantity: item.quantity ?? 1 }
	if (from.price.id === to.price.id && from.quantity === to.quantity) {
		return
	}
	const switchItem = () => {
		item.price = to.price
		item.plan = planOf(to.price)
		item.quantity = to.quantity
	}
	if (target.status !== 'active' && target.status !== 'past_due') {
		switchItem()
		return
	}
	if (intervalOf(from.price) !== intervalOf(to.price)) {
		const credit = behavior === 'none' ? [] : prorationLines(ctx, item, from, { price: from.price, quantity: 0 }, at)
		switchItem()
		target.billing_cycle_anchor = at
		setPeriod(target, at, addInterval(at, intervalOf(to.price), 1))
		const lines = [
			...credit,
			...target.items.data.map((each) => periodLine(ctx, each, { start: at, end: each.current_period_end })),
		]
		bill(ctx, target, lines, 'subscription_update', { start: at, end: at })
		return
	}
	const lines = behavior === 'none' ? [] : prorationLines(ctx, item, from, to, at)
	switchItem()
	if (lines.length === 0) {
		return
	}
	if (behavior === 'always_invoice') {
		bill(ctx, target, lines, 'subscription_update', { start: at, end: at })
	} else {
		ctx.store.extras(target.id).pendingProrations.push(...lines)
	}
}

/** Lines an immediate invoice for a price change would have, to refuse it up front when it cannot be paid. */
export function priceChangeCharge(
	ctx: Ctx,
	target: Stripe.Subscription,
	item: Stripe.SubscriptionItem,
	to: { price: Stripe.Price; quantity: number },
	behavior: ProrationBehavior,
	at: number,
): number {
	if (target.status !== 'active' && target.status !== 'past_due') {
		return 0
	}
	const from = { price: item.price, quantity: item.quantity ?? 1 }
	if (intervalOf(from.price) !== intervalOf(to.price)) {
		const credit = behavior === 'none' ? [] : prorationLines(ctx, item, from, { price: from.price, quantity: 0 }, at)
		return credit.reduce((sum, line) => sum + line.amount, (to.price.unit_amount ?? 0) * to.quantity)
	}
	if (behavior !== 'always_invoice') {
		return 0
	}
	return prorationLines(ctx, item, from, to, at).reduce((sum, line) => sum + line.amount, 0)
}

/** `POST /v1/subscriptions/:id/resume` with `billing_cycle_anchor=now`: a new period billed now. */
export function resume(ctx: Ctx, target: Stripe.Subscription): void {
	const before = structuredClone(target)
	const at = ctx.now()
	delete target.status_details
	target.status = 'active'
	target.billing_cycle_anchor = at
	const item = firstItem(target)
	setPeriod(target, at, addInterval(at, intervalOf(item.price), 1))
	const lines = target.items.data.map((each) => periodLine(ctx, each, { start: at, end: each.current_period_end }))
	bill(ctx, target, lines, 'subscription_update', { start: at, end: at })
	ctx.events.record('customer.subscription.resumed', target, before)
	ctx.events.recordChange('customer.subscription.updated', target, before)
}
