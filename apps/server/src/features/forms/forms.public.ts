import { createHash, randomUUID } from 'node:crypto'
import { fillPlaceholders, redirectTarget } from '@blocksmith/contracts/form-thanks.ts'
import {
	type FormLimits,
	formLimitsSchema,
	type PublicField,
	type PublicForm,
	type Submit,
	type SubmitResult,
	type UnlockResult,
} from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { verifyPassword } from 'better-auth/crypto'
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { Db } from '#src/db/client.ts'
import { portalFormIdentity } from '#src/features/portals/portals.public.ts'
import { AppError } from '#src/lib/errors.ts'
import { enforceRateLimit, type RateLimitRule } from '#src/lib/rate-limit.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import type { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import { queueDeliverySoon, storeWriteWith } from '#src/workspaces/workspaces.writes.ts'
import { fileBlobIds, validateAnswers } from './forms.answers.ts'
import { type FormsDeps, workspaceCtxFor } from './forms.deps.ts'
import { claimAnswerFiles } from './forms.files.ts'
import { type PageAsset, resolvePageImage } from './forms.head.ts'
import { sendSubmissionMails } from './forms.notifications.ts'
import { publicFormQuery } from './forms.public-query.ts'
import { formSlugs, formSubmissions, forms } from './forms.schema.ts'
import { type FormRecord, uuidPattern } from './forms.service.ts'
import { publicTheme, themeOf } from './forms.theme.ts'
import { storeDeliveries, type WebhookQueues } from './forms.webhooks.ts'

// The public side of a form: its page data, unlocking, submissions and its page images.

type DatabaseRecord = typeof workspaceDatabases.$inferSelect

/** Explicit limits on anonymous traffic (RATE_LIMITS=false turns them off for load tests). */
export const formLimits = {
	/** Submissions from one address to one form. */
	submitPerIp: { limit: 30, windowSeconds: 10 * 60 },
	/** Submissions to one form from everyone: a flood is cut off, the workspace is not. */
	submitPerForm: { limit: 600, windowSeconds: 60 },
	/** Password attempts from one address on one form. */
	unlockPerIp: { limit: 10, windowSeconds: 15 * 60 },
	/** How long an unlock token opens the form. */
	unlockSeconds: 2 * 60 * 60,
} satisfies Record<string, RateLimitRule | number>

/**
 * A form as visitors reach it, by id or by any slug it has had. Unknown and unpublished forms
 * read as 404 (visitors never learn a draft exists); deleted ones as 410.
 */
export async function findPublicForm(
	deps: FormsDeps,
	idOrSlug: string,
	options: { withWebhooks?: boolean } = {},
): Promise<{ form: FormRecord; database: DatabaseRecord | null; isOldSlug: boolean; hasWebhooks: boolean }> {
	let formId = idOrSlug
	if (!uuidPattern.test(idOrSlug)) {
		const [slug] = await deps.db
			.select({ formId: formSlugs.formId })
			.from(formSlugs)
			.where(eq(formSlugs.slug, idOrSlug.toLowerCase()))
		if (!slug) {
			throw notPublished()
		}
		formId = slug.formId
	}
	const [row] = await publicFormQuery(deps.db, Boolean(options.withWebhooks)).execute({ id: formId.toLowerCase() })
	if (!row) {
		throw notPublished()
	}
	if (row.form.deletedAt) {
		throw new AppError('FORM_DELETED')
	}
	if (!row.form.published) {
		throw notPublished()
	}
	// A paused, past-due or canceled subscription stops the organization's public pages, answers
	// included (its owner stopped everything); visitors read a neutral message, never billing's.
	if (!(await deps.subscriptions.isAvailable(row.form.organizationId))) {
		throw new AppError('UNAVAILABLE')
	}
	const isOldSlug = !uuidPattern.test(idOrSlug) && row.form.slug !== idOrSlug.toLowerCase()
	return { form: row.form, database: row.database, isOldSlug, hasWebhooks: row.hasWebhooks }
}

function notPublished(): AppError {
	return new AppError('NOT_FOUND', {
		detail: 'This form is not published. It may have been unpublished, or the link may be wrong.',
	})
}

