import type { FieldError } from '@blocksmith/contracts/errors.ts'
import { fileRulesOf } from '@blocksmith/contracts/form-files.ts'
import { evaluateLogic, type FormLogic } from '@blocksmith/contracts/form-rules.ts'
import { type FormField, fieldKindsFor } from '@blocksmith/contracts/forms.ts'
import type { Property, RowValues } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray } from 'drizzle-orm'
import { members } from '#src/core/auth/auth.schema.ts'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import { validateRowValues } from '#src/workspaces/values.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { answerBlobIds, resolveAnswerFiles } from './forms.files.ts'

// The server's check of a form's answers: the browser's checks are a convenience, this is the
// defence. Answers are keyed by field id and use the row value shapes; each error names the
// field (`answers.<fieldId>`) so the page can show it beside the input.

/** Explicit limits on what one answer may hold. */
export const answerLimits = {
	shortTextChars: 2_000,
	longTextChars: 20_000,
	choices: 100,
} as const

class InvalidAnswer extends Error {}

function fail(message: string): never {
	throw new InvalidAnswer(message)
}

function isEmpty(value: unknown): boolean {
	return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/

/** One answer in the shape of its property's value, or undefined when left empty. */
function normalise(field: FormField, raw: unknown): unknown {
	const label = field.label
	if (isEmpty(raw) || (field.kind === 'checkbox' && raw === false)) {
		if (field.required) {
			fail(field.kind === 'checkbox' ? `Tick "${label}" to continue.` : `"${label}" is required.`)
		}
		return field.kind === 'checkbox' && raw === false ? false : undefined
	}
	switch (field.kind) {
		case 'short_text':
		case 'long_text': {
			if (typeof raw !== 'string') {
				fail(`"${label}" must be text.`)
			}
			const limit = field.kind === 'short_text' ? answerLimits.shortTextChars : answerLimits.longTextChars
			if (raw.length > limit) {
				fail(`"${label}" is longer than ${limit} characters.`)
			}
			if (field.required && raw.trim() === '') {
				fail(`"${label}" is required.`)
			}
			return raw
		}
		case 'number': {
			const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
			if (typeof value !== 'number' || !Number.isFinite(value)) {
				fail(`"${label}" must be a number.`)
			}
			return value
		}
		case 'date': {
			const value = typeof raw === 'string' ? { start: raw, end: null, timeZone: null } : raw
			if (!value || typeof value !== 'object' || typeof (value as { start?: unknown }).start !== 'string') {
				fail(`"${label}" must be a date.`)
			}
			const start = (value as { start: string }).start
			if (!field.includeTime && !isoDate.test(start)) {
				fail(`"${label}" must be a day (YYYY-MM-DD).`)
			}
			return value
		}
		case 'checkbox':
			if (typeof raw !== 'boolean') {
				fail(`"${label}" must be ticked or not.`)
			}
			return raw
		case 'files': {
			const blobIds = answerBlobIds(raw)
			if (blobIds === null) {
				fail(`"${label}" must be a list of uploaded files.`)
			}
			const { maxFiles } = fileRulesOf(field)
			if (blobIds.length > maxFiles) {
				fail(`"${label}" takes at most ${maxFiles} ${maxFiles === 1 ? 'file' : 'files'}.`)
			}
			return blobIds
		}
		case 'multi_select':
		case 'people':
		case 'relation':
			if (!Array.isArray(raw)) {
				fail(`"${label}" must be a list of choices.`)
			}
			if (raw.length > answerLimits.choices) {
				fail(`"${label}" takes at most ${answerLimits.choices} choices.`)
			}
			return raw
		default:
			return raw
	}
}

/** The blobs the stored answers of a form's file fields hold. */
export function fileBlobIds(fields: FormField[], answers: Record<string, unknown>): string[] {
	return fields.filter((field) => field.kind === 'files').flatMap((field) => answerBlobIds(answers[field.id]) ?? [])
}

/** Checks a form's fields against its database: each writes one askable property, in a kind it allows. */
export function validateFieldDefinitions(properties: Property[], fields: FormField[]): void {
	const errors: FieldError[] = []
	const byId = new Map(properties.map((property) => [property.id, property]))
	const seenFields = new Set<string>()
	const seenProperties = new Set<string>()
	fields.forEach((field, index) => {
		const property = byId.get(field.propertyId)
		if (seenFields.has(field.id)) {
			errors.push({ field: `fields.${index}.id`, message: 'Two fields have the same id.' })
		}
		seenFields.add(field.id)
		if (!property) {
			errors.push({ field: `fields.${index}.propertyId`, message: 'The database has no such property.' })
			return
		}
		if (seenProperties.has(property.id)) {
			errors.push({ field: `fields.${index}.propertyId`, message: `"${property.name}" already has a field.` })
		}
		seenProperties.add(property.id)
		if (!fieldKindsFor(property.type).includes(field.kind)) {
			errors.push({
				field: `fields.${index}.kind`,
				message: `"${property.name}" (${property.type}) cannot be asked as ${field.kind}.`,
			})
			return
		}
		if (field.kind === 'files' && field.defaultValue !== null && field.defaultValue !== undefined) {
			errors.push({ field: `fields.${index}.defaultValue`, message: 'A file field has no default value.' })
		} else if (field.defaultValue !== null && field.defaultValue !== undefined) {
			try {
				const value = normalise({ ...field, required: false }, field.defaultValue)
				if (value !== undefined) {
					validateRowValues([property], { [property.id]: value })
				}
			} catch (error) {
				if (!(error instanceof InvalidAnswer || error instanceof AppError)) {
					throw error
				}
				errors.push({ field: `fields.${index}.defaultValue`, message: `Not a valid value for "${field.label}".` })
			}
		}
	})
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', { detail: errors[0]?.message ?? 'Some fields are invalid.', errors })
	}
}

