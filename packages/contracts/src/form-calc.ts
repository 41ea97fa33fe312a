import Big from 'big.js'
import type { FieldKind } from './form-kinds.ts'
import { isContent, isNumericKind } from './form-pages.ts'
import type { Calculation, Condition, LogicProblem } from './form-rule-types.ts'

// Calculated fields: the "Calculations" part of the header of form-rules.ts. Exact decimals with
// big.js, so that 0.1 + 0.2 is 0.3 and the page and the server (and Notion's number) agree to the
// last digit. Zod-free like form-rules.ts (the calculation's type is form-rule-types.ts's, which forms.ts's schema fits).

// A constructor of our own, so no other user of big.js changes our settings (nor we theirs).
const Decimal = Big()
// Only division can give endless decimals; 40 places is far beyond the 6 a result may keep.
Decimal.DP = 40
Decimal.RM = Big.roundHalfUp
// A JavaScript number passed by mistake throws instead of carrying a float's error in.
Decimal.strict = true
const zero = new Decimal('0')

// As forms.ts's decimalTextSchema: what the builder may type as a start or a fixed operand.
const decimalText = /^-?\d{1,12}(\.\d{1,6})?$/

function parseDecimalText(text: unknown): Big | null {
	return typeof text === 'string' && decimalText.test(text.trim()) ? new Decimal(text.trim()) : null
}

/** A finite JS number as an exact decimal: its shortest round-trip text, the same in every engine. */
function fromNumber(value: number): Big {
	return new Decimal(String(value))
}

/** What a calculation reads of the rest of the form (form-rules.ts decides visibility and order). */
export type CalculationInputs = {
	/**
	 * The value of an operand's field: a number, null when it is empty, hidden or skipped (read as 0),
	 * or undefined when the id names no earlier numeric question (the step is then ignored).
	 */
	operand: (fieldId: string) => number | null | undefined
	/** Whether a step's `when` condition matches. */
	matches: (condition: Condition) => boolean
}

/**
 * The calculation's result, rounded half away from zero to its decimals, as a JS number (what a
 * Notion number holds); null when its start is not a decimal or the result is too large for a number.
 */
export function calculate(calculation: Calculation, inputs: CalculationInputs): number | null {
	let total = parseDecimalText(calculation.start)
	if (total === null) {
		return null
	}
	for (const step of calculation.steps) {
		if (!step.when.every((condition) => inputs.matches(condition))) {
			continue
		}
		const operand = operandOf(step.operand, inputs)
		if (operand === null) {
			continue
		}
		total = apply(total, step.operation, operand) ?? total
	}
	const decimals = Number.isInteger(calculation.decimals) ? Math.min(6, Math.max(0, calculation.decimals)) : 0
	const result = Number(total.round(decimals, Big.roundHalfUp).toFixed(decimals))
	// -0 would print as "-0" in some places; Notion and JSON know one zero.
	return Number.isFinite(result) ? result + 0 : null
}

function operandOf(operand: Calculation['steps'][number]['operand'], inputs: CalculationInputs): Big | null {
	if ('value' in operand) {
		return parseDecimalText(operand.value)
	}
	const value = inputs.operand(operand.fieldId)
	if (value === undefined) {
		return null
	}
	return value === null || !Number.isFinite(value) ? new Decimal('0') : fromNumber(value)
}

/** One step; null when it cannot apply (a division by zero is ignored rather than giving infinity). */
function apply(total: Big, operation: Calculation['steps'][number]['operation'], operand: Big): Big | null {
	switch (operation) {
		case 'add':
			return total.plus(operand)
		case 'subtract':
			return total.minus(operand)
		case 'multiply':
			return total.times(operand)
		case 'divide':
			return operand.eq(zero) ? null : total.div(operand)
		case 'set':
			return operand
	}
}

type CalcField = { id: string; kind: FieldKind; calculation?: Calculation | null | undefined }

/**
 * Problems of the form's calculated fields, for the builder and the server's 400: a calculated
 * field without a calculation, an operand that is not an earlier numeric question, and a step's
 * condition on a field not in the form, on content, or on a question that does not come earlier.
 */
export function calculationProblems(fields: readonly CalcField[]): LogicProblem[] {
	const order = new Map<string, number>()
	fields.forEach((field, position) => {
		if (!order.has(field.id)) {
			order.set(field.id, position)
		}
	})
	const problems: LogicProblem[] = []
	fields.forEach((field, f) => {
		if (field.kind !== 'calculated') {
			return
		}
		if (!field.calculation) {
			problems.push({ path: `fields.${f}.calculation`, message: 'Set up what the field calculates.' })
			return
		}
		field.calculation.steps.forEach((step, s) => {
			const base = `fields.${f}.calculation.steps.${s}`
			if ('fieldId' in step.operand) {
				const message = readProblem(fields, order, f, step.operand.fieldId, 'operand')
				if (message) {
					problems.push({ path: `${base}.operand.fieldId`, message })
				}
			}
			step.when.forEach((condition, c) => {
				const message = readProblem(fields, order, f, condition.fieldId, 'condition')
				if (message) {
					problems.push({ path: `${base}.when.${c}.fieldId`, message })
				}
			})
		})
	})
	return problems
}

function readProblem(
	fields: readonly CalcField[],
	order: ReadonlyMap<string, number>,
	position: number,
	fieldId: string,
	use: 'operand' | 'condition',
): string | null {
	const at = order.get(fieldId)
	const read = at === undefined ? undefined : fields[at]
	if (at === undefined || !read) {
		return 'This field is not in the form.'
	}
	if (isContent(read.kind)) {
		return 'Content has no answer: pick a question.'
	}
	if (at >= position) {
		return 'Pick a question that comes before this field: a calculation reads only earlier answers.'
	}
	if (use === 'operand' && !isNumericKind(read.kind)) {
		return 'Pick a question with a number answer (number, rating, scale, NPS or calculated).'
	}
	return null
}

/** Each calculated field's inputs (operands and conditions), for the loop check of form-rules.ts. */
export function calculationInputs(fields: readonly CalcField[]): Map<string, Set<string>> {
	const inputs = new Map<string, Set<string>>()
	for (const field of fields) {
		if (field.kind === 'calculated' && field.calculation) {
			const set = inputs.get(field.id) ?? new Set<string>()
			for (const step of field.calculation.steps) {
				if ('fieldId' in step.operand) {
					set.add(step.operand.fieldId)
				}
				for (const condition of step.when) {
					set.add(condition.fieldId)
				}
			}
			inputs.set(field.id, set)
		}
	}
	return inputs
}
