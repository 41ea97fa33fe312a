import { sql } from 'drizzle-orm'
import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'

/** An export of everything an organization has: built by a job into one ZIP in storage (decision 040). */
export const organizationExports = pgTable(
	'organization_exports',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
		status: text('status', { enum: ['queued', 'running', 'ready', 'failed', 'expired'] })
			.notNull()
			.default('queued'),
		/** Steps done of the steps there are, and the one running. */
		progress: jsonb('progress')
			.$type<{ done: number; total: number; step: string | null }>()
			.notNull()
			.default({ done: 0, total: 0, step: null }),
		/** The archive in storage, once built; removed when the link expires. */
		storageKey: text('storage_key'),
		byteSize: bigint('byte_size', { mode: 'number' }),
		error: text('error'),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		startedAt: timestamp('started_at', { withTimezone: true }),
		finishedAt: timestamp('finished_at', { withTimezone: true }),
		expiresAt: timestamp('expires_at', { withTimezone: true }),
	},
	(table) => [
		index('organization_exports_organization_idx').on(table.organizationId, table.createdAt),
		index('organization_exports_expiring_idx').on(table.expiresAt).where(sql`${table.storageKey} is not null`),
	],
)
