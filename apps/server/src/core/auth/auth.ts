import { randomBytes } from 'node:crypto'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { bearer, organization } from 'better-auth/plugins'
import { asc, eq } from 'drizzle-orm'
import type { Config } from '#src/config.ts'
import type { Db } from '#src/db/client.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import { changeEmailMail, confirmEmailMail, invitationMail, resetPasswordMail } from './auth.mail.ts'
import { createNotionSignIn, type NotionSignInDeps, notionSignInPaths } from './auth.notion.ts'
import {
	accounts,
	authRateLimits,
	invitations,
	members,
	organizations,
	sessions,
	users,
	verifications,
} from './auth.schema.ts'
import { createSessionCheck, sessionLifetime } from './auth.session.ts'

/** The header our middleware sets to the caller's address; whatever a client sends in it is replaced. */
export const clientIpHeader = 'x-blocksmith-client-ip'

export const authRateLimitRules = {
	signIn: { window: 60, max: 5 },
	signUp: { window: 3600, max: 10 },
	passwordReset: { window: 900, max: 5 },
} as const

export type Auth = ReturnType<typeof createAuth>

/**
 * The proof, carried by the e-mailed link, that its holder reads the invited mailbox. Admins
 * see invitation ids in the team screen; only the mailbox sees this token.
 */
function invitationLinkToken(secret: string, invitationId: string): string {
	return sign(deriveKey(secret, 'invitation-link'), invitationId)
}

export function isInvitationLinkToken(secret: string, invitationId: string, token: string): boolean {
	return isValidSignature(deriveKey(secret, 'invitation-link'), invitationId, token)
}

