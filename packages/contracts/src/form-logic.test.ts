import { describe, expect, test } from 'vitest'
import { contentKinds, type FieldKind, fieldKinds } from './form-kinds.ts'
import { conditionSchema, formLogicSchema, logicRuleSchema } from './form-logic.ts'
import {
	type Condition,
	type ConditionOperator,
	checkLogicReferences,
	conditionOperators,
	evaluateLogic,
	type LogicField,
	type LogicRule,
	visibleAnswers,
} from './form-rules.ts'

// This suite is meant to run in the browser and on the server too: no Node or DOM APIs in here.

const field = (id: string, kind: FieldKind = 'short_text', required = false): LogicField => ({ id, kind, required })

let ruleCount = 0
function rule(
	action: LogicRule['action'],
	fieldIds: string[],
	conditions: Condition[],
	match: LogicRule['match'] = 'all',
): LogicRule {
	ruleCount += 1
	return { id: `r${ruleCount}`, match, conditions, action, fieldIds }
}
const when = (fieldId: string, operator: ConditionOperator, value?: Condition['value']): Condition =>
	value === undefined ? { fieldId, operator } : { fieldId, operator, value }

/** Whether a condition on a field of `kind` holding `answer` matches (it shows a target field). */
function matches(kind: FieldKind, answer: unknown, operator: ConditionOperator, value?: Condition['value']): boolean {
	const states = evaluateLogic(
		[field('q', kind), field('target')],
		[rule('show', ['target'], [when('q', operator, value)])],
		{
			q: answer,
		},
	)
	return states.target?.visible ?? false
}

const visibleIds = (states: Record<string, { visible: boolean }>) =>
	Object.entries(states)
		.filter(([, state]) => state.visible)
		.map(([id]) => id)

type Case = [answer: unknown, operator: ConditionOperator, value: Condition['value'], expected: boolean]

describe('text kinds', () => {
	const cases: Case[] = [
		['Hello', 'equals', ' hello ', true],
		['  Hello  ', 'equals', 'HELLO', true],
		['Hello', 'equals', 'hell', false],
		['Hello', 'not_equals', 'world', true],
		['Hello', 'not_equals', 'HELLO', false],
		[undefined, 'not_equals', 'x', true],
		['Hello world', 'contains', 'LO W', true],
		['Hello', 'contains', 'xyz', false],
		['Hello', 'not_contains', 'xyz', true],
		['Hello', 'not_contains', 'ELL', false],
		['', 'is_empty', undefined, true],
		['   ', 'is_empty', undefined, true],
		[undefined, 'is_empty', undefined, true],
		[null, 'is_empty', undefined, true],
		['a', 'is_empty', undefined, false],
		['a', 'is_not_empty', undefined, true],
		['  ', 'is_not_empty', undefined, false],
		['42', 'equals', 42, true],
		[42, 'is_empty', undefined, true],
		[42, 'equals', 42, false],
		['true', 'equals', true, false],
		['x', 'not_equals', true, false],
		['x', 'not_equals', '', false],
		['', 'equals', '', false],
		['5', 'greater_than', 4, false],
		['5', 'less_or_equal', 9, false],
		['2024-05-01', 'before', '2024-06-01', false],
		['2024-05-01', 'after', '2024-01-01', false],
	]
	for (const kind of ['short_text', 'long_text', 'url', 'email', 'phone'] as const) {
		test.each(cases)(`${kind}: %j %s %j → %s`, (answer, operator, value, expected) => {
			expect(matches(kind, answer, operator, value)).toBe(expected)
		})
	}
})

describe('number', () => {
	test.each<Case>([
		[5, 'equals', 5, true],
		[5, 'equals', '5', true],
		[5, 'equals', ' 5.0 ', true],
		[1000, 'equals', '1e3', true],
		[-2.5, 'equals', '-2.5', true],
		[5, 'equals', 'five', false],
		[16, 'equals', '0x10', false],
		[5, 'not_equals', 'five', false],
		[5, 'not_equals', 4, true],
		[5, 'not_equals', 5, false],
		[undefined, 'not_equals', 5, true],
		[5, 'greater_than', 4, true],
		[5, 'greater_than', 5, false],
		[5, 'greater_or_equal', 5, true],
		[4, 'greater_or_equal', 5, false],
		[4, 'less_than', '5', true],
		[5, 'less_than', 5, false],
		[5, 'less_or_equal', 5, true],
		[6, 'less_or_equal', 5, false],
		[0, 'greater_than', -1, true],
		[undefined, 'less_than', 5, false],
		[undefined, 'greater_or_equal', 0, false],
		['5', 'equals', 5, false],
		['5', 'is_empty', undefined, true],
		[null, 'is_empty', undefined, true],
		[Number.NaN, 'is_empty', undefined, true],
		[0, 'is_empty', undefined, false],
		[0, 'is_not_empty', undefined, true],
		[5, 'equals', true, false],
		[5, 'greater_than', null, false],
		[5, 'contains', 5, false],
		[5, 'not_contains', 6, false],
		[5, 'before', '2024-01-01', false],
		[5, 'after', 1, false],
	])('%j %s %j → %s', (answer, operator, value, expected) => {
		expect(matches('number', answer, operator, value)).toBe(expected)
	})
})

