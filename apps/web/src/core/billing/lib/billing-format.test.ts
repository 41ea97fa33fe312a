import { describe, expect, test } from 'vitest'
import { plans } from '../testing.tsx'
import {
	changeDirection,
	formatBytes,
	formatLimit,
	formatMoney,
	limitReachedMessage,
	meterTone,
	monthlyPrice,
	yearlySaving,
} from './billing-format.ts'
import { daysLeft } from './billing-state.ts'

const day = 86_400_000
const now = Date.parse('2026-11-24T12:00:00.000Z')
const pro = plans[1] as (typeof plans)[number]

describe('billing figures', () => {
	test('days left round up and never go below zero', () => {
		expect(daysLeft(new Date(now + 2.1 * day).toISOString(), now)).toBe(3)
		expect(daysLeft(new Date(now + 3 * day).toISOString(), now)).toBe(3)
		expect(daysLeft(new Date(now + 60_000).toISOString(), now)).toBe(1)
		expect(daysLeft(new Date(now - 5 * day).toISOString(), now)).toBe(0)
	})

	test('money comes from minor units in its currency', () => {
		expect(formatMoney(2900, 'USD')).toBe('$29.00')
		expect(formatMoney(2900, 'USD', { isShort: true })).toBe('$29')
		expect(formatMoney(2417, 'USD', { isShort: true })).toBe('$24.17')
		expect(formatMoney(1500, 'EUR')).toBe('€15.00')
		// No minor unit: 1500 yen are 1500 yen.
		expect(formatMoney(1500, 'JPY')).toBe('¥1,500')
	})

	test('a yearly price per month and its saving stay in whole minor units', () => {
		expect(monthlyPrice(pro, 'month')).toBe(2900)
		expect(monthlyPrice(pro, 'year')).toBe(2417)
		expect(yearlySaving(pro)).toEqual({ amount: 5800, percent: 17 })
	})

	test('storage reads in binary units, a missing limit as Unlimited', () => {
		expect(formatBytes(1024 ** 3)).toBe('1 GB')
		expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB')
		expect(formatBytes(512)).toBe('512 bytes')
		expect(formatLimit('fileStorageBytes', 10 * 1024 ** 3)).toBe('10 GB')
		expect(formatLimit('forms', null)).toBe('Unlimited')
		expect(formatLimit('submissionsPerMonth', 10_000)).toBe('10,000')
	})

	test('meters turn amber at 80 % and red at the limit', () => {
		expect(meterTone(79, 100)).toBe('normal')
		expect(meterTone(80, 100)).toBe('warning')
		expect(meterTone(99, 100)).toBe('warning')
		expect(meterTone(100, 100)).toBe('full')
		expect(meterTone(1_000_000, null)).toBe('normal')
	})

	test('a limit reached names the limit, the use and the plan', () => {
		expect(limitReachedMessage({ key: 'forms', used: 5, allowed: 5, planId: 'starter', planName: 'Starter' })).toBe(
			'Forms: 5 of 5 on the Starter plan',
		)
		expect(
			limitReachedMessage({
				key: 'fileStorageBytes',
				used: 1024 ** 3,
				allowed: 1024 ** 3,
				planId: 'starter',
				planName: 'Starter',
			}),
		).toBe('File storage: 1 GB of 1 GB on the Starter plan')
	})

	test('a larger plan is an upgrade, a smaller one a downgrade, yearly on the same plan an upgrade', () => {
		const monthlyPro = { planId: 'pro', interval: 'month' } as const
		expect(changeDirection(plans, monthlyPro, { planId: 'business', interval: 'month' })).toBe('upgrade')
		expect(changeDirection(plans, monthlyPro, { planId: 'starter', interval: 'year' })).toBe('downgrade')
		expect(changeDirection(plans, monthlyPro, { planId: 'pro', interval: 'year' })).toBe('upgrade')
		expect(changeDirection(plans, { planId: 'pro', interval: 'year' }, monthlyPro)).toBe('downgrade')
		expect(changeDirection(plans, monthlyPro, monthlyPro)).toBe('same')
	})
})
