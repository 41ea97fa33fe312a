import { randomUUID } from 'node:crypto'
import type { RowValues, WorkspaceWrite, WriteState } from '@blocksmith/contracts/workspaces.ts'
import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { columnName, insertTarget } from '#src/db/statements.ts'
import { AppError, found } from '#src/lib/errors.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import { ConnectorError } from './connector.ts'
import { createLocalConnector, insertLocalRows } from './local/local.connector.ts'
import { validateRowValues } from './values.ts'
import type { WorkspaceCtx, WorkspaceDeps } from './workspaces.deps.ts'
import {
	type WriteAttempt,
	workspaceDatabases,
	workspaceRows,
	workspaces,
	workspaceWrites,
} from './workspaces.schema.ts'
import { labelSources } from './workspaces.sources.ts'
import { describeError, forgetRow, mirrorRow } from './workspaces.sync.ts'

// Writes that are never lost: a row write is stored first, then delivered by a job with
// exponential backoff. A delivery holds a short lease on its write, so two workers never
// deliver it at once; a retried create first looks for the row a lost response already made.

type WriteRecord = typeof workspaceWrites.$inferSelect

/** Notion stamps created_time to the minute: look this far before the first attempt. */
const createdTimeSlackMs = 2 * 60 * 1000

/**
 * A create leaves only while its attempt holds the lease for longer than the request can take
 * plus this margin, so no create is still in flight when another worker may take the write over
 * (and, finding no row yet, create it too).
 */
const leaseMarginMs = 5000

/** Thrown before a create leaves when the attempt no longer holds its write long enough. */
class LeaseRunningOut extends Error {
	constructor() {
		super('The attempt waited past its lease (rate limits); the write is left to the next attempt.')
		this.name = 'LeaseRunningOut'
	}
}

/** Attempts a write's log keeps: the latest ones, enough to read a run of failures and the recovery. */
const keptAttempts = 20

/**
 * The write's attempt log with this attempt added, the oldest dropped past `keptAttempts`: one
 * expression inside the UPDATE that records the attempt, so the log never needs a read first.
 */
function withAttempt(attempt: WriteAttempt) {
	return sql`(select coalesce(jsonb_agg(kept.entry order by kept.position), '[]'::jsonb) from (
		select log.entry, log.position
		from jsonb_array_elements(${workspaceWrites.attemptLog} || ${JSON.stringify([attempt])}::jsonb)
			with ordinality as log(entry, position)
		order by log.position desc limit ${keptAttempts}) as kept)`
}

/** An attempt begun at `started` (a Date.now()), as the log keeps it. */
function attemptOf(started: number, error: string | null): WriteAttempt {
	return { at: new Date(started).toISOString(), ms: Date.now() - started, error }
}

/** Updates only while this attempt's claim still stands: a write taken over is the other worker's. */
function stillClaimed(write: WriteRecord) {
	return and(
		eq(workspaceWrites.id, write.id),
		write.lockedUntil ? eq(workspaceWrites.lockedUntil, write.lockedUntil) : isNull(workspaceWrites.lockedUntil),
	)
}

