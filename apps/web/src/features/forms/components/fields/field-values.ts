import type { AnswerFile } from '@blocksmith/contracts/form-files.ts'
import { isContent } from '@blocksmith/contracts/form-pages.ts'
import type { PublicField } from '@blocksmith/contracts/forms.ts'
import {
	isMatrixDraft,
	type MatrixDraft,
	matrixOf,
	pointOf,
	rankingOf,
	scaleRangeOf,
	unansweredRows,
} from './kind-values.ts'

// What the inputs hold while a form is filled in, and how that becomes answers. Inputs keep
// what was typed (a number as text, a date as the input's own string) so nothing a person types
// is rewritten under their cursor; answers take the row value shapes of workspaces.ts only when
// the form is sent. The checks here are a convenience: the server's are the defence.

/**
 * Text kinds, number, select, status, date, rating, scale and nps: a string (a point as its
 * digits); lists of choices: ids or names; ranking: the choices in the visitor's order (empty
 * until they order them); checkbox: ticked; files and signature: the files uploaded so far;
 * matrix: its rows' columns.
 */
export type DraftValue = string | string[] | boolean | AnswerFile[] | MatrixDraft
export type DraftValues = Record<string, DraftValue>

type Kind = PublicField['kind']

const listKinds: readonly Kind[] = ['multi_select', 'people', 'relation', 'files', 'signature', 'ranking']
const fileKinds: readonly Kind[] = ['files', 'signature']
const pointKinds: readonly Kind[] = ['rating', 'scale', 'nps']

/**
 * Whether the visitor gives the field a value: not content (it asks nothing) and not a calculated
 * field (the page works it out from the other answers, the server again on its own).
 */
function isAnswered(field: Pick<PublicField, 'kind'>): boolean {
	return !isContent(field.kind) && field.kind !== 'calculated'
}

function isListKind(kind: Kind): boolean {
	return listKinds.includes(kind)
}

/** Choices shown as radios up to this many; a longer list is a native select. */
export const maxRadioOptions = 6

/** The server's limits (forms.answers-kinds.ts), checked before sending (never by cutting what is typed). */
const maxLengthByKind: Partial<Record<Kind, number>> = {
	short_text: 2000,
	long_text: 20000,
	url: 2000,
	email: 2000,
	phone: 2000,
}

/** The most characters a typed answer takes: a text question's own limit, never past its kind's. */
export function textLimitOf(field: Pick<PublicField, 'kind' | 'maxLength'>): number | undefined {
	const kindLimit = maxLengthByKind[field.kind]
	if (kindLimit === undefined) {
		return undefined
	}
	const isText = field.kind === 'short_text' || field.kind === 'long_text'
	return isText && field.maxLength ? Math.min(field.maxLength, kindLimit) : kindLimit
}

function emptyValue(field: PublicField): DraftValue {
	if (field.kind === 'checkbox') {
		return false
	}
	if (field.kind === 'matrix') {
		return {}
	}
	return isListKind(field.kind) ? [] : ''
}

function pad(value: number): string {
	return String(value).padStart(2, '0')
}

