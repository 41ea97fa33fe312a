import { randomBytes } from 'node:crypto'
import type {
	Invitation,
	InvitationPreview,
	Member,
	OrganizationSummary,
	OrgDetails,
	Role,
} from '@blocksmith/contracts/teams.ts'
import { and, asc, count, eq, gt, sql } from 'drizzle-orm'
import type { Config } from '#src/config.ts'
import type { MemberContext } from '#src/core/auth/auth.middleware.ts'
import { accounts, invitations, members, organizations, sessions, users } from '#src/core/auth/auth.schema.ts'
import { type Auth, isInvitationLinkToken } from '#src/core/auth/auth.ts'
import { organizationDeletions } from '#src/core/deletion/deletion.schema.ts'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { canAssignRole, canManageMembers, canRemoveMember } from './teams.policy.ts'

export type TeamCtx = {
	db: Db
	auth: Auth
	config: Config
	headers: Headers
	member: MemberContext
	subscriptions: Subscriptions
}

function requireManager(ctx: TeamCtx): void {
	if (!canManageMembers(ctx.member.role)) {
		throw new AppError('FORBIDDEN', { detail: 'Only owners and admins manage the team.' })
	}
}

export async function listInvitations(ctx: TeamCtx): Promise<Invitation[]> {
	const rows = await ctx.db
		.select({ invitation: invitations, inviterName: users.name })
		.from(invitations)
		.leftJoin(users, eq(users.id, invitations.inviterId))
		.where(
			and(
				eq(invitations.organizationId, ctx.member.orgId),
				eq(invitations.status, 'pending'),
				gt(invitations.expiresAt, sql`now()`),
			),
		)
		.orderBy(asc(invitations.createdAt))
	return rows.map(({ invitation, inviterName }) => toInvitation(invitation, inviterName))
}

export async function createInvitation(ctx: TeamCtx, input: { email: string; role: Role }): Promise<Invitation> {
	requireManager(ctx)
	if (!canAssignRole(ctx.member.role, null, input.role)) {
		throw new AppError('FORBIDDEN', { detail: 'Only owners can invite owners.' })
	}
	const [existing] = await ctx.db
		.select({ id: members.id })
		.from(members)
		.innerJoin(users, eq(users.id, members.userId))
		.where(and(eq(members.organizationId, ctx.member.orgId), eq(users.email, input.email)))
		.limit(1)
	if (existing) {
		throw new AppError('CONFLICT', { detail: `${input.email} is already a member.` })
	}
	// A pending invitation holds its seat; sending it again takes no other.
	const [pending] = await ctx.db
		.select({ id: invitations.id })
		.from(invitations)
		.where(
			and(
				eq(invitations.organizationId, ctx.member.orgId),
				eq(invitations.email, input.email),
				eq(invitations.status, 'pending'),
				gt(invitations.expiresAt, new Date()),
			),
		)
		.limit(1)
	await ctx.subscriptions.assertCanAdd(ctx.db, ctx.member.orgId, 'members', pending ? 0 : 1)
	const created = await ctx.auth.api.createInvitation({
		headers: ctx.headers,
		body: { email: input.email, role: input.role, organizationId: ctx.member.orgId, resend: true },
	})
	const [row] = await ctx.db
		.select({ invitation: invitations, inviterName: users.name })
		.from(invitations)
		.leftJoin(users, eq(users.id, invitations.inviterId))
		.where(eq(invitations.id, created.id))
	const { invitation, inviterName } = found(row)
	return toInvitation(invitation, inviterName)
}

export async function revokeInvitation(ctx: TeamCtx, invitationId: string): Promise<void> {
	requireManager(ctx)
	const [invitation] = await ctx.db
		.select({ id: invitations.id, status: invitations.status })
		.from(invitations)
		.where(and(eq(invitations.id, invitationId), eq(invitations.organizationId, ctx.member.orgId)))
	if (!invitation) {
		throw new AppError('NOT_FOUND', { detail: 'No such invitation.' })
	}
	if (invitation.status !== 'pending') {
		throw new AppError('INVITATION_UNAVAILABLE')
	}
	await ctx.auth.api.cancelInvitation({ headers: ctx.headers, body: { invitationId } })
}

