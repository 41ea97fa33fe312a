import { z } from 'zod'
import { emailSchema, idSchema, passwordSchema } from './common.ts'
import { propertySchema, rowSortSchema, workspaceToolSchema } from './workspaces.ts'

// Client portals (decision 038): a branded site per organization where each invited member
// signs in by magic link and sees, of the databases the team exposes, only the rows a rule
// grants them. Rules run in SQL on the server; a row outside them is never sent, counted or
// named (not even as a relation's title).

const propertyRefSchema = z.string().min(1).max(200)

/** `/p/{slug}`: lowercase letters, digits and single dashes. */
export const portalSlugSchema = z
	.string()
	.trim()
	.toLowerCase()
	.min(3, 'Use at least 3 characters.')
	.max(48, 'Use at most 48 characters.')
	.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lowercase letters, digits and dashes.')

/** A host name the operator's proxy sends here (no scheme, port or path). */
export const portalDomainSchema = z
	.string()
	.trim()
	.toLowerCase()
	.max(253)
	.regex(
		/^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
		'Use a host name like portal.example.com.',
	)

const colorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #2563eb.')

/**
 * Which rows of a page's database a member sees:
 * - `email`: the row's email (or text) property equals the member's e-mail;
 * - `person`: the member's workspace person (found by their e-mail) is in a people property;
 * - `member`: a relation property holds the member's own row in the members database;
 * - `company`: a relation property holds the member's company row (every contact of that client);
 * - `company_row`: the row is the member's company itself (a page on the companies database);
 * - `everyone`: every member sees every row (chosen on purpose, never a default).
 * A member without what the rule needs (no company, no person) sees no row.
 */
export const portalRuleSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('email'), property: propertyRefSchema }),
	z.object({ kind: z.literal('person'), property: propertyRefSchema }),
	z.object({ kind: z.literal('member'), property: propertyRefSchema }),
	z.object({ kind: z.literal('company'), property: propertyRefSchema }),
	z.object({ kind: z.literal('company_row') }),
	z.object({ kind: z.literal('everyone') }),
])
export type PortalRule = z.infer<typeof portalRuleSchema>

export const portalViewSchema = z.enum(['table', 'list', 'board', 'gallery'])
export type PortalView = z.infer<typeof portalViewSchema>

/** One exposed database: a page of the portal. */
export const portalPageSchema = z.object({
	/** Stable within the portal; the page's path segment. */
	id: z
		.string()
		.min(1)
		.max(40)
		.regex(/^[a-z0-9-]+$/, 'Use lowercase letters, digits and dashes.'),
	title: z.string().trim().min(1).max(80),
	databaseId: idSchema,
	/** Properties shown, in order (the title always is). Nothing else of the row is sent. */
	properties: z.array(propertyRefSchema).max(50),
	view: portalViewSchema.default('table'),
	/** The select or status property a board groups by (required for `board`). */
	groupBy: propertyRefSchema.nullable().default(null),
	/** A files property whose first image is a gallery card's cover. */
	coverProperty: propertyRefSchema.nullable().default(null),
	/** The order rows come in, until the visitor sorts. */
	sort: z.array(rowSortSchema).max(3).default([]),
	/** Properties (among those shown) the visitor may filter by. */
	filterable: z.array(propertyRefSchema).max(10).default([]),
	/** Whether a visitor can search titles. */
	isSearchable: z.boolean().default(true),
	rule: portalRuleSchema,
	/** For Notion rows: the page's content blocks, read-only, on the row page. */
	showContent: z.boolean().default(true),
})
export type PortalPage = z.infer<typeof portalPageSchema>

/** Who the members are: their company rows, and optionally a database with a row per contact. */
export const portalAccessSchema = z.object({
	/** The database whose rows are clients (the sample's Clients); members are invited with one. */
	companiesDatabaseId: idSchema.nullable().default(null),
	/** A database with a row per contact, found by its e-mail property. */
	membersDatabaseId: idSchema.nullable().default(null),
	membersEmailProperty: propertyRefSchema.nullable().default(null),
	/** Members may also sign in with a password they set (magic links always work). */
	allowPasswords: z.boolean().default(true),
})
export type PortalAccess = z.infer<typeof portalAccessSchema>