/** `YYYY-MM-DDTHH:mm` (a datetime-local input's value) of an instant, on the browser's clock. */
function toLocalInput(date: Date): string {
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/**
 * A datetime-local value as an ISO date-time with the browser's offset at that moment
 * (`2025-03-04T10:30:00+01:00`): the instant is exact and the wall time stays readable.
 */
function localDateTimeToIso(local: string): string | null {
	const date = new Date(local)
	if (Number.isNaN(date.getTime())) {
		return null
	}
	const offset = -date.getTimezoneOffset()
	const sign = offset >= 0 ? '+' : '-'
	const hours = pad(Math.floor(Math.abs(offset) / 60))
	const minutes = pad(Math.abs(offset) % 60)
	return `${toLocalInput(date)}:00${sign}${hours}:${minutes}`
}

export function browserTimeZone(): string | null {
	try {
		return Intl.DateTimeFormat().resolvedOptions().timeZone || null
	} catch {
		return null
	}
}

/** A field's default value (row value shape) as its input holds it; empty when it does not fit. */
function draftFromDefault(field: PublicField): DraftValue {
	const value = field.defaultValue
	if (value === null || value === undefined) {
		return emptyValue(field)
	}
	switch (field.kind) {
		case 'checkbox':
			return value === true
		case 'files':
		case 'signature':
			return []
		case 'rating':
		case 'scale':
		case 'nps':
			return pointOf(field, value) ?? ''
		case 'ranking':
			return rankingOf(field, value)
		case 'matrix':
			return matrixOf(field, value)
		case 'multi_select':
		case 'people':
		case 'relation':
			return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) ? String(value) : ''
		case 'date': {
			const start = typeof value === 'string' ? value : (value as { start?: unknown }).start
			if (typeof start !== 'string') {
				return ''
			}
			if (!field.includeTime) {
				return start.slice(0, 10)
			}
			if (start.length === 10) {
				return `${start}T00:00`
			}
			const date = new Date(start)
			return Number.isNaN(date.getTime()) ? '' : toLocalInput(date)
		}
		default:
			return typeof value === 'string' ? value : ''
	}
}

/** Each answered field's value at the start (content and calculated fields have none). */
export function initialValues(fields: PublicField[]): DraftValues {
	return Object.fromEntries(fields.filter(isAnswered).map((field) => [field.id, draftFromDefault(field)]))
}

/**
 * Values kept from an earlier visit, for the fields the form still has and in the shapes they
 * still take (the owner may have changed the form since); anything else starts from its default.
 */
export function restoreValues(fields: PublicField[], saved: unknown): DraftValues {
	const values = initialValues(fields)
	if (!saved || typeof saved !== 'object') {
		return values
	}
	for (const field of fields.filter(isAnswered)) {
		const value = (saved as Record<string, unknown>)[field.id]
		if (value === undefined) {
			continue
		}
		if (field.kind === 'checkbox') {
			if (typeof value === 'boolean') {
				values[field.id] = value
			}
		} else if (fileKinds.includes(field.kind)) {
			if (Array.isArray(value) && value.every(isAnswerFile)) {
				values[field.id] = field.kind === 'signature' ? value.slice(0, 1) : value
			}
		} else if (pointKinds.includes(field.kind)) {
			values[field.id] = value === '' ? '' : (pointOf(field, value) ?? '')
		} else if (field.kind === 'ranking') {
			values[field.id] = rankingOf(field, value)
		} else if (field.kind === 'matrix') {
			values[field.id] = matrixOf(field, value)
		} else if (isListKind(field.kind)) {
			if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
				values[field.id] = field.options ? value.filter((item) => field.options?.includes(item)) : value
			}
		} else if (typeof value === 'string') {
			const isKnownOption = !field.options || value === '' || field.options.includes(value)
			if (isKnownOption) {
				values[field.id] = value
			}
		}
	}
	return values
}

