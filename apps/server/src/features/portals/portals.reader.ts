import type { PortalPage } from '@blocksmith/contracts/portals.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray, type SQL } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaceRows, workspaces } from '#src/workspaces/workspaces.schema.ts'
import type { PortalMemberContext, PortalRecord, PortalsDeps } from './portals.deps.ts'
import { grantedRows } from './portals.rules.ts'

// What one member's request may read of a portal, resolved once per request: each page with its
// database as it is now, the properties it shows, and the SQL condition of the rows it grants.
// A page whose database is gone, or whose rule no longer applies to it, is left out: it answers
// 404 like a page that never existed (never all rows).

export type PortalPageContext = {
	page: PortalPage
	tool: WorkspaceTool
	/** Every property of the database: what filters and rules are checked against. */
	properties: Property[]
	/** The title first, then the page's chosen properties still in the database: all that is sent. */
	shown: Property[]
	/** organization, database and rule. */
	granted: SQL
	lastSyncedAt: Date | null
}

export type PortalReader = {
	deps: PortalsDeps
	portal: PortalRecord
	member: PortalMemberContext
	/** The pages that can be served, in the portal's order. */
	pages: Map<string, PortalPageContext>
}

export async function portalReader(
	deps: PortalsDeps,
	portal: PortalRecord,
	member: PortalMemberContext,
): Promise<PortalReader> {
	const databaseIds = [...new Set(portal.pages.map((page) => page.databaseId))]
	const databases =
		databaseIds.length === 0
			? []
			: await deps.db
					.select({
						id: workspaceDatabases.id,
						properties: workspaceDatabases.properties,
						lastSyncedAt: workspaceDatabases.lastSyncedAt,
						tool: workspaces.tool,
					})
					.from(workspaceDatabases)
					.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
					.where(
						and(
							inArray(workspaceDatabases.id, databaseIds),
							eq(workspaceDatabases.organizationId, portal.organizationId),
						),
					)
	const byId = new Map(databases.map((database) => [database.id, database]))
	const pages = new Map<string, PortalPageContext>()
	for (const page of portal.pages) {
		const database = byId.get(page.databaseId)
		if (!database || database.tool !== portal.tool || pages.has(page.id)) {
			continue
		}
		const granted = grantedRows(page, { ...member, orgId: portal.organizationId }, database.properties)
		if (!granted) {
			deps.log.warn({ portalId: portal.id, pageId: page.id }, 'portal page rule no longer applies to its database')
			continue
		}
		const title = database.properties.find((property) => property.type === 'title')
		const chosen = page.properties.flatMap((id) => {
			const property = database.properties.find((candidate) => candidate.id === id)
			return property && property.type !== 'title' ? [property] : []
		})
		pages.set(page.id, {
			page,
			tool: database.tool,
			properties: database.properties,
			shown: [...(title ? [title] : []), ...chosen],
			granted,
			lastSyncedAt: database.lastSyncedAt,
		})
	}
	return { deps, portal, member, pages }
}

export function pageOf(reader: PortalReader, pageId: string): PortalPageContext {
	const page = reader.pages.get(pageId)
	if (!page) {
		throw new AppError('NOT_FOUND', { detail: 'There is no such page in this portal.' })
	}
	return page
}

const notFoundRow = 'There is no such row on this page.'

/** A row by its external id, only when the page's rule grants it: else 404, as a row that does not exist. */
export async function readGrantedRow(reader: PortalReader, pageId: string, rowId: string) {
	const page = pageOf(reader, pageId)
	const [row] = await reader.deps.db
		.select({
			id: workspaceRows.id,
			externalId: workspaceRows.externalId,
			title: workspaceRows.title,
			values: workspaceRows.values,
		})
		.from(workspaceRows)
		.where(and(page.granted, eq(workspaceRows.externalId, rowId)))
		.limit(1)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: notFoundRow })
	}
	return { page, row }
}

/**
 * When the data members see was last read from the workspace: the oldest last sync of the
 * pages' databases (null when one never synced). Built-in databases are the data itself: null.
 */
export function readerLastSyncedAt(reader: PortalReader, pages = [...reader.pages.values()]): string | null {
	if (reader.portal.tool === 'local' || pages.length === 0) {
		return null
	}
	let oldest: Date | null = null
	for (const page of pages) {
		if (!page.lastSyncedAt) {
			return null
		}
		if (!oldest || page.lastSyncedAt < oldest) {
			oldest = page.lastSyncedAt
		}
	}
	return oldest ? oldest.toISOString() : null
}