export const portalBrandingSchema = z.object({
	logoBlobId: idSchema.nullable().default(null),
	accentColor: colorSchema.default('#2563eb'),
	backgroundColor: colorSchema.nullable().default(null),
	theme: z.enum(['light', 'dark', 'system']).default('system'),
	/** Shown above the pages after sign-in and on the sign-in page. */
	welcome: z.string().max(2000).default(''),
})
export type PortalBranding = z.infer<typeof portalBrandingSchema>

/** POST /dashboard/{tool}_portal/setup/update_setup: creates the portal without `id`. */
export const portalSetupInputSchema = z.object({
	id: idSchema.optional(),
	name: z.string().trim().min(1).max(80),
	slug: portalSlugSchema,
	customDomain: portalDomainSchema.nullable().default(null),
	/** Off: the portal answers 404 to everyone; members and setup are kept. */
	isEnabled: z.boolean().default(true),
	branding: portalBrandingSchema.default(portalBrandingSchema.parse({})),
	access: portalAccessSchema.default(portalAccessSchema.parse({})),
	pages: z.array(portalPageSchema).max(20).default([]),
	/** Forms members can fill in from the portal; each names the property its member link goes to. */
	forms: z
		.array(
			z.object({
				formId: idSchema,
				/** A relation property (to the companies or members database) set to the member's row. */
				linkProperty: propertyRefSchema.nullable().default(null),
			}),
		)
		.max(20)
		.default([]),
	/** Invoices of the member's company, from the invoices module (needs a companies database). */
	showInvoices: z.boolean().default(false),
	/** Published charts shown to members, each filtered to the rows their page rule grants. */
	charts: z
		.array(z.object({ chartId: idSchema, pageId: z.string().min(1).max(40) }))
		.max(20)
		.default([]),
})
export type PortalSetupInput = z.input<typeof portalSetupInputSchema>
export type PortalSetup = z.infer<typeof portalSetupInputSchema>

export const portalSchema = portalSetupInputSchema.extend({
	id: z.string(),
	tool: workspaceToolSchema,
	/** Where members open it: `/p/{slug}` on this server, and the custom domain when set. */
	url: z.string(),
	logoUrl: z.string().nullable(),
	membersCount: z.number().int(),
	createdAt: z.iso.datetime(),
	updatedAt: z.iso.datetime(),
})
export type Portal = z.infer<typeof portalSchema>

export const portalSetupResponseSchema = z.object({
	portals: z.array(portalSchema),
	/** How many portals the plan allows (null: no limit). */
	limit: z.number().int().nullable(),
})
export type PortalSetupResponse = z.infer<typeof portalSetupResponseSchema>

export const resetPortalInputSchema = z.object({
	id: idSchema,
	/** The portal's name, typed to confirm: branding, pages and access go back to defaults. */
	confirm: z.string().max(80),
})

/** GET …/setup/fetch_public_databases: what can be exposed, with what a rule can use. */
export const portalDatabaseOptionSchema = z.object({
	id: z.string(),
	workspaceId: z.string(),
	name: z.string(),
	icon: z.string().nullable(),
	rowCount: z.number().int(),
	properties: z.array(propertySchema),
	/** Rules this database supports, given the portal's access settings, each with its property. */
	suggestedRules: z.array(portalRuleSchema),
})
export type PortalDatabaseOption = z.infer<typeof portalDatabaseOptionSchema>

/** GET …/databases/get_job_timer: the portal's databases' sync, for "last updated" and "refresh now". */
export const portalJobTimerSchema = z.object({
	databases: z.array(
		z.object({
			id: z.string(),
			name: z.string(),
			state: z.enum(['idle', 'queued', 'running']),
			lastSyncedAt: z.iso.datetime().nullable(),
			nextSyncAt: z.iso.datetime().nullable(),
			lastError: z.string().nullable(),
		}),
	),
	/** The oldest of the databases' last syncs: what members see as "updated". */
	lastSyncedAt: z.iso.datetime().nullable(),
	nextSyncAt: z.iso.datetime().nullable(),
	isRunning: z.boolean(),
})
export type PortalJobTimer = z.infer<typeof portalJobTimerSchema>

