// A visitor signing in to a portal (decision 038): by a mailed link, or by a password they set.
// Answers never tell whether an e-mail address is a member: the link request is the same 202,
// a wrong password and an unknown address the same 401 (after the same hash work), and every
// link that does not work the same 400.

import type { PortalSession } from '@blocksmith/contracts/portals.ts'
import { hashPassword, verifyPassword } from 'better-auth/crypto'
import { and, eq, lte, ne } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import { enforceRateLimit, type RateLimitRule } from '#src/lib/rate-limit.ts'
import type { PortalMemberContext, PortalRecord, PortalsDeps } from './portals.deps.ts'
import { consumeMagicLink, issueMagicLinks, signInLinkMs } from './portals.links.ts'
import { portalSignInMail, portalSignInUrl } from './portals.mail.ts'
import { memberRowIdsByEmail } from './portals.members.ts'
import { portalMembers, portalSessions } from './portals.schema.ts'
import { createPortalSession } from './portals.session.ts'

/** Sign-in attempts (links asked for, passwords tried), per portal and e-mail, and per address. */
export const portalSignInLimits = {
	perEmail: { limit: 5, windowSeconds: 15 * 60 },
	perIp: { limit: 30, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>

async function limitSignIn(
	deps: PortalsDeps,
	kind: 'link' | 'password',
	portal: PortalRecord,
	email: string,
	clientIp: string,
): Promise<void> {
	if (!deps.rateLimits) {
		return
	}
	await enforceRateLimit(deps.db, `portal-${kind}-ip:${clientIp}`, portalSignInLimits.perIp)
	await enforceRateLimit(deps.db, `portal-${kind}:${portal.id}:${email}`, portalSignInLimits.perEmail)
}

async function memberByEmail(deps: PortalsDeps, portal: PortalRecord, email: string) {
	const [member] = await deps.db
		.select()
		.from(portalMembers)
		.where(and(eq(portalMembers.portalId, portal.id), eq(portalMembers.email, email.toLowerCase())))
	return member ?? null
}

/**
 * Mails a 30-minute link when the address is a member; says nothing either way. Past the rate
 * limits, the member is looked up and mailed after the answer has gone: done first, a member's
 * answer would take longer than a stranger's and tell who is a member.
 */
export async function requestMagicLink(
	deps: PortalsDeps,
	portal: PortalRecord,
	email: string,
	clientIp: string,
): Promise<void> {
	await limitSignIn(deps, 'link', portal, email, clientIp)
	const send = async () => {
		const member = await memberByEmail(deps, portal, email)
		if (!member) {
			return
		}
		const [token] = await issueMagicLinks(deps, [member], { lifetimeMs: signInLinkMs, replaceOlder: false })
		await deps.mailer.send(
			portalSignInMail(member.email, { portalName: portal.name, url: portalSignInUrl(deps, portal, token as string) }),
		)
	}
	send().catch((error: unknown) => {
		deps.log.error({ err: error, portalId: portal.id }, 'portal sign-in link not sent')
	})
}

/**
 * A session for the member: they are `active` from now on, and their own row in the members
 * database is found again by e-mail (it may have been added since they were invited).
 */
async function startSession(
	deps: PortalsDeps,
	portal: PortalRecord,
	member: typeof portalMembers.$inferSelect,
): Promise<PortalSession> {
	const memberRows = await memberRowIdsByEmail(deps.db, portal, [member.email])
	await deps.db
		.update(portalMembers)
		.set({
			status: 'active',
			lastSeenAt: deps.now(),
			memberRowId: memberRows.get(member.email) ?? member.memberRowId,
		})
		.where(eq(portalMembers.id, member.id))
	// Their sessions past their end go now, so sessions never pile up.
	await deps.db
		.delete(portalSessions)
		.where(and(eq(portalSessions.memberId, member.id), lte(portalSessions.expiresAt, deps.now())))
	const session = await createPortalSession(deps, member)
	return { token: session.token, expiresAt: session.expiresAt.toISOString() }
}

export async function verifyMagicLink(deps: PortalsDeps, portal: PortalRecord, token: string): Promise<PortalSession> {
	const memberId = await consumeMagicLink(deps, portal.id, token)
	const [member] = memberId
		? await deps.db
				.select()
				.from(portalMembers)
				.where(and(eq(portalMembers.id, memberId), eq(portalMembers.portalId, portal.id)))
		: []
	if (!member) {
		throw new AppError('INVALID_TOKEN', {
			detail: 'This sign-in link was used already, has expired or is not for this portal. Ask for a new one.',
		})
	}
	return startSession(deps, portal, member)
}

// A hash of a password nobody has: an unknown address or a member without a password costs the
// same scrypt work as a wrong password, so the time taken says nothing about who is a member.
let decoyHash: Promise<string> | undefined

export async function signInWithPassword(
	deps: PortalsDeps,
	portal: PortalRecord,
	input: { email: string; password: string },
	clientIp: string,
): Promise<PortalSession> {
	if (!portal.access.allowPasswords) {
		throw new AppError('FORBIDDEN', { detail: 'This portal signs in by e-mail link only.' })
	}
	await limitSignIn(deps, 'password', portal, input.email, clientIp)
	const member = await memberByEmail(deps, portal, input.email)
	decoyHash ??= hashPassword('portal decoy password, never set by anyone')
	const hash = member?.passwordHash ?? (await decoyHash)
	const isRight = await verifyPassword({ hash, password: input.password })
	if (!member?.passwordHash || !isRight) {
		throw new AppError('INVALID_CREDENTIALS')
	}
	return startSession(deps, portal, member)
}

/** Sets (or changes) the member's password; their other sessions end, this one stays. */
export async function setPortalPassword(
	deps: PortalsDeps,
	member: PortalMemberContext,
	password: string,
): Promise<void> {
	const passwordHash = await hashPassword(password)
	await deps.db.transaction(async (tx) => {
		await tx.update(portalMembers).set({ passwordHash }).where(eq(portalMembers.id, member.memberId))
		await tx
			.delete(portalSessions)
			.where(and(eq(portalSessions.memberId, member.memberId), ne(portalSessions.id, member.sessionId)))
	})
}

export async function signOutOfPortal(deps: PortalsDeps, member: PortalMemberContext): Promise<void> {
	await deps.db.delete(portalSessions).where(eq(portalSessions.id, member.sessionId))
}
