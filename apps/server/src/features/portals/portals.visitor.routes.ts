import {
	portalMeSchema,
	portalRowDetailSchema,
	portalRowsQuerySchema,
	portalRowsSchema,
} from '@blocksmith/contracts/portals.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { commonProblems, createRouter, jsonResponse } from '#src/lib/openapi.ts'
import type { PortalsDeps } from './portals.deps.ts'
import { memberOfFileLink, openPortalFile } from './portals.files.ts'
import { portalReader } from './portals.reader.ts'
import { listPortalRows } from './portals.rows.ts'
import { type PortalMemberEnv, requirePortal, requirePortalMember } from './portals.session.ts'
import { portalMe, portalRowDetail } from './portals.visitor.ts'

// What a signed-in portal member reads (decision 038): their pages, rows and files, each through
// the page's rule. Every route here needs the member's bearer token for this very portal, except
// a file link, which may carry a signature standing for it (an <img> sends no header).

const tag = 'Portals (members)'
const { 400: bad, 401: unauthenticated, 404: notFound } = commonProblems

const slug = z.string().min(1).max(80)
const pageId = z.string().min(1).max(40)
const rowId = z.string().min(1).max(200)

function memberRoute<R extends Parameters<typeof createRoute>[0]>(spec: R) {
	return createRoute({ ...spec, tags: [tag], security: [{ bearer: [] }] })
}

const routes = {
	me: memberRoute({
		method: 'get',
		path: '/api/portal/{slug}/me',
		summary: 'The signed-in member, the pages they can open and when the data was last updated',
		request: { params: z.object({ slug }) },
		responses: {
			200: jsonResponse(portalMeSchema, 'The member and their portal'),
			401: unauthenticated,
			404: notFound,
		},
	}),
	rows: memberRoute({
		method: 'get',
		path: '/api/portal/{slug}/pages/{pageId}/rows',
		summary:
			'A page’s rows the member’s rule grants, with only the page’s properties: filter (filterable properties), sort, search, keyset pages',
		request: { params: z.object({ slug, pageId }), query: portalRowsQuerySchema },
		responses: {
			200: jsonResponse(portalRowsSchema, 'A page of rows'),
			400: bad,
			401: unauthenticated,
			404: notFound,
		},
	}),
	row: memberRoute({
		method: 'get',
		path: '/api/portal/{slug}/pages/{pageId}/rows/{rowId}',
		summary: 'One row (by its id in the workspace) with its page content; a row outside the rule is 404',
		request: { params: z.object({ slug, pageId, rowId }) },
		responses: {
			200: jsonResponse(portalRowDetailSchema, 'The row'),
			401: unauthenticated,
			404: notFound,
		},
	}),
	file: memberRoute({
		method: 'get',
		path: '/api/portal/{slug}/files/{pageId}/{rowId}/{propertyId}/{index}',
		summary:
			'Opens a file of a granted row: redirects to a short-lived URL. The bearer token, or the link’s own signature (m, exp, sig) as the rows list gives it',
		request: {
			params: z.object({
				slug,
				pageId,
				rowId,
				propertyId: z.string().min(1).max(200),
				index: z.coerce.number().int().min(0).max(1000),
			}),
			query: z.object({
				m: z.string().max(100).optional(),
				exp: z.string().max(20).optional(),
				sig: z.string().max(100).optional(),
			}),
		},
		responses: {
			302: { description: 'To the file' },
			400: bad,
			401: unauthenticated,
			404: notFound,
		},
	}),
}

export function createPortalVisitorRoutes(options: { portals: PortalsDeps }) {
	const deps = options.portals
	const router = createRouter<PortalMemberEnv>()
	const portal = requirePortal(deps) as unknown as MiddlewareHandler<PortalMemberEnv>
	const member = requirePortalMember(deps)
	// Only these paths: the sign-in routes under /api/portal/{slug}/… are other routers' and open.
	router.use('/api/portal/:slug/me', portal, member)
	router.use('/api/portal/:slug/pages/*', portal, member)
	router.use('/api/portal/:slug/files/*', portal, async (c, next) => {
		const { m, exp, sig } = c.req.query()
		if (!sig) {
			return member(c, next)
		}
		// The route's params are not parsed yet in a middleware: read them from the path as sent.
		const tail = new URL(c.req.url).pathname.split('/files/')[1]?.split('/') ?? []
		const [page = '', row = '', propertyId = '', index = ''] = tail.map((part) => {
			try {
				return decodeURIComponent(part)
			} catch {
				return ''
			}
		})
		c.set(
			'portalMember',
			await memberOfFileLink(
				deps,
				c.var.portal,
				{ pageId: page, rowId: row, propertyId, index: /^\d{1,4}$/.test(index) ? Number(index) : -1 },
				{ m, exp, sig },
			),
		)
		await next()
	})

	const reader = (c: { var: PortalMemberEnv['Variables'] }) => portalReader(deps, c.var.portal, c.var.portalMember)

	router.openapi(routes.me, async (c) => c.json(await portalMe(await reader(c)), 200))
	router.openapi(routes.rows, async (c) => {
		const query = c.req.valid('query')
		return c.json(await listPortalRows(await reader(c), c.req.valid('param').pageId, query), 200)
	})
	router.openapi(routes.row, async (c) => {
		const { pageId: page, rowId: row } = c.req.valid('param')
		return c.json(await portalRowDetail(await reader(c), page, row), 200)
	})
	router.openapi(routes.file, async (c) => {
		const { pageId: page, rowId: row, propertyId, index } = c.req.valid('param')
		const url = await openPortalFile(await reader(c), { pageId: page, rowId: row, propertyId, index })
		c.header('cache-control', 'private, no-store')
		c.header('referrer-policy', 'no-referrer')
		return c.redirect(url, 302) as never
	})
	return router
}
