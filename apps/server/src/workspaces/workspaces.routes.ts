// Workspace data: /dashboard/workspaces (connect, list, disconnect, deliveries), the databases
// of each tool under /dashboard/{tool}/databases (schemas, rows, sync now, CSV; create and edit
// for local), /dashboard/{tool}/users, the scoped public reads /api/{tool}/databases and
// /api/{tool}/users, and Notion's OAuth callback and webhooks.

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import type { Role } from '@blocksmith/contracts/teams.ts'
import {
	connectWorkspaceResultSchema,
	connectWorkspaceSchema,
	createDatabaseSchema,
	createRowsSchema,
	databaseSchema,
	listRowsQuerySchema,
	listWritesQuerySchema,
	publicDatabaseSchema,
	publicScopeQuerySchema,
	rowFileLinkSchema,
	rowPageSchema,
	rowSchema,
	updateDatabaseSchema,
	workspaceSchema,
	workspaceToolSchema,
	workspaceUserSchema,
	workspaceWriteSchema,
	writeRowSchema,
} from '@blocksmith/contracts/workspaces.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMember, requireSession } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import { commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import { enforceRateLimit } from '#src/lib/rate-limit.ts'
import { createSampleWorkspace } from './sample-workspace.ts'
import type { WorkspaceCtx, WorkspaceDeps } from './workspaces.deps.ts'
import { openRowFile } from './workspaces.files.ts'
import { readPublicDatabase, readPublicUsers } from './workspaces.public.ts'
import {
	completeNotionOAuth,
	connectNotionToken,
	createLocalDatabase,
	createLocalRows,
	createLocalWorkspace,
	deleteLocalDatabase,
	deleteLocalRow,
	disconnectWorkspace,
	exportCsv,
	getDatabase,
	listDatabases,
	listRows,
	listUsers,
	listWorkspaces,
	startNotionOAuth,
	toDatabase,
	updateLocalDatabase,
	updateLocalRow,
} from './workspaces.service.ts'
import { syncNow } from './workspaces.sync.ts'
import { handleNotionWebhook } from './workspaces.webhooks.ts'
import { enqueueWrite, listWrites, retryWrite } from './workspaces.writes.ts'

const tags = ['Workspaces']
const security = [{ bearer: [] }]
const toolParams = z.object({ tool: workspaceToolSchema })
const idParams = z.object({ id: idSchema })
const toolIdParams = z.object({ tool: workspaceToolSchema, id: idSchema })
const rowParams = z.object({ tool: workspaceToolSchema, id: idSchema, rowId: idSchema })
const rowFileParams = rowParams.extend({
	propertyId: z.string().min(1).max(200),
	index: z.coerce.number().int().min(0).max(1000),
})
const localIdParams = z.object({ id: idSchema })
const localRowParams = z.object({ id: idSchema, rowId: idSchema })
const workspaceQuery = z.object({ workspaceId: idSchema.optional() })
const notFound = commonProblems[404]
/** Anonymous visitors of published objects: enough for a form's choices, not for scraping a database. */
export const publicReadLimit = { limit: 120, windowSeconds: 60 }
const bad = commonProblems[400]
const planRefused = problemResponse('The plan has no room for another workspace, or the subscription is not active')

