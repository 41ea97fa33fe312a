import { APIErrorCode, APIResponseError } from '@notionhq/client'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Database, openPostgres } from '#src/db/client.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { createDbRateLimiter } from './notion.limiter.ts'
import { createNotionQueue } from './notion.queue.ts'

// Two instances (each its own queue, and on PostgreSQL its own connection pool, as two
// processes have) share one database: together they keep to one pace per Notion workspace,
// and a Retry-After that one of them meets pauses the other.

const requestsPerSecond = 20
const burst = 2

let t: TestApp
let second: Database | undefined

beforeAll(async () => {
	t = await createTestApp()
	const { database } = t.services
	second = database.kind === 'postgres' ? openPostgres(database.connectionString) : undefined
})
afterAll(async () => {
	await second?.close()
	await t?.close()
})

/** An instance: its own queue over the shared database. */
function instance(options: { maxWaitMs?: number; db?: TestApp['db'] } = {}) {
	return createNotionQueue({
		limiter: createDbRateLimiter({ db: options.db ?? t.db, requestsPerSecond, burst }),
		...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
	})
}

function rateLimited(retryAfterSeconds: number) {
	return new APIResponseError({
		code: APIErrorCode.RateLimited,
		status: 429,
		message: 'You have been rate limited.',
		headers: { 'retry-after': String(retryAfterSeconds) },
		rawBodyText: '',
		additional_data: undefined,
		request_id: undefined,
	})
}

async function pausedUntil(key: string): Promise<number> {
	const result = await t.db.execute(
		sql`select paused_until as "pausedUntil" from notion_rate_limits where workspace_key = ${key}`,
	)
	const [row] = (result as unknown as { rows: Array<{ pausedUntil: string | Date | null }> }).rows
	return row?.pausedUntil ? new Date(row.pausedUntil).getTime() : 0
}

describe('one Notion pace per workspace across instances', () => {
	test('two instances driving one workspace start calls at the configured rate together, not each', async () => {
		const a = instance()
		const b = instance({ db: second?.db })
		const starts: Array<{ by: 'a' | 'b'; at: number }> = []
		const drive = (queue: ReturnType<typeof instance>, by: 'a' | 'b') =>
			Array.from({ length: 30 }, () =>
				queue.run('ws-shared-pace', async () => {
					starts.push({ by, at: performance.now() })
				}),
			)
		await Promise.all([...drive(a, 'a'), ...drive(b, 'b')])

		expect(starts).toHaveLength(60)
		const times = starts.map((start) => start.at).sort((x, y) => x - y)
		const first = times[0] ?? 0
		const last = times[times.length - 1] ?? 0
		// 60 calls at 20/s with a burst of 2 take at least 58 intervals of 50 ms: 2.9 s. Two
		// instances with a budget each would start them in half that. The margins are for timer and
		// database jitter on a busy machine (a start is recorded a little after its slot).
		expect(last - first).toBeGreaterThanOrEqual(2900 * 0.9)
		const combinedRate = (times.length - burst) / ((last - first) / 1000)
		expect(combinedRate).toBeLessThanOrEqual(requestsPerSecond * 1.1)
		// Nor much slower: the shared statement costs little.
		expect(combinedRate).toBeGreaterThan(requestsPerSecond * 0.5)
		// In any one second, at most the burst plus a second's worth of calls start (one more for jitter).
		for (const from of times) {
			const inWindow = times.filter((at) => at >= from && at < from + 1000).length
			expect(inWindow).toBeLessThanOrEqual(burst + requestsPerSecond + 1)
		}
		// Both instances were served throughout, not one after the other.
		const span = (by: 'a' | 'b') => starts.filter((start) => start.by === by).map((start) => start.at)
		expect(Math.min(...span('b'))).toBeLessThan(Math.max(...span('a')))
		expect(Math.min(...span('a'))).toBeLessThan(Math.max(...span('b')))
	})

	test("a 429 with Retry-After met by one instance pauses the other's calls until it ends", async () => {
		const a = instance()
		const b = instance({ db: second?.db })
		const key = 'ws-shared-pause'
		let limitedAt = 0
		let isFirst = true
		const aStarts: number[] = []
		const fromA = a.run(key, async () => {
			aStarts.push(Date.now())
			if (isFirst) {
				isFirst = false
				limitedAt = Date.now()
				throw rateLimited(1)
			}
			return 'a'
		})
		// Once the pause is recorded, the other instance's calls wait for its end.
		const deadline = Date.now() + 5000
		while ((await pausedUntil(key)) === 0) {
			if (Date.now() > deadline) {
				throw new Error('the pause was never recorded in the database')
			}
			await new Promise((resolve) => setTimeout(resolve, 5))
		}
		const bStarts: number[] = []
		const fromB = Array.from({ length: 3 }, () =>
			b.run(key, async () => {
				bStarts.push(Date.now())
				return 'b'
			}),
		)
		expect(await Promise.all([fromA, ...fromB])).toEqual(['a', 'b', 'b', 'b'])
		expect(bStarts).toHaveLength(3)
		for (const at of bStarts) {
			expect(at).toBeGreaterThanOrEqual(limitedAt + 1000 - 2)
		}
		// The call that met the 429 went again once the pause ended, too.
		expect(aStarts[1] ?? 0).toBeGreaterThanOrEqual(limitedAt + 1000 - 2)
	})

	test('a Retry-After longer than a call can wait still pauses the workspace for every instance', async () => {
		const a = instance({ maxWaitMs: 500 })
		const b = instance({ maxWaitMs: 500, db: second?.db })
		const key = 'ws-shared-long-pause'
		const calls: string[] = []
		const limited = a.run(key, async () => {
			calls.push('a')
			throw rateLimited(90)
		})
		await expect(limited).rejects.toMatchObject({ kind: 'unavailable' })
		// 90 s is recorded, although the call that met it gave up at once.
		expect((await pausedUntil(key)) - Date.now()).toBeGreaterThan(85_000)
		const fromB = b.run(key, async () => {
			calls.push('b')
		})
		await expect(fromB).rejects.toMatchObject({ kind: 'unavailable' })
		expect(calls).toEqual(['a'])
		// Other workspaces are not paused.
		await b.run('ws-other', async () => {
			calls.push('other')
		})
		expect(calls).toEqual(['a', 'other'])
	})
})
