// Invoices under /dashboard/{tool}_invoice: for now the settings profiles (the companies an
// organization bills from). `{tool}` is the workspace tool the invoices are built from; profiles
// belong to the organization, so each tool's path reaches the same ones.

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import {
	createInvoiceProfileSchema,
	invoiceProfileSchema,
	updateInvoiceProfileSchema,
} from '@blocksmith/contracts/invoices.ts'
import { type WorkspaceTool, workspaceToolSchema } from '@blocksmith/contracts/workspaces.ts'
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMember, requireSession } from '#src/core/auth/auth.middleware.ts'
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
import { createProfile, deleteProfile, getProfile, listProfiles, updateProfile } from './invoices.service.ts'

const idParams = z.object({ id: idSchema })
const { 400: bad, 404: notFound } = commonProblems
const forbidden = problemResponse('Only owners and admins change invoice settings')

function invoiceRoute<R extends RouteSpec>(tool: WorkspaceTool, spec: R) {
	return bearerRoute(`/dashboard/${tool}_invoice`, 'Invoices', spec)
}

function routesFor(tool: WorkspaceTool) {
	return {
		list: invoiceRoute(tool, {
			method: 'get',
			path: '/settings',
			summary: 'Invoice settings profiles (the companies the organization bills from), the default first',
			responses: { 200: jsonResponse(z.array(invoiceProfileSchema), 'Profiles') },
		}),
		create: invoiceRoute(tool, {
			method: 'post',
			path: '/settings',
			summary: 'Add a profile (the first one is the default); what is left out gets sensible defaults',
			request: { body: jsonBody(createInvoiceProfileSchema) },
			responses: { 201: jsonResponse(invoiceProfileSchema, 'Added'), 400: bad, 403: forbidden },
		}),
		get: invoiceRoute(tool, {
			method: 'get',
			path: '/settings/{id}',
			summary: 'One profile, with its tax rates and the next invoice and credit-note numbers',
			request: { params: idParams },
			responses: { 200: jsonResponse(invoiceProfileSchema, 'The profile'), 404: notFound },
		}),
		update: invoiceRoute(tool, {
			method: 'patch',
			path: '/settings/{id}',
			summary: 'Change a profile: each field sent replaces the saved one (taxRates is the whole list)',
			request: { params: idParams, body: jsonBody(updateInvoiceProfileSchema) },
			responses: { 200: jsonResponse(invoiceProfileSchema, 'Changed'), 400: bad, 403: forbidden, 404: notFound },
		}),
		delete: invoiceRoute(tool, {
			method: 'delete',
			path: '/settings/{id}',
			summary: 'Delete a profile no document was numbered from',
			request: { params: idParams },
			responses: {
				200: jsonResponse(okSchema, 'Deleted'),
				403: forbidden,
				404: notFound,
				409: problemResponse('Documents were numbered from it'),
			},
		}),
	}
}

export function createInvoiceRoutes(deps: { auth: Auth; invoices: InvoicesDeps }) {
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
		router.use(`/dashboard/${tool}_invoice/*`, session, member)
		router.openapi(routes.list, async (c) => c.json(await listProfiles(ctx(c)), 200))
		router.openapi(routes.create, async (c) => c.json(await createProfile(ctx(c), c.req.valid('json')), 201))
		router.openapi(routes.get, async (c) => c.json(await getProfile(ctx(c), id(c)), 200))
		router.openapi(routes.update, async (c) => c.json(await updateProfile(ctx(c), id(c), c.req.valid('json')), 200))
		router.openapi(routes.delete, async (c) => {
			await deleteProfile(ctx(c), id(c))
			return c.json({ success: true as const }, 200)
		})
	}
	return router
}