export function createWriteQueues(deps: () => WorkspaceDeps) {
	const deliver: JobQueue<{ writeId: string } | { writeIds: string[] }> = {
		name: 'workspace-write',
		// Retries are ours (state, backoff and the dead state live on the write), not pg-boss's.
		options: { retryLimit: 0 },
		// Deliveries mostly wait on Notion (rate queue, Retry-After): one workspace paused by a
		// 429 must not hold up the others' deliveries.
		concurrency: 4,
		// Jobs come from public requests (batches of form answers, see `queueDeliverySoon`): fetched
		// several at a time, not woken one by one (lib/jobs.ts).
		batchSize: 8,
		handle: async (job) => deliverWrites(deps(), 'writeIds' in job ? job.writeIds : [job.writeId]),
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

type WriteInput = {
	databaseId: string
	rowId?: string
	/**
	 * An update delivered only after this write (same organization and database): a stop after
	 * its start. The row is the one that write creates or updates, so it need not exist yet.
	 */
	after?: string
	/** A delete or restore of the row (`rowId` or `after` names it); otherwise a create, or an update of a named row. */
	kind?: 'delete' | 'restore'
	values: Record<string, unknown>
	source: string
}

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
	if (input.kind && !input.rowId && !input.after) {
		throw new Error(`storeWrite: a ${input.kind} needs the row (rowId) or the write before it (after)`)
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
	if (input.after) {
		const [before] = await ctx.db
			.select({ externalRowId: workspaceWrites.externalRowId })
			.from(workspaceWrites)
			.where(
				and(
					eq(workspaceWrites.id, input.after),
					eq(workspaceWrites.databaseId, target.id),
					eq(workspaceWrites.organizationId, ctx.orgId),
				),
			)
		externalRowId ??= found(before, 'No such delivery.').externalRowId
	}
	const [record] = await ctx.db
		.insert(workspaceWrites)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			workspaceId: target.workspaceId,
			databaseId: target.id,
			kind: input.kind ?? (input.rowId || input.after ? 'update' : 'create'),
			externalRowId,
			afterWriteId: input.after ?? null,
			values,
			source: input.source,
		})
		.returning()
	return toWrite(found(record), input.rowId ?? null)
}

// Built once: this statement runs with every form answer (db/statements.ts).
const writeWithTarget = insertTarget(workspaceWrites, [
	'id',
	'organizationId',
	'workspaceId',
	'databaseId',
	'kind',
	'values',
	'source',
])
const writeIdColumn = columnName(workspaceWrites.id)

/**
 * Stores a create write in the same statement as the record it belongs to, and only if that
 * record is stored: `owner(writeId)` is the owner's INSERT … ON CONFLICT DO NOTHING RETURNING,
 * naming the write it will have. One statement, so no transaction is needed for the two to go
 * in together, and an owner refused by its conflict leaves no write behind. Returns the write's
 * id, or null when the owner was not stored. `database` is the one written to, just read by the
 * caller in the same organization.
 */
