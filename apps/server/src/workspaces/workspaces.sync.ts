import { randomUUID } from 'node:crypto'
import type { Database, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, count, eq, inArray, isNull, lte, ne, notExists, or, sql } from 'drizzle-orm'
import { organizationDeletions } from '#src/core/deletion/deletion.schema.ts'
import { AppError } from '#src/lib/errors.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import { ConnectorError, type ExternalDatabase, type ExternalRow, type ReadGap } from './connector.ts'
import { afterSync, createContentQueue } from './workspaces.content.ts'
import type { SyncMode, WorkspaceDeps } from './workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaces } from './workspaces.schema.ts'

// The mirror: Notion databases copied into workspace_rows. A first full sync on connect,
// incremental syncs by last_edited_time, a slower reconcile that drops deleted and trashed
// rows, and "sync now". `sync_state` both shows progress and keeps one sync per database.

type DatabaseRecord = typeof workspaceDatabases.$inferSelect
type WorkspaceRecord = typeof workspaces.$inferSelect

/** A sync whose worker died is taken up again after this long. */
const staleSyncMs = 30 * 60 * 1000

export function createSyncQueues(deps: () => WorkspaceDeps) {
	const discover: JobQueue<{ workspaceId: string }> = {
		name: 'workspace-discover',
		options: { retryLimit: 5, retryDelay: 30, retryBackoff: true },
		handle: async ({ workspaceId }) => discoverDatabases(deps(), workspaceId),
	}
	const sync: JobQueue<{ databaseId: string; mode: SyncMode }> = {
		name: 'workspace-sync',
		options: { retryLimit: 0 },
		// A long first sync of one workspace must not hold up the syncs of the others.
		concurrency: 2,
		handle: async ({ databaseId, mode }) => syncDatabase(deps(), databaseId, mode),
	}
	const tick: JobQueue<Record<string, never>> = {
		name: 'workspace-sync-tick',
		options: { retryLimit: 0 },
		cron: '* * * * *',
		handle: async () => queueDueSyncs(deps()),
	}
	return { discover, sync, tick, content: createContentQueue(deps) }
}

/** Reads the workspace's list of databases again (new shares, renames) in a job. */
export async function queueDiscovery(deps: WorkspaceDeps, workspaceId: string): Promise<void> {
	await deps.db.update(workspaces).set({ discoveredAt: new Date() }).where(eq(workspaces.id, workspaceId))
	await deps.jobs.send(deps.queues.discover, { workspaceId })
}

/** Lists the workspace's databases, records new ones and schema changes, and queues their syncs. */
async function discoverDatabases(deps: WorkspaceDeps, workspaceId: string): Promise<void> {
	const [workspace] = await deps.db.select().from(workspaces).where(eq(workspaces.id, workspaceId))
	if (workspace?.tool !== 'notion') {
		return
	}
	let found: ExternalDatabase[]
	try {
		found = await deps.connectors.for(workspace).listDatabases()
	} catch (error) {
		await noteWorkspaceError(deps, workspace, error)
		throw error
	}
	const existing = await deps.db
		.select()
		.from(workspaceDatabases)
		.where(eq(workspaceDatabases.workspaceId, workspace.id))
	const idByExternal = new Map(existing.map((record) => [record.externalId, record.id]))
	for (const database of found) {
		if (!idByExternal.has(database.externalId)) {
			idByExternal.set(database.externalId, randomUUID())
		}
	}
	for (const database of found) {
		const id = idByExternal.get(database.externalId) ?? randomUUID()
		const properties = withOurRelationIds(database, idByExternal)
		await deps.db
			.insert(workspaceDatabases)
			.values({
				id,
				organizationId: workspace.organizationId,
				workspaceId: workspace.id,
				externalId: database.externalId,
				name: database.name,
				icon: database.icon,
				url: database.url,
				properties,
			})
			.onConflictDoUpdate({
				target: [workspaceDatabases.workspaceId, workspaceDatabases.externalId],
				set: { name: database.name, icon: database.icon, url: database.url, properties, updatedAt: new Date() },
			})
		const isNew = !existing.some((record) => record.externalId === database.externalId)
		if (isNew) {
			await queueSync(deps, id, 'full')
		}
	}
}

/** Notion names related data sources; we name our own database records. */
function withOurRelationIds(database: ExternalDatabase, idByExternal: Map<string, string>) {
	return database.properties.map((property) =>
		property.type === 'relation' && property.relationDatabaseId
			? { ...property, relationDatabaseId: idByExternal.get(property.relationDatabaseId) ?? null }
			: property,
	)
}

