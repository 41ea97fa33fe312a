import { describe, expect, test } from 'vitest'
import {
	addMonths,
	bucketLabel,
	bucketStart,
	bucketsBetween,
	bucketsOfWindow,
	bucketYearBefore,
	dayIn,
	previousLabel,
	previousWindow,
	relativeWindow,
} from './charts.dates.ts'

describe('calendar arithmetic', () => {
	test('a month later keeps the day, or the month end when it has fewer days', () => {
		expect(addMonths('2025-01-31', 1)).toBe('2025-02-28')
		expect(addMonths('2024-01-31', 1)).toBe('2024-02-29')
		expect(addMonths('2024-02-29', -12)).toBe('2023-02-28')
		expect(addMonths('2025-11-15', 3)).toBe('2026-02-15')
	})

	test('today is the day in the given zone, not in UTC', () => {
		const at = new Date('2025-06-18T23:30:00Z')
		expect(dayIn(at, 'UTC')).toBe('2025-06-18')
		expect(dayIn(at, 'Asia/Tokyo')).toBe('2025-06-19')
		expect(dayIn(new Date('2025-06-18T03:00:00Z'), 'America/New_York')).toBe('2025-06-17')
	})
})

describe('buckets', () => {
	test('each day falls in the bucket that starts on or before it', () => {
		// 2025-06-15 is a Sunday.
		expect(bucketStart('2025-06-15', 'week', 'monday')).toBe('2025-06-09')
		expect(bucketStart('2025-06-15', 'week', 'sunday')).toBe('2025-06-15')
		expect(bucketStart('2025-06-16', 'week', 'sunday')).toBe('2025-06-15')
		expect(bucketStart('2025-08-20', 'quarter', 'monday')).toBe('2025-07-01')
		expect(bucketStart('2025-08-20', 'month', 'monday')).toBe('2025-08-01')
		expect(bucketStart('2025-08-20', 'year', 'monday')).toBe('2025-01-01')
	})

	test('bucket lists run from first to last, and stop one past the cap', () => {
		expect(bucketsBetween('2024-11-01', '2025-02-01', 'month', 100)).toEqual([
			'2024-11-01',
			'2024-12-01',
			'2025-01-01',
			'2025-02-01',
		])
		expect(bucketsBetween('2025-01-01', '2025-12-31', 'day', 10)).toHaveLength(11)
		expect(bucketsOfWindow({ start: '2025-06-12', end: '2025-06-19' }, 'week', 'monday', 100)).toEqual([
			'2025-06-09',
			'2025-06-16',
		])
	})

	test('a year before a week is 52 weeks, so it starts on the same weekday', () => {
		expect(bucketYearBefore('2025-06-16', 'week')).toBe('2024-06-17')
		expect(new Date('2024-06-17T00:00:00Z').getUTCDay()).toBe(new Date('2025-06-16T00:00:00Z').getUTCDay())
		expect(bucketYearBefore('2025-04-01', 'quarter')).toBe('2024-04-01')
	})

	test('labels name the bucket as people read it', () => {
		expect(bucketLabel('2025-03-05', 'day')).toBe('Mar 5, 2025')
		expect(bucketLabel('2025-03-03', 'week')).toBe('Week of Mar 3, 2025')
		expect(bucketLabel('2025-03-01', 'month')).toBe('Mar 2025')
		expect(bucketLabel('2025-10-01', 'quarter')).toBe('Q4 2025')
		expect(bucketLabel('2025-01-01', 'year')).toBe('2025')
	})
})

describe('relative ranges and their comparisons', () => {
	const today = '2025-06-18' // a Wednesday

	test('rolling ranges end with today; calendar ranges cover whole units', () => {
		expect(relativeWindow('all_time', today, 'monday')).toBeNull()
		expect(relativeWindow('today', today, 'monday')).toEqual({ start: '2025-06-18', end: '2025-06-19' })
		expect(relativeWindow('last_7_days', today, 'monday')).toEqual({ start: '2025-06-12', end: '2025-06-19' })
		expect(relativeWindow('this_week', today, 'monday')).toEqual({ start: '2025-06-16', end: '2025-06-23' })
		expect(relativeWindow('this_week', today, 'sunday')).toEqual({ start: '2025-06-15', end: '2025-06-22' })
		expect(relativeWindow('last_month', today, 'monday')).toEqual({ start: '2025-05-01', end: '2025-06-01' })
		expect(relativeWindow('this_quarter', today, 'monday')).toEqual({ start: '2025-04-01', end: '2025-07-01' })
		expect(relativeWindow('last_year', today, 'monday')).toEqual({ start: '2024-01-01', end: '2025-01-01' })
	})

	test('the previous period of a calendar range is the whole unit before; of a rolling one, as many days before', () => {
		const thisMonth = relativeWindow('this_month', today, 'monday')
		const last30 = relativeWindow('last_30_days', today, 'monday')
		if (!thisMonth || !last30) {
			throw new Error('expected windows')
		}
		expect(previousWindow('this_month', thisMonth, 'previous_period')).toEqual({
			start: '2025-05-01',
			end: '2025-06-01',
		})
		expect(previousWindow('last_30_days', last30, 'previous_period')).toEqual({
			start: '2025-04-20',
			end: '2025-05-20',
		})
		expect(previousWindow('this_month', thisMonth, 'previous_year')).toEqual({
			start: '2024-06-01',
			end: '2024-07-01',
		})
		expect(previousLabel('this_month', 'previous_period')).toBe('Last month')
		expect(previousLabel('last_month', 'previous_period')).toBe('The month before')
		expect(previousLabel('last_30_days', 'previous_period')).toBe('Previous 30 days')
		expect(previousLabel('today', 'previous_period')).toBe('Yesterday')
		expect(previousLabel('this_week', 'previous_year')).toBe('Same period last year')
	})
})
