// What a visitor sees after answering: the confirmation message with answers put in
// (`Thanks, {Name}!`), or a redirect to the form owner's page with the answers as parameters.
// Shared by the server (which answers the submission with both) and the builder's preview.

// Zod-free (the public page has a size budget): kinds are told apart with form-pages.ts.
import type { FieldKind } from './form-kinds.ts'
import { isContent as isContentKind } from './form-pages.ts'

/**
 * What reading an answer needs to know of its question (a FormField or PublicField will do);
 * without a kind the answer is read by its shape alone.
 */
export type AnswerTextField = {
	kind?: FieldKind
	/** rating: "4/5" reads against the top of the scale. */
	scale?: { max: number } | null
	/** matrix: rows read in the question's order (a stored answer's keys may come back in another). */
	matrix?: { rows: string[] } | null
	/** calculated: the number as the page shows it. */
	calculation?: { decimals: number; prefix: string | null; suffix: string | null } | null
}

type ThanksField = { id: string; label: string } & AnswerTextField

/** The top of a rating when the builder set none (as forms.ts defaults it). */
const defaultRatingMax = 5

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * An answer as text, the same in mails, webhooks, CSV and placeholders: lists joined, dates by
 * their day (and end), yes/no for ticks, files (and a signature) by name, a rating as "4/5", a
 * ranking as "1. A, 2. B", a matrix as "Row: Column; …", a calculation with its prefix and suffix.
 * Content (headings, images…) has no answer: always empty.
 */
export function answerText(value: unknown, field?: AnswerTextField): string {
	if (value === null || value === undefined) {
		return ''
	}
	if (field?.kind && isContentKind(field.kind)) {
		return ''
	}
	switch (field?.kind) {
		case 'rating':
			return typeof value === 'number' ? `${value}/${field.scale?.max ?? defaultRatingMax}` : answerText(value)
		case 'ranking':
			return Array.isArray(value)
				? value.map((choice, index) => `${index + 1}. ${answerText(choice)}`).join(', ')
				: answerText(value)
		case 'matrix': {
			if (!isRecord(value)) {
				return answerText(value)
			}
			const rows = field.matrix?.rows ?? Object.keys(value)
			return rows
				.filter((row) => Object.hasOwn(value, row) && answerText(value[row]) !== '')
				.map((row) => `${row}: ${answerText(value[row])}`)
				.join('; ')
		}
		case 'calculated': {
			if (typeof value !== 'number') {
				return answerText(value)
			}
			const calculation = field.calculation
			const number = calculation ? value.toFixed(calculation.decimals) : String(value)
			return `${calculation?.prefix ?? ''}${number}${calculation?.suffix ?? ''}`
		}
	}
	if (Array.isArray(value)) {
		return value.map((item) => answerText(item)).join(', ')
	}
	if (typeof value === 'boolean') {
		return value ? 'Yes' : 'No'
	}
	if (typeof value === 'object' && 'start' in value) {
		const date = value as { start: unknown; end?: unknown }
		return date.end ? `${String(date.start)} → ${String(date.end)}` : String(date.start)
	}
	if (typeof value === 'object' && 'name' in value) {
		return String((value as { name: unknown }).name)
	}
	return String(value)
}

/**
 * `{Label}` becomes that field's answer (labels compared trimmed and case-insensitively); a
 * placeholder naming no field is left as written, so a typo shows rather than vanishes.
 * People and related rows are put in as the ids answered.
 */
export function fillPlaceholders(message: string, fields: ThanksField[], answers: Record<string, unknown>): string {
	const byLabel = new Map(
		fields.filter((field) => !isContent(field)).map((field) => [field.label.trim().toLowerCase(), field]),
	)
	return message.replace(/\{([^{}]{1,200})\}/g, (placeholder, label: string) => {
		const field = byLabel.get(label.trim().toLowerCase())
		return field === undefined ? placeholder : answerText(answers[field.id], field)
	})
}

function isContent(field: AnswerTextField): boolean {
	return field.kind !== undefined && isContentKind(field.kind)
}

/** Parameter names from labels: `Your e-mail` → `your_e_mail`. */
export function parameterName(label: string): string {
	return (
		label
			.normalize('NFKD')
			.replace(/[\u0300-\u036f]/g, '')
			.toLowerCase()
			.replace(/[^a-z0-9]+/g, '_')
			.replace(/^_+|_+$/g, '') || 'field'
	)
}

/**
 * Where to send the visitor: the owner's URL, with each answered field as a parameter when
 * asked for (placeholders in the URL are filled as well). Null for anything but http(s).
 */
export function redirectTarget(
	url: string,
	fields: ThanksField[],
	answers: Record<string, unknown>,
	withAnswers: boolean,
): string | null {
	let target: URL
	try {
		target = new URL(fillPlaceholders(url, fields, answers).replace(/\s/g, '%20'))
	} catch {
		return null
	}
	if (target.protocol !== 'http:' && target.protocol !== 'https:') {
		return null
	}
	if (withAnswers) {
		for (const field of fields) {
			const text = answerText(answers[field.id], field)
			if (text !== '') {
				target.searchParams.set(parameterName(field.label), text)
			}
		}
	}
	return target.toString()
}