function publicFields(form: FormRecord, database: DatabaseRecord | null): PublicField[] {
	const properties = new Map<string, Property>((database?.properties ?? []).map((p) => [p.id, p]))
	return form.fields.map((field) => {
		const property = properties.get(field.propertyId)
		const choices = property?.options?.map((option) => option.name)
		return {
			...field,
			...(choices ? { options: choices } : {}),
			...(field.kind === 'relation' ? { relationDatabaseId: property?.relationDatabaseId ?? null } : {}),
		}
	})
}

// ---- tokens -------------------------------------------------------------------------------

function renderToken(deps: FormsDeps, formId: string): string {
	const issuedAt = Date.now()
	return `${issuedAt}.${sign(deriveKey(deps.authSecret, 'form-render'), `${formId}.${issuedAt}`)}`
}

/** When the page was served, or null for a forged token. */
function renderedAt(deps: FormsDeps, formId: string, token: string): number | null {
	const [issuedAt, signature] = token.split('.')
	if (!issuedAt || !signature || !/^\d+$/.test(issuedAt)) {
		return null
	}
	const isValid = isValidSignature(deriveKey(deps.authSecret, 'form-render'), `${formId}.${issuedAt}`, signature)
	return isValid ? Number(issuedAt) : null
}

function unlockToken(deps: FormsDeps, form: FormRecord): { token: string; expiresAt: Date } {
	const expires = Math.floor(Date.now() / 1000) + formLimits.unlockSeconds
	const message = `${form.id}.${form.passwordVersion}.${expires}`
	return {
		token: `${expires}.${sign(deriveKey(deps.authSecret, 'form-unlock'), message)}`,
		expiresAt: new Date(expires * 1000),
	}
}

/** Whether the token unlocks the form now: signed for this form and password, not expired. */
export function isUnlocked(deps: FormsDeps, form: FormRecord, token: string | undefined): boolean {
	if (form.passwordHash === null) {
		return true
	}
	const [expires, signature] = (token ?? '').split('.')
	if (!expires || !signature || !/^\d+$/.test(expires) || Number(expires) * 1000 < Date.now()) {
		return false
	}
	const message = `${form.id}.${form.passwordVersion}.${expires}`
	return isValidSignature(deriveKey(deps.authSecret, 'form-unlock'), message, signature)
}

// ---- page data ----------------------------------------------------------------------------

export async function publicFormData(
	deps: FormsDeps,
	form: FormRecord,
	database: DatabaseRecord | null,
	options: { unlocked: boolean },
): Promise<PublicForm> {
	const [pageThumbnail, favicon, theme] = await Promise.all([
		resolvePageImage(deps, form, form.page.pageThumbnail, 'thumbnail'),
		resolvePageImage(deps, form, form.page.favicon, 'favicon'),
		publicTheme(deps, form),
	])
	const passwordRequired = form.passwordHash !== null
	// The plan's answers of the month used up close the form before anyone types. `submit` does
	// not ask, so an answer to a page served before is never lost.
	const closedMessage =
		(await closedMessageOf(deps, form, database)) ??
		((await deps.subscriptions.isMonthlyLimitReached(form.organizationId, 'submissionsPerMonth'))
			? form.closedMessage
			: null)
	return {
		id: form.id,
		slug: form.slug,
		tool: form.tool,
		name: form.name,
		pageTitle: form.page.pageTitle,
		pageDescription: form.page.pageDescription,
		pageThumbnail,
		favicon,
		extras: { indexable: form.page.extras.indexable },
		fields: passwordRequired && !options.unlocked ? null : publicFields(form, database),
		logic: passwordRequired && !options.unlocked ? null : form.logic,
		passwordRequired,
		acceptingResponses: closedMessage === null,
		closedMessage,
		oneResponsePer: limitsOf(form).oneResponsePer,
		confirmationMessage: form.confirmationMessage,
		submitLabel: form.submitLabel,
		theme,
		renderToken: renderToken(deps, form.id),
	}
}

export async function unlockForm(
	deps: FormsDeps,
	idOrSlug: string,
	password: string,
	clientIp: string,
): Promise<UnlockResult> {
	const { form, database } = await findPublicForm(deps, idOrSlug)
	if (form.passwordHash === null) {
		throw new AppError('CONFLICT', { detail: 'This form has no password.' })
	}
	if (deps.rateLimits) {
		await enforceRateLimit(deps.db, `form-unlock:${form.id}:${clientIp}`, formLimits.unlockPerIp)
	}
	if (!(await verifyPassword({ hash: form.passwordHash, password }))) {
		throw new AppError('WRONG_PASSWORD', { errors: [{ field: 'password', message: 'That password is not right.' }] })
	}
	const { token, expiresAt } = unlockToken(deps, form)
	return {
		unlockToken: token,
		expiresAt: expiresAt.toISOString(),
		form: await publicFormData(deps, form, database, { unlocked: true }),
	}
}

