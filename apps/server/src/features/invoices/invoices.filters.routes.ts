// Saved filters of the invoices list under /dashboard/{tool}/invoice_filter (the path the product
// names for them), and the list's CSV export under /dashboard/{tool}_invoice/invoices_export (not
// under /invoices, where it would read as an invoice's id). Members may do all of it; another
// organization's filter is a 404. Decision 037.

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import { listInvoicesQuerySchema } from '@blocksmith/contracts/invoice-documents.ts'
import {
	createInvoiceFilterSchema,
	invoiceFilterSchema,
	updateInvoiceFilterSchema,
} from '@blocksmith/contracts/invoice-filters.ts'
import { type WorkspaceTool, workspaceToolSchema } from '@blocksmith/contracts/workspaces.ts'
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMember, requireSession, type SessionEnv } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import { bearerRoute, commonProblems, createRouter, jsonBody, jsonResponse } from '#src/lib/openapi.ts'
import type { InvoicesCtx, InvoicesDeps } from './invoices.deps.ts'
import { exportFilter } from './invoices.documents.list.ts'
import { invoicesCsv } from './invoices.export-csv.ts'
import { createFilter, deleteFilter, listFilters, updateFilter } from './invoices.filters.ts'

const idParams = z.object({ id: idSchema })
const { 400: bad, 404: notFound } = commonProblems

function routesFor(tool: WorkspaceTool) {
	const base = `/dashboard/${tool}/invoice_filter`
	return {
		list: bearerRoute(base, 'Invoices', {
			method: 'get',
			path: '',
			summary: "The organization's saved filters of the invoices list",
			responses: { 200: jsonResponse(z.array(invoiceFilterSchema), 'Saved filters') },
		}),
		create: bearerRoute(base, 'Invoices', {
			method: 'post',
			path: '',
			summary: 'Save a filter of the invoices list (status, client, dates, amount, currency, kind, search)',
			request: { body: jsonBody(createInvoiceFilterSchema) },
			responses: { 201: jsonResponse(invoiceFilterSchema, 'Saved'), 400: bad },
		}),
		update: bearerRoute(base, 'Invoices', {
			method: 'patch',
			path: '/{id}',
			summary: 'Rename a saved filter or replace its fields',
			request: { params: idParams, body: jsonBody(updateInvoiceFilterSchema) },
			responses: { 200: jsonResponse(invoiceFilterSchema, 'Changed'), 400: bad, 404: notFound },
		}),
		delete: bearerRoute(base, 'Invoices', {
			method: 'delete',
			path: '/{id}',
			summary: 'Delete a saved filter',
			request: { params: idParams },
			responses: { 200: jsonResponse(okSchema, 'Deleted'), 404: notFound },
		}),
		export: bearerRoute(`/dashboard/${tool}_invoice/invoices_export`, 'Invoices', {
			method: 'get',
			path: '',
			summary: 'The invoices list as CSV (UTF-8 with a BOM), every page of the same query',
			request: { query: listInvoicesQuerySchema },
			responses: {
				200: { content: { 'text/csv': { schema: z.string() } }, description: 'The CSV' },
				400: bad,
			},
		}),
	}
}

export function createInvoiceFilterRoutes(deps: { auth: Auth; invoices: InvoicesDeps }) {
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
		const paths = [
			`/dashboard/${tool}/invoice_filter`,
			`/dashboard/${tool}/invoice_filter/*`,
			`/dashboard/${tool}_invoice/invoices_export`,
		]
		for (const path of paths) {
			router.use(path, async (c, next) => {
				await session(c as unknown as Context<SessionEnv>, async () => {
					await member(c, next)
				})
			})
		}
		router.openapi(routes.list, async (c) => c.json(await listFilters(ctx(c)), 200))
		router.openapi(routes.create, async (c) => c.json(await createFilter(ctx(c), c.req.valid('json')), 201))
		router.openapi(routes.update, async (c) => c.json(await updateFilter(ctx(c), id(c), c.req.valid('json')), 200))
		router.openapi(routes.delete, async (c) => {
			await deleteFilter(ctx(c), id(c))
			return c.json({ success: true as const }, 200)
		})
		router.openapi(routes.export, async (c) => {
			const context = ctx(c)
			// Resolved before the first byte: a bad saved filter is still a 400, not a broken download.
			const filter = await exportFilter(context, c.req.valid('query'))
			return c.body(invoicesCsv(context, filter), 200, {
				'content-type': 'text/csv; charset=utf-8',
				'content-disposition': `attachment; filename="invoices-${new Date().toISOString().slice(0, 10)}.csv"`,
				'cache-control': 'private, no-store',
			}) as never
		})
	}
	return router
}
