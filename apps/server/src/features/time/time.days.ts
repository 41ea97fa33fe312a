// Time entries on a person's calendar: which local days (and so weeks and months) an entry's
// seconds belong to, in the person's IANA time zone, and which entries overlap. Pure functions
// over Intl's time-zone data (Node ships the full ICU tz database), no clock read: a running
// entry is counted up to the `now` the caller passes.
//
// Exact definitions — the SQL reports must agree with these functions, and a test can check them
// by comparing both over the same rows (time.days.test.ts runs each SQL form below on PGlite):
// - Instants are whole seconds: an ISO instant is floored to its second (SQL:
//   date_trunc('second', t)). An instant must carry its offset ("Z" or "+02:00"); a bare date or
//   local time is refused, as it names no instant.
// - An entry covers [start, end): start included, end excluded. A running entry (end null) ends
//   at `now`; if it started after `now` it covers nothing. A closed entry with end < start is an
//   error; end = start covers nothing.
// - The local date of an instant t in zone z is the calendar date of its wall-clock time there
//   (SQL: (t AT TIME ZONE z)::date).
// - The seconds of an entry on local date D are the number of whole seconds t in [start, end)
//   whose local date is D. Equivalently, as long as a zone's local date never steps back (true of
//   every zone the tests check, Apia's skipped day and midnight DST changes included),
//   |[start, end) ∩ [dayStart(D), dayStart(D + 1))| where dayStart(D) is the first instant whose
//   local date is D — local midnight, or the end of the gap when a DST change skips midnight
//   (America/Santiago). SQL: dayStart(D) = (D::timestamp AT TIME ZONE z) and
//   seconds = greatest(0, extract(epoch from least(end, dayStart(D + 1)) - greatest(start, dayStart(D)))).
//   So a local day holds 23 h on a spring-forward day (Europe/Berlin 2026-03-29), 25 h on a
//   fall-back day (2026-10-25), and a date a zone skipped (Pacific/Apia 2011-12-30) holds nothing.
//   The seconds of an entry over all its dates add up to end - start.
// - ISO week key of a local date: "IYYY-Www", the ISO-8601 week-numbering year and week, weeks
//   starting Monday, week 1 the one holding the year's first Thursday (SQL: to_char(D, 'IYYY-"W"IW')).
// - Week-start key of a local date for weeks starting on weekday w (0 = Sunday … 6 = Saturday,
//   as JavaScript's getDay and SQL's extract(dow)): the date of the week's first day, "YYYY-MM-DD"
//   (SQL: D - ((extract(dow from D)::int - w + 7) % 7)). A date, not a week number, because week
//   numbers are only defined for ISO weeks; it sorts and names its week unambiguously.
// - Month key: "YYYY-MM" of the local date (SQL: to_char(D, 'YYYY-MM')).
// - Two entries overlap when their intervals share at least one second:
//   max(start1, start2) < min(end1, end2); the overlap is min(end1, end2) - max(start1, start2)
//   seconds. Entries that touch (one ends when the other starts) do not overlap. Each overlapping
//   pair is reported once, `first` being the entry that starts earlier (the smaller id when
//   both start together).

/** An ISO-8601 instant with its offset ("2026-03-29T01:30:00Z"), or a Date. */
export type Instant = string | Date

export type EntryInterval = { start: Instant; end: Instant | null }
export type LocalDaySeconds = { date: string; seconds: number }
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6
export type Overlap = { firstId: string; secondId: string; start: string; end: string; seconds: number }

const day = 86_400
const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/
const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/

/** Epoch seconds of an instant, floored to the second. */
function toSeconds(instant: Instant, name: string): number {
	let ms: number
	if (instant instanceof Date) {
		ms = instant.getTime()
	} else {
		if (!isoInstant.test(instant)) {
			throw new RangeError(`${name} "${instant}" is not an ISO instant with an offset, as in 2026-03-29T08:30:00Z.`)
		}
		ms = Date.parse(instant)
	}
	if (!Number.isFinite(ms)) {
		throw new RangeError(`${name} "${String(instant)}" is not a valid instant.`)
	}
	return Math.floor(ms / 1000)
}

const toIso = (seconds: number): string => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')

/** "YYYY-MM-DD" of a day number (days since 1970-01-01). */
const dateOfDayNumber = (dayNumber: number): string => new Date(dayNumber * day * 1000).toISOString().slice(0, 10)

