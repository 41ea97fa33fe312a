// The invoices database under /dashboard/{tool}: which database holds the invoices and how it is
// mapped (GET for everyone, PUT and DELETE for owners and admins), its rows with the documents
// kept in them, a draft from a row, and `sync_invoices`. Another organization's rows and
// documents read as 404.

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import { invoiceSchema } from '@blocksmith/contracts/invoice-documents.ts'
import {
	draftFromRowSchema,
	invoiceDatabaseStateSchema,
	invoiceRowPageSchema,
	invoiceRowsQuerySchema,
	invoiceSyncSchema,
	saveInvoiceDatabaseSchema,
} from '@blocksmith/contracts/invoice-workspace.ts'
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
import type { InvoicesCtx, InvoicesDeps } from './invoices.deps.ts'
import {
	draftFromRow,
	getInvoiceDatabase,
	listInvoiceRows,
	saveInvoiceDatabase,
	unlinkInvoiceDatabase,
} from './invoices.workspace.ts'
import { lastInvoiceSync, syncInvoices } from './invoices.workspace-sync.ts'

const { 400: bad, 404: notFound } = commonProblems
const forbidden = problemResponse('Only owners and admins choose the invoices database')
const conflict = problemResponse('An invoice is already kept in this row (its id is in the detail)')

function route<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}`, 'Invoices', spec)
}

function routesFor(tool: WorkspaceTool) {
	return {
		database: route(tool, {
			method: 'get',
			path: '/invoices/database',
			summary:
				"The mapped invoices database and its mapping's review, and this tool's databases with a suggested mapping",
			responses: { 200: jsonResponse(invoiceDatabaseStateSchema, 'The invoices database') },
		}),
		save: route(tool, {
			method: 'put',
			path: '/invoices/database',
			summary:
				'Map a database as the invoices database (owners and admins); a bad mapping is a 400 naming mapping.<field>',
			request: { body: jsonBody(saveInvoiceDatabaseSchema) },
			responses: { 200: jsonResponse(invoiceDatabaseStateSchema, 'Saved'), 400: bad, 403: forbidden },
		}),
		unlink: route(tool, {
			method: 'delete',
			path: '/invoices/database',
			summary: 'Unmap the invoices database (owners and admins): nothing more is written to it',
			responses: { 200: jsonResponse(okSchema, 'Unmapped'), 403: forbidden },
		}),
		rows: route(tool, {
			method: 'get',
			path: '/invoices',
			summary: 'Rows of the invoices database (from the mirror), newest first, with the invoice kept in each',
			request: { query: invoiceRowsQuerySchema },
			responses: { 200: jsonResponse(invoiceRowPageSchema, 'Rows'), 400: bad, 404: notFound },
		}),
		draft: route(tool, {
			method: 'post',
			path: '/invoices/{rowId}/draft',
			summary: 'A draft invoice from a row (client, lines or amount, dates), kept in that row',
			request: { params: z.object({ rowId: idSchema }), body: jsonBody(draftFromRowSchema) },
			responses: { 201: jsonResponse(invoiceSchema, 'The draft'), 400: bad, 404: notFound, 409: conflict },
		}),
		sync: route(tool, {
			method: 'post',
			path: '/sync_invoices',
			summary: 'Compare the rows changed in the workspace with our invoices and write ours back where they differ',
			responses: { 200: jsonResponse(invoiceSyncSchema, 'What the sync did'), 404: notFound },
		}),
		lastSync: route(tool, {
			method: 'get',
			path: '/sync_invoices',
			summary: 'What the last sync did (null before the first)',
			responses: { 200: jsonResponse(invoiceSyncSchema.nullable(), 'The last sync'), 404: notFound },
		}),
	}
}

export function createInvoiceWorkspaceRoutes(deps: { auth: Auth; invoices: InvoicesDeps }) {
	const router = createRouter<MemberEnv>()
	// Other routers may have checked the same path already (the workspace routes under /dashboard/{tool}).
	const guard = requireMemberOnce(deps.auth, deps.invoices.db)
	const ctx = (c: Context<MemberEnv>): InvoicesCtx => ({
		...deps.invoices,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})
	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		router.use(`/dashboard/${tool}/invoices`, guard)
		router.use(`/dashboard/${tool}/invoices/*`, guard)
		router.use(`/dashboard/${tool}/sync_invoices`, guard)
		router.openapi(routes.database, async (c) => c.json(await getInvoiceDatabase(ctx(c), tool), 200))
		router.openapi(routes.save, async (c) => c.json(await saveInvoiceDatabase(ctx(c), tool, c.req.valid('json')), 200))
		router.openapi(routes.unlink, async (c) => {
			await unlinkInvoiceDatabase(ctx(c))
			return c.json({ success: true as const }, 200)
		})
		router.openapi(routes.rows, async (c) => c.json(await listInvoiceRows(ctx(c), tool, c.req.valid('query')), 200))
		router.openapi(routes.draft, async (c) =>
			c.json(await draftFromRow(ctx(c), tool, c.req.valid('param').rowId, c.req.valid('json')), 201),
		)
		router.openapi(routes.sync, async (c) => c.json(await syncInvoices(ctx(c), tool), 200))
		router.openapi(routes.lastSync, async (c) => c.json(await lastInvoiceSync(ctx(c), tool), 200))
	}
	return router
}