// ---- members ------------------------------------------------------------------------------

export const portalInviteeSchema = z.object({
	email: emailSchema,
	name: z.string().trim().max(120).nullable().default(null),
	/** The company's row id, or its title in the companies database (matched without case). */
	company: z.string().trim().max(200).nullable().default(null),
})

/** POST …/invitations/bulk_invite: pasted lines or an uploaded CSV, parsed in the browser. */
export const bulkInviteInputSchema = z.object({
	portalId: idSchema,
	members: z.array(portalInviteeSchema).min(1).max(500),
	/** Send the invitation e-mail (with a magic link) now. */
	sendEmails: z.boolean().default(true),
})
export type BulkInviteInput = z.input<typeof bulkInviteInputSchema>

export const portalMemberSchema = z.object({
	id: z.string(),
	email: z.string(),
	name: z.string().nullable(),
	companyRowId: z.string().nullable(),
	/** The company row's title, from the mirror. */
	companyName: z.string().nullable(),
	status: z.enum(['invited', 'active']),
	hasPassword: z.boolean(),
	invitedAt: z.iso.datetime(),
	lastSeenAt: z.iso.datetime().nullable(),
})
export type PortalMember = z.infer<typeof portalMemberSchema>

export const bulkInviteResultSchema = z.object({
	invited: z.array(portalMemberSchema),
	/** Already members: left as they were (their invitation is resent when `sendEmails`). */
	existing: z.array(z.string()),
	/** Lines refused, each with why (an unknown company, over the plan's member limit). */
	refused: z.array(z.object({ index: z.number().int(), email: z.string(), reason: z.string() })),
})
export type BulkInviteResult = z.infer<typeof bulkInviteResultSchema>

/** PATCH …/invitations/{id}: a member's name, or their company (matched as in `bulk_invite`; null removes it). */
export const updatePortalMemberSchema = z.object({
	name: z.string().trim().max(120).nullable().optional(),
	company: z.string().trim().max(200).nullable().optional(),
})
export type UpdatePortalMember = z.input<typeof updatePortalMemberSchema>

// ---- the visitor's API (/api/portal/{slug}/…) ---------------------------------------------

/** What anyone may read of a portal: enough to draw the sign-in page. */
export const portalPublicInfoSchema = z.object({
	slug: z.string(),
	name: z.string(),
	logoUrl: z.string().nullable(),
	accentColor: z.string(),
	backgroundColor: z.string().nullable(),
	theme: z.enum(['light', 'dark', 'system']),
	welcome: z.string(),
	allowPasswords: z.boolean(),
	/** Where the portal's pages live: `/p/{slug}` here, `` on its custom domain. */
	basePath: z.string(),
})
export type PortalPublicInfo = z.infer<typeof portalPublicInfoSchema>

export const portalMagicLinkInputSchema = z.object({ email: emailSchema })
export const portalVerifyInputSchema = z.object({ token: z.string().min(20).max(200) })
export const portalPasswordSignInSchema = z.object({ email: emailSchema, password: z.string().min(1).max(128) })
export const portalSetPasswordSchema = z.object({ password: passwordSchema })

export const portalSessionSchema = z.object({
	/** Sent as `Authorization: Bearer …` on the portal's API only. */
	token: z.string(),
	expiresAt: z.iso.datetime(),
})
export type PortalSession = z.infer<typeof portalSessionSchema>

