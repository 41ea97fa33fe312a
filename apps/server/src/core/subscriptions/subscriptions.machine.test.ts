import { describe, expect, it } from 'vitest'
import { addInterval, advance, decide, type SubAction, type SubState } from './subscriptions.machine.ts'

const now = new Date('2026-06-15T12:00:00Z')
const later = (days: number) => new Date(now.getTime() + days * 86_400_000)

const base: SubState = {
	status: 'active',
	planId: 'pro',
	interval: 'month',
	trialEndsAt: null,
	currentPeriodStart: later(-10),
	currentPeriodEnd: later(20),
	cancelAtPeriodEnd: false,
	canceledAt: null,
	pausedAt: null,
	pauseReason: null,
	resumesAt: null,
	pendingPlanId: null,
	pendingInterval: null,
	hasPaymentMethod: true,
}

const states: Record<string, SubState> = {
	trialing: { ...base, status: 'trialing', trialEndsAt: later(5), currentPeriodStart: null, currentPeriodEnd: null },
	'trialing, cancel pending': {
		...base,
		status: 'trialing',
		trialEndsAt: later(5),
		currentPeriodStart: null,
		currentPeriodEnd: null,
		cancelAtPeriodEnd: true,
	},
	active: base,
	'active, cancel pending': { ...base, cancelAtPeriodEnd: true },
	past_due: { ...base, status: 'past_due' },
	'paused (asked)': { ...base, status: 'paused', pausedAt: later(-1), pauseReason: 'requested' },
	'paused (trial ended)': {
		...base,
		status: 'paused',
		pausedAt: later(-1),
		pauseReason: 'trial_ended',
		currentPeriodStart: null,
		currentPeriodEnd: null,
		hasPaymentMethod: false,
	},
	canceled: { ...base, status: 'canceled', canceledAt: later(-3) },
}

const actions: Record<string, SubAction> = {
	cancel: { type: 'cancel' },
	dont_cancel: { type: 'dont_cancel' },
	pause: { type: 'pause', resumesAt: later(30) },
	resume: { type: 'resume' },
	upgrade: { type: 'update_plan', planId: 'business', interval: 'month', direction: 'upgrade' },
	downgrade: { type: 'update_plan', planId: 'starter', interval: 'month', direction: 'downgrade' },
	'same plan': { type: 'update_plan', planId: 'pro', interval: 'month', direction: 'same' },
	end_trial_and_bill: { type: 'end_trial_and_bill' },
	update_payment_details: { type: 'update_payment_details' },
}

/**
 * Every action from every state: the state it leads to (status, and what changes with it), or
 * the refusal and a piece of its reason. A cell is `[status, check?]` or `'refused: …'`.
 */
type Outcome = string | [SubState['status'], ((next: SubState) => boolean)?]
const pending = (next: SubState) => next.cancelAtPeriodEnd
const notPending = (next: SubState) => !next.cancelAtPeriodEnd
const onBusinessNow = (next: SubState) => next.planId === 'business' && next.pendingPlanId === null
const onStarterNow = (next: SubState) => next.planId === 'starter' && next.pendingPlanId === null
const starterLater = (next: SubState) => next.planId === 'pro' && next.pendingPlanId === 'starter'
const freshPeriod = (next: SubState) =>
	next.currentPeriodStart?.getTime() === now.getTime() &&
	next.currentPeriodEnd?.getTime() === addInterval(now, next.interval).getTime()