const routes = {
	listWorkspaces: createRoute({
		method: 'get',
		path: '/dashboard/workspaces',
		tags,
		security,
		summary: 'Connected workspaces',
		responses: { 200: jsonResponse(z.array(workspaceSchema), 'Workspaces'), 401: commonProblems[401] },
	}),
	connect: createRoute({
		method: 'post',
		path: '/dashboard/workspaces',
		tags,
		security,
		summary: 'Connect a workspace: create a local one, save a Notion integration token, or start Notion OAuth',
		request: { body: jsonBody(connectWorkspaceSchema) },
		responses: {
			201: jsonResponse(connectWorkspaceResultSchema, 'The workspace, or where to send the browser'),
			400: bad,
			402: planRefused,
			409: problemResponse('Notion OAuth is not configured on this server'),
		},
	}),
	sample: createRoute({
		method: 'post',
		path: '/dashboard/workspaces/sample',
		tags,
		security,
		summary: 'Create a sample local workspace: clients, projects, time entries, invoices and enquiries, related',
		responses: { 201: jsonResponse(z.object({ workspace: workspaceSchema }), 'Created'), 402: planRefused },
	}),
	disconnect: createRoute({
		method: 'delete',
		path: '/dashboard/workspaces/{id}',
		tags,
		security,
		summary:
			'Disconnect a Notion workspace, or delete a local one (its databases, rows and pending deliveries go with it; owners and admins)',
		request: { params: idParams },
		responses: {
			200: jsonResponse(okSchema, 'Disconnected'),
			403: problemResponse('Owners and admins only'),
			404: notFound,
		},
	}),
	writes: createRoute({
		method: 'get',
		path: '/dashboard/workspaces/{id}/writes',
		tags,
		security,
		summary: "Deliveries of row writes to the workspace, newest first, with each one's state",
		request: { params: idParams, query: listWritesQuerySchema },
		responses: { 200: jsonResponse(z.array(workspaceWriteSchema), 'Deliveries'), 404: notFound },
	}),
	retryWrite: createRoute({
		method: 'post',
		path: '/dashboard/workspaces/{id}/writes/{writeId}/retry',
		tags,
		security,
		summary: 'Retry a failed or dead delivery now',
		request: { params: z.object({ id: idSchema, writeId: idSchema }) },
		responses: {
			200: jsonResponse(workspaceWriteSchema, 'Queued again'),
			404: notFound,
			409: problemResponse('Not failed'),
		},
	}),
	listDatabases: createRoute({
		method: 'get',
		path: '/dashboard/{tool}/databases',
		tags,
		security,
		summary: 'Databases with their schemas and sync state',
		request: { params: toolParams, query: workspaceQuery },
		responses: { 200: jsonResponse(z.array(databaseSchema), 'Databases'), 400: bad },
	}),
	getDatabase: createRoute({
		method: 'get',
		path: '/dashboard/{tool}/databases/{id}',
		tags,
		security,
		summary: 'One database',
		request: { params: toolIdParams },
		responses: { 200: jsonResponse(databaseSchema, 'Database'), 404: notFound },
	}),
	listRows: createRoute({
		method: 'get',
		path: '/dashboard/{tool}/databases/{id}/rows',
		tags,
		security,
		summary: 'Rows, paged, filtered and sorted (from the mirror for Notion)',
		request: { params: toolIdParams, query: listRowsQuerySchema },
		responses: { 200: jsonResponse(rowPageSchema, 'A page of rows'), 400: bad, 404: notFound },
	}),
	createRow: createRoute({
		method: 'post',
		path: '/dashboard/{tool}/databases/{id}/rows',
		tags,
		security,
		summary: 'Add a row: stored at once for local; for Notion, queued for delivery (202)',
		request: { params: toolIdParams, body: jsonBody(writeRowSchema) },
		responses: {
			201: jsonResponse(rowSchema, 'Created (local)'),
			202: jsonResponse(workspaceWriteSchema, 'Queued for delivery (Notion)'),
			400: bad,
			404: notFound,
		},
	}),
	updateRow: createRoute({
		method: 'patch',
		path: '/dashboard/{tool}/databases/{id}/rows/{rowId}',
		tags,
		security,
		summary: 'Change some values of a row: at once for local; for Notion, queued for delivery (202)',
		request: { params: rowParams, body: jsonBody(writeRowSchema) },
		responses: {
			200: jsonResponse(rowSchema, 'Updated (local)'),
			202: jsonResponse(workspaceWriteSchema, 'Queued for delivery (Notion)'),
			400: bad,
			404: notFound,
		},
	}),
	openRowFile: createRoute({
		method: 'get',
		path: '/dashboard/{tool}/databases/{id}/rows/{rowId}/files/{propertyId}/{index}',
		tags,
		security,
		summary: 'A current URL of a file of a row (Notion-hosted URLs expire; a fresh one is fetched when needed)',
		request: { params: rowFileParams },
		responses: { 200: jsonResponse(rowFileLinkSchema, 'Where to open the file'), 404: notFound },
	}),
	sync: createRoute({
		method: 'post',
		path: '/dashboard/{tool}/databases/{id}/sync',
		tags,
		security,
		summary: 'Sync now',
		request: { params: toolIdParams },
		responses: { 202: jsonResponse(databaseSchema, 'Queued'), 404: notFound },
	}),
	exportCsv: createRoute({
		method: 'get',
		path: '/dashboard/{tool}/databases/{id}/export.csv',
		tags,
		security,
		summary: 'The whole database as CSV',
		request: { params: toolIdParams },
		responses: {
			200: { content: { 'text/csv': { schema: z.string() } }, description: 'CSV, UTF-8 with a byte-order mark' },
			404: notFound,
		},
	}),
	createDatabase: createRoute({
		method: 'post',
		path: '/dashboard/local/databases',
		tags,
		security,
		summary: 'Create a local database',
		request: { body: jsonBody(createDatabaseSchema) },
		responses: { 201: jsonResponse(databaseSchema, 'Created'), 400: bad, 404: notFound },
	}),
	updateDatabase: createRoute({
		method: 'patch',
		path: '/dashboard/local/databases/{id}',
		tags,
		security,
		summary: 'Rename a local database or change its properties',
		request: { params: localIdParams, body: jsonBody(updateDatabaseSchema) },
		responses: { 200: jsonResponse(databaseSchema, 'Updated'), 400: bad, 404: notFound },
	}),
	deleteDatabase: createRoute({
		method: 'delete',
		path: '/dashboard/local/databases/{id}',
		tags,
		security,
		summary: 'Delete a local database and its rows (owners and admins)',
		request: { params: localIdParams },
		responses: {
			200: jsonResponse(okSchema, 'Deleted'),
			403: problemResponse('Owners and admins only'),
			404: notFound,
			409: problemResponse('Related from elsewhere'),
		},
	}),
	createRows: createRoute({
		method: 'post',
		path: '/dashboard/local/databases/{id}/rows/batch',
		tags,
		security,
		summary: 'Add up to 1,000 rows at once (all or none)',
		request: { params: localIdParams, body: jsonBody(createRowsSchema) },
		responses: { 201: jsonResponse(z.object({ created: z.number().int() }), 'Created'), 400: bad, 404: notFound },
	}),
	deleteRow: createRoute({
		method: 'delete',
		path: '/dashboard/local/databases/{id}/rows/{rowId}',
		tags,
		security,
		summary: 'Delete a row of a local database',
		request: { params: localRowParams },
		responses: { 200: jsonResponse(okSchema, 'Deleted'), 404: notFound },
	}),
	users: createRoute({
		method: 'get',
		path: '/dashboard/{tool}/users',
		tags,
		security,
		summary: 'People of the workspace (for people properties)',
		request: { params: toolParams, query: workspaceQuery },
		responses: {
			200: jsonResponse(z.array(workspaceUserSchema), 'People'),
			404: notFound,
			503: problemResponse('Notion not answering'),
		},
	}),
	publicDatabases: createRoute({
		method: 'get',
		path: '/api/{tool}/databases',
		tags,
		summary: 'What a published form, chart or portal exposes of its databases (scoped by that object)',
		request: { params: toolParams, query: publicScopeQuerySchema },
		responses: {
			200: jsonResponse(z.array(publicDatabaseSchema), 'Databases'),
			404: notFound,
			429: commonProblems[429],
		},
	}),
	publicUsers: createRoute({
		method: 'get',
		path: '/api/{tool}/users',
		tags,
		summary: 'The people choices a published form exposes (names only)',
		request: { params: toolParams, query: publicScopeQuerySchema },
		responses: { 200: jsonResponse(z.array(workspaceUserSchema), 'People'), 404: notFound, 429: commonProblems[429] },
	}),
	oauthCallback: createRoute({
		method: 'get',
		path: '/api/notion/oauth/callback',
		tags,
		summary: "Notion's OAuth redirect: completes the connection and returns to the workspaces page",
		request: {
			query: z.object({
				code: z.string().max(500).optional(),
				state: z.string().max(2000).optional(),
				error: z.string().max(200).optional(),
			}),
		},
		responses: { 302: { description: 'Back to /workspaces' } },
	}),
}

