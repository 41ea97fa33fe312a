import { z } from 'zod'
import { idSchema } from './common.ts'

// Workspace data: connected workspaces (Notion, or databases kept in the product), their
// databases with schemas, rows as typed values, the mirror's sync state and the write queue.
// Property types keep Notion's names so that one model serves both connectors.

export const workspaceToolSchema = z.enum(['local', 'notion'])
export type WorkspaceTool = z.infer<typeof workspaceToolSchema>

/** Types a user can write. `local` databases support exactly these. */
export const writablePropertyTypes = [
	'title',
	'rich_text',
	'number',
	'select',
	'multi_select',
	'status',
	'date',
	'checkbox',
	'url',
	'email',
	'phone_number',
	'people',
	'files',
	'relation',
] as const
/** Computed or system types: read from Notion, never written. */
export const readOnlyPropertyTypes = [
	'formula',
	'rollup',
	'unique_id',
	'created_time',
	'created_by',
	'last_edited_time',
	'last_edited_by',
	'button',
	'place',
	'verification',
	'unsupported',
] as const
export const propertyTypeSchema = z.enum([...writablePropertyTypes, ...readOnlyPropertyTypes])
export type PropertyType = z.infer<typeof propertyTypeSchema>
export const writablePropertyTypeSchema = z.enum(writablePropertyTypes)
export type WritablePropertyType = z.infer<typeof writablePropertyTypeSchema>

export function isWritableType(type: PropertyType): type is WritablePropertyType {
	return (writablePropertyTypes as readonly string[]).includes(type)
}

export const numberFormats = [
	'number',
	'number_with_commas',
	'percent',
	'dollar',
	'euro',
	'pound',
	'yen',
	'rupee',
	'won',
	'yuan',
	'franc',
	'real',
	'ruble',
	'rupiah',
	'lira',
	'krona',
	'canadian_dollar',
	'australian_dollar',
	'new_zealand_dollar',
	'singapore_dollar',
	'hong_kong_dollar',
	'mexican_peso',
	'swiss_franc',
	'norwegian_krone',
	'danish_krone',
	'zloty',
	'rand',
] as const
/** Notion has more currency formats than we name; any other string is kept as it came. */
export const numberFormatSchema = z.string().min(1).max(40)

export const optionColors = [
	'default',
	'gray',
	'brown',
	'orange',
	'yellow',
	'green',
	'blue',
	'purple',
	'pink',
	'red',
] as const
export const optionColorSchema = z.enum(optionColors)
export type OptionColor = z.infer<typeof optionColorSchema>

export const selectOptionSchema = z.object({
	id: z.string(),
	name: z.string().min(1).max(100),
	color: optionColorSchema,
})
export type SelectOption = z.infer<typeof selectOptionSchema>

export const statusGroupSchema = z.object({
	id: z.string(),
	name: z.string(),
	color: optionColorSchema,
	optionIds: z.array(z.string()),
})
export type StatusGroup = z.infer<typeof statusGroupSchema>

/** One column of a database. `id` is stable across renames; values are keyed by it. */
export const propertySchema = z.object({
	id: z.string().min(1).max(200),
	name: z.string().min(1).max(200),
	type: propertyTypeSchema,
	description: z.string().nullable().optional(),
	/** number */
	format: numberFormatSchema.optional(),
	/** select, multi_select, status */
	options: z.array(selectOptionSchema).optional(),
	/** status */
	groups: z.array(statusGroupSchema).optional(),
	/** relation: our id of the related database, when it is known to us */
	relationDatabaseId: z.string().nullable().optional(),
	/** formula, rollup: the type of the computed value, when known */
	resultType: z.string().optional(),
	/** unique_id */
	prefix: z.string().nullable().optional(),
})
export type Property = z.infer<typeof propertySchema>

// ---- values -------------------------------------------------------------------------------

export const dateValueSchema = z.object({
	/** `YYYY-MM-DD`, or an ISO date-time with offset */
	start: z.string().min(10).max(40),
	end: z.string().min(10).max(40).nullable().default(null),
	/** IANA zone, when the time was entered in one */
	timeZone: z.string().max(64).nullable().default(null),
})
export type DateValue = z.infer<typeof dateValueSchema>

export const fileValueSchema = z.object({
	name: z.string().min(1).max(255),
	/** An external URL, or a Notion-hosted file's URL, which lasts only until `expiresAt`. */
	url: z.string().max(2000).nullable().default(null),
	/**
	 * Set for a file Notion hosts: its URL works until then (about an hour). Such a file is kept
	 * as Notion's own when the row is written back, and opened through the server, which asks
	 * Notion for a fresh URL once this one has expired.
	 */
	expiresAt: z.iso.datetime({ offset: true }).optional(),
	/** A blob uploaded to us (direct uploads). */
	blobId: z.string().nullable().default(null),
})
export type FileValue = z.infer<typeof fileValueSchema>

/** Where to open a file of a row now: a URL that lasts at least a minute more. */
export const rowFileLinkSchema = z.object({
	name: z.string(),
	url: z.string(),
	expiresAt: z.string().nullable(),
})
export type RowFileLink = z.infer<typeof rowFileLinkSchema>

