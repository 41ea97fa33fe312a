// Read-only public links to a view's report. The token is 32 random bytes (base64url), shown
// once when the link is made; only its SHA-256 is stored, so the database cannot give a link
// back. A visitor reads the view's figures and labels — never its filters, row or person ids,
// nor e-mail addresses. An unknown, expired or revoked link (or one whose view or database is
// gone) reads as the same 404, so a guess learns nothing; a paused subscription reads as
// UNAVAILABLE, saying nothing of billing, as published charts do.

import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type {
	CreateTimeShare,
	SharedTimeReport,
	TimeGroup,
	TimeSeries,
	TimeShare,
} from '@blocksmith/contracts/time-reports.ts'
import { createTimeShareSchema } from '@blocksmith/contracts/time-reports.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, desc, eq } from 'drizzle-orm'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import { AppError } from '#src/lib/errors.ts'
import { enforceRateLimit, type RateLimitRule } from '#src/lib/rate-limit.ts'
import type { TimeCtx, TimeDeps } from './time.deps.ts'
import { type ExportFile, renderReport, reportDocumentOf } from './time.export.ts'
import type { ReportAnalytics } from './time.export-format.ts'
import { viewAnalytics, viewSeries } from './time.reports.ts'
import { timeShares } from './time.schema.ts'
import { findView, type ReportView, viewById } from './time.views.ts'

/** What shared links need besides the module's own: absolute links, limits, and whether the organization is served. */
export type TimeShareDeps = TimeDeps & {
	publicUrl: string
	/** RATE_LIMITS=false turns the public limits off (load tests). */
	rateLimits: boolean
	subscriptions: Pick<Subscriptions, 'isAvailable'>
}

/** Explicit limits on anonymous readers of shared reports, per address. */
export const shareLimits = {
	/** Reads of shared reports (the page loads one per visit). */
	readPerIp: { limit: 120, windowSeconds: 60 },
	/** Downloads: a PDF costs far more than a read. */
	exportPerIp: { limit: 20, windowSeconds: 10 * 60 },
} satisfies Record<string, RateLimitRule>

export const shareGone = 'This report link has expired or was revoked.'

type ShareRecord = typeof timeShares.$inferSelect

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

function toTimeShare(share: ShareRecord, url: string | null): TimeShare {
	return {
		id: share.id,
		viewId: share.viewId,
		url,
		expiresAt: share.expiresAt?.toISOString() ?? null,
		revokedAt: share.revokedAt?.toISOString() ?? null,
		lastOpenedAt: share.lastOpenedAt?.toISOString() ?? null,
		createdAt: share.createdAt.toISOString(),
	}
}

/** A new link to the view; its url (with the token) is in this answer only. */
export async function createShare(
	ctx: TimeCtx & Pick<TimeShareDeps, 'publicUrl'>,
	tool: WorkspaceTool,
	viewId: string,
	input: CreateTimeShare,
): Promise<TimeShare> {
	const view = await findView(ctx, tool, viewId)
	const { expiresAt } = createTimeShareSchema.parse(input)
	const expires = expiresAt ? new Date(expiresAt) : null
	if (expires && expires.getTime() <= ctx.now().getTime()) {
		const message = 'Choose a time in the future, or none for a link that works until revoked.'
		throw new AppError('VALIDATION_FAILED', { detail: message, errors: [{ field: 'expiresAt', message }] })
	}
	const token = randomBytes(32).toString('base64url')
	const [share] = await ctx.db
		.insert(timeShares)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			viewId: view.id,
			tokenHash: hashOf(token),
			expiresAt: expires,
			createdBy: ctx.userId,
		})
		.returning()
	if (!share) {
		throw new AppError('INTERNAL', { cause: new Error('The share was not stored.') })
	}
	return toTimeShare(share, `${ctx.publicUrl}/time/shared/${token}`)
}

/** The view's links, newest first (revoked and expired ones too; no url: the token is not kept). */
export async function listShares(ctx: TimeCtx, tool: WorkspaceTool, viewId: string): Promise<TimeShare[]> {
	const view = await findView(ctx, tool, viewId)
	const rows = await ctx.db
		.select()
		.from(timeShares)
		.where(and(eq(timeShares.viewId, view.id), eq(timeShares.organizationId, ctx.orgId)))
		.orderBy(desc(timeShares.createdAt), desc(timeShares.id))
	return rows.map((row) => toTimeShare(row, null))
}

/** Stops a link for good (again: no change). */
export async function revokeShare(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	viewId: string,
	shareId: string,
): Promise<TimeShare> {
	const view = await findView(ctx, tool, viewId)
	const where = and(
		eq(timeShares.id, shareId),
		eq(timeShares.viewId, view.id),
		eq(timeShares.organizationId, ctx.orgId),
	)
	const [share] = await ctx.db.select().from(timeShares).where(where)
	if (!share) {
		throw new AppError('NOT_FOUND', { detail: 'No such link.' })
	}
	if (share.revokedAt) {
		return toTimeShare(share, null)
	}
	const [revoked] = await ctx.db.update(timeShares).set({ revokedAt: ctx.now() }).where(where).returning()
	return toTimeShare(revoked ?? share, null)
}