const table: Record<string, Record<string, Outcome>> = {
	trialing: {
		cancel: ['trialing', pending],
		dont_cancel: 'refused: No cancellation is pending',
		pause: 'refused: A trial cannot be paused',
		resume: 'refused: not paused',
		upgrade: ['trialing', onBusinessNow],
		downgrade: ['trialing', onStarterNow],
		'same plan': 'refused: already on this plan',
		end_trial_and_bill: ['active', (next) => next.trialEndsAt?.getTime() === now.getTime() && freshPeriod(next)],
		update_payment_details: ['trialing', (next) => next.hasPaymentMethod],
	},
	'trialing, cancel pending': {
		cancel: 'refused: already set to end',
		dont_cancel: ['trialing', notPending],
		pause: 'refused: A trial cannot be paused',
		resume: 'refused: not paused',
		upgrade: 'refused: Undo the cancellation first',
		downgrade: 'refused: Undo the cancellation first',
		'same plan': 'refused: already on this plan',
		end_trial_and_bill: 'refused: Undo the cancellation first',
		update_payment_details: ['trialing', pending],
	},
	active: {
		cancel: ['active', pending],
		dont_cancel: 'refused: No cancellation is pending',
		pause: ['paused', (next) => next.pauseReason === 'requested' && next.resumesAt?.getTime() === later(30).getTime()],
		resume: 'refused: not paused',
		upgrade: ['active', onBusinessNow],
		downgrade: ['active', starterLater],
		'same plan': 'refused: already on this plan',
		end_trial_and_bill: 'refused: no trial to end',
		update_payment_details: ['active'],
	},
	'active, cancel pending': {
		cancel: 'refused: already set to end',
		dont_cancel: ['active', notPending],
		pause: 'refused: Undo the cancellation first',
		resume: 'refused: not paused',
		upgrade: 'refused: Undo the cancellation first',
		downgrade: 'refused: Undo the cancellation first',
		'same plan': 'refused: already on this plan',
		end_trial_and_bill: 'refused: no trial to end',
		update_payment_details: ['active', pending],
	},
	past_due: {
		cancel: ['past_due', pending],
		dont_cancel: 'refused: No cancellation is pending',
		pause: 'refused: Update the payment details first',
		resume: 'refused: not paused',
		upgrade: 'refused: Update the payment details first',
		downgrade: 'refused: Update the payment details first',
		'same plan': 'refused: already on this plan',
		end_trial_and_bill: 'refused: no trial to end',
		update_payment_details: ['active'],
	},
	'paused (asked)': {
		cancel: ['canceled', (next) => next.canceledAt?.getTime() === now.getTime() && next.pausedAt === null],
		dont_cancel: 'refused: No cancellation is pending',
		pause: 'refused: already paused',
		resume: ['active', (next) => next.pausedAt === null && next.pauseReason === null],
		upgrade: 'refused: Resume the subscription before changing plans',
		downgrade: 'refused: Resume the subscription before changing plans',
		'same plan': 'refused: already on this plan',
		end_trial_and_bill: 'refused: no trial to end',
		update_payment_details: ['paused'],
	},
	'paused (trial ended)': {
		cancel: ['canceled'],
		dont_cancel: 'refused: No cancellation is pending',
		pause: 'refused: already paused',
		resume: ['active', freshPeriod],
		upgrade: ['active', (next) => onBusinessNow(next) && freshPeriod(next)],
		downgrade: ['active', (next) => onStarterNow(next) && freshPeriod(next)],
		'same plan': ['active', freshPeriod],
		end_trial_and_bill: 'refused: no trial to end',
		update_payment_details: ['paused', (next) => next.hasPaymentMethod],
	},
	canceled: {
		cancel: 'refused: already canceled',
		dont_cancel: 'refused: has ended',
		pause: 'refused: has ended',
		resume: 'refused: not paused',
		upgrade: ['active', (next) => onBusinessNow(next) && freshPeriod(next) && next.canceledAt === null],
		downgrade: ['active', (next) => onStarterNow(next) && freshPeriod(next)],
		'same plan': ['active', freshPeriod],
		end_trial_and_bill: 'refused: no trial to end',
		update_payment_details: 'refused: has ended',
	},
}

