import { type SQL, sql } from 'drizzle-orm'
import { fromPglite, type JobResult, PgBoss, type QueueOptions } from 'pg-boss'
import type { Database, Db } from '#src/db/client.ts'
import type { Logger } from './logger.ts'

/** A queue and the function that works its jobs. Modules register theirs before `start`. */
export type JobQueue<T extends object> = {
	name: string
	options: QueueOptions
	handle: (data: T) => Promise<void>
	/** Jobs of this queue run at once in this process (default 1): more where jobs mostly wait on the network. */
	concurrency?: number
	/** A cron expression (UTC): pg-boss then sends the queue an empty job on that schedule, once across instances. */
	cron?: string
	/** Also an empty job when a worker starts: what came due while none ran is done now, not at the next cron. */
	runAtStart?: boolean
	/**
	 * For queues that get a job per public request (a delivery per form answer): no NOTIFY per job,
	 * and jobs fetched this many at a time, every half second while idle and back to back while
	 * fetches come back full. A NOTIFY makes PostgreSQL take a database-wide lock from the commit
	 * until its WAL is flushed, so every notifying transaction commits one after the other; on
	 * PGlite each one woke a fetch of a single job on the only connection.
	 */
	batchSize?: number
}

type SendOptions = {
	/** Seconds to wait before the job may run. */
	startAfterSeconds?: number
	/**
	 * Insert the job through this connection or transaction: it then commits (or rolls back) with
	 * the caller's own records, and costs no commit of its own.
	 */
	db?: Db
}

export type Jobs = {
	register: <T extends object>(queue: JobQueue<T>) => void
	send: <T extends object>(queue: JobQueue<T>, data: T, options?: SendOptions) => Promise<string | null>
	start: () => Promise<void>
	/** Stops fetching, waits for running jobs up to `timeoutMs`, then stops. */
	stop: (timeoutMs: number) => Promise<void>
	isRunning: () => boolean
}

/**
 * pg-boss on the same database as everything else: in-process over PGlite (one connection,
 * notified in-process), or with its own small pool on PostgreSQL.
 *
 * `isWorker: false` (ROLE=web, decision 027) makes a send-only instance: it creates the queues
 * (so a send never meets a missing queue, whichever process starts first) and sends, but works
 * no queue, runs no schedule (`schedule: false`: no cron pass) and no maintenance (`supervise:
 * false`: no expiry, retention or archive passes), and opens no LISTEN connection; its sends
 * still NOTIFY the workers. It keeps `migrate`, so its start installs or upgrades pg-boss's
 * schema if it is first (under pg-boss's advisory lock, as several workers would).
 */
