// A view's range of local days, and the buckets of its series. Pure: relative ranges are
// resolved at the `now` the caller passes, in the view's zone (its local "today"), weeks starting
// on the view's weekday (Monday: ISO weeks). Keys follow time.days.ts, so the SQL's bucket keys
// (its forms are in that file's header) and these agree.

import type { RelativeRange, TimeRange } from '@blocksmith/contracts/time-reports.ts'
import { addDays, isoWeekKey, localDateOf, monthKey, type Weekday, weekStartKey } from './time.days.ts'

export type Interval = 'day' | 'week' | 'month'

/** Local dates, both included; null for all time. */
export type DateRange = { from: string | null; to: string | null }

function monthStart(year: number, month: number): string {
	// month may run past 1…12: normalized through the year.
	const normalized = new Date(Date.UTC(year, month - 1, 1))
	return normalized.toISOString().slice(0, 10)
}

function yearMonth(date: string): { year: number; month: number } {
	return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) }
}

/** [first, last] of the `count` months starting `offset` months after the one holding `first`. */
function months(first: string, offset: number, count: number): DateRange {
	const { year, month } = yearMonth(first)
	return { from: monthStart(year, month + offset), to: addDays(monthStart(year, month + offset + count), -1) }
}

export function resolveRange(range: TimeRange, timeZone: string, weekStart: number, now: Date): DateRange {
	if (range.kind === 'fixed') {
		return { from: range.from, to: range.to }
	}
	const today = localDateOf(now, timeZone)
	const week = weekStartKey(today, weekStart as Weekday)
	const { year, month } = yearMonth(today)
	const quarter = monthStart(year, Math.floor((month - 1) / 3) * 3 + 1)
	const presets: Record<RelativeRange, () => DateRange> = {
		today: () => ({ from: today, to: today }),
		yesterday: () => ({ from: addDays(today, -1), to: addDays(today, -1) }),
		this_week: () => ({ from: week, to: addDays(week, 6) }),
		last_week: () => ({ from: addDays(week, -7), to: addDays(week, -1) }),
		this_month: () => months(today, 0, 1),
		last_month: () => months(today, -1, 1),
		this_quarter: () => months(quarter, 0, 3),
		last_quarter: () => months(quarter, -3, 3),
		this_year: () => ({ from: `${today.slice(0, 4)}-01-01`, to: `${today.slice(0, 4)}-12-31` }),
		last_year: () => ({ from: `${year - 1}-01-01`, to: `${year - 1}-12-31` }),
		last_7_days: () => ({ from: addDays(today, -6), to: today }),
		last_30_days: () => ({ from: addDays(today, -29), to: today }),
		last_90_days: () => ({ from: addDays(today, -89), to: today }),
		all_time: () => ({ from: null, to: null }),
	}
	return presets[range.preset]()
}

/** The key of the bucket a local date falls in (time.days.ts: ISO week, week-start date, month). */
function bucketKey(date: string, interval: Interval, weekStart: number): string {
	if (interval === 'day') {
		return date
	}
	if (interval === 'month') {
		return monthKey(date)
	}
	return weekStart === 1 ? isoWeekKey(date) : weekStartKey(date, weekStart as Weekday)
}

const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' })
const monthFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' })

const utcDate = (date: string) => new Date(`${date}T00:00:00Z`)

/** Buckets of most this many in a series: a daily series over years is better read weekly or monthly. */
export const maxBuckets = 5000

/** Every bucket from `from` to `to` (local dates, both included), oldest first, with its label. */
export function bucketsOf(
	from: string,
	to: string,
	interval: Interval,
	weekStart: number,
): { key: string; label: string }[] {
	const buckets: { key: string; label: string }[] = []
	for (let date = from; date <= to; date = addDays(date, 1)) {
		const key = bucketKey(date, interval, weekStart)
		if (buckets.at(-1)?.key === key) {
			continue
		}
		if (buckets.length >= maxBuckets) {
			break
		}
		const first = interval === 'week' ? weekStartKey(date, weekStart as Weekday) : date
		const label =
			interval === 'day'
				? dayFormat.format(utcDate(date))
				: interval === 'month'
					? monthFormat.format(utcDate(date))
					: `Week of ${dayFormat.format(utcDate(first))}`
		buckets.push({ key, label })
		if (interval === 'month') {
			// Skip to the month's last day: the loop then enters the next month.
			const { year, month } = yearMonth(date)
			date = addDays(monthStart(year, month + 1), -1)
		} else if (interval === 'week') {
			date = addDays(first, 6)
		}
	}
	return buckets
}
