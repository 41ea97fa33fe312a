import { createHash, randomUUID } from 'node:crypto'
import { fillPlaceholders, redirectTarget } from '@blocksmith/contracts/form-thanks.ts'
import type { FormLimits, Submit, SubmitResult } from '@blocksmith/contracts/forms.ts'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { columnName, insertTarget } from '#src/db/statements.ts'
import { portalFormIdentity } from '#src/features/portals/portals.public.ts'
import { AppError } from '#src/lib/errors.ts'
import { enforceRateLimit } from '#src/lib/rate-limit.ts'
import { queueDeliverySoon, storeWriteWith } from '#src/workspaces/workspaces.writes.ts'
import { fileBlobIds, validateAnswers } from './forms.answers.ts'
import { type FormsDeps, workspaceCtxFor } from './forms.deps.ts'
import { claimAnswerFiles } from './forms.files.ts'
import { sendSubmissionMails } from './forms.notifications.ts'
import {
	closedMessageOf,
	countAnswers,
	findPublicForm,
	formLimits,
	isUnlocked,
	limitsOf,
	type PublicDatabase,
	renderedAt,
} from './forms.public.ts'
import { formSubmissions, forms } from './forms.schema.ts'
import type { FormRecord } from './forms.service.ts'
import { storeDeliveries, type WebhookQueues } from './forms.webhooks.ts'

// A visitor's answer to a published form (POST /api/submissions): checked, stored with its
// workspace write, acknowledged. The page data and the checks it shares are in forms.public.ts.

// Built once: the answer's INSERT runs with every answer (db/statements.ts).
const submissionTarget = insertTarget(formSubmissions, [
	'id',
	'organizationId',
	'formId',
	'idempotencyKey',
	'answers',
	'writeId',
	'spam',
	'respondentKey',
])
const submissionIdColumn = columnName(formSubmissions.id)

/**
 * Takes one answer: checks the form, the limits, the honeypot and the answers, stores it with
 * its workspace write in one statement, and only then acknowledges. A retried submit with the
 * same idempotency key returns the first one and stores nothing new. A plain answer costs two
 * statements: the form (with its database and whether it has webhooks), then the submission
 * and its write together. Its delivery job is queued after the answer, with other answers'
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
		// The same key stored already (a retry, or both at once), or this person answered already.
		const submission = (writeId: string | null) => sql`
			insert into ${submissionTarget}
			values (${submissionId}, ${form.organizationId}, ${form.id}, ${input.idempotencyKey}, ${JSON.stringify(answers)}::jsonb,
				${writeId}, ${isSpam}, ${respondentKey})
			on conflict do nothing
			returning ${submissionIdColumn}`
		if (isSpam) {
			// Spam keeps no files (they are swept like any upload no answer took) and is never delivered.
			const stored = await db.execute(submission(null))
			return (stored as unknown as { rows: { id: string }[] }).rows.length > 0 ? { writeId: null } : null
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
	database: PublicDatabase,
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
	const setByServer = new Set<string>()
	for (const field of form.fields) {
		// Only questions that write a property can be the member's link.
		const link = field.propertyId ? identity?.values[field.propertyId] : undefined
		if (link) {
			given[field.id] = link
			setByServer.add(field.id)
		}
	}
	const { answers, values } = await validateAnswers(deps, form, database.properties, given, setByServer)
	Object.assign(values, identity?.values)
	const isSpam = Boolean(input.website?.trim())
	const limits = limitsOf(form)
	const respondentKey = isSpam ? null : respondentKeyOf(form, limits, answers, input.respondentToken)
	return { answers, values, isSpam, limits, respondentKey }
}

/** The portal member an answer comes from (issue 18): a 400 on `portalToken` when it no longer stands. */
async function portalIdentityOf(deps: FormsDeps, form: FormRecord, database: PublicDatabase, token: string) {
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
