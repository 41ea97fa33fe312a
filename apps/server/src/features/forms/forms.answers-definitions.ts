import type { FieldError } from '@blocksmith/contracts/errors.ts'
import { calculationProblems } from '@blocksmith/contracts/form-calc.ts'
import { isContentKind, unboundQuestionKinds } from '@blocksmith/contracts/form-kinds.ts'
import { jumpProblems } from '@blocksmith/contracts/form-pages.ts'
import type { LogicRule } from '@blocksmith/contracts/form-rules.ts'
import { type FormField, fieldKindsFor } from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { AppError } from '#src/lib/errors.ts'
import { validateRowValues } from '#src/workspaces/values.ts'
import { checkUnbound, InvalidAnswer, normaliseAnswer, propertyValueOf } from './forms.answers-kinds.ts'

// The check of a form's questions and content when it is saved: each question writes one
// property of its database in a kind that property allows, or is kept with the answer only (in a
// kind that may be); each kind has the settings it needs; default values are answers it would
// take. Every problem names `fields.N.<key>` so the builder can show it on the item.

/** Kinds whose questions cannot be answered with a default (uploads, the server's own result). */
const noDefaultKinds = new Set<FormField['kind']>(['files', 'signature', 'calculated'])

const rangeMessage = {
	rating: 'A rating goes from 1 star to 3–10 stars.',
	scale: 'A scale starts at 0 or 1 and ends at 2–10.',
} as const

function hasDuplicates(items: string[]): boolean {
	return new Set(items.map((item) => item.trim().toLowerCase())).size !== items.length
}

/** Problems with one item's own settings, by kind. */
function settingsProblems(field: FormField, property: Property | undefined): { key: string; message: string }[] {
	const problems: { key: string; message: string }[] = []
	const choices = field.choices ?? []
	// Choices of its own: a ranking, or a select without a property, whose property has no options to offer.
	const needsChoices =
		(field.kind === 'ranking' && !property?.options) ||
		((field.kind === 'select' || field.kind === 'multi_select') && !property)
	if (needsChoices && choices.length < 2) {
		problems.push({ key: 'choices', message: `Give "${field.label}" at least two choices.` })
	} else if (needsChoices && hasDuplicates(choices)) {
		problems.push({ key: 'choices', message: `"${field.label}" has the same choice twice.` })
	}
	if (field.kind === 'rating' && field.scale && (field.scale.min !== 1 || field.scale.max < 3)) {
		problems.push({ key: 'scale', message: rangeMessage.rating })
	}
	if (field.kind === 'scale' && field.scale && (field.scale.min > 1 || field.scale.max < 2 || field.scale.max > 10)) {
		problems.push({ key: 'scale', message: rangeMessage.scale })
	}
	if (field.kind === 'matrix') {
		if (!field.matrix) {
			problems.push({ key: 'matrix', message: `Give "${field.label}" its rows and columns.` })
		} else if (hasDuplicates(field.matrix.rows) || hasDuplicates(field.matrix.columns)) {
			problems.push({ key: 'matrix', message: `"${field.label}" has the same row or column twice.` })
		}
	}
	if (field.kind === 'paragraph' && !field.body?.trim()) {
		problems.push({ key: 'body', message: 'Write the text of the paragraph.' })
	}
	if (field.kind === 'image' && !field.image) {
		problems.push({ key: 'image', message: 'Pick the image to show.' })
	}
	return problems
}

/** Why the default value is not an answer the question takes, or null when it is (or it has none). */
function defaultValueProblem(field: FormField, property: Property | undefined): string | null {
	if (field.defaultValue === null || field.defaultValue === undefined) {
		return null
	}
	if (isContentKind(field.kind)) {
		return 'Content has no default value.'
	}
	if (noDefaultKinds.has(field.kind)) {
		return `A ${field.kind} question has no default value.`
	}
	try {
		const value = normaliseAnswer({ ...field, required: false }, field.defaultValue, property)
		if (value !== undefined && property) {
			validateRowValues([property], { [property.id]: propertyValueOf(field, property, value) })
		} else if (value !== undefined) {
			checkUnbound(field, value)
		}
		return null
	} catch (error) {
		if (!(error instanceof InvalidAnswer || error instanceof AppError)) {
			throw error
		}
		return `Not a valid value for "${field.label}".`
	}
}

/**
 * Checks a form's items against its database (see the header), and its calculations' operands
 * (form-calc.ts); with the form's rules, their jumps too (form-pages.ts: `logic.N.toPageId`).
 * Throws VALIDATION_FAILED naming every problem.
 */
export function validateFieldDefinitions(properties: Property[], fields: FormField[], rules?: LogicRule[]): void {
	const errors: FieldError[] = []
	const byId = new Map(properties.map((property) => [property.id, property]))
	const seenFields = new Set<string>()
	const seenProperties = new Set<string>()
	fields.forEach((field, index) => {
		const at = (key: string, message: string) => errors.push({ field: `fields.${index}.${key}`, message })
		if (seenFields.has(field.id)) {
			at('id', 'Two fields have the same id.')
		}
		seenFields.add(field.id)
		let property: Property | undefined
		if (isContentKind(field.kind)) {
			if (field.propertyId !== null && field.propertyId !== undefined) {
				at('propertyId', 'Content writes no property.')
			}
		} else if (field.propertyId === null || field.propertyId === undefined) {
			if (!unboundQuestionKinds.includes(field.kind)) {
				at('propertyId', `A ${field.kind} question needs a property of the database to write.`)
				return
			}
		} else {
			property = byId.get(field.propertyId)
			if (!property) {
				at('propertyId', 'The database has no such property.')
				return
			}
			if (seenProperties.has(property.id)) {
				at('propertyId', `"${property.name}" already has a field.`)
			}
			seenProperties.add(property.id)
			if (!fieldKindsFor(property.type).includes(field.kind)) {
				at('kind', `"${property.name}" (${property.type}) cannot be asked as ${field.kind}.`)
				return
			}
		}
		for (const problem of settingsProblems(field, property)) {
			at(problem.key, problem.message)
		}
		const problem = defaultValueProblem(field, property)
		if (problem) {
			at('defaultValue', problem)
		}
	})
	// A calculation reads earlier numeric questions; a jump goes to a later page (helper modules of form-rules.ts).
	for (const problem of [...calculationProblems(fields), ...(rules ? jumpProblems(fields, rules) : [])]) {
		errors.push({ field: problem.path, message: problem.message })
	}
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', { detail: errors[0]?.message ?? 'Some fields are invalid.', errors })
	}
}