export function createJobs(options: {
	database: Database
	log: Logger
	pollingIntervalSeconds?: number
	/** Works the queues and runs the schedules; false for a web-only process. Default true. */
	isWorker?: boolean
}): Jobs {
	const { database, log } = options
	const isWorker = options.isWorker ?? true
	const sendOnly = isWorker ? {} : { supervise: false, schedule: false, useListenNotify: false }
	const boss =
		database.kind === 'pglite'
			? new PgBoss({ backend: 'pglite', db: fromPglite(database.pglite), useListenNotify: true, ...sendOnly })
			: new PgBoss({ connectionString: database.connectionString, max: 4, useListenNotify: true, ...sendOnly })
	boss.on('error', (error) => log.error({ err: error }, 'job system error'))
	const queues: JobQueue<never>[] = []
	let isRunning = false

	return {
		register: (queue) => {
			queues.push(queue as unknown as JobQueue<never>)
		},
		send: (queue, data, sendOptions) =>
			boss.send(queue.name, data, {
				...(sendOptions?.startAfterSeconds
					? { startAfter: new Date(Date.now() + sendOptions.startAfterSeconds * 1000) }
					: {}),
				...(sendOptions?.db ? { db: throughDrizzle(sendOptions.db) } : {}),
			}),
		isRunning: () => isRunning,
		start: async () => {
			await boss.start()
			// Queues and schedules read once and written only where they differ: asked one by one, a
			// start cost about 50 statements for 10 queues, a tenth of a second start-up on PGlite.
			const existing = new Map((await boss.getQueues()).map((found) => [found.name, found]))
			const schedules = isWorker ? await boss.getSchedules() : []
			for (const queue of queues) {
				const notify = queue.batchSize === undefined
				const wanted = { ...queue.options, notify }
				const found = existing.get(queue.name) as Record<string, unknown> | undefined
				if (!found) {
					await boss.createQueue(queue.name, wanted)
				} else if (Object.entries(wanted).some(([key, value]) => found[key] !== value)) {
					// createQueue leaves an existing queue as it was: changed settings are updated.
					await boss.updateQueue(queue.name, wanted)
				}
				if (!isWorker) {
					continue
				}
				const concurrency = queue.concurrency ?? 1
				await boss.work<object>(
					queue.name,
					notify
						? {
								pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
								// New jobs wake the worker at once (NOTIFY); retries coming due are found by this poll.
								notifyPollingIntervalSeconds: options.pollingIntervalSeconds ?? 10,
								// pg-boss waits out the polling interval after every fetch unless a fetch comes back
								// full: fetching batches, with burst mode, drains a backlog at the handlers' pace.
								batchSize: concurrency * 2,
								burstWhenBatchFull: true,
								perJobResults: true,
							}
						: {
								pollingIntervalSeconds: 0.5,
								batchSize: queue.batchSize,
								burstWhenBatchFull: true,
								perJobResults: true,
							},
					(jobs) =>
						settleEach(
							jobs,
							concurrency,
							async (job) => queue.handle(job.data as never),
							(job, error) =>
								log.warn({ err: error, queue: queue.name, jobId: job.id }, 'job failed; it will be retried'),
						),
				)
				const cron = queue.cron
				if (cron && !schedules.some((schedule) => schedule.name === queue.name && schedule.cron === cron)) {
					await boss.schedule(queue.name, cron)
				}
				if (queue.runAtStart) {
					await boss.send(queue.name, {})
				}
			}
			// A schedule no registered queue wants any more (BACKUP_SCHEDULE=off, a cron removed)
			// would go on sending jobs that nothing works.
			for (const schedule of schedules) {
				if (!queues.some((queue) => queue.name === schedule.name && queue.cron)) {
					await boss.unschedule(schedule.name)
				}
			}
			isRunning = true
		},
		stop: async (timeoutMs) => {
			isRunning = false
			await boss.stop({ graceful: true, timeout: timeoutMs, close: database.kind === 'postgres' })
		},
	}
}

/**
 * pg-boss's database interface over a Drizzle connection or transaction, so a job is inserted
 * by the caller's own transaction. pg-boss writes `$n` placeholders; they become Drizzle params.
 */
function throughDrizzle(db: Db) {
	return {
		executeSql: async (text: string, values: unknown[] = []) => {
			const chunks: SQL[] = []
			let last = 0
			for (const match of text.matchAll(/\$(\d+)/g)) {
				chunks.push(sql.raw(text.slice(last, match.index)), sql`${values[Number(match[1]) - 1]}`)
				last = match.index + match[0].length
			}
			chunks.push(sql.raw(text.slice(last)))
			const result = await db.execute(sql.join(chunks))
			return { rows: (result as unknown as { rows: unknown[] }).rows }
		},
	}
}

/**
 * Works a batch with at most `concurrency` jobs at once and settles each on its own: one
 * failing job is retried by pg-boss without failing the others of its batch.
 */
async function settleEach<T extends { id: string }>(
	jobs: T[],
	concurrency: number,
	handle: (job: T) => Promise<void>,
	onError: (job: T, error: unknown) => void,
): Promise<JobResult[]> {
	const results: JobResult[] = []
	let next = 0
	const lane = async () => {
		while (next < jobs.length) {
			const job = jobs[next++] as T
			try {
				await handle(job)
				results.push({ id: job.id, status: 'completed' })
			} catch (error) {
				onError(job, error)
				results.push({ id: job.id, status: 'failed', output: { message: String(error) } })
			}
		}
	}
	await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, lane))
	return results
}