describe('select and status', () => {
	const cases: Case[] = [
		['Pro', 'equals', 'pro', true],
		['Pro', 'equals', ' Pro ', true],
		['Pro Plus', 'equals', 'Pro', false],
		['Pro', 'contains', 'pro', true],
		['Pro Plus', 'contains', 'Pro', false],
		['Pro', 'not_equals', 'Free', true],
		['Pro', 'not_equals', 'Pro', false],
		[null, 'not_equals', 'Pro', true],
		['Pro', 'not_contains', 'Free', true],
		['Pro', 'not_contains', 'PRO', false],
		['', 'is_empty', undefined, true],
		[null, 'is_empty', undefined, true],
		['Pro', 'is_not_empty', undefined, true],
		[['Pro'], 'equals', 'Pro', false],
		[['Pro'], 'is_empty', undefined, true],
		['1', 'equals', 1, true],
		['Pro', 'equals', false, false],
		['Pro', 'greater_than', 'A', false],
		['Pro', 'after', '2024-01-01', false],
	]
	for (const kind of ['select', 'status'] as const) {
		test.each(cases)(`${kind}: %j %s %j → %s`, (answer, operator, value, expected) => {
			expect(matches(kind, answer, operator, value)).toBe(expected)
		})
	}
})

describe('multi_select', () => {
	test.each<Case>([
		[['Music', 'Art'], 'equals', 'music', true],
		[['Music', 'Art'], 'contains', ' Art ', true],
		[['Art'], 'equals', 'Music', false],
		[['Art'], 'contains', 'Music', false],
		[['Musicals'], 'contains', 'Music', false],
		[['Art'], 'not_equals', 'Music', true],
		[['Music'], 'not_equals', 'music', false],
		[['Music'], 'not_contains', 'Music', false],
		[[], 'not_contains', 'Music', true],
		[[], 'is_empty', undefined, true],
		[undefined, 'is_empty', undefined, true],
		[['  '], 'is_empty', undefined, true],
		[['a'], 'is_not_empty', undefined, true],
		['Music', 'is_empty', undefined, true],
		['Music', 'contains', 'Music', false],
		[[1, 'Music', null], 'contains', 'music', true],
		[['Music'], 'equals', true, false],
		[['Music'], 'greater_than', 1, false],
		[['Music'], 'before', '2024-01-01', false],
	])('%j %s %j → %s', (answer, operator, value, expected) => {
		expect(matches('multi_select', answer, operator, value)).toBe(expected)
	})
})

describe('people and relation', () => {
	const cases: Case[] = [
		[['u_AbC', 'u_2'], 'contains', 'u_AbC', true],
		[['u_AbC'], 'equals', 'u_AbC', true],
		[['u_AbC'], 'contains', 'u_abc', false],
		[['u_AbC'], 'not_contains', 'u_abc', true],
		[['u_AbC'], 'not_equals', 'u_AbC', false],
		[[], 'is_empty', undefined, true],
		[['u_1'], 'is_not_empty', undefined, true],
		['u_1', 'contains', 'u_1', false],
		[['u_1'], 'less_than', 'u_2', false],
	]
	for (const kind of ['people', 'relation'] as const) {
		test.each(cases)(`${kind}: %j %s %j → %s`, (answer, operator, value, expected) => {
			expect(matches(kind, answer, operator, value)).toBe(expected)
		})
	}
})

describe('checkbox', () => {
	test.each<Case>([
		[true, 'equals', true, true],
		[false, 'equals', true, false],
		[false, 'equals', false, true],
		[undefined, 'equals', false, true],
		[true, 'equals', false, false],
		[false, 'not_equals', true, true],
		[true, 'not_equals', true, false],
		[false, 'is_empty', undefined, true],
		[undefined, 'is_empty', undefined, true],
		[true, 'is_empty', undefined, false],
		[true, 'is_not_empty', undefined, true],
		['yes', 'is_empty', undefined, true],
		['true', 'equals', true, false],
		[true, 'equals', 'true', false],
		[true, 'not_equals', 'false', false],
		[true, 'equals', 1, false],
		[true, 'contains', true, false],
		[true, 'greater_than', 0, false],
		[true, 'before', '2024-01-01', false],
	])('%j %s %j → %s', (answer, operator, value, expected) => {
		expect(matches('checkbox', answer, operator, value)).toBe(expected)
	})
})