/** Days since 1970-01-01 of a "YYYY-MM-DD" calendar date; refuses dates that do not exist. */
function dayNumberOf(date: string): number {
	const match = isoDate.exec(date)
	if (match) {
		const [, year, month, dayOfMonth] = match.map(Number) as [number, number, number, number]
		const ms = Date.UTC(year, month - 1, dayOfMonth)
		const back = new Date(ms)
		if (back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === dayOfMonth) {
			return ms / 1000 / day
		}
	}
	throw new RangeError(`"${date}" is not a calendar date (YYYY-MM-DD).`)
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(timeZone)
	if (!formatter) {
		try {
			formatter = new Intl.DateTimeFormat('en-US', {
				timeZone,
				hourCycle: 'h23',
				era: 'short',
				year: 'numeric',
				month: 'numeric',
				day: 'numeric',
				hour: 'numeric',
				minute: 'numeric',
				second: 'numeric',
			})
		} catch {
			throw new RangeError(`"${timeZone}" is not a known time zone.`)
		}
		formatters.set(timeZone, formatter)
	}
	return formatter
}

/** Whether Intl knows `timeZone` (an IANA name such as "Europe/Berlin", or "UTC"). */
export function isTimeZone(timeZone: string): boolean {
	try {
		formatterFor(timeZone)
		return true
	} catch {
		return false
	}
}

/** The wall-clock time at `seconds` in `timeZone`, as seconds since 1970-01-01T00:00 of that clock. */
function wallSeconds(seconds: number, timeZone: string): number {
	const parts: Record<string, string> = {}
	for (const part of formatterFor(timeZone).formatToParts(seconds * 1000)) {
		parts[part.type] = part.value
	}
	let year = Number(parts.year)
	if (parts.era === 'BC' || parts.era === 'B') {
		year = 1 - year
	}
	const date = new Date(0)
	date.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day))
	date.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0)
	return date.getTime() / 1000
}

const offsetAt = (seconds: number, timeZone: string): number => wallSeconds(seconds, timeZone) - seconds

/** The first second in (from, to] whose offset differs from `offset`, given that `to`'s does. */
function firstOffsetChange(from: number, to: number, offset: number, timeZone: string): number {
	let low = from
	let high = to
	while (high - low > 1) {
		const middle = low + Math.floor((high - low) / 2)
		if (offsetAt(middle, timeZone) === offset) {
			low = middle
		} else {
			high = middle
		}
	}
	return high
}

/** The local date ("YYYY-MM-DD") of an instant in `timeZone`. */
export function localDateOf(instant: Instant, timeZone: string): string {
	return dateOfDayNumber(Math.floor(wallSeconds(toSeconds(instant, 'instant'), timeZone) / day))
}

function localDayStartSeconds(dayNumber: number, timeZone: string): number {
	// Offsets stay within ±26 h (today's span is -12 h to +14 h), so the first instant of the day
	// lies in this window: search it for the first second whose local day is not before it.
	let low = dayNumber * day - 26 * 3600
	let high = dayNumber * day + 26 * 3600
	while (high - low > 1) {
		const middle = low + Math.floor((high - low) / 2)
		if (Math.floor(wallSeconds(middle, timeZone) / day) >= dayNumber) {
			high = middle
		} else {
			low = middle
		}
	}
	return high
}

/**
 * The instants a local date spans in `timeZone`: [start, end), start the first instant of the
 * date and end the first instant of the next. A date the zone skipped has start = end.
 */
export function localDayBounds(date: string, timeZone: string): { start: string; end: string } {
	const dayNumber = dayNumberOf(date)
	formatterFor(timeZone)
	return {
		start: toIso(localDayStartSeconds(dayNumber, timeZone)),
		end: toIso(localDayStartSeconds(dayNumber + 1, timeZone)),
	}
}

function intervalSeconds(entry: EntryInterval, now: Instant | undefined): { start: number; end: number } {
	const start = toSeconds(entry.start, 'start')
	if (entry.end === null) {
		if (now === undefined) {
			throw new RangeError('A running entry (end null) needs `now` to be counted.')
		}
		return { start, end: Math.max(start, toSeconds(now, 'now')) }
	}
	const end = toSeconds(entry.end, 'end')
	if (end < start) {
		throw new RangeError(`The entry ends (${toIso(end)}) before it starts (${toIso(start)}).`)
	}
	return { start, end }
}

function addSecondsByLocalDay(totals: Map<string, number>, start: number, end: number, timeZone: string): void {
	let from = start
	while (from < end) {
		// A stretch of constant offset: look ahead a day at a time for the next change. (Two
		// changes within one day would go unseen; no rule the tests meet does that.)
		const offset = offsetAt(from, timeZone)
		let to = end
		for (let probe = from; probe < end; ) {
			const next = Math.min(probe + day, end)
			if (offsetAt(next, timeZone) !== offset) {
				to = Math.min(firstOffsetChange(probe, next, offset, timeZone), end)
				break
			}
			probe = next
		}
		// Within the stretch the wall clock runs at the same pace, so days split at its midnights.
		let wall = from + offset
		const wallEnd = to + offset
		while (wall < wallEnd) {
			const dayNumber = Math.floor(wall / day)
			const until = Math.min(wallEnd, (dayNumber + 1) * day)
			const date = dateOfDayNumber(dayNumber)
			totals.set(date, (totals.get(date) ?? 0) + (until - wall))
			wall = until
		}
		from = to
	}
}

