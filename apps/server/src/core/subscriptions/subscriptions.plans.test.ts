import { describe, expect, it } from 'vitest'
import { changeDirection, limitsExceeded, plans } from './subscriptions.plans.ts'

describe('the plan catalogue', () => {
	it('prices in whole cents, a year at ten months, every limit set', () => {
		for (const plan of plans) {
			expect(Number.isInteger(plan.prices.month)).toBe(true)
			expect(plan.prices.year).toBe(plan.prices.month * 10)
			expect(Object.keys(plan.limits)).toHaveLength(11)
		}
	})

	it('ranks changes: a bigger plan or the yearly price now, a smaller plan or the monthly price later', () => {
		expect(changeDirection({ planId: 'pro', interval: 'month' }, { planId: 'business', interval: 'month' })).toBe(
			'upgrade',
		)
		expect(changeDirection({ planId: 'pro', interval: 'year' }, { planId: 'starter', interval: 'year' })).toBe(
			'downgrade',
		)
		expect(changeDirection({ planId: 'pro', interval: 'month' }, { planId: 'pro', interval: 'year' })).toBe('upgrade')
		expect(changeDirection({ planId: 'pro', interval: 'year' }, { planId: 'pro', interval: 'month' })).toBe('downgrade')
		expect(changeDirection({ planId: 'pro', interval: 'year' }, { planId: 'pro', interval: 'year' })).toBe('same')
		// A bigger plan paid monthly after a smaller one paid yearly is still an upgrade.
		expect(changeDirection({ planId: 'starter', interval: 'year' }, { planId: 'business', interval: 'month' })).toBe(
			'upgrade',
		)
	})

	it('finds what does not fit a smaller plan, ignoring monthly meters', () => {
		expect(
			limitsExceeded('starter', [
				{ key: 'members', used: 3 },
				{ key: 'forms', used: 5 },
				{ key: 'submissionsPerMonth', used: 5000 },
			]),
		).toEqual([{ key: 'members', used: 3, allowed: 2 }])
		expect(limitsExceeded('business', [{ key: 'forms', used: 10_000 }])).toEqual([])
	})
})
