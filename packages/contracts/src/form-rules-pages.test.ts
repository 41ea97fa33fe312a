import { describe, expect, test } from 'vitest'
import type { FieldKind } from './form-kinds.ts'
import {
	type Condition,
	type ConditionOperator,
	checkFormRules,
	evaluateForm,
	evaluateLogic,
	formPages,
	type LogicField,
	type LogicRule,
	nextPageId,
	visibleAnswers,
} from './form-rules.ts'

// Pages, jump rules and skipped fields (the "Pages and jumps" part of form-rules.ts's header).
// No Node or DOM APIs in here: the rules run in the browser too.

const field = (id: string, kind: FieldKind = 'short_text', required = false): LogicField => ({ id, kind, required })
const pageBreak = (id: string): LogicField => field(id, 'page_break')
const when = (fieldId: string, operator: ConditionOperator, value?: Condition['value']): Condition =>
	value === undefined ? { fieldId, operator } : { fieldId, operator, value }

let ruleCount = 0
function rule(action: LogicRule['action'], fieldIds: string[], conditions: Condition[]): LogicRule {
	ruleCount += 1
	return { id: `r${ruleCount}`, match: 'all', conditions, action, fieldIds }
}
function jump(toPageId: string, conditions: Condition[], match: LogicRule['match'] = 'all'): LogicRule {
	ruleCount += 1
	return { id: `j${ruleCount}`, match, conditions, action: 'jump', fieldIds: [], toPageId }
}

// start: a, b | p2: c (required) | p3: d | p4: e
const form = [
	field('a'),
	field('b', 'number'),
	pageBreak('p2'),
	field('c', 'short_text', true),
	pageBreak('p3'),
	field('d'),
	pageBreak('p4'),
	field('e', 'short_text', true),
]

describe('formPages', () => {
	test('a form without page breaks is one page, start', () => {
		expect(formPages([field('a'), field('b')])).toEqual([{ id: 'start', index: 0, fieldIds: ['a', 'b'] }])
		expect(formPages([])).toEqual([{ id: 'start', index: 0, fieldIds: [] }])
	})

	test('each page break starts a page that holds it', () => {
		expect(formPages(form)).toEqual([
			{ id: 'start', index: 0, fieldIds: ['a', 'b'] },
			{ id: 'p2', index: 1, fieldIds: ['p2', 'c'] },
			{ id: 'p3', index: 2, fieldIds: ['p3', 'd'] },
			{ id: 'p4', index: 3, fieldIds: ['p4', 'e'] },
		])
	})

	test('a page break that comes first titles the first page instead of leaving it empty', () => {
		expect(formPages([pageBreak('p1'), field('a'), pageBreak('p2'), field('b')])).toEqual([
			{ id: 'start', index: 0, fieldIds: ['p1', 'a'] },
			{ id: 'p2', index: 1, fieldIds: ['p2', 'b'] },
		])
	})
})

