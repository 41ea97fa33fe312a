import type { TimeEntry } from '@blocksmith/contracts/time.ts'
import { describe, expect, test } from 'vitest'
import { endAfter, formatElapsed, groupByDay, instantOf, localDay, overlappingIds, secondsOf } from './entries.ts'

function entry(id: string, start: Date, end: Date | null): TimeEntry {
	return {
		id,
		databaseId: 'db1',
		userId: 'u1',
		startedAt: start.toISOString(),
		endedAt: end?.toISOString() ?? null,
		isRunning: end === null,
		description: null,
		project: null,
		task: null,
		tags: [],
		billable: null,
		rowId: null,
		delivery: 'delivered',
	}
}

// Local times: the tests hold in whatever zone the machine runs in.
const at = (day: string, time: string) => instantOf(day, time) as Date

describe('entries arithmetic', () => {
	test('a running entry counts up to now; the clock shows hours, minutes and seconds', () => {
		const now = at('2026-11-26', '10:00').getTime() + 9000
		expect(secondsOf(entry('a', at('2026-11-26', '09:56'), null), now)).toBe(249)
		expect(formatElapsed(249)).toBe('0:04:09')
		expect(formatElapsed(45_000)).toBe('12:30:00')
	})

	test('entries group by the local day they start on, newest first, with day totals', () => {
		const now = at('2026-11-26', '18:00').getTime()
		const groups = groupByDay(
			[
				entry('old', at('2026-11-24', '09:00'), at('2026-11-24', '10:30')),
				entry('a', at('2026-11-26', '09:00'), at('2026-11-26', '10:00')),
				entry('b', at('2026-11-26', '11:00'), at('2026-11-26', '11:30')),
				entry('late', at('2026-11-25', '23:00'), at('2026-11-26', '01:00')),
			],
			now,
			'en-GB',
		)
		expect(groups.map((group) => [group.label, group.entries.map((e) => e.id), group.totalSeconds])).toEqual([
			['Today', ['b', 'a'], 5400],
			['Yesterday', ['late'], 7200],
			['Tue 24 Nov', ['old'], 5400],
		])
	})

	test('overlapping entries are flagged, both of them; touching ones are not', () => {
		const now = at('2026-11-26', '18:00').getTime()
		const flagged = overlappingIds(
			[
				entry('a', at('2026-11-26', '09:00'), at('2026-11-26', '12:00')),
				entry('b', at('2026-11-26', '10:00'), at('2026-11-26', '10:30')),
				entry('c', at('2026-11-26', '11:00'), at('2026-11-26', '11:15')),
				entry('d', at('2026-11-26', '12:00'), at('2026-11-26', '13:00')),
				entry('running', at('2026-11-26', '17:00'), null),
				entry('e', at('2026-11-26', '17:30'), at('2026-11-26', '17:45')),
			],
			now,
		)
		expect([...flagged].sort()).toEqual(['a', 'b', 'c', 'e', 'running'])
	})

	test('an end before the start is on the next day; bad dates and times are null', () => {
		const start = at('2026-11-26', '22:00')
		expect(localDay(endAfter(start, '01:30') as Date)).toBe('2026-11-27')
		expect(localDay(endAfter(start, '23:00') as Date)).toBe('2026-11-26')
		expect(instantOf('2026-02-30', '10:00')).toBeNull()
		expect(instantOf('2026-11-26', '24:10')).toBeNull()
		expect(instantOf('', '10:00')).toBeNull()
	})
})
