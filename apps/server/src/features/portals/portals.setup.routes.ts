// Portal setup under /dashboard/{tool}_portal (decision 038): the organization's portals, the
// databases they can expose, saving, resetting and deleting a setup, and its databases'
// freshness ("refresh now"). `{tool}` is the portal's workspace tool; a portal is only reached
// through its own tool. Every team member reads; owners and admins change.

import { idSchema } from '@blocksmith/contracts/common.ts'
import {
	portalDatabaseOptionSchema,
	portalJobTimerSchema,
	portalSchema,
	portalSetupInputSchema,
	portalSetupResponseSchema,
	resetPortalInputSchema,
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
import { getJobTimer, refreshPortal } from './portals.freshness.ts'
import {
	deletePortal,
	listPortalDatabases,
	listPortals,
	type PortalsCtx,
	resetPortal,
	saveSetup,
} from './portals.setup.ts'

const { 400: bad, 404: notFound } = commonProblems
const forbidden = problemResponse('Only owners and admins change portals')

const databasesQuerySchema = z.object({
	/** The saved portal whose access settings suggest the rules. */
	portalId: idSchema.optional(),
	/** Access settings not saved yet, which win over the portal's. */
	companiesDatabaseId: idSchema.optional(),
	membersDatabaseId: idSchema.optional(),
})
const portalIdQuerySchema = z.object({ portalId: idSchema })

function portalRoute<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}_portal`, 'Portals', spec)
}

function routesFor(tool: WorkspaceTool) {
	return {
		setup: portalRoute(tool, {
			method: 'get',
			path: '/setup',
			summary: `The organization's portals on ${tool} databases, and how many the plan allows`,
			responses: { 200: jsonResponse(portalSetupResponseSchema, 'Portals') },
		}),
		databases: portalRoute(tool, {
			method: 'get',
			path: '/setup/fetch_public_databases',
			summary:
				"The databases a portal can expose, with properties, row count and the rules each supports (given the portal's access settings, or the ones sent)",
			request: { query: databasesQuerySchema },
			responses: { 200: jsonResponse(z.array(portalDatabaseOptionSchema), 'Databases'), 400: bad, 404: notFound },
		}),
		save: portalRoute(tool, {
			method: 'post',
			path: '/setup/update_setup',
			summary:
				"Create a portal (no id) or replace its setup: checked against the databases' properties; which databases mirror row content and the people's names follow",
			request: { body: jsonBody(portalSetupInputSchema) },
			responses: {
				200: jsonResponse(portalSchema, 'Saved'),
				201: jsonResponse(portalSchema, 'Created'),
				400: bad,
				402: problemResponse("The plan's portal limit, or a custom domain the plan does not include"),
				403: forbidden,
				404: notFound,
				409: problemResponse('Another portal has the address or the domain'),
			},
		}),
		reset: portalRoute(tool, {
			method: 'post',
			path: '/setup/reset_portal_config',
			summary:
				"Pages, forms, charts, branding and access back to their defaults (the portal's name typed to confirm); name, address, domain and members kept",
			request: { body: jsonBody(resetPortalInputSchema) },
			responses: { 200: jsonResponse(portalSchema, 'Reset'), 400: bad, 403: forbidden, 404: notFound },
		}),
		remove: portalRoute(tool, {
			method: 'delete',
			path: '/setup/{id}',
			summary: 'Delete a portal: its members, their sessions and sign-in links go with it',
			request: { params: z.object({ id: idSchema }) },
			responses: { 204: { description: 'Deleted' }, 403: forbidden, 404: notFound },
		}),
		jobTimer: portalRoute(tool, {
			method: 'get',
			path: '/databases/get_job_timer',
			summary:
				"The portal's databases' sync: last and next sync, running now. Built-in databases have no sync (their data is always current): no last sync, never running",
			request: { query: portalIdQuerySchema },
			responses: { 200: jsonResponse(portalJobTimerSchema, 'Sync state'), 400: bad, 404: notFound },
		}),
		refresh: portalRoute(tool, {
			method: 'post',
			path: '/databases/refresh',
			summary:
				'Refresh now: each Notion database of the portal syncs at once (any team member may ask); built-in databases are always current, so nothing is queued for them. Answers the sync state',
			request: { body: jsonBody(portalIdQuerySchema) },
			responses: { 202: jsonResponse(portalJobTimerSchema, 'Queued'), 400: bad, 404: notFound },
		}),
	}
}

export function createPortalSetupRoutes(deps: { auth: Auth; portals: PortalsDeps }) {
	const router = createRouter<MemberEnv>()
	// The members' routes share /dashboard/{tool}_portal: the guard runs once per request.
	const guard = requireMemberOnce(deps.auth, deps.portals.db)
	const ctx = (c: Context<MemberEnv>): PortalsCtx => ({
		...deps.portals,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		router.use(`/dashboard/${tool}_portal/setup`, guard)
		router.use(`/dashboard/${tool}_portal/setup/*`, guard)
		router.use(`/dashboard/${tool}_portal/databases/*`, guard)
		router.openapi(routes.setup, async (c) => c.json(await listPortals(ctx(c), tool), 200))
		router.openapi(routes.databases, async (c) =>
			c.json(await listPortalDatabases(ctx(c), tool, c.req.valid('query')), 200),
		)
		router.openapi(routes.save, async (c) => {
			const { portal, isCreated } = await saveSetup(ctx(c), tool, c.req.valid('json'))
			return isCreated ? c.json(portal, 201) : c.json(portal, 200)
		})
		router.openapi(routes.reset, async (c) => c.json(await resetPortal(ctx(c), tool, c.req.valid('json')), 200))
		router.openapi(routes.remove, async (c) => {
			await deletePortal(ctx(c), tool, c.req.valid('param').id)
			return c.body(null, 204)
		})
		router.openapi(routes.jobTimer, async (c) =>
			c.json(await getJobTimer(ctx(c), tool, c.req.valid('query').portalId), 200),
		)
		router.openapi(routes.refresh, async (c) =>
			c.json(await refreshPortal(ctx(c), tool, c.req.valid('json').portalId), 202),
		)
	}
	return router
}
