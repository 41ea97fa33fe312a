import { asc, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import { authRateLimits, organizations, sessions } from '#src/core/auth/auth.schema.ts'
import { billingSignups } from '#src/core/subscriptions/subscriptions.schema.ts'
import type { Db } from '#src/db/client.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import { rateLimits } from '#src/lib/rate-limit.schema.ts'
import { organizationDeletions } from './deletion.schema.ts'
import type { DeletionDeps, PurgeJob } from './deletion.service.ts'

// The purge (decision 040): everything of an organization whose grace period is over. Its own
// tables go with its row (foreign keys cascade); this removes first what no foreign key reaches:
// the features' own steps (charts' projection tables), its stored files, jobs naming its objects,
// rate-limit counters keyed by its objects, billing signups, sessions pointing at it. Each step
// is idempotent, so a purge that failed halfway simply runs again; the organization's row goes
// last, so until then the next run still finds what to purge.

/** Rows read at a time where a table can be large (jobs, counters). */
const pageSize = 500

/**
 * The purge job: every schedule that came due, hourly and at a worker's start. Its payload never
 * names the organization (a finished job is kept a while, and the purge leaves nothing naming it).
 */
export function createPurgeQueue(deps: () => DeletionDeps): JobQueue<PurgeJob> {
	return {
		name: 'organization-purge',
		options: { retryLimit: 5, retryDelay: 300, retryBackoff: true },
		cron: '17 * * * *',
		runAtStart: true,
		handle: async () => {
			await purgeDue(deps())
		},
	}
}

/** Purges every organization whose deletion is due; returns how many were purged. */
export async function purgeDue(deps: DeletionDeps): Promise<number> {
	const due = await deps.db
		.select({ organizationId: organizationDeletions.organizationId })
		.from(organizationDeletions)
		.where(lte(organizationDeletions.purgeAfter, deps.now()))
		.orderBy(asc(organizationDeletions.purgeAfter))
	for (const { organizationId } of due) {
		await purgeOrganization(deps, organizationId)
	}
	return due.length
}

/** Everything of one organization, gone. Does nothing when it is gone already. */
async function purgeOrganization(deps: DeletionDeps, organizationId: string): Promise<void> {
	const { db, log, storage } = deps
	const [organization] = await db
		.select({ id: organizations.id })
		.from(organizations)
		.where(eq(organizations.id, organizationId))
	if (!organization) {
		return
	}
	const counts: Record<string, number> = {}
	const owned = await ownedIdsOf(db, organizationId)
	// Jobs first: a job queued meanwhile (a projection build) could make again what a step removes.
	counts.jobs = await deleteJobs(db, owned)
	for (const contributor of deps.contributors) {
		counts[contributor.name] = await contributor.run({ db, storage, log, organizationId })
	}
	counts.files = 0
	for (const prefix of [`${organizationId}/`, `invoices/${organizationId}/`, `exports/${organizationId}/`]) {
		counts.files += await storage.deletePrefix(prefix)
	}
	counts.rateLimits = await deleteCounters(db, owned)
	counts.billingSignups = (
		await db
			.delete(billingSignups)
			.where(eq(billingSignups.organizationId, organizationId))
			.returning({ id: billingSignups.id })
	).length
	await db.update(sessions).set({ activeOrganizationId: null }).where(eq(sessions.activeOrganizationId, organizationId))
	// Everything else of it cascades from its row.
	await db.delete(organizations).where(eq(organizations.id, organizationId))
	log.info({ organizationId, purged: counts }, 'organization purged')
}

/**
 * Which strings name something of the organization: its id (or text holding it, as a storage key
 * does), or the id of a row of any table with an `organization_id` column. The tables are found
 * in the catalogue, so a table added later is covered without changing this.
 */
type OwnedIds = { organizationId: string; pick: (candidates: Iterable<string>) => Promise<Set<string>> }

async function ownedIdsOf(db: Db, organizationId: string): Promise<OwnedIds> {
	const result = (await db.execute(sql`
		select c.table_name from information_schema.columns c
		join information_schema.columns i on i.table_schema = c.table_schema and i.table_name = c.table_name and i.column_name = 'id'
		join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
		where c.table_schema = current_schema() and c.column_name = 'organization_id'
		order by c.table_name`)) as unknown as { rows: { table_name: string }[] }
	const tables = result.rows.map((row) => row.table_name)
	return {
		organizationId,
		pick: async (candidates) => {
			const owned = new Set<string>()
			const ids: string[] = []
			for (const candidate of new Set(candidates)) {
				if (candidate.includes(organizationId)) {
					owned.add(candidate)
				} else if (candidate.length >= 8 && candidate.length <= 200) {
					ids.push(candidate)
				}
			}
			if (ids.length === 0 || tables.length === 0) {
				return owned
			}
			const list = sql`array[${sql.join(
				ids.map((id) => sql`${id}`),
				sql`, `,
			)}]::text[]`
			const found = (await db.execute(
				sql.join(
					tables.map(
						(table) =>
							sql`select id::text as id from ${sql.identifier(table)} where organization_id = ${organizationId} and id::text = any(${list})`,
					),
					sql` union `,
				),
			)) as unknown as { rows: { id: string }[] }
			for (const row of found.rows) {
				owned.add(row.id)
			}
			return owned
		},
	}
}

/** Every string a JSON value holds, keys and values, and the id-like pieces of each. */
function stringsOf(value: unknown, into: Set<string>): void {
	if (typeof value === 'string') {
		into.add(value)
		for (const piece of value.split(/[^A-Za-z0-9_-]+/)) {
			if (piece) {
				into.add(piece)
			}
		}
	} else if (Array.isArray(value)) {
		for (const item of value) {
			stringsOf(item, into)
		}
	} else if (value && typeof value === 'object') {
		for (const [key, item] of Object.entries(value)) {
			into.add(key)
			stringsOf(item, into)
		}
	}
}

/**
 * pg-boss jobs whose data names the organization or one of its objects (a sync of its database,
 * a delivery of its writes, a mail with its invoice): deleted in every state but `active` (the
 * one running now ends on its own and finds its objects gone). Finished jobs are deleted too:
 * pg-boss keeps them for days, and their data is the organization's.
 */
async function deleteJobs(db: Db, owned: OwnedIds): Promise<number> {
	let deleted = 0
	// Paged by id (a uuid), in its own order.
	let after = '00000000-0000-0000-0000-000000000000'
	for (;;) {
		const page = (await db.execute(sql`
			select id::text as id, data from pgboss.job
			where state <> 'active' and id > ${after}::uuid
			order by id limit ${pageSize}`)) as unknown as { rows: { id: string; data: unknown }[] }
		if (page.rows.length === 0) {
			return deleted
		}
		after = page.rows.at(-1)?.id ?? after
		// One lookup per page, not per job: the lookup is a union over every table of the
		// organization, and a server keeps thousands of finished jobs (bench/your-data.bench.ts).
		const stringsByJob = page.rows.map((job) => {
			const strings = new Set<string>()
			stringsOf(job.data, strings)
			return { id: job.id, strings }
		})
		const ownedStrings = await owned.pick(stringsByJob.flatMap((job) => [...job.strings]))
		const named = stringsByJob
			.filter((job) => [...job.strings].some((piece) => ownedStrings.has(piece)))
			.map((job) => job.id)
		if (named.length > 0) {
			const removed = (await db.execute(
				sql`delete from pgboss.job where state <> 'active' and id = any(array[${sql.join(
					named.map((id) => sql`${id}`),
					sql`, `,
				)}]::uuid[])`,
			)) as unknown as { affectedRows?: number; rowCount?: number }
			deleted += removed.affectedRows ?? removed.rowCount ?? named.length
		}
	}
}

/** Rate-limit counters keyed by the organization's objects (`form-submit:<formId>:<ip>`). */
async function deleteCounters(db: Db, owned: OwnedIds): Promise<number> {
	let deleted = 0
	for (const table of [rateLimits, authRateLimits] as const) {
		let after = ''
		for (;;) {
			const page = await db
				.select({ key: table.key })
				.from(table)
				.where(gt(table.key, after))
				.orderBy(asc(table.key))
				.limit(pageSize)
			if (page.length === 0) {
				break
			}
			after = page.at(-1)?.key ?? after
			// One lookup per page, as for jobs.
			const stringsByKey = page.map(({ key }) => {
				const strings = new Set<string>()
				stringsOf(key, strings)
				return { key, strings }
			})
			const ownedStrings = await owned.pick(stringsByKey.flatMap((entry) => [...entry.strings]))
			const keys = stringsByKey
				.filter((entry) => [...entry.strings].some((piece) => ownedStrings.has(piece)))
				.map((entry) => entry.key)
			if (keys.length > 0) {
				await db.delete(table).where(inArray(table.key, keys))
				deleted += keys.length
			}
		}
	}
	return deleted
}