describe('date', () => {
	const day = (start: string, end: string | null = null) => ({ start, end, timeZone: null })
	test.each<Case>([
		[day('2024-05-01'), 'equals', '2024-05-01', true],
		[day('2024-05-01'), 'equals', '2024-05-02', false],
		[day('2024-05-01'), 'not_equals', '2024-05-02', true],
		[day('2024-05-01'), 'not_equals', '2024-05-01', false],
		[day('2024-05-01'), 'before', '2024-05-02', true],
		[day('2024-05-01'), 'before', '2024-05-01', false],
		[day('2024-05-01'), 'after', '2024-04-30', true],
		[day('2024-05-01'), 'after', '2024-05-01', false],
		[day('2024-05-01'), 'less_than', '2024-06-01', true],
		[day('2024-05-01'), 'greater_than', '2024-04-01', true],
		[day('2024-05-01'), 'greater_than', '2024-05-01', false],
		[day('2024-05-01'), 'greater_or_equal', '2024-05-01', true],
		[day('2024-05-01'), 'greater_or_equal', '2024-05-02', false],
		[day('2024-05-01'), 'less_or_equal', '2024-05-01', true],
		[day('2024-05-01'), 'less_or_equal', '2024-04-30', false],
		[day('2024-05-01'), 'after', ' 2024-04-30 ', true],
		// Date-time answer against a day: the day as the visitor wrote it, in their zone.
		[day('2024-05-01T23:30:00+02:00'), 'equals', '2024-05-01', true],
		[day('2024-05-01T23:30:00+02:00'), 'before', '2024-05-02', true],
		// Date-time against date-time: instants (23:30+02:00 is 21:30Z).
		[day('2024-05-01T23:30:00+02:00'), 'after', '2024-05-01T21:00:00Z', true],
		[day('2024-05-01T23:30:00+02:00'), 'before', '2024-05-01T22:00:00+00:00', true],
		[day('2024-05-01T23:30:00+02:00'), 'equals', '2024-05-01T21:30:00.000Z', true],
		[day('2024-05-01T23:30:00+02:00'), 'equals', '2024-05-01T23:30:00Z', false],
		[day('2024-05-01T00:30-05:00'), 'after', '2024-05-01T05:00Z', true],
		[day('2024-05-01T10:00:00.123456+00:00'), 'after', '2024-05-01T10:00:00.122Z', true],
		// A day answer against a date-time value: days.
		[day('2024-05-01'), 'before', '2024-05-02T00:30:00+05:00', true],
		[day('2024-05-01'), 'equals', '2024-05-01T18:00:00-07:00', true],
		// Conditions test `start` only.
		[day('2024-05-01', '2024-06-01'), 'after', '2024-05-15', false],
		[day('0050-01-01'), 'before', '1950-01-01', true],
		[day('0050-01-01T00:00:00Z'), 'before', '1950-01-01T00:00:00Z', true],
		[day('2024-02-29'), 'equals', '2024-02-29', true],
		[day('2023-02-29'), 'is_empty', undefined, true],
		[day('2024-13-01'), 'is_empty', undefined, true],
		[day('2024-05-01T24:00:00Z'), 'is_empty', undefined, true],
		[day('2024-05-01T10:00:00'), 'is_empty', undefined, true],
		[day('May 1, 2024'), 'is_empty', undefined, true],
		['2024-05-01', 'is_empty', undefined, true],
		[{ start: 20240501 }, 'is_empty', undefined, true],
		[null, 'is_empty', undefined, true],
		[day('2024-05-01'), 'is_not_empty', undefined, true],
		[undefined, 'before', '2024-05-01', false],
		[undefined, 'not_equals', '2024-05-01', true],
		[day('2024-05-01'), 'equals', 'May 1', false],
		[day('2024-05-01'), 'not_equals', 'May 1', false],
		[day('2024-05-01'), 'before', 20240502, false],
		[day('2024-05-01'), 'after', true, false],
		[day('2024-05-01'), 'contains', '2024', false],
		[day('2024-05-01'), 'not_contains', '2023', false],
	])('%j %s %j → %s', (answer, operator, value, expected) => {
		expect(matches('date', answer, operator, value)).toBe(expected)
	})
})

describe('files', () => {
	const file = { blobId: 'b1', name: 'cv.pdf' }
	test.each<Case>([
		[[file], 'is_empty', undefined, false],
		[[file], 'is_not_empty', undefined, true],
		[[], 'is_empty', undefined, true],
		[undefined, 'is_empty', undefined, true],
		[null, 'is_not_empty', undefined, false],
		['cv.pdf', 'is_empty', undefined, true],
		[['cv.pdf'], 'is_empty', undefined, true],
		[[file], 'equals', 'cv.pdf', false],
		[[file], 'not_equals', 'cv.pdf', false],
		[[file], 'contains', 'cv', false],
		[[file], 'not_contains', 'cv', false],
		[[file], 'greater_than', 0, false],
	])('%j %s %j → %s', (answer, operator, value, expected) => {
		expect(matches('files', answer, operator, value)).toBe(expected)
	})
})

describe('operators that do not apply', () => {
	const odd: unknown[] = [undefined, null, '', 'x', 0, 1, -1, true, false, [], ['x'], {}, { start: 1 }, Number.NaN]
	const values: Condition['value'][] = [undefined, null, '', 'x', '1', '2024-05-01', 0, 1, true, false, Number.NaN]
	// Tens of thousands of evaluations: more time than the default on a busy machine.
	test('every operator on every kind, with odd answers and values, gives a boolean and never throws', () => {
		for (const kind of fieldKinds) {
			for (const operator of conditionOperators) {
				for (const answer of odd) {
					for (const value of values) {
						expect(typeof matches(kind, answer, operator, value)).toBe('boolean')
					}
				}
			}
		}
	}, 30_000)

	test('a comparing operator without a value never matches, not even negated', () => {
		for (const kind of fieldKinds) {
			for (const operator of conditionOperators.filter((op) => op !== 'is_empty' && op !== 'is_not_empty')) {
				expect(matches(kind, undefined, operator)).toBe(false)
				expect(matches(kind, undefined, operator, null)).toBe(false)
			}
		}
	})
})

