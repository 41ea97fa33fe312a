import type { CreateEntry, TimeEntry, TimeMapping, UpdateEntry } from '@blocksmith/contracts/time.ts'
import { maxEntrySeconds } from '@blocksmith/contracts/time.ts'
import type { Property, RowValues, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, desc, eq, isNull } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import { workspaces } from '#src/workspaces/workspaces.schema.ts'
import { queueDelivery, storeWrite } from '#src/workspaces/workspaces.writes.ts'
import { type TimeCtx, workspaceCtxFor } from './time.deps.ts'
import { parseDurationField } from './time.duration.ts'
import { canChangeEntry, timeRefusals } from './time.policy.ts'
import { timeEntries } from './time.schema.ts'
import {
	entriesWithTool,
	invalid,
	mappedDatabase,
	personValue,
	startValues,
	stopValues,
	storeEntry,
	toEntries,
} from './time.timer.ts'

// Manual entries and edits: a row written whole through the write queue, and each change to it
// delivered after the one before (`lastWriteId`), so edits reach the workspace in the order
// they were made. Deleting one is the same kind of write (time.delete.ts).

type EntryRecord = typeof timeEntries.$inferSelect

/** The caller's entries tracked here in this tool's databases, newest first. */
export async function listEntries(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	query: { databaseId?: string | undefined; limit: number },
): Promise<TimeEntry[]> {
	const conditions = [
		eq(timeEntries.organizationId, ctx.orgId),
		eq(workspaces.tool, tool),
		eq(timeEntries.userId, ctx.userId),
		isNull(timeEntries.deletedAt),
	]
	if (query.databaseId) {
		conditions.push(eq(timeEntries.databaseId, query.databaseId))
	}
	const rows = await entriesWithTool(ctx)
		.where(and(...conditions))
		.orderBy(desc(timeEntries.startedAt))
		.limit(query.limit)
	return toEntries(
		ctx,
		rows.map((row) => row.entry),
	)
}

/** The end of a manual entry: given, or its start plus the duration; 400 naming `endedAt` otherwise. */
function endOf(startedAt: Date, endedAt: string | null | undefined, durationSeconds: number | null | undefined): Date {
	const end = endedAt
		? new Date(endedAt)
		: durationSeconds !== null && durationSeconds !== undefined
			? new Date(startedAt.getTime() + durationSeconds * 1000)
			: invalid([{ field: 'endedAt', message: 'Give the end, or the duration.' }])
	checkSpan(startedAt, end)
	return end
}

function checkSpan(startedAt: Date, endedAt: Date): void {
	if (endedAt.getTime() < startedAt.getTime()) {
		invalid([{ field: 'endedAt', message: 'The end is before the start.' }])
	}
	if (endedAt.getTime() - startedAt.getTime() > maxEntrySeconds * 1000) {
		invalid([{ field: 'endedAt', message: 'An entry lasts at most a week.' }])
	}
}

/** Empty values for the fields a change clears, so the row loses them too. */
function clearedValues(mapping: TimeMapping, properties: Property[], input: UpdateEntry): RowValues {
	const values: RowValues = {}
	const typeOf = (id: string | null) => properties.find((p) => p.id === id)?.type
	const clear = (id: string | null) => {
		if (id) {
			const type = typeOf(id)
			values[id] = type === 'relation' || type === 'multi_select' ? [] : null
		}
	}
	if (input.description === null) {
		clear(mapping.description)
	}
	if (input.project === null) {
		clear(mapping.project)
	}
	if (input.task === null && mapping.task !== mapping.description) {
		clear(mapping.task)
	}
	if (input.tags?.length === 0) {
		clear(mapping.tags)
	}
	if (input.billable === null && mapping.billable) {
		values[mapping.billable] = false
	}
	return values
}

