import type { FieldError } from '@blocksmith/contracts/errors.ts'
import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import { evaluateForm, type FormLogic } from '@blocksmith/contracts/form-rules.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Property, RowValues } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray } from 'drizzle-orm'
import { members } from '#src/core/auth/auth.schema.ts'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import type { Storage } from '#src/lib/storage.ts'
import { validateRowValues } from '#src/workspaces/values.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { checkUnbound, InvalidAnswer, isEmptyAnswer, normaliseAnswer, propertyValueOf } from './forms.answers-kinds.ts'
import { idsOutsideScope } from './forms.choices.ts'
import { answerBlobIds, resolveAnswerFiles } from './forms.files.ts'

// The server's check of a form's answers: the browser's checks are a convenience, this is the
// defence. Answers are keyed by field id and use the row value shapes (forms.ts `AnswerShapes`
// for the newer kinds); each error names the field (`answers.<fieldId>`) so the page can show it
// beside the input. Each kind's own check is in forms.answers-kinds.ts, the check of the
// questions themselves (on save) in forms.answers-definitions.ts.

export { validateFieldDefinitions } from './forms.answers-definitions.ts'
export { answerLimits } from './forms.answers-kinds.ts'

/** The blobs the stored answers of a form's file and signature questions hold. */
export function fileBlobIds(fields: FormField[], answers: Record<string, unknown>): string[] {
	return fields.filter(isFileKind).flatMap((field) => answerBlobIds(answers[field.id]) ?? [])
}

function isFileKind(field: FormField): boolean {
	return field.kind === 'files' || field.kind === 'signature'
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
	setByServer: ReadonlySet<string>,
): Promise<void> {
	for (const field of fields) {
		const property = field.propertyId ? properties.get(field.propertyId) : undefined
		const ids = property ? values[property.id] : undefined
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
		} else if (!setByServer.has(field.id) && (await idsOutsideScope(db, orgId, field, property, wanted))) {
			// A choice the question's scope never listed (forms.choices.ts): made up, not picked.
			errors.push({ field: `answers.${field.id}`, message: `"${field.label}" has a choice this form does not offer.` })
		}
	}
}

/**
 * The answers as stored (keyed by field id) and as written (keyed by property id). Throws a
 * VALIDATION_FAILED problem naming every field that is wrong.
 *
 * The rules run as in the browser (form-rules.ts `evaluateForm`): a field hidden by a rule is
 * neither required nor stored, whatever was sent for it; an answer to a field on a page the path
 * skipped, or to content, is refused (the page never sends one, so it was made up); calculated
 * questions take the server's result, whatever was sent. Questions without a property are kept
 * in the answers only, never written.
 */
export async function validateAnswers(
	deps: { db: Db; storage: Storage },
	form: { id: string; organizationId: string; tool: string; fields: FormField[]; logic: FormLogic },
	properties: Property[],
	answers: Record<string, unknown>,
	/**
	 * Questions whose answer the server itself set (a portal member's link): the choices a visitor
	 * may see do not apply to them, only that the rows exist.
	 */
	setByServer: ReadonlySet<string> = new Set(),
): Promise<{ answers: Record<string, unknown>; values: RowValues }> {
	const { db } = deps
	const errors: FieldError[] = []
	const byField = new Map(form.fields.map((field) => [field.id, field]))
	const byProperty = new Map(properties.map((property) => [property.id, property]))
	for (const key of Object.keys(answers)) {
		if (!byField.has(key)) {
			errors.push({ field: `answers.${key}`, message: 'This form has no such field.' })
		}
	}
	const given: Record<string, unknown> = {}
	for (const field of form.fields) {
		if (field.kind !== 'calculated' && Object.hasOwn(answers, field.id)) {
			given[field.id] = answers[field.id]
		}
	}
	const evaluation = evaluateForm(form.fields, form.logic, given)
	const normalised: Record<string, unknown> = {}
	const raw: Record<string, unknown> = {}
	const keep = (field: FormField, value: unknown) => {
		normalised[field.id] = value
		if (field.propertyId) {
			const property = byProperty.get(field.propertyId)
			raw[field.propertyId] = property ? propertyValueOf(field, property, value) : value
		}
	}
	for (const field of form.fields) {
		const state = evaluation.fields[field.id]
		const sent = Object.hasOwn(given, field.id) && !isEmptyAnswer(given[field.id])
		if (isContentKind(field.kind)) {
			if (sent) {
				errors.push({
					field: `answers.${field.id}`,
					message: `"${field.label}" is not a question: it takes no answer.`,
				})
			}
			continue
		}
		if (state?.skipped) {
			if (sent) {
				errors.push({
					field: `answers.${field.id}`,
					message: 'This question is on a page the form skipped for these answers.',
				})
			}
			continue
		}
		if (state && !state.visible) {
			continue
		}
		if (field.kind === 'calculated') {
			const value = evaluation.calculated[field.id]
			if (typeof value === 'number' && Number.isFinite(value)) {
				keep(field, value)
			}
			continue
		}
		try {
			// A hidden field takes its value from the link alone: it can be missing, never demanded.
			const required = !field.hidden && (state?.required ?? field.required)
			const property = field.propertyId ? byProperty.get(field.propertyId) : undefined
			const value = normaliseAnswer({ ...field, required }, given[field.id], property)
			if (value !== undefined) {
				keep(field, field.propertyId ? value : checkUnbound(field, value))
			}
		} catch (error) {
			if (!(error instanceof InvalidAnswer)) {
				throw error
			}
			errors.push({ field: `answers.${field.id}`, message: error.message })
		}
	}
	// Files are named by blob id in the answer; they become the property's files once checked.
	// Those of questions without a property are kept with the answer the same way.
	const fileFields = form.fields.filter((field) => isFileKind(field) && Array.isArray(normalised[field.id]))
	const files = await resolveAnswerFiles(
		deps,
		form,
		fileFields.map((field) => ({ field, blobIds: normalised[field.id] as string[] })),
		errors,
	)
	for (const field of fileFields) {
		const resolved = files.get(field.id)
		delete normalised[field.id]
		if (field.propertyId) {
			delete raw[field.propertyId]
		}
		if (resolved) {
			keep(field, resolved)
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
		await checkReferences(db, form.organizationId, form.tool, form.fields, byProperty, values, errors, setByServer)
	}
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', {
			detail: errors.length === 1 ? (errors[0]?.message ?? 'An answer is invalid.') : 'Some answers are invalid.',
			errors,
		})
	}
	return { answers: normalised, values }
}
