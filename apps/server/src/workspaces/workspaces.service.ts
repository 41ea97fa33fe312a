import { randomUUID } from 'node:crypto'
import type { Role } from '@blocksmith/contracts/teams.ts'
import type {
	ConnectWorkspaceResult,
	CreateDatabase,
	Database,
	Property,
	Row,
	RowPage,
	RowValues,
	UpdateDatabase,
	Workspace,
	WorkspaceTool,
	WorkspaceUser,
} from '@blocksmith/contracts/workspaces.ts'
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm'
import Papa from 'papaparse'
import type { NotionSignInDeps } from '#src/core/auth/auth.notion.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import { ConnectorError } from './connector.ts'
import { insertLocalRows, listOrganizationPeople, toExternalRow } from './local/local.connector.ts'
import { createNotionClient, exchangeOAuthCode } from './notion/notion.connector.ts'
import { buildLocalProperties } from './properties.ts'
import { filtersSql, orderSql, parseFilters, parseSorts } from './rows.query.ts'
import { convertValue, validateRowValues } from './values.ts'
import type { WorkspaceCtx, WorkspaceDeps } from './workspaces.deps.ts'
import { canDeleteDatabase, canRemoveWorkspace, workspaceRefusals } from './workspaces.policy.ts'
import { deleteNotionPace } from './workspaces.purge.ts'
import { workspaceDatabases, workspaceRows, workspaces, workspaceWrites } from './workspaces.schema.ts'
import { queueDiscovery } from './workspaces.sync.ts'

type WorkspaceRecord = typeof workspaces.$inferSelect
type DatabaseRecord = typeof workspaceDatabases.$inferSelect
type RowRecord = typeof workspaceRows.$inferSelect

// ---- workspaces ---------------------------------------------------------------------------

function toWorkspace(record: WorkspaceRecord, databasesCount: number): Workspace {
	return {
		id: record.id,
		tool: record.tool,
		name: record.name,
		icon: record.icon,
		status: record.status,
		databasesCount,
		createdAt: record.createdAt.toISOString(),
	}
}

export async function listWorkspaces(ctx: WorkspaceCtx): Promise<Workspace[]> {
	const rows = await ctx.db
		.select({ workspace: workspaces, databases: count(workspaceDatabases.id) })
		.from(workspaces)
		.leftJoin(workspaceDatabases, eq(workspaceDatabases.workspaceId, workspaces.id))
		.where(eq(workspaces.organizationId, ctx.orgId))
		.groupBy(workspaces.id)
		.orderBy(asc(workspaces.createdAt))
	return rows.map((row) => toWorkspace(row.workspace, row.databases))
}

async function getWorkspaceRecord(ctx: WorkspaceCtx, id: string, tool?: WorkspaceTool): Promise<WorkspaceRecord> {
	const [record] = await ctx.db
		.select()
		.from(workspaces)
		.where(and(eq(workspaces.id, id), eq(workspaces.organizationId, ctx.orgId)))
	if (!record || (tool && record.tool !== tool)) {
		throw new AppError('NOT_FOUND', { detail: 'No such workspace.' })
	}
	return record
}

/** A new built-in workspace (also the sample's): refused with 402 when the plan has no room for another. */
export async function createLocalWorkspace(ctx: WorkspaceCtx, name: string): Promise<Workspace> {
	await ctx.subscriptions.assertCanAdd(ctx.db, ctx.orgId, 'workspaces')
	const [record] = await ctx.db
		.insert(workspaces)
		.values({ id: randomUUID(), organizationId: ctx.orgId, tool: 'local', name, createdBy: ctx.userId })
		.returning()
	return toWorkspace(found(record), 0)
}

