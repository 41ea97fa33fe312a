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
import { memberOfSignedLink, openContentFile, openPortalFile } from './portals.files.ts'
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
/**
 * The row's schema for the OpenAPI document: a block's children are blocks again (z.lazy), which
 * the document generator cannot follow, so there a block is an object with a type.
 */
const rowDetailDoc = portalRowDetailSchema.extend({
	blocks: z
		.array(z.looseObject({ type: z.string() }))
		.nullable()
		.describe('PortalBlock[] (contracts portals.ts): children are blocks again'),
})
/** A signed link's member, expiry and signature (portals.files.ts). */
const signedQuery = z.object({
	m: z.string().max(100).optional(),
	exp: z.string().max(20).optional(),
	sig: z.string().max(100).optional(),
})

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
			200: jsonResponse(rowDetailDoc, 'The row'),
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
			query: signedQuery,
		},
		responses: {
			302: { description: 'To the file' },
			400: bad,
			401: unauthenticated,
			404: notFound,
		},
	}),
	contentFile: memberRoute({
		method: 'get',
		path: '/api/portal/{slug}/pages/{pageId}/rows/{rowId}/content/{blockId}',
		summary:
			'Opens a file Notion hosts in a granted row’s page content: redirects to a fresh URL. The bearer token, or the link’s signature as the row gives it',
		request: {
			params: z.object({ slug, pageId, rowId, blockId: z.string().min(1).max(100) }),
			query: signedQuery,
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
	// A signed link (file or page-content file) stands for the token: what an <img> can send.
	const signedPaths = [/^files\/[^/]+\/[^/]+\/[^/]+\/[^/]+$/, /^pages\/[^/]+\/rows\/[^/]+\/content\/[^/]+$/]
	const memberOrSignedLink: MiddlewareHandler<PortalMemberEnv> = async (c, next) => {
		const { m, exp, sig } = c.req.query()
		// The path as sent (still encoded), after /api/portal/{slug}/: what the link's signature covers.
		const path = new URL(c.req.url).pathname.split('/').slice(4).join('/')
		if (!sig || !signedPaths.some((pattern) => pattern.test(path))) {
			return member(c, next)
		}
		c.set('portalMember', await memberOfSignedLink(deps, c.var.portal, path, { m, exp, sig }))
		await next()
	}
	// Only these paths: the sign-in routes under /api/portal/{slug}/… are other routers' and open.
	router.use('/api/portal/:slug/me', portal, member)
	router.use('/api/portal/:slug/pages/*', portal, memberOrSignedLink)
	router.use('/api/portal/:slug/files/*', portal, memberOrSignedLink)

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
	router.openapi(routes.contentFile, async (c) => {
		const { pageId: page, rowId: row, blockId } = c.req.valid('param')
		const url = await openContentFile(await reader(c), { pageId: page, rowId: row, blockId })
		c.header('cache-control', 'private, no-store')
		c.header('referrer-policy', 'no-referrer')
		return c.redirect(url, 302) as never
	})
	return router
}
