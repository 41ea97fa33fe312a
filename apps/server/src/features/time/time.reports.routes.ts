// Time reports under /dashboard/{tool}_time: a database's rates, saved views (CRUD), a view's
// analytics and its daily, weekly and monthly series. `{tool}` is the database's workspace tool;
// a view is only reached through its own tool, and another organization's reads as 404.

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import {
	createTimeViewSchema,
	timeAnalyticsSchema,
	timeRatesSchema,
	timeSeriesQuerySchema,
	timeSeriesSchema,
	timeViewSchema,
	updateTimeViewSchema,
} from '@blocksmith/contracts/time-reports.ts'
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
import type { TimeCtx, TimeDeps } from './time.deps.ts'
import { getRates, saveRates } from './time.rates.ts'
import { viewAnalytics, viewSeries } from './time.reports.ts'
import { createView, deleteView, findView, listViews, toTimeView, updateView } from './time.views.ts'

const idParams = z.object({ id: idSchema })
const { 400: bad, 404: notFound } = commonProblems
const listQuery = z.object({ databaseId: idSchema.optional() })

function reportRoute<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}_time`, 'Time reports', spec)
}

const intervals = { daily: 'day', weekly: 'week', monthly: 'month' } as const

function routesFor(tool: WorkspaceTool) {
	return {
		rates: reportRoute(tool, {
			method: 'get',
			path: '/databases/{id}/rates',
			summary: "A time database's billable rates and currency",
			request: { params: idParams },
			responses: { 200: jsonResponse(timeRatesSchema, 'Rates'), 400: bad, 404: notFound },
		}),
		saveRates: reportRoute(tool, {
			method: 'put',
			path: '/databases/{id}/rates',
			summary: 'Set the rates: default, per member, per project (ours, or a number property of the projects database)',
			request: { params: idParams, body: jsonBody(timeRatesSchema) },
			responses: {
				200: jsonResponse(timeRatesSchema, 'Saved'),
				400: bad,
				403: problemResponse('Only owners and admins change rates'),
				404: notFound,
			},
		}),
		views: reportRoute(tool, {
			method: 'get',
			path: '/views',
			summary: 'Saved views of time entries (optionally of one database)',
			request: { query: listQuery },
			responses: { 200: jsonResponse(z.array(timeViewSchema), 'Views'), 400: bad },
		}),
		createView: reportRoute(tool, {
			method: 'post',
			path: '/views',
			summary: "Save a view: a mapped database's entries over a range of days, filtered, rounded and grouped",
			request: { body: jsonBody(createTimeViewSchema) },
			responses: { 201: jsonResponse(timeViewSchema, 'Saved'), 400: bad },
		}),
		view: reportRoute(tool, {
			method: 'get',
			path: '/views/{id}',
			summary: 'One view',
			request: { params: idParams },
			responses: { 200: jsonResponse(timeViewSchema, 'The view'), 404: notFound },
		}),
		updateView: reportRoute(tool, {
			method: 'patch',
			path: '/views/{id}',
			summary: 'Rename a view or replace its settings',
			request: { params: idParams, body: jsonBody(updateTimeViewSchema) },
			responses: { 200: jsonResponse(timeViewSchema, 'Changed'), 400: bad, 404: notFound },
		}),
		deleteView: reportRoute(tool, {
			method: 'delete',
			path: '/views/{id}',
			summary: 'Delete a view (the entries stay)',
			request: { params: idParams },
			responses: { 200: jsonResponse(okSchema, 'Deleted'), 404: notFound },
		}),
		analytics: reportRoute(tool, {
			method: 'get',
			path: '/views/{id}/analytics',
			summary: "A view's totals and figures by project, person, client, task and tag; running entries count up to now",
			request: { params: idParams },
			responses: { 200: jsonResponse(timeAnalyticsSchema, 'Analytics'), 400: bad, 404: notFound },
		}),
		daily: seriesRoute(tool, 'daily'),
		weekly: seriesRoute(tool, 'weekly'),
		monthly: seriesRoute(tool, 'monthly'),
	}
}

function seriesRoute(tool: WorkspaceTool, name: keyof typeof intervals) {
	const interval = intervals[name]
	return reportRoute(tool, {
		method: 'get',
		path: `/views/{id}/${name}_time_series`,
		summary: `A view's figures per ${interval} (every ${interval} of its range, empty ones too), optionally broken down`,
		request: { params: idParams, query: timeSeriesQuerySchema },
		responses: { 200: jsonResponse(timeSeriesSchema, 'Series'), 400: bad, 404: notFound },
	})
}

export function createTimeReportRoutes(deps: { auth: Auth; time: TimeDeps }) {
	const router = createRouter<MemberEnv>()
	// The time routes, mounted before these, check the same paths: once is enough.
	const guard = requireMemberOnce(deps.auth, deps.time.db)
	const ctx = (c: Context<MemberEnv>): TimeCtx => ({
		...deps.time,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})
	const id = (c: Context) => c.req.param('id') as string

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		router.use(`/dashboard/${tool}_time/*`, guard)
		router.openapi(routes.rates, async (c) => c.json(await getRates(ctx(c), tool, id(c)), 200))
		router.openapi(routes.saveRates, async (c) =>
			c.json(await saveRates(ctx(c), tool, id(c), c.req.valid('json')), 200),
		)
		router.openapi(routes.views, async (c) =>
			c.json(await listViews(ctx(c), tool, c.req.valid('query').databaseId), 200),
		)
		router.openapi(routes.createView, async (c) => c.json(await createView(ctx(c), tool, c.req.valid('json')), 201))
		router.openapi(routes.view, async (c) => c.json(toTimeView(await findView(ctx(c), tool, id(c))), 200))
		router.openapi(routes.updateView, async (c) =>
			c.json(await updateView(ctx(c), tool, id(c), c.req.valid('json')), 200),
		)
		router.openapi(routes.deleteView, async (c) => {
			await deleteView(ctx(c), tool, id(c))
			return c.json({ success: true as const }, 200)
		})
		router.openapi(routes.analytics, async (c) => {
			const caller = ctx(c)
			const view = await findView(caller, tool, id(c))
			return c.json(await viewAnalytics(deps.time, caller.orgId, view, deps.time.now()), 200)
		})
		for (const name of Object.keys(intervals) as (keyof typeof intervals)[]) {
			router.openapi(routes[name], async (c) => {
				const caller = ctx(c)
				const view = await findView(caller, tool, id(c))
				const { breakdown } = c.req.valid('query')
				const series = await viewSeries(deps.time, caller.orgId, view, intervals[name], breakdown, deps.time.now())
				return c.json(series, 200)
			})
		}
	}
	return router
}
