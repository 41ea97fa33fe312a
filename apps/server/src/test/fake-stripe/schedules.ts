import type Stripe from 'stripe'
import { addInterval, intervalOf } from './billing.ts'
import { invalidRequest, missingParam, unsupported } from './errors.ts'
import { schedule, schedulePhase } from './objects-sessions.ts'
import { mergeMetadata, type Params } from './params.ts'
import { type Ctx, idOf } from './store.ts'
import { cancelNow, changePrice, firstItem, type ProrationBehavior } from './subscriptions.ts'

/**
 * Subscription schedules made `from_subscription`: phases whose items the subscription takes on when the clock
 * reaches each phase's start, then `end_behavior` (`release`: the schedule lets go, `cancel`: the subscription
 * ends) when the last phase is over.
 */

const PRORATIONS = ['always_invoice', 'create_prorations', 'none'] as const

function notEditable(target: Stripe.SubscriptionSchedule, verb: string): Error | null {
	if (target.status === 'active' || target.status === 'not_started') {
		return null
	}
	return invalidRequest(
		`You cannot ${verb} a subscription schedule that is currently in the \`${target.status}\` status. It must be in \`not_started\` or \`active\`.`,
	)
}

export function createSchedule(ctx: Ctx, params: Params): Stripe.SubscriptionSchedule {
	params.allow('from_subscription', 'expand', 'metadata', 'customer', 'phases', 'start_date', 'end_behavior')
	for (const key of ['customer', 'phases', 'start_date', 'end_behavior']) {
		if (params.has(key)) {
			throw params.has('from_subscription')
				? invalidRequest(`You cannot set \`${key}\` if \`from_subscription\` is set.`, key)
				: unsupported(key, 'only schedules made from_subscription')
		}
	}
	const subscriptionId = params.string('from_subscription')
	if (!subscriptionId) {
		throw missingParam('from_subscription')
	}
	const target = ctx.store.subscription(subscriptionId, 'from_subscription')
	const attached = idOf(target.schedule)
	if (attached) {
		throw invalidRequest(
			`You cannot migrate a subscription that is already attached to a schedule: \`${attached}\`.`,
			'from_subscription',
		)
	}
	if (target.status === 'canceled' || target.status === 'incomplete_expired') {
		throw invalidRequest('You cannot migrate a canceled subscription.', 'from_subscription')
	}
	const item = firstItem(target)
	const phase = schedulePhase({
		items: target.items.data.map((each) => ({ price: each.price.id, quantity: each.quantity ?? 1 })),
		start: item.current_period_start,
		end: item.current_period_end,
		currency: target.currency,
		prorationBehavior: 'create_prorations',
		metadata: {},
	})
	const created = schedule({
		customer: idOf(target.customer) ?? '',
		subscription: target.id,
		phases: [phase],
		created: ctx.now(),
	})
	const metadata = params.metadata()
	if (metadata) {
		created.metadata = metadata
	}
	ctx.store.schedules.set(created.id, created)
	const before = structuredClone(target)
	target.schedule = created.id
	ctx.events.record('subscription_schedule.created', created)
	ctx.events.recordChange('customer.subscription.updated', target, before)
	return created
}

type PhaseInput = {
	items: Array<{ price: Stripe.Price; quantity: number }>
	start: number | null
	end: number | null
	proration: ProrationBehavior
	metadata: Record<string, string>
	param: string
}

