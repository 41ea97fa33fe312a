import type Stripe from 'stripe'
import { invoice, invoiceLine, type LineInput, list } from './objects.ts'
import { type Ctx, idOf } from './store.ts'

/** Periods, invoices and charges: what every subscription operation bills through. */

const DAY = 86_400

/** `count` intervals after `anchor` (Unix seconds); the 31st becomes a shorter month's last day, as Stripe does. */
export function addInterval(anchor: number, interval: string, count: number): number {
	if (interval === 'day') {
		return anchor + count * DAY
	}
	if (interval === 'week') {
		return anchor + count * 7 * DAY
	}
	const date = new Date(anchor * 1000)
	const months = date.getUTCMonth() + (interval === 'year' ? 12 : 1) * count
	const year = date.getUTCFullYear() + Math.floor(months / 12)
	const month = ((months % 12) + 12) % 12
	const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
	const day = Math.min(date.getUTCDate(), lastDay)
	return Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()) / 1000
}

/** The first period boundary after `after`, counted from the billing cycle anchor. */
export function nextBoundary(anchor: number, interval: string, after: number): number {
	if (anchor > after) {
		return anchor
	}
	let count = 1
	while (addInterval(anchor, interval, count) <= after) {
		count++
	}
	return addInterval(anchor, interval, count)
}

export function intervalOf(price: Stripe.Price): string {
	return price.recurring?.interval ?? 'month'
}

export function formatMoney(amount: number, currency: string): string {
	return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100)
}

function formatDay(timestamp: number): string {
	return new Date(timestamp * 1000).toLocaleDateString('en-GB', {
		day: 'numeric',
		month: 'short',
		year: 'numeric',
		timeZone: 'UTC',
	})
}

export function productName(ctx: Ctx, price: Stripe.Price): string {
	const productId = idOf(price.product)
	return (productId && ctx.store.products.get(productId)?.name) || 'Subscription'
}

/** The line of a full period of one item. */
export function periodLine(
	ctx: Ctx,
	item: Stripe.SubscriptionItem,
	period: { start: number; end: number },
	trial = false,
): LineInput {
	const quantity = item.quantity ?? 1
	const name = productName(ctx, item.price)
	const unit = item.price.unit_amount ?? 0
	return {
		amount: trial ? 0 : unit * quantity,
		description: trial
			? `Trial period for ${name}`
			: `${quantity} × ${name} (at ${formatMoney(unit, item.price.currency)} / ${intervalOf(item.price)})`,
		price: item.price,
		quantity,
		period,
		proration: false,
		subscriptionItem: item.id,
	}
}

/** A shortened period (a cancellation date before the period's end) costs its share of the full one. */
export function partialLine(ctx: Ctx, item: Stripe.SubscriptionItem, start: number, fullEnd: number, end: number) {
	const line = periodLine(ctx, item, { start, end })
	line.amount = Math.round((line.amount * (end - start)) / (fullEnd - start))
	return line
}

/** The two proration lines of a price change at `at`: the unused time credited, the remaining time charged. */
export function prorationLines(
	ctx: Ctx,
	item: Stripe.SubscriptionItem,
	from: { price: Stripe.Price; quantity: number },
	to: { price: Stripe.Price; quantity: number },
	at: number,
): LineInput[] {
	const start = item.current_period_start
	const end = item.current_period_end
	const share = end > start ? Math.max(0, end - at) / (end - start) : 0
	const credit = Math.round((from.price.unit_amount ?? 0) * from.quantity * share)
	const charge = Math.round((to.price.unit_amount ?? 0) * to.quantity * share)
	const period = { start: at, end }
	const lines: LineInput[] = []
	if (credit !== 0) {
		lines.push({
			amount: -credit,
			description: `Unused time on ${from.quantity} × ${productName(ctx, from.price)} after ${formatDay(at)}`,
			price: from.price,
			quantity: from.quantity,
			period,
			proration: true,
			subscriptionItem: item.id,
		})
	}
	if (charge !== 0) {
		lines.push({
			amount: charge,
			description: `Remaining time on ${to.quantity} × ${productName(ctx, to.price)} after ${formatDay(at)}`,
			price: to.price,
			quantity: to.quantity,
			period,
			proration: true,
			subscriptionItem: item.id,
		})
	}
	return lines
}

/** The payment method an invoice of `subscription` is charged to: the subscription's, else the customer's. */
export function paymentMethodFor(ctx: Ctx, subscription: Stripe.Subscription): Stripe.PaymentMethod | null {
	const customer = ctx.store.customers.get(idOf(subscription.customer) ?? '')
	const id = idOf(subscription.default_payment_method) ?? idOf(customer?.invoice_settings.default_payment_method)
	return id ? (ctx.store.paymentMethods.get(id) ?? null) : null
}

