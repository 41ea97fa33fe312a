// Recurring invoices under /dashboard/{tool}_invoice/recurring: the organization's series (with
// the source's client and total, the next date, the runs), one series, its changes (pause and
// resume, a new schedule), and run_now ("Send now"). Members may do all of it; another
// organization's series is a 404. Decision 037.

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import { invoiceSchema } from '@blocksmith/contracts/invoice-documents.ts'
import {
	createRecurrenceSchema,
	recurrenceSchema,
	updateRecurrenceSchema,
} from '@blocksmith/contracts/invoice-recurring.ts'
import { type WorkspaceTool, workspaceToolSchema } from '@blocksmith/contracts/workspaces.ts'
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMember, requireSession, type SessionEnv } from '#src/core/auth/auth.middleware.ts'
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
import type { InvoicesCtx, InvoicesDeps } from './invoices.deps.ts'
import {
	createRecurrence,
	deleteRecurrence,
	getRecurrence,
	listRecurrences,
	runNow,
	updateRecurrence,
} from './invoices.recurring.ts'

const idParams = z.object({ id: idSchema })
const { 400: bad, 404: notFound } = commonProblems

function recurringRoute<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}_invoice/recurring`, 'Invoices', spec)
}

function routesFor(tool: WorkspaceTool) {
	return {
		list: recurringRoute(tool, {
			method: 'get',
			path: '',
			summary: "Recurring invoices, the next first: the source's client and total, next date, runs, last failure",
			responses: { 200: jsonResponse(z.array(recurrenceSchema), 'Recurring invoices') },
		}),
		create: recurringRoute(tool, {
			method: 'post',
			path: '',
			summary: 'Repeat an invoice on a schedule (weekly, monthly, yearly), as drafts or finalized and sent',
			request: { body: jsonBody(createRecurrenceSchema) },
			responses: { 201: jsonResponse(recurrenceSchema, 'The series'), 400: bad },
		}),
		get: recurringRoute(tool, {
			method: 'get',
			path: '/{id}',
			summary: 'One recurring invoice',
			request: { params: idParams },
			responses: { 200: jsonResponse(recurrenceSchema, 'The series'), 404: notFound },
		}),
		update: recurringRoute(tool, {
			method: 'patch',
			path: '/{id}',
			summary: 'Pause or resume it, or give it a new schedule',
			request: { params: idParams, body: jsonBody(updateRecurrenceSchema) },
			responses: { 200: jsonResponse(recurrenceSchema, 'Changed'), 400: bad, 404: notFound },
		}),
		delete: recurringRoute(tool, {
			method: 'delete',
			path: '/{id}',
			summary: 'Stop and delete the series; the invoices it produced stay',
			request: { params: idParams },
			responses: { 200: jsonResponse(okSchema, 'Deleted'), 404: notFound },
		}),
		runNow: recurringRoute(tool, {
			method: 'post',
			path: '/{id}/run_now',
			summary: 'Produce the next invoice now, dated today ("Send now"); the series goes on after it',
			request: { params: idParams },
			responses: {
				200: jsonResponse(invoiceSchema, 'The invoice produced'),
				400: bad,
				404: notFound,
				409: problemResponse('The series is paused or has ended'),
			},
		}),
	}
}

export function createRecurringRoutes(deps: { auth: Auth; invoices: InvoicesDeps }) {
	const router = createRouter<MemberEnv>()
	const session = requireSession(deps.auth)
	const member = requireMember(deps.invoices.db)
	const ctx = (c: Context<MemberEnv>): InvoicesCtx => ({
		...deps.invoices,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})
	const id = (c: Context) => c.req.param('id') as string

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		for (const path of [`/dashboard/${tool}_invoice/recurring`, `/dashboard/${tool}_invoice/recurring/*`]) {
			router.use(path, async (c, next) => {
				await session(c as unknown as Context<SessionEnv>, async () => {
					await member(c, next)
				})
			})
		}
		router.openapi(routes.list, async (c) => c.json(await listRecurrences(ctx(c)), 200))
		router.openapi(routes.create, async (c) => c.json(await createRecurrence(ctx(c), c.req.valid('json')), 201))
		router.openapi(routes.get, async (c) => c.json(await getRecurrence(ctx(c), id(c)), 200))
		router.openapi(routes.update, async (c) => c.json(await updateRecurrence(ctx(c), id(c), c.req.valid('json')), 200))
		router.openapi(routes.delete, async (c) => {
			await deleteRecurrence(ctx(c), id(c))
			return c.json({ success: true as const }, 200)
		})
		router.openapi(routes.runNow, async (c) => c.json(await runNow(ctx(c), id(c)), 200))
	}
	return router
}
