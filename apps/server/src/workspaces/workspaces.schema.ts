import type { Property, RowValues } from '@blocksmith/contracts/workspaces.ts'
import { sql } from 'drizzle-orm'
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'

/** One delivery attempt of a write, as its log keeps it. */
export type WriteAttempt = { at: string; error: string | null; ms: number | null }

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

/** A connected workspace: a Notion workspace (through one bot token), or a set of our own databases. */
export const workspaces = pgTable(
	'workspaces',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		tool: text('tool', { enum: ['local', 'notion'] }).notNull(),
		name: text('name').notNull(),
		icon: text('icon'),
		status: text('status', { enum: ['connected', 'needs_reauth'] })
			.notNull()
			.default('connected'),
		/** Notion's workspace id; null for local. */
		externalId: text('external_id'),
		/** AES-GCM sealed JSON `{ accessToken, refreshToken }` (lib/secrets.ts). */
		credentials: text('credentials'),
		/** When its list of databases was last read: newly shared Notion databases appear on the next read. */
		discoveredAt: timestamp('discovered_at', { withTimezone: true }),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [
		index('workspaces_organization_id_idx').on(table.organizationId),
		index('workspaces_external_id_idx').on(table.externalId),
	],
)

/** A database of a workspace (a Notion data source, or a local table), with its schema and sync state. */
export const workspaceDatabases = pgTable(
	'workspace_databases',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id, { onDelete: 'cascade' }),
		externalId: text('external_id').notNull(),
		name: text('name').notNull(),
		icon: text('icon'),
		url: text('url'),
		properties: jsonb('properties').$type<Property[]>().notNull(),
		syncState: text('sync_state', { enum: ['idle', 'queued', 'running'] })
			.notNull()
			.default('idle'),
		lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
		lastReconciledAt: timestamp('last_reconciled_at', { withTimezone: true }),
		nextSyncAt: timestamp('next_sync_at', { withTimezone: true }),
		lastError: text('last_error'),
		rowCount: integer('row_count').notNull().default(0),
		/**
		 * Whether the sync also mirrors each row's page content (Notion blocks) into
		 * `workspace_row_content`: set while a portal shows the database's rows as pages.
		 */
		mirrorContent: boolean('mirror_content').notNull().default(false),
		/**
		 * Bumped by a trigger on every statement that inserts, updates or deletes its rows
		 * (migration 0011): what cached figures of the database are keyed by.
		 */
		rowsVersion: bigint('rows_version', { mode: 'number' }).notNull().default(0),
		/** The newest `last_edited_time` mirrored: the next incremental sync reads from here. */
		editedCursor: timestamp('edited_cursor', { withTimezone: true, precision: 3 }),
		createdAt,
		updatedAt,
	},
	(table) => [
		uniqueIndex('workspace_databases_workspace_external_idx').on(table.workspaceId, table.externalId),
		index('workspace_databases_organization_id_idx').on(table.organizationId),
		index('workspace_databases_next_sync_idx').on(table.nextSyncAt),
	],
)

/**
 * Rows of every database: the source of truth for `local` databases, the mirror for Notion.
 * Values are typed JSON keyed by property id; the title and timestamps are extracted for
 * lists, sorting and incremental sync.
 */
export const workspaceRows = pgTable(
	'workspace_rows',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		databaseId: text('database_id')
			.notNull()
			.references(() => workspaceDatabases.id, { onDelete: 'cascade' }),
		externalId: text('external_id').notNull(),
		values: jsonb('values').$type<RowValues>().notNull(),
		title: text('title').notNull().default(''),
		url: text('url'),
		createdTime: timestamp('created_time', { withTimezone: true, precision: 3 }).notNull(),
		lastEditedTime: timestamp('last_edited_time', { withTimezone: true, precision: 3 }).notNull(),
		mirroredAt: timestamp('mirrored_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [
		uniqueIndex('workspace_rows_database_external_idx').on(table.databaseId, table.externalId),
		index('workspace_rows_database_created_idx').on(table.databaseId, table.createdTime, table.id),
		index('workspace_rows_organization_id_idx').on(table.organizationId),
		index('workspace_rows_title_idx').on(table.databaseId, sql`lower(${table.title})`),
		// Containment (`values @> {"prop": ["row id"]}`): how a portal finds a member's rows among many.
		index('workspace_rows_values_idx').using('gin', sql`${table.values} jsonb_path_ops`),
	],
)

