// The organization export: /dashboard/exports (owners and admins start one and follow its
// progress) and /api/exports/{id}/download (the signed link from the e-mail; no session).

import { idSchema } from '@blocksmith/contracts/common.ts'
import { organizationExportListSchema, organizationExportSchema } from '@blocksmith/contracts/data.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMemberOnce } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import { bearerRoute, commonProblems, createRouter, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import type { ExportsCtx, ExportsDeps } from './exports.deps.ts'
import { exportLimits, getExport, listExports, openDownload, startExport } from './exports.service.ts'

const idParams = z.object({ id: idSchema })
/** Any text: a malformed token is just another link that does not work (404). */
const tokenQuery = z.object({ token: z.string().min(1).max(200) })
const { 400: bad, 404: notFound, 429: rateLimited } = commonProblems
const forbidden = problemResponse('Only owners and admins export (FORBIDDEN)')
const tag = 'Your data'

const routes = {
	list: bearerRoute('/dashboard/exports', tag, {
		method: 'get',
		path: '',
		summary: `The organization's ${exportLimits.listed} newest exports, newest first (owners and admins)`,
		responses: { 200: jsonResponse(organizationExportListSchema, 'Exports'), 403: forbidden },
	}),
	start: bearerRoute('/dashboard/exports', tag, {
		method: 'post',
		path: '',
		summary: `Start an export of everything the organization has, built by a job into one ZIP; an e-mail with its link follows (owners and admins; one at a time, ${exportLimits.perDay} a day)`,
		responses: {
			202: jsonResponse(organizationExportSchema, 'Queued'),
			403: forbidden,
			409: problemResponse('An export is being built already (CONFLICT)'),
			429: rateLimited,
		},
	}),
	get: bearerRoute('/dashboard/exports', tag, {
		method: 'get',
		path: '/{id}',
		summary: 'One export, with its progress and, once ready, its download link',
		request: { params: idParams },
		responses: {
			200: jsonResponse(organizationExportSchema, 'The export'),
			400: bad,
			403: forbidden,
			404: notFound,
		},
	}),
	download: createRoute({
		method: 'get',
		path: '/api/exports/{id}/download',
		tags: [tag],
		summary: 'The archive, from the signed link of the e-mail (no session)',
		request: { params: idParams, query: tokenQuery },
		responses: {
			200: { content: { 'application/zip': { schema: z.string() } }, description: 'The ZIP archive' },
			400: bad,
			404: problemResponse('Unknown export, or a wrong token'),
			410: problemResponse('The link has expired (EXPORT_EXPIRED)'),
		},
	}),
}

export function createExportRoutes(deps: { auth: Auth; exports: ExportsDeps }) {
	const router = createRouter<MemberEnv>()
	const guard = requireMemberOnce(deps.auth, deps.exports.db)
	router.use('/dashboard/exports', guard)
	router.use('/dashboard/exports/*', guard)
	const ctx = (c: Context<MemberEnv>): ExportsCtx => ({
		...deps.exports,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})

	router.openapi(routes.list, async (c) => c.json({ exports: await listExports(ctx(c)) }, 200))
	router.openapi(routes.start, async (c) => c.json(await startExport(ctx(c)), 202))
	router.openapi(routes.get, async (c) => c.json(await getExport(ctx(c), c.req.valid('param').id), 200))
	router.openapi(routes.download, async (c) => {
		const download = await openDownload(deps.exports, c.req.valid('param').id, c.req.valid('query').token)
		return c.body(download.body as never, 200, {
			'content-type': 'application/zip',
			'content-length': String(download.byteSize),
			'content-disposition': `attachment; filename="${download.filename}"`,
			// A link to everything an organization has: kept by no cache, shared or the browser's.
			'cache-control': 'private, no-store',
		}) as never
	})
	return router
}
