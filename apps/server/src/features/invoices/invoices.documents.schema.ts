import type { ClientRow, InvoiceClient, InvoiceLine, InvoiceStatus } from '@blocksmith/contracts/invoice-documents.ts'
import type { DocumentDiscount, DocumentTotals } from '@blocksmith/contracts/invoice-money.ts'
import type { TaxRate } from '@blocksmith/contracts/invoices.ts'
import { sql } from 'drizzle-orm'
import {
	bigint,
	boolean,
	date,
	index,
	integer,
	jsonb,
	pgTable,
	text,
	timestamp,
	uniqueIndex,
} from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import type { InvoiceSender } from './invoices.pdf-model.ts'
import { type DocumentKind, invoiceProfiles } from './invoices.schema.ts'

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()
const minor = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0)

/** The sender frozen at finalization (the logo by its blob id, read when drawn). */
export type FrozenSender = Omit<InvoiceSender, 'logo'> & {
	logoBlobId: string | null
	paymentTermsDays: number
	isLineLevelVatRounding: boolean
}

/** Rows of a time view a draft bills: marked billed at finalization, unmarked when voided. */
export type BilledTime = { databaseId: string; externalRowIds: string[] }

/**
 * An invoice or credit note. A draft has no number and can change; finalizing numbers it and
 * freezes its client, sender and rates, after which only its status and payments change. The
 * totals are the money core's, computed by the server from the lines and stored with them.
 */
export const invoiceDocuments = pgTable(
	'invoice_documents',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		profileId: text('profile_id')
			.notNull()
			.references(() => invoiceProfiles.id),
		kind: text('kind').$type<DocumentKind>().notNull(),
		status: text('status').$type<InvoiceStatus>().notNull(),
		number: text('number'),
		correctsId: text('corrects_id'),
		/** The clients database row the client is copied from, when it is one. */
		clientRow: jsonb('client_row').$type<ClientRow | null>(),
		client: jsonb('client').$type<InvoiceClient | null>(),
		currency: text('currency').notNull(),
		issueDate: date('issue_date', { mode: 'string' }).notNull(),
		dueDate: date('due_date', { mode: 'string' }),
		lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
		discounts: jsonb('discounts').$type<DocumentDiscount[]>().notNull(),
		notes: text('notes'),
		/** Null while the draft's lines do not compute (an empty price, a retired rate). */
		totals: jsonb('totals').$type<DocumentTotals | null>(),
		/** BT-112 and the payments' sum, for lists and filters. */
		totalMinor: minor('total_minor'),
		paidMinor: minor('paid_minor'),
		/** What its credit notes took off (a positive amount): the amount due is total − paid − credited. */
		creditedMinor: minor('credited_minor'),
		/** Frozen at finalization: the rates the lines used, and the sender as it was. */
		taxRates: jsonb('tax_rates').$type<TaxRate[] | null>(),
		sender: jsonb('sender').$type<FrozenSender | null>(),
		billedTime: jsonb('billed_time').$type<BilledTime[]>().notNull().default([]),
		/**
		 * The workspace row the invoice is kept in (the mapped invoices database): its status and
		 * paid date are written back to it through the write queue, each write after the last one
		 * (`rowWriteId`), like a time entry's. `rowId` is the row's external id; null until the
		 * row exists (a draft not linked to one gets it when finalized).
		 */
		rowDatabaseId: text('row_database_id').references(() => workspaceDatabases.id, { onDelete: 'set null' }),
		rowId: text('row_id'),
		rowWriteId: text('row_write_id'),
		/** What was last written to the row (status option, paid date, amount), to write only changes. */
		rowState: jsonb('row_state').$type<Record<string, unknown> | null>(),
		/** The unguessable part of the public link; set at finalization. */
		publicToken: text('public_token'),
		/** First opened by the client on the public page. */
		viewedAt: timestamp('viewed_at', { withTimezone: true }),
		/** The recurring schedule that produced this document. */
		recurrenceId: text('recurrence_id'),
		finalizedAt: timestamp('finalized_at', { withTimezone: true }),
		sentAt: timestamp('sent_at', { withTimezone: true }),
		paidAt: timestamp('paid_at', { withTimezone: true }),
		voidedAt: timestamp('voided_at', { withTimezone: true }),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [
		index('invoice_documents_organization_idx').on(table.organizationId, table.issueDate),
		index('invoice_documents_corrects_idx').on(table.correctsId),
		uniqueIndex('invoice_documents_public_token_idx').on(table.publicToken),
		index('invoice_documents_row_idx').on(table.rowDatabaseId, table.rowId),
	],
)

/** A payment of an invoice; our records are the truth for payments. */
export const invoicePayments = pgTable(
	'invoice_payments',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		documentId: text('document_id')
			.notNull()
			.references(() => invoiceDocuments.id, { onDelete: 'cascade' }),
		date: date('date', { mode: 'string' }).notNull(),
		amountMinor: minor('amount_minor'),
		method: text('method').notNull(),
		note: text('note'),
		/** A payment made online: the provider's id (a Checkout Session's), so a webhook repeated records it once. */
		externalId: text('external_id'),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
	},
	(table) => [
		index('invoice_payments_document_idx').on(table.documentId),
		uniqueIndex('invoice_payments_external_idx').on(table.externalId),
	],
)

/** What happened to a document, for its history: created, finalized, sent (to whom), viewed, paid, voided, credited. */
export const invoiceEvents = pgTable(
	'invoice_events',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		documentId: text('document_id')
			.notNull()
			.references(() => invoiceDocuments.id, { onDelete: 'cascade' }),
		kind: text('kind').notNull(),
		detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
		actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
		at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [index('invoice_events_document_idx').on(table.documentId, table.at)],
)

export type RecurrenceFrequency = 'week' | 'month' | 'year'

/**
 * A recurring invoice: on `nextDate` the source document is copied as a new invoice dated that
 * day (a draft, or finalized and sent when `action` is 'send'), and `nextDate` moves on by the
 * interval. Ends after `endDate` or when `remaining` reaches 0.
 */
export const invoiceRecurrences = pgTable(
	'invoice_recurrences',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		sourceId: text('source_id')
			.notNull()
			.references(() => invoiceDocuments.id, { onDelete: 'cascade' }),
		frequency: text('frequency').$type<RecurrenceFrequency>().notNull(),
		interval: integer('interval').notNull().default(1),
		/** The day the series started on, so months keep their day (31 Jan, 28 Feb, 31 Mar). */
		anchorDate: date('anchor_date', { mode: 'string' }).notNull(),
		nextDate: date('next_date', { mode: 'string' }),
		endDate: date('end_date', { mode: 'string' }),
		remaining: integer('remaining'),
		action: text('action').$type<'draft' | 'send'>().notNull(),
		isActive: boolean('is_active').notNull().default(true),
		runs: integer('runs').notNull().default(0),
		lastRunAt: timestamp('last_run_at', { withTimezone: true }),
		lastDocumentId: text('last_document_id'),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [
		index('invoice_recurrences_organization_idx').on(table.organizationId),
		index('invoice_recurrences_due_idx').on(table.nextDate).where(sql`${table.isActive}`),
	],
)

export type DocumentRecord = typeof invoiceDocuments.$inferSelect
export type PaymentRecord = typeof invoicePayments.$inferSelect
export type EventRecord = typeof invoiceEvents.$inferSelect
export type RecurrenceRecord = typeof invoiceRecurrences.$inferSelect
