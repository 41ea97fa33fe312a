import type { BillingInterval, PauseReason, PlanId, SubscriptionState } from '@blocksmith/contracts/subscriptions.ts'

// The subscription's states and what each action does from each of them, for both providers.
// Pure: no database, no provider. The local provider applies the next state as it is; the
// Stripe provider asks first whether an action is allowed, makes Stripe do it, then rebuilds
// the state from Stripe's objects.

export type SubState = {
	status: SubscriptionState
	planId: PlanId
	interval: BillingInterval
	trialEndsAt: Date | null
	currentPeriodStart: Date | null
	currentPeriodEnd: Date | null
	cancelAtPeriodEnd: boolean
	canceledAt: Date | null
	pausedAt: Date | null
	pauseReason: PauseReason | null
	resumesAt: Date | null
	pendingPlanId: PlanId | null
	pendingInterval: BillingInterval | null
	hasPaymentMethod: boolean
}

type PlanChange = { planId: PlanId; interval: BillingInterval; direction: 'same' | 'upgrade' | 'downgrade' }

export type SubAction =
	| { type: 'cancel' }
	| { type: 'dont_cancel' }
	| { type: 'pause'; resumesAt: Date | null }
	| { type: 'resume' }
	| ({ type: 'update_plan' } & PlanChange)
	| { type: 'end_trial_and_bill' }
	| { type: 'update_payment_details' }

export type Decision = { ok: true; next: SubState; message: string } | { ok: false; reason: string }

const day = (date: Date | null) =>
	date ? date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }) : ''

/** The same moment one interval later; the 31st becomes the month's last day, as Stripe does. */
export function addInterval(from: Date, interval: BillingInterval): Date {
	const months = interval === 'year' ? 12 : 1
	const target = new Date(from)
	const dayOfMonth = target.getUTCDate()
	target.setUTCDate(1)
	target.setUTCMonth(target.getUTCMonth() + months)
	const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
	target.setUTCDate(Math.min(dayOfMonth, lastDay))
	return target
}

function newPeriod(state: SubState, start: Date): SubState {
	return { ...state, currentPeriodStart: start, currentPeriodEnd: addInterval(start, state.interval) }
}

function activeFrom(state: SubState, now: Date): SubState {
	const periodOver = !state.currentPeriodEnd || state.currentPeriodEnd <= now
	const active: SubState = {
		...state,
		status: 'active',
		pausedAt: null,
		pauseReason: null,
		resumesAt: null,
		canceledAt: null,
	}
	return periodOver ? newPeriod(active, now) : active
}

const refuse = (reason: string): Decision => ({ ok: false, reason })
const allow = (next: SubState, message: string): Decision => ({ ok: true, next, message })

/** Whether `action` may run from `state` at `now`, and the state it leads to. */
export function decide(state: SubState, action: SubAction, now: Date): Decision {
	const ended = 'The subscription has ended. Choose a plan to start again.'
	const overdue = 'A payment is overdue. Update the payment details first.'
	const pendingCancel = `The subscription is set to end on ${day(endOf(state))}. Undo the cancellation first.`
	switch (action.type) {
		case 'cancel': {
			if (state.status === 'canceled') {
				return refuse('The subscription is already canceled.')
			}
			if (state.cancelAtPeriodEnd) {
				return refuse(`The subscription is already set to end on ${day(endOf(state))}.`)
			}
			if (state.status === 'paused') {
				// Nothing is billed while paused, so there is no period to run out: it ends now.
				return allow(
					{ ...state, status: 'canceled', canceledAt: now, pausedAt: null, pauseReason: null, resumesAt: null },
					'The subscription is canceled.',
				)
			}
			const next = { ...state, cancelAtPeriodEnd: true, pendingPlanId: null, pendingInterval: null }
			return allow(
				next,
				state.status === 'trialing'
					? `Your trial ends on ${day(state.trialEndsAt)} and will not continue.`
					: `Your subscription ends on ${day(state.currentPeriodEnd)}.`,
			)
		}
		case 'dont_cancel': {
			if (state.status === 'canceled') {
				return refuse(ended)
			}
			if (!state.cancelAtPeriodEnd) {
				return refuse('No cancellation is pending.')
			}
			return allow({ ...state, cancelAtPeriodEnd: false }, 'Your subscription continues.')
		}
		case 'pause': {
			switch (state.status) {
				case 'trialing':
					return refuse(`A trial cannot be paused. It ends on ${day(state.trialEndsAt)}: choose a plan, or cancel it.`)
				case 'past_due':
					return refuse(overdue)
				case 'paused':
					return refuse('The subscription is already paused.')
				case 'canceled':
					return refuse(ended)
			}
			if (state.cancelAtPeriodEnd) {
				return refuse(pendingCancel)
			}
			return allow(
				{ ...state, status: 'paused', pausedAt: now, pauseReason: 'requested', resumesAt: action.resumesAt },
				action.resumesAt ? `Paused until ${day(action.resumesAt)}.` : 'Paused until you resume it.',
			)
		}
		case 'resume': {
			if (state.status !== 'paused') {
				return refuse('The subscription is not paused.')
			}
			return allow(activeFrom(state, now), 'Your subscription is active again.')
		}
		case 'update_plan':
			return decidePlanChange(state, action, now, { ended, overdue, pendingCancel })
		case 'end_trial_and_bill': {
			if (state.status !== 'trialing') {
				return refuse('There is no trial to end.')
			}
			if (state.cancelAtPeriodEnd) {
				return refuse(pendingCancel)
			}
			return allow(
				newPeriod({ ...state, status: 'active', trialEndsAt: now }, now),
				'Your trial has ended and your subscription has started.',
			)
		}
		case 'update_payment_details': {
			if (state.status === 'canceled') {
				return refuse(ended)
			}
			const next = { ...state, hasPaymentMethod: true }
			// The overdue invoice is paid with the new details.
			return allow(state.status === 'past_due' ? activeFrom(next, now) : next, 'Your payment details are saved.')
		}
	}
}

