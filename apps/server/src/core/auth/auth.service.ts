import type { User } from '@blocksmith/contracts/auth.ts'
import type { Db } from '#src/db/client.ts'
import { consumeRateLimit, enforceRateLimit } from '#src/lib/rate-limit.ts'
import type { Auth } from './auth.ts'

type AuthCtx = { auth: Auth; db: Db; clientIp: string }

type SessionLike = {
	user: {
		id: string
		name: string
		email: string
		emailVerified: boolean
		image?: string | null | undefined
		createdAt: Date
	}
	session: object
}

export function toUser(result: SessionLike): User {
	const { user, session } = result
	return {
		id: user.id,
		name: user.name,
		email: user.email,
		emailVerified: user.emailVerified,
		image: user.image ?? null,
		createdAt: user.createdAt.toISOString(),
		activeOrganizationId: (session as { activeOrganizationId?: string | null }).activeOrganizationId ?? null,
	}
}

// Limits on our own account endpoints. better-auth limits /api/auth/*; these wrap its server
// API, which it does not limit, so they are counted here: per address and per mailbox.
const perIp = { limit: 10, windowSeconds: 900 }
const perMailbox = { limit: 3, windowSeconds: 3600 }

export async function requestPasswordReset(ctx: AuthCtx, email: string): Promise<void> {
	await enforceRateLimit(ctx.db, `password-reset:ip:${ctx.clientIp}`, perIp)
	// Over the mailbox limit we answer as usual but send nothing, so nobody can flood an inbox
	// and the answer still reveals nothing about the account.
	const mailbox = await consumeRateLimit(ctx.db, `password-reset:email:${email}`, perMailbox)
	if (!mailbox.isAllowed) {
		return
	}
	await ctx.auth.api.requestPasswordReset({ body: { email } })
}

export async function resetPassword(ctx: AuthCtx, body: { token: string; password: string }): Promise<void> {
	await enforceRateLimit(ctx.db, `password-reset-confirm:ip:${ctx.clientIp}`, perIp)
	await ctx.auth.api.resetPassword({ body: { token: body.token, newPassword: body.password } })
}

export async function confirmEmail(ctx: AuthCtx, token: string): Promise<void> {
	await enforceRateLimit(ctx.db, `confirm:ip:${ctx.clientIp}`, { limit: 30, windowSeconds: 900 })
	await ctx.auth.api.verifyEmail({ query: { token } })
}

export async function resendConfirmation(ctx: AuthCtx, user: { id: string; email: string; emailVerified: boolean }) {
	if (user.emailVerified) {
		return
	}
	await enforceRateLimit(ctx.db, `confirm-resend:user:${user.id}`, perMailbox)
	await ctx.auth.api.sendVerificationEmail({ body: { email: user.email } })
}