describe('the path', () => {
	test('without jumps, every page in order, nothing skipped', () => {
		const evaluation = evaluateForm(form, [], {})
		expect(evaluation.path).toEqual(['start', 'p2', 'p3', 'p4'])
		expect(Object.values(evaluation.fields).every((state) => !state.skipped && state.visible)).toBe(true)
		expect(evaluation.fields.c).toEqual({ visible: true, required: true, skipped: false })
	})

	test('a matching jump skips the pages in between; their fields are hidden and never required', () => {
		const rules = [jump('p4', [when('a', 'equals', 'skip')])]
		const evaluation = evaluateForm(form, rules, { a: 'skip', c: 'typed before going back' })
		expect(evaluation.path).toEqual(['start', 'p4'])
		expect(evaluation.fields.c).toEqual({ visible: false, required: false, skipped: true })
		expect(evaluation.fields.p3).toEqual({ visible: false, required: false, skipped: true })
		expect(evaluation.fields.e).toEqual({ visible: true, required: true, skipped: false })
		expect(visibleAnswers(form, rules, { a: 'skip', c: 'typed before going back', e: 'x' })).toEqual({
			a: 'skip',
			e: 'x',
		})
		// evaluateLogic agrees: a skipped field is not visible.
		expect(evaluateLogic(form, rules, { a: 'skip' }).c).toEqual({ visible: false, required: false })
		// Not matching: no skipping.
		expect(evaluateForm(form, rules, { a: 'stay' }).path).toEqual(['start', 'p2', 'p3', 'p4'])
	})

	test('a jump to the end skips every later page', () => {
		const rules = [jump('end', [when('b', 'less_than', 18)])]
		const evaluation = evaluateForm(form, rules, { b: 12 })
		expect(evaluation.path).toEqual(['start'])
		expect(['c', 'd', 'e'].map((id) => evaluation.fields[id]?.skipped)).toEqual([true, true, true])
		expect(nextPageId(form, rules, { b: 12 }, 'start')).toBe('end')
		expect(nextPageId(form, rules, { b: 40 }, 'start')).toBe('p2')
	})

	test('when several jumps of a page match, the earliest target wins, whatever the order of the rules', () => {
		const toEnd = jump('end', [when('a', 'is_not_empty')])
		const toP4 = jump('p4', [when('b', 'greater_than', 5)])
		const toP3 = jump('p3', [when('a', 'contains', 'x')])
		for (const rules of [
			[toEnd, toP4, toP3],
			[toP3, toP4, toEnd],
			[toP4, toEnd, toP3],
		]) {
			expect(evaluateForm(form, rules, { a: 'x', b: 9 }).path).toEqual(['start', 'p3', 'p4'])
			expect(evaluateForm(form, rules, { a: 'y', b: 9 }).path).toEqual(['start', 'p4'])
			expect(evaluateForm(form, rules, { a: 'y', b: 1 }).path).toEqual(['start'])
			expect(evaluateForm(form, rules, { b: 1 }).path).toEqual(['start', 'p2', 'p3', 'p4'])
		}
	})

	test("a jump leaves from the page of its last condition field in form order, whatever the conditions' order", () => {
		// c is on p2, a on start: the jump is taken when leaving p2, so p2 itself is shown.
		const rules = [jump('p4', [when('c', 'equals', 'go'), when('a', 'equals', 'go')])]
		const evaluation = evaluateForm(form, rules, { a: 'go', c: 'go' })
		expect(evaluation.path).toEqual(['start', 'p2', 'p4'])
		expect(evaluation.fields.c?.skipped).toBe(false)
		expect(evaluation.fields.d?.skipped).toBe(true)
		expect(nextPageId(form, rules, { a: 'go', c: 'go' }, 'start')).toBe('p2')
		expect(nextPageId(form, rules, { a: 'go', c: 'go' }, 'p2')).toBe('p4')
		expect(nextPageId(form, rules, { a: 'go', c: 'go' }, 'p4')).toBe('end')
	})

	test('jumps on a skipped page are never taken, and conditions on skipped fields read as empty', () => {
		const rules = [
			jump('p3', [when('a', 'equals', 'skip')]),
			// From p2 (skipped when a is "skip"): would end the form.
			jump('end', [when('c', 'is_not_empty')]),
			// d is shown when c is empty: a skipped c reads as empty, whatever was typed into it.
			rule('show', ['d'], [when('c', 'is_empty')]),
		]
		const evaluation = evaluateForm(form, rules, { a: 'skip', c: 'typed' })
		expect(evaluation.path).toEqual(['start', 'p3', 'p4'])
		expect(evaluation.fields.d).toEqual({ visible: true, required: false, skipped: false })
		// Not skipped, c ends the form.
		expect(evaluateForm(form, rules, { a: 'stay', c: 'typed' }).path).toEqual(['start', 'p2'])
	})

	test('show rules work across pages, and a field hidden by a show rule reads as empty for a jump', () => {
		const rules = [
			rule('show', ['b'], [when('a', 'equals', 'company')]),
			jump('p4', [when('b', 'greater_than', 100)]),
			rule('show', ['e'], [when('b', 'is_not_empty')]),
		]
		// b is hidden (a is not "company"), so its 500 reads as empty: no jump, no e.
		const person = evaluateForm(form, rules, { a: 'person', b: 500 })
		expect(person.path).toEqual(['start', 'p2', 'p3', 'p4'])
		expect(person.fields.e).toEqual({ visible: false, required: false, skipped: false })
		const company = evaluateForm(form, rules, { a: 'company', b: 500 })
		expect(company.path).toEqual(['start', 'p4'])
		expect(company.fields.e).toEqual({ visible: true, required: true, skipped: false })
	})

	test('jumps to a page that is not later, not in the form, or without conditions in the form never apply', () => {
		const answers = { c: 'x', a: 'x' }
		for (const toPageId of ['start', 'p2', 'gone', '']) {
			expect(evaluateForm(form, [jump(toPageId, [when('c', 'is_not_empty')])], answers).path).toEqual([
				'start',
				'p2',
				'p3',
				'p4',
			])
		}
		expect(evaluateForm(form, [jump('p4', [when('gone', 'is_empty')])], answers).path).toHaveLength(4)
		// `end` from the last page is just the end.
		expect(evaluateForm(form, [jump('end', [when('e', 'is_empty')])], {}).path).toHaveLength(4)
	})

	test('nextPageId from a page off the path uses that page, and from an unknown id gives the end', () => {
		const rules = [jump('p4', [when('a', 'equals', 'skip')]), jump('end', [when('d', 'equals', 'stop')])]
		expect(nextPageId(form, rules, { a: 'skip' }, 'p2')).toBe('p3')
		// p3 is off the path; read from it, d is skipped there (empty), so its jump does not match.
		expect(nextPageId(form, rules, { a: 'skip', d: 'stop' }, 'p3')).toBe('p4')
		expect(nextPageId(form, rules, { a: 'stay', d: 'stop' }, 'p3')).toBe('end')
		expect(nextPageId(form, rules, {}, 'nowhere')).toBe('end')
		expect(nextPageId([field('a')], [], {}, 'start')).toBe('end')
	})

	test('content is never required and never has an answer', () => {
		const fields = [{ ...field('h', 'heading'), required: true }, field('a')]
		const evaluation = evaluateForm(fields, [rule('require', ['h'], [when('a', 'is_empty')])], { h: 'x', a: 'y' })
		expect(evaluation.fields.h).toEqual({ visible: true, required: false, skipped: false })
		expect(visibleAnswers(fields, [], { h: 'x', a: 'y' })).toEqual({ a: 'y' })
	})

	test('a loop through a jump still ends, on the hidden side', () => {
		// Hiding a (page 1) when d (page 3) is filled in, and leaving page 1 for the end when a is filled
		// in: each undoes the other. Both end up hidden, neither required.
		const fields = [field('a', 'short_text', true), pageBreak('p2'), field('d', 'short_text', true)]
		const rules = [rule('hide', ['a'], [when('d', 'is_not_empty')]), jump('end', [when('a', 'is_not_empty')])]
		const evaluation = evaluateForm(fields, rules, { a: 'x', d: 'y' })
		expect(evaluation.fields.a).toMatchObject({ visible: false, required: false })
		expect(evaluation.fields.d).toMatchObject({ visible: false, required: false })
		expect(checkFormRules(fields, rules).map((problem) => problem.path)).toEqual(['logic.0.fieldIds.0'])
	})
})

