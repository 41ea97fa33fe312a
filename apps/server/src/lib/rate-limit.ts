import { sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { AppError } from './errors.ts'
import { rateLimits } from './rate-limit.schema.ts'

export type RateLimitRule = { limit: number; windowSeconds: number }

/**
 * Counts one request against `key` in a fixed window kept in the database, so limits hold
 * across restarts and across instances. One atomic upsert per call.
 */
export async function consumeRateLimit(
	db: Db,
	key: string,
	rule: RateLimitRule,
): Promise<{ isAllowed: boolean; retryAfterSeconds: number }> {
	const window = sql`make_interval(secs => ${rule.windowSeconds})`
	const [row] = await db
		.insert(rateLimits)
		.values({ key, count: 1, windowStart: sql`now()` })
		.onConflictDoUpdate({
			target: rateLimits.key,
			set: {
				count: sql`case when ${rateLimits.windowStart} <= now() - ${window} then 1 else ${rateLimits.count} + 1 end`,
				windowStart: sql`case when ${rateLimits.windowStart} <= now() - ${window} then now() else ${rateLimits.windowStart} end`,
			},
		})
		.returning({
			count: rateLimits.count,
			retryAfterSeconds: sql<number>`greatest(1, ceil(extract(epoch from (${rateLimits.windowStart} + ${window} - now()))))::int`,
		})
	const count = row?.count ?? 1
	return { isAllowed: count <= rule.limit, retryAfterSeconds: row?.retryAfterSeconds ?? rule.windowSeconds }
}

/** Throws RATE_LIMITED (429 with Retry-After) once `key` has used up its window. */
export async function enforceRateLimit(db: Db, key: string, rule: RateLimitRule): Promise<void> {
	const result = await consumeRateLimit(db, key, rule)
	if (!result.isAllowed) {
		throw new AppError('RATE_LIMITED', { retryAfter: result.retryAfterSeconds })
	}
}