/** Saves a Notion connection (new, or the same Notion workspace connected again with a new token). */
async function saveNotionWorkspace(
	ctx: WorkspaceCtx,
	input: { externalId: string; name: string; icon: string | null; accessToken: string; refreshToken: string | null },
): Promise<Workspace> {
	const credentials = ctx.secrets.seal(
		JSON.stringify({ accessToken: input.accessToken, refreshToken: input.refreshToken }),
	)
	const [existing] = await ctx.db
		.select()
		.from(workspaces)
		.where(
			and(
				eq(workspaces.organizationId, ctx.orgId),
				eq(workspaces.tool, 'notion'),
				eq(workspaces.externalId, input.externalId),
			),
		)
	let record: WorkspaceRecord | undefined
	if (existing) {
		;[record] = await ctx.db
			.update(workspaces)
			.set({ credentials, name: input.name, icon: input.icon, status: 'connected', updatedAt: new Date() })
			.where(eq(workspaces.id, existing.id))
			.returning()
	} else {
		// Only a new connection counts against the plan: a token refreshed on one already there never does.
		await ctx.subscriptions.assertCanAdd(ctx.db, ctx.orgId, 'workspaces')
		;[record] = await ctx.db
			.insert(workspaces)
			.values({
				id: randomUUID(),
				organizationId: ctx.orgId,
				tool: 'notion',
				name: input.name,
				icon: input.icon,
				externalId: input.externalId,
				credentials,
				createdBy: ctx.userId,
			})
			.returning()
	}
	const workspace = found(record)
	await queueDiscovery(ctx, workspace.id)
	return toWorkspace(workspace, 0)
}

export async function connectNotionToken(ctx: WorkspaceCtx, token: string): Promise<Workspace> {
	const client = createNotionClient({ token, baseUrl: ctx.notion.apiBaseUrl, timeoutMs: ctx.notion.timeoutMs })
	let me: Awaited<ReturnType<typeof client.users.me>>
	try {
		me = await client.users.me({})
	} catch (error) {
		ctx.log.info({ err: error }, 'notion token refused')
		throw new AppError('VALIDATION_FAILED', {
			detail: 'Notion did not accept this token. Copy the internal integration secret again.',
			errors: [{ field: 'token', message: 'Notion did not accept this token.' }],
		})
	}
	const bot = me.type === 'bot' && 'workspace_id' in me.bot ? me.bot : null
	return saveNotionWorkspace(ctx, {
		externalId: bot?.workspace_id ?? `bot:${me.id}`,
		name: bot?.workspace_name ?? me.name ?? 'Notion',
		icon: null,
		accessToken: token,
		refreshToken: null,
	})
}

// OAuth: the state names the organization and user, signed and short-lived, so the callback
// (an unauthenticated browser redirect) knows whose connection it completes.

const oauthStateTtlMs = 15 * 60 * 1000

function oauthRedirectUri(deps: WorkspaceDeps): string {
	return `${deps.publicUrl}/api/notion/oauth/callback`
}

export function startNotionOAuth(ctx: WorkspaceCtx): ConnectWorkspaceResult {
	const { clientId } = ctx.notion
	if (!clientId || !ctx.notion.clientSecret) {
		throw new AppError('CONFLICT', {
			detail:
				'Connecting with Notion needs NOTION_CLIENT_ID and NOTION_CLIENT_SECRET on the server. Paste an internal integration token instead.',
		})
	}
	const payload = Buffer.from(
		JSON.stringify({ o: ctx.orgId, u: ctx.userId, e: Date.now() + oauthStateTtlMs }),
	).toString('base64url')
	const state = `${payload}.${sign(deriveKey(ctx.authSecret, 'notion-oauth-state'), payload)}`
	const url = new URL('/v1/oauth/authorize', ctx.notion.apiBaseUrl)
	url.searchParams.set('client_id', clientId)
	url.searchParams.set('response_type', 'code')
	url.searchParams.set('owner', 'user')
	url.searchParams.set('redirect_uri', oauthRedirectUri(ctx))
	url.searchParams.set('state', state)
	return { authorizeUrl: url.toString() }
}