/** Queues a sync unless one is already queued or running for the database. */
export async function queueSync(deps: WorkspaceDeps, databaseId: string, mode: SyncMode): Promise<boolean> {
	const claimed = await deps.db
		.update(workspaceDatabases)
		.set({ syncState: 'queued', updatedAt: new Date() })
		.where(
			and(
				eq(workspaceDatabases.id, databaseId),
				or(
					eq(workspaceDatabases.syncState, 'idle'),
					lte(workspaceDatabases.updatedAt, new Date(Date.now() - staleSyncMs)),
				),
			),
		)
		.returning({ id: workspaceDatabases.id })
	if (claimed.length === 0) {
		return false
	}
	await deps.jobs.send(deps.queues.sync, { databaseId, mode })
	return true
}

/** "Sync now": Notion databases sync at once (new rows, edits and deletions); local ones are always current. */
export async function syncNow(
	deps: WorkspaceDeps,
	ctx: { orgId: string },
	tool: WorkspaceTool,
	id: string,
	toDatabase: (record: DatabaseRecord, tool: WorkspaceTool) => Database,
): Promise<Database> {
	const [row] = await deps.db
		.select({ database: workspaceDatabases, tool: workspaces.tool })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(
			and(eq(workspaceDatabases.id, id), eq(workspaceDatabases.organizationId, ctx.orgId), eq(workspaces.tool, tool)),
		)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such database.' })
	}
	if (row.tool === 'notion') {
		await queueSync(deps, row.database.id, row.database.lastSyncedAt ? 'reconcile' : 'full')
	}
	const [fresh] = await deps.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, id))
	return toDatabase(fresh ?? row.database, tool)
}

/** Every minute: queue the syncs that are due, and reconciles where the last one is old. */
async function queueDueSyncs(deps: WorkspaceDeps): Promise<void> {
	const now = new Date()
	// An organization scheduled for deletion syncs nothing more (decision 040); restored, it catches up.
	const isNotDeleting = notExists(
		deps.db
			.select({ organizationId: organizationDeletions.organizationId })
			.from(organizationDeletions)
			.where(eq(organizationDeletions.organizationId, workspaces.organizationId)),
	)
	const due = await deps.db
		.select({ id: workspaceDatabases.id, lastReconciledAt: workspaceDatabases.lastReconciledAt })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(
			and(
				eq(workspaces.tool, 'notion'),
				eq(workspaces.status, 'connected'),
				isNotDeleting,
				or(
					and(eq(workspaceDatabases.syncState, 'idle'), lte(workspaceDatabases.nextSyncAt, now)),
					and(
						ne(workspaceDatabases.syncState, 'idle'),
						lte(workspaceDatabases.updatedAt, new Date(now.getTime() - staleSyncMs)),
					),
				),
			),
		)
		.limit(200)
	// Databases shared with the connection later appear at the next discovery.
	const stale = await deps.db
		.select({ id: workspaces.id })
		.from(workspaces)
		.where(
			and(
				eq(workspaces.tool, 'notion'),
				eq(workspaces.status, 'connected'),
				isNotDeleting,
				or(
					isNull(workspaces.discoveredAt),
					lte(workspaces.discoveredAt, new Date(now.getTime() - deps.sync.reconcileSeconds * 1000)),
				),
			),
		)
		.limit(100)
	for (const workspace of stale) {
		await queueDiscovery(deps, workspace.id)
	}
	for (const database of due) {
		const reconcileDue =
			!database.lastReconciledAt ||
			now.getTime() - database.lastReconciledAt.getTime() >= deps.sync.reconcileSeconds * 1000
		await queueSync(deps, database.id, reconcileDue ? 'reconcile' : 'incremental')
	}
}

async function noteWorkspaceError(deps: WorkspaceDeps, workspace: WorkspaceRecord, error: unknown): Promise<void> {
	if (error instanceof ConnectorError && error.kind === 'unauthorized') {
		await deps.db.update(workspaces).set({ status: 'needs_reauth' }).where(eq(workspaces.id, workspace.id))
	}
}