/** A draft invoice of `lines`; becomes the subscription's `latest_invoice`. Emits `invoice.created`. */
export function createInvoice(
	ctx: Ctx,
	subscription: Stripe.Subscription,
	lines: LineInput[],
	billingReason: Stripe.Invoice.BillingReason,
	period: { start: number; end: number },
): Stripe.Invoice {
	const customer = ctx.store.customer(idOf(subscription.customer) ?? '')
	const created = invoice({ customer, subscription, billingReason, period, created: ctx.now() })
	const rendered = lines.map((line) => invoiceLine(created.id, subscription.id, line))
	created.lines = list(rendered, `/v1/invoices/${created.id}/lines`)
	const total = lines.reduce((sum, line) => sum + line.amount, 0)
	created.subtotal = total
	created.subtotal_excluding_tax = total
	created.total = total
	created.total_excluding_tax = total
	created.amount_due = Math.max(0, total + customer.balance)
	created.amount_remaining = created.amount_due
	created.starting_balance = customer.balance
	ctx.store.invoices.set(created.id, created)
	subscription.latest_invoice = created.id
	ctx.events.record('invoice.created', created)
	return created
}

/** Draft → open: numbered, the customer's balance applied. Emits `invoice.finalized`. */
export function finalizeInvoice(ctx: Ctx, target: Stripe.Invoice): void {
	const customer = ctx.store.customer(idOf(target.customer) ?? '')
	const sequence = customer.next_invoice_sequence ?? 1
	target.number = `${customer.invoice_prefix}-${String(sequence).padStart(4, '0')}`
	customer.next_invoice_sequence = sequence + 1
	target.status = 'open'
	target.status_transitions.finalized_at = ctx.now()
	target.effective_at = ctx.now()
	target.hosted_invoice_url = `${ctx.baseUrl()}/invoices/${target.id}`
	const balance = target.total + target.starting_balance
	target.ending_balance = Math.min(0, balance)
	customer.balance = Math.min(0, balance)
	target.webhooks_delivered_at = ctx.now()
	ctx.events.record('invoice.finalized', target)
}

/** Charges an open invoice; `invoice.paid` + `invoice.payment_succeeded`, or `invoice.payment_failed`. */
export function attemptPayment(ctx: Ctx, target: Stripe.Invoice, subscription: Stripe.Subscription): boolean {
	if (target.amount_remaining > 0) {
		const method = paymentMethodFor(ctx, subscription)
		target.attempted = true
		target.attempt_count++
		if (!method || ctx.store.cards.get(method.id) === 'declines') {
			target.next_payment_attempt = null
			ctx.events.record('invoice.payment_failed', target)
			return false
		}
	}
	target.status = 'paid'
	target.amount_paid = target.amount_remaining
	target.amount_remaining = 0
	target.attempted = true
	target.next_payment_attempt = null
	target.status_transitions.paid_at = ctx.now()
	ctx.events.record('invoice.paid', target)
	ctx.events.record('invoice.payment_succeeded', target)
	return true
}

export type BillOutcome = { invoice: Stripe.Invoice; paid: boolean }

/**
 * Creates, finalizes and charges an invoice as a subscription bills, honouring `pause_collection`: `void`
 * voids it, `keep_as_draft` leaves it a draft, `mark_uncollectible` marks it uncollectible, and none of them
 * charges. Moves the subscription to `active` when paid and to `past_due` when the charge fails.
 */
export function bill(
	ctx: Ctx,
	subscription: Stripe.Subscription,
	lines: LineInput[],
	billingReason: Stripe.Invoice.BillingReason,
	period: { start: number; end: number },
): BillOutcome {
	const extras = ctx.store.extras(subscription.id)
	const allLines = [...extras.pendingProrations, ...lines]
	extras.pendingProrations = []
	const created = createInvoice(ctx, subscription, allLines, billingReason, period)
	const pause = subscription.pause_collection?.behavior
	if (pause === 'keep_as_draft') {
		return { invoice: created, paid: false }
	}
	finalizeInvoice(ctx, created)
	if (pause === 'void') {
		created.status = 'void'
		created.status_transitions.voided_at = ctx.now()
		created.amount_remaining = 0
		ctx.events.record('invoice.voided', created)
		return { invoice: created, paid: false }
	}
	if (pause === 'mark_uncollectible') {
		created.status = 'uncollectible'
		created.status_transitions.marked_uncollectible_at = ctx.now()
		ctx.events.record('invoice.marked_uncollectible', created)
		return { invoice: created, paid: false }
	}
	const paid = attemptPayment(ctx, created, subscription)
	if (paid && ['past_due', 'incomplete', 'unpaid'].includes(subscription.status)) {
		subscription.status = 'active'
	}
	if (!paid && ['active', 'trialing', 'paused'].includes(subscription.status)) {
		subscription.status = 'past_due'
	}
	return { invoice: created, paid }
}

/** Retries the open invoices of the customer's past-due subscriptions (a new card was just saved). */
export function payOpenInvoices(ctx: Ctx, customerId: string): void {
	for (const subscription of ctx.store.subscriptionsOf(customerId)) {
		if (subscription.status !== 'past_due' && subscription.status !== 'unpaid') {
			continue
		}
		const before = structuredClone(subscription)
		const open = ctx.store.invoicesOf(subscription.id).filter((candidate) => candidate.status === 'open')
		const allPaid = open.every((candidate) => attemptPayment(ctx, candidate, subscription))
		if (allPaid) {
			subscription.status = 'active'
		}
		ctx.events.recordChange('customer.subscription.updated', subscription, before)
	}
}