/** Completes the OAuth dance; returns the path to send the browser to. */
export async function completeNotionOAuth(
	deps: WorkspaceDeps,
	query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
): Promise<string> {
	const back = (params: Record<string, string>) => `/workspaces?${new URLSearchParams(params)}`
	if (query.error) {
		return back({ error: query.error === 'access_denied' ? 'Notion access was not granted.' : query.error })
	}
	const [payload, signature] = (query.state ?? '').split('.')
	if (
		!payload ||
		!signature ||
		!isValidSignature(deriveKey(deps.authSecret, 'notion-oauth-state'), payload, signature)
	) {
		return back({ error: 'This Notion link is invalid. Start connecting again.' })
	}
	const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { o: string; u: string; e: number }
	if (state.e < Date.now() || !query.code) {
		return back({ error: 'This Notion link has expired. Start connecting again.' })
	}
	try {
		const token = await exchangeOAuthCode({
			baseUrl: deps.notion.apiBaseUrl,
			clientId: deps.notion.clientId ?? '',
			clientSecret: deps.notion.clientSecret ?? '',
			code: query.code,
			redirectUri: oauthRedirectUri(deps),
		})
		const workspace = await saveNotionWorkspace(
			{ ...deps, orgId: state.o, userId: state.u },
			{
				externalId: token.workspaceId,
				name: token.workspaceName ?? 'Notion',
				icon: token.workspaceIcon,
				accessToken: token.accessToken,
				refreshToken: token.refreshToken,
			},
		)
		return back({ connected: workspace.id })
	} catch (error) {
		if (isPlanRefusal(error)) {
			// The plan's limit or a paused subscription, not Notion: the page says which.
			return back({ error: error.detail })
		}
		deps.log.warn({ err: error }, 'notion oauth exchange failed')
		return back({ error: 'Notion refused the connection. Try again.' })
	}
}

/**
 * "Continue with Notion" (decision 020): the token of a sign-in is a workspace grant too. Its
 * workspace is connected in the organization the person starts in (or its token refreshed when
 * it is already there), through the same code as "Connect with Notion", and its sync queued.
 */
export function createNotionSignInGrants(deps: WorkspaceDeps): NotionSignInDeps {
	return {
		exchangeCode: ({ code, redirectUri }) =>
			exchangeOAuthCode({
				baseUrl: deps.notion.apiBaseUrl,
				clientId: deps.notion.clientId ?? '',
				clientSecret: deps.notion.clientSecret ?? '',
				code,
				redirectUri,
			}),
		connectWorkspace: async ({ organizationId, userId, grant }) => {
			try {
				await saveNotionWorkspace(
					{ ...deps, orgId: organizationId, userId },
					{
						externalId: grant.workspaceId,
						name: grant.workspaceName ?? 'Notion',
						icon: grant.workspaceIcon,
						accessToken: grant.accessToken,
						refreshToken: grant.refreshToken,
					},
				)
			} catch (error) {
				// A sign-in never fails for the plan (a new organization always has room for its first
				// workspaces); an organization already at its limit connects it from the Workspaces page.
				if (!isPlanRefusal(error)) {
					throw error
				}
				deps.log.info({ organizationId, code: error.code }, 'notion sign-in: workspace not connected (plan)')
			}
		},
	}
}

/** The subscription's refusal to add a workspace (402): its detail is meant for the member who asked. */
function isPlanRefusal(error: unknown): error is AppError {
	return error instanceof AppError && (error.code === 'PLAN_LIMIT_REACHED' || error.code === 'SUBSCRIPTION_INACTIVE')
}

/** Owners and admins only; found in the caller's organization first, so another's id reads as 404. */
export async function disconnectWorkspace(ctx: WorkspaceCtx & { role: Role }, id: string): Promise<void> {
	const record = await getWorkspaceRecord(ctx, id)
	if (!canRemoveWorkspace(ctx.role)) {
		throw new AppError('FORBIDDEN', { detail: workspaceRefusals.removeWorkspace })
	}
	// Nothing of it is kept (decision 040). Jobs naming it, its databases or its writes go first,
	// while those ids can still be read; the Notion pace goes unless another organization's
	// workspace is the same Notion workspace.
	await ctx.db.execute(sql`
		delete from pgboss.job j where j.state <> 'active' and exists (
			select 1 from jsonb_path_query(j.data, 'strict $.**') v
			where jsonb_typeof(v) = 'string' and (
				v #>> '{}' = ${record.id}
				or v #>> '{}' in (select id from ${workspaceDatabases} where ${workspaceDatabases.workspaceId} = ${record.id})
				or v #>> '{}' in (select id from ${workspaceWrites} where ${workspaceWrites.workspaceId} = ${record.id})))`)
	await deleteNotionPace(ctx.db, ctx.orgId, record.id)
	const databases = await ctx.db
		.select({ id: workspaceDatabases.id })
		.from(workspaceDatabases)
		.where(eq(workspaceDatabases.workspaceId, record.id))
	// Rows, their content, databases, queued writes and the tokens go with it (foreign keys cascade).
	await ctx.db.delete(workspaces).where(and(eq(workspaces.id, record.id), eq(workspaces.organizationId, ctx.orgId)))
	// What modules made of its databases outside those tables (charts' projection tables).
	const removed = databases.map((database) => database.id)
	for (const databasesRemoved of ctx.databasesRemoved) {
		await databasesRemoved(removed)
	}
}