/** Relation answers must name rows of the related database; local people answers, members. */
async function checkReferences(
	db: Db,
	orgId: string,
	tool: string,
	fields: FormField[],
	properties: Map<string, Property>,
	values: RowValues,
	errors: FieldError[],
): Promise<void> {
	for (const field of fields) {
		const property = properties.get(field.propertyId)
		const ids = values[field.propertyId]
		if (!property || !Array.isArray(ids) || ids.length === 0) {
			continue
		}
		const wanted = ids as string[]
		let known: string[] | null = null
		if (field.kind === 'relation' && property.relationDatabaseId) {
			const rows = await db
				.select({ id: workspaceRows.externalId })
				.from(workspaceRows)
				.where(
					and(
						eq(workspaceRows.databaseId, property.relationDatabaseId),
						eq(workspaceRows.organizationId, orgId),
						inArray(workspaceRows.externalId, wanted),
					),
				)
			known = rows.map((row) => row.id)
		} else if (field.kind === 'people' && tool === 'local') {
			const rows = await db
				.select({ id: members.userId })
				.from(members)
				.where(and(eq(members.organizationId, orgId), inArray(members.userId, wanted)))
			known = rows.map((row) => row.id)
		}
		if (known && wanted.some((id) => !known.includes(id))) {
			errors.push({ field: `answers.${field.id}`, message: `"${field.label}" has a choice that does not exist.` })
		}
	}
}

/**
 * The answers as stored (keyed by field id) and as written (keyed by property id). Throws a
 * VALIDATION_FAILED problem naming every field that is wrong.
 */
export async function validateAnswers(
	db: Db,
	form: { id: string; organizationId: string; tool: string; fields: FormField[]; logic: FormLogic },
	properties: Property[],
	answers: Record<string, unknown>,
): Promise<{ answers: Record<string, unknown>; values: RowValues }> {
	const errors: FieldError[] = []
	const byField = new Map(form.fields.map((field) => [field.id, field]))
	for (const key of Object.keys(answers)) {
		if (!byField.has(key)) {
			errors.push({ field: `answers.${key}`, message: 'This form has no such field.' })
		}
	}
	const normalised: Record<string, unknown> = {}
	const raw: Record<string, unknown> = {}
	// The same rules the browser ran: a hidden field is neither required nor stored, whatever was sent for it.
	const states = evaluateLogic(form.fields, form.logic, answers)
	for (const field of form.fields) {
		const state = states[field.id]
		if (state && !state.visible) {
			continue
		}
		try {
			// A hidden field takes its value from the link alone: it can be missing, never demanded.
			const required = !field.hidden && (state?.required ?? field.required)
			const value = normalise({ ...field, required }, answers[field.id])
			if (value !== undefined) {
				normalised[field.id] = value
				raw[field.propertyId] = value
			}
		} catch (error) {
			if (!(error instanceof InvalidAnswer)) {
				throw error
			}
			errors.push({ field: `answers.${field.id}`, message: error.message })
		}
	}
	// Files are named by blob id in the answer; they become the property's files once checked.
	const fileFields = form.fields.filter((field) => field.kind === 'files' && Array.isArray(normalised[field.id]))
	const files = await resolveAnswerFiles(
		db,
		form,
		fileFields.map((field) => ({ field, blobIds: normalised[field.id] as string[] })),
		errors,
	)
	for (const field of fileFields) {
		const resolved = files.get(field.id)
		if (resolved) {
			normalised[field.id] = resolved
			raw[field.propertyId] = resolved
		} else {
			delete normalised[field.id]
			delete raw[field.propertyId]
		}
	}
	let values: RowValues = {}
	try {
		values = validateRowValues(properties, raw)
	} catch (error) {
		if (!(error instanceof AppError) || error.code !== 'VALIDATION_FAILED') {
			throw error
		}
		// The row check names properties; the visitor knows fields.
		for (const problem of error.errors ?? []) {
			const propertyId = problem.field.replace(/^values\./, '')
			const field = form.fields.find((candidate) => candidate.propertyId === propertyId)
			errors.push({ field: field ? `answers.${field.id}` : problem.field, message: problem.message })
		}
	}
	if (errors.length === 0) {
		const properties_ = new Map(properties.map((property) => [property.id, property]))
		await checkReferences(db, form.organizationId, form.tool, form.fields, properties_, values, errors)
	}
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', {
			detail: errors.length === 1 ? (errors[0]?.message ?? 'An answer is invalid.') : 'Some answers are invalid.',
			errors,
		})
	}
	return { answers: normalised, values }
}