describe('rules', () => {
	const fields = [field('a'), field('b'), field('target')]

	test.each([
		['all', 'yes', 'yes', true],
		['all', 'yes', 'no', false],
		['all', 'no', 'no', false],
		['any', 'yes', 'no', true],
		['any', 'no', 'yes', true],
		['any', 'no', 'no', false],
	] as const)('match %s with a=%s, b=%s → %s', (match, a, b, expected) => {
		const logic = [rule('show', ['target'], [when('a', 'equals', 'yes'), when('b', 'equals', 'yes')], match)]
		expect(evaluateLogic(fields, logic, { a, b }).target?.visible).toBe(expected)
	})

	test('a field no rule targets is visible and keeps its own required', () => {
		const states = evaluateLogic([field('a', 'short_text', true), field('b')], [], {})
		expect(states).toEqual({ a: { visible: true, required: true }, b: { visible: true, required: false } })
	})

	test('a field targeted by a show rule is hidden until one of its show rules matches', () => {
		const logic = [
			rule('show', ['target'], [when('a', 'equals', 'yes')]),
			rule('show', ['target'], [when('b', 'equals', 'yes')]),
		]
		expect(evaluateLogic(fields, logic, {}).target?.visible).toBe(false)
		expect(evaluateLogic(fields, logic, { a: 'no', b: 'no' }).target?.visible).toBe(false)
		expect(evaluateLogic(fields, logic, { b: 'yes' }).target?.visible).toBe(true)
	})

	test('a matching hide rule hides, and wins over a matching show rule', () => {
		const hide = rule('hide', ['target'], [when('a', 'equals', 'yes')])
		const show = rule('show', ['target'], [when('b', 'equals', 'yes')])
		expect(evaluateLogic(fields, [hide], { a: 'no' }).target?.visible).toBe(true)
		expect(evaluateLogic(fields, [hide], { a: 'yes' }).target?.visible).toBe(false)
		expect(evaluateLogic(fields, [hide, show], { a: 'yes', b: 'yes' }).target?.visible).toBe(false)
		expect(evaluateLogic(fields, [show, hide], { a: 'yes', b: 'yes' }).target?.visible).toBe(false)
		expect(evaluateLogic(fields, [hide, show], { a: 'no', b: 'yes' }).target?.visible).toBe(true)
	})

	test('require and unrequire change required; unrequire wins', () => {
		const require = rule('require', ['target'], [when('a', 'equals', 'yes')])
		const unrequire = rule('unrequire', ['target'], [when('b', 'equals', 'yes')])
		expect(evaluateLogic(fields, [require], { a: 'no' }).target).toEqual({ visible: true, required: false })
		expect(evaluateLogic(fields, [require], { a: 'yes' }).target).toEqual({ visible: true, required: true })
		expect(evaluateLogic(fields, [require, unrequire], { a: 'yes', b: 'yes' }).target?.required).toBe(false)
		expect(evaluateLogic(fields, [unrequire, require], { a: 'yes', b: 'yes' }).target?.required).toBe(false)
		expect(evaluateLogic(fields, [require, unrequire], { a: 'yes', b: 'no' }).target?.required).toBe(true)
	})

	test('unrequire makes a required field optional', () => {
		const logic = [rule('unrequire', ['target'], [when('a', 'is_not_empty')])]
		const requiredFields = [field('a'), field('target', 'email', true)]
		expect(evaluateLogic(requiredFields, logic, {}).target?.required).toBe(true)
		expect(evaluateLogic(requiredFields, logic, { a: 'x' }).target?.required).toBe(false)
	})

	test('a hidden field is never required, whether by itself or by a require rule', () => {
		const requiredFields = [field('a'), field('target', 'short_text', true)]
		const logic = [
			rule('hide', ['target'], [when('a', 'equals', 'hide')]),
			rule('require', ['target'], [when('a', 'is_not_empty')]),
		]
		expect(evaluateLogic(requiredFields, logic, { a: 'hide' }).target).toEqual({ visible: false, required: false })
		expect(evaluateLogic(requiredFields, logic, { a: 'keep' }).target).toEqual({ visible: true, required: true })
		const shown = [rule('show', ['target'], [when('a', 'equals', 'show')])]
		expect(evaluateLogic(requiredFields, shown, {}).target).toEqual({ visible: false, required: false })
	})

	test('require rules read hidden fields as empty too', () => {
		const logic = [
			rule('show', ['b'], [when('a', 'equals', 'yes')]),
			rule('require', ['target'], [when('b', 'is_not_empty')]),
		]
		expect(evaluateLogic(fields, logic, { a: 'yes', b: 'x' }).target?.required).toBe(true)
		expect(evaluateLogic(fields, logic, { a: 'no', b: 'x' }).target?.required).toBe(false)
	})
})

