import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { and, eq, gt, lt, or } from 'drizzle-orm'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '#src/lib/context.ts'
import { AppError } from '#src/lib/errors.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import type { PortalMemberContext, PortalRecord, PortalsDeps } from './portals.deps.ts'
import { portalMagicLinks, portalMembers, portalSessions, portals } from './portals.schema.ts'

// Portal members' sessions (decision 038): a random bearer token, of which only its SHA-256 is
// stored, bound to one portal. Nothing here is better-auth's: a member's token is unknown to
// every /dashboard route, and a team member's token is unknown here.

const portalSessionDays = 30
/** How often a session's use moves the member's "last visit" (a write per request would be waste). */
const lastSeenEveryMs = 5 * 60_000

export type PortalEnv = AppEnv & {
	Variables: AppEnv['Variables'] & { portal: PortalRecord }
}
export type PortalMemberEnv = PortalEnv & {
	Variables: PortalEnv['Variables'] & { portalMember: PortalMemberContext }
}

/** A fresh secret for a link or a session: 256 bits, URL-safe. */
export function newPortalToken(): string {
	return randomBytes(32).toString('base64url')
}

export function hashPortalToken(token: string): string {
	return createHash('sha256').update(token).digest('base64url')
}

/** Starts a session for the member; the token is returned once and never stored. */
export async function createPortalSession(
	deps: Pick<PortalsDeps, 'db' | 'now'>,
	member: { id: string; portalId: string; organizationId: string },
): Promise<{ token: string; expiresAt: Date }> {
	const token = newPortalToken()
	const expiresAt = new Date(deps.now().getTime() + portalSessionDays * 86_400_000)
	await deps.db.insert(portalSessions).values({
		id: randomUUID(),
		organizationId: member.organizationId,
		portalId: member.portalId,
		memberId: member.id,
		tokenHash: hashPortalToken(token),
		expiresAt,
	})
	return { token, expiresAt }
}

/**
 * The portal named by the path's `{slug}`, enabled and served (its organization's subscription
 * active). Anything else is 404, the same as a slug that never existed.
 */
export function requirePortal(deps: PortalsDeps): MiddlewareHandler<PortalEnv> {
	return async (c, next) => {
		const slug = c.req.param('slug') ?? ''
		const [portal] = await deps.db.select().from(portals).where(eq(portals.slug, slug.toLowerCase())).limit(1)
		if (!portal?.isEnabled || !(await deps.subscriptions.isAvailable(portal.organizationId))) {
			throw new AppError('NOT_FOUND', { detail: 'There is no portal here.' })
		}
		c.set('portal', portal)
		await next()
	}
}

/** After `requirePortal`: the member whose bearer token this is, for this portal only (else 401). */
export function requirePortalMember(deps: PortalsDeps): MiddlewareHandler<PortalMemberEnv> {
	return async (c, next) => {
		const portal = c.get('portal')
		const header = c.req.header('authorization') ?? ''
		const token = header.startsWith('Bearer ') ? header.slice(7).trim() : ''
		if (!token || token.length > 200) {
			throw new AppError('UNAUTHENTICATED')
		}
		const now = deps.now()
		const [found] = await deps.db
			.select({ session: portalSessions, member: portalMembers })
			.from(portalSessions)
			.innerJoin(portalMembers, eq(portalMembers.id, portalSessions.memberId))
			.where(
				and(
					eq(portalSessions.tokenHash, hashPortalToken(token)),
					eq(portalSessions.portalId, portal.id),
					gt(portalSessions.expiresAt, now),
				),
			)
			.limit(1)
		if (!found) {
			throw new AppError('UNAUTHENTICATED')
		}
		const { member, session } = found
		if (!member.lastSeenAt || now.getTime() - member.lastSeenAt.getTime() > lastSeenEveryMs) {
			await deps.db
				.update(portalMembers)
				.set({ lastSeenAt: now, status: 'active' })
				.where(eq(portalMembers.id, member.id))
		}
		c.set('portalMember', {
			memberId: member.id,
			sessionId: session.id,
			portalId: portal.id,
			orgId: portal.organizationId,
			email: member.email,
			name: member.name,
			companyRowId: member.companyRowId,
			memberRowId: member.memberRowId,
			personRef: member.personRef,
			hasPassword: member.passwordHash !== null,
		})
		await next()
	}
}

/**
 * Sessions past their end, and links used or expired a day ago (kept that long so a replayed link
 * is still told it was used), deleted hourly: a member who never comes back leaves nothing behind.
 */
export function createPortalCleanupQueue(deps: () => Pick<PortalsDeps, 'db' | 'now'>): JobQueue<Record<string, never>> {
	return {
		name: 'portal-cleanup',
		options: { retryLimit: 0 },
		cron: '23 * * * *',
		handle: async () => {
			const { db, now } = deps()
			const dayAgo = new Date(now().getTime() - 86_400_000)
			await db.delete(portalSessions).where(lt(portalSessions.expiresAt, now()))
			await db
				.delete(portalMagicLinks)
				.where(or(lt(portalMagicLinks.expiresAt, dayAgo), lt(portalMagicLinks.usedAt, dayAgo)))
		},
	}
}