// ---- submissions --------------------------------------------------------------------------

/**
 * Takes one answer: checks the form, the limits, the honeypot and the answers, stores it with
 * its workspace write in one transaction, and only then acknowledges. A retried submit with the
 * same idempotency key returns the first one and stores nothing new. A plain answer costs five
 * statements: the form (with its database and whether it has webhooks), then BEGIN, the write,
 * the submission, COMMIT. Its delivery job is queued after the answer, with other answers'
 * (`queueDeliverySoon`), and the sweeper queues it if that is lost (decision 016). A limited form
 * adds its row lock and count, files their claim, webhooks their deliveries and their jobs.
 */
export async function submit(
	deps: FormsDeps,
	webhookQueues: WebhookQueues,
	input: Submit,
	clientIp: string,
): Promise<SubmitResult> {
	const { form, database, hasWebhooks } = await findPublicForm(deps, input.formId, { withWebhooks: true })
	const closed = await closedMessageOf(deps, form, database)
	if (closed !== null || !database) {
		throw new AppError('FORM_CLOSED', { detail: closed ?? form.closedMessage })
	}
	if (!isUnlocked(deps, form, input.unlockToken)) {
		throw new AppError('PASSWORD_REQUIRED')
	}
	let answer: Awaited<ReturnType<typeof checkAnswer>>
	try {
		answer = await checkAnswer(deps, form, database, input, clientIp)
	} catch (error) {
		// No look-up of the key before storing (the insert's conflict answers that), so a retry of
		// an answer already stored is recognised here when it is refused now: a rate limit reached
		// since, the form's fields edited since. It gets the first answer, as before.
		const first = error instanceof AppError ? await findSubmission(deps, form.id, input.idempotencyKey) : undefined
		if (first) {
			return { id: first.id, duplicate: true, ...thanksFor(form, first.answers) }
		}
		throw error
	}
	const { answers, values, isSpam, limits, respondentKey } = answer
	const submissionId = randomUUID()
	const isLimited = limits.maxSubmissions !== null && !isSpam
	const blobIds = isSpam ? [] : fileBlobIds(form.fields, answers)
	// The submission and its write go in with one statement (`storeWriteWith`): together or not at
	// all, with no transaction. Only a limit, files or webhooks need more statements, and then a
	// transaction around them.
	const needsTransaction = isLimited || blobIds.length > 0 || (hasWebhooks && !isSpam)
	const store = async (db: Db): Promise<{ writeId: string | null } | null> => {
		if (isLimited && limits.maxSubmissions !== null) {
			// One answer at a time per limited form, so the last places are not given out twice.
			await db.execute(sql`select 1 from ${forms} where ${forms.id} = ${form.id} for update`)
			if ((await countAnswers(db, form.id)) >= limits.maxSubmissions) {
				throw new AppError('FORM_CLOSED', { detail: limits.limitReachedMessage })
			}
		}
		const submission = (writeId: string | null) =>
			db
				.insert(formSubmissions)
				.values({
					id: submissionId,
					organizationId: form.organizationId,
					formId: form.id,
					idempotencyKey: input.idempotencyKey,
					answers,
					writeId,
					spam: isSpam,
					respondentKey,
				})
				// The same key stored already (a retry, or both at once), or this person answered already.
				.onConflictDoNothing()
				.returning({ id: formSubmissions.id })
		if (isSpam) {
			// Spam keeps no files (they are swept like any upload no answer took) and is never delivered.
			const [stored] = await submission(null)
			return stored ? { writeId: null } : null
		}
		const writeId = await storeWriteWith(
			{ ...workspaceCtxFor(deps, form.organizationId, form.createdBy), db },
			{ databaseId: database.id, values, source: `form:${form.id}` },
			database,
			submission,
		)
		if (!writeId) {
			return null
		}
		if (!(await claimAnswerFiles(db, submissionId, blobIds))) {
			throw new AppError('CONFLICT', { detail: 'A file was already sent with another answer. Add it again.' })
		}
		if (hasWebhooks) {
			// Few forms have webhooks: their jobs are inserted by this transaction, so they commit with
			// the answer at no commit of their own.
			for (const deliveryId of await storeDeliveries(db, form, submissionId)) {
				await deps.jobs.send(webhookQueues.deliver, { deliveryId }, { db })
			}
		}
		return { writeId }
	}
	const stored = needsTransaction ? await deps.db.transaction(store) : await store(deps.db)
	if (!stored) {
		const first = await findSubmission(deps, form.id, input.idempotencyKey)
		if (!first) {
			throw new AppError('ALREADY_RESPONDED', { detail: limits.alreadyRespondedMessage })
		}
		return { id: first.id, duplicate: true, ...thanksFor(form, first.answers) }
	}
	if (stored.writeId) {
		queueDeliverySoon(deps.workspaces, stored.writeId)
	}
	if (!isSpam) {
		try {
			await sendSubmissionMails(deps, form, answers)
		} catch (error) {
			// Stored and acknowledged all the same: a lost notification mail is not re-sent.
			deps.log.warn({ err: error, submissionId }, 'notification mails not queued')
		}
	}
	return { id: submissionId, duplicate: false, ...thanksFor(form, answers) }
}