export async function listMembers(ctx: TeamCtx): Promise<Member[]> {
	const rows = await ctx.db
		.select({ member: members, user: users })
		.from(members)
		.innerJoin(users, eq(users.id, members.userId))
		.where(eq(members.organizationId, ctx.member.orgId))
		.orderBy(asc(members.createdAt))
	return rows.map(({ member, user }) => ({
		id: member.id,
		userId: user.id,
		name: user.name,
		email: user.email,
		image: user.image,
		role: member.role as Role,
		createdAt: member.createdAt.toISOString(),
	}))
}

async function findMember(ctx: TeamCtx, memberId: string) {
	const [target] = await ctx.db
		.select()
		.from(members)
		.where(and(eq(members.id, memberId), eq(members.organizationId, ctx.member.orgId)))
	return found(target, 'No such member.')
}

async function countOwners(ctx: TeamCtx): Promise<number> {
	const [row] = await ctx.db
		.select({ owners: count() })
		.from(members)
		.where(and(eq(members.organizationId, ctx.member.orgId), eq(members.role, 'owner')))
	return row?.owners ?? 0
}

export async function removeMember(ctx: TeamCtx, memberId: string): Promise<void> {
	const target = await findMember(ctx, memberId)
	if (!canRemoveMember(ctx.member.role, target.role as Role)) {
		throw new AppError('FORBIDDEN', {
			detail:
				target.role === 'owner' ? 'Only an owner can remove an owner.' : 'Only owners and admins manage the team.',
		})
	}
	if (target.role === 'owner' && (await countOwners(ctx)) <= 1) {
		throw new AppError('LAST_OWNER', { detail: 'The last owner cannot be removed. Make someone else an owner first.' })
	}
	await ctx.auth.api.removeMember({
		headers: ctx.headers,
		body: { memberIdOrEmail: target.id, organizationId: ctx.member.orgId },
	})
	// The removed member's sessions leave the organization with them.
	await ctx.db
		.update(sessions)
		.set({ activeOrganizationId: null })
		.where(and(eq(sessions.userId, target.userId), eq(sessions.activeOrganizationId, ctx.member.orgId)))
}

export async function updateMemberRole(ctx: TeamCtx, input: { memberId: string; role: Role }): Promise<void> {
	const target = await findMember(ctx, input.memberId)
	if (!canAssignRole(ctx.member.role, target.role as Role, input.role)) {
		throw new AppError('FORBIDDEN', { detail: 'Only owners can grant or take away the owner role.' })
	}
	if (target.role === 'owner' && input.role !== 'owner' && (await countOwners(ctx)) <= 1) {
		throw new AppError('LAST_OWNER')
	}
	await ctx.auth.api.updateMemberRole({
		headers: ctx.headers,
		body: { memberId: target.id, role: input.role, organizationId: ctx.member.orgId },
	})
}

export async function leaveOrganization(ctx: TeamCtx): Promise<void> {
	if (ctx.member.role === 'owner' && (await countOwners(ctx)) <= 1) {
		throw new AppError('LAST_OWNER', { detail: 'You are the last owner. Make someone else an owner before you leave.' })
	}
	await ctx.auth.api.leaveOrganization({ headers: ctx.headers, body: { organizationId: ctx.member.orgId } })
}

export async function getOrgDetails(ctx: TeamCtx): Promise<OrgDetails> {
	const [org] = await ctx.db.select().from(organizations).where(eq(organizations.id, ctx.member.orgId))
	const organization = found(org)
	const [membersRow] = await ctx.db
		.select({ total: count() })
		.from(members)
		.where(eq(members.organizationId, organization.id))
	const subscription = await ctx.subscriptions.summary(organization.id)
	const [deletion] = await ctx.db
		.select()
		.from(organizationDeletions)
		.where(eq(organizationDeletions.organizationId, organization.id))
	return {
		id: organization.id,
		name: organization.name,
		slug: organization.slug,
		role: ctx.member.role,
		membersCount: membersRow?.total ?? 0,
		plan: subscription.planId,
		planName: subscription.planName,
		subscriptionState: subscription.status,
		trialEndsAt: subscription.trialEndsAt?.toISOString() ?? null,
		pauseReason: subscription.pauseReason,
		createdAt: organization.createdAt.toISOString(),
		deletion: deletion
			? {
					requestedAt: deletion.requestedAt.toISOString(),
					purgeAfter: deletion.purgeAfter.toISOString(),
					requestedBy: deletion.requestedByName,
				}
			: null,
	}
}

