import { type DatePoint, parseDate } from './form-condition-values.ts'
import type { FieldKind } from './form-kinds.ts'
import type { Condition, ConditionOperator } from './form-rule-types.ts'

// How one condition of a form rule reads an answer and compares it: the "Conditions" part of the
// header of form-rules.ts, split from it to keep each file about one thing. Zod-free like it.

// ---- operators by value shape -------------------------------------------------------------

type ConditionValue = Condition['value']
/** The operators a shape implements itself; the negations and emptiness are derived. */
type Comparison = Exclude<ConditionOperator, 'not_equals' | 'not_contains' | 'is_empty' | 'is_not_empty'>
type Test<T> = (answer: T) => boolean

/** How the answers of some field kinds are read and compared. */
type Shape<T> = {
	/** The answer as compared; undefined and answers of another shape read as empty. */
	read: (raw: unknown) => T
	isEmpty: (answer: T) => boolean
	/** The test for a comparison, or null when it does not apply to the shape or the value does not fit. */
	compare: (operator: Comparison, value: ConditionValue) => Test<T> | null
}

/** A test of a raw answer (read by the shape first), or null when the condition never matches. */
function rawTest<T>(shape: Shape<T>, condition: Condition): RawTest | null {
	const test = testFor(shape, condition)
	return test && ((raw) => test(shape.read(raw)))
}

function testFor<T>(shape: Shape<T>, condition: Condition): Test<T> | null {
	switch (condition.operator) {
		case 'is_empty':
			return shape.isEmpty
		case 'is_not_empty':
			return negate(shape.isEmpty)
		case 'not_equals':
			return negate(shape.compare('equals', condition.value))
		case 'not_contains':
			return negate(shape.compare('contains', condition.value))
		default:
			return shape.compare(condition.operator, condition.value)
	}
}

function negate<T>(test: Test<T> | null): Test<T> | null {
	return test && ((answer) => !test(answer))
}

/** A test of a raw answer: undefined and answers of another shape read as empty. */
export type RawTest = (raw: unknown) => boolean

/**
 * How a condition on a field of `kind` tests an answer, or null when it never matches (an operator
 * that does not apply to the kind, a value that does not fit, a condition on content).
 */
export function conditionTest(kind: FieldKind, condition: Condition): RawTest | null {
	switch (kind) {
		case 'short_text':
		case 'long_text':
		case 'url':
		case 'email':
		case 'phone':
			return rawTest(textShape, condition)
		case 'number':
		case 'rating':
		case 'scale':
		case 'nps':
		case 'calculated':
			return rawTest(numberShape, condition)
		case 'ranking':
			return rawTest(optionsShape, condition)
		case 'matrix':
			return rawTest(matrixShape, condition)
		case 'select':
		case 'status':
			return rawTest(optionShape, condition)
		case 'multi_select':
			return rawTest(optionsShape, condition)
		case 'people':
		case 'relation':
			return rawTest(idsShape, condition)
		case 'checkbox':
			return rawTest(checkboxShape, condition)
		case 'date':
			return rawTest(dateShape, condition)
		case 'files':
		case 'signature':
			return rawTest(filesShape, condition)
		case 'heading':
		case 'paragraph':
		case 'image':
		case 'divider':
		case 'page_break':
			// Content has no answer: a condition on it never matches.
			return null
	}
}

const normalizeText = (text: string) => text.trim().toLowerCase()
const trimId = (text: string) => text.trim()

/** A string or number value as normalized text, or null when it is neither or blank. */
function textValue(value: ConditionValue, normalize: (text: string) => string): string | null {
	const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null
	const normalized = text === null ? '' : normalize(text)
	return normalized === '' ? null : normalized
}

const textShape: Shape<string> = {
	read: (raw) => (typeof raw === 'string' ? normalizeText(raw) : ''),
	isEmpty: (answer) => answer === '',
	compare: (operator, value) => {
		const wanted = textValue(value, normalizeText)
		if (wanted === null) {
			return null
		}
		if (operator === 'equals') {
			return (answer) => answer === wanted
		}
		if (operator === 'contains') {
			return (answer) => answer.includes(wanted)
		}
		return null
	},
}

// Plain decimals only: Number() alone would also take '0x10', 'Infinity' and ' '.
const decimalPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i

