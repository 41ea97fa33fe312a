// Charts: the builder's API under /dashboard/{tool}_charts (CRUD, duplicate, live preview,
// the saved chart drawn, downloads) and the public side under /api/{tool}_charts (a published
// chart's figures and drawing, its image and CSV). `{tool}` is the chart's database's workspace
// tool; each path exists once per tool, so a chart is only reached through its own tool.

import {
	chartPreviewSchema,
	chartRenderSchema,
	chartSchema,
	createChartSchema,
	createDashboardSchema,
	dashboardSchema,
	maxDashboardTiles,
	publicChartQuerySchema,
	publicChartSchema,
	publicDashboardSchema,
	updateChartSchema,
	updateDashboardSchema,
} from '@blocksmith/contracts/charts.ts'
import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import { type WorkspaceTool, workspaceToolSchema } from '@blocksmith/contracts/workspaces.ts'
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMember, requireSession } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import { commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import {
	createDashboard,
	deleteDashboard,
	getDashboard,
	listDashboards,
	publicDashboard,
	publicDashboardTile,
	updateDashboard,
} from './charts.dashboards.ts'
import type { ChartsCtx, ChartsDeps } from './charts.deps.ts'
import {
	chartDownload,
	downloadKinds,
	previewChart,
	publicChart,
	publicDownload,
	renderSavedChart,
} from './charts.public.ts'
import { createChart, deleteChart, duplicateChart, getChart, listCharts, updateChart } from './charts.service.ts'

const idParams = z.object({ id: idSchema })
const drawQuery = z.object({
	width: z.coerce.number().int().min(120).max(4000).default(800),
	/** A dashboard tile's room for the drawing; the chart's own height when absent. */
	height: z.coerce.number().int().min(120).max(2000).optional(),
	theme: z.enum(['light', 'dark']).default('light'),
})
const file = (type: string, description: string) => ({ content: { [type]: { schema: z.string() } }, description })
const contentTypes = { png: 'image/png', svg: 'image/svg+xml', csv: 'text/csv' } as const

type RouteSpec = Omit<RouteConfig, 'path' | 'tags' | 'security'> & { path: string }

const planRefused = (what: string) =>
	problemResponse(`The plan has no room for another ${what}, or the subscription is not active`)
/** A public chart or dashboard of an organization whose subscription is not active (nothing of billing is said). */
const unavailable = problemResponse('Unavailable right now (UNAVAILABLE)')

/** A members' route: bearer auth, the Charts tag, and the 401 every one can answer. */
function memberRoute<R extends RouteSpec>(spec: R) {
	return createRoute({
		...spec,
		tags: ['Charts'],
		security: [{ bearer: [] }],
		responses: { 401: commonProblems[401], ...spec.responses },
	})
}

/** A members' route of one tool's charts. */
function dashboardRoute<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return memberRoute({ ...spec, path: `/dashboard/${tool}_charts${spec.path}` })
}

/** A public route of one tool: no auth; a chart that is not published reads as 404. */
function publicRoute<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return createRoute({
		...spec,
		path: `/api/${tool}_charts${spec.path}`,
		tags: ['Charts (public)'],
		responses: { 404: problemResponse('Not published'), 409: unavailable, ...spec.responses },
	})
}

function routesFor(tool: WorkspaceTool) {
	const { 400: bad, 404: notFound } = commonProblems
	return {
		list: dashboardRoute(tool, {
			method: 'get',
			path: '/charts',
			summary: `Charts of ${tool} databases, most recently changed first`,
			responses: { 200: jsonResponse(z.array(chartSchema), 'Charts') },
		}),
		create: dashboardRoute(tool, {
			method: 'post',
			path: '/charts',
			summary: 'Create a chart on a database (a count of rows by its first select or date unless settings are given)',
			request: { body: jsonBody(createChartSchema) },
			responses: { 201: jsonResponse(chartSchema, 'Created'), 400: bad, 402: planRefused('chart') },
		}),
		get: dashboardRoute(tool, {
			method: 'get',
			path: '/charts/{id}',
			summary: 'One chart',
			request: { params: idParams },
			responses: { 200: jsonResponse(chartSchema, 'The chart'), 404: notFound },
		}),
		update: dashboardRoute(tool, {
			method: 'patch',
			path: '/charts/{id}',
			summary: 'Rename, change settings, embed options, publish or unpublish',
			request: { params: idParams, body: jsonBody(updateChartSchema) },
			responses: { 200: jsonResponse(chartSchema, 'Saved'), 400: bad, 404: notFound, 409: problemResponse('Conflict') },
		}),
		delete: dashboardRoute(tool, {
			method: 'delete',
			path: '/charts/{id}',
			summary: 'Delete a chart: its public page and embeds answer "not available" (owners and admins)',
			request: { params: idParams },
			responses: {
				200: jsonResponse(okSchema, 'Deleted'),
				403: problemResponse('Owners and admins only'),
				404: notFound,
			},
		}),
		duplicate: dashboardRoute(tool, {
			method: 'post',
			path: '/charts/{id}/duplicate',
			summary: 'Copy a chart (the copy is not published)',
			request: { params: idParams },
			responses: { 201: jsonResponse(chartSchema, 'The copy'), 402: planRefused('chart'), 404: notFound },
		}),
		render: dashboardRoute(tool, {
			method: 'get',
			path: '/charts/{id}/render',
			summary: 'The saved chart: its figures and its drawing',
			request: { params: idParams, query: drawQuery },
			responses: { 200: jsonResponse(chartRenderSchema, 'Figures and SVG'), 400: bad, 404: notFound },
		}),
		preview: dashboardRoute(tool, {
			method: 'post',
			path: '/preview',
			summary: 'Figures and drawing of settings not saved yet (the builder’s live preview)',
			request: { body: jsonBody(chartPreviewSchema) },
			responses: { 200: jsonResponse(chartRenderSchema, 'Figures and SVG'), 400: bad },
		}),
		publicChart: publicRoute(tool, {
			method: 'get',
			path: '/charts/{id}',
			summary: 'A published chart: its drawing settings, computed figures and SVG — never its rows',
			request: { params: idParams, query: publicChartQuerySchema },
			responses: { 200: jsonResponse(publicChartSchema, 'The chart'), 400: bad },
		}),
		publicCsv: publicRoute(tool, {
			method: 'get',
			path: '/charts/{id}/figures.csv',
			summary: 'A published chart’s figures as CSV, when its owner allows downloads',
			request: { params: idParams },
			responses: { 200: file('text/csv', 'CSV') },
		}),
	}
}