// ---- databases ----------------------------------------------------------------------------

export function toDatabase(record: DatabaseRecord, tool: WorkspaceTool): Database {
	return {
		id: record.id,
		workspaceId: record.workspaceId,
		tool,
		externalId: record.externalId,
		name: record.name,
		icon: record.icon,
		url: record.url,
		properties: record.properties,
		sync: {
			state: record.syncState,
			lastSyncedAt: record.lastSyncedAt?.toISOString() ?? null,
			nextSyncAt: record.nextSyncAt?.toISOString() ?? null,
			lastError: record.lastError,
			rowCount: record.rowCount,
		},
	}
}

export async function listDatabases(ctx: WorkspaceCtx, tool: WorkspaceTool, workspaceId?: string): Promise<Database[]> {
	const conditions = [eq(workspaceDatabases.organizationId, ctx.orgId), eq(workspaces.tool, tool)]
	if (workspaceId) {
		conditions.push(eq(workspaceDatabases.workspaceId, workspaceId))
	}
	const rows = await ctx.db
		.select({ database: workspaceDatabases })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(and(...conditions))
		.orderBy(asc(workspaceDatabases.name))
	return rows.map((row) => toDatabase(row.database, tool))
}

async function getDatabaseRecords(ctx: WorkspaceCtx, tool: WorkspaceTool, id: string) {
	const [row] = await ctx.db
		.select({ database: workspaceDatabases, workspace: workspaces })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(
			and(eq(workspaceDatabases.id, id), eq(workspaceDatabases.organizationId, ctx.orgId), eq(workspaces.tool, tool)),
		)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such database.' })
	}
	return row
}

export async function getDatabase(ctx: WorkspaceCtx, tool: WorkspaceTool, id: string): Promise<Database> {
	const { database } = await getDatabaseRecords(ctx, tool, id)
	return toDatabase(database, tool)
}

async function localTargets(ctx: WorkspaceCtx, workspaceId: string): Promise<Set<string>> {
	const rows = await ctx.db
		.select({ id: workspaceDatabases.id })
		.from(workspaceDatabases)
		.where(and(eq(workspaceDatabases.workspaceId, workspaceId), eq(workspaceDatabases.organizationId, ctx.orgId)))
	return new Set(rows.map((row) => row.id))
}

export async function createLocalDatabase(ctx: WorkspaceCtx, input: CreateDatabase): Promise<Database> {
	const workspace = await getWorkspaceRecord(ctx, input.workspaceId, 'local')
	const id = randomUUID()
	// A relation may point at the database being created (e.g. "Parent task").
	const targets = await localTargets(ctx, workspace.id)
	targets.add(id)
	const properties = buildLocalProperties(
		input.properties.map((p) => (p.relationDatabaseId === 'self' ? { ...p, relationDatabaseId: id } : p)),
		[],
		targets,
	)
	const [record] = await ctx.db
		.insert(workspaceDatabases)
		.values({
			id,
			organizationId: ctx.orgId,
			workspaceId: workspace.id,
			externalId: id,
			name: input.name,
			properties,
		})
		.returning()
	return toDatabase(found(record), 'local')
}

export async function updateLocalDatabase(ctx: WorkspaceCtx, id: string, input: UpdateDatabase): Promise<Database> {
	const { database } = await getDatabaseRecords(ctx, 'local', id)
	const properties = input.properties
		? buildLocalProperties(input.properties, database.properties, await localTargets(ctx, database.workspaceId))
		: database.properties
	await ctx.db.transaction(async (tx) => {
		await tx
			.update(workspaceDatabases)
			.set({ name: input.name ?? database.name, properties, updatedAt: new Date() })
			.where(eq(workspaceDatabases.id, database.id))
		await revalidateValues(tx as unknown as WorkspaceCtx['db'], database.id, database.properties, properties)
	})
	return getDatabase(ctx, 'local', id)
}

