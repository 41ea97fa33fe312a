import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

/**
 * The organization's invoices database: a workspace database whose rows are invoices (number,
 * client relation, amount, dates, status select…), mapped property by property. Finalized
 * invoices get a row there, and their status and paid date are written back to it; one per
 * organization.
 */
export const invoiceDatabases = pgTable(
	'invoice_databases',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		databaseId: text('database_id')
			.notNull()
			.references(() => workspaceDatabases.id, { onDelete: 'cascade' }),
		/** Property ids per field, as the contract validated it (`invoiceDatabaseMappingSchema`). */
		mapping: jsonb('mapping').$type<Record<string, unknown>>().notNull(),
		/** The last `sync_invoices`: when, and what it did. */
		lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
		lastSync: jsonb('last_sync').$type<Record<string, unknown> | null>(),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [uniqueIndex('invoice_databases_organization_idx').on(table.organizationId)],
)

/** A saved filter of the invoices list (`invoice_filter`): status, client, dates, amount, currency. */
export const invoiceFilters = pgTable(
	'invoice_filters',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		filter: jsonb('filter').$type<Record<string, unknown>>().notNull(),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [index('invoice_filters_organization_idx').on(table.organizationId)],
)

export type InvoiceDatabaseRecord = typeof invoiceDatabases.$inferSelect
export type InvoiceFilterRecord = typeof invoiceFilters.$inferSelect
