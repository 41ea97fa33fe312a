import { describe, expect, test } from 'vitest'
import { localDayBounds } from './time.days.ts'
import { placeOnDay } from './time.timesheet.ts'

// Where a cell's new entry goes on its day: 09:00 on the wall clock when free (also on DST days),
// else the first free stretch after it, else the latest free stretch before, else right after the day's last entry.

const berlin = 'Europe/Berlin'
const dayOf = (date: string) => {
	const bounds = localDayBounds(date, berlin)
	return { start: new Date(bounds.start), end: new Date(bounds.end) }
}
const at = (iso: string) => new Date(iso)
const busy = (start: string, end: string) => ({ start: at(start), end: at(end) })

describe('placeOnDay', () => {
	test('09:00 local on an ordinary day and on both DST days', () => {
		expect(placeOnDay(dayOf('2026-03-24'), [], 3600, berlin).toISOString()).toBe('2026-03-24T08:00:00.000Z')
		expect(placeOnDay(dayOf('2026-03-29'), [], 3600, berlin).toISOString()).toBe('2026-03-29T07:00:00.000Z')
		expect(placeOnDay(dayOf('2026-10-25'), [], 3600, berlin).toISOString()).toBe('2026-10-25T08:00:00.000Z')
	})

	test('after what is there from 09:00, skipping a gap too short', () => {
		const taken = [
			busy('2026-03-24T08:00:00Z', '2026-03-24T09:00:00Z'),
			busy('2026-03-24T09:30:00Z', '2026-03-24T12:00:00Z'),
		]
		expect(placeOnDay(dayOf('2026-03-24'), taken, 3600, berlin).toISOString()).toBe('2026-03-24T12:00:00.000Z')
		expect(placeOnDay(dayOf('2026-03-24'), taken, 1800, berlin).toISOString()).toBe('2026-03-24T09:00:00.000Z')
	})

	test('before 09:00 when the rest of the day is full; after the last entry when nothing is free', () => {
		const evening = [busy('2026-03-24T07:00:00Z', '2026-03-24T23:00:00Z')]
		expect(placeOnDay(dayOf('2026-03-24'), evening, 3600, berlin).toISOString()).toBe('2026-03-24T06:00:00.000Z')
		const full = [
			busy('2026-03-23T23:00:00Z', '2026-03-24T12:00:00Z'),
			busy('2026-03-24T12:30:00Z', '2026-03-24T23:00:00Z'),
		]
		// No free hour: it starts after the last entry, pulled back so it stays within the day.
		expect(placeOnDay(dayOf('2026-03-24'), full, 3600, berlin).toISOString()).toBe('2026-03-24T22:00:00.000Z')
	})
})
