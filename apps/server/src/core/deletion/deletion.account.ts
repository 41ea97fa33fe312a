import type { AccountDeletionPreview, DeleteAccount } from '@blocksmith/contracts/data.ts'
import { APIError } from 'better-auth'
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm'
import { accounts, members, organizations, sessions, users, verifications } from '#src/core/auth/auth.schema.ts'
import { type Auth, authRateLimitRules } from '#src/core/auth/auth.ts'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import { enforceRateLimit } from '#src/lib/rate-limit.ts'
import { organizationDeletions } from './deletion.schema.ts'
import { type DeletionDeps, scheduleOrganizationDeletion } from './deletion.service.ts'

// Deleting one's own account (issue 20, decision 040). It follows the organizations it touches:
// refused while the person is the only owner of one with other members (they transfer first);
// one they are alone in is purged with the account; every other one they simply leave.
//
// What an organization keeps of a person who leaves, by foreign key to users:
// - members, sessions, accounts (the password, Notion's tokens): cascade, they are the person's.
// - every created_by, invoice_events.actor_id, the export and deletion requesters, billing
//   signups: set null. The objects are the team's; an invoice's history keeps what happened and
//   when, without who (text the person wrote into the team's objects stays, as the team's).
// - time_entries.user_id: set null (migration 0023). The hours are the team's: they stay in
//   reports, timesheets and exports. Modules' leave steps run first (the time module stops a
//   running timer, which nobody could stop afterwards).
// - invitations.inviter_id: set null (migration 0023). A pending invitation is the organization's:
//   its link keeps working and shows no inviter, instead of vanishing with the person.

/** A session younger than this confirms a deletion without a password (accounts without one). */
const recentSignInMs = 10 * 60 * 1000

/** What a module does before a person leaves organizations with their account; registered in app.ts. */
type AccountLeaveStep = (input: { userId: string; organizationIds: string[] }) => Promise<void>

export type AccountDeletionDeps = {
	db: Db
	auth: Auth
	deletion: DeletionDeps
	leaveSteps: AccountLeaveStep[]
	/** config.rateLimits: password guesses are limited as sign-in is. */
	rateLimits: boolean
}

/** The caller: their user id, and the session they call with. */
export type AccountCaller = {
	userId: string
	sessionCreatedAt: Date
	/** Headers to pass on to better-auth (the bearer token), for its own password check. */
	headers: Headers
}

type OrganizationRef = { id: string; name: string }

type Plan = {
	blockedBy: OrganizationRef[]
	deletes: OrganizationRef[]
	leaves: OrganizationRef[]
}

/**
 * The caller's organizations by what deleting the account does to them. An organization
 * already scheduled for deletion never blocks: its dashboard is closed, so nobody could be made
 * an owner there, and it is purged on its own schedule anyway.
 */
async function planOf(db: Db, userId: string): Promise<Plan> {
	const others = sql<number>`(select count(*) from ${members} other
		where other.organization_id = ${members.organizationId} and other.user_id <> ${userId})::int`
	const otherOwners = sql<number>`(select count(*) from ${members} other
		where other.organization_id = ${members.organizationId} and other.user_id <> ${userId}
		and other.role = 'owner')::int`
	const rows = await db
		.select({
			id: organizations.id,
			name: organizations.name,
			role: members.role,
			others,
			otherOwners,
			isDeleting: isNotNull(organizationDeletions.organizationId),
		})
		.from(members)
		.innerJoin(organizations, eq(organizations.id, members.organizationId))
		.leftJoin(organizationDeletions, eq(organizationDeletions.organizationId, members.organizationId))
		.where(eq(members.userId, userId))
		.orderBy(asc(organizations.name), asc(organizations.id))
	const plan: Plan = { blockedBy: [], deletes: [], leaves: [] }
	for (const row of rows) {
		const ref = { id: row.id, name: row.name }
		if (row.others === 0) {
			plan.deletes.push(ref)
		} else if (row.role === 'owner' && row.otherOwners === 0 && !row.isDeleting) {
			plan.blockedBy.push(ref)
		} else {
			plan.leaves.push(ref)
		}
	}
	return plan
}

