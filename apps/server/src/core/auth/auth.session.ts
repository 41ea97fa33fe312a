import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto'
import { and, eq, getTableColumns, sql } from 'drizzle-orm'
import { organizationDeletions } from '#src/core/deletion/deletion.schema.ts'
import type { Db } from '#src/db/client.ts'
import { members, sessions, users } from './auth.schema.ts'

// The session check every dashboard request makes, without better-auth's endpoint machinery:
// one indexed query for the session, its user and the membership of its organization, and
// an HMAC key imported once. It keeps better-auth's rules for a bearer token (decision 019);
// auth.session.int.test.ts checks every rule against better-auth's own getSession.

/** How long a session lasts and how often its expiry slides forward; better-auth is configured with the same. */
export const sessionLifetime = { expiresInSeconds: 30 * 24 * 3600, updateAgeSeconds: 24 * 3600 } as const

type SessionRecord = typeof sessions.$inferSelect
type UserRecord = typeof users.$inferSelect
type MembershipRecord = typeof members.$inferSelect

export type CheckedSession = {
	session: SessionRecord
	user: UserRecord
	/** The membership of the session's active organization, or null when there is none any more. */
	membership: MembershipRecord | null
	/** Whether that organization is scheduled for deletion: its dashboard is closed (decision 040). */
	isOrganizationDeleting: boolean
}

/** better-call signs cookie values with HMAC-SHA256, standard base64 with padding: 44 characters. */
const signatureLength = 44

export function createSessionCheck(deps: { db: Db; secret: string }) {
	const key: KeyObject = createSecretKey(Buffer.from(deps.secret, 'utf8'))
	const { db } = deps

	/** The session token a bearer header carries, when its signature is ours; null otherwise. */
	function tokenOf(authorization: string | undefined): string | null {
		if (authorization?.slice(0, 7).toLowerCase() !== 'bearer ') {
			return null
		}
		const raw = authorization.slice(7).trim()
		if (!raw) {
			return null
		}
		// better-auth's bearer plugin also takes the bare session token (it signs it itself).
		if (!raw.includes('.')) {
			return raw
		}
		const signed = raw.includes('%') ? tryDecode(raw) : raw
		const dot = signed.lastIndexOf('.')
		if (dot < 1) {
			return null
		}
		const token = signed.slice(0, dot)
		const signature = signed.slice(dot + 1)
		if (signature.length !== signatureLength || !signature.endsWith('=')) {
			return null
		}
		const expected = createHmac('sha256', key).update(token).digest()
		const given = Buffer.from(signature, 'base64')
		return given.length === expected.length && timingSafeEqual(given, expected) ? token : null
	}

	// Prepared once: on PostgreSQL each pooled connection parses and plans it once, not per request.
	// The deletion schedule rides along as a left join on its primary key (no query of its own):
	// almost always it finds nothing.
	const findSession = db
		.select({
			session: getTableColumns(sessions),
			user: getTableColumns(users),
			membership: members,
			deletingSince: organizationDeletions.requestedAt,
		})
		.from(sessions)
		.innerJoin(users, eq(users.id, sessions.userId))
		.leftJoin(
			members,
			and(eq(members.userId, sessions.userId), eq(members.organizationId, sessions.activeOrganizationId)),
		)
		.leftJoin(organizationDeletions, eq(organizationDeletions.organizationId, members.organizationId))
		.where(eq(sessions.token, sql.placeholder('token')))
		.limit(1)
		.prepare('check_session')

	return async function checkSession(authorization: string | undefined): Promise<CheckedSession | null> {
		const token = tokenOf(authorization)
		if (token === null) {
			return null
		}
		const [row] = await findSession.execute({ token })
		if (!row) {
			return null
		}
		const { deletingSince, ...rest } = row
		const found: CheckedSession = { ...rest, isOrganizationDeleting: deletingSince !== null }
		const now = Date.now()
		if (found.session.expiresAt.getTime() < now) {
			// As better-auth does: an expired session is gone for good.
			await db.delete(sessions).where(eq(sessions.token, token))
			return null
		}
		const { expiresInSeconds, updateAgeSeconds } = sessionLifetime
		const isDueForRefresh = found.session.expiresAt.getTime() - expiresInSeconds * 1000 + updateAgeSeconds * 1000 <= now
		if (!isDueForRefresh) {
			return found
		}
		// Sliding expiry, once a day at most. A session revoked meanwhile updates nothing: refused.
		const [refreshed] = await db
			.update(sessions)
			.set({ expiresAt: new Date(now + expiresInSeconds * 1000), updatedAt: new Date(now) })
			.where(eq(sessions.token, token))
			.returning()
		return refreshed ? { ...found, session: refreshed } : null
	}
}

function tryDecode(value: string): string {
	try {
		return decodeURIComponent(value)
	} catch {
		return value
	}
}
