import { randomUUID } from 'node:crypto'
import type { FieldKind } from '@blocksmith/contracts/form-kinds.ts'
import { checkFormRules } from '@blocksmith/contracts/form-rules.ts'
import { formTemplate } from '@blocksmith/contracts/form-templates.ts'
import {
	type CreateForm,
	type Form,
	type FormField,
	type FormLimits,
	type FormNotifications,
	fieldKindsFor,
	formFieldSchema,
	formLayoutSchema,
	formLimitsSchema,
	formNotificationsSchema,
	formPageSchema,
	type PageImage,
	type UpdateForm,
} from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { hashPassword } from 'better-auth/crypto'
import { and, count, desc, eq, inArray, isNull, ne } from 'drizzle-orm'
import { members } from '#src/core/auth/auth.schema.ts'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaces } from '#src/workspaces/workspaces.schema.ts'
import { validateFieldDefinitions } from './forms.answers.ts'
import { checkChoiceScopes } from './forms.choices.ts'
import { type FormsCtx, workspaceCtxFor } from './forms.deps.ts'
import { canDeleteForm, canManageWebhooks, formRefusals, isAskedByDefault } from './forms.policy.ts'
import { formSlugs, formSubmissions, forms } from './forms.schema.ts'
import { createDatabaseForForm, templateFields } from './forms.templates.ts'
import { checkThemeCss, themeCss, themeImages, themeOf } from './forms.theme.ts'

export type FormRecord = typeof forms.$inferSelect
type DatabaseRecord = typeof workspaceDatabases.$inferSelect

const defaults = {
	confirmationMessage: 'Thank you! Your answer has been recorded.',
	submitLabel: 'Submit',
	closedMessage: 'This form is closed and no longer accepts answers.',
}

/** Properties a field can write: writable types with a field kind. */
function askableProperties(properties: Property[]): Property[] {
	return properties.filter((property) => fieldKindsFor(property.type).length > 0)
}

/**
 * The first fields of a new form: the plain inputs among its database's properties, title first,
 * in the database's order. Relation, people and status properties are left for the owner to
 * add (forms.policy.ts), so a new form shows visitors no one's names and no related rows.
 */
function fieldsFor(properties: Property[]): FormField[] {
	const askable = askableProperties(properties).filter((property) => isAskedByDefault(property.type))
	const ordered = [...askable.filter((p) => p.type === 'title'), ...askable.filter((p) => p.type !== 'title')]
	return ordered.map((property) => newField(property))
}

/** Parsed, so every setting a field has gets its default (choice scope, scale, body…). */
function newField(property: Property, kind?: FieldKind): FormField {
	return formFieldSchema.parse({
		id: randomUUID(),
		propertyId: property.id,
		kind: kind ?? (fieldKindsFor(property.type)[0] as FieldKind),
		label: property.name,
		helpText: property.description ?? null,
		required: property.type === 'title',
	})
}

function toForm(record: FormRecord, database: DatabaseRecord | null, submissionsCount: number): Form {
	return {
		id: record.id,
		name: record.name,
		slug: record.slug,
		tool: record.tool,
		workspaceId: database?.workspaceId ?? '',
		databaseId: record.databaseId ?? '',
		databaseName: database?.name ?? 'Removed database',
		fields: record.fields,
		logic: record.logic,
		layout: formLayoutSchema.parse(record.layout),
		page: record.page,
		confirmationMessage: record.confirmationMessage,
		redirectUrl: record.redirectUrl,
		redirectWithAnswers: record.redirectWithAnswers,
		submitLabel: record.submitLabel,
		published: record.published,
		acceptingResponses: record.acceptingResponses,
		closedMessage: record.closedMessage,
		limits: formLimitsSchema.parse(record.limits),
		notifications: formNotificationsSchema.parse(record.notifications),
		theme: themeOf(record.theme),
		themeCss: themeCss(themeOf(record.theme)),
		hasPassword: record.passwordHash !== null,
		submissionsCount,
		createdAt: record.createdAt.toISOString(),
		updatedAt: record.updatedAt.toISOString(),
	}
}

