// Invoice documents under /dashboard/{tool}_invoice/invoices: drafts, finalization, credit
// notes, statuses, payments, the list with totals by status, and the PDF. Members of the
// organization may do all of it (the settings' roles guard the company's identity, not the
// invoices). Another organization's invoice is a 404.

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import {
	createInvoiceSchema,
	createPaymentSchema,
	creditNoteSchema,
	invoiceListSchema,
	invoiceSchema,
	linesFromRowsSchema,
	linesFromTimeSchema,
	listInvoicesQuerySchema,
	paymentSchema,
	updateInvoiceSchema,
} from '@blocksmith/contracts/invoice-documents.ts'
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
import { createCreditNote } from './invoices.documents.credit-notes.ts'
import { invoiceEInvoice } from './invoices.documents.einvoice.ts'
import {
	addLinesFromRows,
	addLinesFromTime,
	finalizeWithTime,
	type TimeDeps,
	voidWithTime,
} from './invoices.documents.lines.ts'
import { listInvoices } from './invoices.documents.list.ts'
import { invoicePdf } from './invoices.documents.pdf.ts'
import { createInvoice, deleteInvoice, getInvoice, markSent, updateInvoice } from './invoices.documents.ts'
import { createPayment, deletePayment, listPayments } from './invoices.payments.ts'

const idParams = z.object({ id: idSchema })
const paymentParams = z.object({ id: idSchema, paymentId: idSchema })
const { 400: bad, 404: notFound } = commonProblems
const conflict = problemResponse('The invoice is in a state that does not allow it (finalized, void, a draft)')