export function createAuth(deps: {
	db: Db
	config: Config
	mail: Mailer
	log: Logger
	/** "Continue with Notion" borrows the workspace layer's token exchange and connection (decision 020). */
	notionSignIn?: NotionSignInDeps
}) {
	const { db, config, mail, log } = deps
	const notion = createNotionSignIn({
		config,
		log,
		deps: deps.notionSignIn,
		ensureOrganization: (userId) => ensureOrganization(db, userId),
	})
	const confirmUrl = (token: string) => `${config.publicUrl}/confirm?token=${encodeURIComponent(token)}`

	const auth = betterAuth({
		appName: 'Blocksmith',
		baseURL: config.publicUrl,
		basePath: '/api/auth',
		secret: config.authSecret,
		trustedOrigins: [
			...trustedOrigins(config.publicUrl),
			// `npm run dev` serves the web app from Vite's dev server, which proxies the API here.
			...(config.env === 'development' ? ['http://localhost:5173'] : []),
		],
		telemetry: { enabled: false },
		logger: {
			disabled: config.logLevel === 'silent',
			log: (level, message, ...args) => log[level]({ args }, `auth: ${message}`),
		},
		database: drizzleAdapter(db, {
			provider: 'pg',
			schema: {
				user: users,
				session: sessions,
				account: accounts,
				verification: verifications,
				organization: organizations,
				member: members,
				invitation: invitations,
				rateLimit: authRateLimits,
			},
		}),
		emailAndPassword: {
			enabled: true,
			minPasswordLength: 8,
			maxPasswordLength: 128,
			// Users can start right away; an unconfirmed address is shown as such until confirmed.
			requireEmailVerification: false,
			resetPasswordTokenExpiresIn: 3600,
			revokeSessionsOnPasswordReset: true,
			sendResetPassword: async ({ user, token }) => {
				await mail.send(resetPasswordMail(user.email, user.name, `${config.publicUrl}/reset-password?token=${token}`))
			},
		},
		emailVerification: {
			sendOnSignUp: true,
			expiresIn: 24 * 3600,
			sendVerificationEmail: async ({ user, token }) => {
				await mail.send(confirmEmailMail(user.email, user.name, confirmUrl(token)))
			},
		},
		user: {
			changeEmail: {
				enabled: true,
				sendChangeEmailConfirmation: async ({ user, newEmail, token }) => {
					await mail.send(changeEmailMail(user.email, user.name, newEmail, confirmUrl(token)))
				},
			},
		},
		session: {
			expiresIn: sessionLifetime.expiresInSeconds,
			updateAge: sessionLifetime.updateAgeSeconds,
		},
		rateLimit: {
			enabled: config.rateLimits,
			storage: 'database',
			window: 60,
			max: 100,
			customRules: {
				'/sign-in/email': authRateLimitRules.signIn,
				'/sign-up/email': authRateLimitRules.signUp,
				'/request-password-reset': authRateLimitRules.passwordReset,
				'/reset-password': authRateLimitRules.passwordReset,
				'/change-password': authRateLimitRules.signIn,
			},
		},
		advanced: {
			// better-auth skips its Origin check under a test runner; ours must test what runs in production.
			disableOriginCheck: false,
			ipAddress: { ipAddressHeaders: [clientIpHeader] },
			database: { generateId: () => randomBytes(16).toString('base64url') },
		},
		// OAuth failures (refused consent, a stale state) land on the sign-in page, which explains them.
		onAPIError: { errorURL: `${config.publicUrl}${notionSignInPaths.failed}` },
		databaseHooks: {
			account: notion.accountHooks,
			session: {
				create: {
					// A session starts in the user's first organization. A new account gets one of its
					// own here, before its first session, so every session has somewhere to work.
					before: async (session) => {
						const organizationId = await ensureOrganization(db, session.userId)
						return { data: { ...session, activeOrganizationId: organizationId } }
					},
				},
			},
		},
		plugins: [
			bearer(),
			notion.provider,
			notion.oneTimeToken,
			organization({
				creatorRole: 'owner',
				allowUserToCreateOrganization: true,
				organizationLimit: 20,
				membershipLimit: 500,
				invitationLimit: 200,
				invitationExpiresIn: 7 * 24 * 3600,
				cancelPendingInvitationsOnReInvite: true,
				sendInvitationEmail: async ({ invitation, organization: org, inviter }) => {
					await mail.send(
						invitationMail(
							invitation.email,
							inviter.user.name,
							org.name,
							`${config.publicUrl}/invite/${encodeURIComponent(invitation.id)}?token=${invitationLinkToken(config.authSecret, invitation.id)}`,
						),
					)
				},
			}),
		],
	})
	// Every dashboard request checks its bearer token; better-auth does everything else.
	return Object.assign(auth, {
		checkSession: createSessionCheck({ db, secret: config.authSecret }),
		isNotionSignInEnabled: notion.isEnabled,
	})
}

async function ensureOrganization(db: Db, userId: string): Promise<string> {
	const [first] = await db
		.select({ organizationId: members.organizationId })
		.from(members)
		.where(eq(members.userId, userId))
		.orderBy(asc(members.createdAt))
		.limit(1)
	if (first) {
		return first.organizationId
	}
	const [user] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId))
	const organizationId = randomBytes(16).toString('base64url')
	await db.insert(organizations).values({
		id: organizationId,
		name: `${user?.name.trim() || 'My'}'s workspace`.slice(0, 100),
		slug: `ws-${randomBytes(6).toString('hex')}`,
	})
	await db.insert(members).values({ id: randomBytes(16).toString('base64url'), organizationId, userId, role: 'owner' })
	return organizationId
}

/** On a local install, http://localhost:PORT and http://127.0.0.1:PORT are the same place. */
function trustedOrigins(publicUrl: string): string[] {
	const url = new URL(publicUrl)
	if (url.hostname !== 'localhost' && url.hostname !== '127.0.0.1') {
		return [url.origin]
	}
	const port = url.port ? `:${url.port}` : ''
	return [`${url.protocol}//localhost${port}`, `${url.protocol}//127.0.0.1${port}`]
}
