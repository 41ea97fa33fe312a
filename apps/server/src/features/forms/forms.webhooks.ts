import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import { answerText } from '@blocksmith/contracts/form-thanks.ts'
import { type FormWebhook, maxWebhooksPerForm, type WebhookDelivery } from '@blocksmith/contracts/forms.ts'
import type { FileValue } from '@blocksmith/contracts/workspaces.ts'
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm'
import { signedDownloadUrl } from '#src/core/uploads/uploads.service.ts'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import { SafeFetchError, safeFetch } from '#src/lib/safe-fetch.ts'
import type { FormsCtx, FormsDeps } from './forms.deps.ts'
import { formSubmissions, forms, formWebhookDeliveries, formWebhooks, type WebhookAttempt } from './forms.schema.ts'
import { getFormRecords } from './forms.service.ts'

// Webhooks: each submission is sent as JSON to the form's URLs, signed the Standard Webhooks
// way, and retried with backoff for 24 hours. A delivery is stored in the same transaction as
// the submission, so none is lost; each attempt's answer is kept for the builder to show.

type DeliveryRecord = typeof formWebhookDeliveries.$inferSelect
type DeliverQueue = JobQueue<{ deliveryId: string }>
type FormRecord = typeof forms.$inferSelect

/** How long one attempt may take, and how much of the answer we read. */
const attemptLimits = { timeoutMs: 10_000, maxBytes: 64 * 1024 }
/** Retries stop this long after the submission; the delivery is then dead (and can be retried by hand). */
const retryWindowMs = 24 * 60 * 60 * 1000
const maxDelayMs = 4 * 60 * 60 * 1000
const leaseMs = 60_000
/** Attempts kept per delivery: the first ones and the latest. */
const keptAttempts = 30

export function createWebhookQueues(deps: () => FormsDeps) {
	const deliver: DeliverQueue = {
		name: 'form-webhook',
		// Retries are ours (backoff, the 24-hour window and the attempt log live on the delivery).
		options: { retryLimit: 0 },
		concurrency: 4,
		// One job per answer to a form with webhooks: fetched in batches (lib/jobs.ts).
		batchSize: 16,
		handle: async ({ deliveryId }) => deliverWebhook(deps(), deliver, deliveryId),
	}
	const sweep: JobQueue<Record<string, never>> = {
		name: 'form-webhook-sweep',
		options: { retryLimit: 0 },
		cron: '* * * * *',
		handle: async () => sweepDeliveries(deps(), deliver),
	}
	return { deliver, sweep }
}

export type WebhookQueues = ReturnType<typeof createWebhookQueues>

function newSecret(): string {
	return `whsec_${randomBytes(24).toString('base64')}`
}

/** The Standard Webhooks signature of a message: base64 HMAC-SHA256 of `id.timestamp.body`. */
function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
	return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

function toWebhook(deps: FormsDeps, record: typeof formWebhooks.$inferSelect): FormWebhook {
	return {
		id: record.id,
		url: record.url,
		secret: deps.workspaces.secrets.open(record.secret),
		enabled: record.enabled,
		createdAt: record.createdAt.toISOString(),
	}
}

function toDelivery(record: DeliveryRecord): WebhookDelivery {
	return {
		id: record.id,
		webhookId: record.webhookId,
		submissionId: record.submissionId,
		state: record.state,
		attempts: record.attempts,
		nextAttemptAt: record.nextAttemptAt?.toISOString() ?? null,
		deliveredAt: record.deliveredAt?.toISOString() ?? null,
		createdAt: record.createdAt.toISOString(),
	}
}

export async function listWebhooks(ctx: FormsCtx, formId: string): Promise<FormWebhook[]> {
	const { form } = await getFormRecords(ctx, formId)
	const rows = await ctx.db
		.select()
		.from(formWebhooks)
		.where(and(eq(formWebhooks.formId, form.id), eq(formWebhooks.organizationId, ctx.orgId)))
		.orderBy(formWebhooks.createdAt)
	return rows.map((row) => toWebhook(ctx, row))
}

export async function createWebhook(ctx: FormsCtx, formId: string, url: string): Promise<FormWebhook> {
	const { form } = await getFormRecords(ctx, formId)
	const existing = await listWebhooks(ctx, form.id)
	if (existing.length >= maxWebhooksPerForm) {
		throw new AppError('CONFLICT', { detail: `A form can have at most ${maxWebhooksPerForm} webhooks.` })
	}
	const [record] = await ctx.db
		.insert(formWebhooks)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			formId: form.id,
			url,
			secret: ctx.workspaces.secrets.seal(newSecret()),
		})
		.returning()
	return toWebhook(ctx, found(record))
}

async function getWebhookRecord(ctx: FormsCtx, formId: string, webhookId: string) {
	const { form } = await getFormRecords(ctx, formId)
	const [record] = await ctx.db
		.select()
		.from(formWebhooks)
		.where(
			and(eq(formWebhooks.id, webhookId), eq(formWebhooks.formId, form.id), eq(formWebhooks.organizationId, ctx.orgId)),
		)
	return found(record, 'No such webhook.')
}