export async function storeWriteWith(
	ctx: WorkspaceCtx,
	input: { databaseId: string; values: Record<string, unknown>; source: string },
	database: Pick<typeof workspaceDatabases.$inferSelect, 'id' | 'organizationId' | 'workspaceId' | 'properties'>,
	owner: (writeId: string) => SQL,
): Promise<string | null> {
	if (database.id !== input.databaseId || database.organizationId !== ctx.orgId) {
		throw new Error('storeWriteWith: the database given is not the one written to')
	}
	const values = validateRowValues(database.properties, input.values)
	const id = randomUUID()
	// The owner's SQL, not a builder: Drizzle puts parentheses around a builder, which WITH refuses.
	const result = await ctx.db.execute<{ id: string }>(sql`
		with owner as (${owner(id).getSQL()})
		insert into ${writeWithTarget}
		select ${id}, ${ctx.orgId}, ${database.workspaceId}, ${database.id}, 'create', ${JSON.stringify(values)}::jsonb,
			${input.source}
		from owner
		returning ${writeIdColumn}`)
	return (result as unknown as { rows: { id: string }[] }).rows[0]?.id ?? null
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

/** Writes queued by `queueDeliverySoon` are sent as one job this often, or sooner when this many wait. */
const deliveryBatch = { waitMs: 50, maxWrites: 100 }
const deliveryBatches = new WeakMap<WorkspaceDeps['jobs'], { writeIds: string[]; timer: NodeJS.Timeout | null }>()

/**
 * For writes stored by public requests (form answers), whose commit must not wait for a job:
 * their ids are gathered in memory and queued as one job per batch (every 50 ms, or 100
 * writes), after the request was answered. If the process dies first, or the job cannot be
 * sent, the sweeper finds the writes (pending, never attempted) and queues them within two
 * minutes: a write once committed is never lost, only its delivery later.
 */
export function queueDeliverySoon(deps: WorkspaceDeps, writeId: string): void {
	let batch = deliveryBatches.get(deps.jobs)
	if (!batch) {
		batch = { writeIds: [], timer: null }
		deliveryBatches.set(deps.jobs, batch)
	}
	const current = batch
	const flush = () => {
		if (current.timer) {
			clearTimeout(current.timer)
			current.timer = null
		}
		const writeIds = current.writeIds.splice(0)
		if (writeIds.length === 0 || !deps.jobs.isRunning()) {
			return
		}
		deps.jobs.send(deps.queues.deliver, { writeIds }).catch((error: unknown) => {
			deps.log.warn({ err: error, writes: writeIds.length }, 'deliveries not queued; the sweeper will queue them')
		})
	}
	current.writeIds.push(writeId)
	if (current.writeIds.length >= deliveryBatch.maxWrites) {
		flush()
	} else if (!current.timer) {
		current.timer = setTimeout(flush, deliveryBatch.waitMs)
		current.timer.unref()
	}
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
	const labels = await labelSources(ctx, [...new Set(rows.map((row) => row.write.source))])
	return rows.map((row) => ({ ...toWrite(row.write, row.rowId), sourceLabel: labels.get(row.write.source) ?? null }))
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

/** Takes the writes for one attempt each, except those delivered, dead, or held by another worker. */
async function claim(deps: WorkspaceDeps, writeIds: string[]): Promise<WriteRecord[]> {
	const now = new Date()
	return deps.db
		.update(workspaceWrites)
		.set({
			attempts: sql`${workspaceWrites.attempts} + 1`,
			firstAttemptAt: sql`coalesce(${workspaceWrites.firstAttemptAt}, now())`,
			lockedUntil: new Date(now.getTime() + deps.writes.leaseSeconds * 1000),
		})
		.where(
			and(
				inArray(workspaceWrites.id, writeIds),
				inArray(workspaceWrites.state, ['pending', 'failed']),
				or(isNull(workspaceWrites.lockedUntil), lt(workspaceWrites.lockedUntil, now)),
			),
		)
		.returning()
}

/** At most this many attempts of one batch run at once (they mostly wait on Notion). */
const attemptsAtOnce = 4

/**
 * Delivers a batch of writes: one statement claims them all, one reads their databases. New
 * rows of a local database are then stored together with their writes' delivery, in one
 * transaction per database; every other write is attempted on its own (four at a time).
 */
async function deliverWrites(deps: WorkspaceDeps, writeIds: string[]): Promise<void> {
	const claimed = await claim(deps, writeIds)
	if (claimed.length === 0) {
		return
	}
	const writes = await writesInOrder(deps, claimed)
	const databaseIds = [...new Set(writes.map((write) => write.databaseId))]
	const targets = await deps.db
		.select({ database: workspaceDatabases, workspace: workspaces })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(inArray(workspaceDatabases.id, databaseIds))
	const targetOf = new Map(targets.map((target) => [target.database.id, target]))
	const one: WriteRecord[] = []
	const localCreates = new Map<string, WriteRecord[]>()
	for (const write of writes) {
		const target = targetOf.get(write.databaseId)
		if (target?.workspace.tool === 'local' && write.kind === 'create' && write.attempts === 1) {
			localCreates.set(write.databaseId, [...(localCreates.get(write.databaseId) ?? []), write])
		} else if (target) {
			one.push(write)
		}
	}
	for (const [databaseId, group] of localCreates) {
		const target = targetOf.get(databaseId)
		if (target && !(await createLocalRows(deps, target.database, group))) {
			// One of them is refused: each is attempted on its own, so the others still go in.
			one.push(...group)
		}
	}
	let next = 0
	const lane = async () => {
		for (let write = one[next++]; write; write = one[next++]) {
			const target = targetOf.get(write.databaseId)
			// Claimed with the batch: once half its lease is gone (a slow workspace ahead of it), it is
			// left for the sweeper, so no attempt can still be running when another worker may take it.
			const leaseLeftMs = (write.lockedUntil?.getTime() ?? 0) - Date.now()
			if (target && leaseLeftMs > (deps.writes.leaseSeconds * 1000) / 2) {
				await attemptWrite(deps, write, target)
			}
		}
	}
	await Promise.all(Array.from({ length: Math.min(attemptsAtOnce, one.length) }, lane))
	await queueFollowers(
		deps,
		writes.map((write) => write.id),
	)
}

/**
 * Writes made after another (`afterWriteId`) go only once that one is delivered, taking the
 * row it created; until then they are handed back without counting an attempt, and the
 * delivery of the one before queues them (`queueFollowers`). A write after one that was
 * given up on (dead) with no row to update is dead too.
 */
const givenUpBefore = 'The write before it was given up on: there is no row to update.'

async function writesInOrder(deps: WorkspaceDeps, claimed: WriteRecord[]): Promise<WriteRecord[]> {
	const afterIds = [...new Set(claimed.flatMap((write) => (write.afterWriteId ? [write.afterWriteId] : [])))]
	if (afterIds.length === 0) {
		return claimed
	}
	const befores = await deps.db
		.select({ id: workspaceWrites.id, state: workspaceWrites.state, externalRowId: workspaceWrites.externalRowId })
		.from(workspaceWrites)
		.where(inArray(workspaceWrites.id, afterIds))
	const beforeOf = new Map(befores.map((before) => [before.id, before]))
	const ready: WriteRecord[] = []
	for (const write of claimed) {
		const before = write.afterWriteId ? beforeOf.get(write.afterWriteId) : undefined
		if (!write.afterWriteId || !before) {
			ready.push(write)
			continue
		}
		const externalRowId = write.externalRowId ?? before.externalRowId
		if (before.state === 'delivered' || (before.state === 'dead' && externalRowId)) {
			if (externalRowId !== write.externalRowId) {
				await deps.db.update(workspaceWrites).set({ externalRowId }).where(stillClaimed(write))
			}
			ready.push({ ...write, externalRowId })
		} else if (before.state === 'dead') {
			await deps.db
				.update(workspaceWrites)
				.set({
					state: 'dead',
					lastError: givenUpBefore,
					lockedUntil: null,
					// Decided without reaching the workspace: logged, with no duration.
					attemptLog: withAttempt({ at: new Date().toISOString(), ms: null, error: givenUpBefore }),
				})
				.where(stillClaimed(write))
		} else {
			await deps.db
				.update(workspaceWrites)
				.set({
					attempts: sql`${workspaceWrites.attempts} - 1`,
					lastError: 'Waiting for the write before it to be delivered.',
					lockedUntil: null,
				})
				.where(stillClaimed(write))
			// The one before may have been delivered meanwhile, its followers queued while this was held.
			const [now] = await deps.db
				.select({ state: workspaceWrites.state })
				.from(workspaceWrites)
				.where(eq(workspaceWrites.id, before.id))
			if (now?.state === 'delivered' || now?.state === 'dead') {
				await queueDelivery(deps, write.id)
			}
		}
	}
	return ready
}

/** Queues the writes waiting for any of these (`afterWriteId`) once it is delivered or dead. */
async function queueFollowers(deps: WorkspaceDeps, writeIds: string[]): Promise<void> {
	const followers = await deps.db
		.select({ id: workspaceWrites.id })
		.from(workspaceWrites)
		.where(
			and(
				inArray(workspaceWrites.afterWriteId, writeIds),
				inArray(workspaceWrites.state, ['pending', 'failed']),
				sql`exists (select 1 from ${workspaceWrites} as before where before.id = ${workspaceWrites.afterWriteId}
					and before.state in ('delivered', 'dead'))`,
			),
		)
	if (followers.length > 0) {
		await deps.jobs.send(deps.queues.deliver, { writeIds: followers.map((follower) => follower.id) })
	}
}

/**
 * First attempts at new rows of one local database: the rows and their writes' delivery go in
 * one transaction, so each is delivered exactly once whatever happens, in a handful of
 * statements for the whole batch. False (nothing stored) when any of them is refused.
 */
async function createLocalRows(
	deps: WorkspaceDeps,
	database: typeof workspaceDatabases.$inferSelect,
	writes: WriteRecord[],
): Promise<boolean> {
	const started = Date.now()
	try {
		await deps.db.transaction(async (tx) => {
			const rows = await insertLocalRows(
				tx,
				database.organizationId,
				database,
				writes.map((write) => write.values),
			)
			const list = (values: string[]) =>
				sql`array[${sql.join(
					values.map((value) => sql`${value}`),
					sql`, `,
				)}]::text[]`
			await tx.execute(sql`
				update ${workspaceWrites} set state = 'delivered', external_row_id = delivered.external_id,
					delivered_at = now(), last_error = null, next_attempt_at = null, locked_until = null,
					attempt_log = ${withAttempt(attemptOf(started, null))}
				from (select unnest(${list(writes.map((write) => write.id))}) as id,
					unnest(${list(rows.map((row) => row.externalId))}) as external_id) as delivered
				where ${workspaceWrites.id} = delivered.id`)
		})
		return true
	} catch (error) {
		deps.log.warn({ err: error, writes: writes.length }, 'local rows not stored together; trying one by one')
		return false
	}
}

async function attemptWrite(
	deps: WorkspaceDeps,
	write: WriteRecord,
	target: { database: typeof workspaceDatabases.$inferSelect; workspace: typeof workspaces.$inferSelect },
): Promise<void> {
	const { database, workspace } = target
	const external = {
		externalId: database.externalId,
		name: database.name,
		icon: database.icon,
		url: database.url,
		properties: database.properties,
	}
	if (write.kind === 'delete' || write.kind === 'restore') {
		await attemptRemoval(deps, write, target)
		return
	}
	const started = Date.now()
	const connector = deps.connectors.for(workspace)
	const lockedUntil = write.lockedUntil?.getTime() ?? 0
	const beforeSend = () => {
		if (lockedUntil - Date.now() < deps.notion.timeoutMs + leaseMarginMs) {
			throw new LeaseRunningOut()
		}
	}
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
			row ??= await connector.createRow(external, write.values, { beforeSend })
		}
		// Record the delivery before anything else can fail: the row exists now.
		const recorded = await deps.db
			.update(workspaceWrites)
			.set({
				state: 'delivered',
				externalRowId: row.externalId,
				deliveredAt: new Date(),
				lastError: null,
				nextAttemptAt: null,
				lockedUntil: null,
				attemptLog: withAttempt(attemptOf(started, null)),
			})
			.where(stillClaimed(write))
			.returning({ id: workspaceWrites.id })
		if (recorded.length === 0) {
			// Only an update can get here (a create never leaves without the lease): another worker
			// took the write over and records its own result.
			deps.log.warn({ writeId: write.id }, 'write taken over by another attempt; result not recorded')
			return
		}
		if (workspace.tool === 'notion') {
			await mirrorRow(deps, database, row)
		}
	} catch (error) {
		await recordFailure(deps, write, workspace.id, error, started)
	}
}

