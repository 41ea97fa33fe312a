import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
	addDays,
	findOverlaps,
	isoWeekKey,
	isTimeZone,
	localDateOf,
	localDayBounds,
	monthKey,
	splitIntoLocalDays,
	sumByLocalDay,
	type Weekday,
	weekStartKey,
} from './time.days.ts'

/** A small seeded generator (mulberry32), so a failing random case can be replayed. */
function random(seed: number): () => number {
	let state = seed >>> 0
	return () => {
		state = (state + 0x6d2b79f5) >>> 0
		let t = state
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

const hour = 3600
const day = 86_400
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')
const epoch = (instant: string) => Date.parse(instant) / 1000

// Zones with DST at 02:00 (Berlin, New York), at midnight (Santiago, and São Paulo until 2019),
// by 30 minutes (Lord Howe), quarter-hour offsets (Kathmandu, Chatham), a skipped date (Apia,
// 2011-12-30), the extremes (+14 Kiritimati, -11 Pago Pago), and no DST (UTC, Kolkata).
const zones = [
	'UTC',
	'Europe/Berlin',
	'America/New_York',
	'America/Santiago',
	'America/Sao_Paulo',
	'Australia/Lord_Howe',
	'Asia/Kathmandu',
	'Asia/Kolkata',
	'Pacific/Chatham',
	'Pacific/Apia',
	'Pacific/Kiritimati',
	'Pacific/Pago_Pago',
	'Europe/London',
	'Asia/Tehran',
]

/** Local dates by a different road: Intl's own date formatting, one call per minute. */
const dateFormatters = new Map<string, Intl.DateTimeFormat>()
function bruteDate(seconds: number, timeZone: string): string {
	let formatter = dateFormatters.get(timeZone)
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
		dateFormatters.set(timeZone, formatter)
	}
	return formatter.format(seconds * 1000)
}

/**
 * Seconds per local date, counted minute by minute (every offset and DST change since 1970 in
 * these zones falls on a whole minute, so a UTC minute never straddles two local dates).
 */
function bruteSplit(start: number, end: number, timeZone: string): Record<string, number> {
	const totals: Record<string, number> = {}
	for (let t = start; t < end; ) {
		const next = Math.min(end, Math.floor(t / 60) * 60 + 60)
		const date = bruteDate(t, timeZone)
		totals[date] = (totals[date] ?? 0) + (next - t)
		t = next
	}
	return totals
}

const asRecord = (days: { date: string; seconds: number }[]) =>
	Object.fromEntries(days.map(({ date, seconds }) => [date, seconds]))

/** Random entries, half of them in the months when clocks change, some running, some empty. */
function randomEntries(next: () => number, count: number) {
	const months = [2, 3, 4, 8, 9, 10, 11] // 0-based: Mar, Apr, May, Sep, Oct, Nov, Dec
	return Array.from({ length: count }, (_, index) => {
		const year = 2010 + Math.floor(next() * 21)
		const month = next() < 0.6 ? (months[Math.floor(next() * months.length)] as number) : Math.floor(next() * 12)
		const start = Date.UTC(year, month, 1 + Math.floor(next() * 28)) / 1000 - 14 * hour + Math.floor(next() * 2 * day)
		const lengthKind = next()
		const length =
			lengthKind < 0.05
				? 0
				: lengthKind < 0.7
					? Math.floor(next() * 10 * hour)
					: lengthKind < 0.95
						? Math.floor(next() * 30 * hour)
						: Math.floor(next() * 4 * day)
		return { id: `e${index}`, start, end: start + length, running: next() < 0.1 }
	})
}

describe('splitIntoLocalDays', () => {
	test('an entry across midnight counts in both local days', () => {
		// Berlin is UTC+1 in January: 23:30 to 01:30 local.
		expect(splitIntoLocalDays({ start: '2026-01-15T22:30:00Z', end: '2026-01-16T00:30:00Z' }, 'Europe/Berlin')).toEqual(
			[
				{ date: '2026-01-15', seconds: 1800 },
				{ date: '2026-01-16', seconds: 5400 },
			],
		)
		expect(splitIntoLocalDays({ start: '2026-01-15T22:30:00Z', end: '2026-01-16T00:30:00Z' }, 'UTC')).toEqual([
			{ date: '2026-01-15', seconds: 5400 },
			{ date: '2026-01-16', seconds: 1800 },
		])
	})

	test.each([
		['Europe/Berlin', '2026-03-29', 23 * hour],
		['Europe/Berlin', '2026-10-25', 25 * hour],
		['America/New_York', '2026-03-08', 23 * hour],
		['America/New_York', '2026-11-01', 25 * hour],
		['Europe/Berlin', '2026-03-28', 24 * hour],
		['America/Santiago', '2026-09-06', 23 * hour], // the clock skips 00:00–01:00
		['Australia/Lord_Howe', '2026-10-04', 23.5 * hour],
		['Australia/Lord_Howe', '2026-04-05', 24.5 * hour],
		['Pacific/Apia', '2011-12-30', 0], // skipped when Samoa crossed the date line
		['Pacific/Apia', '2011-12-29', 24 * hour],
	])('%s %s holds %i seconds', (timeZone, date, seconds) => {
		const { start, end } = localDayBounds(date, timeZone)
		expect(epoch(end) - epoch(start)).toBe(seconds)
		// A three-day entry around the date puts exactly the day's length on it.
		const around = {
			start: localDayBounds(addDays(date, -1), timeZone).start,
			end: localDayBounds(addDays(date, 1), timeZone).end,
		}
		const days = asRecord(splitIntoLocalDays(around, timeZone))
		expect(days[date] ?? 0).toBe(seconds)
	})

	test('the day bounds of the DST days in Berlin and New York', () => {
		expect(localDayBounds('2026-03-29', 'Europe/Berlin')).toEqual({
			start: '2026-03-28T23:00:00Z',
			end: '2026-03-29T22:00:00Z',
		})
		expect(localDayBounds('2026-10-25', 'Europe/Berlin')).toEqual({
			start: '2026-10-24T22:00:00Z',
			end: '2026-10-25T23:00:00Z',
		})
		expect(localDayBounds('2026-03-08', 'America/New_York')).toEqual({
			start: '2026-03-08T05:00:00Z',
			end: '2026-03-09T04:00:00Z',
		})
		expect(localDayBounds('2026-11-01', 'America/New_York')).toEqual({
			start: '2026-11-01T04:00:00Z',
			end: '2026-11-02T05:00:00Z',
		})
		expect(localDayBounds('2026-09-06', 'America/Santiago')).toEqual({
			start: '2026-09-06T04:00:00Z',
			end: '2026-09-07T03:00:00Z',
		})
	})

	test('the repeated hour of a fall-back night is counted twice on that date, the skipped one not at all', () => {
		// 02:30 CEST to 02:30 CET is one real hour.
		expect(splitIntoLocalDays({ start: '2026-10-25T00:30:00Z', end: '2026-10-25T01:30:00Z' }, 'Europe/Berlin')).toEqual(
			[{ date: '2026-10-25', seconds: hour }],
		)
		// 01:30 CET to 03:30 CEST is one real hour.
		expect(splitIntoLocalDays({ start: '2026-03-29T00:30:00Z', end: '2026-03-29T01:30:00Z' }, 'Europe/Berlin')).toEqual(
			[{ date: '2026-03-29', seconds: hour }],
		)
		// An overnight shift from 22:00 to 06:00 local on the fall-back night is nine hours.
		expect(
			splitIntoLocalDays({ start: '2026-10-31T22:00:00-04:00', end: '2026-11-01T06:00:00-05:00' }, 'America/New_York'),
		).toEqual([
			{ date: '2026-10-31', seconds: 2 * hour },
			{ date: '2026-11-01', seconds: 7 * hour },
		])
	})

	test('an entry over the date Samoa skipped goes from the 29th straight to the 31st', () => {
		expect(
			splitIntoLocalDays({ start: '2011-12-29T12:00:00-10:00', end: '2011-12-31T12:00:00+14:00' }, 'Pacific/Apia'),
		).toEqual([
			{ date: '2011-12-29', seconds: 12 * hour },
			{ date: '2011-12-31', seconds: 12 * hour },
		])
	})

	test('a running entry counts up to now; one that starts after now counts nothing', () => {
		const running = { start: '2026-03-28T22:00:00Z', end: null }
		expect(splitIntoLocalDays(running, 'Europe/Berlin', '2026-03-29T02:00:00Z')).toEqual([
			{ date: '2026-03-28', seconds: hour },
			{ date: '2026-03-29', seconds: 3 * hour },
		])
		expect(splitIntoLocalDays(running, 'Europe/Berlin', new Date('2026-03-28T21:00:00Z'))).toEqual([])
		expect(() => splitIntoLocalDays(running, 'Europe/Berlin')).toThrow(/needs `now`/)
	})

	test('instants are floored to whole seconds, and may be Dates or carry any offset', () => {
		expect(
			splitIntoLocalDays({ start: '2026-01-01T10:00:00.900Z', end: new Date('2026-01-01T10:00:02.100Z') }, 'UTC'),
		).toEqual([{ date: '2026-01-01', seconds: 2 }])
		expect(splitIntoLocalDays({ start: '2026-01-01T10:00+05:30', end: '2026-01-01T04:31:00Z' }, 'UTC')).toEqual([
			{ date: '2026-01-01', seconds: 60 },
		])
	})

	test('refuses instants without an offset, entries that end before they start, and unknown zones', () => {
		expect(() => splitIntoLocalDays({ start: '2026-01-01', end: '2026-01-02' }, 'UTC')).toThrow(/not an ISO instant/)
		expect(() =>
			splitIntoLocalDays({ start: '2026-01-01T10:00:00', end: null }, 'UTC', '2026-01-02T00:00:00Z'),
		).toThrow(/start "2026-01-01T10:00:00" is not an ISO instant/)
		expect(() => splitIntoLocalDays({ start: '2026-01-01T10:00:00Z', end: '2026-01-01T09:00:00Z' }, 'UTC')).toThrow(
			/ends .* before it starts/,
		)
		expect(() => splitIntoLocalDays({ start: new Date(Number.NaN), end: null }, 'UTC', '2026-01-01T00:00:00Z')).toThrow(
			/not a valid instant/,
		)
		expect(() => splitIntoLocalDays({ start: '2026-01-01T10:00:00Z', end: null }, 'Mars/Olympus')).toThrow(
			/"Mars\/Olympus" is not a known time zone/,
		)
		expect(splitIntoLocalDays({ start: '2026-01-01T10:00:00Z', end: '2026-01-01T10:00:00Z' }, 'UTC')).toEqual([])
	})

	test('isTimeZone', () => {
		expect(isTimeZone('Europe/Berlin')).toBe(true)
		expect(isTimeZone('UTC')).toBe(true)
		expect(isTimeZone('Europe/Nowhere')).toBe(false)
		expect(isTimeZone('')).toBe(false)
	})

	test.each(zones)('%s: random entries against a minute-by-minute count, and against the day bounds', (timeZone) => {
		const next = random(zones.indexOf(timeZone) + 1)
		for (const entry of randomEntries(next, 40)) {
			const now = entry.running ? entry.end : undefined
			const split = splitIntoLocalDays(
				{ start: iso(entry.start), end: entry.running ? null : iso(entry.end) },
				timeZone,
				now === undefined ? undefined : iso(now),
			)
			const expected = bruteSplit(entry.start, entry.end, timeZone)
			if (JSON.stringify(asRecord(split)) !== JSON.stringify(expected)) {
				expect({ timeZone, entry, split: asRecord(split) }).toEqual({ timeZone, entry, split: expected })
			}
			expect(split.reduce((sum, { seconds }) => sum + seconds, 0)).toBe(entry.end - entry.start)
			// The SQL form: |[start, end) ∩ [dayStart(D), dayStart(D + 1))| for every date around the entry.
			const first = bruteDate(entry.start - day, timeZone)
			const last = bruteDate(entry.end + day, timeZone)
			for (let date = first; date <= last; date = addDays(date, 1)) {
				const bounds = localDayBounds(date, timeZone)
				const overlap = Math.max(0, Math.min(entry.end, epoch(bounds.end)) - Math.max(entry.start, epoch(bounds.start)))
				if (overlap !== (expected[date] ?? 0)) {
					expect({ timeZone, entry, date, bounds, overlap }).toBe(expected[date] ?? 0)
				}
			}
		}
	})

	test('sumByLocalDay adds many entries per date, running ones up to a shared now', () => {
		const next = random(42)
		const timeZone = 'America/New_York'
		const entries = randomEntries(next, 60)
		const now = Math.max(...entries.map((entry) => entry.end))
		const running = { start: now - 30 * hour, end: now }
		const expected: Record<string, number> = {}
		for (const entry of [...entries, running]) {
			for (const [date, seconds] of Object.entries(bruteSplit(entry.start, entry.end, timeZone))) {
				expected[date] = (expected[date] ?? 0) + seconds
			}
		}
		const sums = sumByLocalDay(
			[
				...entries.map((entry) => ({ start: iso(entry.start), end: iso(entry.end) })),
				{ start: iso(running.start), end: null },
			],
			timeZone,
			iso(now),
		)
		expect(asRecord(sums)).toEqual(expected)
		expect(sums.map(({ date }) => date)).toEqual(Object.keys(expected).sort())
		expect(sumByLocalDay([], timeZone)).toEqual([])
	})
})

describe('localDayBounds', () => {
	test.each(zones)('%s: the start is the first second of the date, by a different road', (timeZone) => {
		const next = random(100 + zones.indexOf(timeZone))
		for (let i = 0; i < 60; i++) {
			const date = addDays('2010-01-01', Math.floor(next() * 7670))
			const { start, end } = localDayBounds(date, timeZone)
			const [s, e] = [epoch(start), epoch(end)]
			expect(bruteDate(s - 1, timeZone) < date).toBe(true)
			expect(e).toBeGreaterThanOrEqual(s)
			if (e > s) {
				expect(bruteDate(s, timeZone)).toBe(date)
				expect(bruteDate(e - 1, timeZone)).toBe(date)
			}
			expect(bruteDate(e, timeZone) > date).toBe(true)
			expect(localDayBounds(addDays(date, 1), timeZone).start).toBe(end)
		}
	})

	test('refuses what is not a calendar date', () => {
		expect(() => localDayBounds('2026-02-30', 'UTC')).toThrow(/not a calendar date/)
		expect(() => localDayBounds('2026-3-1', 'UTC')).toThrow(/not a calendar date/)
		expect(() => localDayBounds('2026-03-01', 'Nowhere/Land')).toThrow(/not a known time zone/)
	})
})

describe('localDateOf', () => {
	test('examples', () => {
		expect(localDateOf('2026-03-29T22:30:00Z', 'Europe/Berlin')).toBe('2026-03-30')
		expect(localDateOf('2026-03-29T21:59:59Z', 'Europe/Berlin')).toBe('2026-03-29')
		expect(localDateOf('2026-01-01T03:00:00Z', 'America/New_York')).toBe('2025-12-31')
		expect(localDateOf('2026-01-01T10:00:00Z', 'Pacific/Kiritimati')).toBe('2026-01-02')
	})

	test('random instants in every zone, against Intl date formatting', () => {
		const next = random(9)
		for (let i = 0; i < 5000; i++) {
			const timeZone = zones[i % zones.length] as string
			const seconds = Math.floor(Date.UTC(2000, 0, 1) / 1000 + next() * 40 * 365 * day)
			expect(localDateOf(iso(seconds), timeZone)).toBe(bruteDate(seconds, timeZone))
		}
	})
})

/** ISO week by counting: find the week's Thursday, then count the Thursdays before it in its year. */
function bruteIsoWeek(date: string): string {
	let thursday = new Date(`${date}T00:00:00Z`)
	while (thursday.getUTCDay() !== 1) {
		thursday = new Date(thursday.getTime() - day * 1000)
	}
	thursday = new Date(thursday.getTime() + 3 * day * 1000)
	const year = thursday.getUTCFullYear()
	let week = 1
	for (let t = thursday.getTime() - 7 * day * 1000; new Date(t).getUTCFullYear() === year; t -= 7 * day * 1000) {
		week++
	}
	return `${year}-W${String(week).padStart(2, '0')}`
}

describe('week and month keys', () => {
	test('ISO weeks, including the years with 53', () => {
		expect(isoWeekKey('2026-03-29')).toBe('2026-W13') // a Sunday
		expect(isoWeekKey('2026-03-30')).toBe('2026-W14')
		expect(isoWeekKey('2026-01-01')).toBe('2026-W01') // a Thursday
		expect(isoWeekKey('2027-01-01')).toBe('2026-W53') // a Friday
		expect(isoWeekKey('2020-12-31')).toBe('2020-W53')
		expect(isoWeekKey('2021-01-03')).toBe('2020-W53')
		expect(isoWeekKey('2021-01-04')).toBe('2021-W01')
		expect(isoWeekKey('2024-12-30')).toBe('2025-W01')
		expect(isoWeekKey('2008-12-29')).toBe('2009-W01')
	})

	test('every date from 1990 to 2040 against counting Thursdays', () => {
		for (let date = '1990-01-01'; date <= '2040-12-31'; date = addDays(date, 1)) {
			const key = isoWeekKey(date)
			if (key !== bruteIsoWeek(date)) {
				expect({ date, key }).toBe(bruteIsoWeek(date))
			}
		}
	})

	test('weeks starting on a chosen weekday, every date from 2000 to 2030 and every weekday', () => {
		expect(weekStartKey('2026-03-29', 1)).toBe('2026-03-23') // Sunday → its Monday
		expect(weekStartKey('2026-03-29', 0)).toBe('2026-03-29') // a Sunday starts its own week
		expect(weekStartKey('2026-03-27', 6)).toBe('2026-03-21') // Friday → last Saturday
		expect(weekStartKey('2026-01-01', 1)).toBe('2025-12-29')
		for (let date = '2000-01-01'; date <= '2030-12-31'; date = addDays(date, 1)) {
			for (let weekStartsOn = 0; weekStartsOn <= 6; weekStartsOn++) {
				let expected = new Date(`${date}T00:00:00Z`)
				while (expected.getUTCDay() !== weekStartsOn) {
					expected = new Date(expected.getTime() - day * 1000)
				}
				const key = weekStartKey(date, weekStartsOn as Weekday)
				if (key !== expected.toISOString().slice(0, 10)) {
					expect({ date, weekStartsOn, key }).toBe(expected.toISOString().slice(0, 10))
				}
			}
			// A Monday-start week is the ISO week.
			if (isoWeekKey(weekStartKey(date, 1)) !== isoWeekKey(date)) {
				expect(isoWeekKey(weekStartKey(date, 1))).toBe(isoWeekKey(date))
			}
		}
		expect(() => weekStartKey('2026-03-29', 7 as Weekday)).toThrow(RangeError)
	})

	test('months and day arithmetic', () => {
		expect(monthKey('2026-03-29')).toBe('2026-03')
		expect(() => monthKey('2026-13-01')).toThrow(/not a calendar date/)
		expect(addDays('2026-03-31', 1)).toBe('2026-04-01')
		expect(addDays('2024-02-28', 1)).toBe('2024-02-29')
		expect(addDays('2025-02-28', 1)).toBe('2025-03-01')
		expect(addDays('2026-01-01', -1)).toBe('2025-12-31')
		expect(addDays('2026-01-01', 365)).toBe('2027-01-01')
		expect(() => addDays('2026-01-01', 0.5)).toThrow(RangeError)
		expect(() => addDays('2026-02-29', 1)).toThrow(/not a calendar date/)
	})
})

describe('findOverlaps', () => {
	const at = (time: string) => `2026-05-04T${time}:00Z`

	test('examples', () => {
		expect(
			findOverlaps([
				{ id: 'a', start: at('09:00'), end: at('11:00') },
				{ id: 'b', start: at('10:00'), end: at('12:00') },
				{ id: 'c', start: at('12:00'), end: at('13:00') }, // touches b: no overlap
				{ id: 'd', start: at('12:15'), end: at('12:45') }, // inside c
				{ id: 'e', start: at('14:00'), end: at('14:00') }, // empty: overlaps nothing
			]),
		).toEqual([
			{ firstId: 'a', secondId: 'b', start: at('10:00'), end: at('11:00'), seconds: hour },
			{ firstId: 'c', secondId: 'd', start: at('12:15'), end: at('12:45'), seconds: 1800 },
		])
	})

	test('entries that start together are ordered by id; a running entry counts up to now', () => {
		expect(
			findOverlaps(
				[
					{ id: 'z', start: at('09:00'), end: null },
					{ id: 'y', start: at('09:00'), end: at('09:30') },
					{ id: 'x', start: at('09:50'), end: at('11:00') },
				],
				at('10:00'),
			),
		).toEqual([
			{ firstId: 'y', secondId: 'z', start: at('09:00'), end: at('09:30'), seconds: 1800 },
			{ firstId: 'z', secondId: 'x', start: at('09:50'), end: at('10:00'), seconds: 600 },
		])
	})

	test('random entries against comparing every pair', () => {
		const next = random(21)
		for (let round = 0; round < 200; round++) {
			const base = Date.UTC(2026, 4, 4) / 1000
			const entries = Array.from({ length: Math.floor(next() * 25) }, (_, index) => {
				const start = base + Math.floor(next() * 48) * 900 + (next() < 0.3 ? Math.floor(next() * 900) : 0)
				const end = next() < 0.1 ? null : start + Math.floor(next() * 12) * 900
				return { id: `id${Math.floor(next() * 1000)}-${index}`, start, end }
			})
			const now = base + Math.floor(next() * 60) * 900
			const resolved = entries.map((entry) => ({
				id: entry.id,
				start: entry.start,
				end: entry.end === null ? Math.max(entry.start, now) : entry.end,
			}))
			const expected = []
			for (const a of resolved) {
				for (const b of resolved) {
					const aFirst = a.start < b.start || (a.start === b.start && a.id < b.id)
					const from = Math.max(a.start, b.start)
					const until = Math.min(a.end, b.end)
					if (aFirst && from < until) {
						expected.push({ firstId: a.id, secondId: b.id, start: iso(from), end: iso(until), seconds: until - from })
					}
				}
			}
			expected.sort(
				(p, q) =>
					p.start.localeCompare(q.start) || p.firstId.localeCompare(q.firstId) || p.secondId.localeCompare(q.secondId),
			)
			const found = findOverlaps(
				entries.map((entry) => ({
					id: entry.id,
					start: iso(entry.start),
					end: entry.end === null ? null : iso(entry.end),
				})),
				iso(now),
			)
			expect(found).toEqual(expected)
		}
	})
})

// The header of time.days.ts writes down each definition in SQL. PostgreSQL (PGlite, with its own
// copy of the tz database) computes them over the same inputs here, so the reports built on SQL
// can trust that these functions and their queries agree.
describe('the SQL definitions agree (PGlite)', () => {
	let db: PGlite
	beforeAll(async () => {
		db = new PGlite()
		await db.waitReady
	}, 120_000)
	afterAll(async () => {
		await db?.close()
	})

	// Node (ICU) and PostgreSQL each bundle their own copy of the tz database: should a zone fail
	// here after an upgrade, the two copies disagree about a rule change, not the definitions.
	const sqlZones = zones

	test.each(sqlZones)('%s: seconds per local date of random entries', async (timeZone) => {
		const next = random(500 + sqlZones.indexOf(timeZone))
		const entries = randomEntries(next, 150).map((entry) => ({ id: entry.id, s: iso(entry.start), e: iso(entry.end) }))
		const { rows } = await db.query<{ id: string; date: string; seconds: number }>(
			`with e as (select * from jsonb_to_recordset($1::jsonb) as t(id text, s timestamptz, e timestamptz)),
			days as (
				select e.id, d::date as day,
					greatest(e.s, (d::date)::timestamp at time zone $2) as a,
					least(e.e, (d::date + 1)::timestamp at time zone $2) as b
				from e, generate_series((e.s at time zone $2)::date::timestamp, (e.e at time zone $2)::date::timestamp, interval '1 day') as d
			)
			select id, to_char(day, 'YYYY-MM-DD') as date, extract(epoch from (b - a))::int as seconds
			from days where b > a order by id, day`,
			[JSON.stringify(entries), timeZone],
		)
		const fromSql: Record<string, Record<string, number>> = {}
		for (const row of rows) {
			fromSql[row.id] = { ...fromSql[row.id], [row.date]: row.seconds }
		}
		for (const entry of entries) {
			const split = asRecord(splitIntoLocalDays({ start: entry.s, end: entry.e }, timeZone))
			expect({ id: entry.id, split }).toEqual({ id: entry.id, split: fromSql[entry.id] ?? {} })
		}
	})

	test.each(sqlZones)('%s: local dates and day starts', async (timeZone) => {
		const next = random(600 + sqlZones.indexOf(timeZone))
		const instants = Array.from({ length: 500 }, () =>
			iso(Math.floor(Date.UTC(2010, 0, 1) / 1000 + next() * 21 * 365 * day)),
		)
		const dates = Array.from({ length: 200 }, () => addDays('2010-01-01', Math.floor(next() * 7670)))
		const local = await db.query<{ date: string }>(
			`select to_char((t at time zone $2)::date, 'YYYY-MM-DD') as date from unnest($1::timestamptz[]) with ordinality as u(t, n) order by n`,
			[instants, timeZone],
		)
		expect(local.rows.map((row) => row.date)).toEqual(instants.map((instant) => localDateOf(instant, timeZone)))
		const starts = await db.query<{ start: Date }>(
			`select (d::timestamp at time zone $2) as start from unnest($1::date[]) with ordinality as u(d, n) order by n`,
			[dates, timeZone],
		)
		expect(starts.rows.map((row) => iso(row.start.getTime() / 1000))).toEqual(
			dates.map((date) => localDayBounds(date, timeZone).start),
		)
	})

	test('ISO week, week-start and month keys for every date from 2000 to 2035', async () => {
		const { rows } = await db.query<{ date: string; iso: string; month: string; starts: string[] }>(
			`select to_char(d, 'YYYY-MM-DD') as date, to_char(d, 'IYYY-"W"IW') as iso, to_char(d, 'YYYY-MM') as month,
				array(select to_char(d::date - ((extract(dow from d)::int - w + 7) % 7), 'YYYY-MM-DD') from generate_series(0, 6) as w order by w) as starts
			from generate_series('2000-01-01'::timestamp, '2035-12-31'::timestamp, interval '1 day') as d order by d`,
		)
		expect(rows.length).toBe(13_149)
		for (const row of rows) {
			const ours = {
				date: row.date,
				iso: isoWeekKey(row.date),
				month: monthKey(row.date),
				starts: [0, 1, 2, 3, 4, 5, 6].map((w) => weekStartKey(row.date, w as Weekday)),
			}
			if (JSON.stringify(ours) !== JSON.stringify(row)) {
				expect(ours).toEqual(row)
			}
		}
	})

	test('overlaps', async () => {
		const next = random(700)
		const base = Date.UTC(2026, 4, 4) / 1000
		const entries = Array.from({ length: 80 }, (_, index) => {
			const start = base + Math.floor(next() * 96) * 900 + Math.floor(next() * 60)
			return { id: `e${String(index).padStart(2, '0')}`, s: iso(start), e: iso(start + Math.floor(next() * 16) * 900) }
		})
		const { rows } = await db.query<{ firstId: string; secondId: string; seconds: number }>(
			`with e as (select * from jsonb_to_recordset($1::jsonb) as t(id text, s timestamptz, e timestamptz))
			select a.id as "firstId", b.id as "secondId", extract(epoch from least(a.e, b.e) - greatest(a.s, b.s))::int as seconds
			from e a join e b on (a.s, a.id) < (b.s, b.id) and greatest(a.s, b.s) < least(a.e, b.e)
			order by greatest(a.s, b.s), a.id, b.id`,
			[JSON.stringify(entries)],
		)
		expect(rows.length).toBeGreaterThan(10)
		expect(
			findOverlaps(entries.map((entry) => ({ id: entry.id, start: entry.s, end: entry.e }))).map(
				({ firstId, secondId, seconds }) => ({ firstId, secondId, seconds }),
			),
		).toEqual(rows)
	})
})
