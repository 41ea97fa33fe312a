// The team's side of portal members, under /dashboard/{tool}_portal/invitations (decision 038):
// bearer session of a team member only; a portal member's token is unknown here (401).

import { idSchema } from '@blocksmith/contracts/common.ts'
import {
	bulkInviteInputSchema,
	bulkInviteResultSchema,
	portalMemberSchema,
	updatePortalMemberSchema,
} from '@blocksmith/contracts/portals.ts'
import { type WorkspaceTool, workspaceToolSchema } from '@blocksmith/contracts/workspaces.ts'
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMemberOnce } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import {
	bearerRoute,
	commonProblems,
	createRouter,
	jsonBody,
	jsonResponse,
	problemResponse,
	type RouteSpec,
} from '#src/lib/openapi.ts'
import type { PortalsDeps } from './portals.deps.ts'
import {
	bulkInvite,
	listPortalMembers,
	type PortalMembersCtx,
	removePortalMember,
	resendInvitation,
	updatePortalMember,
} from './portals.members.ts'

const idParams = z.object({ id: idSchema })
const listQuery = z.object({ portalId: idSchema })
const { 400: bad, 404: notFound } = commonProblems
const forbidden = problemResponse('Only owners and admins change members')

function route<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}_portal/invitations`, 'Portals', spec)
}

function routesFor(tool: WorkspaceTool) {
	return {
		bulkInvite: route(tool, {
			method: 'post',
			path: '/bulk_invite',
			summary:
				'Invite up to 500 people at once, each with their company (a row id or title of the companies database); unknown companies and lines over the plan are refused one by one, existing members listed (and mailed again when sendEmails)',
			request: { body: jsonBody(bulkInviteInputSchema) },
			responses: {
				200: jsonResponse(bulkInviteResultSchema, 'What was done with each line'),
				400: bad,
				402: problemResponse('The plan has no room for another portal member'),
				403: forbidden,
				404: notFound,
			},
		}),
		list: route(tool, {
			method: 'get',
			path: '',
			summary: "The portal's members, newest invitations first (then by e-mail), with company and last visit",
			request: { query: listQuery },
			responses: { 200: jsonResponse(z.array(portalMemberSchema), 'Members'), 400: bad, 404: notFound },
		}),
		resend: route(tool, {
			method: 'post',
			path: '/{id}/resend',
			summary: 'Mail the member a new 7-day sign-in link; their older unused links stop working',
			request: { params: idParams },
			responses: { 200: jsonResponse(portalMemberSchema, 'Sent'), 403: forbidden, 404: notFound },
		}),
		update: route(tool, {
			method: 'patch',
			path: '/{id}',
			summary: "Change a member's name or company (null removes it)",
			request: { params: idParams, body: jsonBody(updatePortalMemberSchema) },
			responses: { 200: jsonResponse(portalMemberSchema, 'Changed'), 400: bad, 403: forbidden, 404: notFound },
		}),
		remove: route(tool, {
			method: 'delete',
			path: '/{id}',
			summary: 'Remove a member: their sessions and links stop working at once',
			request: { params: idParams },
			responses: { 204: { description: 'Removed' }, 403: forbidden, 404: notFound },
		}),
	}
}

export function createPortalMemberRoutes(options: { auth: Auth; portals: PortalsDeps }) {
	const router = createRouter<MemberEnv>()
	// Other portal routers share the /dashboard/{tool}_portal paths: the session is checked once.
	const guard = requireMemberOnce(options.auth, options.portals.db)
	const ctx = (c: Context<MemberEnv>): PortalMembersCtx => ({
		...options.portals,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		router.use(`/dashboard/${tool}_portal/invitations`, guard)
		router.use(`/dashboard/${tool}_portal/invitations/*`, guard)
		router.openapi(routes.bulkInvite, async (c) => c.json(await bulkInvite(ctx(c), tool, c.req.valid('json')), 200))
		router.openapi(routes.list, async (c) =>
			c.json(await listPortalMembers(ctx(c), tool, c.req.valid('query').portalId), 200),
		)
		router.openapi(routes.resend, async (c) =>
			c.json(await resendInvitation(ctx(c), tool, c.req.valid('param').id), 200),
		)
		router.openapi(routes.update, async (c) =>
			c.json(await updatePortalMember(ctx(c), tool, c.req.valid('param').id, c.req.valid('json')), 200),
		)
		router.openapi(routes.remove, async (c) => {
			await removePortalMember(ctx(c), tool, c.req.valid('param').id)
			return c.body(null, 204)
		})
	}
	return router
}