describe('chains settle', () => {
	const fields = [field('a', 'select'), field('b'), field('c', 'checkbox'), field('d')]
	const logic = [
		rule('show', ['b'], [when('a', 'equals', 'Yes')]),
		rule('show', ['c'], [when('b', 'is_not_empty')]),
		rule('show', ['d'], [when('c', 'equals', true)]),
	]

	test('A shows B shows C shows D: taking back A hides the whole chain, stale answers or not', () => {
		expect(visibleIds(evaluateLogic(fields, logic, { a: 'Yes', b: 'x', c: true }))).toEqual(['a', 'b', 'c', 'd'])
		expect(visibleIds(evaluateLogic(fields, logic, { a: 'No', b: 'x', c: true }))).toEqual(['a'])
		expect(visibleIds(evaluateLogic(fields, logic, { a: 'Yes', b: '', c: true }))).toEqual(['a', 'b'])
	})

	test('the order of the rules and of the fields does not matter', () => {
		const answers = { a: 'No', b: 'x', c: true, d: 'y' }
		const expected = evaluateLogic(fields, logic, answers)
		expect(evaluateLogic([...fields].reverse(), [...logic].reverse(), answers)).toEqual(expected)
	})

	test('a hidden field reads as empty for negated and emptiness conditions too', () => {
		const more = [field('a', 'select'), field('b'), field('empty'), field('not')]
		const rules = [
			rule('show', ['b'], [when('a', 'equals', 'Yes')]),
			rule('show', ['empty'], [when('b', 'is_empty')]),
			rule('show', ['not'], [when('b', 'not_equals', 'x')]),
		]
		expect(visibleIds(evaluateLogic(more, rules, { a: 'Yes', b: 'x' }))).toEqual(['a', 'b'])
		expect(visibleIds(evaluateLogic(more, rules, { a: 'No', b: 'x' }))).toEqual(['a', 'empty', 'not'])
	})

	test('a chain through 100 fields, in any rule order, settles at the end', () => {
		const ids = Array.from({ length: 100 }, (_, index) => `f${index}`)
		const long = ids.map((id) => field(id))
		const rules = ids.slice(1).map((id, index) => rule('show', [id], [when(`f${index}`, 'is_not_empty')]))
		const filled = Object.fromEntries(ids.map((id) => [id, 'x']))
		expect(visibleIds(evaluateLogic(long, rules, filled))).toHaveLength(100)
		expect(visibleIds(evaluateLogic(long, [...rules].reverse(), filled))).toHaveLength(100)
		expect(visibleIds(evaluateLogic(long, [...rules].reverse(), { ...filled, f50: '' }))).toHaveLength(51)
	})
})

describe('loops end, the same way every time', () => {
	const runs = (fields: LogicField[], logic: LogicRule[], answers: Record<string, unknown>) =>
		Array.from({ length: 5 }, () => evaluateLogic(fields, logic, answers))

	test('"hide A when A is filled in" hides a filled-in A, and leaves an empty one visible', () => {
		const fields = [field('a')]
		const logic = [rule('hide', ['a'], [when('a', 'is_not_empty')])]
		for (const states of runs(fields, logic, { a: 'x' })) {
			expect(states).toEqual({ a: { visible: false, required: false } })
		}
		expect(evaluateLogic(fields, logic, {}).a?.visible).toBe(true)
	})

	test('fields that show each other cannot keep each other shown', () => {
		const fields = [field('a'), field('b')]
		const logic = [rule('show', ['a'], [when('b', 'is_not_empty')]), rule('show', ['b'], [when('a', 'is_not_empty')])]
		for (const states of runs(fields, logic, { a: 'x', b: 'y' })) {
			expect(visibleIds(states)).toEqual([])
		}
	})

	test('fields that hide each other and keep flipping are both hidden', () => {
		const fields = [field('a'), field('b'), field('c')]
		const logic = [rule('hide', ['a'], [when('b', 'is_not_empty')]), rule('hide', ['b'], [when('a', 'is_not_empty')])]
		for (const states of runs(fields, logic, { a: 'x', b: 'y' })) {
			expect(visibleIds(states)).toEqual(['c'])
		}
		expect(visibleIds(evaluateLogic(fields, logic, { a: 'x' }))).toEqual(['a', 'c'])
	})

	test('a field behind a flipping loop is hidden with it; the rest of the form settles', () => {
		const fields = [field('a'), field('behind'), field('free'), field('other')]
		const logic = [
			rule('hide', ['a'], [when('a', 'is_not_empty')]),
			rule('show', ['behind'], [when('a', 'is_not_empty')]),
			rule('show', ['other'], [when('free', 'equals', 'go')]),
		]
		for (const states of runs(fields, logic, { a: 'x', behind: 'y', free: 'go' })) {
			expect(visibleIds(states)).toEqual(['free', 'other'])
		}
	})

	test('a three-step loop of hides ends the same way every time', () => {
		const fields = [field('a'), field('b'), field('c')]
		const logic = [
			rule('hide', ['b'], [when('a', 'is_not_empty')]),
			rule('hide', ['c'], [when('b', 'is_not_empty')]),
			rule('hide', ['a'], [when('c', 'is_not_empty')]),
		]
		const answers = { a: '1', b: '2', c: '3' }
		const [first, ...rest] = runs(fields, logic, answers)
		for (const states of rest) {
			expect(states).toEqual(first)
		}
		expect(evaluateLogic([...fields].reverse(), [...logic].reverse(), answers)).toEqual(first)
	})
})