/** A finished entry typed in by hand: its row is written through the write queue. */
export async function createEntry(ctx: TimeCtx, tool: WorkspaceTool, input: CreateEntry): Promise<TimeEntry> {
	const { database, mapping } = await mappedDatabase(ctx, tool, input.databaseId)
	const startedAt = new Date(input.startedAt)
	const typed = parseDurationField('duration', input.duration, { maxSeconds: maxEntrySeconds })
	const endedAt = endOf(startedAt, input.endedAt, input.durationSeconds ?? typed)
	const person = !mapping.person
		? null
		: ctx.person !== undefined
			? ctx.person
			: await personValue(ctx, tool, database.workspaceId)
	const draft = { startedAt } as EntryRecord
	const values = {
		...(await startValues(ctx, mapping, database.properties, input, startedAt, person)),
		...stopValues(mapping, draft, endedAt),
	}
	const record = await storeEntry(ctx, database, input, values, { startedAt, endedAt, personRef: person?.[0] ?? null })
	const [entry] = await toEntries(ctx, [record])
	return entry as TimeEntry
}

/**
 * Changes an entry (its person's own: 403 otherwise; another organization or tool: 404). The
 * row gets its whole new state, delivered after the entry's previous write.
 */
export async function updateEntry(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	id: string,
	input: UpdateEntry,
): Promise<TimeEntry> {
	const [row] = await entriesWithTool(ctx).where(
		and(
			eq(timeEntries.organizationId, ctx.orgId),
			eq(workspaces.tool, tool),
			eq(timeEntries.id, id),
			isNull(timeEntries.deletedAt),
		),
	)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such entry.' })
	}
	const entry = row.entry
	if (!canChangeEntry(entry, ctx.userId)) {
		throw new AppError('FORBIDDEN', { detail: timeRefusals.changeEntry })
	}
	if (input.endedAt && !entry.endedAt) {
		invalid([{ field: 'endedAt', message: 'Stop the timer to end a running entry.' }])
	}
	const { database, mapping } = await mappedDatabase(ctx, tool, entry.databaseId)
	const startedAt = input.startedAt ? new Date(input.startedAt) : entry.startedAt
	const endedAt = input.endedAt ? new Date(input.endedAt) : entry.endedAt
	if (endedAt) {
		checkSpan(startedAt, endedAt)
	} else if (startedAt.getTime() > ctx.now().getTime()) {
		invalid([{ field: 'startedAt', message: 'A running entry starts before now.' }])
	}
	const next = {
		description: input.description === undefined ? entry.description : input.description,
		project: input.project === undefined ? entry.project : input.project,
		task: input.task === undefined ? entry.task : input.task,
		tags: input.tags ?? entry.tags,
		billable: input.billable === undefined ? entry.billable : input.billable,
	}
	const startWrite = await startValues(ctx, mapping, database.properties, next, startedAt, null)
	const values: RowValues = {
		...clearedValues(mapping, database.properties, input),
		...startWrite,
		...(endedAt ? stopValues(mapping, { ...entry, startedAt }, endedAt) : {}),
	}
	const record = await ctx.db.transaction(async (tx) => {
		const write = await storeWrite(
			{ ...workspaceCtxFor(ctx), db: tx },
			{ databaseId: entry.databaseId, after: entry.lastWriteId, values, source: `time:${entry.id}` },
			database,
		)
		// Only after the write read above: two changes at once would not be one chain.
		const [changed] = await tx
			.update(timeEntries)
			.set({ ...next, startedAt, endedAt, lastWriteId: write.id, updatedAt: new Date() })
			.where(and(eq(timeEntries.id, entry.id), eq(timeEntries.lastWriteId, entry.lastWriteId)))
			.returning()
		if (!changed) {
			throw new AppError('CONFLICT', { detail: 'This entry changed meanwhile. Try again.' })
		}
		await queueDelivery(ctx.workspaces, write.id, tx)
		return changed
	})
	const [changed] = await toEntries(ctx, [record])
	return changed as TimeEntry
}