function invoiceRoute<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}_invoice/invoices`, 'Invoices', spec)
}

function action(tool: WorkspaceTool, path: string, summary: string) {
	return invoiceRoute(tool, {
		method: 'post',
		path: `/{id}/${path}`,
		summary,
		request: { params: idParams },
		responses: { 200: jsonResponse(invoiceSchema, 'The invoice'), 400: bad, 404: notFound, 409: conflict },
	})
}

function routesFor(tool: WorkspaceTool) {
	return {
		list: invoiceRoute(tool, {
			method: 'get',
			path: '',
			summary: 'Invoices and credit notes, newest first, with totals by status and currency',
			request: { query: listInvoicesQuerySchema },
			responses: { 200: jsonResponse(invoiceListSchema, 'Invoices'), 400: bad },
		}),
		create: invoiceRoute(tool, {
			method: 'post',
			path: '',
			summary: 'Start a draft (no number yet); the totals are computed by the server',
			request: { body: jsonBody(createInvoiceSchema) },
			responses: { 201: jsonResponse(invoiceSchema, 'The draft'), 400: bad },
		}),
		get: invoiceRoute(tool, {
			method: 'get',
			path: '/{id}',
			summary: 'One invoice or credit note; overdue is derived from the due date',
			request: { params: idParams },
			responses: { 200: jsonResponse(invoiceSchema, 'The invoice'), 404: notFound },
		}),
		update: invoiceRoute(tool, {
			method: 'patch',
			path: '/{id}',
			summary: 'Change a draft: each field sent replaces the saved one; a finalized invoice is a 409',
			request: { params: idParams, body: jsonBody(updateInvoiceSchema) },
			responses: { 200: jsonResponse(invoiceSchema, 'Changed'), 400: bad, 404: notFound, 409: conflict },
		}),
		delete: invoiceRoute(tool, {
			method: 'delete',
			path: '/{id}',
			summary: 'Delete a draft; a finalized invoice is a 409 (issue a credit note)',
			request: { params: idParams },
			responses: { 200: jsonResponse(okSchema, 'Deleted'), 404: notFound, 409: conflict },
		}),
		finalize: action(tool, 'finalize', 'Number a draft and freeze it (client, sender, rates) in one transaction'),
		markSent: action(tool, 'mark_sent', 'Record that a finalized invoice was sent'),
		void: action(tool, 'void', 'Void a finalized invoice without payments; its number stays issued'),
		fromRows: invoiceRoute(tool, {
			method: 'post',
			path: '/{id}/lines/from_rows',
			summary: 'Add a line per row of a database (read from the mirror), with a mapping of its properties',
			request: { params: idParams, body: jsonBody(linesFromRowsSchema) },
			responses: { 200: jsonResponse(invoiceSchema, 'The draft'), 400: bad, 404: notFound, 409: conflict },
		}),
		fromTime: invoiceRoute(tool, {
			method: 'post',
			path: '/{id}/lines/from_time',
			summary:
				"Add a time view's unbilled billable time as lines (by project or task); finalizing marks its rows billed",
			request: { params: idParams, body: jsonBody(linesFromTimeSchema) },
			responses: { 200: jsonResponse(invoiceSchema, 'The draft'), 400: bad, 404: notFound, 409: conflict },
		}),
		creditNote: invoiceRoute(tool, {
			method: 'post',
			path: '/{id}/credit_note',
			summary: 'Issue a numbered credit note for all or some of the lines still open',
			request: { params: idParams, body: jsonBody(creditNoteSchema) },
			responses: { 201: jsonResponse(invoiceSchema, 'The credit note'), 400: bad, 404: notFound, 409: conflict },
		}),
		payments: invoiceRoute(tool, {
			method: 'get',
			path: '/{id}/payments',
			summary: 'The payments recorded for an invoice',
			request: { params: idParams },
			responses: { 200: jsonResponse(z.array(paymentSchema), 'Payments'), 404: notFound },
		}),
		pay: invoiceRoute(tool, {
			method: 'post',
			path: '/{id}/payments',
			summary: 'Record a payment (at most what is left to pay); the status follows',
			request: { params: idParams, body: jsonBody(createPaymentSchema) },
			responses: { 201: jsonResponse(paymentSchema, 'Recorded'), 400: bad, 404: notFound, 409: conflict },
		}),
		unpay: invoiceRoute(tool, {
			method: 'delete',
			path: '/{id}/payments/{paymentId}',
			summary: 'Delete a payment recorded by mistake; the status follows',
			request: { params: paymentParams },
			responses: { 200: jsonResponse(okSchema, 'Deleted'), 404: notFound },
		}),
		pdf: invoiceRoute(tool, {
			method: 'get',
			path: '/{id}/pdf',
			summary: "The invoice drawn with its profile's design",
			request: { params: idParams },
			responses: {
				200: { content: { 'application/pdf': { schema: z.string() } }, description: 'The PDF' },
				404: notFound,
			},
		}),
		einvoice: invoiceRoute(tool, {
			method: 'get',
			path: '/{id}/einvoice',
			summary:
				'The finalized document as an EN 16931 e-invoice: UBL (Peppol BIS Billing 3.0), CII, or a Factur-X PDF with the CII embedded',
			request: { params: idParams, query: z.object({ format: z.enum(['ubl', 'cii', 'facturx']) }) },
			responses: {
				200: {
					content: { 'application/xml': { schema: z.string() }, 'application/pdf': { schema: z.string() } },
					description: 'The e-invoice',
				},
				400: bad,
				404: notFound,
			},
		}),
	}
}

export function createInvoiceDocumentRoutes(deps: { auth: Auth; invoices: InvoicesDeps; time: TimeDeps }) {
	const router = createRouter<MemberEnv>()
	// The settings' routes, mounted before these, may have checked the same path already.
	const guard = requireMemberOnce(deps.auth, deps.invoices.db)
	const ctx = (c: Context<MemberEnv>): InvoicesCtx => ({
		...deps.invoices,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})
	const id = (c: Context) => c.req.param('id') as string
	const ok = { success: true as const }

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		router.use(`/dashboard/${tool}_invoice/invoices`, guard)
		router.use(`/dashboard/${tool}_invoice/invoices/*`, guard)
		router.openapi(routes.list, async (c) => c.json(await listInvoices(ctx(c), c.req.valid('query')), 200))
		router.openapi(routes.create, async (c) => c.json(await createInvoice(ctx(c), c.req.valid('json')), 201))
		router.openapi(routes.get, async (c) => c.json(await getInvoice(ctx(c), id(c)), 200))
		router.openapi(routes.update, async (c) => c.json(await updateInvoice(ctx(c), id(c), c.req.valid('json')), 200))
		router.openapi(routes.delete, async (c) => {
			await deleteInvoice(ctx(c), id(c))
			return c.json(ok, 200)
		})
		router.openapi(routes.fromRows, async (c) =>
			c.json(await addLinesFromRows(ctx(c), id(c), c.req.valid('json')), 200),
		)
		router.openapi(routes.fromTime, async (c) =>
			c.json(await addLinesFromTime(ctx(c), deps.time, tool, id(c), c.req.valid('json')), 200),
		)
		router.openapi(routes.finalize, async (c) => c.json(await finalizeWithTime(ctx(c), deps.time, id(c)), 200))
		router.openapi(routes.markSent, async (c) => c.json(await markSent(ctx(c), id(c)), 200))
		router.openapi(routes.void, async (c) => c.json(await voidWithTime(ctx(c), deps.time, id(c)), 200))
		router.openapi(routes.creditNote, async (c) =>
			c.json(await createCreditNote(ctx(c), id(c), c.req.valid('json')), 201),
		)
		router.openapi(routes.payments, async (c) => c.json(await listPayments(ctx(c), id(c)), 200))
		router.openapi(routes.pay, async (c) => c.json(await createPayment(ctx(c), id(c), c.req.valid('json')), 201))
		router.openapi(routes.unpay, async (c) => {
			await deletePayment(ctx(c), id(c), c.req.param('paymentId') as string)
			return c.json(ok, 200)
		})
		router.openapi(routes.pdf, async (c) => {
			const { pdf, name } = await invoicePdf(ctx(c), id(c))
			return c.body(new Uint8Array(pdf), 200, {
				'content-type': 'application/pdf',
				'content-disposition': `inline; filename="${name.replace(/[^\w.-]/g, '_')}.pdf"`,
				'cache-control': 'private, no-store',
			}) as never
		})
		router.openapi(routes.einvoice, async (c) => {
			const file = await invoiceEInvoice(ctx(c), id(c), c.req.valid('query').format)
			return c.body(file.body, 200, {
				'content-type': file.contentType,
				'content-disposition': `attachment; filename="${file.fileName}"`,
				'cache-control': 'private, no-store',
			}) as never
		})
	}
	return router
}
