import { portalFormOpenSchema } from '@blocksmith/contracts/portals.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { commonProblems, createRouter, jsonResponse } from '#src/lib/openapi.ts'
import type { PortalsDeps } from './portals.deps.ts'
import { openPortalForm } from './portals.forms.ts'
import { type PortalMemberEnv, requirePortal, requirePortalMember } from './portals.session.ts'

// The team's forms inside a portal (issue 18 item 5): a member asks to open one and gets its
// public page with their identity; the forms module links the answer's row to them.

const { 401: unauthenticated, 404: notFound } = commonProblems

const routes = {
	open: createRoute({
		method: 'post',
		path: '/api/portal/{slug}/forms/{formId}/open',
		tags: ['Portals (members)'],
		security: [{ portalBearer: [] }],
		summary: 'Where the member fills in one of the portal’s forms: its page with their signed identity (12 hours)',
		request: { params: z.object({ slug: z.string().min(1).max(80), formId: z.string().min(1).max(100) }) },
		responses: {
			200: jsonResponse(portalFormOpenSchema, 'The form’s address'),
			401: unauthenticated,
			404: notFound,
		},
	}),
}

export function createPortalFormRoutes(options: { portals: PortalsDeps }) {
	const deps = options.portals
	const router = createRouter<PortalMemberEnv>()
	router.use(
		'/api/portal/:slug/forms/*',
		requirePortal(deps) as unknown as MiddlewareHandler<PortalMemberEnv>,
		requirePortalMember(deps),
	)
	router.openapi(routes.open, async (c) =>
		c.json(await openPortalForm(deps, c.var.portal, c.var.portalMember, c.req.valid('param').formId), 200),
	)
	return router
}