export async function updateWebhook(
	ctx: FormsCtx,
	formId: string,
	webhookId: string,
	input: { enabled: boolean },
): Promise<FormWebhook> {
	const webhook = await getWebhookRecord(ctx, formId, webhookId)
	const [record] = await ctx.db
		.update(formWebhooks)
		.set({ enabled: input.enabled })
		.where(eq(formWebhooks.id, webhook.id))
		.returning()
	return toWebhook(ctx, found(record))
}

export async function deleteWebhook(ctx: FormsCtx, formId: string, webhookId: string): Promise<void> {
	const webhook = await getWebhookRecord(ctx, formId, webhookId)
	await ctx.db.delete(formWebhooks).where(eq(formWebhooks.id, webhook.id))
}

export async function listDeliveries(
	ctx: FormsCtx,
	formId: string,
	webhookId: string,
	limit: number,
): Promise<WebhookDelivery[]> {
	const webhook = await getWebhookRecord(ctx, formId, webhookId)
	const rows = await ctx.db
		.select()
		.from(formWebhookDeliveries)
		.where(eq(formWebhookDeliveries.webhookId, webhook.id))
		.orderBy(desc(formWebhookDeliveries.createdAt))
		.limit(limit)
	return rows.map(toDelivery)
}

/** Retry now: a failed or dead delivery is sent again at once, with a fresh 24 hours. */
export async function retryDelivery(
	ctx: FormsCtx,
	queues: WebhookQueues,
	formId: string,
	webhookId: string,
	deliveryId: string,
): Promise<WebhookDelivery> {
	const webhook = await getWebhookRecord(ctx, formId, webhookId)
	const [record] = await ctx.db
		.update(formWebhookDeliveries)
		.set({ state: 'pending', nextAttemptAt: null, lockedUntil: null, createdAt: new Date() })
		.where(
			and(
				eq(formWebhookDeliveries.id, deliveryId),
				eq(formWebhookDeliveries.webhookId, webhook.id),
				inArray(formWebhookDeliveries.state, ['failed', 'dead']),
			),
		)
		.returning()
	if (!record) {
		const [current] = await ctx.db
			.select({ state: formWebhookDeliveries.state })
			.from(formWebhookDeliveries)
			.where(and(eq(formWebhookDeliveries.id, deliveryId), eq(formWebhookDeliveries.webhookId, webhook.id)))
		const state = found(current, 'No such delivery.').state
		throw new AppError('CONFLICT', { detail: `This delivery is ${state}; only failed ones can be retried.` })
	}
	await ctx.jobs.send(queues.deliver, { deliveryId: record.id })
	return toDelivery(record)
}

/**
 * The deliveries of a new submission, one per enabled webhook, stored by the caller's
 * transaction in one statement. Called only for forms that have webhooks (read with the form).
 */
export async function storeDeliveries(tx: Db, form: FormRecord, submissionId: string): Promise<string[]> {
	const result = await tx.execute<{ id: string }>(sql`
		insert into ${formWebhookDeliveries} (id, organization_id, webhook_id, submission_id)
		select gen_random_uuid()::text, ${form.organizationId}, ${formWebhooks.id}, ${submissionId}
		from ${formWebhooks}
		where ${formWebhooks.formId} = ${form.id} and ${formWebhooks.enabled}
		returning id`)
	return (result as unknown as { rows: { id: string }[] }).rows.map((row) => row.id)
}

async function claim(deps: FormsDeps, deliveryId: string): Promise<DeliveryRecord | undefined> {
	const now = new Date()
	const [record] = await deps.db
		.update(formWebhookDeliveries)
		.set({ lockedUntil: new Date(now.getTime() + leaseMs) })
		.where(
			and(
				eq(formWebhookDeliveries.id, deliveryId),
				inArray(formWebhookDeliveries.state, ['pending', 'failed']),
				or(isNull(formWebhookDeliveries.lockedUntil), lt(formWebhookDeliveries.lockedUntil, now)),
			),
		)
		.returning()
	return record
}

/** How long the links to an answer's files in a webhook payload work. */
const payloadFileLinkSeconds = 7 * 24 * 60 * 60

/**
 * The JSON a receiver gets: the form, the submission's answers by field id (those of questions
 * without a property too), and the questions to read them by, each with its answer as text
 * (form-thanks.ts `answerText`). Content is left out: it has no answer. Files (and signatures)
 * come with a link that downloads them for a week (made at each attempt).
 */
