import { pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'

/**
 * An organization scheduled for deletion (decision 040): its public pages are gone and its
 * dashboard is closed at once; an owner can restore it until `purgeAfter`, when a job purges
 * everything of it. The row goes with the organization (cascade) when it is purged.
 */
export const organizationDeletions = pgTable('organization_deletions', {
	organizationId: text('organization_id')
		.primaryKey()
		.references(() => organizations.id, { onDelete: 'cascade' }),
	requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
	/** Whose deletion it was, kept as text: the requester's account may be deleted meanwhile. */
	requestedByName: text('requested_by_name'),
	/** `requested`: an owner deleted it; `account_deleted`: its only member deleted their account. */
	reason: text('reason', { enum: ['requested', 'account_deleted'] }).notNull(),
	requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
	purgeAfter: timestamp('purge_after', { withTimezone: true }).notNull(),
})