/** Everything checked before an answer is stored: limits, the render token, the answers and who answers. */
async function checkAnswer(
	deps: FormsDeps,
	form: FormRecord,
	database: DatabaseRecord,
	input: Submit,
	clientIp: string,
) {
	if (deps.rateLimits) {
		await enforceRateLimit(deps.db, `form-submit:${form.id}:${clientIp}`, formLimits.submitPerIp)
		await enforceRateLimit(deps.db, `form-submit:${form.id}`, formLimits.submitPerForm)
	}
	const servedAt = renderedAt(deps, form.id, input.renderToken)
	if (servedAt === null) {
		throw new AppError('INVALID_TOKEN', { detail: 'This page is out of date. Reload it and send your answers again.' })
	}
	const waitMs = servedAt + deps.settings.minFillSeconds * 1000 - Date.now()
	if (waitMs > 0) {
		throw new AppError('TOO_FAST', { retryAfter: Math.ceil(waitMs / 1000) })
	}
	const identity = input.portalToken ? await portalIdentityOf(deps, form, database, input.portalToken) : null
	// A member's link is theirs to set, not the page's: any answer to the linking field is replaced.
	const given = { ...input.answers }
	for (const field of form.fields) {
		const link = identity?.values[field.propertyId]
		if (link) {
			given[field.id] = link
		}
	}
	const { answers, values } = await validateAnswers(deps.db, form, database.properties, given)
	Object.assign(values, identity?.values)
	const isSpam = Boolean(input.website?.trim())
	const limits = limitsOf(form)
	const respondentKey = isSpam ? null : respondentKeyOf(form, limits, answers, input.respondentToken)
	return { answers, values, isSpam, limits, respondentKey }
}

/** The portal member an answer comes from (issue 18): a 400 on `portalToken` when it no longer stands. */
async function portalIdentityOf(deps: FormsDeps, form: FormRecord, database: DatabaseRecord, token: string) {
	const identity = await portalFormIdentity(deps.db, deps.authSecret, {
		token,
		formId: form.id,
		properties: database.properties,
		now: new Date(),
	})
	if (!identity) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [
				{
					field: 'portalToken',
					message: 'This form was opened from a portal link that has ended. Open it from the portal again.',
				},
			],
		})
	}
	return identity
}

/** The thank-you the visitor gets: the message with their answers in, or where to go instead. */
function thanksFor(form: FormRecord, answers: Record<string, unknown>) {
	return {
		confirmationMessage: fillPlaceholders(form.confirmationMessage, form.fields, answers),
		redirectUrl: form.redirectUrl
			? redirectTarget(form.redirectUrl, form.fields, answers, form.redirectWithAnswers)
			: null,
	}
}

function limitsOf(form: FormRecord): FormLimits {
	return formLimitsSchema.parse(form.limits)
}