/**
 * The link's view, when the link works: counted against the reader's address, its opening
 * noted. Unknown, expired and revoked links are one 404.
 */
async function openShare(
	deps: TimeShareDeps,
	token: string,
	clientIp: string,
	kind: 'read' | 'export',
): Promise<{ share: ShareRecord; view: ReportView }> {
	if (deps.rateLimits) {
		const rule = kind === 'read' ? shareLimits.readPerIp : shareLimits.exportPerIp
		await enforceRateLimit(deps.db, `time-report-${kind}:${clientIp}`, rule)
	}
	const [share] = await deps.db
		.select()
		.from(timeShares)
		.where(eq(timeShares.tokenHash, hashOf(token)))
	const now = deps.now()
	if (!share || share.revokedAt || (share.expiresAt && share.expiresAt.getTime() <= now.getTime())) {
		throw new AppError('NOT_FOUND', { detail: shareGone })
	}
	if (!(await deps.subscriptions.isAvailable(share.organizationId))) {
		throw new AppError('UNAVAILABLE')
	}
	const view = await viewById(deps, share.organizationId, share.viewId).catch(gone)
	await deps.db.update(timeShares).set({ lastOpenedAt: now }).where(eq(timeShares.id, share.id))
	return { share, view }
}

/** A view whose database was removed or unmapped since: the link no longer shows anything. */
function gone(error: unknown): never {
	if (error instanceof AppError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION_FAILED')) {
		throw new AppError('NOT_FOUND', { detail: shareGone })
	}
	throw error
}

const emailPattern = /[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[^\s@<>()"',;:]+/g

/** A label with any e-mail address in it hidden (a member named by their address, a project titled with one). */
function publicLabel(label: string): string {
	return label.replace(emailPattern, '(e-mail hidden)')
}

/**
 * Group keys are row ids, option names and person ids: a shared report replaces them with their
 * position (`project-1`, …), the same in the series' breakdown, so the page can still match
 * the two. `none` (entries without one) and the billable split say nothing and stay.
 */
function publicKeys(analytics: ReportAnalytics) {
	const maps = new Map<TimeGroup, Map<string, string>>()
	const groups = Object.fromEntries(
		Object.entries(analytics.groups).map(([group, rows]) => {
			const keys = new Map<string, string>()
			maps.set(group as TimeGroup, keys)
			const publicRows = rows.map((row, index) => {
				const key = row.key === 'none' ? 'none' : `${group}-${index + 1}`
				keys.set(row.key, key)
				return { ...row, key, label: publicLabel(row.label) }
			})
			return [group, publicRows]
		}),
	) as ReportAnalytics['groups']
	const keyOf = (group: TimeGroup, key: string): string =>
		group === 'billable' || key === 'none' ? key : (maps.get(group)?.get(key) ?? `${group}-other`)
	return { groups, keyOf }
}

/** The default series of a shared report: weekly past 31 days (and for all time), else daily. */
function intervalOf(analytics: Pick<ReportAnalytics, 'from' | 'to'>): 'day' | 'week' {
	if (!analytics.from || !analytics.to) {
		return 'week'
	}
	const days = (Date.parse(analytics.to) - Date.parse(analytics.from)) / 86_400_000 + 1
	return days > 31 ? 'week' : 'day'
}

export async function sharedReport(deps: TimeShareDeps, token: string, clientIp: string): Promise<SharedTimeReport> {
	const { share, view } = await openShare(deps, token, clientIp, 'read')
	const now = deps.now()
	const { viewId: _viewId, ...analytics } = await viewAnalytics(deps, share.organizationId, view, now).catch(gone)
	const breakdown = view.settings.groupBy
	const series: TimeSeries = await viewSeries(
		deps,
		share.organizationId,
		view,
		intervalOf(analytics),
		breakdown,
		now,
	).catch(gone)
	const { groups, keyOf } = publicKeys(analytics)
	return {
		name: view.name,
		analytics: { ...analytics, groups },
		series: {
			...series,
			breakdown:
				series.breakdown?.map((group) => ({
					...group,
					key: keyOf(breakdown, group.key),
					label: publicLabel(group.label),
				})) ?? null,
		},
		expiresAt: share.expiresAt?.toISOString() ?? null,
	}
}

/** A shared report's summary as CSV or PDF (labels and figures only, as the page shows). */
export async function sharedReportExport(
	deps: TimeShareDeps,
	token: string,
	clientIp: string,
	format: 'csv' | 'pdf',
): Promise<ExportFile> {
	const { share, view } = await openShare(deps, token, clientIp, 'export')
	const report = await reportDocumentOf(deps, share.organizationId, view, {
		detail: 'summary',
		format,
		now: deps.now(),
	}).catch(gone)
	const { groups } = publicKeys(report.analytics)
	return renderReport({ ...report, analytics: { ...report.analytics, groups } }, format)
}
