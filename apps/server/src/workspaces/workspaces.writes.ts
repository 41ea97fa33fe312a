import { randomUUID } from 'node:crypto'
import type { WorkspaceWrite, WriteState } from '@blocksmith/contracts/workspaces.ts'
import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import { ConnectorError } from './connector.ts'
import { validateRowValues } from './values.ts'
import type { WorkspaceCtx, WorkspaceDeps } from './workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaces, workspaceWrites } from './workspaces.schema.ts'
import { describeError, mirrorRow } from './workspaces.sync.ts'

// Writes that are never lost: a row write is stored first, then delivered by a job with
// exponential backoff. A delivery holds a short lease on its write, so two workers never
// deliver it at once; a retried create first looks for the row a lost response already made.

type WriteRecord = typeof workspaceWrites.$inferSelect

/** Notion stamps created_time to the minute: look this far before the first attempt. */
const createdTimeSlackMs = 2 * 60 * 1000

export function createWriteQueues(deps: () => WorkspaceDeps) {
	const deliver: JobQueue<{ writeId: string }> = {
		name: 'workspace-write',
		// Retries are ours (state, backoff and the dead state live on the write), not pg-boss's.
		options: { retryLimit: 0 },
		// Deliveries mostly wait on Notion (rate queue, Retry-After): one workspace paused by a
		// 429 must not hold up the others' deliveries.
		concurrency: 4,
		// One job per form answer: fetched in batches, not woken one by one (lib/jobs.ts).
		batchSize: 32,
		handle: async ({ writeId }) => deliverWrite(deps(), writeId),
	}
	const sweep: JobQueue<Record<string, never>> = {
		name: 'workspace-write-sweep',
		options: { retryLimit: 0 },
		cron: '* * * * *',
		handle: async () => sweepWrites(deps()),
	}
	return { deliver, sweep }
}

function toWrite(record: WriteRecord, rowId: string | null): WorkspaceWrite {
	return {
		id: record.id,
		workspaceId: record.workspaceId,
		databaseId: record.databaseId,
		kind: record.kind,
		rowId,
		values: record.values,
		state: record.state,
		attempts: record.attempts,
		lastError: record.lastError,
		source: record.source,
		createdAt: record.createdAt.toISOString(),
		deliveredAt: record.deliveredAt?.toISOString() ?? null,
		nextAttemptAt: record.nextAttemptAt?.toISOString() ?? null,
	}
}

/**
 * Stores a row write for delivery and queues it. The values are checked against the
 * database's properties first (a 400 naming the property); once this returns, the write is
 * kept until it is delivered or given up on, whatever the workspace does.
 */
export async function enqueueWrite(ctx: WorkspaceCtx, input: WriteInput): Promise<WorkspaceWrite> {
	const write = await storeWrite(ctx, input)
	await queueDelivery(ctx, write.id)
	return write
}

type WriteInput = { databaseId: string; rowId?: string; values: Record<string, unknown>; source: string }

/**
 * Stores a write without queueing it, so a caller can store it in the same transaction as its
 * own record (`ctx.db` may be a transaction) and queue it in that transaction with
 * `queueDelivery(…, ctx.db)`. A caller that has just read the database (in the same
 * organization) passes it as `database` and saves reading it again. A write whose queueing is
 * lost is picked up by the sweeper within minutes.
 */
export async function storeWrite(
	ctx: WorkspaceCtx,
	input: WriteInput,
	database?: typeof workspaceDatabases.$inferSelect,
): Promise<WorkspaceWrite> {
	if (database && (database.id !== input.databaseId || database.organizationId !== ctx.orgId)) {
		throw new Error('storeWrite: the database given is not the one written to')
	}
	const target = database ?? (await findDatabase(ctx, input.databaseId))
	const values = validateRowValues(target.properties, input.values)
	let externalRowId: string | null = null
	if (input.rowId) {
		const [row] = await ctx.db
			.select({ externalId: workspaceRows.externalId })
			.from(workspaceRows)
			.where(and(eq(workspaceRows.id, input.rowId), eq(workspaceRows.databaseId, target.id)))
		externalRowId = found(row, 'No such row.').externalId
	}
	const [record] = await ctx.db
		.insert(workspaceWrites)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			workspaceId: target.workspaceId,
			databaseId: target.id,
			kind: input.rowId ? 'update' : 'create',
			externalRowId,
			values,
			source: input.source,
		})
		.returning()
	return toWrite(found(record), input.rowId ?? null)
}

