import { portalChartSchema, portalFormOpenSchema, portalInvoicesSchema } from '@blocksmith/contracts/portals.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { commonProblems, createRouter, jsonResponse } from '#src/lib/openapi.ts'
import { portalChart } from './portals.charts.ts'
import type { PortalsDeps } from './portals.deps.ts'
import { openPortalForm } from './portals.forms.ts'
import { portalInvoices } from './portals.invoices.ts'
import { portalReader } from './portals.reader.ts'
import { type PortalMemberEnv, requirePortal, requirePortalMember } from './portals.session.ts'

// What members do in the portal with the other modules (issue 18 item 5): open one of the team's
// forms as themselves (the forms module links the answer's row to them), list their company's
// invoices, each paid on its own page, and see published charts over only their rows.

const { 401: unauthenticated, 404: notFound } = commonProblems

const tags = ['Portals (members)']
const slug = z.string().min(1).max(80)

const routes = {
	chart: createRoute({
		method: 'get',
		path: '/api/portal/{slug}/charts/{chartId}',
		tags,
		security: [{ portalBearer: [] }],
		summary: 'A published chart of the portal over only the rows its page grants the member, drawn as SVG',
		request: {
			params: z.object({ slug, chartId: z.string().min(1).max(100) }),
			query: z.object({
				theme: z.enum(['light', 'dark']).optional(),
				width: z.coerce.number().int().min(200).max(2000).optional(),
			}),
		},
		responses: {
			200: jsonResponse(portalChartSchema, 'The chart'),
			400: commonProblems[400],
			401: unauthenticated,
			404: notFound,
		},
	}),
	invoices: createRoute({
		method: 'get',
		path: '/api/portal/{slug}/invoices',
		tags,
		security: [{ portalBearer: [] }],
		summary: 'The invoices and credit notes of the member’s company (none without one); 404 when the portal shows none',
		request: { params: z.object({ slug }) },
		responses: {
			200: jsonResponse(portalInvoicesSchema, 'Newest first'),
			401: unauthenticated,
			404: notFound,
		},
	}),
	open: createRoute({
		method: 'post',
		path: '/api/portal/{slug}/forms/{formId}/open',
		tags,
		security: [{ portalBearer: [] }],
		summary: 'Where the member fills in one of the portal’s forms: its page with their signed identity (12 hours)',
		request: { params: z.object({ slug, formId: z.string().min(1).max(100) }) },
		responses: {
			200: jsonResponse(portalFormOpenSchema, 'The form’s address'),
			401: unauthenticated,
			404: notFound,
		},
	}),
}

export function createPortalModuleRoutes(options: { portals: PortalsDeps }) {
	const deps = options.portals
	const router = createRouter<PortalMemberEnv>()
	const portal = requirePortal(deps) as unknown as MiddlewareHandler<PortalMemberEnv>
	const member = requirePortalMember(deps)
	router.use('/api/portal/:slug/forms/*', portal, member)
	router.use('/api/portal/:slug/invoices', portal, member)
	router.use('/api/portal/:slug/charts/*', portal, member)
	router.openapi(routes.chart, async (c) => {
		const reader = await portalReader(deps, c.var.portal, c.var.portalMember)
		return c.json(await portalChart(reader, c.req.valid('param').chartId, c.req.valid('query')), 200)
	})
	router.openapi(routes.invoices, async (c) =>
		c.json(await portalInvoices(deps, c.var.portal, c.var.portalMember), 200),
	)
	router.openapi(routes.open, async (c) =>
		c.json(await openPortalForm(deps, c.var.portal, c.var.portalMember, c.req.valid('param').formId), 200),
	)
	return router
}
