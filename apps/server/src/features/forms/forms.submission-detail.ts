import type { SubmissionDetail } from '@blocksmith/contracts/forms.ts'
import { and, asc, eq } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import { signedDownloadUrl } from '#src/core/uploads/uploads.service.ts'
import { AppError } from '#src/lib/errors.ts'
import { workspaces, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import { queueDelivery, storeWrite } from '#src/workspaces/workspaces.writes.ts'
import { type FormsCtx, workspaceCtxFor } from './forms.deps.ts'
import { answerBlobIds } from './forms.files.ts'
import { canManageWebhooks } from './forms.policy.ts'
import { formSubmissions, formWebhookDeliveries, formWebhooks } from './forms.schema.ts'
import { getFormRecords } from './forms.service.ts'
import { selectSubmissions, toSubmission } from './forms.submissions.ts'

// One answer in full (its files, every attempt at its delivery, its webhook deliveries), and
// deleting it: the answer, its webhook deliveries and the files only it holds; the row it
// made stays unless asked, and then goes through the write queue like any row delete.

/** How long the links to an answer's files work: long enough to read the page, short enough not to be shared. */
const fileLinkSeconds = 15 * 60

/** What an answer's files are claimed by (forms.files.ts `claimAnswerFiles`). */
const claimOf = (submissionId: string) => `form-submission:${submissionId}`

async function findSubmission(ctx: FormsCtx, formId: string, submissionId: string) {
	const { form } = await getFormRecords(ctx, formId)
	const [row] = await selectSubmissions(ctx).where(
		and(
			eq(formSubmissions.id, submissionId),
			eq(formSubmissions.formId, form.id),
			eq(formSubmissions.organizationId, ctx.orgId),
		),
	)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such submission.' })
	}
	return { form, row }
}

/** The field each of an answer's blobs was sent for (bound or not, even a field since removed). */
function fieldOfBlobs(answers: Record<string, unknown>): Map<string, string> {
	const fieldOf = new Map<string, string>()
	for (const [fieldId, answer] of Object.entries(answers)) {
		for (const blobId of answerBlobIds(answer) ?? []) {
			fieldOf.set(blobId, fieldId)
		}
	}
	return fieldOf
}

export async function getSubmissionDetail(
	ctx: FormsCtx,
	formId: string,
	submissionId: string,
): Promise<SubmissionDetail> {
	const { row } = await findSubmission(ctx, formId, submissionId)
	const submission = toSubmission(row)
	const [write] = row.submission.writeId
		? await ctx.db
				.select({ attemptLog: workspaceWrites.attemptLog })
				.from(workspaceWrites)
				.where(and(eq(workspaceWrites.id, row.submission.writeId), eq(workspaceWrites.organizationId, ctx.orgId)))
		: []
	const fieldOf = fieldOfBlobs(submission.answers)
	const stored = await ctx.db
		.select()
		.from(blobs)
		.where(
			and(
				eq(blobs.organizationId, ctx.orgId),
				eq(blobs.claimedBy, claimOf(submission.id)),
				eq(blobs.status, 'uploaded'),
			),
		)
		.orderBy(asc(blobs.createdAt), asc(blobs.id))
	const files = stored.flatMap((blob) => {
		const fieldId = fieldOf.get(blob.id)
		return fieldId
			? [
					{
						fieldId,
						name: blob.filename,
						contentType: blob.contentType,
						byteSize: blob.byteSize,
						url: signedDownloadUrl(ctx, blob.id, fileLinkSeconds),
					},
				]
			: []
	})
	// A webhook's URL is often a secret of its own: owners and admins only, as everywhere else.
	const webhooks = canManageWebhooks(ctx.role)
		? await ctx.db
				.select({ delivery: formWebhookDeliveries, url: formWebhooks.url })
				.from(formWebhookDeliveries)
				.innerJoin(formWebhooks, eq(formWebhooks.id, formWebhookDeliveries.webhookId))
				.where(
					and(
						eq(formWebhookDeliveries.submissionId, submission.id),
						eq(formWebhookDeliveries.organizationId, ctx.orgId),
					),
				)
				.orderBy(asc(formWebhookDeliveries.createdAt), asc(formWebhookDeliveries.id))
		: []
	return {
		...submission,
		attempts: write?.attemptLog ?? [],
		files,
		webhooks: webhooks.map(({ delivery, url }) => ({
			id: delivery.id,
			webhookId: delivery.webhookId,
			submissionId: delivery.submissionId,
			state: delivery.state,
			attempts: delivery.attempts,
			nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
			deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
			createdAt: delivery.createdAt.toISOString(),
			url,
		})),
	}
}