export function createWorkspaceRoutes(deps: { auth: Auth; workspaces: WorkspaceDeps }) {
	const { auth } = deps
	const w = deps.workspaces
	const router = createRouter<MemberEnv>()
	const session = requireSession(auth)
	const member = requireMember(w.db)
	for (const path of [
		'/dashboard/workspaces',
		'/dashboard/workspaces/*',
		'/dashboard/:tool/databases',
		'/dashboard/:tool/databases/*',
		'/dashboard/:tool/users',
	]) {
		router.use(path, session, member)
	}
	const ctx = (c: Context<MemberEnv>): WorkspaceCtx & { role: Role } => ({
		...w,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})

	router.openapi(routes.listWorkspaces, async (c) => c.json(await listWorkspaces(ctx(c)), 200))
	router.openapi(routes.connect, async (c) => {
		const input = c.req.valid('json')
		if (input.tool === 'local') {
			return c.json({ workspace: await createLocalWorkspace(ctx(c), input.name) }, 201)
		}
		if (input.method === 'token') {
			return c.json({ workspace: await connectNotionToken(ctx(c), input.token) }, 201)
		}
		return c.json(startNotionOAuth(ctx(c)), 201)
	})
	router.openapi(routes.sample, async (c) => c.json({ workspace: await createSampleWorkspace(ctx(c)) }, 201))
	router.openapi(routes.disconnect, async (c) => {
		await disconnectWorkspace(ctx(c), c.req.valid('param').id)
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.writes, async (c) =>
		c.json(await listWrites(ctx(c), c.req.valid('param').id, c.req.valid('query')), 200),
	)
	router.openapi(routes.retryWrite, async (c) => {
		const { id, writeId } = c.req.valid('param')
		return c.json(await retryWrite(ctx(c), id, writeId), 200)
	})
	router.openapi(routes.listDatabases, async (c) =>
		c.json(await listDatabases(ctx(c), c.req.valid('param').tool, c.req.valid('query').workspaceId), 200),
	)
	router.openapi(routes.getDatabase, async (c) => {
		const { tool, id } = c.req.valid('param')
		return c.json(await getDatabase(ctx(c), tool, id), 200)
	})
	router.openapi(routes.listRows, async (c) => {
		const { tool, id } = c.req.valid('param')
		return c.json(await listRows(ctx(c), tool, id, c.req.valid('query')), 200)
	})
	router.openapi(routes.createRow, async (c) => {
		const { tool, id } = c.req.valid('param')
		const { values } = c.req.valid('json')
		if (tool === 'local') {
			const [row] = await createLocalRows(ctx(c), id, [{ values }])
			return c.json(row, 201)
		}
		await getDatabase(ctx(c), tool, id)
		const source = `user:${c.var.member.userId}`
		return c.json(await enqueueWrite(ctx(c), { databaseId: id, values, source }), 202)
	})
	router.openapi(routes.updateRow, async (c) => {
		const { tool, id, rowId } = c.req.valid('param')
		const { values } = c.req.valid('json')
		if (tool === 'local') {
			return c.json(await updateLocalRow(ctx(c), id, rowId, { values }), 200)
		}
		await getDatabase(ctx(c), tool, id)
		const source = `user:${c.var.member.userId}`
		return c.json(await enqueueWrite(ctx(c), { databaseId: id, rowId, values, source }), 202)
	})
	router.openapi(routes.openRowFile, async (c) => {
		const { tool, id, rowId, propertyId, index } = c.req.valid('param')
		return c.json(await openRowFile(ctx(c), { tool, databaseId: id, rowId, propertyId, index }), 200)
	})
	router.openapi(routes.sync, async (c) => {
		const { tool, id } = c.req.valid('param')
		return c.json(await syncNow(w, ctx(c), tool, id, toDatabase), 202)
	})
	router.openapi(routes.exportCsv, async (c) => {
		const { tool, id } = c.req.valid('param')
		const csv = await exportCsv(ctx(c), tool, id)
		return c.body(csv.body, 200, {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(csv.filename)}`,
		}) as never
	})
	router.openapi(routes.createDatabase, async (c) =>
		c.json(await createLocalDatabase(ctx(c), c.req.valid('json')), 201),
	)
	router.openapi(routes.updateDatabase, async (c) =>
		c.json(await updateLocalDatabase(ctx(c), c.req.valid('param').id, c.req.valid('json')), 200),
	)
	router.openapi(routes.deleteDatabase, async (c) => {
		await deleteLocalDatabase(ctx(c), c.req.valid('param').id)
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.createRows, async (c) => {
		const rows = await createLocalRows(ctx(c), c.req.valid('param').id, c.req.valid('json').rows)
		return c.json({ created: rows.length }, 201)
	})
	router.openapi(routes.deleteRow, async (c) => {
		const { id, rowId } = c.req.valid('param')
		await deleteLocalRow(ctx(c), id, rowId)
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.users, async (c) =>
		c.json(await listUsers(ctx(c), c.req.valid('param').tool, c.req.valid('query').workspaceId), 200),
	)
	const limitPublicReads = async (clientIp: string) => {
		if (w.rateLimits) {
			await enforceRateLimit(w.db, `public-read:${clientIp}`, publicReadLimit)
		}
	}
	router.openapi(routes.publicDatabases, async (c) => {
		await limitPublicReads(c.var.clientIp)
		return c.json(await readPublicDatabase(w, c.req.valid('param').tool, c.req.valid('query')), 200)
	})
	router.openapi(routes.publicUsers, async (c) => {
		await limitPublicReads(c.var.clientIp)
		const { tool } = c.req.valid('param')
		const users = await readPublicUsers(w, tool, c.req.valid('query'), (orgId, workspaceId) =>
			listUsers({ ...w, orgId, userId: '' }, tool, workspaceId),
		)
		return c.json(users, 200)
	})
	router.openapi(routes.oauthCallback, async (c) => c.redirect(await completeNotionOAuth(w, c.req.valid('query')), 302))
	// The signature covers the raw body, so this route reads it as text rather than through a schema.
	router.post('/api/notion/webhooks', async (c) => {
		const result = await handleNotionWebhook(w, await c.req.text(), c.req.header('x-notion-signature'))
		return c.json(result, 200)
	})
	return router
}