async function upsertRows(deps: WorkspaceDeps, database: DatabaseRecord, rows: ExternalRow[]): Promise<void> {
	if (rows.length === 0) {
		return
	}
	await deps.db
		.insert(workspaceRows)
		.values(
			rows.map((row) => ({
				id: randomUUID(),
				organizationId: database.organizationId,
				databaseId: database.id,
				externalId: row.externalId,
				values: row.values,
				title: row.title,
				url: row.url,
				createdTime: new Date(row.createdTime),
				lastEditedTime: new Date(row.lastEditedTime),
			})),
		)
		.onConflictDoUpdate({
			target: [workspaceRows.databaseId, workspaceRows.externalId],
			set: {
				values: sql`excluded.values`,
				title: sql`excluded.title`,
				url: sql`excluded.url`,
				createdTime: sql`excluded.created_time`,
				lastEditedTime: sql`excluded.last_edited_time`,
				mirroredAt: sql`now()`,
			},
		})
}

/** Stores one row that a delivery or a webhook read, as the next sync would. */
export async function mirrorRow(deps: WorkspaceDeps, database: DatabaseRecord, row: ExternalRow): Promise<void> {
	await upsertRows(deps, database, [row])
	await refreshRowCount(deps, database.id)
}

/** A row the workspace no longer has (trashed by a delivered delete) leaves the mirror at once. */
export async function forgetRow(deps: WorkspaceDeps, databaseId: string, externalId: string): Promise<void> {
	await deps.db
		.delete(workspaceRows)
		.where(and(eq(workspaceRows.databaseId, databaseId), eq(workspaceRows.externalId, externalId)))
	await refreshRowCount(deps, databaseId)
}

async function refreshRowCount(deps: WorkspaceDeps, databaseId: string): Promise<number> {
	const [total] = await deps.db
		.select({ value: count() })
		.from(workspaceRows)
		.where(eq(workspaceRows.databaseId, databaseId))
	const rowCount = total?.value ?? 0
	await deps.db.update(workspaceDatabases).set({ rowCount }).where(eq(workspaceDatabases.id, databaseId))
	return rowCount
}

async function syncDatabase(deps: WorkspaceDeps, databaseId: string, mode: SyncMode): Promise<void> {
	const [row] = await deps.db
		.select({ database: workspaceDatabases, workspace: workspaces })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(eq(workspaceDatabases.id, databaseId))
	if (row?.workspace.tool !== 'notion') {
		return
	}
	let { database } = row
	const { workspace } = row
	const startedAt = new Date()
	await deps.db
		.update(workspaceDatabases)
		.set({ syncState: 'running', updatedAt: startedAt })
		.where(eq(workspaceDatabases.id, database.id))
	const connector = deps.connectors.for(workspace)
	try {
		if (mode !== 'incremental') {
			// The schema may have changed (new property, renamed option); reconciles pick it up.
			const fresh = await connector.getDatabase(database.externalId)
			const siblings = await deps.db
				.select({ id: workspaceDatabases.id, externalId: workspaceDatabases.externalId })
				.from(workspaceDatabases)
				.where(eq(workspaceDatabases.workspaceId, workspace.id))
			const properties = withOurRelationIds(fresh, new Map(siblings.map((s) => [s.externalId, s.id])))
			;[database = database] = await deps.db
				.update(workspaceDatabases)
				.set({ name: fresh.name, icon: fresh.icon, url: fresh.url, properties })
				.where(eq(workspaceDatabases.id, database.id))
				.returning()
		}
		const external: ExternalDatabase = {
			externalId: database.externalId,
			name: database.name,
			icon: database.icon,
			url: database.url,
			properties: database.properties,
		}
		const editedSince = mode === 'full' ? null : (database.editedCursor?.toISOString() ?? null)
		let cursor = database.editedCursor
		// Rows a walk may have missed (more rows in one minute than Notion lets a query tell apart).
		const gaps: ReadGap[] = []
		const onGap = (gap: ReadGap) => {
			gaps.push(gap)
		}
		// A full read sees every live row, so its ids tell which rows vanished; a reconcile reads
		// only recent edits and lists the ids separately.
		const seen = new Set<string>()
		for await (const page of connector.queryRows(external, { editedSince, onGap })) {
			await upsertRows(deps, database, page)
			for (const item of page) {
				seen.add(item.externalId)
				const edited = new Date(item.lastEditedTime)
				if (!cursor || edited > cursor) {
					cursor = edited
				}
			}
		}
		if (mode === 'full') {
			await reconcileRows(deps, database, seen, gaps)
		} else if (mode === 'reconcile') {
			const live = new Set<string>()
			for await (const ids of connector.listRowIds(external, { onGap })) {
				for (const id of ids) {
					live.add(id)
				}
			}
			const missing = await reconcileRows(deps, database, live, gaps)
			await fetchMissingRows(deps, database, missing, (id) => connector.getRow(external, id))
		}
		if (gaps.length > 0) {
			deps.log.warn({ databaseId: database.id, mode, gaps }, 'workspace sync may have missed rows')
		}
		const rowCount = await refreshRowCount(deps, database.id)
		const finishedAt = new Date()
		await deps.db
			.update(workspaceDatabases)
			.set({
				syncState: 'idle',
				editedCursor: cursor,
				lastSyncedAt: finishedAt,
				...(mode === 'incremental' ? {} : { lastReconciledAt: finishedAt }),
				nextSyncAt: new Date(finishedAt.getTime() + deps.sync.incrementalSeconds * 1000),
				lastError: gaps.length > 0 ? describeGaps(gaps) : null,
				rowCount,
				updatedAt: finishedAt,
			})
			.where(eq(workspaceDatabases.id, database.id))
		// Page content comes after, in its own job: the rows are mirrored and the sync is idle already.
		await afterSync(deps, database).catch((error: unknown) => {
			deps.log.warn({ err: error, databaseId: database.id }, 'page content not queued')
		})
	} catch (error) {
		deps.log.warn({ err: error, databaseId: database.id, mode }, 'workspace sync failed')
		await noteWorkspaceError(deps, workspace, error)
		const finishedAt = new Date()
		await deps.db
			.update(workspaceDatabases)
			.set({
				syncState: 'idle',
				lastError: describeError(error),
				nextSyncAt: new Date(finishedAt.getTime() + deps.sync.incrementalSeconds * 1000),
				updatedAt: finishedAt,
			})
			.where(eq(workspaceDatabases.id, database.id))
	}
}

