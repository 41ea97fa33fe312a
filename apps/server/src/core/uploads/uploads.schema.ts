import { sql } from 'drizzle-orm'
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'

/** A stored file: announced by a direct-upload request, then uploaded once to its signed URL. */
export const blobs = pgTable(
	'blobs',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		key: text('key').notNull().unique(),
		filename: text('filename').notNull(),
		contentType: text('content_type').notNull(),
		byteSize: bigint('byte_size', { mode: 'number' }).notNull(),
		checksum: text('checksum').notNull(),
		status: text('status', { enum: ['pending', 'uploaded'] })
			.notNull()
			.default('pending'),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
		/**
		 * Null: a member's upload, usable anywhere in the organization. Otherwise the one place an
		 * anonymous upload may go (`form:<formId>/<fieldId>`), where it is attached once.
		 */
		scope: text('scope'),
		/** What an anonymous upload was attached to (`form-submission:<id>`); unattached ones are swept. */
		claimedBy: text('claimed_by'),
	},
	(table) => [
		index('blobs_organization_id_idx').on(table.organizationId),
		index('blobs_unclaimed_idx')
			.on(table.createdAt)
			.where(sql`${table.scope} is not null and ${table.claimedBy} is null`),
	],
)