describe('checkFormRules', () => {
	test('names jumps without a valid later target', () => {
		const rules = [
			jump('p2', [when('c', 'is_empty')]),
			jump('start', [when('a', 'is_empty')]),
			jump('gone', [when('a', 'is_empty')]),
			{ ...jump('p3', [when('a', 'is_empty')]), toPageId: undefined },
			jump('p3', [when('a', 'is_empty')]),
			jump('end', [when('e', 'is_empty')]),
		]
		expect(checkFormRules(form, rules)).toEqual([
			{ path: 'logic.0.toPageId', message: expect.stringContaining('Jump to a page after') },
			{ path: 'logic.1.toPageId', message: expect.stringContaining('Jump to a page after') },
			{ path: 'logic.2.toPageId', message: expect.stringContaining('not in the form') },
			{ path: 'logic.3.toPageId', message: 'Pick the page to go to.' },
		])
	})

	test('names conditions on content and require rules on content; show and hide may target content', () => {
		const fields = [field('h', 'heading'), field('a'), pageBreak('p2')]
		const rules = [
			rule('show', ['h', 'p2'], [when('a', 'is_empty')]),
			rule('require', ['h', 'a'], [when('h', 'is_empty')]),
			rule('hide', ['h'], [when('a', 'is_empty')]),
		]
		expect(checkFormRules(fields, rules)).toEqual([
			{ path: 'logic.1.conditions.0.fieldId', message: 'Content has no answer to test: pick a question.' },
			{ path: 'logic.1.fieldIds.0', message: 'Content has no answer to require: pick a question.' },
		])
	})

	test('keeps the reference and loop problems of checkLogicReferences', () => {
		const rules = [rule('show', ['gone'], [when('nope', 'equals', 'x')]), rule('show', ['a'], [when('a', 'is_empty')])]
		expect(checkFormRules([field('a')], rules).map((problem) => problem.path)).toEqual([
			'logic.0.conditions.0.fieldId',
			'logic.0.fieldIds.0',
			'logic.1.fieldIds.0',
		])
	})
})

