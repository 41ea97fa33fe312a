import { describe, expect, test } from 'vitest'
import type { FieldKind } from './form-kinds.ts'
import type { Calculation } from './form-rule-types.ts'
import {
	type Condition,
	checkFormRules,
	evaluateForm,
	type LogicField,
	type LogicRule,
	visibleAnswers,
} from './form-rules.ts'
import type { CalculationStep, FormCalculation } from './forms.ts'

// The schema's calculation is one the engine reads (form-rule-types.ts restates it to stay a leaf).
true satisfies FormCalculation extends Calculation ? true : false

// Calculated fields (the "Calculations" part of form-rules.ts's header): exact decimals, rounding,
// what they may read. No Node or DOM APIs in here: the rules run in the browser too.

const field = (id: string, kind: FieldKind = 'number', required = false): LogicField => ({ id, kind, required })
const calc = (id: string, calculation: Partial<FormCalculation>): LogicField => ({
	...field(id, 'calculated'),
	calculation: { start: '0', steps: [], decimals: 0, prefix: null, suffix: null, ...calculation },
})
const step = (
	operation: CalculationStep['operation'],
	operand: string | { fieldId: string },
	when: Condition[] = [],
): CalculationStep => ({ operation, operand: typeof operand === 'string' ? { value: operand } : operand, when })

/** The value of calculated field `total` in a form of `fields` and `total`. */
function total(
	calculation: Partial<FormCalculation>,
	answers: Record<string, unknown> = {},
	fields: LogicField[] = [],
) {
	return evaluateForm([...fields, calc('total', calculation)], [], answers).calculated.total
}

describe('exact arithmetic', () => {
	test('0.1 + 0.2 is 0.3, 19.99 × 3 is 59.97, and an answer is read as written', () => {
		expect(total({ start: '0.1', steps: [step('add', '0.2')], decimals: 6 })).toBe(0.3)
		expect(
			total({ steps: [step('add', { fieldId: 'price' }), step('multiply', '3')], decimals: 2 }, { price: 19.99 }, [
				field('price'),
			]),
		).toBe(59.97)
		// With floats: 1.1 * 1.1 = 1.2100000000000002.
		expect(total({ start: '1.1', steps: [step('multiply', '1.1')], decimals: 6 })).toBe(1.21)
		expect(total({ start: '0.3', steps: [step('subtract', '0.1')], decimals: 6 })).toBe(0.2)
	})

	test('rounds half away from zero to the decimals', () => {
		expect(total({ start: '2.5' })).toBe(3)
		expect(total({ start: '-2.5' })).toBe(-3)
		expect(total({ start: '2.4999' })).toBe(2)
		// 1.005 is 1.00499999999999989… as a float, which toFixed(2) rounds down.
		expect(total({ start: '1.005', decimals: 2 })).toBe(1.01)
		expect(total({ start: '0.000005', decimals: 5 })).toBe(0.00001)
		// Seven decimals are more than a start may have (as the schema says): no value.
		expect(total({ start: '0.0000005', decimals: 6 })).toBeNull()
		expect(total({ start: '-0.4' })).toBe(0)
		expect(Object.is(total({ start: '-0.4' }), -0)).toBe(false)
	})

	test('divides to 40 places before rounding, and ignores a division by zero', () => {
		expect(total({ start: '10', steps: [step('divide', '3')], decimals: 2 })).toBe(3.33)
		expect(total({ start: '2', steps: [step('divide', '3')] })).toBe(1)
		expect(total({ start: '1', steps: [step('divide', '3'), step('multiply', '3')], decimals: 6 })).toBe(1)
		expect(total({ start: '7', steps: [step('divide', '0'), step('add', '1')] })).toBe(8)
		expect(total({ start: '7', steps: [step('divide', { fieldId: 'n' })] }, { n: 0 }, [field('n')])).toBe(7)
		// An empty operand reads as 0, so dividing by it is ignored too.
		expect(total({ start: '7', steps: [step('divide', { fieldId: 'n' })] }, {}, [field('n')])).toBe(7)
	})

	test('set replaces the running value; steps apply in order', () => {
		expect(total({ start: '5', steps: [step('add', '1'), step('set', '10'), step('subtract', '4')] })).toBe(6)
		expect(total({ start: '5', steps: [step('multiply', '2'), step('add', '1')] })).toBe(11)
		expect(total({ start: '5', steps: [step('add', '1'), step('multiply', '2')] })).toBe(12)
	})

	test('a start that is not a decimal gives no value, a bad fixed operand skips its step, too large gives none', () => {
		expect(total({ start: 'ten' })).toBeNull()
		expect(total({ start: '1', steps: [step('add', '1e3'), step('add', '2')] })).toBe(3)
		const huge = Array.from({ length: 30 }, () => step('multiply', '999999999999'))
		expect(total({ start: '999999999999', steps: huge })).toBeNull()
		expect(evaluateForm([{ ...field('total', 'calculated'), calculation: null }], [], {}).calculated).toEqual({
			total: null,
		})
	})
})