function parsePhases(ctx: Ctx, params: Params, now: number): PhaseInput[] {
	return (params.array('phases') ?? []).map((phase) => {
		phase.allow(
			'items',
			'start_date',
			'end_date',
			'proration_behavior',
			'metadata',
			'trial_end',
			'duration',
			'iterations',
			'billing_cycle_anchor',
			'default_payment_method',
			'description',
			'currency',
		)
		for (const key of ['trial_end', 'duration', 'iterations', 'billing_cycle_anchor', 'default_payment_method']) {
			if (phase.has(key)) {
				throw unsupported(phase.name(key), 'give the phase an end_date instead')
			}
		}
		const items = (phase.array('items') ?? []).map((entry) => {
			entry.allow('price', 'quantity', 'plan', 'metadata')
			const priceId = entry.string('price') ?? entry.string('plan')
			if (!priceId) {
				throw missingParam(entry.name('price'))
			}
			return { price: ctx.store.price(priceId, entry.name('price')), quantity: entry.int('quantity') ?? 1 }
		})
		if (items.length === 0) {
			throw missingParam(phase.name('items'))
		}
		const start = phase.timestamp('start_date', true)
		const end = phase.timestamp('end_date', true)
		const metadata = phase.metadata()
		return {
			items,
			start: start === 'now' ? now : (start ?? null),
			end: end === 'now' ? now : (end ?? null),
			proration: phase.oneOf('proration_behavior', PRORATIONS) ?? 'create_prorations',
			metadata: metadata || {},
			param: phase.prefix,
		}
	})
}

export function updateSchedule(ctx: Ctx, target: Stripe.SubscriptionSchedule, params: Params): void {
	params.allow('end_behavior', 'phases', 'metadata', 'expand', 'proration_behavior', 'default_settings')
	if (params.has('default_settings')) {
		throw unsupported('default_settings')
	}
	const refusal = notEditable(target, 'update')
	if (refusal) {
		throw refusal
	}
	const now = ctx.now()
	const endBehavior = params.oneOf('end_behavior', ['cancel', 'none', 'release', 'renew'] as const)
	if (endBehavior === 'none' || endBehavior === 'renew') {
		throw unsupported('end_behavior', endBehavior)
	}
	const inputs = parsePhases(ctx, params, now)
	const currentStart = target.current_phase?.start_date ?? target.phases[0]?.start_date ?? now
	const phases: Stripe.SubscriptionSchedule.Phase[] = []
	inputs.forEach((input, index) => {
		const previous = phases[index - 1]
		const start = input.start ?? previous?.end_date ?? currentStart
		if (index === 0 && target.status === 'active' && input.start !== null && input.start !== currentStart) {
			throw invalidRequest('You can not modify the start date of the current phase.', `${input.param}[start_date]`)
		}
		if (previous && start !== previous.end_date) {
			throw invalidRequest(
				`The start_date of a phase must be the end_date of the phase before it (${previous.end_date}).`,
				`${input.param}[start_date]`,
			)
		}
		const first = input.items[0] as { price: Stripe.Price }
		const end = input.end ?? inputs[index + 1]?.start ?? addInterval(start, intervalOf(first.price), 1)
		if (end <= start) {
			throw invalidRequest('The end_date of a phase must be after its start_date.', `${input.param}[end_date]`)
		}
		for (const item of input.items) {
			if (item.price.currency !== first.price.currency) {
				throw invalidRequest('All prices of a phase must have the same currency.', `${input.param}[items]`)
			}
		}
		phases.push(
			schedulePhase({
				items: input.items.map((item) => ({ price: item.price.id, quantity: item.quantity })),
				start,
				end,
				currency: first.price.currency,
				prorationBehavior: input.proration,
				metadata: input.metadata,
			}),
		)
	})
	const before = structuredClone(target)
	if (phases.length > 0) {
		target.phases = phases
	}
	if (endBehavior) {
		target.end_behavior = endBehavior
	}
	const metadata = params.metadata()
	if (metadata !== undefined) {
		target.metadata = mergeMetadata(target.metadata ?? {}, metadata)
	}
	const current = target.phases.find((phase) => phase.start_date <= now && now < phase.end_date)
	target.current_phase = current ? { start_date: current.start_date, end_date: current.end_date } : null
	if (current) {
		applyPhase(ctx, target, current, now)
	}
	ctx.events.recordChange('subscription_schedule.updated', target, before)
}