describe('stale references', () => {
	const fields = [field('a'), field('target')]

	test('a condition on a field that is not in the form never matches, whatever the operator', () => {
		for (const operator of conditionOperators) {
			const logic = [rule('show', ['target'], [when('gone', operator, 'x')])]
			expect(evaluateLogic(fields, logic, { gone: 'x' }).target?.visible).toBe(false)
		}
	})

	test('under any, the other conditions still count', () => {
		const logic = [rule('show', ['target'], [when('gone', 'is_empty'), when('a', 'equals', 'yes')], 'any')]
		expect(evaluateLogic(fields, logic, { a: 'yes' }).target?.visible).toBe(true)
		expect(evaluateLogic(fields, logic, { a: 'no' }).target?.visible).toBe(false)
	})

	test('targets that are not in the form are ignored and get no state', () => {
		const logic = [rule('hide', ['gone', 'target'], [when('a', 'equals', 'yes')])]
		const states = evaluateLogic(fields, logic, { a: 'yes', gone: 'x' })
		expect(states).toEqual({ a: { visible: true, required: false }, target: { visible: false, required: false } })
	})

	test('field ids such as __proto__ and constructor are ordinary keys', () => {
		const odd = [field('__proto__'), field('constructor'), field('target')]
		const logic = [rule('show', ['target'], [when('constructor', 'is_not_empty')], 'any')]
		expect(evaluateLogic(odd, logic, {}).target?.visible).toBe(false)
		const answers = JSON.parse('{"__proto__": "x", "constructor": "y"}') as Record<string, unknown>
		const states = evaluateLogic(odd, logic, answers)
		expect(Object.keys(states)).toEqual(['__proto__', 'constructor', 'target'])
		expect(states.target?.visible).toBe(true)
		expect(Object.keys(visibleAnswers(odd, logic, answers))).toEqual(['__proto__', 'constructor'])
	})
})

describe('visibleAnswers', () => {
	const fields = [field('a', 'select'), field('b'), field('c', 'number'), field('d', 'checkbox')]
	const logic = [
		rule('show', ['b'], [when('a', 'equals', 'Yes')]),
		rule('hide', ['c'], [when('b', 'contains', 'secret')]),
	]

	test('drops the answers to hidden fields and keeps the others as they are', () => {
		expect(visibleAnswers(fields, logic, { a: 'No', b: 'stale', c: 3, d: false })).toEqual({ a: 'No', c: 3, d: false })
		expect(visibleAnswers(fields, logic, { a: 'Yes', b: 'a secret', c: 3 })).toEqual({ a: 'Yes', b: 'a secret' })
		expect(visibleAnswers(fields, logic, { a: 'Yes', b: 'open', c: 'not a number' })).toEqual({
			a: 'Yes',
			b: 'open',
			c: 'not a number',
		})
	})

	test('drops answers to ids that are no field of the form, and adds none', () => {
		expect(visibleAnswers(fields, logic, { a: 'No', extra: 'x' })).toEqual({ a: 'No' })
		expect(visibleAnswers(fields, [], {})).toEqual({})
	})

	test('what it keeps evaluates the same as what came in', () => {
		const answers = { a: 'No', b: 'a secret', c: 3 }
		const kept = visibleAnswers(fields, logic, answers)
		expect(evaluateLogic(fields, logic, kept)).toEqual(evaluateLogic(fields, logic, answers))
		expect(visibleAnswers(fields, logic, kept)).toEqual(kept)
	})
})

/** The path and message of each issue, as a builder would show them. */
function issues(
	schema: { safeParse: (input: unknown) => { error?: { issues: { path: PropertyKey[]; message: string }[] } } },
	input: unknown,
) {
	return (schema.safeParse(input).error?.issues ?? []).map((issue) => ({
		path: issue.path.join('.'),
		message: issue.message,
	}))
}