function numberValue(value: ConditionValue): number | null {
	if (typeof value === 'number') {
		return Number.isFinite(value) ? value : null
	}
	if (typeof value === 'string' && decimalPattern.test(value.trim())) {
		const parsed = Number(value.trim())
		return Number.isFinite(parsed) ? parsed : null
	}
	return null
}

const numberShape: Shape<number | null> = {
	read: (raw) => (typeof raw === 'number' && Number.isFinite(raw) ? raw : null),
	isEmpty: (answer) => answer === null,
	compare: (operator, value) => {
		const wanted = numberValue(value)
		if (wanted === null) {
			return null
		}
		switch (operator) {
			case 'equals':
				return (answer) => answer === wanted
			case 'greater_than':
				return (answer) => answer !== null && answer > wanted
			case 'less_than':
				return (answer) => answer !== null && answer < wanted
			case 'greater_or_equal':
				return (answer) => answer !== null && answer >= wanted
			case 'less_or_equal':
				return (answer) => answer !== null && answer <= wanted
			default:
				return null
		}
	},
}

/** A choice read as a list; `single` kinds hold one string, the others a list of strings. */
function choiceShape(single: boolean, normalize: (text: string) => string): Shape<string[]> {
	return {
		read: (raw) => {
			const items: unknown[] = single ? [raw] : Array.isArray(raw) ? raw : []
			return items
				.filter((item): item is string => typeof item === 'string')
				.map(normalize)
				.filter((item) => item !== '')
		},
		isEmpty: (answer) => answer.length === 0,
		compare: (operator, value) => {
			const wanted = textValue(value, normalize)
			if (wanted === null || (operator !== 'equals' && operator !== 'contains')) {
				return null
			}
			return (answer) => answer.includes(wanted)
		},
	}
}

const optionShape = choiceShape(true, normalizeText)
const optionsShape = choiceShape(false, normalizeText)
const idsShape = choiceShape(false, trimId)

const checkboxShape: Shape<boolean> = {
	read: (raw) => raw === true,
	isEmpty: (answer) => !answer,
	compare: (operator, value) => {
		if (operator !== 'equals' || typeof value !== 'boolean') {
			return null
		}
		return (answer) => answer === value
	},
}

/** A matrix: only whether any row is answered (its cells are not compared). */
const matrixShape: Shape<number> = {
	read: (raw) =>
		raw && typeof raw === 'object' && !Array.isArray(raw)
			? Object.values(raw).filter((cell) =>
					Array.isArray(cell) ? cell.length > 0 : typeof cell === 'string' && cell !== '',
				).length
			: 0,
	isEmpty: (answer) => answer === 0,
	compare: () => null,
}

/** Uploaded files: only whether there are any (a file has no value to compare with). */
const filesShape: Shape<number> = {
	read: (raw) => (Array.isArray(raw) ? raw.filter((file) => file && typeof file === 'object').length : 0),
	isEmpty: (answer) => answer === 0,
	compare: () => null,
}

/** Instants when both sides have one, otherwise the days as written. */
function compareDates(a: DatePoint, b: DatePoint): number {
	if (a.instant !== null && b.instant !== null) {
		return Math.sign(a.instant - b.instant)
	}
	return a.day < b.day ? -1 : a.day > b.day ? 1 : 0
}

const dateShape: Shape<DatePoint | null> = {
	read: (raw) =>
		typeof raw === 'object' && raw !== null && 'start' in raw && typeof raw.start === 'string'
			? parseDate(raw.start)
			: null,
	isEmpty: (answer) => answer === null,
	compare: (operator, value) => {
		const wanted = typeof value === 'string' ? parseDate(value.trim()) : null
		if (wanted === null) {
			return null
		}
		const test = (accept: (order: number) => boolean): Test<DatePoint | null> => {
			return (answer) => answer !== null && accept(compareDates(answer, wanted))
		}
		switch (operator) {
			case 'equals':
				return test((order) => order === 0)
			case 'before':
			case 'less_than':
				return test((order) => order < 0)
			case 'after':
			case 'greater_than':
				return test((order) => order > 0)
			case 'less_or_equal':
				return test((order) => order <= 0)
			case 'greater_or_equal':
				return test((order) => order >= 0)
			default:
				return null
		}
	},
}
