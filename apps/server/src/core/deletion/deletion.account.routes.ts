// Deleting one's own account: /dashboard/users/delete_account (signed in). Only a session is
// required, not a membership: a person removed from every organization can still delete their
// account, and an organization scheduled for deletion leaves this path open (decision 040).

import { okSchema } from '@blocksmith/contracts/common.ts'
import { accountDeletionPreviewSchema, deleteAccountSchema } from '@blocksmith/contracts/data.ts'
import { createRoute } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { requireSession, type SessionEnv } from '#src/core/auth/auth.middleware.ts'
import { commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import {
	type AccountCaller,
	type AccountDeletionDeps,
	deleteAccount,
	previewAccountDeletion,
} from './deletion.account.ts'

const tags = ['Account']
const security = [{ bearer: [] }]
const path = '/dashboard/users/delete_account'

const routes = {
	preview: createRoute({
		method: 'get',
		path,
		tags,
		security,
		summary: 'What deleting your account would do: organizations it deletes, leaves, or is blocked by',
		responses: {
			200: jsonResponse(accountDeletionPreviewSchema, 'The preview'),
			401: commonProblems[401],
		},
	}),
	delete: createRoute({
		method: 'post',
		path,
		tags,
		security,
		summary: 'Delete your account (with your password, or a sign-in of the last 10 minutes without one)',
		description:
			'Organizations where you are the only member are deleted with it; you leave the others. Every session ends at once.',
		request: { body: jsonBody(deleteAccountSchema) },
		responses: {
			200: jsonResponse(okSchema, 'Deleted'),
			400: problemResponse('The password is missing or not right'),
			401: commonProblems[401],
			403: problemResponse('No password on the account and the sign-in is older than 10 minutes: sign in again'),
			409: problemResponse('You are the only owner of an organization with other members'),
			429: commonProblems[429],
		},
	}),
}

export function createAccountDeletionRoutes(deps: AccountDeletionDeps) {
	const router = createRouter<SessionEnv>()
	router.use(path, requireSession(deps.auth))

	const caller = (c: Context<SessionEnv>): AccountCaller => ({
		userId: c.var.session.user.id,
		sessionCreatedAt: c.var.session.session.createdAt,
		headers: c.var.authHeaders(),
	})

	router.openapi(routes.preview, async (c) => c.json(await previewAccountDeletion(deps, caller(c)), 200))
	router.openapi(routes.delete, async (c) => {
		await deleteAccount(deps, caller(c), c.req.valid('json'))
		return c.json({ success: true as const }, 200)
	})
	return router
}
