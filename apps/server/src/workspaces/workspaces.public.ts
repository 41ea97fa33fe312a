import { searchOnlyChoices } from '@blocksmith/contracts/forms.ts'
import type { Property, PublicDatabase, WorkspaceTool, WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import { filtersSql } from './rows.query.ts'
import type { PublicGrant, PublicRowScope, WorkspaceDeps } from './workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaces } from './workspaces.schema.ts'

// Scoped public reads: a published object (a form, a chart, a portal) decides what anonymous
// visitors may read of a workspace — which databases, which properties and rows, which people.
// Modules register a resolver for their kind; a scope nobody grants reads as 404. Row scopes are
// applied in SQL: rows outside them never leave the database.

const choicesLimit = 100

type PublicQuery = {
	scope: string
	database?: string | undefined
	search?: string | undefined
	field?: string | undefined
}

function nothingHere(): AppError {
	return new AppError('NOT_FOUND', { detail: 'Nothing is published here.' })
}

async function grantOf(deps: WorkspaceDeps, query: PublicQuery): Promise<PublicGrant> {
	const separator = query.scope.indexOf(':')
	const resolver = separator > 0 ? deps.publicScopes.get(query.scope.slice(0, separator)) : undefined
	const grant = resolver
		? await resolver(deps.db, query.scope.slice(separator + 1), query.field ? { field: query.field } : {})
		: null
	if (!grant) {
		throw nothingHere()
	}
	return grant
}

/** Whether a search-only list may answer `search`: nothing is listed below the minimum. */
function isSearchLongEnough(search: string): boolean {
	return search.length >= searchOnlyChoices.minChars
}

/** The rows a scope lets visitors see, matching `search` when given: ids and titles only. */
async function publicRows(
	deps: WorkspaceDeps,
	orgId: string,
	database: { id: string; properties: Property[] },
	scope: PublicRowScope,
	search: string,
): Promise<PublicDatabase['rows']> {
	let limit = choicesLimit
	const conditions: SQL[] = []
	if (scope.mode === 'search') {
		if (!isSearchLongEnough(search)) {
			return []
		}
		limit = searchOnlyChoices.maxResults
	} else if (scope.mode === 'ids') {
		if (scope.ids.length === 0) {
			return []
		}
		conditions.push(inArray(workspaceRows.externalId, scope.ids))
	}
	try {
		conditions.push(...filtersSql(database.properties, scope.mode === 'filter' ? scope.filters : [], search))
	} catch (error) {
		if (!(error instanceof AppError)) {
			throw error
		}
		// A filter the related database no longer fits (a property removed since it was saved):
		// visitors get no choices rather than more than the owner meant, or a problem about it.
		deps.log.warn({ databaseId: database.id, err: error }, 'public choices filter no longer applies')
		return []
	}
	return deps.db
		.select({ id: workspaceRows.externalId, title: workspaceRows.title })
		.from(workspaceRows)
		.where(and(eq(workspaceRows.databaseId, database.id), eq(workspaceRows.organizationId, orgId), ...conditions))
		.orderBy(asc(workspaceRows.title), asc(workspaceRows.id))
		.limit(limit)
}

/** The slice of a database a published object exposes: its allowed properties and row choices. */
export async function readPublicDatabase(
	deps: WorkspaceDeps,
	tool: WorkspaceTool,
	query: PublicQuery,
): Promise<PublicDatabase[]> {
	const grant = await grantOf(deps, query)
	const ids = query.database ? [query.database] : [...grant.databases.keys()]
	const search = query.search?.trim() ?? ''
	const result: PublicDatabase[] = []
	for (const id of ids) {
		const allowed = grant.databases.get(id)
		if (!allowed) {
			throw nothingHere()
		}
		const [record] = await deps.db
			.select({ database: workspaceDatabases })
			.from(workspaceDatabases)
			.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
			.where(
				and(
					eq(workspaceDatabases.id, id),
					eq(workspaceDatabases.organizationId, grant.orgId),
					eq(workspaces.tool, tool),
				),
			)
		if (!record) {
			throw nothingHere()
		}
		result.push({
			id,
			name: record.database.name,
			properties: record.database.properties.filter((p) => allowed.propertyIds.includes(p.id)),
			rows: await publicRows(deps, grant.orgId, record.database, allowed.rows, search),
		})
	}
	return result
}

/** The people a published object lets visitors choose from: names only, never e-mail addresses. */
export async function readPublicUsers(
	deps: WorkspaceDeps,
	tool: WorkspaceTool,
	query: PublicQuery,
	listUsers: (orgId: string, workspaceId: string) => Promise<WorkspaceUser[]>,
): Promise<WorkspaceUser[]> {
	const grant = await grantOf(deps, query)
	const people = grant.people
	if (!people) {
		throw nothingHere()
	}
	const [workspace] = await deps.db
		.select({ tool: workspaces.tool })
		.from(workspaces)
		.where(and(eq(workspaces.id, people.workspaceId), eq(workspaces.organizationId, grant.orgId)))
	if (!workspace || workspace.tool !== tool) {
		throw nothingHere()
	}
	const search = query.search?.trim().toLowerCase() ?? ''
	if (people.searchOnly && !isSearchLongEnough(search)) {
		return []
	}
	let users = await listUsers(grant.orgId, people.workspaceId)
	if (people.ids) {
		const ids = new Set(people.ids)
		users = users.filter((user) => ids.has(user.id))
	}
	if (search) {
		users = users.filter((user) => user.name.toLowerCase().includes(search))
	}
	if (people.searchOnly) {
		users = users
			.filter((user) => user.type === 'person')
			.sort((a, b) => a.name.localeCompare(b.name))
			.slice(0, searchOnlyChoices.maxResults)
	}
	return users.map((user) => ({ ...user, email: null }))
}