async function submissionCounts(ctx: FormsCtx, formIds: string[]): Promise<Map<string, number>> {
	if (formIds.length === 0) {
		return new Map()
	}
	const rows = await ctx.db
		.select({ formId: formSubmissions.formId, count: count() })
		.from(formSubmissions)
		.where(and(inArray(formSubmissions.formId, formIds), eq(formSubmissions.spam, false)))
		.groupBy(formSubmissions.formId)
	return new Map(rows.map((row) => [row.formId, row.count]))
}

export async function listForms(ctx: FormsCtx): Promise<Form[]> {
	const rows = await ctx.db
		.select({ form: forms, database: workspaceDatabases })
		.from(forms)
		.leftJoin(workspaceDatabases, eq(workspaceDatabases.id, forms.databaseId))
		.where(and(eq(forms.organizationId, ctx.orgId), isNull(forms.deletedAt)))
		.orderBy(desc(forms.updatedAt))
	const counts = await submissionCounts(
		ctx,
		rows.map((row) => row.form.id),
	)
	return rows.map((row) => toForm(row.form, row.database, counts.get(row.form.id) ?? 0))
}

/** A form of the caller's organization, deleted ones excluded; 404 otherwise. */
export async function getFormRecords(ctx: FormsCtx, id: string) {
	const [row] = await ctx.db
		.select({ form: forms, database: workspaceDatabases })
		.from(forms)
		.leftJoin(workspaceDatabases, eq(workspaceDatabases.id, forms.databaseId))
		.where(and(eq(forms.id, id), eq(forms.organizationId, ctx.orgId), isNull(forms.deletedAt)))
	return found(row, 'No such form.')
}

export async function getForm(ctx: FormsCtx, id: string): Promise<Form> {
	const { form, database } = await getFormRecords(ctx, id)
	const counts = await submissionCounts(ctx, [form.id])
	return toForm(form, database, counts.get(form.id) ?? 0)
}

/**
 * A form on a database of the organization, or on a new built-in database made for it; with a
 * template, the template's items. One transaction: a refusal (the plan's limits included) leaves
 * neither a database nor a form behind.
 */
export async function createForm(ctx: FormsCtx, input: CreateForm): Promise<Form> {
	const template = input.template ? formTemplate(input.template) : null
	return ctx.db.transaction(async (tx) => {
		const db = tx as unknown as FormsCtx['db']
		let database: DatabaseRecord
		let tool: Form['tool']
		if (input.newDatabase) {
			database = await createDatabaseForForm(
				{ ...workspaceCtxFor(ctx, ctx.orgId, ctx.userId), db },
				{ name: input.name, workspaceId: input.newDatabase.workspaceId, template },
			)
			// After the database on purpose: a refusal here takes it (and its workspace) back with the transaction.
			await ctx.subscriptions.assertCanAdd(db, ctx.orgId, 'forms')
			tool = 'local'
		} else {
			const [row] = await db
				.select({ database: workspaceDatabases, tool: workspaces.tool })
				.from(workspaceDatabases)
				.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
				.where(and(eq(workspaceDatabases.id, input.databaseId ?? ''), eq(workspaceDatabases.organizationId, ctx.orgId)))
			if (!row) {
				throw new AppError('VALIDATION_FAILED', {
					detail: 'Pick a database of one of your workspaces.',
					errors: [{ field: 'databaseId', message: 'No such database.' }],
				})
			}
			await ctx.subscriptions.assertCanAdd(db, ctx.orgId, 'forms')
			database = row.database
			tool = row.tool
		}
		const [record] = await db
			.insert(forms)
			.values({
				id: randomUUID(),
				organizationId: ctx.orgId,
				tool,
				databaseId: database.id,
				name: input.name,
				fields: template ? templateFields(template, database.properties) : fieldsFor(database.properties),
				page: formPageSchema.parse({ pageTitle: input.name }),
				...defaults,
				createdBy: ctx.userId,
			})
			.returning()
		return toForm(found(record), database, 0)
	})
}

