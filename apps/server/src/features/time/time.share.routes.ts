// What leaves the time module as files and links: a view's exports (CSV, XLSX, PDF), its
// read-only shared links and the public report they open, and the view's unbilled time for
// "Invoice this". Members' paths are under /dashboard/{tool}_time/views/{id}; the public ones
// under /api/time/reports/{token}.

import { idSchema } from '@blocksmith/contracts/common.ts'
import {
	createTimeShareSchema,
	sharedTimeReportSchema,
	timeExportQuerySchema,
	timeShareSchema,
	unbilledQuerySchema,
	unbilledTimeSchema,
} from '@blocksmith/contracts/time-reports.ts'
import { type WorkspaceTool, workspaceToolSchema } from '@blocksmith/contracts/workspaces.ts'
import { createRoute, z } from '@hono/zod-openapi'
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
import type { TimeCtx, TimeDeps } from './time.deps.ts'
import { type ExportFile, exportLimits, exportView } from './time.export.ts'
import { unbilledTime } from './time.public.ts'
import {
	createShare,
	listShares,
	revokeShare,
	sharedReport,
	sharedReportExport,
	type TimeShareDeps,
} from './time.shares.ts'

const idParams = z.object({ id: idSchema })
const shareParams = z.object({ id: idSchema, shareId: idSchema })
/** Any text: a malformed token is just another link that does not work (404). */
const tokenParams = z.object({ token: z.string().min(1).max(200) })
const publicExportQuerySchema = z.object({ format: z.enum(['csv', 'pdf']) })
const { 400: bad, 404: notFound, 429: rateLimited } = commonProblems
const file = (types: string[], description: string) => ({
	content: Object.fromEntries(types.map((type) => [type, { schema: z.string() }])),
	description,
})
const fileTypes = ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/pdf']

function viewRoute<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}_time/views/{id}`, 'Time tracking', spec)
}

function routesFor(tool: WorkspaceTool) {
	return {
		export: viewRoute(tool, {
			method: 'get',
			path: '/export',
			summary: `The view's report as a file: entries (one line per entry and day; at most ${exportLimits.lines.toLocaleString('en')} lines, ${exportLimits.pdfLines.toLocaleString('en')} in a PDF) or a summary by its grouping`,
			request: { params: idParams, query: timeExportQuerySchema },
			responses: {
				200: file(fileTypes, 'The file, named after the view and its range'),
				400: bad,
				404: notFound,
				413: problemResponse('More entry lines than the format lists: export the summary or narrow the range'),
			},
		}),
		createShare: viewRoute(tool, {
			method: 'post',
			path: '/shares',
			summary: 'A read-only public link to the view’s report; its url (with the token) is in this answer only',
			request: { params: idParams, body: jsonBody(createTimeShareSchema) },
			responses: { 201: jsonResponse(timeShareSchema, 'Created'), 400: bad, 404: notFound },
		}),
		shares: viewRoute(tool, {
			method: 'get',
			path: '/shares',
			summary: 'The view’s links, newest first, with when each expires, was revoked and last opened',
			request: { params: idParams },
			responses: { 200: jsonResponse(z.array(timeShareSchema), 'Links'), 404: notFound },
		}),
		revokeShare: viewRoute(tool, {
			method: 'delete',
			path: '/shares/{shareId}',
			summary: 'Revoke a link: it stops working at once, for good',
			request: { params: shareParams },
			responses: { 200: jsonResponse(timeShareSchema, 'Revoked'), 404: notFound },
		}),
		unbilled: viewRoute(tool, {
			method: 'get',
			path: '/unbilled',
			summary:
				'The view’s billable time not billed yet, one line per project or task (and rate), with the rows each bills',
			request: { params: idParams, query: unbilledQuerySchema },
			responses: {
				200: jsonResponse(unbilledTimeSchema, 'Unbilled time'),
				400: bad,
				404: notFound,
				413: problemResponse('Too many entries: narrow the range'),
			},
		}),
	}
}

const gone = problemResponse('Unknown, expired or revoked link')
const unavailable = problemResponse('Unavailable right now (UNAVAILABLE)')

const publicRoutes = {
	report: createRoute({
		method: 'get',
		path: '/api/time/reports/{token}',
		tags: ['Time tracking (public)'],
		summary: 'A shared report: the view’s name, analytics and default series (labels and figures only)',
		request: { params: tokenParams },
		responses: {
			200: jsonResponse(sharedTimeReportSchema, 'The report'),
			404: gone,
			409: unavailable,
			429: rateLimited,
		},
	}),
	export: createRoute({
		method: 'get',
		path: '/api/time/reports/{token}/export',
		tags: ['Time tracking (public)'],
		summary: 'A shared report’s summary as CSV or PDF',
		request: { params: tokenParams, query: publicExportQuerySchema },
		responses: {
			200: file(['text/csv', 'application/pdf'], 'The file'),
			400: bad,
			404: gone,
			409: unavailable,
			429: rateLimited,
		},
	}),
}

function sendFile(c: Context, download: ExportFile) {
	return c.body(download.body as never, 200, {
		'content-type': download.contentType,
		'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(download.filename)}`,
	}) as never
}

type ShareOptions = Pick<TimeShareDeps, 'publicUrl' | 'rateLimits' | 'subscriptions'>

export function createTimeShareRoutes(deps: { auth: Auth; time: TimeDeps } & ShareOptions) {
	const router = createRouter<MemberEnv>()
	// Read per request: tests move the module's clock (`time.now`).
	const shareDeps = (): TimeShareDeps => ({
		...deps.time,
		publicUrl: deps.publicUrl,
		rateLimits: deps.rateLimits,
		subscriptions: deps.subscriptions,
	})
	// The time routes mounted before these check the same paths: once is enough.
	const guard = requireMemberOnce(deps.auth, deps.time.db)
	const ctx = (c: Context<MemberEnv>): TimeCtx & TimeShareDeps => ({
		...shareDeps(),
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})
	const id = (c: Context) => c.req.param('id') as string

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		for (const path of ['/export', '/shares', '/shares/*', '/unbilled']) {
			router.use(`/dashboard/${tool}_time/views/:id${path}`, guard)
		}
		router.openapi(routes.export, async (c) => sendFile(c, await exportView(ctx(c), tool, id(c), c.req.valid('query'))))
		router.openapi(routes.createShare, async (c) =>
			c.json(await createShare(ctx(c), tool, id(c), c.req.valid('json')), 201),
		)
		router.openapi(routes.shares, async (c) => c.json(await listShares(ctx(c), tool, id(c)), 200))
		router.openapi(routes.revokeShare, async (c) =>
			c.json(await revokeShare(ctx(c), tool, id(c), c.req.valid('param').shareId), 200),
		)
		router.openapi(routes.unbilled, async (c) => {
			const caller = ctx(c)
			return c.json(await unbilledTime(caller, caller.orgId, tool, id(c), c.req.valid('query').groupBy), 200)
		})
	}

	// Anonymous readers: no session.
	router.openapi(publicRoutes.report, async (c) =>
		c.json(await sharedReport(shareDeps(), c.req.valid('param').token, c.var.clientIp), 200),
	)
	router.openapi(publicRoutes.export, async (c) =>
		sendFile(
			c,
			await sharedReportExport(shareDeps(), c.req.valid('param').token, c.var.clientIp, c.req.valid('query').format),
		),
	)
	return router
}