describe('the subscription state machine, every action from every state', () => {
	it('covers every pair', () => {
		expect(Object.keys(table).sort()).toEqual(Object.keys(states).sort())
		for (const row of Object.values(table)) {
			expect(Object.keys(row).sort()).toEqual(Object.keys(actions).sort())
		}
	})

	for (const [stateName, state] of Object.entries(states)) {
		for (const [actionName, action] of Object.entries(actions)) {
			const expected = table[stateName]?.[actionName]
			it(`${stateName} × ${actionName} → ${typeof expected === 'string' ? expected : expected?.[0]}`, () => {
				const decision = decide(state, action, now)
				if (typeof expected === 'string') {
					expect(decision.ok).toBe(false)
					expect(decision.ok ? '' : decision.reason.toLowerCase()).toContain(
						expected.replace('refused: ', '').toLowerCase(),
					)
					return
				}
				if (!decision.ok) {
					throw new Error(`refused: ${decision.reason}`)
				}
				expect(decision.next.status).toBe(expected?.[0])
				expect(decision.message.length).toBeGreaterThan(0)
				const check = expected?.[1]
				if (check) {
					expect(check(decision.next)).toBe(true)
				}
			})
		}
	}
})

describe('what time does (local provider)', () => {
	it('ends a trial: active with a payment method, paused without, canceled when asked', () => {
		const ended = { ...states.trialing, trialEndsAt: later(-1) } as SubState
		expect(advance({ ...ended, hasPaymentMethod: true }, now)).toMatchObject({
			status: 'active',
			currentPeriodStart: later(-1),
			currentPeriodEnd: addInterval(later(-1), 'month'),
		})
		expect(advance({ ...ended, hasPaymentMethod: false }, now)).toMatchObject({
			status: 'paused',
			pauseReason: 'trial_ended',
			pausedAt: later(-1),
		})
		expect(advance({ ...ended, cancelAtPeriodEnd: true }, now)).toMatchObject({
			status: 'canceled',
			canceledAt: later(-1),
		})
	})

	it('renews a period, applying a pending downgrade, and ends a canceled one', () => {
		const over = { ...base, currentPeriodStart: later(-40), currentPeriodEnd: later(-10) }
		const renewed = advance({ ...over, pendingPlanId: 'starter', pendingInterval: 'year' }, now)
		expect(renewed).toMatchObject({ status: 'active', planId: 'starter', interval: 'year', pendingPlanId: null })
		expect(renewed.currentPeriodStart).toEqual(later(-10))
		expect(advance({ ...over, cancelAtPeriodEnd: true }, now)).toMatchObject({
			status: 'canceled',
			canceledAt: later(-10),
		})
	})

	it('renews as many periods as passed', () => {
		const renewed = advance(
			{
				...base,
				currentPeriodStart: new Date('2026-01-31T00:00:00Z'),
				currentPeriodEnd: new Date('2026-02-28T00:00:00Z'),
			},
			now,
		)
		expect(renewed.currentPeriodStart?.getTime()).toBeLessThanOrEqual(now.getTime())
		expect(renewed.currentPeriodEnd?.getTime()).toBeGreaterThan(now.getTime())
	})

	it('resumes a pause on its date, and leaves everything else alone', () => {
		const paused = { ...states['paused (asked)'], resumesAt: later(-1) } as SubState
		expect(advance(paused, now).status).toBe('active')
		expect(advance(base, now)).toBe(base)
		expect(advance(states['paused (trial ended)'] as SubState, now)).toBe(states['paused (trial ended)'])
	})

	it('adds months as Stripe does: the 31st becomes the month’s last day', () => {
		expect(addInterval(new Date('2026-01-31T10:00:00Z'), 'month').toISOString()).toBe('2026-02-28T10:00:00.000Z')
		expect(addInterval(new Date('2028-02-29T00:00:00Z'), 'year').toISOString()).toBe('2029-02-28T00:00:00.000Z')
		expect(addInterval(new Date('2026-12-15T00:00:00Z'), 'month').toISOString()).toBe('2027-01-15T00:00:00.000Z')
	})
})
