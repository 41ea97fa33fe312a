import type { TimeEntry } from '@blocksmith/contracts/time.ts'

// The entries list's arithmetic, in the browser's time zone: local days, totals, overlaps, and
// the date and time fields of the entry forms. Pure, so the screens only lay it out.

/** Whole seconds an entry lasts; a running one counts up to `now`. */
export function secondsOf(entry: Pick<TimeEntry, 'startedAt' | 'endedAt'>, now: number): number {
	const end = entry.endedAt ? Date.parse(entry.endedAt) : now
	return Math.max(0, Math.floor((end - Date.parse(entry.startedAt)) / 1000))
}

const pad2 = (value: number) => String(value).padStart(2, '0')

/** The running clock: "0:04:09", "12:30:00". */
export function formatElapsed(seconds: number): string {
	const whole = Math.max(0, Math.floor(seconds))
	return `${Math.floor(whole / 3600)}:${pad2(Math.floor((whole % 3600) / 60))}:${pad2(whole % 60)}`
}

/** The local calendar day of an instant: "2026-11-26". */
export function localDay(instant: string | number | Date): string {
	const date = new Date(instant)
	return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`
}

/** The local time of an instant as a time input holds it: "09:05". */
export function localTime(instant: string | number | Date): string {
	const date = new Date(instant)
	return `${pad2(date.getHours())}:${pad2(date.getMinutes())}`
}

/** A local date and time ("2026-11-26", "09:05") as an instant; null when either is not valid. */
export function instantOf(day: string, time: string): Date | null {
	const dayMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
	const timeMatch = /^(\d{2}):(\d{2})$/.exec(time)
	if (!dayMatch || !timeMatch) {
		return null
	}
	const [, year, month, date] = dayMatch.map(Number) as [number, number, number, number]
	const [, hours, minutes] = timeMatch.map(Number) as [number, number, number]
	if (hours > 23 || minutes > 59) {
		return null
	}
	const instant = new Date(year, month - 1, date, hours, minutes)
	return instant.getDate() === date ? instant : null
}

/**
 * An end typed as a time of day: on the start's day, or the next one when it is not after the
 * start (22:00 to 01:30 crosses midnight), as people mean it on a timesheet.
 */
export function endAfter(start: Date, time: string): Date | null {
	const end = instantOf(localDay(start), time)
	if (!end) {
		return null
	}
	if (end.getTime() <= start.getTime()) {
		end.setDate(end.getDate() + 1)
	}
	return end
}

export type DayGroup = { day: string; label: string; entries: TimeEntry[]; totalSeconds: number }

/** "Today", "Yesterday", else "Mon, 24 Nov" (with the year when it is not this one). */
function dayLabel(day: string, now: number, locale?: string): string {
	if (day === localDay(now)) {
		return 'Today'
	}
	const yesterday = new Date(now)
	yesterday.setDate(yesterday.getDate() - 1)
	if (day === localDay(yesterday)) {
		return 'Yesterday'
	}
	const date = instantOf(day, '12:00') ?? new Date(now)
	return date.toLocaleDateString(locale, {
		weekday: 'short',
		day: 'numeric',
		month: 'short',
		...(date.getFullYear() === new Date(now).getFullYear() ? {} : { year: 'numeric' }),
	})
}

/** Entries by the local day they start on, newest day and entry first, each day with its total. */
export function groupByDay(entries: TimeEntry[], now: number, locale?: string): DayGroup[] {
	const groups = new Map<string, TimeEntry[]>()
	const sorted = [...entries].sort((left, right) => right.startedAt.localeCompare(left.startedAt))
	for (const entry of sorted) {
		const day = localDay(entry.startedAt)
		groups.set(day, [...(groups.get(day) ?? []), entry])
	}
	return [...groups].map(([day, dayEntries]) => ({
		day,
		label: dayLabel(day, now, locale),
		entries: dayEntries,
		totalSeconds: dayEntries.reduce((sum, entry) => sum + secondsOf(entry, now), 0),
	}))
}

/** Ids of the entries that overlap another one (a running one lasts until `now`). */
export function overlappingIds(entries: TimeEntry[], now: number): Set<string> {
	const spans = entries
		.map((entry) => ({
			id: entry.id,
			start: Date.parse(entry.startedAt),
			end: entry.endedAt ? Date.parse(entry.endedAt) : now,
		}))
		.sort((left, right) => left.start - right.start)
	const overlapping = new Set<string>()
	// The span reaching furthest so far: any later start before its end overlaps it.
	let furthest: (typeof spans)[number] | undefined
	for (const span of spans) {
		if (furthest && span.start < furthest.end) {
			overlapping.add(span.id)
			overlapping.add(furthest.id)
		}
		if (!furthest || span.end > furthest.end) {
			furthest = span
		}
	}
	return overlapping
}