/**
 * After a schema change, every stored value must still fit its property: removed properties
 * lose their values, and a property whose type or options changed keeps each value converted
 * to the new definition where it can be (12.5 → "12.5" → 12.5, an option → a one-item
 * multi-select); what cannot be converted (a removed option, text that is not a number) goes.
 */
async function revalidateValues(db: WorkspaceCtx['db'], databaseId: string, before: Property[], after: Property[]) {
	const afterById = new Map(after.map((p) => [p.id, p]))
	const removed = before.filter((p) => !afterById.has(p.id)).map((p) => p.id)
	const changed = after.filter((p) => {
		const old = before.find((candidate) => candidate.id === p.id)
		return old && JSON.stringify({ ...old, name: '' }) !== JSON.stringify({ ...p, name: '' })
	})
	if (removed.length > 0) {
		await db
			.update(workspaceRows)
			.set({ values: sql`${workspaceRows.values} - ${sql.param(removed)}::text[]` })
			.where(eq(workspaceRows.databaseId, databaseId))
	}
	if (changed.length === 0) {
		return
	}
	let lastId = ''
	for (;;) {
		const rows = await db
			.select({ id: workspaceRows.id, values: workspaceRows.values })
			.from(workspaceRows)
			.where(and(eq(workspaceRows.databaseId, databaseId), sql`${workspaceRows.id} > ${lastId}`))
			.orderBy(asc(workspaceRows.id))
			.limit(1000)
		for (const row of rows) {
			const values: RowValues = { ...row.values }
			let isDirty = false
			for (const property of changed) {
				if (!(property.id in values)) {
					continue
				}
				const converted = convertValue(property, values[property.id])
				if (converted === undefined) {
					delete values[property.id]
				} else {
					values[property.id] = converted
				}
				isDirty = isDirty || JSON.stringify(values[property.id]) !== JSON.stringify(row.values[property.id])
			}
			if (isDirty) {
				await db.update(workspaceRows).set({ values }).where(eq(workspaceRows.id, row.id))
			}
		}
		const last = rows[rows.length - 1]
		if (!last || rows.length < 1000) {
			return
		}
		lastId = last.id
	}
}

/** Owners and admins only; found in the caller's organization first, so another's id reads as 404. */
export async function deleteLocalDatabase(ctx: WorkspaceCtx & { role: Role }, id: string): Promise<void> {
	const { database } = await getDatabaseRecords(ctx, 'local', id)
	if (!canDeleteDatabase(ctx.role)) {
		throw new AppError('FORBIDDEN', { detail: workspaceRefusals.deleteDatabase })
	}
	const others = await ctx.db
		.select({ id: workspaceDatabases.id, name: workspaceDatabases.name, properties: workspaceDatabases.properties })
		.from(workspaceDatabases)
		.where(and(eq(workspaceDatabases.workspaceId, database.workspaceId), ne(workspaceDatabases.id, database.id)))
	const pointing = others.filter((other) => other.properties.some((p) => p.relationDatabaseId === database.id))
	if (pointing.length > 0) {
		throw new AppError('CONFLICT', {
			detail: `${pointing.map((p) => p.name).join(', ')} relate to this database. Remove those relations first.`,
		})
	}
	await ctx.db.delete(workspaceDatabases).where(eq(workspaceDatabases.id, database.id))
}

// ---- rows ---------------------------------------------------------------------------------

function toRow(record: RowRecord): Row {
	return { id: record.id, ...toExternalRow(record) }
}

export async function listRows(
	ctx: WorkspaceCtx,
	tool: WorkspaceTool,
	id: string,
	query: {
		offset: number
		limit: number
		search?: string | undefined
		filter?: string | undefined
		sort?: string | undefined
	},
): Promise<RowPage> {
	const { database } = await getDatabaseRecords(ctx, tool, id)
	const conditions = [
		eq(workspaceRows.databaseId, database.id),
		eq(workspaceRows.organizationId, ctx.orgId),
		...filtersSql(database.properties, parseFilters(query.filter), query.search),
	]
	const order = orderSql(database.properties, parseSorts(query.sort))
	const [rows, [total]] = await Promise.all([
		ctx.db
			.select()
			.from(workspaceRows)
			.where(and(...conditions))
			.orderBy(...order)
			.offset(query.offset)
			.limit(query.limit),
		ctx.db
			.select({ value: count() })
			.from(workspaceRows)
			.where(and(...conditions)),
	])
	return { rows: rows.map(toRow), total: total?.value ?? 0, offset: query.offset, limit: query.limit }
}

