import { type LimitKey, limitKeySchema, type UsageMeter } from '@blocksmith/contracts/subscriptions.ts'
import type { Db } from '#src/db/client.ts'

/** The calendar month (UTC) a moment falls in: monthly meters count from its first instant. */
export function monthOf(now: Date): { start: Date; end: Date } {
	const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
	const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
	return { start, end }
}

/**
 * How much of one limit an organization uses. Each module that owns what a limit counts
 * registers its meter (forms count forms, uploads count bytes), so this module reads no
 * feature's tables. A limit without a meter (a module not built yet) counts 0.
 */
export type Meter = (db: Db, organizationId: string, month: { start: Date; end: Date }) => Promise<number>

/** How long a monthly count read by a public page is reused: a form's page must not count rows per view. */
const publicCountTtlMs = 30_000

export function createMeters() {
	const meters = new Map<LimitKey, Meter>()
	const recent = new Map<string, { value: number; at: number }>()

	async function measure(db: Db, organizationId: string, key: LimitKey, now: Date): Promise<number> {
		const meter = meters.get(key)
		return meter ? meter(db, organizationId, monthOf(now)) : 0
	}

	return {
		register(key: LimitKey, meter: Meter): void {
			if (meters.has(key)) {
				throw new Error(`a meter for ${key} is registered already`)
			}
			meters.set(key, meter)
		},
		measure,
		/** The same, reused for 30 s: for public pages, where a count per visit would be too dear. */
		async measureRecent(db: Db, organizationId: string, key: LimitKey, now: Date): Promise<number> {
			const id = `${organizationId}:${key}:${monthOf(now).start.getTime()}`
			const kept = recent.get(id)
			if (kept && Date.now() - kept.at < publicCountTtlMs) {
				return kept.value
			}
			const value = await measure(db, organizationId, key, now)
			if (recent.size > 10_000) {
				recent.clear()
			}
			recent.set(id, { value, at: Date.now() })
			return value
		},
		/** Every meter's reading, in the contract's order. */
		async all(
			db: Db,
			organizationId: string,
			now: Date,
			limits: Record<LimitKey, number | null>,
		): Promise<UsageMeter[]> {
			const keys = limitKeySchema.options
			const readings = await Promise.all(keys.map((key) => measure(db, organizationId, key, now)))
			return keys.map((key, index) => ({ key, used: readings[index] ?? 0, limit: limits[key] ?? null }))
		},
	}
}

export type Meters = ReturnType<typeof createMeters>
