import type { InvoiceProfile } from '@blocksmith/contracts/invoices.ts'
import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
import { blobs } from '#src/core/uploads/uploads.schema.ts'

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

/** What a profile holds besides the columns of its own, as the contract validated it. */
export type ProfileDetails = Omit<
	InvoiceProfile,
	| 'id'
	| 'name'
	| 'legalName'
	| 'isDefault'
	| 'logoBlobId'
	| 'taxRates'
	| 'logo'
	| 'nextNumbers'
	| 'createdAt'
	| 'updatedAt'
>

/** A company the organization bills from: sender details, numbering and design of its invoices. */
export const invoiceProfiles = pgTable(
	'invoice_profiles',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		legalName: text('legal_name').notNull(),
		isDefault: boolean('is_default').notNull().default(false),
		logoBlobId: text('logo_blob_id').references(() => blobs.id, { onDelete: 'set null' }),
		/** Everything else (address, tax ids, currency, numbering, texts, bank, e-mail, design). */
		details: jsonb('details').$type<ProfileDetails>().notNull(),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [
		index('invoice_profiles_organization_idx').on(table.organizationId),
		// At most one default per organization; the service keeps exactly one while any exist.
		uniqueIndex('invoice_profiles_default_idx').on(table.organizationId).where(sql`${table.isDefault}`),
	],
)

/**
 * A tax rate of a profile. Lines refer to it by id; a rate taken off the profile is retired, not
 * deleted, so what refers to it still reads it, but nothing new can use it.
 */
export const invoiceTaxRates = pgTable(
	'invoice_tax_rates',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		profileId: text('profile_id')
			.notNull()
			.references(() => invoiceProfiles.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		/** EN 16931 VAT category code (S, Z, E, AE, K, G, O, L, M). */
		category: text('category').notNull(),
		/** Percent as an exact decimal string ("19", "7.5"). */
		rate: text('rate').notNull(),
		exemptionReason: text('exemption_reason'),
		exemptionReasonCode: text('exemption_reason_code'),
		isDefault: boolean('is_default').notNull().default(false),
		position: integer('position').notNull(),
		retiredAt: timestamp('retired_at', { withTimezone: true }),
		createdAt,
		updatedAt,
	},
	(table) => [index('invoice_tax_rates_profile_idx').on(table.profileId)],
)

export type DocumentKind = 'invoice' | 'credit_note'

/**
 * The last counter issued per sequence and period. Allocating updates this row, which locks it
 * until the finalizing transaction ends: concurrent finalizations wait in turn, and a rolled
 * back one leaves the counter as it was (no gap).
 */
export const invoiceCounters = pgTable(
	'invoice_counters',
	{
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		profileId: text('profile_id')
			.notNull()
			.references(() => invoiceProfiles.id, { onDelete: 'cascade' }),
		kind: text('kind').$type<DocumentKind>().notNull(),
		/** 'all', a year ('2026') or a month ('2026-03'), from the sequence's reset. */
		period: text('period').notNull(),
		last: integer('last').notNull(),
	},
	(table) => [primaryKey({ columns: [table.profileId, table.kind, table.period] })],
)

/**
 * Every number issued, unique per profile whatever the kind or the pattern at the time: when
 * the pattern or the reset changes, a number that was already issued is skipped instead of
 * issued twice. A profile with issued numbers cannot be deleted (no cascade).
 */
export const invoiceNumbers = pgTable(
	'invoice_numbers',
	{
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		profileId: text('profile_id')
			.notNull()
			.references(() => invoiceProfiles.id),
		number: text('number').notNull(),
		kind: text('kind').$type<DocumentKind>().notNull(),
		period: text('period').notNull(),
		counter: integer('counter').notNull(),
		issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(table) => [primaryKey({ columns: [table.profileId, table.number] })],
)

export type ProfileRecord = typeof invoiceProfiles.$inferSelect
export type TaxRateRecord = typeof invoiceTaxRates.$inferSelect

/**
 * The Stripe account a profile's invoices are paid into: the team's own account (its secret
 * key, encrypted like Notion tokens), never the product's billing account. The webhook endpoint
 * is created in that account when the key is saved, and its signing secret kept here.
 */
export const invoiceStripeAccounts = pgTable('invoice_stripe_accounts', {
	profileId: text('profile_id')
		.primaryKey()
		.references(() => invoiceProfiles.id, { onDelete: 'cascade' }),
	organizationId: text('organization_id')
		.notNull()
		.references(() => organizations.id, { onDelete: 'cascade' }),
	/** Encrypted with lib/secrets.ts. */
	secretKey: text('secret_key').notNull(),
	webhookEndpointId: text('webhook_endpoint_id'),
	/** Encrypted with lib/secrets.ts. */
	webhookSecret: text('webhook_secret'),
	/** The account's display name and id, to show which account is connected. */
	accountName: text('account_name'),
	accountId: text('account_id'),
	isLive: boolean('is_live').notNull().default(false),
	createdAt,
	updatedAt,
})

export type StripeAccountRecord = typeof invoiceStripeAccounts.$inferSelect