/**
 * The caller known from the session alone, without a membership: listing and creating
 * organizations stay open to someone who belongs to none (their last one deleted, or removed).
 * `activeOrganizationId` is the session's organization while the user is still a member of it.
 */
export type AccountCtx = { db: Db; auth: Auth; headers: Headers; userId: string; activeOrganizationId: string | null }

export async function listOrganizations(ctx: AccountCtx): Promise<OrganizationSummary[]> {
	const rows = await ctx.db
		.select({ organization: organizations, role: members.role, joinedAt: members.createdAt })
		.from(members)
		.innerJoin(organizations, eq(organizations.id, members.organizationId))
		.where(eq(members.userId, ctx.userId))
		.orderBy(asc(organizations.name))
	// Without a membership in the session's organization, the next dashboard call works in the
	// first one joined (requireMember's fallback): that is the one marked active.
	const firstJoined = rows.reduce<(typeof rows)[number] | undefined>(
		(first, row) => (first && first.joinedAt <= row.joinedAt ? first : row),
		undefined,
	)
	const activeId = ctx.activeOrganizationId ?? firstJoined?.organization.id
	return rows.map(({ organization, role }) => ({
		id: organization.id,
		name: organization.name,
		slug: organization.slug,
		role: role as Role,
		isActive: organization.id === activeId,
	}))
}

/** A new organization owned by the caller; the session moves to it. */
export async function createOrganization(ctx: AccountCtx, name: string): Promise<OrganizationSummary> {
	const created = await ctx.auth.api.createOrganization({
		headers: ctx.headers,
		body: { name, slug: `ws-${randomBytes(6).toString('hex')}`, keepCurrentActiveOrganization: false },
	})
	const organization = found(created)
	return { id: organization.id, name: organization.name, slug: organization.slug, role: 'owner', isActive: true }
}

export async function switchOrganization(ctx: TeamCtx, organizationId: string): Promise<void> {
	const [membership] = await ctx.db
		.select({ id: members.id })
		.from(members)
		.where(and(eq(members.userId, ctx.member.userId), eq(members.organizationId, organizationId)))
	found(membership, 'No such organization.')
	await ctx.auth.api.setActiveOrganization({ headers: ctx.headers, body: { organizationId } })
}

/** What the invitation page shows to whoever holds the link. */
export async function getInvitationPreview(db: Db, invitationId: string): Promise<InvitationPreview> {
	const [row] = await db
		.select({
			invitation: invitations,
			organizationName: organizations.name,
			inviterName: users.name,
			deletingSince: organizationDeletions.requestedAt,
		})
		.from(invitations)
		.innerJoin(organizations, eq(organizations.id, invitations.organizationId))
		.leftJoin(users, eq(users.id, invitations.inviterId))
		.leftJoin(organizationDeletions, eq(organizationDeletions.organizationId, invitations.organizationId))
		.where(eq(invitations.id, invitationId))
	if (row?.invitation.status !== 'pending' || row.invitation.expiresAt <= new Date()) {
		throw new AppError('INVITATION_UNAVAILABLE')
	}
	// Joining an organization scheduled for deletion would only lead to its closed dashboard. The
	// invitation stays pending: restoring the organization makes it work again.
	if (row.deletingSince !== null) {
		throw new AppError('INVITATION_UNAVAILABLE', {
			detail: `${row.organizationName} is being deleted, so its invitations cannot be accepted.`,
		})
	}
	const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, row.invitation.email))
	return {
		id: row.invitation.id,
		email: row.invitation.email,
		role: (row.invitation.role ?? 'member') as Role,
		organizationName: row.organizationName,
		inviterName: row.inviterName,
		expiresAt: row.invitation.expiresAt.toISOString(),
		hasAccount: Boolean(account),
	}
}

/**
 * Joining needs a confirmed address. The token in the e-mailed link proves the user reads the
 * invited mailbox, so with it an unconfirmed address counts as confirmed: someone invited
 * without an account signs up and joins in one step. The session moves to the organization.
 */