describe('schemas', () => {
	const valid = {
		id: 'r1',
		match: 'all',
		conditions: [{ fieldId: 'a', operator: 'equals', value: 'yes' }],
		action: 'show',
		fieldIds: ['b'],
	}

	test('a valid rule parses as it is', () => {
		expect(logicRuleSchema.parse(valid)).toEqual(valid)
		expect(formLogicSchema.parse([valid, { ...valid, id: 'r2' }])).toHaveLength(2)
		expect(conditionSchema.parse({ fieldId: 'a', operator: 'is_empty' })).toEqual({
			fieldId: 'a',
			operator: 'is_empty',
		})
	})

	test('comparing operators need a value; is_empty and is_not_empty do not', () => {
		for (const operator of conditionOperators) {
			const result = issues(conditionSchema, { fieldId: 'a', operator })
			if (operator === 'is_empty' || operator === 'is_not_empty') {
				expect(result).toEqual([])
			} else {
				expect(result).toEqual([{ path: 'value', message: 'Enter a value to compare with.' }])
			}
		}
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'equals', value: null })).toEqual([
			{ path: 'value', message: 'Enter a value to compare with.' },
		])
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'contains', value: '   ' })).toEqual([
			{ path: 'value', message: 'Enter a value to compare with.' },
		])
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'equals', value: false })).toEqual([])
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'equals', value: 0 })).toEqual([])
	})

	test('before and after need a date', () => {
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'before', value: 'tomorrow' })).toEqual([
			{ path: 'value', message: 'Enter a date as YYYY-MM-DD.' },
		])
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'after', value: 20240501 })).toEqual([
			{ path: 'value', message: 'Enter a date as YYYY-MM-DD.' },
		])
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'after', value: '2024-05-01' })).toEqual([])
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'before', value: '2024-05-01T10:00:00+02:00' })).toEqual(
			[],
		)
	})

	test('each mistake has a message a builder can show, at its path', () => {
		expect(issues(conditionSchema, { fieldId: '', operator: 'equals', value: 'x' })).toEqual([
			{ path: 'fieldId', message: 'Pick a field.' },
		])
		expect(issues(conditionSchema, { operator: 'equals', value: 'x' })).toEqual([
			{ path: 'fieldId', message: 'Pick a field.' },
		])
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'like', value: 'x' })).toEqual([
			{ path: 'operator', message: 'Pick how to compare.' },
		])
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'equals', value: { start: '2024-05-01' } })).toEqual([
			{ path: 'value', message: 'Use text, a number, true or false.' },
		])
		expect(issues(conditionSchema, { fieldId: 'a', operator: 'equals', value: 'x'.repeat(2001) })).toEqual([
			{ path: 'value', message: 'Use at most 2000 characters.' },
		])
		expect(issues(logicRuleSchema, { ...valid, match: 'some' })).toEqual([
			{ path: 'match', message: 'Pick whether all or any of the conditions must match.' },
		])
		expect(issues(logicRuleSchema, { ...valid, action: 'move' })).toEqual([
			{ path: 'action', message: 'Pick what the rule does: show, hide, require, unrequire or jump.' },
		])
		expect(issues(logicRuleSchema, { ...valid, action: 'jump' })).toEqual([
			{ path: 'toPageId', message: 'Pick the page to go to.' },
		])
		expect(issues(logicRuleSchema, { ...valid, conditions: [] })).toEqual([
			{ path: 'conditions', message: 'Add at least one condition.' },
		])
		expect(issues(logicRuleSchema, { ...valid, conditions: Array(21).fill(valid.conditions[0]) })).toEqual([
			{ path: 'conditions', message: 'A rule has at most 20 conditions.' },
		])
		expect(issues(logicRuleSchema, { ...valid, fieldIds: [] })).toEqual([
			{ path: 'fieldIds', message: 'Pick at least one field for the rule to act on.' },
		])
		expect(issues(logicRuleSchema, { ...valid, fieldIds: Array(101).fill('b') })).toEqual([
			{ path: 'fieldIds', message: 'A rule acts on at most 100 fields.' },
		])
		expect(issues(logicRuleSchema, { ...valid, conditions: [{ fieldId: 'a', operator: 'after' }] })).toEqual([
			{ path: 'conditions.0.value', message: 'Enter a value to compare with.' },
		])
		expect(
			issues(
				formLogicSchema,
				Array.from({ length: 101 }, (_, index) => ({ ...valid, id: `r${index}` })),
			),
		).toEqual([{ path: '', message: 'A form has at most 100 rules.' }])
		expect(issues(formLogicSchema, [valid, { ...valid }])).toEqual([
			{ path: '1.id', message: 'Another rule has the same id.' },
		])
	})
})

describe('checkLogicReferences', () => {
	test('good logic has no problems', () => {
		const logic = [
			rule('show', ['b'], [when('a', 'equals', 'yes')]),
			rule('require', ['c'], [when('b', 'is_not_empty')]),
			rule('require', ['c'], [when('c', 'contains', '@')]),
		]
		expect(checkLogicReferences(['a', 'b', 'c'], logic)).toEqual([])
	})

	test('names fields that are not in the form and comparisons without a value, by path', () => {
		const logic = [
			rule('show', ['b'], [when('a', 'equals', 'yes')]),
			rule('hide', ['b', 'gone'], [when('a', 'equals', 'x'), when('removed', 'is_empty'), when('a', 'greater_than')]),
			rule('show', ['c'], [when('a', 'before', 'soon')]),
		]
		expect(checkLogicReferences(['a', 'b', 'c'], logic)).toEqual([
			{ path: 'logic.1.conditions.1.fieldId', message: 'This field is not in the form.' },
			{ path: 'logic.1.conditions.2.value', message: 'Enter a value to compare with.' },
			{ path: 'logic.1.fieldIds.1', message: 'This field is not in the form.' },
			{ path: 'logic.2.conditions.0.value', message: 'Enter a date as YYYY-MM-DD.' },
		])
	})

	test('names show and hide rules that loop, directly or through other rules, but not require rules', () => {
		const loop = 'The rule shows or hides a field that its own conditions depend on (directly or through other rules).'
		expect(checkLogicReferences(['a'], [rule('hide', ['a'], [when('a', 'is_not_empty')])])).toEqual([
			{ path: 'logic.0.fieldIds.0', message: loop },
		])
		const threeWay = [
			rule('show', ['b'], [when('a', 'is_not_empty')]),
			rule('show', ['c'], [when('b', 'is_not_empty')]),
			rule('hide', ['d', 'a'], [when('c', 'is_not_empty')]),
		]
		expect(checkLogicReferences(['a', 'b', 'c', 'd'], threeWay)).toEqual([
			{ path: 'logic.0.fieldIds.0', message: loop },
			{ path: 'logic.1.fieldIds.0', message: loop },
			{ path: 'logic.2.fieldIds.1', message: loop },
		])
		expect(checkLogicReferences(['a'], [rule('unrequire', ['a'], [when('a', 'is_empty')])])).toEqual([])
	})
})

