import { randomUUID } from 'node:crypto'
import type { FieldError } from '@blocksmith/contracts/errors.ts'
import type { AnyTimer, StartTimer, TimeEntry, TimeMapping } from '@blocksmith/contracts/time.ts'
import type { Property, PropertyValue, RowValues, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray, isNull } from 'drizzle-orm'
import { users } from '#src/core/auth/auth.schema.ts'
import { AppError } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaceRows, workspaces, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import { listUsers } from '#src/workspaces/workspaces.service.ts'
import { queueDelivery, storeWrite } from '#src/workspaces/workspaces.writes.ts'
import { type TimeCtx, workspaceCtxFor } from './time.deps.ts'
import { checkMapping } from './time.mapping.ts'
import { canChangeEntry, timeRefusals } from './time.policy.ts'
import { timeDatabases, timeEntries } from './time.schema.ts'
import { findTimeDatabase, mappingTarget } from './time.service.ts'

// The timer: one running entry per person per organization (a unique index), kept on our side
// so every load, tab and device reads the same one. Starting stores the row's create in the
// write queue with the entry, in one transaction; stopping stores an update that is delivered
// after the entry's last write (the create, until then), so a stop made while Notion is down,
// or before the create was delivered, still lands on the row the start creates, once.

type EntryRecord = typeof timeEntries.$inferSelect
/** What an entry says besides its time. */
type EntryDetails = Pick<StartTimer, 'description' | 'project' | 'task' | 'tags' | 'billable'>

export function invalid(errors: FieldError[]): never {
	throw new AppError('VALIDATION_FAILED', { detail: errors[0]?.message ?? 'Invalid entry.', errors })
}

/** Entries with their row (once created) and the state of their last write. */
export async function toEntries(ctx: TimeCtx, records: EntryRecord[]): Promise<TimeEntry[]> {
	if (records.length === 0) {
		return []
	}
	const writeIds = [...new Set(records.flatMap((record) => [record.createWriteId, record.lastWriteId]))]
	const writes = await ctx.db
		.select({ id: workspaceWrites.id, state: workspaceWrites.state, rowId: workspaceRows.id })
		.from(workspaceWrites)
		.leftJoin(
			workspaceRows,
			and(
				eq(workspaceRows.databaseId, workspaceWrites.databaseId),
				eq(workspaceRows.externalId, workspaceWrites.externalRowId),
			),
		)
		.where(and(inArray(workspaceWrites.id, writeIds), eq(workspaceWrites.organizationId, ctx.orgId)))
	const writeOf = new Map(writes.map((write) => [write.id, write]))
	return records.map((record) => ({
		id: record.id,
		databaseId: record.databaseId,
		userId: record.userId,
		startedAt: record.startedAt.toISOString(),
		endedAt: record.endedAt?.toISOString() ?? null,
		isRunning: record.endedAt === null,
		description: record.description,
		project: record.project,
		task: record.task,
		tags: record.tags,
		billable: record.billable,
		rowId: writeOf.get(record.createWriteId)?.rowId ?? null,
		delivery: writeOf.get(record.lastWriteId)?.state ?? 'pending',
	}))
}

/** Entries with their database's workspace: every caller filters by organization and tool. */
export function entriesWithTool(ctx: TimeCtx) {
	return ctx.db
		.select({ entry: timeEntries })
		.from(timeEntries)
		.innerJoin(workspaceDatabases, eq(workspaceDatabases.id, timeEntries.databaseId))
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.$dynamic()
}

/** The caller's running entry in this tool's databases, or null. */
export async function currentTimer(ctx: TimeCtx, tool: WorkspaceTool): Promise<TimeEntry | null> {
	const [row] = await entriesWithTool(ctx).where(
		and(
			eq(timeEntries.organizationId, ctx.orgId),
			eq(workspaces.tool, tool),
			eq(timeEntries.userId, ctx.userId),
			isNull(timeEntries.endedAt),
			isNull(timeEntries.deletedAt),
		),
	)
	const [entry] = await toEntries(ctx, row ? [row.entry] : [])
	return entry ?? null
}

/**
 * The caller's running entry whatever its tool (one per person per organization), with what the
 * app's header shows beside it: the database's name and the project's (a related row's title,
 * or the select option itself).
 */