describe('what a calculation reads', () => {
	const quiz = [field('q1', 'rating'), field('q2', 'nps'), field('name', 'short_text')]

	test('earlier numeric answers; empty ones read as 0', () => {
		const steps = [step('add', { fieldId: 'q1' }), step('add', { fieldId: 'q2' })]
		expect(total({ steps }, { q1: 4, q2: 9 }, quiz)).toBe(13)
		expect(total({ steps }, { q1: 4 }, quiz)).toBe(4)
		// An answer of another shape reads as empty.
		expect(total({ steps }, { q1: '4', q2: Number.NaN }, quiz)).toBe(0)
	})

	test('a step whose operand is no earlier numeric question does nothing', () => {
		const fields = [
			field('name', 'short_text'),
			calc('total', {
				start: '1',
				steps: [step('add', { fieldId: 'name' }), step('add', { fieldId: 'later' }), step('add', { fieldId: 'gone' })],
			}),
			field('later'),
		]
		expect(evaluateForm(fields, [], { name: 5, later: 5 }).calculated.total).toBe(1)
	})

	test('when-conditions must all match; conditions on later fields read them as empty', () => {
		const fields = [
			field('plan', 'select'),
			field('seats'),
			calc('total', {
				steps: [
					step('set', '49', [{ fieldId: 'plan', operator: 'equals', value: 'Pro' }]),
					step('set', '99', [
						{ fieldId: 'plan', operator: 'equals', value: 'Team' },
						{ fieldId: 'seats', operator: 'greater_than', value: 5 },
					]),
					step('add', '1000', [{ fieldId: 'after', operator: 'is_empty' }]),
				],
			}),
			field('after', 'short_text'),
		]
		expect(evaluateForm(fields, [], { plan: 'Pro', after: 'x' }).calculated.total).toBe(1049)
		expect(evaluateForm(fields, [], { plan: 'Team', seats: 3 }).calculated.total).toBe(1000)
		expect(evaluateForm(fields, [], { plan: 'Team', seats: 8 }).calculated.total).toBe(1099)
	})

	test('hidden and skipped questions read as 0, and a hidden or skipped calculated field has no value', () => {
		const fields = [
			field('extras'),
			field('price'),
			{ ...field('p2', 'page_break') },
			calc('total', { steps: [step('add', { fieldId: 'price' }), step('add', { fieldId: 'extras' })] }),
		]
		const hideExtras: LogicRule = {
			id: 'h',
			match: 'all',
			action: 'hide',
			fieldIds: ['extras'],
			conditions: [{ fieldId: 'price', operator: 'less_than', value: 10 }],
		}
		expect(evaluateForm(fields, [hideExtras], { price: 5, extras: 100 }).calculated.total).toBe(5)
		expect(evaluateForm(fields, [hideExtras], { price: 50, extras: 100 }).calculated.total).toBe(150)
		const skip: LogicRule = {
			id: 'j',
			match: 'all',
			action: 'jump',
			fieldIds: [],
			toPageId: 'end',
			conditions: [{ fieldId: 'price', operator: 'is_empty' }],
		}
		const skipped = evaluateForm(fields, [skip], {})
		expect(skipped.fields.total?.skipped).toBe(true)
		expect(skipped.calculated.total).toBeNull()
		expect(visibleAnswers(fields, [skip], { total: 12 })).toEqual({})
	})

	test('calculated fields read earlier calculated fields, and logic conditions test them as numbers', () => {
		const fields = [
			field('qty'),
			calc('subtotal', { steps: [step('add', { fieldId: 'qty' }), step('multiply', '19.99')], decimals: 2 }),
			calc('withTax', { steps: [step('add', { fieldId: 'subtotal' }), step('multiply', '1.2')], decimals: 2 }),
			field('approval', 'checkbox', true),
		]
		const rules: LogicRule[] = [
			{
				id: 's',
				match: 'all',
				action: 'show',
				fieldIds: ['approval'],
				conditions: [{ fieldId: 'withTax', operator: 'greater_than', value: 100 }],
			},
		]
		const small = evaluateForm(fields, rules, { qty: 3 })
		expect(small.calculated).toEqual({ subtotal: 59.97, withTax: 71.96 })
		expect(small.fields.approval).toEqual({ visible: false, required: false, skipped: false })
		const big = evaluateForm(fields, rules, { qty: 5 })
		expect(big.calculated).toEqual({ subtotal: 99.95, withTax: 119.94 })
		expect(big.fields.approval).toEqual({ visible: true, required: true, skipped: false })
	})

	test('visibleAnswers puts in the worked-out value and ignores what was sent for a calculated field', () => {
		const fields = [
			field('qty'),
			calc('total', { steps: [step('add', { fieldId: 'qty' }), step('multiply', '2.5')], decimals: 1 }),
		]
		expect(visibleAnswers(fields, [], { qty: 3, total: 1_000_000 })).toEqual({ qty: 3, total: 7.5 })
		expect(visibleAnswers(fields, [], { total: 'x' })).toEqual({ total: 0 })
	})
})