// ---- property-style: random forms, rules and answers --------------------------------------

/** A small seeded PRNG (mulberry32), so that a failure can be replayed. */
function prng(seed: number): () => number {
	let state = seed
	return () => {
		state = (state + 0x6d2b79f5) | 0
		let t = Math.imul(state ^ (state >>> 15), 1 | state)
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

describe('on random forms and answers', () => {
	const random = prng(20240501)
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
	const strings = ['', ' ', 'a', 'A ', 'ab', 'Yes', 'yes', '1', '2.5', 'x', 'u_1', '2024-05-01', '2024-05-01T10:00:00Z']
	const answerPool: unknown[] = [
		...strings,
		undefined,
		null,
		0,
		1,
		-3,
		2.5,
		Number.NaN,
		true,
		false,
		[],
		['a'],
		['Yes', 'x'],
		['u_1', 2],
		{},
		{ start: '2024-05-01', end: null, timeZone: null },
		{ start: '2024-05-02T23:30:00+02:00', end: null, timeZone: 'Europe/Paris' },
		{ start: 'bad' },
		{ start: 7 },
		[[1]],
	]
	const valuePool: Condition['value'][] = [...strings, undefined, null, 0, 1, 2.5, -1, true, false]
	const ids = Array.from({ length: 12 }, (_, index) => `f${index}`)

	// Page breaks and calculations depend on the order of the fields (form-rules-pages.test.ts tests
	// them on random forms); everything else here must not.
	const orderFreeKinds = fieldKinds.filter((kind) => kind !== 'page_break' && kind !== 'calculated')
	function randomForm(): { fields: LogicField[]; rules: LogicRule[] } {
		const fields = ids.map((id) => field(id, pick(orderFreeKinds), random() < 0.3))
		const rules = Array.from({ length: 1 + Math.floor(random() * 8) }, (_, index) => ({
			id: `rule${index}`,
			match: pick(['all', 'any'] as const),
			conditions: Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
				// Now and then a stale id.
				fieldId: random() < 0.1 ? 'gone' : pick(ids),
				operator: pick(conditionOperators),
				value: pick(valuePool),
			})),
			action: pick(['show', 'hide', 'require', 'unrequire'] as const),
			fieldIds: Array.from({ length: 1 + Math.floor(random() * 3) }, () => (random() < 0.05 ? 'gone' : pick(ids))),
		}))
		return { fields, rules }
	}
	const randomAnswers = () => Object.fromEntries(ids.filter(() => random() < 0.8).map((id) => [id, pick(answerPool)]))
	const shuffled = <T>(items: T[]): T[] =>
		items
			.map((item) => ({ item, key: random() }))
			.sort((a, b) => a.key - b.key)
			.map(({ item }) => item)

	test('evaluateLogic never throws, is deterministic and keeps its promises on 400 random answer sets', () => {
		let visibleSeen = 0
		let hiddenSeen = 0
		for (let run = 0; run < 400; run++) {
			const { fields, rules } = randomForm()
			const answers = randomAnswers()
			const states = evaluateLogic(fields, rules, answers)
			expect(evaluateLogic(fields, rules, answers)).toEqual(states)
			expect(evaluateLogic(shuffled(fields), shuffled(rules), answers)).toEqual(states)
			expect(Object.keys(states).sort()).toEqual([...ids].sort())
			for (const [id, state] of Object.entries(states)) {
				if (!state.visible) {
					expect(state.required).toBe(false)
					hiddenSeen += 1
				} else {
					visibleSeen += 1
				}
				const isContent = contentKinds.some((kind) => kind === fields.find((item) => item.id === id)?.kind)
				expect(Object.hasOwn(visibleAnswers(fields, rules, answers), id)).toBe(
					state.visible && Object.hasOwn(answers, id) && !isContent,
				)
			}
			// Without loops hidden answers cannot matter, so storing only the visible ones changes nothing.
			const loops = checkLogicReferences(ids, rules).some((problem) => problem.message.startsWith('The rule shows'))
			if (!loops) {
				expect(evaluateLogic(fields, rules, visibleAnswers(fields, rules, answers))).toEqual(states)
			}
		}
		// The generator must exercise both outcomes for the test to mean anything.
		expect(visibleSeen).toBeGreaterThan(400)
		expect(hiddenSeen).toBeGreaterThan(400)
	})
})
