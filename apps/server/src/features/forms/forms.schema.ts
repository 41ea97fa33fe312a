import type { FormLogic } from '@blocksmith/contracts/form-rules.ts'
import type {
	FormField,
	FormLayout,
	FormLimits,
	FormNotifications,
	FormPage,
	FormTheme,
} from '@blocksmith/contracts/forms.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
import { workspaceDatabases, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

/** A form on one workspace database. Deleting it keeps its answers (soft delete). */
export const forms = pgTable(
	'forms',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		tool: text('tool').$type<WorkspaceTool>().notNull(),
		/** Null once its database is gone (deleted, or its workspace disconnected): the form stops taking answers. */
		databaseId: text('database_id').references(() => workspaceDatabases.id, { onDelete: 'set null' }),
		name: text('name').notNull(),
		/** The current custom address; every slug it ever had is in form_slugs. */
		slug: text('slug'),
		fields: jsonb('fields').$type<FormField[]>().notNull(),
		/** Rules that show, hide or require fields by the answers (contracts/form-rules.ts). */
		logic: jsonb('logic').$type<FormLogic>().notNull().default([]),
		/** Classic pages or one question at a time, and the progress bar (FormLayout; defaults filled on read). */
		layout: jsonb('layout').$type<Partial<FormLayout>>().notNull().default({}),
		page: jsonb('page').$type<FormPage>().notNull(),
		confirmationMessage: text('confirmation_message').notNull(),
		redirectUrl: text('redirect_url'),
		redirectWithAnswers: boolean('redirect_with_answers').notNull().default(false),
		submitLabel: text('submit_label').notNull(),
		published: boolean('published').notNull().default(false),
		acceptingResponses: boolean('accepting_responses').notNull().default(true),
		closedMessage: text('closed_message').notNull(),
		/** Closing time, submission limit, one answer per person (FormLimits; defaults filled on read). */
		limits: jsonb('limits').$type<Partial<FormLimits>>().notNull().default({}),
		/** Who is told of each answer, and the respondent's confirmation (FormNotifications; defaults on read). */
		notifications: jsonb('notifications').$type<Partial<FormNotifications>>().notNull().default({}),
		/** Colours, font, corners, images, custom CSS (FormTheme; defaults filled on read). */
		theme: jsonb('theme').$type<Partial<FormTheme>>().notNull().default({}),
		/** scrypt hash; null when the form is open to anyone with the link. */
		passwordHash: text('password_hash'),
		/** Bumped on each password change so earlier unlock tokens stop working. */
		passwordVersion: integer('password_version').notNull().default(0),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		deletedAt: timestamp('deleted_at', { withTimezone: true }),
		createdAt,
		updatedAt,
	},
	(table) => [index('forms_organization_id_idx').on(table.organizationId)],
)

/** Every slug a form has had: old ones keep redirecting to the form, and no other form may take them. */
export const formSlugs = pgTable(
	'form_slugs',
	{
		slug: text('slug').primaryKey(),
		formId: text('form_id')
			.notNull()
			.references(() => forms.id, { onDelete: 'cascade' }),
		createdAt,
	},
	(table) => [index('form_slugs_form_id_idx').on(table.formId)],
)

/** One answer to a form, stored before it is acknowledged; its delivery is a workspace write. */
export const formSubmissions = pgTable(
	'form_submissions',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		formId: text('form_id')
			.notNull()
			.references(() => forms.id, { onDelete: 'cascade' }),
		idempotencyKey: text('idempotency_key').notNull(),
		/** Answers keyed by field id, as validated. */
		answers: jsonb('answers').$type<Record<string, unknown>>().notNull(),
		writeId: text('write_id').references(() => workspaceWrites.id, { onDelete: 'set null' }),
		/** Caught by the honeypot: kept so a false positive is not lost, never delivered. */
		spam: boolean('spam').notNull().default(false),
		/** Who answered, for one-answer-per-person forms: `email:<address>` or `browser:<token hash>`. */
		respondentKey: text('respondent_key'),
		createdAt,
	},
	(table) => [
		uniqueIndex('form_submissions_form_id_respondent_key_idx').on(table.formId, table.respondentKey),
		uniqueIndex('form_submissions_form_id_idempotency_key_idx').on(table.formId, table.idempotencyKey),
		index('form_submissions_form_id_created_at_idx').on(table.formId, table.createdAt),
		index('form_submissions_write_id_idx').on(table.writeId),
		// The plan's monthly count of an organization's answers (spam is never counted, nor indexed).
		index('form_submissions_organization_month_idx')
			.on(table.organizationId, table.createdAt)
			.where(sql`${table.spam} = false`),
	],
)

/** Page views and starts per form and hour: counts only, nothing about the visitor. */
export const formViewCounts = pgTable(
	'form_view_counts',
	{
		formId: text('form_id')
			.notNull()
			.references(() => forms.id, { onDelete: 'cascade' }),
		hour: timestamp('hour', { withTimezone: true }).notNull(),
		views: integer('views').notNull().default(0),
		starts: integer('starts').notNull().default(0),
	},
	(table) => [primaryKey({ columns: [table.formId, table.hour] })],
)

/**
 * Drop-off: how many visits reached each step (a question, or a page break's page) per form and
 * hour. Counts only, as for views; a step is reported once per visit.
 */
export const formStepCounts = pgTable(
	'form_step_counts',
	{
		formId: text('form_id')
			.notNull()
			.references(() => forms.id, { onDelete: 'cascade' }),
		hour: timestamp('hour', { withTimezone: true }).notNull(),
		/** The field id of the question or page break. */
		step: text('step').notNull(),
		reached: integer('reached').notNull().default(0),
	},
	(table) => [primaryKey({ columns: [table.formId, table.hour, table.step] })],
)

/** A URL that receives each submission of a form, signed with its own secret. */
export const formWebhooks = pgTable(
	'form_webhooks',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		formId: text('form_id')
			.notNull()
			.references(() => forms.id, { onDelete: 'cascade' }),
		url: text('url').notNull(),
		/** The signing secret, sealed (lib/secrets.ts). */
		secret: text('secret').notNull(),
		enabled: boolean('enabled').notNull().default(true),
		createdAt,
	},
	(table) => [index('form_webhooks_form_id_idx').on(table.formId)],
)

export type WebhookAttempt = { at: string; status: number | null; error: string | null; ms: number }

/** One submission sent to one webhook: stored with the submission, then sent and retried for 24 hours. */
export const formWebhookDeliveries = pgTable(
	'form_webhook_deliveries',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		webhookId: text('webhook_id')
			.notNull()
			.references(() => formWebhooks.id, { onDelete: 'cascade' }),
		submissionId: text('submission_id')
			.notNull()
			.references(() => formSubmissions.id, { onDelete: 'cascade' }),
		state: text('state', { enum: ['pending', 'delivered', 'failed', 'dead'] })
			.notNull()
			.default('pending'),
		attempts: jsonb('attempts').$type<WebhookAttempt[]>().notNull().default([]),
		nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
		/** Held by the attempt under way, so two workers never send it at once. */
		lockedUntil: timestamp('locked_until', { withTimezone: true }),
		deliveredAt: timestamp('delivered_at', { withTimezone: true }),
		createdAt,
	},
	(table) => [
		index('form_webhook_deliveries_webhook_id_created_at_idx').on(table.webhookId, table.createdAt),
		// The sweeper's scan: only deliveries still open.
		index('form_webhook_deliveries_open_idx').on(table.createdAt).where(sql`${table.state} in ('pending', 'failed')`),
	],
)