function payloadOf(
	deps: FormsDeps,
	deliveryId: string,
	form: FormRecord,
	submission: typeof formSubmissions.$inferSelect,
): string {
	const answers: Record<string, unknown> = { ...submission.answers }
	const questions = form.fields.filter((field) => !isContentKind(field.kind))
	for (const field of questions) {
		const files = answers[field.id]
		if ((field.kind === 'files' || field.kind === 'signature') && Array.isArray(files)) {
			answers[field.id] = (files as FileValue[]).map((file) => ({
				...file,
				url: file.blobId ? signedDownloadUrl(deps, file.blobId, payloadFileLinkSeconds) : file.url,
			}))
		}
	}
	return JSON.stringify({
		type: 'form.submission',
		id: deliveryId,
		form: { id: form.id, name: form.name },
		submission: {
			id: submission.id,
			createdAt: submission.createdAt.toISOString(),
			answers,
			fields: questions.map((field) => ({
				id: field.id,
				label: field.label,
				kind: field.kind,
				propertyId: field.propertyId,
				text: answerText(submission.answers[field.id], field),
			})),
		},
	})
}

async function deliverWebhook(deps: FormsDeps, queue: DeliverQueue, deliveryId: string): Promise<void> {
	const delivery = await claim(deps, deliveryId)
	if (!delivery) {
		return
	}
	const [row] = await deps.db
		.select({ webhook: formWebhooks, submission: formSubmissions, form: forms })
		.from(formWebhooks)
		.innerJoin(formSubmissions, eq(formSubmissions.id, delivery.submissionId))
		.innerJoin(forms, eq(forms.id, formWebhooks.formId))
		.where(eq(formWebhooks.id, delivery.webhookId))
	if (!row) {
		return
	}
	const { form } = row
	const body = payloadOf(deps, delivery.id, form, row.submission)
	const timestamp = Math.floor(Date.now() / 1000)
	const secret = deps.workspaces.secrets.open(row.webhook.secret)
	const started = Date.now()
	let attempt: WebhookAttempt
	try {
		const result = await safeFetch(row.webhook.url, {
			...attemptLimits,
			...(deps.settings.webhookAllowPrivate ? { isAllowedAddress: () => true } : {}),
			post: {
				body,
				headers: {
					'content-type': 'application/json',
					'webhook-id': delivery.id,
					'webhook-timestamp': String(timestamp),
					'webhook-signature': signWebhook(secret, delivery.id, timestamp, body),
				},
			},
		})
		attempt = { at: new Date(started).toISOString(), status: result.status, error: null, ms: Date.now() - started }
	} catch (error) {
		if (!(error instanceof SafeFetchError)) {
			throw error
		}
		const reason =
			error.reason === 'blocked_address'
				? 'The address is private or loopback; webhooks may only reach public addresses.'
				: error.message
		attempt = {
			at: new Date(started).toISOString(),
			status: error.status ?? null,
			error: reason,
			ms: Date.now() - started,
		}
	}
	const attempts = keepAttempts([...delivery.attempts, attempt])
	if (attempt.error === null) {
		await deps.db
			.update(formWebhookDeliveries)
			.set({ state: 'delivered', attempts, deliveredAt: new Date(), nextAttemptAt: null, lockedUntil: null })
			.where(eq(formWebhookDeliveries.id, delivery.id))
		return
	}
	const failures = delivery.attempts.length + 1
	const delayMs = Math.min(maxDelayMs, deps.settings.webhookRetryDelaySeconds * 1000 * 2 ** (failures - 1))
	const isDead = Date.now() + delayMs > delivery.createdAt.getTime() + retryWindowMs
	await deps.db
		.update(formWebhookDeliveries)
		.set({
			state: isDead ? 'dead' : 'failed',
			attempts,
			nextAttemptAt: isDead ? null : new Date(Date.now() + delayMs),
			lockedUntil: null,
		})
		.where(eq(formWebhookDeliveries.id, delivery.id))
	if (!isDead) {
		await deps.jobs.send(queue, { deliveryId: delivery.id }, { startAfterSeconds: delayMs / 1000 })
	}
}

function keepAttempts(attempts: WebhookAttempt[]): WebhookAttempt[] {
	if (attempts.length <= keptAttempts) {
		return attempts
	}
	return [...attempts.slice(0, 5), ...attempts.slice(-(keptAttempts - 5))]
}

/** Every minute: deliveries whose job was lost (a crash between commit and queueing, or during an attempt). */
async function sweepDeliveries(deps: FormsDeps, queue: DeliverQueue): Promise<void> {
	const now = new Date()
	const stale = new Date(now.getTime() - 60_000)
	const orphans = await deps.db
		.select({ id: formWebhookDeliveries.id })
		.from(formWebhookDeliveries)
		.where(
			and(
				inArray(formWebhookDeliveries.state, ['pending', 'failed']),
				or(isNull(formWebhookDeliveries.lockedUntil), lt(formWebhookDeliveries.lockedUntil, now)),
				or(
					and(isNull(formWebhookDeliveries.nextAttemptAt), lt(formWebhookDeliveries.createdAt, stale)),
					lt(formWebhookDeliveries.nextAttemptAt, stale),
				),
			),
		)
		.limit(500)
	for (const orphan of orphans) {
		await deps.jobs.send(queue, { deliveryId: orphan.id })
	}
}