/** GET /api/portal/{slug}/me: who is signed in and what they can open. */
export const portalMeSchema = z.object({
	member: z.object({
		id: z.string(),
		email: z.string(),
		name: z.string().nullable(),
		companyName: z.string().nullable(),
		hasPassword: z.boolean(),
	}),
	pages: z.array(z.object({ id: z.string(), title: z.string(), view: portalViewSchema })),
	forms: z.array(z.object({ id: z.string(), title: z.string() })),
	charts: z.array(z.object({ id: z.string(), title: z.string() })),
	hasInvoices: z.boolean(),
	/** When the portal's data was last read from the workspace (the oldest database's sync). */
	lastSyncedAt: z.iso.datetime().nullable(),
})
export type PortalMe = z.infer<typeof portalMeSchema>

/** A value as the portal sends it: relations only to rows the member may open, files as portal links. */
export const portalCellSchema = z.union([
	z.object({ kind: z.literal('text'), text: z.string() }),
	z.object({ kind: z.literal('number'), value: z.number().nullable(), text: z.string() }),
	z.object({ kind: z.literal('checkbox'), value: z.boolean() }),
	z.object({ kind: z.literal('url'), url: z.string(), text: z.string() }),
	z.object({
		kind: z.literal('options'),
		options: z.array(z.object({ name: z.string(), color: z.string().nullable() })),
	}),
	z.object({ kind: z.literal('date'), start: z.string().nullable(), end: z.string().nullable(), text: z.string() }),
	z.object({
		kind: z.literal('relation'),
		/** Only rows of an exposed page that the member's rule grants; the others are left out entirely. */
		rows: z.array(z.object({ pageId: z.string(), rowId: z.string(), title: z.string() })),
	}),
	z.object({
		kind: z.literal('files'),
		files: z.array(z.object({ name: z.string(), url: z.string(), isImage: z.boolean() })),
	}),
	z.object({ kind: z.literal('people'), names: z.array(z.string()) }),
	z.object({ kind: z.literal('empty') }),
])
export type PortalCell = z.infer<typeof portalCellSchema>

export const portalRowSchema = z.object({
	id: z.string(),
	title: z.string(),
	/** By property id, only the page's shown properties. */
	cells: z.record(z.string(), portalCellSchema),
})
export type PortalRow = z.infer<typeof portalRowSchema>

export const portalRowsQuerySchema = z.object({
	/** JSON arrays, as in the workspace API; only `filterable` properties may be filtered. */
	filter: z.string().max(4000).optional(),
	sort: z.string().max(1000).optional(),
	search: z.string().max(200).optional(),
	/** Opaque; it carries the last row's sort values, so a long title sorted on makes it longer. */
	cursor: z.string().max(2000).optional(),
	limit: z.coerce.number().int().min(1).max(100).default(50),
})

export const portalRowsSchema = z.object({
	page: z.object({
		id: z.string(),
		title: z.string(),
		view: portalViewSchema,
		groupBy: z.string().nullable(),
		coverProperty: z.string().nullable(),
		/** The shown properties (id, name, type, options): never the database's others. */
		properties: z.array(propertySchema),
		filterable: z.array(z.string()),
		isSearchable: z.boolean(),
	}),
	rows: z.array(portalRowSchema),
	nextCursor: z.string().nullable(),
	lastSyncedAt: z.iso.datetime().nullable(),
})
export type PortalRows = z.infer<typeof portalRowsSchema>

/** A run of rich text: its marks, and a link only when it is http(s) or mailto (mentions are plain text). */
export type PortalRun = {
	text: string
	href?: string | null
	bold?: boolean
	italic?: boolean
	code?: boolean
	strikethrough?: boolean
	underline?: boolean
}
const portalRunSchema = z.object({
	text: z.string(),
	href: z.string().nullable().optional(),
	bold: z.boolean().optional(),
	italic: z.boolean().optional(),
	code: z.boolean().optional(),
	strikethrough: z.boolean().optional(),
	underline: z.boolean().optional(),
})

/**
 * A Notion content block, reduced to what the portal draws read-only. `type` keeps Notion's name
 * (`paragraph`, `heading_1`…`heading_4`, `bulleted_list_item`, `numbered_list_item`, `to_do`,
 * `toggle`, `quote`, `callout`, `code`, `equation`, `divider`, `image`, `file`, `pdf`, `video`,
 * `audio`, `bookmark`, `embed`, `child_page`, `child_database`, `table`, `table_row`); columns and
 * synced blocks are flattened into their content. `unsupported` is a block the portal skips, and
 * `truncated` (last, at the top level) says the page had more than the mirror keeps.
 */