// ---- property-style: random paged forms -----------------------------------------------------

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

describe('on random paged forms', () => {
	const random = prng(19_2026)
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
	const kinds: FieldKind[] = ['short_text', 'number', 'checkbox', 'page_break', 'page_break', 'heading', 'rating']
	const operators: ConditionOperator[] = ['equals', 'is_empty', 'is_not_empty', 'is_not_empty', 'greater_than']
	const values = ['x', 'y', 3, true, 'A']
	const answers = ['x', 'y', '', 1, 3, 5, true, false, 'A', undefined]
	const shuffled = <T>(items: T[]): T[] =>
		items
			.map((item) => ({ item, key: random() }))
			.sort((a, b) => a.key - b.key)
			.map(({ item }) => item)

	function randomForm() {
		const fields = Array.from({ length: 4 + Math.floor(random() * 10) }, (_, index) =>
			field(`f${index}`, pick(kinds), random() < 0.4),
		)
		const ids = fields.map((item) => item.id)
		const questionIds = fields
			.filter((item) => item.kind !== 'page_break' && item.kind !== 'heading')
			.map((item) => item.id)
		questionIds.push('gone')
		const pageIds = [
			'start',
			'end',
			'end',
			...fields.filter((item) => item.kind === 'page_break').map((item) => item.id),
		]
		const rules: LogicRule[] = Array.from({ length: Math.floor(random() * 7) }, (_, index) => {
			const action = pick(['show', 'hide', 'require', 'jump', 'jump', 'jump'] as const)
			return {
				id: `rule${index}`,
				match: pick(['all', 'any'] as const),
				conditions: Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({
					// Mostly questions: a condition on content never matches.
					fieldId: random() < 0.9 ? pick(questionIds) : pick(ids),
					operator: pick(operators),
					value: pick(values),
				})),
				action,
				fieldIds: action === 'jump' ? [] : [pick(ids)],
				...(action === 'jump' ? { toPageId: pick(pageIds) } : {}),
			}
		})
		const given = Object.fromEntries(ids.filter(() => random() < 0.8).map((id) => [id, pick(answers)]))
		return { fields, rules, given }
	}

	test('never throws, is deterministic and order-free in its rules, and keeps its promises, on 500 forms', () => {
		let skippedSeen = 0
		for (let run = 0; run < 500; run++) {
			const { fields, rules, given } = randomForm()
			const evaluation = evaluateForm(fields, rules, given)
			expect(evaluateForm(fields, shuffled(rules), given)).toEqual(evaluation)
			const pages = formPages(fields)
			// The path starts at the start and only goes forward.
			expect(evaluation.path[0]).toBe('start')
			const indexes = evaluation.path.map((id) => pages.findIndex((page) => page.id === id))
			expect(indexes.every((index, at) => index >= 0 && (at === 0 || index > (indexes[at - 1] ?? 0)))).toBe(true)
			for (const page of pages) {
				for (const id of page.fieldIds) {
					const state = evaluation.fields[id]
					expect(state?.skipped).toBe(!evaluation.path.includes(page.id))
					if (state?.skipped) {
						skippedSeen += 1
						expect(state).toEqual({ visible: false, required: false, skipped: true })
					}
				}
			}
			// Stored answers are a subset of the visible questions'.
			const kept = visibleAnswers(fields, rules, given)
			for (const id of Object.keys(kept)) {
				expect(evaluation.fields[id]?.visible).toBe(true)
			}
			// Without loops, storing only what is kept changes nothing.
			const loops = checkFormRules(fields, rules).some((problem) => problem.message.startsWith('The rule shows'))
			if (!loops) {
				expect(evaluateForm(fields, rules, kept)).toEqual(evaluation)
			}
			// nextPageId walks the same path.
			const walked = ['start']
			for (let page = 'start'; page !== 'end' && walked.length <= pages.length; ) {
				page = nextPageId(fields, rules, given, page)
				walked.push(page)
			}
			expect(walked).toEqual([...evaluation.path, 'end'])
		}
		expect(skippedSeen).toBeGreaterThan(100)
	})
})
