import { randomUUID } from 'node:crypto'
import type { CreateTimeDatabase, TimeDatabase, TimeMapping } from '@blocksmith/contracts/time.ts'
import type { Property, PropertyInput, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, eq } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaces } from '#src/workspaces/workspaces.schema.ts'
import { createLocalDatabase } from '#src/workspaces/workspaces.service.ts'
import { type TimeCtx, workspaceCtxFor } from './time.deps.ts'
import { checkMapping, type MappingTarget, reviewMapping, suggestMapping } from './time.mapping.ts'
import { timeDatabases } from './time.schema.ts'

// Time databases: which of the organization's databases hold time entries and how their
// properties map to an entry. Every read is scoped to the caller's organization and the path's
// tool, so another organization's database (or one of the other tool) reads as 404.

type DatabaseRecord = typeof workspaceDatabases.$inferSelect
type Saved = typeof timeDatabases.$inferSelect

/** Databases of the organization in this tool, with their saved mappings. */
async function databasesOf(ctx: TimeCtx, tool: WorkspaceTool) {
	return ctx.db
		.select({ database: workspaceDatabases, saved: timeDatabases })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.leftJoin(
			timeDatabases,
			and(eq(timeDatabases.databaseId, workspaceDatabases.id), eq(timeDatabases.organizationId, ctx.orgId)),
		)
		.where(and(eq(workspaceDatabases.organizationId, ctx.orgId), eq(workspaces.tool, tool)))
		.orderBy(asc(workspaceDatabases.name))
}

/** The entries' database and the databases its relations point at (the projects', for a client through the project). */
export function mappingTarget(database: DatabaseRecord, all: DatabaseRecord[]): MappingTarget {
	const byId = new Map(all.map((record) => [record.id, record]))
	return {
		properties: database.properties,
		projectProperties: (projectPropertyId) => {
			const relation = database.properties.find((p) => p.id === projectPropertyId)
			const related = relation?.relationDatabaseId ? byId.get(relation.relationDatabaseId) : undefined
			return related?.properties ?? []
		},
	}
}

/** A database can hold entries when it has somewhere to put the time: a date, or a number for a duration. */
function canHoldEntries(properties: Property[]): boolean {
	return properties.some((p) => p.type === 'date' || p.type === 'number')
}

function toTimeDatabase(
	database: DatabaseRecord,
	saved: Saved | null,
	all: DatabaseRecord[],
	tool: WorkspaceTool,
): TimeDatabase {
	const target = mappingTarget(database, all)
	return {
		id: database.id,
		workspaceId: database.workspaceId,
		tool,
		name: database.name,
		icon: database.icon,
		saved: saved ? reviewMapping(saved.mapping, target) : null,
		suggested: reviewMapping(suggestMapping(target), target),
		updatedAt: saved?.updatedAt.toISOString() ?? null,
	}
}

export async function listTimeDatabases(ctx: TimeCtx, tool: WorkspaceTool): Promise<TimeDatabase[]> {
	const rows = await databasesOf(ctx, tool)
	const all = rows.map((row) => row.database)
	return rows
		.filter((row) => row.saved || canHoldEntries(row.database.properties))
		.map((row) => toTimeDatabase(row.database, row.saved, all, tool))
}

/** One database of the caller's organization in this tool, with the rest for its relations; 404 otherwise. */
export async function findTimeDatabase(ctx: TimeCtx, tool: WorkspaceTool, id: string) {
	const rows = await databasesOf(ctx, tool)
	const row = rows.find((candidate) => candidate.database.id === id)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such database.' })
	}
	return { ...row, all: rows.map((candidate) => candidate.database) }
}

export async function getTimeDatabase(ctx: TimeCtx, tool: WorkspaceTool, id: string): Promise<TimeDatabase> {
	const { database, saved, all } = await findTimeDatabase(ctx, tool, id)
	return toTimeDatabase(database, saved, all, tool)
}

/** Saves the mapping once it fits the database as it is now (400 naming `mapping.<field>` otherwise). */
export async function saveMapping(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	id: string,
	mapping: TimeMapping,
): Promise<TimeDatabase> {
	const { database, all } = await findTimeDatabase(ctx, tool, id)
	checkMapping(mapping, mappingTarget(database, all))
	const now = new Date()
	const [saved] = await ctx.db
		.insert(timeDatabases)
		.values({ id: randomUUID(), organizationId: ctx.orgId, databaseId: database.id, mapping, createdBy: ctx.userId })
		.onConflictDoUpdate({
			target: [timeDatabases.organizationId, timeDatabases.databaseId],
			set: { mapping, updatedAt: now },
		})
		.returning()
	return toTimeDatabase(database, saved ?? null, all, tool)
}

/** Forgets the mapping: the database's rows stay as they are. */
export async function removeMapping(ctx: TimeCtx, tool: WorkspaceTool, id: string): Promise<void> {
	const { database } = await findTimeDatabase(ctx, tool, id)
	await ctx.db
		.delete(timeDatabases)
		.where(and(eq(timeDatabases.databaseId, database.id), eq(timeDatabases.organizationId, ctx.orgId)))
}

/**
 * A new time entries database in a built-in workspace, its mapping saved: the title is the
 * description, one date holds start and end, the hours are filled in when an entry stops. The
 * project is a relation to the projects database named (or the workspace's database called
 * "Projects"), whose client relation gives the entry's client.
 */
export async function createTimeDatabase(ctx: TimeCtx, input: CreateTimeDatabase): Promise<TimeDatabase> {
	const [workspace] = await ctx.db
		.select({ id: workspaces.id })
		.from(workspaces)
		.where(
			and(eq(workspaces.id, input.workspaceId), eq(workspaces.organizationId, ctx.orgId), eq(workspaces.tool, 'local')),
		)
	if (!workspace) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'workspaceId', message: 'Choose one of your built-in workspaces.' }],
		})
	}
	const siblings = await ctx.db
		.select({ id: workspaceDatabases.id, name: workspaceDatabases.name })
		.from(workspaceDatabases)
		.where(and(eq(workspaceDatabases.workspaceId, workspace.id), eq(workspaceDatabases.organizationId, ctx.orgId)))
	const projects = input.projectsDatabaseId
		? siblings.find((sibling) => sibling.id === input.projectsDatabaseId)
		: siblings.find((sibling) => /\bprojects?\b/i.test(sibling.name))
	if (input.projectsDatabaseId && !projects) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'projectsDatabaseId', message: 'Choose a database of the same workspace.' }],
		})
	}
	const properties: PropertyInput[] = [
		{ name: 'Description', type: 'title' },
		{ name: 'When', type: 'date' },
		{ name: 'Hours', type: 'number', format: 'number' },
		{ name: 'Person', type: 'people' },
		...(projects ? [{ name: 'Project', type: 'relation' as const, relationDatabaseId: projects.id }] : []),
		{ name: 'Task', type: 'rich_text' },
		{
			name: 'Tags',
			type: 'multi_select',
			options: [
				{ name: 'Meeting', color: 'yellow' },
				{ name: 'Deep work', color: 'blue' },
				{ name: 'Admin', color: 'gray' },
			],
		},
		{ name: 'Billable', type: 'checkbox' },
	]
	const created = await createLocalDatabase(workspaceCtxFor(ctx), {
		workspaceId: workspace.id,
		name: input.name ?? 'Time entries',
		properties,
	})
	const { database, all } = await findTimeDatabase(ctx, 'local', created.id)
	const mapping = suggestMapping(mappingTarget(database, all))
	return saveMapping(ctx, 'local', created.id, mapping)
}
