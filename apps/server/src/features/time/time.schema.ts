import type { TimeMapping } from '@blocksmith/contracts/time.ts'
import type { TimeRates, TimeViewSettings } from '@blocksmith/contracts/time-reports.ts'
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
		/** Billable rates and currency; null until set (reports then show hours without amounts). */
		rates: jsonb('rates').$type<TimeRates>(),
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
		/**
		 * Who tracked it; null once they deleted their account (migration 0023). The entry is the
		 * team's hours: it stays in reports and exports, and nobody can change it any more.
		 */
		userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
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
		/**
		 * The person as the row stores them (the member's id, or their Notion user's): reports name
		 * a Notion person after the member who tracked as them.
		 */
		personRef: text('person_ref'),
		/** Deleted by its person: hidden everywhere, its row's delete queued; undo clears it and restores the row. */
		deletedAt: timestamp('deleted_at', { withTimezone: true }),
		createdAt,
		updatedAt,
	},
	(table) => [
		// One running timer per person per organization, whatever the database.
		uniqueIndex('time_entries_running_idx').on(table.organizationId, table.userId).where(sql`${table.endedAt} is null`),
		index('time_entries_organization_database_idx').on(table.organizationId, table.databaseId),
	],
)

/** A saved report: a time database's entries over a range of days, filtered, rounded and grouped. */
export const timeViews = pgTable(
	'time_views',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		databaseId: text('database_id')
			.notNull()
			.references(() => workspaceDatabases.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		settings: jsonb('settings').$type<TimeViewSettings>().notNull(),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [index('time_views_organization_database_idx').on(table.organizationId, table.databaseId)],
)

/** A read-only public link to a view's report; only the token's hash is kept. */
export const timeShares = pgTable(
	'time_shares',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		viewId: text('view_id')
			.notNull()
			.references(() => timeViews.id, { onDelete: 'cascade' }),
		tokenHash: text('token_hash').notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true }),
		revokedAt: timestamp('revoked_at', { withTimezone: true }),
		lastOpenedAt: timestamp('last_opened_at', { withTimezone: true }),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
	},
	(table) => [
		uniqueIndex('time_shares_token_hash_idx').on(table.tokenHash),
		index('time_shares_view_idx').on(table.viewId),
	],
)

/** Rows of a time database handed to an invoice: they are not offered again as unbilled. */
export const timeBilled = pgTable(
	'time_billed',
	{
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		databaseId: text('database_id')
			.notNull()
			.references(() => workspaceDatabases.id, { onDelete: 'cascade' }),
		/** The row's id in the workspace (stable across syncs). */
		externalRowId: text('external_row_id').notNull(),
		/** What billed it, as the invoices module names it. */
		invoiceRef: text('invoice_ref').notNull(),
		billedAt: timestamp('billed_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [uniqueIndex('time_billed_row_idx').on(table.databaseId, table.externalRowId)],
)
