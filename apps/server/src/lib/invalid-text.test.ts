import { describe, expect, test } from 'vitest'
import { invalidTextErrors } from './invalid-text.ts'

describe('invalidTextErrors', () => {
	test('names each refused string by its path, in the order sent', () => {
		const errors = invalidTextErrors({
			name: 'ok',
			answers: { abc: 'a\u0000b', list: ['fine', 'x\uD800'] },
			events: [{ formId: '\uDC00' }],
		})
		expect(errors.map((error) => error.field)).toEqual(['answers.abc', 'answers.list.1', 'events.0.formId'])
		expect(errors[0]?.message).toMatch(/NUL/)
		expect(errors[1]?.message).toMatch(/lone surrogate/)
	})

	test('names a refused key with the character written out', () => {
		expect(invalidTextErrors({ answers: { 'a\u0000b': 'x', 'c\uD800': 1 } }).map((error) => error.field)).toEqual([
			'answers.a\\u0000b',
			'answers.c\\ud800',
		])
	})

	test('takes well-formed text, surrogate pairs included, and values that are not text', () => {
		expect(
			invalidTextErrors({ name: 'Ada 😀 Lovelace', count: 3, flag: null, when: new Date(0), nested: [[[]]] }),
		).toEqual([])
		expect(invalidTextErrors(undefined)).toEqual([])
	})

	test('walks input nested far deeper than the call stack allows', () => {
		const depth = 200_000
		const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`)
		const errors = invalidTextErrors(deep)
		expect(errors).toHaveLength(1)
		expect(errors[0]?.field.split('.')).toHaveLength(depth)
	})

	test('walks arrays too long to spread into a call', () => {
		const long = Array.from({ length: 300_000 }, () => 'fine')
		long.push('\u0000')
		expect(invalidTextErrors({ list: long }).map((error) => error.field)).toEqual(['list.300000'])
	})

	test('lists at most twenty fields', () => {
		expect(invalidTextErrors(Array.from({ length: 100 }, () => '\u0000'))).toHaveLength(20)
	})
})