export type PortalBlock = {
	type: string
	/** Rich text as plain runs with their marks and links; a child page's or database's title. */
	text?: PortalRun[]
	checked?: boolean
	language?: string
	/** An external file's, bookmark's or embed's http(s) URL; null for a file Notion hosts (see `fileRef`). */
	url?: string | null
	caption?: string
	/** A callout's emoji. */
	icon?: string
	/** A file's name, when Notion gives one. */
	name?: string
	/**
	 * A file Notion hosts: its block, by which the server hands out a fresh URL (Notion's expire
	 * within the hour) behind a link that checks the member's grant. Never Notion's signed URL.
	 */
	fileRef?: { blockId: string }
	/** A table row's cells. */
	cells?: PortalRun[][]
	hasColumnHeader?: boolean
	hasRowHeader?: boolean
	children?: PortalBlock[]
}
export const portalBlockSchema: z.ZodType<PortalBlock> = z.lazy(() =>
	z.object({
		type: z.string(),
		text: z.array(portalRunSchema).optional(),
		checked: z.boolean().optional(),
		language: z.string().optional(),
		url: z.string().nullable().optional(),
		caption: z.string().optional(),
		icon: z.string().optional(),
		name: z.string().optional(),
		fileRef: z.object({ blockId: z.string() }).optional(),
		cells: z.array(z.array(portalRunSchema)).optional(),
		hasColumnHeader: z.boolean().optional(),
		hasRowHeader: z.boolean().optional(),
		children: z.array(portalBlockSchema).optional(),
	}),
)

export const portalRowDetailSchema = z.object({
	page: portalRowsSchema.shape.page,
	row: portalRowSchema,
	/** Null when the page does not show content or the workspace is built-in. */
	blocks: z.array(portalBlockSchema).nullable(),
	lastSyncedAt: z.iso.datetime().nullable(),
})
export type PortalRowDetail = z.infer<typeof portalRowDetailSchema>

/** POST /api/portal/{slug}/forms/{formId}/open: the form's public page, carrying the member's identity. */
export const portalFormOpenSchema = z.object({
	/** Open it in a frame or a tab: the answer's row is linked to the member by the server. */
	url: z.string(),
	expiresAt: z.iso.datetime(),
})
export type PortalFormOpen = z.infer<typeof portalFormOpenSchema>

/** GET /api/portal/{slug}/invoices: the member's company's invoices, each opened and paid on its own page. */
export const portalInvoiceSchema = z.object({
	id: z.string(),
	kind: z.enum(['invoice', 'credit_note']),
	number: z.string(),
	/** finalized, sent, partially_paid, paid or void (drafts are never listed). */
	status: z.string(),
	isOverdue: z.boolean(),
	issueDate: z.string(),
	dueDate: z.string().nullable(),
	currency: z.string(),
	/** Formatted for reading ("$1,190.00"); `dueMinor` is the exact amount left, in minor units. */
	total: z.string(),
	due: z.string(),
	dueMinor: z.number().int(),
	/** The invoice's own page: view, download the PDF, pay online when the team takes payments. */
	url: z.string(),
})
export const portalInvoicesSchema = z.object({ invoices: z.array(portalInvoiceSchema) })
export type PortalInvoices = z.infer<typeof portalInvoicesSchema>

/** GET /api/portal/{slug}/charts/{chartId}: a published chart over only the member's rows, drawn. */
export const portalChartSchema = z.object({
	id: z.string(),
	name: z.string(),
	/** The drawing, made on the server (no script). */
	svg: z.string(),
	/** How many of the member's rows the figures count. */
	rowCount: z.number().int(),
	dataUpdatedAt: z.string().nullable(),
})
export type PortalChart = z.infer<typeof portalChartSchema>
