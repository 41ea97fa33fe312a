import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { describe, expect, test } from 'vitest'
import { AppError } from '#src/lib/errors.ts'
import { convertValue, sameValue, validateRowValues } from './values.ts'

const options = [
	{ id: 'a', name: 'Alpha', color: 'blue' as const },
	{ id: 'b', name: 'Beta', color: 'green' as const },
]
const as = (type: Property['type'], extra: Partial<Property> = {}): Property => ({
	id: 'p',
	name: 'Field',
	type,
	...extra,
})

describe('validateRowValues', () => {
	test('normalises what it accepts', () => {
		const properties = [
			as('select', { options }),
			{ ...as('multi_select', { options }), id: 'm' },
			{ ...as('date'), id: 'd' },
		]
		expect(validateRowValues(properties, { p: 'b', m: ['Alpha', 'Alpha', 'b'], d: '2026-02-01' })).toEqual({
			p: 'Beta',
			m: ['Alpha', 'Beta'],
			d: { start: '2026-02-01', end: null, timeZone: null },
		})
	})

	test('names every offending property in one problem', () => {
		const properties = [as('number'), { ...as('email'), id: 'e', name: 'Mail' }]
		try {
			validateRowValues(properties, { p: '3', e: 'nope' })
			expect.unreachable()
		} catch (error) {
			expect(error).toBeInstanceOf(AppError)
			expect((error as AppError).errors?.map((e) => e.field)).toEqual(['values.p', 'values.e'])
		}
	})

	test('refuses computed properties and list values past the limit', () => {
		expect(() => validateRowValues([as('formula')], { p: 1 })).toThrow(/computed/)
		expect(() => validateRowValues([as('relation')], { p: Array.from({ length: 101 }, (_, i) => `r${i}`) })).toThrow(
			/at most 100/,
		)
	})
})

describe('convertValue, after a change of type', () => {
	test('numbers and text carry over both ways', () => {
		expect(convertValue(as('rich_text'), 12.5)).toBe('12.5')
		expect(convertValue(as('number'), ' 42 ')).toBe(42)
		expect(convertValue(as('number'), 'forty-two')).toBeUndefined()
	})

	test('options become text, a single option a one-item multi-select, listed text the options it names', () => {
		expect(convertValue(as('rich_text'), 'Alpha')).toBe('Alpha')
		expect(convertValue(as('multi_select', { options }), 'Beta')).toEqual(['Beta'])
		expect(convertValue(as('multi_select', { options }), 'Alpha, Gamma, Beta')).toEqual(['Alpha', 'Beta'])
		expect(convertValue(as('select', { options }), ['Beta', 'Alpha'])).toBe('Beta')
		expect(convertValue(as('select', { options }), 'Gamma')).toBeUndefined()
	})

	test('checkboxes and dates from their text', () => {
		expect(convertValue(as('checkbox'), 'Yes')).toBe(true)
		expect(convertValue(as('checkbox'), 'no')).toBe(false)
		expect(convertValue(as('rich_text'), true)).toBe('Yes')
		expect(convertValue(as('date'), '2026-03-04')).toEqual({ start: '2026-03-04', end: null, timeZone: null })
		expect(convertValue(as('rich_text'), { start: '2026-03-04', end: '2026-03-05', timeZone: null })).toBe(
			'2026-03-04 → 2026-03-05',
		)
	})
})

test('sameValue ignores list order and surrounding blanks, not content', () => {
	expect(sameValue(['a', 'b'], ['b', 'a'])).toBe(true)
	expect(sameValue(' x ', 'x')).toBe(true)
	expect(sameValue(null, '')).toBe(true)
	expect(sameValue('x', 'y')).toBe(false)
	expect(
		sameValue({ start: '2026-01-01', end: null, timeZone: 'UTC' }, { start: '2026-01-01', end: null, timeZone: null }),
	).toBe(true)
})