async function findDatabase(ctx: WorkspaceCtx, databaseId: string) {
	const [database] = await ctx.db
		.select()
		.from(workspaceDatabases)
		.where(and(eq(workspaceDatabases.id, databaseId), eq(workspaceDatabases.organizationId, ctx.orgId)))
	if (!database) {
		throw new AppError('NOT_FOUND', { detail: 'No such database.' })
	}
	return database
}

/** Queues a stored write's delivery; given `db` (the transaction that stored it), the job commits with it. */
export async function queueDelivery(deps: WorkspaceDeps, writeId: string, db?: Db): Promise<void> {
	await deps.jobs.send(deps.queues.deliver, { writeId }, db ? { db } : {})
}

async function rowIdOf(deps: WorkspaceDeps, write: WriteRecord): Promise<string | null> {
	if (!write.externalRowId) {
		return null
	}
	const [row] = await deps.db
		.select({ id: workspaceRows.id })
		.from(workspaceRows)
		.where(and(eq(workspaceRows.databaseId, write.databaseId), eq(workspaceRows.externalId, write.externalRowId)))
	return row?.id ?? null
}

export async function listWrites(
	ctx: WorkspaceCtx,
	workspaceId: string,
	query: { state?: WriteState | undefined; limit: number },
): Promise<WorkspaceWrite[]> {
	const [workspace] = await ctx.db
		.select({ id: workspaces.id })
		.from(workspaces)
		.where(and(eq(workspaces.id, workspaceId), eq(workspaces.organizationId, ctx.orgId)))
	found(workspace, 'No such workspace.')
	const conditions = [eq(workspaceWrites.workspaceId, workspaceId), eq(workspaceWrites.organizationId, ctx.orgId)]
	if (query.state) {
		conditions.push(eq(workspaceWrites.state, query.state))
	}
	const rows = await ctx.db
		.select({ write: workspaceWrites, rowId: workspaceRows.id })
		.from(workspaceWrites)
		.leftJoin(
			workspaceRows,
			and(
				eq(workspaceRows.databaseId, workspaceWrites.databaseId),
				eq(workspaceRows.externalId, workspaceWrites.externalRowId),
			),
		)
		.where(and(...conditions))
		.orderBy(desc(workspaceWrites.createdAt))
		.limit(query.limit)
	return rows.map((row) => toWrite(row.write, row.rowId))
}

async function getWrite(ctx: WorkspaceCtx, writeId: string): Promise<WorkspaceWrite> {
	const [record] = await ctx.db
		.select()
		.from(workspaceWrites)
		.where(and(eq(workspaceWrites.id, writeId), eq(workspaceWrites.organizationId, ctx.orgId)))
	const write = found(record, 'No such delivery.')
	return toWrite(write, await rowIdOf(ctx, write))
}

/** Retry now: a failed or dead write gets a fresh set of attempts. */
export async function retryWrite(ctx: WorkspaceCtx, workspaceId: string, writeId: string): Promise<WorkspaceWrite> {
	const [record] = await ctx.db
		.update(workspaceWrites)
		.set({ state: 'pending', attempts: 0, nextAttemptAt: null, lockedUntil: null })
		.where(
			and(
				eq(workspaceWrites.id, writeId),
				eq(workspaceWrites.workspaceId, workspaceId),
				eq(workspaceWrites.organizationId, ctx.orgId),
				inArray(workspaceWrites.state, ['failed', 'dead']),
			),
		)
		.returning()
	if (!record) {
		const current = await getWrite(ctx, writeId)
		if (current.workspaceId !== workspaceId) {
			throw new AppError('NOT_FOUND', { detail: 'No such delivery.' })
		}
		throw new AppError('CONFLICT', { detail: `This delivery is ${current.state}; only failed ones can be retried.` })
	}
	await ctx.jobs.send(ctx.queues.deliver, { writeId: record.id })
	return toWrite(record, await rowIdOf(ctx, record))
}

/** Takes the write for one attempt, unless it is delivered, dead, or held by another worker. */
async function claim(deps: WorkspaceDeps, writeId: string): Promise<WriteRecord | undefined> {
	const now = new Date()
	const [record] = await deps.db
		.update(workspaceWrites)
		.set({
			attempts: sql`${workspaceWrites.attempts} + 1`,
			firstAttemptAt: sql`coalesce(${workspaceWrites.firstAttemptAt}, now())`,
			lockedUntil: new Date(now.getTime() + deps.writes.leaseSeconds * 1000),
		})
		.where(
			and(
				eq(workspaceWrites.id, writeId),
				inArray(workspaceWrites.state, ['pending', 'failed']),
				or(isNull(workspaceWrites.lockedUntil), lt(workspaceWrites.lockedUntil, now)),
			),
		)
		.returning()
	return record
}

