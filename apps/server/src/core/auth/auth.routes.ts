// Account plumbing: /auth/*, /api/confirm_user, /dashboard/users/forgot_password, and
// better-auth's own endpoints under /api/auth/*. Public except where a route says otherwise.

import {
	confirmUserResultSchema,
	confirmUserSchema,
	messageResponseSchema,
	passwordResetRequestSchema,
	passwordResetSchema,
	validateTokenResponseSchema,
} from '@blocksmith/contracts/auth.ts'
import { createRoute } from '@hono/zod-openapi'
import type { Hono } from 'hono'
import type { Db } from '#src/db/client.ts'
import type { AppEnv } from '#src/lib/context.ts'
import { AppError } from '#src/lib/errors.ts'
import { commonProblems, createRouter, jsonBody, jsonResponse } from '#src/lib/openapi.ts'
import { requireSession, type SessionEnv } from './auth.middleware.ts'
import { createNotionSignInRoutes } from './auth.notion.ts'
import { confirmEmail, requestPasswordReset, resendConfirmation, resetPassword, toUser } from './auth.service.ts'
import { type Auth, clientIpHeader } from './auth.ts'
import { fromAuthError } from './auth-errors.ts'

const validateTokenRoute = createRoute({
	method: 'get',
	path: '/auth/validate_token',
	tags: ['Account'],
	summary: 'The signed-in user, for a bearer token',
	security: [{ bearer: [] }],
	responses: { 200: jsonResponse(validateTokenResponseSchema, 'The token is valid'), 401: commonProblems[401] },
})

const requestResetRoute = (path: string) =>
	createRoute({
		method: 'post',
		path,
		tags: ['Account'],
		summary: 'Send password reset instructions (always succeeds, so accounts cannot be discovered)',
		request: { body: jsonBody(passwordResetRequestSchema) },
		responses: {
			200: jsonResponse(messageResponseSchema, 'Instructions sent if the account exists'),
			400: commonProblems[400],
			429: commonProblems[429],
		},
	})

const resetRoute = createRoute({
	method: 'put',
	path: '/auth/password',
	tags: ['Account'],
	summary: 'Set a new password with the token from the reset e-mail',
	request: { body: jsonBody(passwordResetSchema) },
	responses: {
		200: jsonResponse(messageResponseSchema, 'Password changed; other sessions are signed out'),
		400: commonProblems[400],
		429: commonProblems[429],
	},
})

const confirmRoute = createRoute({
	method: 'post',
	path: '/api/confirm_user',
	tags: ['Account'],
	summary: 'Confirm an e-mail address with the token from the confirmation e-mail',
	request: { body: jsonBody(confirmUserSchema) },
	responses: { 200: jsonResponse(confirmUserResultSchema, 'Confirmed'), 400: commonProblems[400] },
})

const resendRoute = createRoute({
	method: 'post',
	path: '/dashboard/users/resend_confirmation',
	tags: ['Account'],
	summary: 'Send the confirmation e-mail again',
	security: [{ bearer: [] }],
	responses: { 200: jsonResponse(messageResponseSchema, 'Sent'), 401: commonProblems[401], 429: commonProblems[429] },
})

export function createAuthRoutes(deps: {
	auth: Auth
	db: Db
	/** A signup's token (subscribing without an account) is the subscriptions module's; null for any other. */
	confirmSignup: (token: string) => Promise<{ message: string; next: string }> | null
}) {
	const { auth, db } = deps
	const session = requireSession(auth)
	const router = createRouter<SessionEnv>()

	router.use('/auth/validate_token', session)
	router.openapi(validateTokenRoute, (c) => c.json({ success: true as const, data: toUser(c.var.session) }, 200))

	for (const path of ['/auth/password', '/dashboard/users/forgot_password']) {
		router.openapi(requestResetRoute(path), async (c) => {
			await requestPasswordReset({ auth, db, clientIp: c.var.clientIp }, c.req.valid('json').email)
			return c.json(
				{ success: true as const, message: 'If an account exists for this address, we sent instructions to it.' },
				200,
			)
		})
	}

	router.openapi(resetRoute, async (c) => {
		await resetPassword({ auth, db, clientIp: c.var.clientIp }, c.req.valid('json'))
		return c.json({ success: true as const, message: 'Your password was changed.' }, 200)
	})

	router.openapi(confirmRoute, async (c) => {
		const { token } = c.req.valid('json')
		const signup = deps.confirmSignup(token)
		if (signup) {
			return c.json({ success: true as const, ...(await signup) }, 200)
		}
		await confirmEmail({ auth, db, clientIp: c.var.clientIp }, token)
		return c.json({ success: true as const, message: 'Your e-mail address is confirmed.' }, 200)
	})

	router.use('/dashboard/users/resend_confirmation', session)
	router.openapi(resendRoute, async (c) => {
		await resendConfirmation({ auth, db, clientIp: c.var.clientIp }, c.var.session.user)
		return c.json({ success: true as const, message: 'We sent the confirmation e-mail again.' }, 200)
	})

	router.route('/', createNotionSignInRoutes(auth))

	return router
}

/**
 * Mounts better-auth's own endpoints (sign-up, sign-in, sign-out, sessions, change password
 * and e-mail, organizations). Its error bodies are turned into our problem+json so that the
 * web client handles every error one way.
 */
export function mountAuthHandler(app: Hono<AppEnv>, auth: Auth): void {
	app.on(['GET', 'POST'], '/api/auth/*', async (c) => {
		const headers = new Headers(c.req.raw.headers)
		headers.set(clientIpHeader, c.var.clientIp)
		const request = new Request(c.req.raw, { headers })
		const response = await auth.handler(request)
		if (response.status < 400) {
			return response
		}
		const body = (await response
			.clone()
			.json()
			.catch(() => undefined)) as { code?: unknown; message?: unknown } | undefined
		const error = fromAuthError(response.status, body)
		const retryAfter = response.headers.get('x-retry-after') ?? response.headers.get('retry-after')
		if (error.code === 'RATE_LIMITED' && retryAfter) {
			throw new AppError('RATE_LIMITED', { retryAfter: Number.parseInt(retryAfter, 10) || 60 })
		}
		throw error
	})
}