/** Dashboards hold charts of either tool: their paths name none. */
const tileParams = idParams.extend({
	index: z.coerce
		.number()
		.int()
		.min(0)
		.max(maxDashboardTiles - 1),
})

const dashboardRoutes = (() => {
	const { 400: bad, 404: notFound } = commonProblems
	return {
		list: memberRoute({
			method: 'get',
			path: '/dashboard/charts/dashboards',
			summary: 'Dashboards of the organization, most recently changed first',
			responses: { 200: jsonResponse(z.array(dashboardSchema), 'Dashboards') },
		}),
		create: memberRoute({
			method: 'post',
			path: '/dashboard/charts/dashboards',
			summary: 'Create a dashboard, optionally with charts placed two to a row',
			request: { body: jsonBody(createDashboardSchema) },
			responses: { 201: jsonResponse(dashboardSchema, 'Created'), 400: bad, 402: planRefused('dashboard') },
		}),
		get: memberRoute({
			method: 'get',
			path: '/dashboard/charts/dashboards/{id}',
			summary: 'One dashboard',
			request: { params: idParams },
			responses: { 200: jsonResponse(dashboardSchema, 'The dashboard'), 404: notFound },
		}),
		update: memberRoute({
			method: 'patch',
			path: '/dashboard/charts/dashboards/{id}',
			summary: 'Rename, place and size charts, embed options, publish or unpublish',
			request: { params: idParams, body: jsonBody(updateDashboardSchema) },
			responses: { 200: jsonResponse(dashboardSchema, 'Saved'), 400: bad, 404: notFound },
		}),
		delete: memberRoute({
			method: 'delete',
			path: '/dashboard/charts/dashboards/{id}',
			summary: 'Delete a dashboard (its charts stay; owners and admins)',
			request: { params: idParams },
			responses: {
				200: jsonResponse(okSchema, 'Deleted'),
				403: problemResponse('Owners and admins only'),
				404: notFound,
			},
		}),
		publicDashboard: createRoute({
			method: 'get',
			path: '/api/charts/dashboards/{id}',
			tags: ['Charts (public)'],
			summary: 'A published dashboard: each chart’s figures and drawing at its tile’s size — never rows',
			request: { params: idParams, query: publicChartQuerySchema.pick({ theme: true }) },
			responses: {
				200: jsonResponse(publicDashboardSchema, 'The dashboard'),
				400: bad,
				404: notFound,
				409: unavailable,
			},
		}),
		publicDashboardTile: createRoute({
			method: 'get',
			path: '/api/charts/dashboards/{id}/tiles/{index}',
			tags: ['Charts (public)'],
			summary: 'One tile of a published dashboard drawn at a width (the page redraws tiles at a phone’s width)',
			request: { params: tileParams, query: publicChartQuerySchema },
			responses: {
				200: jsonResponse(publicChartSchema, 'The tile’s chart'),
				400: bad,
				404: notFound,
				409: unavailable,
			},
		}),
	}
})()

