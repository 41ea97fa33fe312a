import type { RelativeRange } from '@blocksmith/contracts/time-reports.ts'
import { describe, expect, test } from 'vitest'
import { majorToMinor, minorDigits } from './time.rates.ts'
import { bucketsOf, resolveRange } from './time.reports-range.ts'

// A view's relative ranges resolved in its zone at a given now, the buckets of its series, and
// rates read in major units turned into minor units exactly.

describe('relative ranges', () => {
	// Sunday 2026-03-01 23:30 in New York is already Monday 2026-03-02 in UTC.
	const now = new Date('2026-03-02T04:30:00Z')
	const cases: [RelativeRange, string, number, [string | null, string | null]][] = [
		['today', 'America/New_York', 1, ['2026-03-01', '2026-03-01']],
		['today', 'UTC', 1, ['2026-03-02', '2026-03-02']],
		['yesterday', 'America/New_York', 1, ['2026-02-28', '2026-02-28']],
		['this_week', 'America/New_York', 1, ['2026-02-23', '2026-03-01']],
		['this_week', 'America/New_York', 0, ['2026-03-01', '2026-03-07']],
		['this_week', 'UTC', 1, ['2026-03-02', '2026-03-08']],
		['last_week', 'UTC', 6, ['2026-02-21', '2026-02-27']],
		['this_month', 'America/New_York', 1, ['2026-03-01', '2026-03-31']],
		['last_month', 'America/New_York', 1, ['2026-02-01', '2026-02-28']],
		['this_quarter', 'UTC', 1, ['2026-01-01', '2026-03-31']],
		['last_quarter', 'UTC', 1, ['2025-10-01', '2025-12-31']],
		['this_year', 'UTC', 1, ['2026-01-01', '2026-12-31']],
		['last_year', 'UTC', 1, ['2025-01-01', '2025-12-31']],
		['last_7_days', 'UTC', 1, ['2026-02-24', '2026-03-02']],
		['last_30_days', 'UTC', 1, ['2026-02-01', '2026-03-02']],
		['last_90_days', 'UTC', 1, ['2025-12-03', '2026-03-02']],
		['all_time', 'UTC', 1, [null, null]],
	]
	test.each(cases)('%s in %s (week starting %i)', (preset, zone, weekStart, [from, to]) => {
		expect(resolveRange({ kind: 'relative', preset }, zone, weekStart, now)).toEqual({ from, to })
	})
	test('a fixed range is its dates', () => {
		expect(resolveRange({ kind: 'fixed', from: '2026-01-01', to: '2026-01-31' }, 'UTC', 1, now)).toEqual({
			from: '2026-01-01',
			to: '2026-01-31',
		})
	})
})

describe('buckets', () => {
	test('every day, ISO week, week from another weekday and month of a range, partial ones included', () => {
		expect(bucketsOf('2026-12-30', '2027-01-02', 'day', 1).map((bucket) => bucket.key)).toEqual([
			'2026-12-30',
			'2026-12-31',
			'2027-01-01',
			'2027-01-02',
		])
		expect(bucketsOf('2026-12-26', '2027-01-12', 'week', 1)).toEqual([
			{ key: '2026-W52', label: 'Week of Dec 21, 2026' },
			{ key: '2026-W53', label: 'Week of Dec 28, 2026' },
			{ key: '2027-W01', label: 'Week of Jan 4, 2027' },
			{ key: '2027-W02', label: 'Week of Jan 11, 2027' },
		])
		expect(bucketsOf('2026-03-01', '2026-03-15', 'week', 0).map((bucket) => bucket.key)).toEqual([
			'2026-03-01',
			'2026-03-08',
			'2026-03-15',
		])
		expect(bucketsOf('2026-01-31', '2026-04-01', 'month', 1)).toEqual([
			{ key: '2026-01', label: 'January 2026' },
			{ key: '2026-02', label: 'February 2026' },
			{ key: '2026-03', label: 'March 2026' },
			{ key: '2026-04', label: 'April 2026' },
		])
	})
})

describe('rates in major units', () => {
	test("a number as JSON writes it, in the currency's minor units, half-up, never through floats", () => {
		expect(minorDigits('EUR')).toBe(2)
		expect(minorDigits('JPY')).toBe(0)
		expect(minorDigits('BHD')).toBe(3)
		expect(majorToMinor('120.5', 2)).toBe(12050)
		expect(majorToMinor(String(0.1 + 0.2), 2)).toBe(30)
		expect(majorToMinor('1.005', 2)).toBe(101)
		expect(majorToMinor('1.0049999', 2)).toBe(100)
		expect(majorToMinor('5000', 0)).toBe(5000)
		expect(majorToMinor('49.5', 0)).toBe(50)
		expect(majorToMinor('1e3', 2)).toBe(100000)
		expect(majorToMinor('1.5e-2', 2)).toBe(2)
		expect(majorToMinor('1e-300', 2)).toBe(0)
		expect(majorToMinor('-1', 2)).toBeNull()
		expect(majorToMinor('1e300', 2)).toBeNull()
		expect(majorToMinor('abc', 2)).toBeNull()
	})
})
