import type { PublicDatabase, WorkspaceTool, WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, eq, ilike } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import type { PublicGrant, WorkspaceDeps } from './workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaces } from './workspaces.schema.ts'

// Scoped public reads: a published object (a form, a chart, a portal) decides what anonymous
// visitors may read of a workspace — which databases, which properties, whether its people.
// Modules register a resolver for their kind; a scope nobody grants reads as 404.

const choicesLimit = 100

async function grantOf(deps: WorkspaceDeps, scope: string): Promise<PublicGrant> {
	const separator = scope.indexOf(':')
	const resolver = separator > 0 ? deps.publicScopes.get(scope.slice(0, separator)) : undefined
	const grant = resolver ? await resolver(deps.db, scope.slice(separator + 1)) : null
	if (!grant) {
		throw new AppError('NOT_FOUND', { detail: 'Nothing is published here.' })
	}
	return grant
}

/** The slice of a database a published object exposes: its allowed properties and row choices. */
export async function readPublicDatabase(
	deps: WorkspaceDeps,
	tool: WorkspaceTool,
	query: { scope: string; database?: string | undefined; search?: string | undefined },
): Promise<PublicDatabase[]> {
	const grant = await grantOf(deps, query.scope)
	const ids = query.database ? [query.database] : [...grant.databases.keys()]
	const result: PublicDatabase[] = []
	for (const id of ids) {
		const allowed = grant.databases.get(id)
		if (!allowed) {
			throw new AppError('NOT_FOUND', { detail: 'Nothing is published here.' })
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
			throw new AppError('NOT_FOUND', { detail: 'Nothing is published here.' })
		}
		const conditions = [eq(workspaceRows.databaseId, id), eq(workspaceRows.organizationId, grant.orgId)]
		if (query.search?.trim()) {
			conditions.push(ilike(workspaceRows.title, `%${query.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`))
		}
		const rows = await deps.db
			.select({ id: workspaceRows.externalId, title: workspaceRows.title })
			.from(workspaceRows)
			.where(and(...conditions))
			.orderBy(asc(workspaceRows.title))
			.limit(choicesLimit)
		result.push({
			id,
			name: record.database.name,
			properties: record.database.properties.filter((p) => allowed.includes(p.id)),
			rows,
		})
	}
	return result
}

export async function readPublicUsers(
	deps: WorkspaceDeps,
	tool: WorkspaceTool,
	scope: string,
	listUsers: (orgId: string, workspaceId: string) => Promise<WorkspaceUser[]>,
): Promise<WorkspaceUser[]> {
	const grant = await grantOf(deps, scope)
	if (!grant.peopleWorkspaceId) {
		throw new AppError('NOT_FOUND', { detail: 'Nothing is published here.' })
	}
	const [workspace] = await deps.db
		.select({ tool: workspaces.tool })
		.from(workspaces)
		.where(and(eq(workspaces.id, grant.peopleWorkspaceId), eq(workspaces.organizationId, grant.orgId)))
	if (!workspace || workspace.tool !== tool) {
		throw new AppError('NOT_FOUND', { detail: 'Nothing is published here.' })
	}
	// Visitors see names to choose from, never e-mail addresses.
	const users = await listUsers(grant.orgId, grant.peopleWorkspaceId)
	return users.map((user) => ({ ...user, email: null }))
}