async function rowRecord(ctx: WorkspaceCtx, databaseId: string, rowId: string): Promise<RowRecord> {
	const [row] = await ctx.db
		.select()
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.id, rowId),
				eq(workspaceRows.databaseId, databaseId),
				eq(workspaceRows.organizationId, ctx.orgId),
			),
		)
	return found(row, 'No such row.')
}

function translate(error: unknown): never {
	if (error instanceof ConnectorError && error.kind === 'not_found') {
		throw new AppError('NOT_FOUND', { detail: error.message })
	}
	throw error
}

export async function createLocalRows(
	ctx: WorkspaceCtx,
	id: string,
	inputs: { values: Record<string, unknown> }[],
): Promise<Row[]> {
	const { database } = await getDatabaseRecords(ctx, 'local', id)
	// Every row is checked before any is stored, so a bad row in an import stores nothing.
	const checked = inputs.map((input, index) => {
		try {
			return validateRowValues(database.properties, input.values)
		} catch (error) {
			if (error instanceof AppError && inputs.length > 1) {
				throw new AppError('VALIDATION_FAILED', {
					detail: `Row ${index + 1}: ${error.detail}`,
					errors: error.errors?.map((e) => ({ field: `rows.${index}.${e.field}`, message: e.message })),
				})
			}
			throw error
		}
	})
	const rows = await insertLocalRows(ctx.db, ctx.orgId, database, checked)
	return rows.map(toRow)
}

export async function updateLocalRow(
	ctx: WorkspaceCtx,
	id: string,
	rowId: string,
	input: { values: Record<string, unknown> },
): Promise<Row> {
	const { database, workspace } = await getDatabaseRecords(ctx, 'local', id)
	const values = validateRowValues(database.properties, input.values)
	const row = await rowRecord(ctx, database.id, rowId)
	const updated = await ctx.connectors
		.for(workspace)
		.updateRow(externalDatabaseOf(database), row.externalId, values)
		.catch(translate)
	return { id: row.id, ...updated }
}

export async function deleteLocalRow(ctx: WorkspaceCtx, id: string, rowId: string): Promise<void> {
	const { database } = await getDatabaseRecords(ctx, 'local', id)
	const row = await rowRecord(ctx, database.id, rowId)
	await ctx.db.transaction(async (tx) => {
		await tx.delete(workspaceRows).where(eq(workspaceRows.id, row.id))
		await tx
			.update(workspaceDatabases)
			.set({ rowCount: sql`greatest(${workspaceDatabases.rowCount} - 1, 0)` })
			.where(eq(workspaceDatabases.id, database.id))
	})
}

function externalDatabaseOf(database: DatabaseRecord) {
	return {
		externalId: database.externalId,
		name: database.name,
		icon: database.icon,
		url: database.url,
		properties: database.properties,
	}
}

// ---- people -------------------------------------------------------------------------------

export async function listUsers(
	ctx: WorkspaceCtx,
	tool: WorkspaceTool,
	workspaceId: string | undefined,
): Promise<WorkspaceUser[]> {
	if (tool === 'local') {
		// People of a local workspace are the organization's members, whichever workspace is named.
		if (workspaceId) {
			await getWorkspaceRecord(ctx, workspaceId, 'local')
		}
		return listOrganizationPeople(ctx.db, ctx.orgId)
	}
	if (!workspaceId) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'workspaceId', message: 'Name the Notion workspace.' }],
		})
	}
	const workspace = await getWorkspaceRecord(ctx, workspaceId, 'notion')
	return ctx.connectors
		.for(workspace)
		.listUsers()
		.catch((error: unknown) => {
			if (error instanceof ConnectorError && error.kind === 'unavailable') {
				throw new AppError('SERVICE_UNAVAILABLE', { detail: 'Notion is not answering right now. Try again shortly.' })
			}
			throw error
		})
}

