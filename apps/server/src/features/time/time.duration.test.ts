import { describe, expect, test } from 'vitest'
import { AppError } from '#src/lib/errors.ts'
import { parseDurationField } from './time.duration.ts'

describe('parseDurationField', () => {
	test('reads a duration, and an empty or absent cell as null', () => {
		expect(parseDurationField('cells.0.duration', '1:30')).toBe(5400)
		expect(parseDurationField('cells.0.duration', '1,5h')).toBe(5400)
		expect(parseDurationField('cells.0.duration', '0')).toBe(0)
		expect(parseDurationField('cells.0.duration', '  ')).toBeNull()
		expect(parseDurationField('cells.0.duration', null)).toBeNull()
		expect(parseDurationField('cells.0.duration', undefined)).toBeNull()
	})

	test('a bad value is a 400 naming the field, with the parser message', () => {
		let caught: unknown
		try {
			parseDurationField('cells.3.duration', '2d')
		} catch (error) {
			caught = error
		}
		expect(caught).toBeInstanceOf(AppError)
		const error = caught as AppError
		expect(error.code).toBe('VALIDATION_FAILED')
		expect(error.status).toBe(400)
		expect(error.errors).toEqual([
			{ field: 'cells.3.duration', message: expect.stringMatching(/^"2d": days are not accepted/) },
		])
	})

	test('a day cell stops at 24:00 unless the caller sets another limit', () => {
		expect(() => parseDurationField('duration', '25:00')).toThrow(AppError)
		expect(parseDurationField('duration', '25:00', { maxSeconds: 7 * 86_400 })).toBe(90_000)
	})
})
