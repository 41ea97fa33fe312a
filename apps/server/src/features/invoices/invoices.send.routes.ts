// Members' routes of sending and paying online, under /dashboard/{tool}_invoice: send an invoice
// by e-mail, its history, and the settings profile's own Stripe account (owners and admins
// connect and disconnect it; members see whether one is connected). Another organization's
// invoice or profile is a 404. Decision 036.

import { idSchema } from '@blocksmith/contracts/common.ts'
import { invoiceSchema } from '@blocksmith/contracts/invoice-documents.ts'
import {
	connectStripeSchema,
	invoiceEventListSchema,
	sendInvoiceSchema,
	stripeAccountSchema,
} from '@blocksmith/contracts/invoice-sending.ts'
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
import { listEvents, sendInvoice } from './invoices.send.ts'
import { connectStripe, disconnectStripe, getStripeAccount } from './invoices.stripe.ts'

const idParams = z.object({ id: idSchema })
const { 400: bad, 404: notFound } = commonProblems
const forbidden = problemResponse('Only owners and admins change invoice settings')
const unavailable = problemResponse('Stripe could not be reached')

function route<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}_invoice`, 'Invoices', spec)
}

function routesFor(tool: WorkspaceTool) {
	return {
		send: route(tool, {
			method: 'post',
			path: '/invoices/{id}/send',
			summary:
				'E-mail the invoice with its PDF attached and its public link (to the client by default, with the profile’s subject and text), and mark it sent',
			request: { params: idParams, body: jsonBody(sendInvoiceSchema) },
			responses: {
				200: jsonResponse(invoiceSchema, 'Sent: the invoice as it is now'),
				400: bad,
				404: notFound,
				409: problemResponse('A draft or a void invoice'),
			},
		}),
		events: route(tool, {
			method: 'get',
			path: '/invoices/{id}/events',
			summary: 'The invoice’s history (created, finalized, sent to whom, viewed, paid …), newest first',
			request: { params: idParams },
			responses: { 200: jsonResponse(invoiceEventListSchema, 'Events'), 404: notFound },
		}),
		getStripe: route(tool, {
			method: 'get',
			path: '/settings/{id}/stripe',
			summary: 'Whether the profile’s own Stripe account is connected, which one, live or test',
			request: { params: idParams },
			responses: { 200: jsonResponse(stripeAccountSchema, 'The account'), 404: notFound },
		}),
		putStripe: route(tool, {
			method: 'put',
			path: '/settings/{id}/stripe',
			summary:
				'Connect the team’s own Stripe account by its secret key: checked against Stripe, a webhook endpoint created there, the key kept encrypted',
			request: { params: idParams, body: jsonBody(connectStripeSchema) },
			responses: {
				200: jsonResponse(stripeAccountSchema, 'Connected'),
				400: bad,
				403: forbidden,
				404: notFound,
				503: unavailable,
			},
		}),
		deleteStripe: route(tool, {
			method: 'delete',
			path: '/settings/{id}/stripe',
			summary: 'Disconnect it: the webhook endpoint is removed from the account and the key forgotten',
			request: { params: idParams },
			responses: { 200: jsonResponse(stripeAccountSchema, 'Disconnected'), 403: forbidden, 404: notFound },
		}),
	}
}

export function createInvoiceSendRoutes(deps: { auth: Auth; invoices: InvoicesDeps }) {
	const router = createRouter<MemberEnv>()
	// The settings' and documents' routes, mounted before these, may have checked the same path already.
	const guard = requireMemberOnce(deps.auth, deps.invoices.db)
	const ctx = (c: Context<MemberEnv>): InvoicesCtx => ({
		...deps.invoices,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})
	const id = (c: Context) => c.req.param('id') as string

	for (const tool of workspaceToolSchema.options) {
		const routes = routesFor(tool)
		router.use(`/dashboard/${tool}_invoice/invoices/:id/send`, guard)
		router.use(`/dashboard/${tool}_invoice/invoices/:id/events`, guard)
		router.use(`/dashboard/${tool}_invoice/settings/:id/stripe`, guard)
		router.openapi(routes.send, async (c) => c.json(await sendInvoice(ctx(c), id(c), c.req.valid('json')), 200))
		router.openapi(routes.events, async (c) => c.json(await listEvents(ctx(c), id(c)), 200))
		router.openapi(routes.getStripe, async (c) => c.json(await getStripeAccount(ctx(c), id(c)), 200))
		router.openapi(routes.putStripe, async (c) => c.json(await connectStripe(ctx(c), id(c), c.req.valid('json')), 200))
		router.openapi(routes.deleteStripe, async (c) => c.json(await disconnectStripe(ctx(c), id(c)), 200))
	}
	return router
}