export const uniqueIdValueSchema = z.object({ prefix: z.string().nullable(), number: z.number().int().nullable() })

/**
 * A stored value, by property type:
 * title, rich_text, url, email, phone_number → string | null; number → number | null;
 * select, status → option name | null; multi_select → option names; date → DateValue | null;
 * checkbox → boolean; people, created_by, last_edited_by → user ids; relation → row ids in
 * the related database (Notion page ids for Notion); files → FileValue[];
 * formula → string | number | boolean | DateValue | null; rollup → number | DateValue | Value[] | null;
 * unique_id → { prefix, number }; created_time, last_edited_time → ISO date-time.
 */
export type PropertyValue =
	| string
	| number
	| boolean
	| null
	| string[]
	| DateValue
	| FileValue[]
	| { prefix: string | null; number: number | null }
	| PropertyValue[]

export const propertyValueSchema: z.ZodType<PropertyValue> = z.lazy(() =>
	z.union([
		z.string(),
		z.number(),
		z.boolean(),
		z.null(),
		z.array(z.string()),
		dateValueSchema,
		z.array(fileValueSchema),
		uniqueIdValueSchema,
		z.array(propertyValueSchema),
	]),
)

/** Values keyed by property id. A write names only the properties it sets. */
export const rowValuesSchema = z.record(z.string(), z.unknown())
export type RowValues = Record<string, PropertyValue>

export const rowSchema = z.object({
	id: z.string(),
	/** The row's id in its workspace (the Notion page id); equals `id` for `local`. */
	externalId: z.string(),
	values: z.record(z.string(), z.unknown()),
	/** The title as plain text, for lists and relation choices. */
	title: z.string(),
	url: z.string().nullable(),
	createdTime: z.iso.datetime(),
	lastEditedTime: z.iso.datetime(),
})
export type Row = Omit<z.infer<typeof rowSchema>, 'values'> & { values: RowValues }

// ---- workspaces and databases -------------------------------------------------------------

export const workspaceSchema = z.object({
	id: z.string(),
	tool: workspaceToolSchema,
	name: z.string(),
	icon: z.string().nullable(),
	/** connected, or needs_reauth when Notion refused the token */
	status: z.enum(['connected', 'needs_reauth']),
	databasesCount: z.number().int(),
	createdAt: z.iso.datetime(),
})
export type Workspace = z.infer<typeof workspaceSchema>

// A plain union: zod's discriminated union needs one branch per `tool`, and Notion has two ways in.
export const connectWorkspaceSchema = z.union([
	z.object({ tool: z.literal('local'), name: z.string().trim().min(1).max(100) }),
	z.object({
		tool: z.literal('notion'),
		method: z.literal('token'),
		/** An internal integration secret (`ntn_…` or `secret_…`). */
		token: z.string().trim().min(20).max(200),
	}),
	z.object({ tool: z.literal('notion'), method: z.literal('oauth') }),
])
export type ConnectWorkspace = z.infer<typeof connectWorkspaceSchema>

/** POST /dashboard/workspaces answers with the workspace, or where to send the browser for OAuth. */
export const connectWorkspaceResultSchema = z.union([
	z.object({ workspace: workspaceSchema }),
	z.object({ authorizeUrl: z.url() }),
])
export type ConnectWorkspaceResult = z.infer<typeof connectWorkspaceResultSchema>

export const syncStateSchema = z.object({
	/** idle, queued (waiting for its turn) or running */
	state: z.enum(['idle', 'queued', 'running']),
	lastSyncedAt: z.iso.datetime().nullable(),
	nextSyncAt: z.iso.datetime().nullable(),
	lastError: z.string().nullable(),
	rowCount: z.number().int(),
})
export type SyncState = z.infer<typeof syncStateSchema>

export const databaseSchema = z.object({
	id: z.string(),
	workspaceId: z.string(),
	tool: workspaceToolSchema,
	externalId: z.string(),
	name: z.string(),
	icon: z.string().nullable(),
	url: z.string().nullable(),
	properties: z.array(propertySchema),
	sync: syncStateSchema,
})
export type Database = Omit<z.infer<typeof databaseSchema>, 'properties'> & { properties: Property[] }

/** A property as the user defines it for a `local` database. `id` is kept when editing. */
export const propertyInputSchema = z.object({
	id: z.string().min(1).max(200).optional(),
	name: z.string().trim().min(1).max(200),
	type: writablePropertyTypeSchema,
	format: numberFormatSchema.optional(),
	options: z
		.array(
			z.object({
				id: z.string().optional(),
				name: z.string().trim().min(1).max(100),
				color: optionColorSchema.default('default'),
			}),
		)
		.max(500)
		.optional(),
	/** The related database's id; `self` when creating a database that relates to itself (e.g. a parent task). */
	relationDatabaseId: z.string().optional(),
})
export type PropertyInput = z.input<typeof propertyInputSchema>