async function deliverWrite(deps: WorkspaceDeps, writeId: string): Promise<void> {
	const write = await claim(deps, writeId)
	if (!write) {
		return
	}
	const [target] = await deps.db
		.select({ database: workspaceDatabases, workspace: workspaces })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(eq(workspaceDatabases.id, write.databaseId))
	if (!target) {
		return
	}
	const { database, workspace } = target
	const external = {
		externalId: database.externalId,
		name: database.name,
		icon: database.icon,
		url: database.url,
		properties: database.properties,
	}
	const connector = deps.connectors.for(workspace)
	try {
		let row = null
		if (write.kind === 'update' && write.externalRowId) {
			row = await connector.updateRow(external, write.externalRowId, write.values)
		} else {
			if (write.attempts > 1 && write.firstAttemptAt) {
				// An earlier attempt may have created the row and lost the answer. Rows other
				// deliveries already claimed are not ours, even with equal values.
				const since = new Date(write.firstAttemptAt.getTime() - createdTimeSlackMs)
				const claimed = await deps.db
					.select({ externalRowId: workspaceWrites.externalRowId })
					.from(workspaceWrites)
					.where(
						and(
							eq(workspaceWrites.databaseId, database.id),
							isNotNull(workspaceWrites.externalRowId),
							gte(workspaceWrites.createdAt, new Date(since.getTime() - deps.writes.leaseSeconds * 1000)),
						),
					)
				const exclude = new Set(claimed.map((c) => c.externalRowId ?? ''))
				row = await connector.findCreatedRow(external, since.toISOString(), write.values, exclude)
			}
			row ??= await connector.createRow(external, write.values)
		}
		// Record the delivery before anything else can fail: the row exists now.
		await deps.db
			.update(workspaceWrites)
			.set({
				state: 'delivered',
				externalRowId: row.externalId,
				deliveredAt: new Date(),
				lastError: null,
				nextAttemptAt: null,
				lockedUntil: null,
			})
			.where(eq(workspaceWrites.id, write.id))
		if (workspace.tool === 'notion') {
			await mirrorRow(deps, database, row)
		}
	} catch (error) {
		await recordFailure(deps, write, workspace.id, error)
	}
}

async function recordFailure(deps: WorkspaceDeps, write: WriteRecord, workspaceId: string, error: unknown) {
	const isRefused = error instanceof ConnectorError && (error.kind === 'invalid' || error.kind === 'not_found')
	const isDead = isRefused || write.attempts >= deps.writes.maxAttempts
	const delaySeconds = deps.writes.retryDelaySeconds * 2 ** Math.max(0, write.attempts - 1)
	const nextAttemptAt = isDead ? null : new Date(Date.now() + delaySeconds * 1000)
	if (error instanceof ConnectorError && error.kind === 'unauthorized') {
		await deps.db.update(workspaces).set({ status: 'needs_reauth' }).where(eq(workspaces.id, workspaceId))
	}
	deps.log.warn({ err: error, writeId: write.id, attempts: write.attempts, isDead }, 'workspace write not delivered')
	await deps.db
		.update(workspaceWrites)
		.set({ state: isDead ? 'dead' : 'failed', lastError: describeError(error), nextAttemptAt, lockedUntil: null })
		.where(eq(workspaceWrites.id, write.id))
	if (!isDead) {
		await deps.jobs.send(deps.queues.deliver, { writeId: write.id }, { startAfterSeconds: delaySeconds })
	}
}

/**
 * Every minute: writes whose job was lost (the process died between storing and queueing,
 * or during an attempt) are queued again once their lease or retry time has passed.
 */
async function sweepWrites(deps: WorkspaceDeps): Promise<void> {
	const now = new Date()
	const stale = new Date(now.getTime() - 60_000)
	const orphans = await deps.db
		.select({ id: workspaceWrites.id })
		.from(workspaceWrites)
		.where(
			and(
				inArray(workspaceWrites.state, ['pending', 'failed']),
				or(isNull(workspaceWrites.lockedUntil), lt(workspaceWrites.lockedUntil, now)),
				or(
					and(isNull(workspaceWrites.nextAttemptAt), lt(workspaceWrites.createdAt, stale)),
					lt(workspaceWrites.nextAttemptAt, stale),
				),
			),
		)
		.limit(500)
	for (const orphan of orphans) {
		await deps.jobs.send(deps.queues.deliver, { writeId: orphan.id })
	}
}
