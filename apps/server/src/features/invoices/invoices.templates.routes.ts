// Invoice templates under /dashboard/{tool}_invoice/templates: the designs, and get_template, a
// design drawn as a PDF with a sample invoice (from a profile of the caller's organization when
// `profileId` is given; another organization's is a 404).

import {
	invoiceDesignInfoSchema,
	invoiceDesigns,
	invoiceTemplatePreviewQuerySchema,
} from '@blocksmith/contracts/invoices.ts'
import { type WorkspaceTool, workspaceToolSchema } from '@blocksmith/contracts/workspaces.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMemberOnce } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import { commonProblems, createRouter, jsonResponse } from '#src/lib/openapi.ts'
import type { InvoicesCtx, InvoicesDeps } from './invoices.deps.ts'
import { templatePreview } from './invoices.templates.ts'

const { 400: bad, 401: unauthenticated, 404: notFound } = commonProblems

function routesFor(tool: WorkspaceTool) {
	const base = {
		tags: ['Invoices'],
		security: [{ bearer: [] }],
	}
	return {
		list: createRoute({
			...base,
			method: 'get',
			path: `/dashboard/${tool}_invoice/templates`,
			summary: 'The invoice designs a profile can use, with a name and a description each',
			responses: { 200: jsonResponse(z.array(invoiceDesignInfoSchema), 'Designs'), 401: unauthenticated },
		}),
		preview: createRoute({
			...base,
			method: 'get',
			path: `/dashboard/${tool}_invoice/templates/get_template`,
			summary:
				"A design drawn as a PDF with a sample invoice: from the profile's sender, logo, bank details, texts, currency, tax rates, colours and font when profileId is given",
			request: { query: invoiceTemplatePreviewQuerySchema },
			responses: {
				200: { content: { 'application/pdf': { schema: z.string() } }, description: 'The PDF' },
				400: bad,
				401: unauthenticated,
				404: notFound,
			},
		}),
	}
}

export function createInvoiceTemplateRoutes(deps: { auth: Auth; invoices: InvoicesDeps }) {
	const router = createRouter<MemberEnv>()
	// The settings' routes, mounted before these, check the same paths: once is enough.
	const guard = requireMemberOnce(deps.auth, deps.invoices.db)
	const ctx = (c: Context<MemberEnv>): InvoicesCtx => ({
		...deps.invoices,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		router.use(`/dashboard/${tool}_invoice/templates`, guard)
		router.use(`/dashboard/${tool}_invoice/templates/*`, guard)
		router.openapi(routes.list, (c) => c.json([...invoiceDesigns], 200))
		router.openapi(routes.preview, async (c) => {
			const query = c.req.valid('query')
			const pdf = await templatePreview(ctx(c), query)
			return c.body(new Uint8Array(pdf), 200, {
				'content-type': 'application/pdf',
				'content-disposition': `inline; filename="invoice-${query.template}.pdf"`,
				// Drawn from the profile as it is now: a changed colour shows on the next request.
				'cache-control': 'private, no-store',
			}) as never
		})
	}
	return router
}