export const createDatabaseSchema = z.object({
	workspaceId: idSchema,
	name: z.string().trim().min(1).max(200),
	/** Exactly one `title` property. */
	properties: z.array(propertyInputSchema).min(1).max(200),
})
export type CreateDatabase = z.input<typeof createDatabaseSchema>

export const updateDatabaseSchema = z.object({
	name: z.string().trim().min(1).max(200).optional(),
	/** The whole new list: properties missing from it are removed (with their values). */
	properties: z.array(propertyInputSchema).min(1).max(200).optional(),
})
export type UpdateDatabase = z.input<typeof updateDatabaseSchema>

export const rowSortSchema = z.object({
	/** A property id, or `created_time` / `last_edited_time`. */
	property: z.string().min(1).max(200),
	direction: z.enum(['ascending', 'descending']).default('ascending'),
})
export type RowSort = z.infer<typeof rowSortSchema>

export const rowFilterOperators = [
	'equals',
	'not_equals',
	'contains',
	'not_contains',
	'is_empty',
	'is_not_empty',
	'greater_than',
	'less_than',
	'on_or_after',
	'on_or_before',
] as const
export const rowFilterSchema = z.object({
	property: z.string().min(1).max(200),
	operator: z.enum(rowFilterOperators),
	value: z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]).optional(),
})
export type RowFilter = z.infer<typeof rowFilterSchema>

export const maxRowsPageSize = 200

/** GET …/rows: `filter` and `sort` are JSON in the query string (arrays of the schemas above). */
export const listRowsQuerySchema = z.object({
	offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
	limit: z.coerce.number().int().min(1).max(maxRowsPageSize).default(50),
	search: z.string().max(200).optional(),
	filter: z.string().max(8000).optional(),
	sort: z.string().max(2000).optional(),
})

export const rowPageSchema = z.object({
	rows: z.array(rowSchema),
	total: z.number().int(),
	offset: z.number().int(),
	limit: z.number().int(),
})
export type RowPage = Omit<z.infer<typeof rowPageSchema>, 'rows'> & { rows: Row[] }

export const writeRowSchema = z.object({ values: rowValuesSchema })
export type WriteRow = { values: RowValues }

export const maxRowsPerBatch = 1000
export const createRowsSchema = z.object({ rows: z.array(writeRowSchema).min(1).max(maxRowsPerBatch) })

// ---- people -------------------------------------------------------------------------------

export const workspaceUserSchema = z.object({
	id: z.string(),
	name: z.string(),
	email: z.string().nullable(),
	avatarUrl: z.string().nullable(),
	type: z.enum(['person', 'bot']),
})
export type WorkspaceUser = z.infer<typeof workspaceUserSchema>

// ---- writes -------------------------------------------------------------------------------

export const writeStateSchema = z.enum(['pending', 'delivered', 'failed', 'dead'])
export type WriteState = z.infer<typeof writeStateSchema>

export const workspaceWriteSchema = z.object({
	id: z.string(),
	workspaceId: z.string(),
	databaseId: z.string(),
	/** `delete` trashes (Notion) or removes (local) the row; `restore` brings it back with its values. */
	kind: z.enum(['create', 'update', 'delete', 'restore']),
	/** The row written: set from the start for updates, once delivered for creates. */
	rowId: z.string().nullable(),
	values: z.record(z.string(), z.unknown()),
	state: writeStateSchema,
	attempts: z.number().int(),
	lastError: z.string().nullable(),
	/** Who asked for the write, e.g. `form:abc` or `user:xyz`. */
	source: z.string(),
	/** The source's name for people (the form's, the member's), in the deliveries list; null when unknown. */
	sourceLabel: z.string().nullable().optional(),
	createdAt: z.iso.datetime(),
	deliveredAt: z.iso.datetime().nullable(),
	nextAttemptAt: z.iso.datetime().nullable(),
})
export type WorkspaceWrite = Omit<z.infer<typeof workspaceWriteSchema>, 'values'> & { values: RowValues }

export const listWritesQuerySchema = z.object({
	state: writeStateSchema.optional(),
	limit: z.coerce.number().int().min(1).max(200).default(50),
})

// ---- public, scoped reads -----------------------------------------------------------------

/** What a published object (form, chart, portal) lets anonymous visitors read of a database. */
export const publicDatabaseSchema = z.object({
	id: z.string(),
	name: z.string(),
	properties: z.array(propertySchema),
	/** Choices: each row's id and title (e.g. for a relation field). */
	rows: z.array(z.object({ id: z.string(), title: z.string() })),
})
export type PublicDatabase = Omit<z.infer<typeof publicDatabaseSchema>, 'properties'> & { properties: Property[] }

export const publicScopeQuerySchema = z.object({
	/** `<kind>:<id>` of the published object, e.g. `form:abc123`. */
	scope: z.string().min(3).max(200),
	database: idSchema.optional(),
	search: z.string().max(200).optional(),
	/**
	 * The question asking (a form's relation or people field id): the reads give only the choices
	 * that field allows. Without it a form gives only its fields that list every choice.
	 */
	field: z.string().min(1).max(64).optional(),
})