describe('checkFormRules on calculations', () => {
	test('names operands and conditions that are not earlier questions, and calculated fields without a calculation', () => {
		const fields: LogicField[] = [
			field('name', 'short_text'),
			field('intro', 'heading'),
			field('n'),
			calc('total', {
				steps: [
					step('add', { fieldId: 'n' }),
					step('add', { fieldId: 'name' }),
					step('add', { fieldId: 'later' }),
					step('add', { fieldId: 'gone' }),
					step('add', '1', [
						{ fieldId: 'name', operator: 'is_empty' },
						{ fieldId: 'later', operator: 'is_empty' },
						{ fieldId: 'intro', operator: 'is_empty' },
						{ fieldId: 'gone', operator: 'is_empty' },
					]),
					step('add', { fieldId: 'total' }),
				],
			}),
			field('later'),
			{ ...field('empty', 'calculated'), calculation: null },
		]
		expect(checkFormRules(fields, [])).toEqual([
			{ path: 'fields.3.calculation.steps.1.operand.fieldId', message: expect.stringContaining('number answer') },
			{ path: 'fields.3.calculation.steps.2.operand.fieldId', message: expect.stringContaining('comes before') },
			{ path: 'fields.3.calculation.steps.3.operand.fieldId', message: 'This field is not in the form.' },
			{ path: 'fields.3.calculation.steps.4.when.1.fieldId', message: expect.stringContaining('comes before') },
			{
				path: 'fields.3.calculation.steps.4.when.2.fieldId',
				message: expect.stringContaining('Content has no answer'),
			},
			{ path: 'fields.3.calculation.steps.4.when.3.fieldId', message: 'This field is not in the form.' },
			{ path: 'fields.3.calculation.steps.5.operand.fieldId', message: expect.stringContaining('comes before') },
			{ path: 'fields.5.calculation', message: 'Set up what the field calculates.' },
		])
	})

	test('names a show rule that loops through a calculation', () => {
		const fields = [field('a'), calc('total', { steps: [step('add', { fieldId: 'a' })] })]
		const rules: LogicRule[] = [
			{
				id: 's',
				match: 'all',
				action: 'show',
				fieldIds: ['a'],
				conditions: [{ fieldId: 'total', operator: 'greater_than', value: 1 }],
			},
		]
		expect(checkFormRules(fields, rules).map((problem) => problem.path)).toEqual(['logic.0.fieldIds.0'])
	})
})

