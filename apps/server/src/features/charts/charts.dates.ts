import type { DateBucket, RelativeRange, SeriesCompare } from '@blocksmith/contracts/charts.ts'

// Calendar arithmetic for charts on plain `YYYY-MM-DD` days in the chart's time zone: the
// database turns each row's date into its local day once, and everything here (windows,
// buckets, their labels) works on those days, so no instant is ever shifted twice.

export type WeekStart = 'monday' | 'sunday'

/** Days from `start` (included) to `end` (excluded). */
export type DayWindow = { start: string; end: string }

/** The calendar day of `at` in `timeZone`. */
export function dayIn(at: Date, timeZone: string): string {
	return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

function toDate(day: string): Date {
	return new Date(`${day}T00:00:00Z`)
}

function toDay(date: Date): string {
	return date.toISOString().slice(0, 10)
}

function addDays(day: string, days: number): string {
	const date = toDate(day)
	date.setUTCDate(date.getUTCDate() + days)
	return toDay(date)
}

/** Whole months later or earlier; the 31st becomes the month's last day where it has fewer. */
export function addMonths(day: string, months: number): string {
	const date = toDate(day)
	const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1))
	const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
	target.setUTCDate(Math.min(date.getUTCDate(), lastDay))
	return toDay(target)
}

function daysBetween(start: string, end: string): number {
	return Math.round((toDate(end).getTime() - toDate(start).getTime()) / 86_400_000)
}

/** The first day of the bucket `day` falls in. */
export function bucketStart(day: string, bucket: DateBucket, weekStart: WeekStart): string {
	const date = toDate(day)
	switch (bucket) {
		case 'day':
			return day
		case 'week': {
			const weekday = date.getUTCDay()
			return addDays(day, -(weekStart === 'monday' ? (weekday + 6) % 7 : weekday))
		}
		case 'month':
			return `${day.slice(0, 7)}-01`
		case 'quarter': {
			const month = Math.floor(date.getUTCMonth() / 3) * 3 + 1
			return `${day.slice(0, 4)}-${String(month).padStart(2, '0')}-01`
		}
		case 'year':
			return `${day.slice(0, 4)}-01-01`
	}
}

/** The start of the bucket `count` buckets after (or before) the one starting at `key`. */
export function addBuckets(key: string, bucket: DateBucket, count: number): string {
	switch (bucket) {
		case 'day':
			return addDays(key, count)
		case 'week':
			return addDays(key, 7 * count)
		case 'month':
			return addMonths(key, count)
		case 'quarter':
			return addMonths(key, 3 * count)
		case 'year':
			return addMonths(key, 12 * count)
	}
}

/** The bucket a year before: 52 weeks for weeks, so it starts on the same weekday. */
export function bucketYearBefore(key: string, bucket: DateBucket): string {
	return bucket === 'week' ? addDays(key, -364) : addMonths(key, -12)
}

/** Bucket starts from `first` to `last` (both bucket starts, both included), at most `cap + 1` of them. */
export function bucketsBetween(first: string, last: string, bucket: DateBucket, cap: number): string[] {
	const keys: string[] = []
	for (let key = first; key <= last && keys.length <= cap; key = addBuckets(key, bucket, 1)) {
		keys.push(key)
	}
	return keys
}

/** Bucket starts covering a window of days. */
export function bucketsOfWindow(window: DayWindow, bucket: DateBucket, weekStart: WeekStart, cap: number): string[] {
	return bucketsBetween(
		bucketStart(window.start, bucket, weekStart),
		bucketStart(addDays(window.end, -1), bucket, weekStart),
		bucket,
		cap,
	)
}

const monthDayYear = new Intl.DateTimeFormat('en-US', {
	timeZone: 'UTC',
	month: 'short',
	day: 'numeric',
	year: 'numeric',
})
const monthYear = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', year: 'numeric' })

export function bucketLabel(key: string, bucket: DateBucket): string {
	const date = toDate(key)
	switch (bucket) {
		case 'day':
			return monthDayYear.format(date)
		case 'week':
			return `Week of ${monthDayYear.format(date)}`
		case 'month':
			return monthYear.format(date)
		case 'quarter':
			return `Q${Math.floor(date.getUTCMonth() / 3) + 1} ${key.slice(0, 4)}`
		case 'year':
			return key.slice(0, 4)
	}
}

const rollingDays: Partial<Record<RelativeRange, number>> = {
	today: 1,
	last_7_days: 7,
	last_30_days: 30,
	last_90_days: 90,
	last_365_days: 365,
}

const calendarUnits: Partial<Record<RelativeRange, { bucket: DateBucket; offset: number }>> = {
	this_week: { bucket: 'week', offset: 0 },
	this_month: { bucket: 'month', offset: 0 },
	this_quarter: { bucket: 'quarter', offset: 0 },
	this_year: { bucket: 'year', offset: 0 },
	last_week: { bucket: 'week', offset: -1 },
	last_month: { bucket: 'month', offset: -1 },
	last_quarter: { bucket: 'quarter', offset: -1 },
	last_year: { bucket: 'year', offset: -1 },
}

/**
 * The days a relative range covers, today included in the rolling ones ("last 7 days" is today
 * and the six before, as Notion's "past week" is); null for all time.
 */
export function relativeWindow(range: RelativeRange, today: string, weekStart: WeekStart): DayWindow | null {
	const days = rollingDays[range]
	if (days) {
		return { start: addDays(today, 1 - days), end: addDays(today, 1) }
	}
	const unit = calendarUnits[range]
	if (unit) {
		const start = addBuckets(bucketStart(today, unit.bucket, weekStart), unit.bucket, unit.offset)
		return { start, end: addBuckets(start, unit.bucket, 1) }
	}
	return null
}

/**
 * The window a comparison reads. previous_period: the calendar unit before a calendar range (this
 * month → last month, whole), the same number of days before a rolling one. previous_year: the
 * same days a year earlier.
 */
export function previousWindow(
	range: RelativeRange,
	window: DayWindow,
	compare: Exclude<SeriesCompare, 'none'>,
): DayWindow {
	if (compare === 'previous_year') {
		return { start: addMonths(window.start, -12), end: addMonths(window.end, -12) }
	}
	const unit = calendarUnits[range]
	if (unit) {
		return { start: addBuckets(window.start, unit.bucket, -1), end: window.start }
	}
	return { start: addDays(window.start, -daysBetween(window.start, window.end)), end: window.start }
}

const rangeLabels: Record<RelativeRange, string> = {
	all_time: 'All time',
	today: 'Today',
	last_7_days: 'Last 7 days',
	last_30_days: 'Last 30 days',
	last_90_days: 'Last 90 days',
	last_365_days: 'Last 365 days',
	this_week: 'This week',
	this_month: 'This month',
	this_quarter: 'This quarter',
	this_year: 'This year',
	last_week: 'Last week',
	last_month: 'Last month',
	last_quarter: 'Last quarter',
	last_year: 'Last year',
}

export function rangeLabel(range: RelativeRange): string {
	return rangeLabels[range]
}

/** What a comparison window is called next to its range's own label. */
export function previousLabel(range: RelativeRange, compare: Exclude<SeriesCompare, 'none'>): string {
	if (compare === 'previous_year') {
		return 'Same period last year'
	}
	const days = rollingDays[range]
	if (range === 'today') {
		return 'Yesterday'
	}
	if (days) {
		return `Previous ${days} days`
	}
	const unit = calendarUnits[range]
	if (unit) {
		return unit.offset === 0 ? `Last ${unit.bucket}` : `The ${unit.bucket} before`
	}
	return 'Previous period'
}
