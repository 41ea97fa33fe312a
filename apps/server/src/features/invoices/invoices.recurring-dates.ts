// The days of a recurring invoice's schedule, as calendar days (`YYYY-MM-DD`, no time zone can
// move one). Each day is counted from the anchor, never from the day before it, so a series
// started on 31 January runs on 28 (or 29) February and again on 31 March.

import type { RecurrenceFrequency } from './invoices.documents.schema.ts'

type Schedule = { anchorDate: string; frequency: RecurrenceFrequency; interval: number }

const dayMs = 86_400_000

function partsOf(day: string): [number, number, number] {
	const [year, month, date] = day.split('-').map(Number) as [number, number, number]
	return [year, month, date]
}

function format(year: number, month: number, date: number): string {
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`
}

export function addDays(day: string, days: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10)
}

/** The `k`-th day of the schedule (0: the anchor); a day the month lacks becomes its last. */
function occurrence({ anchorDate, frequency, interval }: Schedule, k: number): string {
	if (frequency === 'week') {
		return addDays(anchorDate, 7 * interval * k)
	}
	const [year, month, date] = partsOf(anchorDate)
	const months = year * 12 + (month - 1) + (frequency === 'month' ? 1 : 12) * interval * k
	const nextYear = Math.floor(months / 12)
	const nextMonth = (months % 12) + 1
	const lastDate = new Date(Date.UTC(nextYear, nextMonth, 0)).getUTCDate()
	return format(nextYear, nextMonth, Math.min(date, lastDate))
}

/** The first day of the schedule on or after `day` (strictly after when `after`). */
function firstFrom(schedule: Schedule, day: string, after: boolean): string {
	if (day < schedule.anchorDate) {
		return schedule.anchorDate
	}
	const [year, month] = partsOf(schedule.anchorDate)
	const [dayYear, dayMonth] = partsOf(day)
	const span =
		schedule.frequency === 'week'
			? (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${schedule.anchorDate}T00:00:00Z`)) / (7 * dayMs)
			: (dayYear * 12 + dayMonth - (year * 12 + month)) / (schedule.frequency === 'month' ? 1 : 12)
	// An estimate one step short at most; the loop walks the rest.
	let k = Math.max(0, Math.floor(span / schedule.interval) - 1)
	for (;;) {
		const candidate = occurrence(schedule, k)
		if (after ? candidate > day : candidate >= day) {
			return candidate
		}
		k += 1
	}
}

/** The schedule's next day after `day` (the day a run used). */
export function occurrenceAfter(schedule: Schedule, day: string): string {
	return firstFrom(schedule, day, true)
}

/** The schedule's first day on or after `day` (resuming skips the days missed). */
export function scheduleFrom(schedule: Schedule, day: string): string {
	return firstFrom(schedule, day, false)
}
