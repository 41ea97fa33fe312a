import type { OrganizationDeletion } from '@blocksmith/contracts/data.ts'
import { eq } from 'drizzle-orm'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import type { JobQueue, Jobs } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { PurgeContributor } from './deletion.contributor.ts'
import { organizationDeletions } from './deletion.schema.ts'

/** A purge job: a pass over every schedule that came due. It names no organization (deletion.purge.ts). */
export type PurgeJob = Record<string, never>

export type DeletionDeps = {
	db: Db
	jobs: Jobs
	log: Logger
	storage: Storage
	subscriptions: Subscriptions
	/** config.deletion.graceDays: days an owner can restore the organization before it is purged. */
	graceDays: number
	/** Tests move time; everything else asks the clock. */
	now: () => Date
	/** The purge queue (deletion.purge.ts), registered with `jobs` by the module. */
	purgeQueue: JobQueue<PurgeJob>
	/** Purge steps of the features (charts' projection tables, …), registered from app.ts. */
	contributors: PurgeContributor[]
}

type DeletionRow = typeof organizationDeletions.$inferSelect

function toDeletion(row: DeletionRow): OrganizationDeletion {
	return {
		requestedAt: row.requestedAt.toISOString(),
		purgeAfter: row.purgeAfter.toISOString(),
		requestedBy: row.requestedByName,
	}
}

/**
 * Schedules an organization's deletion (idempotent: a second call answers the first schedule);
 * purgeAfter = now + graceDays unless given. Public pages stop at once, the subscription is
 * ended. With `purgeAfter <= now` the purge job is sent at once.
 */
export async function scheduleOrganizationDeletion(
	deps: DeletionDeps,
	input: {
		organizationId: string
		requestedBy: { id: string; name: string } | null
		reason: 'requested' | 'account_deleted'
		purgeAfter?: Date
	},
): Promise<OrganizationDeletion> {
	const now = deps.now()
	const purgeAfter = input.purgeAfter ?? new Date(now.getTime() + deps.graceDays * 86_400_000)
	await deps.db
		.insert(organizationDeletions)
		.values({
			organizationId: input.organizationId,
			requestedBy: input.requestedBy?.id ?? null,
			requestedByName: input.requestedBy?.name ?? null,
			reason: input.reason,
			requestedAt: now,
			purgeAfter,
		})
		.onConflictDoNothing()
	const [row] = await deps.db
		.select()
		.from(organizationDeletions)
		.where(eq(organizationDeletions.organizationId, input.organizationId))
	if (!row) {
		// The organization itself is gone (purged meanwhile): nothing is left to schedule.
		throw new Error(`organization ${input.organizationId} no longer exists`)
	}
	// Public pages ask `isAvailable`, which reads the schedule: this process forgets what it kept
	// so they stop at once; other processes keep their answer up to 10 s (subscriptions.module.ts).
	deps.subscriptions.forget(input.organizationId)
	await deps.subscriptions.endForDeletion(input.organizationId)
	deps.log.info(
		{ organizationId: input.organizationId, reason: row.reason, purgeAfter: row.purgeAfter.toISOString() },
		'organization scheduled for deletion',
	)
	if (row.purgeAfter.getTime() <= now.getTime()) {
		await deps.jobs.send(deps.purgeQueue, {})
	}
	return toDeletion(row)
}

/**
 * Undoes a scheduled deletion: false when none was scheduled. The subscription ended with the
 * deletion stays ended (decision 040): the organization shows it as canceled and an owner
 * subscribes again, so nothing is billed for a deletion that was changed back.
 */
export async function restoreOrganization(deps: DeletionDeps, organizationId: string): Promise<boolean> {
	const removed = await deps.db
		.delete(organizationDeletions)
		.where(eq(organizationDeletions.organizationId, organizationId))
		.returning({ organizationId: organizationDeletions.organizationId })
	deps.subscriptions.forget(organizationId)
	if (removed.length > 0) {
		deps.log.info({ organizationId }, 'organization deletion undone')
	}
	return removed.length > 0
}
