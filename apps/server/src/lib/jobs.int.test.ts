import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { createJobs, type JobQueue } from './jobs.ts'
import { createLogger } from './logger.ts'

// A start reads the queues and schedules once and writes only what differs from the code's
// settings: a queue that is new is created, one whose settings changed is updated (a queue that
// notified before and now fetches batches stops notifying), a changed schedule is replaced, and
// an unchanged start writes nothing.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

type Row = { name: string; notify: boolean; retry_limit: number }
type ScheduleRow = { name: string; cron: string; updated_on: Date }

async function queueRow(name: string): Promise<Row | undefined> {
	const result = (await t.db.execute(
		sql`select name, notify, retry_limit from pgboss.queue where name = ${name}`,
	)) as unknown as { rows: Row[] }
	return result.rows[0]
}

async function scheduleRow(name: string): Promise<ScheduleRow | undefined> {
	const result = (await t.db.execute(
		sql`select name, cron, updated_on from pgboss.schedule where name = ${name}`,
	)) as unknown as { rows: ScheduleRow[] }
	return result.rows[0]
}

async function startWith(queue: JobQueue<object>): Promise<void> {
	const jobs = createJobs({ database: t.services.database, log: createLogger('silent') })
	jobs.register(queue)
	await jobs.start()
	await jobs.stop(1000)
}

describe('starting the job system', () => {
	test('creates new queues, updates changed ones and schedules, leaves the rest alone', async () => {
		const queue: JobQueue<object> = {
			name: 'jobs-test-queue',
			options: { retryLimit: 2 },
			handle: async () => {},
			cron: '5 * * * *',
		}
		await startWith(queue)
		expect(await queueRow(queue.name)).toEqual({ name: queue.name, notify: true, retry_limit: 2 })
		const scheduled = await scheduleRow(queue.name)
		expect(scheduled?.cron).toBe('5 * * * *')

		// Unchanged: the schedule is not written again.
		await startWith(queue)
		expect((await scheduleRow(queue.name))?.updated_on).toEqual(scheduled?.updated_on)

		// Batches now, with another retry limit and schedule: all three follow the code.
		await startWith({ ...queue, batchSize: 10, options: { retryLimit: 4 }, cron: '7 * * * *' })
		expect(await queueRow(queue.name)).toEqual({ name: queue.name, notify: false, retry_limit: 4 })
		expect((await scheduleRow(queue.name))?.cron).toBe('7 * * * *')
	})

	test('a schedule no registered queue wants any more is removed (BACKUP_SCHEDULE=off after a daily backup)', async () => {
		const queue: JobQueue<object> = {
			name: 'jobs-test-dropped-cron',
			options: {},
			handle: async () => {},
			cron: '7 3 * * *',
		}
		await startWith(queue)
		expect((await scheduleRow(queue.name))?.cron).toBe('7 3 * * *')
		// The same queue without its cron: the stored schedule would keep sending daily jobs.
		await startWith({ ...queue, cron: undefined })
		expect(await scheduleRow(queue.name)).toBeUndefined()
	})

	test('a web process (isWorker false) creates the queues and sends, but works no job and schedules nothing', async () => {
		const handledBy: string[] = []
		const queueOf = (role: string): JobQueue<{ n: number }> => ({
			name: 'jobs-test-roles',
			options: { retryLimit: 0 },
			handle: async () => {
				handledBy.push(role)
			},
			cron: '9 * * * *',
		})
		const log = createLogger('silent')
		const web = createJobs({ database: t.services.database, log, isWorker: false, pollingIntervalSeconds: 0.5 })
		web.register(queueOf('web'))
		await web.start()
		try {
			expect(web.isRunning()).toBe(true)
			expect(await queueRow('jobs-test-roles')).toMatchObject({ name: 'jobs-test-roles' })
			expect(await scheduleRow('jobs-test-roles')).toBeUndefined()
			const worker = createJobs({ database: t.services.database, log, pollingIntervalSeconds: 0.5 })
			worker.register(queueOf('worker'))
			await worker.start()
			try {
				expect((await scheduleRow('jobs-test-roles'))?.cron).toBe('9 * * * *')
				// Both running, both with the queue: every job sent by the web instance is worked by the worker.
				for (let n = 0; n < 6; n++) {
					await web.send(queueOf('web'), { n })
				}
				const deadline = Date.now() + 30_000
				while (handledBy.length < 6 && Date.now() < deadline) {
					await new Promise((resolve) => setTimeout(resolve, 50))
				}
				expect(handledBy).toEqual(Array(6).fill('worker'))
			} finally {
				await worker.stop(1000)
			}
		} finally {
			await web.stop(1000)
		}
	})
})