/**
 * Rows the workspace no longer has (deleted, trashed, moved away) leave the mirror, except rows
 * created in a minute a walk could not read in full. Returns the live ids the mirror lacks.
 */
async function reconcileRows(
	deps: WorkspaceDeps,
	database: DatabaseRecord,
	live: ReadonlySet<string>,
	gaps: ReadGap[],
): Promise<string[]> {
	const unsure = new Set(gaps.flatMap((gap) => (gap.createdTime ? [Date.parse(gap.createdTime)] : [])))
	const stored = new Set<string>()
	let lastId = ''
	for (;;) {
		const page = await deps.db
			.select({ id: workspaceRows.id, externalId: workspaceRows.externalId, createdTime: workspaceRows.createdTime })
			.from(workspaceRows)
			.where(and(eq(workspaceRows.databaseId, database.id), sql`${workspaceRows.id} > ${lastId}`))
			.orderBy(workspaceRows.id)
			.limit(5000)
		for (const row of page) {
			stored.add(row.externalId)
		}
		const gone = page
			.filter((row) => !live.has(row.externalId) && !unsure.has(row.createdTime.getTime()))
			.map((row) => row.id)
		if (gone.length > 0) {
			await deps.db.delete(workspaceRows).where(inArray(workspaceRows.id, gone))
		}
		const last = page[page.length - 1]
		if (!last || page.length < 5000) {
			break
		}
		lastId = last.id
	}
	return [...live].filter((id) => !stored.has(id))
}

/**
 * Live rows the mirror lacks (an incremental read that missed them) are read one by one: they
 * are few, unless Notion could not list a bulk import's minute by queries.
 */
async function fetchMissingRows(
	deps: WorkspaceDeps,
	database: DatabaseRecord,
	missing: string[],
	getRow: (externalId: string) => Promise<ExternalRow | null>,
): Promise<void> {
	let batch: ExternalRow[] = []
	for (const externalId of missing) {
		const row = await getRow(externalId)
		if (row) {
			batch.push(row)
		}
		if (batch.length >= 100) {
			await upsertRows(deps, database, batch)
			batch = []
		}
	}
	await upsertRows(deps, database, batch)
}

function describeGaps(gaps: ReadGap[]): string {
	const [first] = gaps
	const more = gaps.length > 1 ? ` (and ${gaps.length - 1} more such slices)` : ''
	return `Some rows may be missing: ${first?.message ?? ''}${more}`.slice(0, 1000)
}

export function describeError(error: unknown): string {
	if (error instanceof ConnectorError) {
		const prefix = {
			invalid: 'Refused by the workspace',
			not_found: 'Not found in the workspace',
			unauthorized: 'The workspace no longer accepts our token; reconnect it',
			forbidden:
				'Notion refused access: share this database with the connection in Notion, or give the connection the capability it needs (read, insert or update content)',
			unavailable: 'The workspace is not answering',
		}[error.kind]
		return `${prefix}: ${error.message}`.slice(0, 1000)
	}
	return error instanceof Error ? error.message.slice(0, 1000) : 'Unknown error'
}
