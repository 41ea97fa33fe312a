import { randomBytes, randomUUID } from 'node:crypto'
import type {
	CreateSubscriptionWithoutLogin,
	CreateSubscriptionWithoutLoginResult,
} from '@blocksmith/contracts/subscriptions.ts'
import { and, eq } from 'drizzle-orm'
import { accounts, members, organizations, users, verifications } from '#src/core/auth/auth.schema.ts'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import { enforceRateLimit } from '#src/lib/rate-limit.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import type { SubscriptionsDeps } from './subscriptions.deps.ts'
import { billingSignups, subscriptions } from './subscriptions.schema.ts'

// Subscribing before having an account (`create_subs_without_login`): the choice is stored
// first, so nothing is lost if the visitor closes the tab; the account, its organization and
// the subscription are made from it once the e-mail is confirmed (local) or the payment is
// made (Stripe, from its webhook), and the e-mailed link then leads to choosing a password.

const signupLinkDays = 7
const tokenPrefix = 'signup.'

type SignupDeps = Pick<SubscriptionsDeps, 'db' | 'authSecret' | 'publicUrl'>

export function signupConfirmationUrl(deps: SignupDeps, signupId: string): string {
	const token = `${tokenPrefix}${signupId}.${sign(deriveKey(deps.authSecret, 'billing-signup'), signupId)}`
	return `${deps.publicUrl}/confirm?token=${encodeURIComponent(token)}`
}

export function isSignupToken(token: string): boolean {
	return token.startsWith(tokenPrefix)
}

/** Each signup sends an e-mail or opens a Checkout: limited per address and per client. */
const signupLimits = {
	perIp: { limit: 10, windowSeconds: 3600 },
	perEmail: { limit: 3, windowSeconds: 3600 },
}

export async function createSignup(
	deps: SubscriptionsDeps,
	input: CreateSubscriptionWithoutLogin,
	clientIp: string,
): Promise<CreateSubscriptionWithoutLoginResult> {
	if (deps.billing.localPlan) {
		throw new AppError('SUBSCRIPTION_STATE', {
			detail: "This installation's operator sets the plan for everyone: create an account to start.",
		})
	}
	if (deps.rateLimits) {
		await enforceRateLimit(deps.db, `billing-signup:ip:${clientIp}`, signupLimits.perIp)
		await enforceRateLimit(deps.db, `billing-signup:email:${input.email}`, signupLimits.perEmail)
	}
	const id = randomUUID()
	await deps.db.insert(billingSignups).values({
		id,
		email: input.email,
		name: input.name,
		organizationName: input.organizationName ?? null,
		planId: input.planId,
		interval: input.interval,
		provider: deps.provider.name,
	})
	return deps.provider.startSignup(deps, id, input)
}

export type SignupRow = typeof billingSignups.$inferSelect

/**
 * The account (found by e-mail, or made without a password), a new organization it owns, and
 * the organization's subscription as `subscription` describes it. Runs once per signup: a
 * second call (a webhook delivered twice, the link opened twice) returns what the first made.
 */
export async function completeSignup(
	db: Db,
	signup: SignupRow,
	subscription: Omit<typeof subscriptions.$inferInsert, 'organizationId'>,
	options: { emailVerified: boolean },
): Promise<{ userId: string; organizationId: string }> {
	return db.transaction(async (tx) => {
		const [locked] = await tx.select().from(billingSignups).where(eq(billingSignups.id, signup.id)).for('update')
		if (locked?.userId && locked.organizationId) {
			return { userId: locked.userId, organizationId: locked.organizationId }
		}
		const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, signup.email))
		let userId = existing?.id
		if (!userId) {
			userId = randomBytes(16).toString('base64url')
			await tx
				.insert(users)
				.values({ id: userId, email: signup.email, name: signup.name, emailVerified: options.emailVerified })
		}
		const organizationId = randomBytes(16).toString('base64url')
		await tx.insert(organizations).values({
			id: organizationId,
			name: (signup.organizationName ?? `${signup.name.trim()}'s workspace`).slice(0, 100),
			slug: `ws-${randomBytes(6).toString('hex')}`,
		})
		await tx
			.insert(members)
			.values({ id: randomBytes(16).toString('base64url'), organizationId, userId, role: 'owner' })
		await tx.insert(subscriptions).values({ ...subscription, organizationId })
		await tx
			.update(billingSignups)
			.set({ userId, organizationId, completedAt: new Date() })
			.where(eq(billingSignups.id, signup.id))
		return { userId, organizationId }
	})
}

/**
 * `/api/confirm_user` with a signup's token: confirms the address, makes the account (local;
 * with Stripe the paid webhook made it already) and answers where to go next: choosing a
 * password for a new account, or signing in for an address that had one.
 */
export async function confirmSignup(
	deps: SubscriptionsDeps,
	token: string,
): Promise<{ message: string; next: string }> {
	const [signupId = '', signature = ''] = token.slice(tokenPrefix.length).split('.')
	if (!isValidSignature(deriveKey(deps.authSecret, 'billing-signup'), signupId, signature)) {
		throw new AppError('INVALID_TOKEN')
	}
	const [signup] = await deps.db.select().from(billingSignups).where(eq(billingSignups.id, signupId))
	if (!signup || signup.createdAt.getTime() < Date.now() - signupLinkDays * 86_400_000) {
		throw new AppError('INVALID_TOKEN')
	}
	if (!signup.userId && signup.provider === 'stripe') {
		throw new AppError('CONFLICT', { detail: 'The payment is not confirmed yet. Try the link again in a minute.' })
	}
	const now = deps.now()
	const trial = deps.billing.trialDays > 0
	const { userId } = await completeSignup(
		deps.db,
		signup,
		{
			provider: 'local',
			planId: signup.planId,
			interval: signup.interval,
			status: trial ? 'trialing' : 'active',
			trialEndsAt: trial ? new Date(now.getTime() + deps.billing.trialDays * 86_400_000) : null,
			currentPeriodStart: trial ? null : now,
		},
		{ emailVerified: true },
	)
	await deps.db
		.update(users)
		.set({ emailVerified: true })
		.where(and(eq(users.id, userId), eq(users.emailVerified, false)))
	const [credential] = await deps.db
		.select({ id: accounts.id })
		.from(accounts)
		.where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
	if (credential) {
		return {
			message: 'Your e-mail address is confirmed and your subscription is ready. Sign in to continue.',
			next: '/login',
		}
	}
	return {
		message: 'Your e-mail address is confirmed. Choose a password to sign in.',
		next: await passwordLink(deps.db, userId),
	}
}

/**
 * A one-time link to choose the first password, made as better-auth's own reset does (a
 * verification value it consumes when the password is set, which also creates the credential).
 */
async function passwordLink(db: Db, userId: string): Promise<string> {
	const token = randomBytes(18).toString('base64url')
	await db.insert(verifications).values({
		id: randomBytes(16).toString('base64url'),
		identifier: `reset-password:${token}`,
		value: userId,
		expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
	})
	return `/reset-password?token=${encodeURIComponent(token)}&welcome=1`
}
