import { sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { type NotionRateLimiter, slotPacing } from './notion.queue.ts'
import { notionRateLimits } from './notion.schema.ts'

/**
 * The Notion pace kept in the database, so every instance on it shares one budget per Notion
 * workspace (decision 025). One statement per call: an upsert that takes the key's next free
 * slot and answers how long to wait for it. Times are the database's clock, so instances with
 * skewed clocks still agree; only the waits (durations) come back.
 */
export function createDbRateLimiter(options: {
	db: Db
	requestsPerSecond?: number | undefined
	burst?: number | undefined
}): NotionRateLimiter {
	const { db } = options
	const { intervalMs, burstToleranceMs } = slotPacing(options)
	const table = notionRateLimits
	const ms = (value: number) => sql`make_interval(secs => ${value / 1000}::float8)`
	const interval = ms(intervalMs)
	const burstTolerance = ms(burstToleranceMs)

	return {
		reserve: async (key, budgetMs) => {
			// The slot is greatest(now, allowed_at); the next one an interval later, or sooner after a
			// quiet spell (the burst). RETURNING sees the new allowed_at, one interval past the slot
			// unless a burst was left. Paused past the budget: the row stays as it was, null comes back.
			const budget = ms(Math.max(0, budgetMs))
			const result = await db.execute(sql`
				insert into notion_rate_limits as l (workspace_key, allowed_at)
				values (${key}, now() - ${burstTolerance} + ${interval})
				on conflict (workspace_key) do update set allowed_at = case
					when l.paused_until > now() + ${budget} then l.allowed_at
					else greatest(l.allowed_at, now() - ${burstTolerance}) + ${interval}
				end
				returning case
					when l.paused_until > now() + ${budget} then null
					else extract(epoch from greatest(now(), l.allowed_at - ${interval}) - now()) * 1000
				end::float8 as "waitMs"`)
			const [row] = (result as unknown as { rows: Array<{ waitMs: number | string | null }> }).rows
			return row?.waitMs == null ? null : Math.max(0, Number(row.waitMs))
		},
		pause: async (key, pauseMs) => {
			const until = sql`now() + ${ms(Math.max(0, pauseMs))}`
			await db
				.insert(table)
				.values({ workspaceKey: key, allowedAt: until, pausedUntil: until })
				.onConflictDoUpdate({
					target: table.workspaceKey,
					set: {
						allowedAt: sql`greatest(${table.allowedAt}, excluded.allowed_at)`,
						pausedUntil: sql`greatest(${table.pausedUntil}, excluded.paused_until)`,
					},
				})
		},
	}
}