async function hasPassword(db: Db, userId: string): Promise<boolean> {
	const [credential] = await db
		.select({ id: accounts.id })
		.from(accounts)
		.where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential'), isNotNull(accounts.password)))
		.limit(1)
	return credential !== undefined
}

function isRecent(deps: AccountDeletionDeps, caller: AccountCaller): boolean {
	return deps.deletion.now().getTime() - caller.sessionCreatedAt.getTime() <= recentSignInMs
}

export async function previewAccountDeletion(
	deps: AccountDeletionDeps,
	caller: AccountCaller,
): Promise<AccountDeletionPreview> {
	const plan = await planOf(deps.db, caller.userId)
	return {
		hasPassword: await hasPassword(deps.db, caller.userId),
		isRecentSignIn: isRecent(deps, caller),
		blockedBy: plan.blockedBy,
		deletesOrganizations: plan.deletes,
		leavesOrganizations: plan.leaves,
	}
}

/** The password when the account has one (checked by better-auth, limited as sign-in is); else a fresh session. */
async function confirmIdentity(deps: AccountDeletionDeps, caller: AccountCaller, password: string | undefined) {
	if (!(await hasPassword(deps.db, caller.userId))) {
		if (!isRecent(deps, caller)) {
			throw new AppError('REAUTHENTICATE', {
				detail: 'Sign in again, then delete your account within 10 minutes.',
			})
		}
		return
	}
	const wrong = (message: string) =>
		new AppError('VALIDATION_FAILED', { detail: message, errors: [{ field: 'password', message }] })
	if (!password) {
		throw wrong('Enter your password to delete your account.')
	}
	if (deps.rateLimits) {
		const { window, max } = authRateLimitRules.signIn
		await enforceRateLimit(deps.db, `account-delete:user:${caller.userId}`, { limit: max, windowSeconds: window })
	}
	try {
		await deps.auth.api.verifyPassword({ body: { password }, headers: caller.headers })
	} catch (error) {
		if (error instanceof APIError && (error.body as { code?: unknown } | undefined)?.code === 'INVALID_PASSWORD') {
			throw wrong('The password is not right.')
		}
		throw error
	}
}

function soleOwnerDetail(blockedBy: OrganizationRef[]): string {
	const names = blockedBy.map((organization) => `“${organization.name}”`)
	const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
	return `You are the only owner of ${list}, which ${names.length === 1 ? 'has' : 'have'} other members. Make one of them an owner first, or delete the organization.`
}

/**
 * Deletes the caller's account. In order: the organizations they are alone in are scheduled
 * for deletion with the purge at once; the modules' leave steps run for the others; then, in one
 * transaction, their memberships, every session (the old token is refused at once), their
 * pending one-time tokens and the user row go.
 */
export async function deleteAccount(
	deps: AccountDeletionDeps,
	caller: AccountCaller,
	input: DeleteAccount,
): Promise<void> {
	await confirmIdentity(deps, caller, input.password)
	const { userId } = caller
	const plan = await planOf(deps.db, userId)
	if (plan.blockedBy.length > 0) {
		throw new AppError('SOLE_OWNER', { detail: soleOwnerDetail(plan.blockedBy) })
	}
	for (const organization of plan.deletes) {
		await scheduleOrganizationDeletion(deps.deletion, {
			organizationId: organization.id,
			requestedBy: null,
			reason: 'account_deleted',
			purgeAfter: deps.deletion.now(),
		})
	}
	const organizationIds = plan.leaves.map((organization) => organization.id)
	for (const step of deps.leaveSteps) {
		await step({ userId, organizationIds })
	}
	await deps.db.transaction(async (tx) => {
		await tx.delete(members).where(eq(members.userId, userId))
		await tx.delete(sessions).where(eq(sessions.userId, userId))
		// A reset-password token names its user by id; nothing else of theirs is left in there.
		await tx.delete(verifications).where(eq(verifications.value, userId))
		await tx.delete(users).where(eq(users.id, userId))
	})
	deps.deletion.log.info({ userId, deleted: plan.deletes.length, left: plan.leaves.length }, 'account deleted')
}