// ---- CSV export ---------------------------------------------------------------------------

/** The database as CSV, read from the mirror in pages so a large database never sits in memory. */
export async function exportCsv(ctx: WorkspaceCtx, tool: WorkspaceTool, id: string) {
	const { database } = await getDatabaseRecords(ctx, tool, id)
	const properties = database.properties
	const people = new Map<string, string>()
	if (properties.some((p) => p.type === 'people' || p.type === 'created_by' || p.type === 'last_edited_by')) {
		const users = await listUsers(ctx, tool, database.workspaceId).catch(() => [])
		for (const user of users) {
			people.set(user.id, user.name)
		}
	}
	const db = ctx.db
	const orgId = ctx.orgId
	const encoder = new TextEncoder()
	let lastId = ''
	let isFirst = true
	return {
		filename: `${database.name.replace(/[^\w .-]+/g, '_') || 'database'}.csv`,
		body: new ReadableStream<Uint8Array>({
			async pull(controller) {
				const rows = await db
					.select()
					.from(workspaceRows)
					.where(
						and(
							eq(workspaceRows.databaseId, database.id),
							eq(workspaceRows.organizationId, orgId),
							sql`${workspaceRows.id} > ${lastId}`,
						),
					)
					.orderBy(asc(workspaceRows.id))
					.limit(1000)
				const titles = await relationTitles(db, orgId, properties, rows)
				const data = rows.map((row) => properties.map((p) => csvCell(p, row.values[p.id], people, titles)))
				const csv = Papa.unparse(
					{ fields: isFirst ? properties.map((p) => p.name) : [], data },
					{ header: isFirst, newline: '\r\n', escapeFormulae: true },
				)
				if (csv) {
					controller.enqueue(encoder.encode(`${isFirst ? '\uFEFF' : ''}${csv}\r\n`))
				}
				isFirst = false
				const last = rows[rows.length - 1]
				if (!last || rows.length < 1000) {
					controller.close()
					return
				}
				lastId = last.id
			},
		}),
	}
}

async function relationTitles(db: WorkspaceCtx['db'], orgId: string, properties: Property[], rows: RowRecord[]) {
	const wanted = new Set<string>()
	for (const property of properties.filter((p) => p.type === 'relation')) {
		for (const row of rows) {
			const value = row.values[property.id]
			if (Array.isArray(value)) {
				for (const item of value) {
					wanted.add(String(item))
				}
			}
		}
	}
	const titles = new Map<string, string>()
	if (wanted.size === 0) {
		return titles
	}
	const found = await db
		.select({ externalId: workspaceRows.externalId, title: workspaceRows.title })
		.from(workspaceRows)
		.where(and(eq(workspaceRows.organizationId, orgId), inArray(workspaceRows.externalId, [...wanted])))
	for (const row of found) {
		titles.set(row.externalId, row.title)
	}
	return titles
}

function csvCell(property: Property, value: unknown, people: Map<string, string>, titles: Map<string, string>): string {
	if (value === null || value === undefined) {
		return ''
	}
	switch (property.type) {
		case 'people':
		case 'created_by':
		case 'last_edited_by':
			return (value as string[]).map((id) => people.get(id) ?? id).join(', ')
		case 'relation':
			return (value as string[]).map((id) => titles.get(id) ?? id).join(', ')
		case 'multi_select':
			return (value as string[]).join(', ')
		case 'files':
			return (value as { name: string; url: string | null }[]).map((f) => f.url ?? f.name).join(', ')
		case 'date': {
			const date = value as { start: string; end: string | null }
			return date.end ? `${date.start} → ${date.end}` : date.start
		}
		case 'unique_id': {
			const unique = value as { prefix: string | null; number: number | null }
			return unique.prefix ? `${unique.prefix}-${unique.number ?? ''}` : String(unique.number ?? '')
		}
		default:
			if (typeof value === 'object' && value && 'start' in value) {
				return String((value as { start: string }).start)
			}
			return Array.isArray(value)
				? value.map((item) => csvCell({ ...property, type: 'rich_text' }, item, people, titles)).join(', ')
				: String(value)
	}
}
