import { describe, expect, test } from 'vitest'
import { instantToLocal, localToInstant, timeZones } from './time-zone.ts'

describe('closing times', () => {
	test('read a wall-clock time in the chosen zone, with its offset of that day', () => {
		expect(localToInstant('2026-07-01T18:00', 'Europe/Paris')).toBe('2026-07-01T18:00:00+02:00')
		expect(localToInstant('2026-01-15T09:30', 'Europe/Paris')).toBe('2026-01-15T09:30:00+01:00')
		expect(localToInstant('2026-01-15T09:30', 'America/New_York')).toBe('2026-01-15T09:30:00-05:00')
		expect(localToInstant('2026-01-15T09:30', 'Asia/Kolkata')).toBe('2026-01-15T09:30:00+05:30')
		expect(localToInstant('2026-01-15T09:30', 'UTC')).toBe('2026-01-15T09:30:00+00:00')
		expect(localToInstant('', 'UTC')).toBeNull()
	})

	test('show an instant as the wall-clock time of the zone', () => {
		expect(instantToLocal('2026-07-01T16:00:00Z', 'Europe/Paris')).toBe('2026-07-01T18:00')
		expect(instantToLocal('2026-07-01T18:00:00+02:00', 'America/New_York')).toBe('2026-07-01T12:00')
		expect(instantToLocal('nonsense', 'UTC')).toBe('')
	})

	test('list the zones, with the current one even if unknown', () => {
		expect(timeZones('Europe/Paris')).toContain('Europe/Paris')
		expect(timeZones('UTC')).toContain('UTC')
	})
})