async function countAnswers(db: Db, formId: string): Promise<number> {
	const [row] = await db
		.select({ count: count() })
		.from(formSubmissions)
		.where(and(eq(formSubmissions.formId, formId), eq(formSubmissions.spam, false)))
	return row?.count ?? 0
}

/** Why the form takes no answers now (its own message), or null while it is open. */
export async function closedMessageOf(deps: FormsDeps, form: FormRecord, database: DatabaseRecord | null) {
	const limits = limitsOf(form)
	if (!form.acceptingResponses || !database) {
		return form.closedMessage
	}
	if (limits.closesAt && Date.parse(limits.closesAt) <= Date.now()) {
		return form.closedMessage
	}
	if (limits.maxSubmissions !== null && (await countAnswers(deps.db, form.id)) >= limits.maxSubmissions) {
		return limits.limitReachedMessage
	}
	return null
}

/** Who is answering, for a form that takes one answer per person; null for every other form. */
function respondentKeyOf(
	form: FormRecord,
	limits: FormLimits,
	answers: Record<string, unknown>,
	respondentToken: string | undefined,
): string | null {
	if (limits.oneResponsePer === 'email') {
		const field = form.fields.find((candidate) => candidate.id === limits.emailFieldId)
		const email = field ? answers[field.id] : undefined
		if (typeof email !== 'string' || email.trim() === '') {
			throw new AppError('VALIDATION_FAILED', {
				errors: [
					{
						field: `answers.${field?.id ?? limits.emailFieldId}`,
						message: `"${field?.label ?? 'E-mail'}" is required: this form takes one answer per address.`,
					},
				],
			})
		}
		return `email:${email.trim().toLowerCase()}`
	}
	if (limits.oneResponsePer === 'browser') {
		if (!respondentToken) {
			throw new AppError('VALIDATION_FAILED', {
				detail: 'This page is out of date. Reload it and send your answers again.',
				errors: [{ field: 'respondentToken', message: 'Required by this form.' }],
			})
		}
		return `browser:${createHash('sha256').update(respondentToken).digest('base64url')}`
	}
	return null
}

async function findSubmission(deps: FormsDeps, formId: string, idempotencyKey: string) {
	const [row] = await deps.db
		.select()
		.from(formSubmissions)
		.where(and(eq(formSubmissions.formId, formId), eq(formSubmissions.idempotencyKey, idempotencyKey)))
	return row
}

// ---- assets and scoped reads --------------------------------------------------------------

/** A raster page image of a published form, for og:image and the favicon. */
export async function openPageAsset(deps: FormsDeps, idOrSlug: string, asset: PageAsset) {
	const { form } = await findPublicForm(deps, idOrSlug)
	const theme = themeOf(form.theme)
	const image = {
		thumbnail: form.page.pageThumbnail,
		favicon: form.page.favicon,
		logo: theme.logo,
		cover: theme.cover,
	}[asset]
	if (!image || !('blobId' in image)) {
		throw new AppError('NOT_FOUND', { detail: 'This form has no such image.' })
	}
	const [blob] = await deps.db
		.select()
		.from(blobs)
		.where(and(eq(blobs.id, image.blobId), eq(blobs.organizationId, form.organizationId)))
	const file = blob?.status === 'uploaded' ? await deps.storage.get(blob.key) : null
	if (!blob || !file) {
		throw new AppError('NOT_FOUND', { detail: 'This form has no such image.' })
	}
	if (blob.contentType === 'image/svg+xml') {
		// SVGs are only ever inlined after sanitising (forms.head.ts), never served as they came.
		await file.body.cancel()
		throw new AppError('NOT_FOUND', { detail: 'This form has no such image.' })
	}
	return { contentType: blob.contentType, byteSize: file.byteSize, body: file.body }
}

/**
 * The organization's forms among `ids` (deleted ones left out), for modules that point at
 * forms (portals): id, name and database, nothing else of them.
 */
export async function formsOfOrganization(
	db: Db,
	organizationId: string,
	ids: string[],
): Promise<{ id: string; name: string; databaseId: string | null; isPublished: boolean }[]> {
	if (ids.length === 0) {
		return []
	}
	return db
		.select({ id: forms.id, name: forms.name, databaseId: forms.databaseId, isPublished: forms.published })
		.from(forms)
		.where(and(eq(forms.organizationId, organizationId), inArray(forms.id, ids), isNull(forms.deletedAt)))
}
