import type { ClientRow, InvoiceClient, InvoiceLine, InvoiceStatus } from '@blocksmith/contracts/invoice-documents.ts'
import type { DocumentDiscount, DocumentTotals } from '@blocksmith/contracts/invoice-money.ts'
import type { TaxRate } from '@blocksmith/contracts/invoices.ts'
import { bigint, date, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
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
		/** Frozen at finalization: the rates the lines used, and the sender as it was. */
		taxRates: jsonb('tax_rates').$type<TaxRate[] | null>(),
		sender: jsonb('sender').$type<FrozenSender | null>(),
		billedTime: jsonb('billed_time').$type<BilledTime[]>().notNull().default([]),
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
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
	},
	(table) => [index('invoice_payments_document_idx').on(table.documentId)],
)

export type DocumentRecord = typeof invoiceDocuments.$inferSelect
export type PaymentRecord = typeof invoicePayments.$inferSelect