/** One route per file kind: `export.png`, `image.svg`, … are literal paths. */
function downloadRoutesFor(tool: WorkspaceTool) {
	const { 400: bad, 404: notFound } = commonProblems
	const dashboard = downloadKinds.map((format) => ({
		format,
		route: dashboardRoute(tool, {
			method: 'get',
			path: `/charts/{id}/export.${format}`,
			summary: format === 'csv' ? 'The saved chart’s figures as CSV' : `The saved chart as ${format.toUpperCase()}`,
			request: { params: idParams, query: drawQuery },
			responses: { 200: file(contentTypes[format], 'The file'), 400: bad, 404: notFound },
		}),
	}))
	const images = (['png', 'svg'] as const).map((format) => ({
		format,
		route: publicRoute(tool, {
			method: 'get',
			path: `/charts/{id}/image.${format}`,
			summary:
				format === 'png'
					? 'A published chart as PNG (also its link preview image)'
					: 'A published chart as SVG, when its owner allows downloads',
			request: { params: idParams, query: publicChartQuerySchema },
			responses: { 200: file(contentTypes[format], 'The image'), 400: bad },
		}),
	}))
	return { dashboard, images }
}

function sendFile(c: Context, download: { body: string | Uint8Array; contentType: string; filename: string | null }) {
	const headers: Record<string, string> = { 'content-type': download.contentType }
	if (download.filename) {
		headers['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(download.filename)}`
	}
	return c.body(download.body as never, 200, headers) as never
}

export function createChartRoutes(deps: { auth: Auth; charts: ChartsDeps }) {
	const router = createRouter<MemberEnv>()
	const session = requireSession(deps.auth)
	const member = requireMember(deps.charts.db)
	const ctx = (c: Context<MemberEnv>): ChartsCtx => ({
		...deps.charts,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})
	const id = (c: Context) => c.req.param('id') as string

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		router.use(`/dashboard/${tool}_charts/*`, session, member)

		router.openapi(routes.list, async (c) => c.json(await listCharts(ctx(c), tool), 200))
		router.openapi(routes.create, async (c) => c.json(await createChart(ctx(c), tool, c.req.valid('json')), 201))
		router.openapi(routes.get, async (c) => c.json(await getChart(ctx(c), tool, id(c)), 200))
		router.openapi(routes.update, async (c) => c.json(await updateChart(ctx(c), tool, id(c), c.req.valid('json')), 200))
		router.openapi(routes.delete, async (c) => {
			await deleteChart(ctx(c), tool, id(c))
			return c.json({ success: true as const }, 200)
		})
		router.openapi(routes.duplicate, async (c) => c.json(await duplicateChart(ctx(c), tool, id(c)), 201))
		router.openapi(routes.render, async (c) =>
			c.json(await renderSavedChart(ctx(c), tool, id(c), c.req.valid('query')), 200),
		)
		router.openapi(routes.preview, async (c) => c.json(await previewChart(ctx(c), tool, c.req.valid('json')), 200))
		const downloads = downloadRoutesFor(tool)
		for (const { format, route } of downloads.dashboard) {
			router.openapi(route, async (c) =>
				sendFile(c, await chartDownload(ctx(c), tool, id(c), format, c.req.valid('query'))),
			)
		}

		router.openapi(routes.publicChart, async (c) => {
			c.header('cache-control', 'no-cache')
			return c.json(await publicChart(deps.charts, tool, id(c), c.req.valid('query')), 200)
		})
		for (const { format, route } of downloads.images) {
			router.openapi(route, async (c) => {
				const download = await publicDownload(deps.charts, tool, id(c), format, c.req.valid('query'))
				// Set once the image is there: a refusal (unpublished, unavailable) is not kept by caches.
				c.header('cache-control', 'public, max-age=60')
				return sendFile(c, download)
			})
		}
		router.openapi(routes.publicCsv, async (c) => {
			c.header('cache-control', 'no-cache')
			return sendFile(c, await publicDownload(deps.charts, tool, id(c), 'csv', {}))
		})
	}

	router.use('/dashboard/charts/*', session, member)
	router.openapi(dashboardRoutes.list, async (c) => c.json(await listDashboards(ctx(c)), 200))
	router.openapi(dashboardRoutes.create, async (c) => c.json(await createDashboard(ctx(c), c.req.valid('json')), 201))
	router.openapi(dashboardRoutes.get, async (c) => c.json(await getDashboard(ctx(c), id(c)), 200))
	router.openapi(dashboardRoutes.update, async (c) =>
		c.json(await updateDashboard(ctx(c), id(c), c.req.valid('json')), 200),
	)
	router.openapi(dashboardRoutes.delete, async (c) => {
		await deleteDashboard(ctx(c), id(c))
		return c.json({ success: true as const }, 200)
	})
	router.openapi(dashboardRoutes.publicDashboard, async (c) => {
		c.header('cache-control', 'no-cache')
		return c.json(await publicDashboard(deps.charts, id(c), c.req.valid('query')), 200)
	})
	router.openapi(dashboardRoutes.publicDashboardTile, async (c) => {
		c.header('cache-control', 'no-cache')
		const { index } = c.req.valid('param')
		return c.json(await publicDashboardTile(deps.charts, id(c), index, c.req.valid('query')), 200)
	})
	return router
}
