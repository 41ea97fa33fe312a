import type { TimeMapping } from '@blocksmith/contracts/time.ts'
import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

/** A workspace database chosen to hold time entries, with how its properties map to an entry. */
export const timeDatabases = pgTable(
	'time_databases',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		databaseId: text('database_id')
			.notNull()
			.references(() => workspaceDatabases.id, { onDelete: 'cascade' }),
		mapping: jsonb('mapping').$type<TimeMapping>().notNull(),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [uniqueIndex('time_databases_organization_database_idx').on(table.organizationId, table.databaseId)],
)

/**
 * An entry tracked here (the timer; later manual entries): our record of what was written to
 * its row, so the running timer is read from our database on every load, tab and device, and
 * each change to the row follows the one before it in the write queue (`lastWriteId`).
 */
export const timeEntries = pgTable(
	'time_entries',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		userId: text('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		databaseId: text('database_id')
			.notNull()
			.references(() => workspaceDatabases.id, { onDelete: 'cascade' }),
		/** The write that creates the row: the row is the one it delivered. */
		createWriteId: text('create_write_id').notNull(),
		/** The newest write on the row; the next one is delivered after it. */
		lastWriteId: text('last_write_id').notNull(),
		startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
		/** Null while the timer runs. */
		endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }),
		description: text('description'),
		project: text('project'),
		task: text('task'),
		tags: jsonb('tags').$type<string[]>().notNull().default([]),
		billable: boolean('billable'),
		createdAt,
		updatedAt,
	},
	(table) => [
		// One running timer per person per organization, whatever the database.
		uniqueIndex('time_entries_running_idx').on(table.organizationId, table.userId).where(sql`${table.endedAt} is null`),
		index('time_entries_organization_database_idx').on(table.organizationId, table.databaseId),
	],
)
