import type { PortalAccess, PortalBranding, PortalPage, PortalSetup } from '@blocksmith/contracts/portals.ts'
import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

/**
 * A client portal (decision 038). Slug and domain are columns (unique, looked up on every
 * visit); branding, access and pages are the setup as saved, checked against the databases'
 * properties on every save and again when a page is read.
 */
export const portals = pgTable(
	'portals',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		tool: text('tool', { enum: ['local', 'notion'] }).notNull(),
		name: text('name').notNull(),
		slug: text('slug').notNull(),
		customDomain: text('custom_domain'),
		/** Off: the portal answers 404 to everyone, members and setup kept. */
		isEnabled: boolean('is_enabled').notNull().default(true),
		branding: jsonb('branding').$type<PortalBranding>().notNull(),
		access: jsonb('access').$type<PortalAccess>().notNull(),
		pages: jsonb('pages').$type<PortalPage[]>().notNull().default([]),
		forms: jsonb('forms').$type<PortalSetup['forms']>().notNull().default([]),
		showInvoices: boolean('show_invoices').notNull().default(false),
		charts: jsonb('charts').$type<PortalSetup['charts']>().notNull().default([]),
		/**
		 * Names of the workspace's people (id → name, never e-mails), read when the setup is saved
		 * or refreshed, so a page never asks Notion who someone is.
		 */
		people: jsonb('people').$type<Record<string, string>>().notNull().default({}),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [
		uniqueIndex('portals_slug_idx').on(table.slug),
		uniqueIndex('portals_custom_domain_idx').on(table.customDomain).where(sql`${table.customDomain} is not null`),
		index('portals_organization_id_idx').on(table.organizationId),
	],
)

/**
 * Someone invited to a portal: a separate kind of account from the team's users, with its own
 * sessions, which no dashboard route accepts. Their company and own row are external row ids
 * of the portal's companies and members databases; every rule is matched against these.
 */
export const portalMembers = pgTable(
	'portal_members',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		portalId: text('portal_id')
			.notNull()
			.references(() => portals.id, { onDelete: 'cascade' }),
		/** Lowercase. */
		email: text('email').notNull(),
		name: text('name'),
		companyRowId: text('company_row_id'),
		/** Their row in the members database, found by e-mail when invited and on each sign-in. */
		memberRowId: text('member_row_id'),
		/** The workspace person with their e-mail (a Notion user id, or a member id for built-in). */
		personRef: text('person_ref'),
		/** scrypt hash (better-auth's format), when they chose a password. */
		passwordHash: text('password_hash'),
		status: text('status', { enum: ['invited', 'active'] })
			.notNull()
			.default('invited'),
		invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
		lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
		createdAt,
	},
	(table) => [
		uniqueIndex('portal_members_portal_email_idx').on(table.portalId, table.email),
		index('portal_members_organization_id_idx').on(table.organizationId),
	],
)

/** A member's session: only the token's SHA-256 is kept. Removing the member removes it. */
export const portalSessions = pgTable(
	'portal_sessions',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		portalId: text('portal_id')
			.notNull()
			.references(() => portals.id, { onDelete: 'cascade' }),
		memberId: text('member_id')
			.notNull()
			.references(() => portalMembers.id, { onDelete: 'cascade' }),
		tokenHash: text('token_hash').notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		createdAt,
	},
	(table) => [
		uniqueIndex('portal_sessions_token_hash_idx').on(table.tokenHash),
		index('portal_sessions_member_idx').on(table.memberId),
		index('portal_sessions_organization_id_idx').on(table.organizationId),
	],
)

/** A sign-in link: single use, short-lived, bound to one portal and one member. */
export const portalMagicLinks = pgTable(
	'portal_magic_links',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		portalId: text('portal_id')
			.notNull()
			.references(() => portals.id, { onDelete: 'cascade' }),
		memberId: text('member_id')
			.notNull()
			.references(() => portalMembers.id, { onDelete: 'cascade' }),
		tokenHash: text('token_hash').notNull(),
		expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
		usedAt: timestamp('used_at', { withTimezone: true }),
		createdAt,
	},
	(table) => [
		uniqueIndex('portal_magic_links_token_hash_idx').on(table.tokenHash),
		index('portal_magic_links_member_idx').on(table.memberId),
		index('portal_magic_links_organization_id_idx').on(table.organizationId),
	],
)
