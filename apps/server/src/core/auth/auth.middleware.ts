import type { Role } from '@blocksmith/contracts/teams.ts'
import { asc, eq } from 'drizzle-orm'
import type { MiddlewareHandler } from 'hono'
import { organizationDeletions } from '#src/core/deletion/deletion.schema.ts'
import type { Db } from '#src/db/client.ts'
import type { AppEnv } from '#src/lib/context.ts'
import { AppError } from '#src/lib/errors.ts'
import { members, sessions } from './auth.schema.ts'
import type { CheckedSession } from './auth.session.ts'
import { type Auth, clientIpHeader } from './auth.ts'

export type SessionEnv = AppEnv & {
	Variables: AppEnv['Variables'] & {
		session: CheckedSession
		/** Headers to pass on to better-auth calls made on the caller's behalf. */
		authHeaders: () => Headers
	}
}

/** Who is calling, in which organization, with which role. Every tenant query filters by `orgId`. */
export type MemberContext = { userId: string; orgId: string; role: Role; memberId: string }

export type MemberEnv = SessionEnv & {
	Variables: SessionEnv['Variables'] & { member: MemberContext }
}

/**
 * The API authenticates by bearer token only. Cookies are left out on purpose: a cookie would
 * make every dashboard call forgeable from another site, a bearer header cannot be.
 */
function bearerHeaders(headers: Headers, clientIp: string): Headers {
	const result = new Headers()
	const authorization = headers.get('authorization')
	if (authorization) {
		result.set('authorization', authorization)
	}
	const userAgent = headers.get('user-agent')
	if (userAgent) {
		result.set('user-agent', userAgent)
	}
	result.set(clientIpHeader, clientIp)
	return result
}

export function requireSession(auth: Auth): MiddlewareHandler<SessionEnv> {
	return async (c, next) => {
		const session = await auth.checkSession(c.req.header('authorization'))
		if (!session) {
			throw new AppError('UNAUTHENTICATED')
		}
		c.set('session', session)
		// Built only when a handler calls better-auth on the caller's behalf.
		c.set('authHeaders', () => bearerHeaders(c.req.raw.headers, c.get('clientIp')))
		await next()
	}
}

/**
 * What stays open while the session's organization is scheduled for deletion (decision 040): its
 * details (the page that offers restoring it), moving to or making another organization, the
 * restore itself, exports (take the data first) and deleting one's account.
 */
function isOpenWhileDeleting(method: string, path: string): boolean {
	return (
		(method === 'GET' && path === '/dashboard/users/get_org_details') ||
		path === '/dashboard/organizations' ||
		path.startsWith('/dashboard/organizations/') ||
		(method === 'POST' && path === '/dashboard/organization/restore') ||
		path === '/dashboard/exports' ||
		path.startsWith('/dashboard/exports/') ||
		path === '/dashboard/users/delete_account' ||
		path.startsWith('/dashboard/users/delete_account/')
	)
}

/**
 * After requireSession: resolves the organization the session works in. If the user was
 * removed from it, the session falls back to another organization of theirs, so a removed
 * member's token never reaches the old organization again. An organization scheduled for
 * deletion answers 409 ORGANIZATION_DELETING except on the paths above.
 */
export function requireMember(db: Db): MiddlewareHandler<MemberEnv> {
	return async (c, next) => {
		const { session, user, membership: active, isOrganizationDeleting } = c.get('session')
		// Read with the session; missing when the user has left the session's organization.
		let membership = active
		let isDeleting = isOrganizationDeleting
		if (!membership) {
			const [first] = await db
				.select({ member: members, deletingSince: organizationDeletions.requestedAt })
				.from(members)
				.leftJoin(organizationDeletions, eq(organizationDeletions.organizationId, members.organizationId))
				.where(eq(members.userId, user.id))
				.orderBy(asc(members.createdAt))
				.limit(1)
			if (!first) {
				throw new AppError('NO_ORGANIZATION')
			}
			membership = first.member
			isDeleting = first.deletingSince !== null
			await db
				.update(sessions)
				.set({ activeOrganizationId: first.member.organizationId })
				.where(eq(sessions.id, session.id))
		}
		if (isDeleting && !isOpenWhileDeleting(c.req.method, c.req.path)) {
			throw new AppError('ORGANIZATION_DELETING')
		}
		c.set('member', {
			userId: user.id,
			orgId: membership.organizationId,
			role: membership.role as Role,
			memberId: membership.id,
		})
		await next()
	}
}

/**
 * requireSession then requireMember, unless a router mounted earlier on the same path has
 * resolved the member already (several routers of one module share paths): the session is
 * checked once per request.
 */
export function requireMemberOnce(auth: Auth, db: Db): MiddlewareHandler<MemberEnv> {
	const session = requireSession(auth)
	const member = requireMember(db)
	return async (c, next) => {
		if (c.get('member')) {
			await next()
			return
		}
		await session(c as unknown as Parameters<typeof session>[0], async () => {
			await member(c, next)
		})
	}
}
