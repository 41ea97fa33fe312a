import type { TimeEntry } from '@blocksmith/contracts/time.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import { workspaces } from '#src/workspaces/workspaces.schema.ts'
import { queueDelivery, storeWrite } from '#src/workspaces/workspaces.writes.ts'
import { type TimeCtx, workspaceCtxFor } from './time.deps.ts'
import { canChangeEntry, timeRefusals } from './time.policy.ts'
import { timeEntries } from './time.schema.ts'
import { findTimeDatabase } from './time.service.ts'
import { entriesWithTool, stopValues, toEntries } from './time.timer.ts'

// Delete with undo. Deleting hides the entry at once and queues its row's delete as one more
// write of the row's chain (after the entry's last write, like a stop or an edit), so it lands
// on the row whatever was delivered before it; undo is a restore write after the delete, so it
// works whether or not the delete was delivered yet, and the row comes back with its values.

type EntryRecord = typeof timeEntries.$inferSelect

/** One of the caller's own entries in this tool (404 in another organization or tool, 403 someone else's). */
async function ownEntry(ctx: TimeCtx, tool: WorkspaceTool, id: string): Promise<EntryRecord> {
	const [row] = await entriesWithTool(ctx).where(
		and(eq(timeEntries.organizationId, ctx.orgId), eq(workspaces.tool, tool), eq(timeEntries.id, id)),
	)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such entry.' })
	}
	if (!canChangeEntry(row.entry, ctx.userId)) {
		throw new AppError('FORBIDDEN', { detail: timeRefusals.changeEntry })
	}
	return row.entry
}

const changedMeanwhile = () => new AppError('CONFLICT', { detail: 'This entry changed meanwhile. Try again.' })

/**
 * Deletes one of the caller's entries: hidden from lists, the timer and reports, its row's delete
 * queued. A running entry is stopped first (its row gets the end before it goes), so a new
 * timer can start and an undo brings back a finished entry. Deleting it again changes nothing.
 */
export async function deleteEntry(ctx: TimeCtx, tool: WorkspaceTool, id: string): Promise<TimeEntry> {
	const entry = await ownEntry(ctx, tool, id)
	if (entry.deletedAt) {
		return (await toEntries(ctx, [entry]))[0] as TimeEntry
	}
	const found = await findTimeDatabase(ctx, tool, entry.databaseId)
	const mapping = found.saved?.mapping ?? null
	const now = ctx.now()
	const endedAt = entry.endedAt ?? new Date(Math.max(now.getTime(), entry.startedAt.getTime()))
	const source = `time:${entry.id}`
	const record = await ctx.db.transaction(async (tx) => {
		const writeCtx = { ...workspaceCtxFor(ctx), db: tx }
		const writeIds: string[] = []
		let after = entry.lastWriteId
		if (!entry.endedAt && mapping) {
			const stop = await storeWrite(
				writeCtx,
				{ databaseId: entry.databaseId, after, values: stopValues(mapping, entry, endedAt), source },
				found.database,
			)
			writeIds.push(stop.id)
			after = stop.id
		}
		const removal = await storeWrite(
			writeCtx,
			{ databaseId: entry.databaseId, after, kind: 'delete', values: {}, source },
			found.database,
		)
		writeIds.push(removal.id)
		// Only after the write read above, as every change does: the row's writes stay one chain.
		const [deleted] = await tx
			.update(timeEntries)
			.set({ deletedAt: now, endedAt, lastWriteId: removal.id, updatedAt: now })
			.where(
				and(
					eq(timeEntries.id, entry.id),
					eq(timeEntries.lastWriteId, entry.lastWriteId),
					isNull(timeEntries.deletedAt),
				),
			)
			.returning()
		if (!deleted) {
			throw changedMeanwhile()
		}
		for (const writeId of writeIds) {
			await queueDelivery(ctx.workspaces, writeId, tx)
		}
		return deleted
	})
	return (await toEntries(ctx, [record]))[0] as TimeEntry
}

/** Undo: the entry is back at once, and its row after the delete is delivered. Restoring one not deleted changes nothing. */
export async function restoreEntry(ctx: TimeCtx, tool: WorkspaceTool, id: string): Promise<TimeEntry> {
	const entry = await ownEntry(ctx, tool, id)
	if (!entry.deletedAt) {
		return (await toEntries(ctx, [entry]))[0] as TimeEntry
	}
	const found = await findTimeDatabase(ctx, tool, entry.databaseId)
	const record = await ctx.db.transaction(async (tx) => {
		const restore = await storeWrite(
			{ ...workspaceCtxFor(ctx), db: tx },
			{
				databaseId: entry.databaseId,
				after: entry.lastWriteId,
				kind: 'restore',
				values: {},
				source: `time:${entry.id}`,
			},
			found.database,
		)
		const [restored] = await tx
			.update(timeEntries)
			.set({ deletedAt: null, lastWriteId: restore.id, updatedAt: new Date() })
			.where(
				and(
					eq(timeEntries.id, entry.id),
					eq(timeEntries.lastWriteId, entry.lastWriteId),
					isNotNull(timeEntries.deletedAt),
				),
			)
			.returning()
		if (!restored) {
			throw changedMeanwhile()
		}
		await queueDelivery(ctx.workspaces, restore.id, tx)
		return restored
	})
	return (await toEntries(ctx, [record]))[0] as TimeEntry
}