export async function anyTimer(ctx: TimeCtx): Promise<AnyTimer> {
	const [row] = await ctx.db
		.select({
			entry: timeEntries,
			tool: workspaces.tool,
			databaseName: workspaceDatabases.name,
			properties: workspaceDatabases.properties,
			mapping: timeDatabases.mapping,
		})
		.from(timeEntries)
		.innerJoin(workspaceDatabases, eq(workspaceDatabases.id, timeEntries.databaseId))
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.leftJoin(
			timeDatabases,
			and(eq(timeDatabases.databaseId, timeEntries.databaseId), eq(timeDatabases.organizationId, ctx.orgId)),
		)
		.where(
			and(
				eq(timeEntries.organizationId, ctx.orgId),
				eq(timeEntries.userId, ctx.userId),
				isNull(timeEntries.endedAt),
				isNull(timeEntries.deletedAt),
			),
		)
	if (!row) {
		return { entry: null, tool: null, databaseName: null, projectName: null }
	}
	const [entry] = await toEntries(ctx, [row.entry])
	const project = row.entry.project
	const property = row.properties.find((p) => p.id === row.mapping?.project)
	let projectName = project
	if (project && property?.type === 'relation') {
		const [related] = await ctx.db
			.select({ title: workspaceRows.title })
			.from(workspaceRows)
			.where(and(eq(workspaceRows.id, project), eq(workspaceRows.organizationId, ctx.orgId)))
		projectName = related?.title ?? null
	}
	return { entry: entry ?? null, tool: row.tool, databaseName: row.databaseName, projectName }
}

/** The person's value in the workspace: the member for a built-in one, their Notion user (same e-mail) in Notion. */
export async function personValue(ctx: TimeCtx, tool: WorkspaceTool, workspaceId: string): Promise<string[] | null> {
	if (tool === 'local') {
		return [ctx.userId]
	}
	const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, ctx.userId))
	try {
		const people = await listUsers(workspaceCtxFor(ctx), 'notion', workspaceId)
		const match = people.find((person) => person.email && person.email.toLowerCase() === user?.email.toLowerCase())
		return match ? [match.id] : null
	} catch (error) {
		// Notion not answering must not stop the timer: the row is written without the person.
		ctx.log.warn({ err: error }, 'people of the Notion workspace not read; the entry is written without its person')
		return null
	}
}

/** The project as its property stores it: a related row's id in the workspace, or a select option. */
async function projectValue(ctx: TimeCtx, property: Property, project: string): Promise<PropertyValue> {
	if (property.type === 'select') {
		const option = property.options?.find((candidate) => candidate.name === project || candidate.id === project)
		return option
			? option.name
			: invalid([{ field: 'project', message: `${property.name} has no option "${project}".` }])
	}
	const [row] = property.relationDatabaseId
		? await ctx.db
				.select({ externalId: workspaceRows.externalId })
				.from(workspaceRows)
				.where(
					and(
						eq(workspaceRows.id, project),
						eq(workspaceRows.databaseId, property.relationDatabaseId),
						eq(workspaceRows.organizationId, ctx.orgId),
					),
				)
		: []
	return row ? [row.externalId] : invalid([{ field: 'project', message: 'No such project.' }])
}

/** The row's values for a new entry, written only where the mapping has a property. */
export async function startValues(
	ctx: TimeCtx,
	mapping: TimeMapping,
	properties: Property[],
	input: EntryDetails,
	startedAt: Date,
	person: string[] | null,
): Promise<RowValues> {
	const byId = new Map(properties.map((p) => [p.id, p]))
	const values: RowValues = {}
	if (mapping.start) {
		values[mapping.start] = { start: startedAt.toISOString(), end: null, timeZone: null }
	}
	if (mapping.person && person) {
		values[mapping.person] = person
	}
	const project = mapping.project ? byId.get(mapping.project) : undefined
	if (input.project) {
		if (!project) {
			invalid([{ field: 'project', message: 'This database has no project property.' }])
		}
		values[project.id] = await projectValue(ctx, project, input.project)
	}
	const tags = mapping.tags ? byId.get(mapping.tags) : undefined
	if (input.tags && input.tags.length > 0) {
		const unknown = input.tags.find((tag) => !tags?.options?.some((option) => option.name === tag))
		if (!tags || unknown) {
			invalid([
				{ field: 'tags', message: tags ? `${tags.name} has no option "${unknown}".` : 'This database has no tags.' },
			])
		}
		values[tags.id] = input.tags
	}
	if (mapping.billable && input.billable !== null && input.billable !== undefined) {
		values[mapping.billable] = input.billable
	}
	const task = mapping.task ? byId.get(mapping.task) : undefined
	if (input.task && task && task.id !== mapping.description) {
		if (task.type === 'relation') {
			values[task.id] = await projectValue(ctx, task, input.task).catch(() =>
				invalid([{ field: 'task', message: 'No such task.' }]),
			)
		} else {
			values[task.id] = input.task
		}
	}
	// One text for a title that holds both the task and the description.
	const text = input.description ?? (task?.id === mapping.description ? input.task : null)
	if (mapping.description && text) {
		values[mapping.description] = text
	}
	return values
}