/** Gives the subscription the phase's items (prorated as the phase says). */
function applyPhase(
	ctx: Ctx,
	target: Stripe.SubscriptionSchedule,
	phase: Stripe.SubscriptionSchedule.Phase,
	at: number,
) {
	const subscription = ctx.store.subscriptions.get(idOf(target.subscription) ?? '')
	if (!subscription || subscription.status === 'canceled') {
		return
	}
	const before = structuredClone(subscription)
	phase.items.forEach((entry, index) => {
		const item = subscription.items.data[index]
		const price = ctx.store.prices.get(idOf(entry.price) ?? '')
		if (item && price) {
			changePrice(
				ctx,
				subscription,
				item,
				{ price, quantity: entry.quantity ?? 1 },
				phase.proration_behavior as ProrationBehavior,
				at,
			)
		}
	})
	ctx.events.recordChange('customer.subscription.updated', subscription, before)
}

/** The clock reached the end of the current phase: the next phase starts, or the schedule ends. */
export function advanceSchedule(ctx: Ctx, target: Stripe.SubscriptionSchedule, at: number): void {
	const before = structuredClone(target)
	const next = target.phases.find((phase) => phase.start_date <= at && at < phase.end_date)
	if (next) {
		target.current_phase = { start_date: next.start_date, end_date: next.end_date }
		applyPhase(ctx, target, next, at)
		ctx.events.recordChange('subscription_schedule.updated', target, before)
		return
	}
	const subscription = ctx.store.subscriptions.get(idOf(target.subscription) ?? '')
	target.current_phase = null
	if (target.end_behavior === 'cancel') {
		target.status = 'completed'
		target.completed_at = at
		ctx.events.record('subscription_schedule.completed', target, before)
		if (subscription && subscription.status !== 'canceled') {
			cancelNow(ctx, subscription, at, structuredClone(subscription), null)
		}
		return
	}
	release(ctx, target, at, before)
}

function release(ctx: Ctx, target: Stripe.SubscriptionSchedule, at: number, before: Stripe.SubscriptionSchedule) {
	const subscription = ctx.store.subscriptions.get(idOf(target.subscription) ?? '')
	target.status = 'released'
	target.released_at = at
	target.released_subscription = idOf(target.subscription)
	target.subscription = null
	target.current_phase = null
	ctx.events.record('subscription_schedule.released', target, before)
	if (subscription) {
		const subscriptionBefore = structuredClone(subscription)
		subscription.schedule = null
		ctx.events.recordChange('customer.subscription.updated', subscription, subscriptionBefore)
	}
}

/** `POST /v1/subscription_schedules/:id/release`: the subscription keeps its current items, unscheduled. */
export function releaseSchedule(ctx: Ctx, target: Stripe.SubscriptionSchedule, params: Params): void {
	params.allow('expand', 'preserve_cancel_date')
	const refusal = notEditable(target, 'release')
	if (refusal) {
		throw refusal
	}
	release(ctx, target, ctx.now(), structuredClone(target))
}

/** `POST /v1/subscription_schedules/:id/cancel`: the schedule and its subscription end now. */
export function cancelSchedule(ctx: Ctx, target: Stripe.SubscriptionSchedule, params: Params): void {
	params.allow('expand', 'invoice_now', 'prorate')
	const refusal = notEditable(target, 'cancel')
	if (refusal) {
		throw refusal
	}
	const subscription = ctx.store.subscriptions.get(idOf(target.subscription) ?? '')
	if (subscription && subscription.status !== 'canceled') {
		cancelNow(ctx, subscription, ctx.now(), structuredClone(subscription), 'cancellation_requested')
		return
	}
	const before = structuredClone(target)
	target.status = 'canceled'
	target.canceled_at = ctx.now()
	target.current_phase = null
	ctx.events.record('subscription_schedule.canceled', target, before)
}