/** Thrown inside a delivery's transaction when another worker took the write over: nothing is kept. */
class TakenOver extends Error {}

/**
 * A row's delete or restore. A local row's delete is stored with the values it removed, in the
 * transaction that removes it, so its restore always finds them (the latest delete of the row
 * delivered). On Notion the page goes to the trash and comes back from it; the mirror follows.
 */
async function attemptRemoval(
	deps: WorkspaceDeps,
	write: WriteRecord,
	target: { database: typeof workspaceDatabases.$inferSelect; workspace: typeof workspaces.$inferSelect },
): Promise<void> {
	const { database, workspace } = target
	const external = {
		externalId: database.externalId,
		name: database.name,
		icon: database.icon,
		url: database.url,
		properties: database.properties,
	}
	const externalRowId = write.externalRowId
	const started = Date.now()
	const delivered = (values: RowValues) => ({
		state: 'delivered' as const,
		values,
		deliveredAt: new Date(),
		lastError: null,
		nextAttemptAt: null,
		lockedUntil: null,
		attemptLog: withAttempt(attemptOf(started, null)),
	})
	try {
		if (!externalRowId) {
			throw new ConnectorError('not_found', `No row to ${write.kind}.`)
		}
		if (workspace.tool === 'local') {
			await deps.db.transaction(async (tx) => {
				const local = createLocalConnector({ db: tx, orgId: database.organizationId, workspaceId: workspace.id })
				let values = write.values
				if (write.kind === 'delete') {
					values = (await local.deleteRow(external, externalRowId))?.values ?? write.values
				} else {
					const [removed] = await tx
						.select({ values: workspaceWrites.values })
						.from(workspaceWrites)
						.where(
							and(
								eq(workspaceWrites.databaseId, database.id),
								eq(workspaceWrites.externalRowId, externalRowId),
								eq(workspaceWrites.kind, 'delete'),
								eq(workspaceWrites.state, 'delivered'),
							),
						)
						.orderBy(desc(workspaceWrites.deliveredAt))
						.limit(1)
					await local.restoreRow(external, externalRowId, removed?.values ?? {})
				}
				const recorded = await tx.update(workspaceWrites).set(delivered(values)).where(stillClaimed(write)).returning()
				if (recorded.length === 0) {
					throw new TakenOver()
				}
			})
			return
		}
		const connector = deps.connectors.for(workspace)
		const row =
			write.kind === 'delete'
				? await connector.deleteRow(external, externalRowId).then(() => null)
				: await connector.restoreRow(external, externalRowId, write.values)
		const recorded = await deps.db
			.update(workspaceWrites)
			.set(delivered(write.values))
			.where(stillClaimed(write))
			.returning({ id: workspaceWrites.id })
		if (recorded.length === 0) {
			throw new TakenOver()
		}
		if (row) {
			await mirrorRow(deps, database, row)
		} else {
			await forgetRow(deps, database.id, externalRowId)
		}
	} catch (error) {
		if (error instanceof TakenOver) {
			deps.log.warn({ writeId: write.id }, 'write taken over by another attempt; result not recorded')
			return
		}
		await recordFailure(deps, write, workspace.id, error, started)
	}
}