/** Checks that each image upload belongs to the organization and is an image. */
async function checkPageImages(ctx: FormsCtx, images: { path: string; image: PageImage | null }[]): Promise<void> {
	for (const { path, image } of images) {
		if (!image || !('blobId' in image)) {
			continue
		}
		const [blob] = await ctx.db
			.select({ contentType: blobs.contentType, status: blobs.status })
			.from(blobs)
			.where(and(eq(blobs.id, image.blobId), eq(blobs.organizationId, ctx.orgId)))
		if (blob?.status !== 'uploaded') {
			throw new AppError('VALIDATION_FAILED', {
				errors: [{ field: path, message: 'Upload the image first.' }],
			})
		}
		if (!blob.contentType.startsWith('image/')) {
			throw new AppError('VALIDATION_FAILED', {
				errors: [{ field: path, message: 'Use an image (PNG, JPEG, GIF, WebP, AVIF or SVG).' }],
			})
		}
	}
}

async function checkNotifications(ctx: FormsCtx, notifications: FormNotifications, fields: FormField[]) {
	if (notifications.memberIds.length > 0) {
		const found = await ctx.db
			.select({ userId: members.userId })
			.from(members)
			.where(and(eq(members.organizationId, ctx.orgId), inArray(members.userId, notifications.memberIds)))
		if (found.length !== new Set(notifications.memberIds).size) {
			throw new AppError('VALIDATION_FAILED', {
				errors: [{ field: 'notifications.memberIds', message: 'Pick members of your team.' }],
			})
		}
	}
	const respondent = notifications.respondent
	if (respondent.enabled && fields.find((field) => field.id === respondent.fieldId)?.kind !== 'email') {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'notifications.respondent.fieldId', message: 'Pick the e-mail field to write to.' }],
		})
	}
}

function checkLimits(limits: FormLimits, fields: FormField[]): void {
	try {
		new Intl.DateTimeFormat('en', { timeZone: limits.timeZone })
	} catch {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'limits.timeZone', message: 'Not a known time zone.' }],
		})
	}
	if (limits.oneResponsePer === 'email') {
		const field = fields.find((candidate) => candidate.id === limits.emailFieldId)
		if (field?.kind !== 'email') {
			throw new AppError('VALIDATION_FAILED', {
				errors: [{ field: 'limits.emailFieldId', message: 'Pick the e-mail field that tells people apart.' }],
			})
		}
	}
}

export async function updateForm(ctx: FormsCtx, id: string, input: UpdateForm): Promise<Form> {
	const { form, database } = await getFormRecords(ctx, id)
	if (input.fields) {
		if (!database) {
			throw new AppError('CONFLICT', { detail: 'The database of this form was removed; its fields cannot change.' })
		}
		validateFieldDefinitions(database.properties, input.fields)
		const scopeErrors = await checkChoiceScopes(ctx.db, ctx.orgId, database, input.fields)
		if (scopeErrors.length > 0) {
			throw new AppError('VALIDATION_FAILED', { detail: scopeErrors[0]?.message, errors: scopeErrors })
		}
	}
	if (input.fields || input.logic) {
		// Rules are checked against the fields they will run with. Fields changed alone may leave
		// stale references behind; those never match (form-rules.ts) until the rules are saved
		// again, so then only the fields' own calculations are checked.
		const problems = checkFormRules(input.fields ?? form.fields, input.logic ?? [])
		if (problems.length > 0) {
			throw new AppError('VALIDATION_FAILED', {
				detail: problems[0]?.message ?? 'A rule is invalid.',
				errors: problems.map((problem) => ({ field: problem.path, message: problem.message })),
			})
		}
	}
	if (input.page) {
		await checkPageImages(ctx, [
			{ path: 'page.pageThumbnail', image: input.page.pageThumbnail },
			{ path: 'page.favicon', image: input.page.favicon },
		])
	}
	if (input.theme) {
		checkThemeCss(input.theme)
		await checkPageImages(
			ctx,
			themeImages(input.theme).map(({ key, image }) => ({ path: `theme.${key}`, image })),
		)
	}
	if (input.limits) {
		checkLimits(input.limits, input.fields ?? form.fields)
	}
	if (input.notifications) {
		await checkNotifications(ctx, input.notifications, input.fields ?? form.fields)
	}
	if (input.published && !database) {
		throw new AppError('CONFLICT', { detail: 'The database of this form was removed; it cannot be published.' })
	}
	const { password, ...rest } = input
	const passwordChange =
		password === undefined
			? {}
			: {
					passwordHash: password === null ? null : await hashPassword(password),
					passwordVersion: form.passwordVersion + 1,
				}
	const [record] = await ctx.db
		.update(forms)
		.set({ ...rest, ...passwordChange, updatedAt: new Date() })
		.where(and(eq(forms.id, form.id), eq(forms.organizationId, ctx.orgId)))
		.returning()
	const counts = await submissionCounts(ctx, [form.id])
	return toForm(found(record), database, counts.get(form.id) ?? 0)
}

