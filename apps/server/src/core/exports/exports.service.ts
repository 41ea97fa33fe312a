import { randomUUID } from 'node:crypto'
import type { OrganizationExport } from '@blocksmith/contracts/data.ts'
import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import type { ExportsCtx, ExportsDeps } from './exports.deps.ts'
import { organizationExports } from './exports.schema.ts'

/** At most this many exports started per organization in any 24 hours; the list shows the newest few. */
export const exportLimits = { perDay: 5, listed: 10 }

const dayMs = 86_400_000

type ExportRecord = typeof organizationExports.$inferSelect
type Requester = { name: string | null; email: string | null }

const refusal = "Only an owner or admin can export the organization's data. Ask one of them to do it."

function assertCanExport(ctx: ExportsCtx): void {
	if (ctx.role !== 'owner' && ctx.role !== 'admin') {
		throw new AppError('FORBIDDEN', { detail: refusal })
	}
}

// ---- the download link ------------------------------------------------------------------------

/** Signed over the id and the expiry: a link names one export and stops at its expiry, whatever the clock says. */
const signedMessage = (id: string, expiresAt: Date) => `${id}.${expiresAt.getTime()}`

export function downloadUrl(deps: Pick<ExportsDeps, 'publicUrl' | 'authSecret'>, id: string, expiresAt: Date): string {
	const token = sign(deriveKey(deps.authSecret, 'export-download'), signedMessage(id, expiresAt))
	return `${deps.publicUrl}/api/exports/${encodeURIComponent(id)}/download?token=${token}`
}

function toExport(deps: ExportsDeps, record: ExportRecord, requester: Requester): OrganizationExport {
	const isDownloadable =
		record.status === 'ready' && record.expiresAt !== null && record.expiresAt.getTime() > deps.now().getTime()
	return {
		id: record.id,
		status: record.status,
		progress: record.progress,
		requestedBy:
			requester.name !== null && requester.email !== null ? { name: requester.name, email: requester.email } : null,
		createdAt: record.createdAt.toISOString(),
		finishedAt: record.finishedAt?.toISOString() ?? null,
		expiresAt: record.expiresAt?.toISOString() ?? null,
		byteSize: record.byteSize,
		error: record.error,
		downloadUrl: isDownloadable && record.expiresAt ? downloadUrl(deps, record.id, record.expiresAt) : null,
	}
}

const withRequester = { record: organizationExports, name: users.name, email: users.email }

// ---- the dashboard ------------------------------------------------------------------------------

/** The organization's newest exports, newest first. */
export async function listExports(ctx: ExportsCtx): Promise<OrganizationExport[]> {
	assertCanExport(ctx)
	const rows = await ctx.db
		.select(withRequester)
		.from(organizationExports)
		.leftJoin(users, eq(users.id, organizationExports.requestedBy))
		.where(eq(organizationExports.organizationId, ctx.orgId))
		.orderBy(desc(organizationExports.createdAt), desc(organizationExports.id))
		.limit(exportLimits.listed)
	return rows.map((row) => toExport(ctx, row.record, row))
}

/** One export of the caller's organization; another organization's reads as missing. */
export async function getExport(ctx: ExportsCtx, id: string): Promise<OrganizationExport> {
	assertCanExport(ctx)
	const [row] = await ctx.db
		.select(withRequester)
		.from(organizationExports)
		.leftJoin(users, eq(users.id, organizationExports.requestedBy))
		.where(and(eq(organizationExports.id, id), eq(organizationExports.organizationId, ctx.orgId)))
	const { record, ...requester } = found(row, 'No such export.')
	return toExport(ctx, record, requester)
}

/**
 * Queues a new export: one at a time per organization (a second would only repeat the first's
 * work), and at most `exportLimits.perDay` a day, since each reads everything the organization has.
 */
export async function startExport(ctx: ExportsCtx): Promise<OrganizationExport> {
	assertCanExport(ctx)
	const id = randomUUID()
	const now = ctx.now()
	await ctx.db.transaction(async (tx) => {
		// The organization's row, locked: two starts at once are taken one after the other, and the
		// second sees the first's export.
		await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, ctx.orgId)).for('update')
		const [active] = await tx
			.select({ id: organizationExports.id })
			.from(organizationExports)
			.where(
				and(
					eq(organizationExports.organizationId, ctx.orgId),
					inArray(organizationExports.status, ['queued', 'running']),
				),
			)
			.limit(1)
		if (active) {
			throw new AppError('CONFLICT', {
				detail: 'An export is being built already. Wait for it to finish; you will get an e-mail when it is ready.',
			})
		}
		const recent = await tx
			.select({ createdAt: organizationExports.createdAt })
			.from(organizationExports)
			.where(
				and(
					eq(organizationExports.organizationId, ctx.orgId),
					gt(organizationExports.createdAt, new Date(now.getTime() - dayMs)),
				),
			)
			.orderBy(asc(organizationExports.createdAt))
		const oldest = recent[0]
		if (oldest && recent.length >= exportLimits.perDay) {
			throw new AppError('RATE_LIMITED', {
				detail: `At most ${exportLimits.perDay} exports can be started in 24 hours. Download one of the recent ones, or try again later.`,
				retryAfter: Math.max(1, Math.ceil((oldest.createdAt.getTime() + dayMs - now.getTime()) / 1000)),
			})
		}
		await tx.insert(organizationExports).values({
			id,
			organizationId: ctx.orgId,
			requestedBy: ctx.userId,
			status: 'queued',
			progress: { done: 0, total: ctx.contributors.length, step: null },
			createdAt: now,
		})
		// Inserted by the same transaction: a job never runs for an export that was not saved.
		await ctx.jobs.send(ctx.queues.build, { exportId: id }, { db: tx })
	})
	return getExport(ctx, id)
}

// ---- the download -------------------------------------------------------------------------------

const gone = () => new AppError('NOT_FOUND', { detail: 'No such export, or the link is not complete.' })

/**
 * The archive behind a signed link, without a session (it is opened from the e-mail). A wrong
 * token reads as a missing export, so ids cannot be probed; a right one past its expiry says so.
 */
export async function openDownload(deps: ExportsDeps, id: string, token: string) {
	const [row] = await deps.db
		.select({ record: organizationExports, slug: organizations.slug })
		.from(organizationExports)
		.innerJoin(organizations, eq(organizations.id, organizationExports.organizationId))
		.where(eq(organizationExports.id, id))
	const expiresAt = row?.record.expiresAt
	if (!row || !expiresAt) {
		throw gone()
	}
	if (!isValidSignature(deriveKey(deps.authSecret, 'export-download'), signedMessage(id, expiresAt), token)) {
		throw gone()
	}
	const { record } = row
	const stored =
		record.status === 'ready' && record.storageKey && expiresAt.getTime() > deps.now().getTime()
			? await deps.storage.get(record.storageKey)
			: null
	if (!stored) {
		throw new AppError('EXPORT_EXPIRED')
	}
	const slug = row.slug.replace(/[^a-z0-9-]+/gi, '-').toLowerCase() || 'organization'
	return {
		body: stored.body,
		byteSize: stored.byteSize,
		filename: `${slug}-export-${record.createdAt.toISOString().slice(0, 10)}.zip`,
	}
}