function sortedDays(totals: Map<string, number>): LocalDaySeconds[] {
	return [...totals]
		.filter(([, seconds]) => seconds > 0)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([date, seconds]) => ({ date, seconds }))
}

/**
 * An entry's seconds on each local date it covers in `timeZone`, dates ascending, only dates
 * with seconds. A running entry (end null) counts up to `now`.
 */
export function splitIntoLocalDays(entry: EntryInterval, timeZone: string, now?: Instant): LocalDaySeconds[] {
	formatterFor(timeZone)
	const { start, end } = intervalSeconds(entry, now)
	const totals = new Map<string, number>()
	addSecondsByLocalDay(totals, start, end, timeZone)
	return sortedDays(totals)
}

/** The seconds of many entries per local date (one person's, or anyone's in one zone), dates ascending. */
export function sumByLocalDay(entries: Iterable<EntryInterval>, timeZone: string, now?: Instant): LocalDaySeconds[] {
	formatterFor(timeZone)
	const totals = new Map<string, number>()
	for (const entry of entries) {
		const { start, end } = intervalSeconds(entry, now)
		addSecondsByLocalDay(totals, start, end, timeZone)
	}
	return sortedDays(totals)
}

/** A calendar date moved by whole days ("2026-03-31" + 1 is "2026-04-01"). */
export function addDays(date: string, days: number): string {
	if (!Number.isSafeInteger(days)) {
		throw new RangeError(`days must be a whole number, got ${days}.`)
	}
	return dateOfDayNumber(dayNumberOf(date) + days)
}

/** ISO-8601 week of a local date: "2026-W13" (Monday-based; week 1 holds the first Thursday). */
export function isoWeekKey(date: string): string {
	const dayNumber = dayNumberOf(date)
	// 1970-01-01 was a Thursday; ISO weekday 1 = Monday … 7 = Sunday.
	const isoWeekday = ((((dayNumber + 3) % 7) + 7) % 7) + 1
	const thursday = dayNumber + 4 - isoWeekday
	const thursdayDate = new Date(thursday * day * 1000)
	const weekYear = thursdayDate.getUTCFullYear()
	const dayOfYear = thursday - Date.UTC(weekYear, 0, 1) / 1000 / day
	const week = Math.floor(dayOfYear / 7) + 1
	return `${String(weekYear).padStart(4, '0')}-W${String(week).padStart(2, '0')}`
}

/** The first day ("YYYY-MM-DD") of the week holding `date`, weeks starting on `weekStartsOn` (0 = Sunday). */
export function weekStartKey(date: string, weekStartsOn: Weekday): string {
	if (!Number.isInteger(weekStartsOn) || weekStartsOn < 0 || weekStartsOn > 6) {
		throw new RangeError(`weekStartsOn must be 0 (Sunday) to 6 (Saturday), got ${weekStartsOn}.`)
	}
	const dayNumber = dayNumberOf(date)
	const weekday = (((dayNumber + 4) % 7) + 7) % 7
	return dateOfDayNumber(dayNumber - ((weekday - weekStartsOn + 7) % 7))
}

/** The month of a local date: "2026-03". */
export function monthKey(date: string): string {
	dayNumberOf(date)
	return date.slice(0, 7)
}

/**
 * Every pair of entries that share time (pass one person's entries), with the shared stretch,
 * ordered by where the overlap starts, then by the ids. Running entries count up to `now`.
 */
export function findOverlaps(entries: Iterable<EntryInterval & { id: string }>, now?: Instant): Overlap[] {
	const intervals = [...entries]
		.map((entry) => ({ id: entry.id, ...intervalSeconds(entry, now) }))
		.filter((interval) => interval.end > interval.start)
		.sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
	const overlaps: (Overlap & { from: number })[] = []
	let active: typeof intervals = []
	for (const interval of intervals) {
		active = active.filter((other) => other.end > interval.start)
		for (const other of active) {
			const until = Math.min(other.end, interval.end)
			overlaps.push({
				firstId: other.id,
				secondId: interval.id,
				start: toIso(interval.start),
				end: toIso(until),
				seconds: until - interval.start,
				from: interval.start,
			})
		}
		active.push(interval)
	}
	return overlaps
		.sort(
			(a, b) =>
				a.from - b.from ||
				(a.firstId < b.firstId ? -1 : a.firstId > b.firstId ? 1 : 0) ||
				(a.secondId < b.secondId ? -1 : a.secondId > b.secondId ? 1 : 0),
		)
		.map(({ from: _from, ...overlap }) => overlap)
}