/**
 * Finds the form in the caller's organization first (404 otherwise, whoever asks), then checks
 * the role (403): a member learns nothing about another organization's ids.
 */
export async function authorizeFormAction(
	ctx: FormsCtx,
	id: string,
	action: keyof typeof formRefusals,
): Promise<FormRecord> {
	const { form } = await getFormRecords(ctx, id)
	const isAllowed = action === 'deleteForm' ? canDeleteForm(ctx.role) : canManageWebhooks(ctx.role)
	if (!isAllowed) {
		throw new AppError('FORBIDDEN', { detail: formRefusals[action] })
	}
	return form
}

/** Soft delete: the public page answers "deleted", the answers stay in the database. Owners and admins only. */
export async function deleteForm(ctx: FormsCtx, id: string): Promise<void> {
	const form = await authorizeFormAction(ctx, id, 'deleteForm')
	await ctx.db
		.update(forms)
		.set({ deletedAt: new Date(), published: false })
		.where(and(eq(forms.id, form.id), eq(forms.organizationId, ctx.orgId)))
}

export async function duplicateForm(ctx: FormsCtx, id: string): Promise<Form> {
	const { form, database } = await getFormRecords(ctx, id)
	await ctx.subscriptions.assertCanAdd(ctx.db, ctx.orgId, 'forms')
	const [record] = await ctx.db
		.insert(forms)
		.values({
			...form,
			id: randomUUID(),
			name: `${form.name} (copy)`,
			// A copy starts unpublished, at its id: slugs belong to one form, answers to the original.
			slug: null,
			published: false,
			createdBy: ctx.userId,
			deletedAt: null,
			createdAt: new Date(),
			updatedAt: new Date(),
		})
		.returning()
	return toForm(found(record), database, 0)
}

/**
 * Sets the custom address. Every slug a form has had stays reserved for it, so shared links
 * to an earlier address keep working (they redirect to the current one).
 */
export async function updateUrl(ctx: FormsCtx, id: string, slug: string): Promise<Form> {
	const { form } = await getFormRecords(ctx, id)
	if (uuidPattern.test(slug)) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'slug', message: 'Choose a slug that is not an id.' }],
		})
	}
	const [taken] = await ctx.db
		.select({ formId: formSlugs.formId })
		.from(formSlugs)
		.where(and(eq(formSlugs.slug, slug), ne(formSlugs.formId, form.id)))
	if (taken) {
		throw new AppError('CONFLICT', {
			detail: 'This address is taken. Choose another.',
			errors: [{ field: 'slug', message: 'This address is taken.' }],
		})
	}
	try {
		await ctx.db.insert(formSlugs).values({ slug, formId: form.id }).onConflictDoNothing()
	} catch {
		throw new AppError('CONFLICT', { errors: [{ field: 'slug', message: 'This address is taken.' }] })
	}
	// The insert did nothing if another form took the slug between the check and now.
	const [owner] = await ctx.db.select({ formId: formSlugs.formId }).from(formSlugs).where(eq(formSlugs.slug, slug))
	if (owner?.formId !== form.id) {
		throw new AppError('CONFLICT', { errors: [{ field: 'slug', message: 'This address is taken.' }] })
	}
	await ctx.db.update(forms).set({ slug, updatedAt: new Date() }).where(eq(forms.id, form.id))
	return getForm(ctx, form.id)
}

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