// ---- property-style: against exact integer arithmetic ------------------------------------------

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

/** A decimal as an integer count of 10^-scale, with BigInt: the reference the engine must match. */
type Scaled = { units: bigint; scale: number }
const toScaled = (text: string): Scaled => {
	const [whole = '0', fraction = ''] = text.replace('-', '').split('.')
	const units = BigInt(whole + fraction)
	return { units: text.startsWith('-') ? -units : units, scale: fraction.length }
}
const align = (a: Scaled, scale: number) => a.units * 10n ** BigInt(scale - a.scale)
function combine(a: Scaled, b: Scaled, operation: 'add' | 'subtract' | 'multiply'): Scaled {
	if (operation === 'multiply') {
		return { units: a.units * b.units, scale: a.scale + b.scale }
	}
	const scale = Math.max(a.scale, b.scale)
	return { units: operation === 'add' ? align(a, scale) + align(b, scale) : align(a, scale) - align(b, scale), scale }
}
/** Half away from zero to `decimals`, as the engine promises. */
function roundScaled(value: Scaled, decimals: number): string {
	if (value.scale <= decimals) {
		return formatScaled({ units: align(value, decimals), scale: decimals })
	}
	const divisor = 10n ** BigInt(value.scale - decimals)
	const magnitude = value.units < 0n ? -value.units : value.units
	let quotient = magnitude / divisor
	if ((magnitude % divisor) * 2n >= divisor) {
		quotient += 1n
	}
	return formatScaled({ units: value.units < 0n ? -quotient : quotient, scale: decimals })
}
function formatScaled(value: Scaled): string {
	const digits = (value.units < 0n ? -value.units : value.units).toString().padStart(value.scale + 1, '0')
	const text = value.scale === 0 ? digits : `${digits.slice(0, -value.scale)}.${digits.slice(-value.scale)}`
	return value.units < 0n ? `-${text}` : text
}

test('add, subtract and multiply match exact integer arithmetic on 1000 random calculations', () => {
	const random = prng(1999)
	const decimal = () => {
		const whole = Math.floor(random() * 10 ** Math.floor(random() * 6))
		const places = Math.floor(random() * 4)
		const fraction = places
			? `.${Math.floor(random() * 10 ** places)
					.toString()
					.padStart(places, '0')}`
			: ''
		return `${random() < 0.25 ? '-' : ''}${whole}${fraction}`
	}
	for (let run = 0; run < 1000; run++) {
		const start = decimal()
		const operations = Array.from({ length: 1 + Math.floor(random() * 5) }, () => ({
			operation: (['add', 'subtract', 'multiply'] as const)[Math.floor(random() * 3)] ?? 'add',
			value: decimal(),
		}))
		const decimals = Math.floor(random() * 7)
		const expected = operations.reduce(
			(acc, { operation, value }) => combine(acc, toScaled(value), operation),
			toScaled(start),
		)
		const got = total({ start, steps: operations.map(({ operation, value }) => step(operation, value)), decimals })
		expect(got, JSON.stringify({ start, operations, decimals })).toBe(Number(roundScaled(expected, decimals)) + 0)
	}
})