/** The saved mapping of a database, still fitting its properties; 400 naming `databaseId` when there is none. */
export async function mappedDatabase(ctx: TimeCtx, tool: WorkspaceTool, databaseId: string) {
	const found = await findTimeDatabase(ctx, tool, databaseId).catch((error: unknown) => {
		if (error instanceof AppError && error.code === 'NOT_FOUND') {
			return null
		}
		throw error
	})
	if (!found?.saved) {
		invalid([{ field: 'databaseId', message: 'Choose a database whose properties are mapped for time tracking.' }])
	}
	try {
		checkMapping(found.saved.mapping, mappingTarget(found.database, found.all))
	} catch {
		throw new AppError('CONFLICT', {
			detail: 'The database changed since its mapping was saved. Map its properties again.',
		})
	}
	return { database: found.database, mapping: found.saved.mapping }
}

/**
 * Stores an entry with its row's create in the write queue, in one transaction, and queues the
 * create. The running index refuses a second timer started at the same moment: nothing is
 * stored then (409).
 */
export async function storeEntry(
	ctx: TimeCtx,
	database: typeof workspaceDatabases.$inferSelect,
	details: EntryDetails,
	values: RowValues,
	times: { startedAt: Date; endedAt: Date | null; personRef?: string | null },
): Promise<EntryRecord> {
	const id = randomUUID()
	return ctx.db.transaction(async (tx) => {
		const write = await storeWrite(
			{ ...workspaceCtxFor(ctx), db: tx },
			{ databaseId: database.id, values, source: `time:${id}` },
			database,
		)
		const [inserted] = await tx
			.insert(timeEntries)
			.values({
				id,
				organizationId: ctx.orgId,
				userId: ctx.userId,
				databaseId: database.id,
				createWriteId: write.id,
				lastWriteId: write.id,
				startedAt: times.startedAt,
				endedAt: times.endedAt,
				description: details.description ?? null,
				project: details.project ?? null,
				task: details.task ?? null,
				tags: details.tags ?? [],
				billable: details.billable ?? null,
				personRef: times.personRef ?? null,
			})
			.onConflictDoNothing()
			.returning()
		if (!inserted) {
			throw new AppError('CONFLICT', { detail: 'Your timer is already running. Stop it first.' })
		}
		await queueDelivery(ctx.workspaces, write.id, tx)
		return inserted
	})
}

/** Starts the caller's timer: 409 while one runs (in any database of the organization). */
export async function startTimer(ctx: TimeCtx, tool: WorkspaceTool, input: StartTimer): Promise<TimeEntry> {
	const { database, mapping } = await mappedDatabase(ctx, tool, input.databaseId)
	const running = await ctx.db
		.select({ id: timeEntries.id })
		.from(timeEntries)
		.where(
			and(eq(timeEntries.organizationId, ctx.orgId), eq(timeEntries.userId, ctx.userId), isNull(timeEntries.endedAt)),
		)
	if (running.length > 0) {
		throw new AppError('CONFLICT', { detail: 'Your timer is already running. Stop it first.' })
	}
	const startedAt = ctx.now()
	const person = mapping.person ? await personValue(ctx, tool, database.workspaceId) : null
	const values = await startValues(ctx, mapping, database.properties, input, startedAt, person)
	const record = await storeEntry(ctx, database, input, values, {
		startedAt,
		endedAt: null,
		personRef: person?.[0] ?? null,
	})
	const [entry] = await toEntries(ctx, [record])
	return entry as TimeEntry
}

