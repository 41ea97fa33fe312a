// How fresh a portal's data is: its databases' own sync state (pages, companies and members
// databases), read from workspace_databases. Portal pages read the mirror only, so "last
// updated" is the oldest of those databases' last syncs. Built-in databases have no sync: the
// mirror is the data itself, so they report no last sync, nothing running, and "refresh now"
// leaves them as they are.

import type { PortalJobTimer } from '@blocksmith/contracts/portals.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, eq, inArray } from 'drizzle-orm'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import { queueSync } from '#src/workspaces/workspaces.sync.ts'
import type { PortalRecord, PortalsDeps } from './portals.deps.ts'
import { getPortalRecord, type PortalsCtx } from './portals.setup.ts'

type DatabaseSync = typeof workspaceDatabases.$inferSelect

/** The databases a portal reads: its pages', and its companies and members databases. */
function portalDatabaseIds(portal: Pick<PortalRecord, 'pages' | 'access'>): string[] {
	const ids = new Set(portal.pages.map((page) => page.databaseId))
	for (const id of [portal.access.companiesDatabaseId, portal.access.membersDatabaseId]) {
		if (id) {
			ids.add(id)
		}
	}
	return [...ids]
}

async function portalDatabases(
	deps: Pick<PortalsDeps, 'db'>,
	portal: Pick<PortalRecord, 'organizationId' | 'pages' | 'access'>,
): Promise<DatabaseSync[]> {
	const ids = portalDatabaseIds(portal)
	if (ids.length === 0) {
		return []
	}
	// The organization's only: a setup saved earlier may name a database deleted since.
	return deps.db
		.select()
		.from(workspaceDatabases)
		.where(and(eq(workspaceDatabases.organizationId, portal.organizationId), inArray(workspaceDatabases.id, ids)))
		.orderBy(asc(workspaceDatabases.name), asc(workspaceDatabases.id))
}

function oldest(dates: (Date | null)[]): Date | null {
	// A database never synced makes the whole portal "not yet updated".
	if (dates.length === 0 || dates.some((date) => date === null)) {
		return null
	}
	return new Date(Math.min(...dates.map((date) => (date as Date).getTime())))
}

function timerOf(tool: WorkspaceTool, databases: DatabaseSync[]): PortalJobTimer {
	if (tool === 'local') {
		return {
			databases: databases.map((database) => ({
				id: database.id,
				name: database.name,
				state: 'idle' as const,
				lastSyncedAt: null,
				nextSyncAt: null,
				lastError: null,
			})),
			lastSyncedAt: null,
			nextSyncAt: null,
			isRunning: false,
		}
	}
	const next = databases.flatMap((database) => (database.nextSyncAt ? [database.nextSyncAt.getTime()] : []))
	return {
		databases: databases.map((database) => ({
			id: database.id,
			name: database.name,
			state: database.syncState,
			lastSyncedAt: database.lastSyncedAt?.toISOString() ?? null,
			nextSyncAt: database.nextSyncAt?.toISOString() ?? null,
			lastError: database.lastError,
		})),
		lastSyncedAt: oldest(databases.map((database) => database.lastSyncedAt))?.toISOString() ?? null,
		nextSyncAt: next.length > 0 ? new Date(Math.min(...next)).toISOString() : null,
		isRunning: databases.some((database) => database.syncState !== 'idle'),
	}
}

/**
 * When the portal's data was last read from Notion: the oldest last sync of its databases (null
 * when one never synced, and for built-in workspaces, whose mirror is the data itself).
 */
export async function portalLastSyncedAt(
	deps: Pick<PortalsDeps, 'db'>,
	portal: Pick<PortalRecord, 'tool' | 'organizationId' | 'pages' | 'access'>,
): Promise<Date | null> {
	if (portal.tool === 'local') {
		return null
	}
	const databases = await portalDatabases(deps, portal)
	return databases.length === 0 ? null : oldest(databases.map((database) => database.lastSyncedAt))
}

export async function getJobTimer(ctx: PortalsCtx, tool: WorkspaceTool, portalId: string): Promise<PortalJobTimer> {
	const portal = await getPortalRecord(ctx, tool, portalId)
	return timerOf(tool, await portalDatabases(ctx, portal))
}

/**
 * "Refresh now": each Notion database of the portal syncs at once, as the workspace's "sync now"
 * does (a reconcile when it synced before, so deletions are seen too; nothing is queued twice).
 * Built-in databases are always current: nothing to do.
 */
export async function refreshPortal(ctx: PortalsCtx, tool: WorkspaceTool, portalId: string): Promise<PortalJobTimer> {
	const portal = await getPortalRecord(ctx, tool, portalId)
	if (tool === 'notion') {
		for (const database of await portalDatabases(ctx, portal)) {
			await queueSync(ctx.workspaces, database.id, database.lastSyncedAt ? 'reconcile' : 'full')
		}
	}
	return timerOf(tool, await portalDatabases(ctx, portal))
}