async function recordFailure(
	deps: WorkspaceDeps,
	write: WriteRecord,
	workspaceId: string,
	error: unknown,
	started: number,
) {
	const isRefused = error instanceof ConnectorError && (error.kind === 'invalid' || error.kind === 'not_found')
	const isDead = isRefused || write.attempts >= deps.writes.maxAttempts
	const delaySeconds = deps.writes.retryDelaySeconds * 2 ** Math.max(0, write.attempts - 1)
	const nextAttemptAt = isDead ? null : new Date(Date.now() + delaySeconds * 1000)
	if (error instanceof ConnectorError && error.kind === 'unauthorized') {
		await deps.db.update(workspaces).set({ status: 'needs_reauth' }).where(eq(workspaces.id, workspaceId))
	}
	deps.log.warn({ err: error, writeId: write.id, attempts: write.attempts, isDead }, 'workspace write not delivered')
	const recorded = await deps.db
		.update(workspaceWrites)
		.set({
			state: isDead ? 'dead' : 'failed',
			lastError: describeError(error),
			nextAttemptAt,
			lockedUntil: null,
			attemptLog: withAttempt(attemptOf(started, describeError(error))),
		})
		.where(stillClaimed(write))
		.returning({ id: workspaceWrites.id })
	// Taken over by another worker meanwhile: its attempt decides what happens next.
	if (!isDead && recorded.length > 0) {
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
	for (let start = 0; start < orphans.length; start += deliveryBatch.maxWrites) {
		const writeIds = orphans.slice(start, start + deliveryBatch.maxWrites).map((orphan) => orphan.id)
		await deps.jobs.send(deps.queues.deliver, { writeIds })
	}
}