/** The chosen options, ids or names of a list field's value. */
export function chosenOf(value: DraftValue): string[] {
	return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function isAnswerFile(item: unknown): item is AnswerFile {
	return (
		typeof item === 'object' &&
		item !== null &&
		typeof (item as AnswerFile).blobId === 'string' &&
		typeof (item as AnswerFile).name === 'string'
	)
}

/** Whether a value differs from its field's start, for "your answers were kept" notices. */
export function hasAnswers(fields: PublicField[], values: DraftValues): boolean {
	const start = initialValues(fields)
	return fields.filter(isAnswered).some((field) => JSON.stringify(values[field.id]) !== JSON.stringify(start[field.id]))
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
// The server's phone pattern (workspaces/values.ts): digits and the usual punctuation.
const phonePattern = /^[+()\d\s.\-/#*xextEXT]{3,}$/
const schemePattern = /^[a-z][a-z\d+.-]*:/i

/** A typed web address as sent: `example.com` gains `https://`, as people expect. */
function normaliseUrl(text: string): string | null {
	const hasScheme = schemePattern.test(text)
	const candidate = hasScheme ? text : `https://${text}`
	try {
		const url = new URL(candidate)
		const isAllowed = url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:'
		if (!isAllowed || (!hasScheme && !url.hostname.includes('.'))) {
			return null
		}
		return candidate
	} catch {
		return null
	}
}

/** Whether the browser's language writes 3,5 for three and a half (its phone keypad types a comma). */
function isDecimalComma(): boolean {
	try {
		return new Intl.NumberFormat().formatToParts(1.5).find((part) => part.type === 'decimal')?.value === ','
	} catch {
		return false
	}
}

function parseNumber(text: string): number | null {
	let compact = text.replace(/\s/g, '')
	// Only where a comma is the decimal mark: elsewhere "1,000" is a thousand, and guessing would be worse than asking.
	if (isDecimalComma() && !compact.includes('.')) {
		compact = compact.replace(',', '.')
	}
	if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(compact)) {
		return null
	}
	const value = Number(compact)
	return Number.isFinite(value) ? value : null
}

function requiredMessage(field: PublicField): string {
	switch (field.kind) {
		case 'checkbox':
			return 'Tick this box to continue.'
		case 'select':
		case 'status':
			return 'Choose an option.'
		case 'multi_select':
		case 'people':
		case 'relation':
			return 'Choose at least one.'
		case 'date':
			return field.includeTime ? 'Enter a date and time.' : 'Enter a date.'
		case 'files':
			return 'Add a file.'
		case 'signature':
			return 'Sign here, or type your name instead.'
		case 'rating':
			return 'Choose a rating.'
		case 'scale':
		case 'nps':
			return 'Choose a number.'
		case 'ranking':
			return 'Put the choices in order (or keep this order).'
		case 'matrix':
			return 'Answer every row.'
		default:
			return 'Fill in this field.'
	}
}

type Checked = { answer: unknown } | { error: string }

/** One input's value as its answer (undefined: left out), or what is wrong with it. */
function checkValue(field: PublicField, value: DraftValue | undefined, isLenient = false): Checked {
	if (!isAnswered(field)) {
		return { answer: undefined }
	}
	const current = value ?? emptyValue(field)
	const isBlank =
		current === false ||
		(typeof current === 'string' && current.trim() === '') ||
		(Array.isArray(current) && current.length === 0) ||
		(isMatrixDraft(current) && Object.keys(matrixOf(field, current)).length === 0)
	if (isBlank) {
		if (field.required) {
			return { error: requiredMessage(field) }
		}
		return { answer: field.kind === 'checkbox' ? false : undefined }
	}
	if (isMatrixDraft(current)) {
		const answer = matrixOf(field, current)
		const left = unansweredRows(field, answer).length
		return field.required && left > 0 ? { error: `Answer every row (${left} left).` } : { answer }
	}
	if (field.kind === 'ranking') {
		const order = rankingOf(field, current)
		return order.length > 0 ? { answer: order } : { error: 'Put every choice in order.' }
	}
	if (typeof current === 'boolean' || Array.isArray(current)) {
		return { answer: current }
	}
	const limit = textLimitOf(field)
	if (limit !== undefined && current.length > limit && !isLenient) {
		// Never cut: the visitor decides what to take out.
		const over = current.length - limit
		return {
			error: `Shorten this to ${formatCount(limit)} characters: it is ${formatCount(over)} too long.`,
		}
	}
	const text = current.trim()
	switch (field.kind) {
		case 'rating':
		case 'scale':
		case 'nps': {
			const point = pointOf(field, current)
			const { min, max } = scaleRangeOf(field)
			return point === undefined ? { error: `Choose from ${min} to ${max}.` } : { answer: Number(point) }
		}
		case 'long_text':
			return { answer: current }
		case 'number': {
			const number = parseNumber(text)
			return number === null ? { error: 'Enter a number, like 42 or 3.5.' } : { answer: number }
		}
		case 'email':
			return emailPattern.test(text) ? { answer: text } : { error: 'Enter an e-mail address, like name@example.com.' }
		case 'url': {
			const url = normaliseUrl(text)
			return url === null ? { error: 'Enter a web address, like https://example.com.' } : { answer: url }
		}
		case 'phone':
			return phonePattern.test(text)
				? { answer: text }
				: { error: 'Enter a phone number: digits, spaces and + ( ) - only.' }
		case 'date': {
			if (!field.includeTime) {
				return /^\d{4}-\d{2}-\d{2}$/.test(text)
					? { answer: { start: text, end: null, timeZone: null } }
					: { error: 'Enter a date.' }
			}
			const start = localDateTimeToIso(text)
			return start === null
				? { error: 'Enter a date and time.' }
				: { answer: { start, end: null, timeZone: browserTimeZone() } }
		}
		default:
			return { answer: text }
	}
}

/** Every field checked: the answers to send, keyed by field id, and the errors by field id. */
export function collectAnswers(
	fields: PublicField[],
	values: DraftValues,
): { answers: Record<string, unknown>; errors: Record<string, string> } {
	const answers: Record<string, unknown> = {}
	const errors: Record<string, string> = {}
	for (const field of fields) {
		const checked = checkValue(field, values[field.id])
		if ('error' in checked) {
			errors[field.id] = checked.error
		} else if (checked.answer !== undefined) {
			answers[field.id] = checked.answer
		}
	}
	return { answers, errors }
}

/**
 * The answers as they stand, for the conditional logic while the form is filled in: what each input
 * would send, with anything blank or not yet valid read as no answer (never an error).
 */
export function currentAnswers(fields: PublicField[], values: DraftValues): Record<string, unknown> {
	const answers: Record<string, unknown> = {}
	for (const field of fields) {
		const checked = checkValue({ ...field, required: false }, values[field.id], true)
		if ('answer' in checked && checked.answer !== undefined) {
			answers[field.id] = checked.answer
		}
	}
	return answers
}

/** A count as the counter and messages write it: 1,950. */
export function formatCount(count: number): string {
	return count.toLocaleString('en-US')
}

const truePattern = /^(true|1|yes)$/i

/** The option named `text`, compared trimmed and case-insensitively (as the logic compares options). */
function matchOption(field: PublicField, text: string): string | undefined {
	const wanted = text.trim().toLowerCase()
	return field.options?.find((option) => option.trim().toLowerCase() === wanted)
}

/**
 * A URL parameter as the field's input value, or undefined when it does not fit the field: a
 * prefill link is written by hand, so a stray value is dropped rather than shown as an error.
 */
export function draftFromParam(field: PublicField, param: string): DraftValue | undefined {
	switch (field.kind) {
		case 'rating':
		case 'scale':
		case 'nps':
			return pointOf(field, param.trim())
		// An order, a drawing, a grid of answers, files or a worked-out number: nothing a link can say.
		case 'ranking':
		case 'signature':
		case 'matrix':
		case 'files':
		case 'calculated':
			return undefined
		case 'checkbox':
			return truePattern.test(param.trim())
		case 'number': {
			// A link is the same for every visitor, so a plain decimal point whatever the browser's language.
			const text = param.trim()
			const number = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text) ? Number(text) : Number.NaN
			return Number.isFinite(number) ? String(number) : undefined
		}
		case 'select':
		case 'status':
			return matchOption(field, param)
		case 'multi_select':
		case 'people':
		case 'relation': {
			const items = param
				.split(',')
				.map((item) => item.trim())
				.filter((item) => item !== '')
			if (field.kind !== 'multi_select') {
				return items
			}
			return items.map((item) => matchOption(field, item)).filter((item): item is string => item !== undefined)
		}
		case 'date': {
			const day = param.trim()
			if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
				return undefined
			}
			return field.includeTime ? `${day}T00:00` : day
		}
		default:
			return isContent(field.kind) ? undefined : param
	}
}