/**
 * A Notion row's page content (its blocks, reduced to what a read-only page draws), mirrored for
 * databases with `mirrorContent`. `rowEditedTime` is the row's `last_edited_time` when read: the
 * sync reads the content again once the row's is newer.
 */
export const workspaceRowContent = pgTable(
	'workspace_row_content',
	{
		rowId: text('row_id')
			.primaryKey()
			.references(() => workspaceRows.id, { onDelete: 'cascade' }),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		blocks: jsonb('blocks').$type<unknown[]>().notNull(),
		rowEditedTime: timestamp('row_edited_time', { withTimezone: true, precision: 3 }).notNull(),
		fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [index('workspace_row_content_organization_id_idx').on(table.organizationId)],
)

/** A row write waiting for, or past, delivery to its workspace. Stored before any attempt. */
export const workspaceWrites = pgTable(
	'workspace_writes',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		workspaceId: text('workspace_id')
			.notNull()
			.references(() => workspaces.id, { onDelete: 'cascade' }),
		databaseId: text('database_id')
			.notNull()
			.references(() => workspaceDatabases.id, { onDelete: 'cascade' }),
		/**
		 * `delete` trashes the row (Notion) or removes it (local); `restore` brings it back. Both
		 * follow the row's earlier writes (`afterWriteId`) like an update.
		 */
		kind: text('kind', { enum: ['create', 'update', 'delete', 'restore'] }).notNull(),
		/**
		 * The row's id in the workspace: known from the start for updates, once delivered for creates,
		 * and for an update made after another write (`afterWriteId`) once that write is delivered.
		 */
		externalRowId: text('external_row_id'),
		/**
		 * The write on the same row that must be delivered first (a timer's stop after its start):
		 * this one waits for it, and takes the row it created when it had none yet.
		 */
		afterWriteId: text('after_write_id'),
		/**
		 * What is written. A local row's delete keeps here, once delivered, the values the row had:
		 * what its restore puts back (a Notion page keeps its own in the trash).
		 */
		values: jsonb('values').$type<RowValues>().notNull(),
		state: text('state', { enum: ['pending', 'delivered', 'failed', 'dead'] })
			.notNull()
			.default('pending'),
		attempts: integer('attempts').notNull().default(0),
		lastError: text('last_error'),
		/** Every attempt, oldest first (the last 20): when, how long, and its error when it failed. */
		attemptLog: jsonb('attempt_log').$type<WriteAttempt[]>().notNull().default([]),
		source: text('source').notNull(),
		/** When the first attempt began: a retried create looks for rows made since then. */
		firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true, precision: 3 }),
		nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
		/** Held by the delivery in progress, so two workers never deliver one write at once. */
		lockedUntil: timestamp('locked_until', { withTimezone: true }),
		deliveredAt: timestamp('delivered_at', { withTimezone: true }),
		createdAt,
	},
	(table) => [
		index('workspace_writes_workspace_state_idx').on(table.workspaceId, table.state, table.createdAt),
		index('workspace_writes_database_row_idx').on(table.databaseId, table.externalRowId),
		index('workspace_writes_organization_id_idx').on(table.organizationId),
		index('workspace_writes_after_idx').on(table.afterWriteId).where(sql`${table.afterWriteId} is not null`),
		// The sweeper's scan: only writes still open, a small part of the table once deliveries run.
		index('workspace_writes_open_idx').on(table.createdAt).where(sql`${table.state} in ('pending', 'failed')`),
	],
)

/** Deployment-wide settings learnt at run time (e.g. the Notion webhook verification token). */
export const workspaceSettings = pgTable('workspace_settings', {
	key: text('key').primaryKey(),
	value: text('value').notNull(),
	updatedAt,
})