export async function acceptInvitation(
	ctx: { db: Db; auth: Auth; config: Config; headers: Headers; userId: string; email: string; emailVerified: boolean },
	invitationId: string,
	linkToken: string | undefined,
): Promise<{ organizationId: string }> {
	const preview = await getInvitationPreview(ctx.db, invitationId)
	if (preview.email.toLowerCase() !== ctx.email.toLowerCase()) {
		throw new AppError('FORBIDDEN', { detail: `This invitation is for ${preview.email}. Sign in with that address.` })
	}
	if (!ctx.emailVerified) {
		const isFromMailbox =
			linkToken !== undefined && isInvitationLinkToken(ctx.config.authSecret, invitationId, linkToken)
		if (!isFromMailbox) {
			throw new AppError('EMAIL_NOT_VERIFIED', {
				detail: 'Open the invitation from the e-mail we sent, or confirm your e-mail address first.',
			})
		}
		await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, ctx.userId))
	}
	const accepted = await ctx.auth.api.acceptInvitation({ headers: ctx.headers, body: { invitationId } })
	const organizationId = found(accepted).member.organizationId
	await ctx.auth.api.setActiveOrganization({ headers: ctx.headers, body: { organizationId } })
	return { organizationId }
}

/**
 * A newcomer signs up from the invitation link and is in the team in the same step. The link's
 * token proves the mailbox, so the account starts confirmed and no confirmation mail is sent.
 * Account, password, membership and the used invitation are written in one transaction before
 * the first session exists, so that session starts in the team and no organization of the
 * newcomer's own is made (auth.ts makes one only for a user who belongs to none).
 */
export async function signUpWithInvitation(
	ctx: { db: Db; auth: Auth; config: Config; headers: Headers },
	invitationId: string,
	input: { token: string; name: string; password: string },
): Promise<{ token: string; organizationId: string }> {
	if (!isInvitationLinkToken(ctx.config.authSecret, invitationId, input.token)) {
		throw new AppError('FORBIDDEN', { detail: 'Open the invitation from the e-mail we sent.' })
	}
	const preview = await getInvitationPreview(ctx.db, invitationId)
	if (preview.hasAccount) {
		throw new AppError('EMAIL_TAKEN', { detail: `${preview.email} already has an account. Sign in to accept.` })
	}
	const email = preview.email.toLowerCase()
	const passwordHash = await (await ctx.auth.$context).password.hash(input.password)
	const newId = () => randomBytes(16).toString('base64url')
	const organizationId = await ctx.db.transaction(async (tx) => {
		// Claimed first: of two tabs racing with the same link, one gets the invitation.
		const [claimed] = await tx
			.update(invitations)
			.set({ status: 'accepted' })
			.where(
				and(eq(invitations.id, invitationId), eq(invitations.status, 'pending'), gt(invitations.expiresAt, sql`now()`)),
			)
			.returning({ organizationId: invitations.organizationId, role: invitations.role })
		if (!claimed) {
			throw new AppError('INVITATION_UNAVAILABLE')
		}
		const userId = newId()
		const [user] = await tx
			.insert(users)
			.values({ id: userId, name: input.name, email, emailVerified: true })
			.onConflictDoNothing()
			.returning({ id: users.id })
		if (!user) {
			throw new AppError('EMAIL_TAKEN', { detail: `${preview.email} already has an account. Sign in to accept.` })
		}
		// As better-auth's own sign-up links it: the credential account's id is the user's.
		await tx
			.insert(accounts)
			.values({ id: newId(), accountId: userId, providerId: 'credential', userId, password: passwordHash })
		await tx
			.insert(members)
			.values({ id: newId(), organizationId: claimed.organizationId, userId, role: claimed.role ?? 'member' })
		return claimed.organizationId
	})
	// better-auth makes the session and its bearer token, as for any sign-in.
	const signedIn = await ctx.auth.api.signInEmail({
		headers: ctx.headers,
		body: { email, password: input.password },
		returnHeaders: true,
	})
	const token = signedIn.headers.get('set-auth-token')
	if (!token) {
		throw new Error('sign-in after an invitation sign-up returned no token')
	}
	return { token, organizationId }
}

function toInvitation(invitation: typeof invitations.$inferSelect, inviterName: string | null): Invitation {
	return {
		id: invitation.id,
		email: invitation.email,
		role: (invitation.role ?? 'member') as Role,
		status: invitation.status as Invitation['status'],
		expiresAt: invitation.expiresAt.toISOString(),
		inviterName,
		createdAt: invitation.createdAt.toISOString(),
	}
}
