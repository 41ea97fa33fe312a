import { fileRulesOf } from '@blocksmith/contracts/form-files.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Property, PropertyType } from '@blocksmith/contracts/workspaces.ts'
import { AppError } from '#src/lib/errors.ts'
import { validateRowValues } from '#src/workspaces/values.ts'
import { answerBlobIds } from './forms.files.ts'

// One answer at a time, by the kind of its question: is it of the right shape, in range, among
// the choices? The result is the answer as the submission keeps it (forms.answers.ts then turns
// it into the property's value). Each problem is one sentence naming the question by its label.

/** Explicit limits on what one answer may hold. */
export const answerLimits = {
	shortTextChars: 2_000,
	longTextChars: 20_000,
	choices: 100,
} as const

/** A rating, scale or NPS question's range when the builder set none. */
const defaultScale = { min: 1, max: 5 } as const

export class InvalidAnswer extends Error {}

function fail(message: string): never {
	throw new InvalidAnswer(message)
}

export function isEmptyAnswer(value: unknown): boolean {
	return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/

/**
 * The choices a question offers: the property's options when it writes a select, multi-select or
 * status property (the workspace owns them), otherwise its own `choices`; null when it has none.
 */
export function choicesOf(field: FormField, property: Property | undefined): string[] | null {
	if (property?.options) {
		return property.options.map((option) => option.name)
	}
	return field.choices ?? null
}

/** The whole numbers a rating, scale or NPS question takes. */
function scaleRangeOf(field: FormField): { min: number; max: number } {
	if (field.kind === 'nps') {
		return { min: 0, max: 10 }
	}
	const max = field.scale?.max ?? defaultScale.max
	return field.kind === 'rating' ? { min: 1, max } : { min: field.scale?.min ?? defaultScale.min, max }
}

/** The most characters a text question takes: its own limit, never past the kind's. */
function textLimitOf(field: FormField): number {
	const kindLimit = field.kind === 'long_text' ? answerLimits.longTextChars : answerLimits.shortTextChars
	return Math.min(field.maxLength ?? kindLimit, kindLimit)
}

/** A number as typed or sent: numbers, and decimal text (a browser's input value). */
function numberOf(raw: unknown): number | null {
	const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
	return typeof value === 'number' && Number.isFinite(value) ? value : null
}

function isUnanswered(field: FormField, raw: unknown): boolean {
	if (isEmptyAnswer(raw) || (field.kind === 'checkbox' && raw === false)) {
		return true
	}
	// A matrix with no row answered is as empty as a blank text.
	return field.kind === 'matrix' && isPlainObject(raw) && Object.values(raw).every(isEmptyAnswer)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * One answer as the submission keeps it, or undefined when left empty. `property` is the one the
 * question writes (undefined for a question kept with the answer only). Calculated questions are
 * not answered by visitors (forms.answers.ts puts in the server's result).
 */
export function normaliseAnswer(field: FormField, raw: unknown, property: Property | undefined): unknown {
	const label = field.label
	if (isUnanswered(field, raw)) {
		if (field.required) {
			fail(field.kind === 'checkbox' ? `Tick "${label}" to continue.` : `"${label}" is required.`)
		}
		return field.kind === 'checkbox' && raw === false ? false : undefined
	}
	switch (field.kind) {
		case 'short_text':
		case 'long_text':
		case 'url':
		case 'email':
		case 'phone': {
			if (typeof raw !== 'string') {
				fail(`"${label}" must be text.`)
			}
			const limit = field.kind === 'short_text' || field.kind === 'long_text' ? textLimitOf(field) : 2_000
			if (raw.length > limit) {
				fail(`"${label}" takes at most ${limit} characters (this answer has ${raw.length}).`)
			}
			if (field.required && raw.trim() === '') {
				fail(`"${label}" is required.`)
			}
			return raw
		}
		case 'number': {
			const value = numberOf(raw)
			if (value === null) {
				fail(`"${label}" must be a number.`)
			}
			return value
		}
		case 'rating':
		case 'scale':
		case 'nps': {
			const value = numberOf(raw)
			const { min, max } = scaleRangeOf(field)
			if (value === null || !Number.isInteger(value) || value < min || value > max) {
				fail(`"${label}" takes a whole number from ${min} to ${max}.`)
			}
			return value
		}
		case 'date': {
			const value = typeof raw === 'string' ? { start: raw, end: null, timeZone: null } : raw
			if (!isPlainObject(value) || typeof value.start !== 'string') {
				fail(`"${label}" must be a date.`)
			}
			if (!field.includeTime && !isoDate.test(value.start)) {
				fail(`"${label}" must be a day (YYYY-MM-DD).`)
			}
			return value
		}
		case 'checkbox':
			if (typeof raw !== 'boolean') {
				fail(`"${label}" must be ticked or not.`)
			}
			return raw
		case 'files':
		case 'signature': {
			const blobIds = answerBlobIds(raw)
			if (blobIds === null) {
				fail(`"${label}" must be a list of uploaded files.`)
			}
			if (field.kind === 'signature' && blobIds.length !== 1) {
				fail(`"${label}" takes one signature.`)
			}
			const { maxFiles } = fileRulesOf(field)
			if (field.kind === 'files' && blobIds.length > maxFiles) {
				fail(`"${label}" takes at most ${maxFiles} ${maxFiles === 1 ? 'file' : 'files'}.`)
			}
			return blobIds
		}
		case 'select':
			return property ? raw : oneOfChoices(field, raw, choicesOf(field, property) ?? [])
		case 'multi_select':
			return property ? listOfChoices(field, raw) : someOfChoices(field, raw, choicesOf(field, property) ?? [])
		case 'people':
		case 'relation':
			return listOfChoices(field, raw)
		case 'ranking':
			return ranking(field, raw, choicesOf(field, property) ?? [])
		case 'matrix':
			return matrix(field, raw)
		default:
			// status: the property's check (validateRowValues) knows its options.
			return raw
	}
}

function listOfChoices(field: FormField, raw: unknown): unknown[] {
	if (!Array.isArray(raw)) {
		fail(`"${field.label}" must be a list of choices.`)
	}
	if (raw.length > answerLimits.choices) {
		fail(`"${field.label}" takes at most ${answerLimits.choices} choices.`)
	}
	return raw
}

function oneOfChoices(field: FormField, raw: unknown, choices: string[]): string {
	if (typeof raw !== 'string' || !choices.includes(raw)) {
		fail(`"${field.label}" has no choice "${String(raw).slice(0, 100)}".`)
	}
	return raw
}

function someOfChoices(field: FormField, raw: unknown, choices: string[]): string[] {
	const list = listOfChoices(field, raw)
	const picked: string[] = []
	for (const item of list) {
		picked.push(oneOfChoices(field, item, choices))
	}
	if (new Set(picked).size !== picked.length) {
		fail(`"${field.label}" has a choice twice.`)
	}
	return picked
}

/** Every choice exactly once, in the visitor's order. */
function ranking(field: FormField, raw: unknown, choices: string[]): string[] {
	const order = someOfChoices(field, raw, choices)
	if (order.length !== choices.length) {
		fail(`"${field.label}" must put every choice in order (${choices.length} of them).`)
	}
	return order
}

/** `{ row: column }` (or `{ row: column[] }` with several columns a row): rows and columns of the question only. */
function matrix(field: FormField, raw: unknown): Record<string, string | string[]> {
	const spec = field.matrix
	if (!spec) {
		fail(`"${field.label}" has no rows to answer.`)
	}
	if (!isPlainObject(raw)) {
		fail(`"${field.label}" must be an answer per row.`)
	}
	for (const row of Object.keys(raw)) {
		if (!spec.rows.includes(row)) {
			fail(`"${field.label}" has no row "${row.slice(0, 100)}".`)
		}
	}
	const answer: Record<string, string | string[]> = {}
	for (const row of spec.rows) {
		const cell = Object.hasOwn(raw, row) ? raw[row] : undefined
		if (isEmptyAnswer(cell)) {
			if (field.required) {
				fail(`"${field.label}": answer "${row}".`)
			}
			continue
		}
		const cells = spec.multiple ? cell : [cell]
		if (!Array.isArray(cells) || cells.some((column) => typeof column !== 'string')) {
			fail(`"${field.label}": "${row}" takes ${spec.multiple ? 'a list of columns' : 'one column'}.`)
		}
		for (const column of cells as string[]) {
			if (!spec.columns.includes(column)) {
				fail(`"${field.label}" has no column "${column.slice(0, 100)}".`)
			}
		}
		if (new Set(cells).size !== cells.length) {
			fail(`"${field.label}": "${row}" has a column twice.`)
		}
		// The columns kept in the question's order, so the same ticks read the same everywhere.
		answer[row] = spec.multiple ? spec.columns.filter((column) => cells.includes(column)) : (cell as string)
	}
	return answer
}

/**
 * An answer as the property stores it: ranking and matrix as lines of text in a rich_text
 * property ("1. A", "Row: Column"), everything else as kept.
 */
export function propertyValueOf(field: FormField, property: Property, answer: unknown): unknown {
	if (property.type !== 'rich_text') {
		return answer
	}
	if (field.kind === 'ranking' && Array.isArray(answer)) {
		return answer.map((choice, index) => `${index + 1}. ${String(choice)}`).join('\n')
	}
	if (field.kind === 'matrix' && isPlainObject(answer)) {
		return Object.entries(answer)
			.map(([row, cell]) => `${row}: ${Array.isArray(cell) ? cell.join(', ') : String(cell)}`)
			.join('\n')
	}
	return answer
}

/**
 * The property type whose check an answer kept without a property must pass as well, so that an
 * e-mail is an e-mail wherever it is kept. Text, numbers and choices are checked by kind already.
 */
const unboundCheckTypes: Partial<Record<FormField['kind'], PropertyType>> = {
	url: 'url',
	email: 'email',
	phone: 'phone_number',
	date: 'date',
}

export function checkUnbound(field: FormField, value: unknown): unknown {
	const type = unboundCheckTypes[field.kind]
	if (!type) {
		return value
	}
	try {
		return validateRowValues([{ id: field.id, name: `"${field.label}"`, type }], { [field.id]: value })[field.id]
	} catch (error) {
		if (error instanceof AppError && error.code === 'VALIDATION_FAILED') {
			throw new InvalidAnswer(error.errors?.[0]?.message ?? `"${field.label}" is not valid.`)
		}
		throw error
	}
}
