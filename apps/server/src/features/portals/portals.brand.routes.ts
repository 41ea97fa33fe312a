// A portal's public face under /api/portal/{slug} (no session): name, colours and logo for the
// sign-in page. An unknown, disabled or unserved portal is 404, as one that never existed.

import { okSchema } from '@blocksmith/contracts/common.ts'
import { portalPublicInfoSchema } from '@blocksmith/contracts/portals.ts'
import { createRoute, z } from '@hono/zod-openapi'
import { AppError } from '#src/lib/errors.ts'
import { commonProblems, createRouter, jsonResponse } from '#src/lib/openapi.ts'
import { openPortalLogo, portalPublicInfo } from './portals.brand.ts'
import type { PortalsDeps } from './portals.deps.ts'
import { findPortalByHost } from './portals.public.ts'
import { type PortalEnv, requirePortal } from './portals.session.ts'

const slugParams = z.object({ slug: z.string().min(1).max(100) })
const tags = ['Portal visitors']

const routes = {
	info: createRoute({
		method: 'get',
		path: '/api/portal/{slug}',
		tags,
		summary:
			"A portal's name, colours, logo and sign-in options, and where its pages live (`` on its custom domain, /p/{slug} elsewhere)",
		request: { params: slugParams },
		responses: { 200: jsonResponse(portalPublicInfoSchema, 'The portal'), 404: commonProblems[404] },
	}),
	logo: createRoute({
		method: 'get',
		path: '/api/portal/{slug}/logo',
		tags,
		summary: "The portal's logo image",
		request: { params: slugParams },
		responses: {
			200: { content: { 'image/*': { schema: z.string() } }, description: 'The image' },
			404: commonProblems[404],
		},
	}),
	domain: createRoute({
		method: 'get',
		path: '/api/portal_domains/check',
		tags,
		summary:
			"Whether an enabled portal uses the domain (200) or not (404): for a TLS proxy's on-demand certificates (Caddy's `ask`), so certificates are only requested for portals' domains",
		request: { query: z.object({ domain: z.string().min(1).max(253) }) },
		responses: { 200: jsonResponse(okSchema, 'A portal uses it'), 404: commonProblems[404] },
	}),
}

export function createPortalBrandRoutes(options: { portals: PortalsDeps }) {
	const deps = options.portals
	const router = createRouter<PortalEnv>()
	const portal = requirePortal(deps)
	router.use('/api/portal/:slug', portal)
	router.use('/api/portal/:slug/logo', portal)
	router.openapi(routes.info, (c) => {
		c.header('cache-control', 'no-cache')
		return c.json(portalPublicInfo(deps, c.var.portal, c.req.header('host')), 200)
	})
	router.openapi(routes.logo, async (c) => {
		const logo = await openPortalLogo(deps, c.var.portal)
		return c.body(logo.body, 200, {
			'content-type': logo.contentType,
			'content-length': String(logo.byteSize),
			// Its address changes with the logo (?v=), so an hour's caching never shows an old one for long.
			'cache-control': 'public, max-age=3600',
			'x-content-type-options': 'nosniff',
		}) as never
	})
	router.openapi(routes.domain, async (c) => {
		if (!(await findPortalByHost(deps.db, c.req.valid('query').domain))) {
			throw new AppError('NOT_FOUND', { detail: 'No portal uses this domain.' })
		}
		return c.json({ success: true as const }, 200)
	})
	return router
}