/** Starts the timer again on a past entry of the caller's: the same database, project, task, tags and description. */
export async function continueEntry(ctx: TimeCtx, tool: WorkspaceTool, entryId: string): Promise<TimeEntry> {
	const [row] = await entriesWithTool(ctx).where(
		and(
			eq(timeEntries.organizationId, ctx.orgId),
			eq(workspaces.tool, tool),
			eq(timeEntries.id, entryId),
			isNull(timeEntries.deletedAt),
		),
	)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such entry.' })
	}
	const { entry } = row
	if (!canChangeEntry(entry, ctx.userId)) {
		throw new AppError('FORBIDDEN', { detail: timeRefusals.changeEntry })
	}
	return startTimer(ctx, tool, {
		databaseId: entry.databaseId,
		description: entry.description,
		project: entry.project,
		task: entry.task,
		tags: entry.tags,
		billable: entry.billable,
	})
}

/** The row's values once an entry ends: the end (or the range's end) and the duration. */
export function stopValues(mapping: TimeMapping, entry: EntryRecord, endedAt: Date): RowValues {
	const values: RowValues = {}
	const start = entry.startedAt.toISOString()
	const end = endedAt.toISOString()
	if (mapping.end && mapping.end === mapping.start) {
		values[mapping.end] = { start, end, timeZone: null }
	} else if (mapping.end) {
		values[mapping.end] = { start: end, end: null, timeZone: null }
	}
	if (mapping.duration) {
		const ms = endedAt.getTime() - entry.startedAt.getTime()
		// Hours to 1/10,000 (0.36 s), minutes to 1/100: exact enough, and short in the workspace.
		values[mapping.duration] =
			mapping.durationUnit === 'minutes' ? Math.round(ms / 600) / 100 : Math.round(ms / 360) / 10_000
	}
	return values
}

/**
 * Stops a running entry: the caller's current one, or the one named (403 when it is another
 * person's, 404 in another organization or tool). 409 when it is not running.
 */
export async function stopTimer(ctx: TimeCtx, tool: WorkspaceTool, entryId?: string): Promise<TimeEntry> {
	const [row] = await entriesWithTool(ctx).where(
		and(
			eq(timeEntries.organizationId, ctx.orgId),
			eq(workspaces.tool, tool),
			isNull(timeEntries.deletedAt),
			entryId ? eq(timeEntries.id, entryId) : and(eq(timeEntries.userId, ctx.userId), isNull(timeEntries.endedAt)),
		),
	)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: entryId ? 'No such entry.' : 'Your timer is not running.' })
	}
	const entry = row.entry
	if (!canChangeEntry(entry, ctx.userId)) {
		throw new AppError('FORBIDDEN', { detail: timeRefusals.changeEntry })
	}
	if (entry.endedAt) {
		throw new AppError('CONFLICT', { detail: 'This entry is already stopped.' })
	}
	const found = await findTimeDatabase(ctx, tool, entry.databaseId)
	// Stopped by the mapping it was started with, as far as the database still has it.
	const mapping = found.saved?.mapping ?? null
	const endedAt = new Date(Math.max(ctx.now().getTime(), entry.startedAt.getTime()))
	const values = mapping ? stopValues(mapping, entry, endedAt) : {}
	const record = await ctx.db.transaction(async (tx) => {
		const write = await storeWrite(
			{ ...workspaceCtxFor(ctx), db: tx },
			{ databaseId: entry.databaseId, after: entry.lastWriteId, values, source: `time:${entry.id}` },
			found.database,
		)
		// Only a running entry stops, and only after the write read above: a stop racing another
		// change stores nothing, so the row's writes stay one chain.
		const [stopped] = await tx
			.update(timeEntries)
			.set({ endedAt, lastWriteId: write.id, updatedAt: new Date() })
			.where(
				and(eq(timeEntries.id, entry.id), isNull(timeEntries.endedAt), eq(timeEntries.lastWriteId, entry.lastWriteId)),
			)
			.returning()
		if (!stopped) {
			throw new AppError('CONFLICT', { detail: 'This entry changed meanwhile. Try again.' })
		}
		await queueDelivery(ctx.workspaces, write.id, tx)
		return stopped
	})
	const [stopped] = await toEntries(ctx, [record])
	return stopped as TimeEntry
}