/** The blob ids a row write's values name (its files properties). */
function blobIdsOfValues(values: Record<string, unknown>): Set<string> {
	const ids = new Set<string>()
	for (const value of Object.values(values)) {
		for (const item of Array.isArray(value) ? value : []) {
			const blobId = item && typeof item === 'object' ? (item as { blobId?: unknown }).blobId : undefined
			if (typeof blobId === 'string') {
				ids.add(blobId)
			}
		}
	}
	return ids
}

/**
 * Deletes an answer, its webhook deliveries and its files. The row it made stays unless
 * `deleteRow`; a file the row still shows then stays with the row (a built-in row opens it
 * from here, and a Notion write not yet delivered still has to upload it). With `deleteRow`
 * the row's delete is queued after the write that makes it, so it follows a create still on
 * its way; an answer that never made a row (spam, or a delivery given up on) refuses it (409).
 */
export async function deleteSubmission(
	ctx: FormsCtx,
	formId: string,
	submissionId: string,
	options: { deleteRow: boolean },
): Promise<void> {
	const { row } = await findSubmission(ctx, formId, submissionId)
	const writeId = row.submission.writeId
	const [write] = writeId
		? await ctx.db
				.select({ write: workspaceWrites, tool: workspaces.tool })
				.from(workspaceWrites)
				.innerJoin(workspaces, eq(workspaces.id, workspaceWrites.workspaceId))
				.where(and(eq(workspaceWrites.id, writeId), eq(workspaceWrites.organizationId, ctx.orgId)))
		: []
	if (options.deleteRow) {
		if (!write) {
			throw new AppError('CONFLICT', {
				detail:
					'This answer made no row (it was never delivered), so there is no row to delete. Delete the answer alone.',
			})
		}
		if (write.write.state === 'dead' && !write.write.externalRowId) {
			throw new AppError('CONFLICT', {
				detail:
					'The delivery of this answer was given up on, so it made no row to delete. Delete the answer alone, or retry the delivery first.',
			})
		}
	}
	const rowKeeps =
		!options.deleteRow && write && (write.tool === 'local' || write.write.state !== 'delivered')
			? blobIdsOfValues(write.write.values)
			: new Set<string>()
	const keys = await ctx.db.transaction(async (tx) => {
		let removalId: string | null = null
		if (options.deleteRow && write) {
			const removal = await storeWrite(
				{ ...workspaceCtxFor(ctx, ctx.orgId, ctx.userId), db: tx },
				{
					databaseId: write.write.databaseId,
					after: write.write.id,
					kind: 'delete',
					values: {},
					source: write.write.source,
				},
			)
			removalId = removal.id
		}
		const claimed = await tx
			.select({ id: blobs.id, key: blobs.key })
			.from(blobs)
			.where(and(eq(blobs.organizationId, ctx.orgId), eq(blobs.claimedBy, claimOf(row.submission.id))))
		const going = claimed.filter((blob) => !rowKeeps.has(blob.id))
		for (const blob of going) {
			await tx.delete(blobs).where(eq(blobs.id, blob.id))
		}
		// Its webhook deliveries go with it (ON DELETE CASCADE).
		const deleted = await tx
			.delete(formSubmissions)
			.where(and(eq(formSubmissions.id, row.submission.id), eq(formSubmissions.organizationId, ctx.orgId)))
			.returning({ id: formSubmissions.id })
		if (deleted.length === 0) {
			throw new AppError('NOT_FOUND', { detail: 'No such submission.' })
		}
		if (removalId) {
			await queueDelivery(ctx.workspaces, removalId, tx)
		}
		return going.map((blob) => blob.key)
	})
	// The rows first, then the stored files: a file without its row is unreachable, a row without its file a broken link.
	for (const key of keys) {
		try {
			await ctx.storage.delete(key)
		} catch (error) {
			ctx.log.warn({ err: error, key }, 'a deleted answer’s file was not removed from storage')
		}
	}
}