function decidePlanChange(
	state: SubState,
	change: PlanChange,
	now: Date,
	reasons: { ended: string; overdue: string; pendingCancel: string },
): Decision {
	const target = { planId: change.planId, interval: change.interval }
	if (change.direction === 'same' && state.status !== 'canceled' && state.pauseReason !== 'trial_ended') {
		return refuse(`You are already on this plan, billed ${change.interval === 'year' ? 'yearly' : 'monthly'}.`)
	}
	switch (state.status) {
		case 'trialing':
			if (state.cancelAtPeriodEnd) {
				return refuse(reasons.pendingCancel)
			}
			// No charge during a trial: the trial goes on with the new plan's limits.
			return allow(
				{ ...state, ...target, pendingPlanId: null, pendingInterval: null },
				'Your trial continues on the new plan.',
			)
		case 'past_due':
			return refuse(reasons.overdue)
		case 'paused':
			if (state.pauseReason !== 'trial_ended') {
				return refuse('Resume the subscription before changing plans.')
			}
			// A trial that ended without a plan: choosing one starts the subscription.
			return allow(
				newPeriod({ ...activeFrom({ ...state, ...target }, now), pendingPlanId: null, pendingInterval: null }, now),
				'Your subscription has started.',
			)
		case 'canceled':
			return allow(
				newPeriod(
					{
						...activeFrom({ ...state, ...target }, now),
						cancelAtPeriodEnd: false,
						pendingPlanId: null,
						pendingInterval: null,
					},
					now,
				),
				'Your subscription has started again.',
			)
		case 'active':
			break
	}
	if (state.cancelAtPeriodEnd) {
		return refuse(reasons.pendingCancel)
	}
	if (change.direction === 'upgrade') {
		return allow({ ...state, ...target, pendingPlanId: null, pendingInterval: null }, 'Your new plan starts now.')
	}
	return allow(
		{ ...state, pendingPlanId: change.planId, pendingInterval: change.interval },
		`Your plan changes on ${day(state.currentPeriodEnd)}, at the end of this period.`,
	)
}

/** When the subscription as it stands runs out: the trial's end, else the period's. */
function endOf(state: SubState): Date | null {
	return state.status === 'trialing' ? state.trialEndsAt : state.currentPeriodEnd
}

/**
 * What time alone does (the local provider; Stripe does it itself and tells us): a trial ends
 * (active with a payment method, paused without, canceled if asked), a period ends (renewed,
 * with a pending downgrade applied, or canceled), a pause reaches its resume date.
 */
export function advance(state: SubState, now: Date): SubState {
	let next = state
	if (next.status === 'trialing' && next.trialEndsAt && next.trialEndsAt <= now) {
		const end = next.trialEndsAt
		if (next.cancelAtPeriodEnd) {
			next = { ...next, status: 'canceled', canceledAt: end, cancelAtPeriodEnd: false }
		} else if (next.hasPaymentMethod) {
			next = newPeriod({ ...next, status: 'active' }, end)
		} else {
			next = { ...next, status: 'paused', pausedAt: end, pauseReason: 'trial_ended', resumesAt: null }
		}
	}
	if (next.status === 'paused' && next.resumesAt && next.resumesAt <= now) {
		next = activeFrom(next, now)
	}
	while (next.status === 'active' && next.currentPeriodEnd && next.currentPeriodEnd <= now) {
		const end = next.currentPeriodEnd
		if (next.cancelAtPeriodEnd) {
			next = { ...next, status: 'canceled', canceledAt: end, cancelAtPeriodEnd: false }
			break
		}
		const planId = next.pendingPlanId ?? next.planId
		const interval = next.pendingInterval ?? next.interval
		next = newPeriod({ ...next, planId, interval, pendingPlanId: null, pendingInterval: null }, end)
	}
	return next
}
