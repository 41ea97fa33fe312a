import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { notFound, validationError } from './errors.ts'
import {
	checkLength,
	isRecord,
	type JsonObject,
	type MentionResolver,
	plainText,
	richTextFromRequest,
	textItem,
	URL_LIMIT,
} from './rich-text.ts'

const REFERENCE_LIMIT = 25
/** How long a hosted file's URL works after the read that handed it out. */
const FILE_URL_LIFETIME_MS = 3_600_000
const LIST_LIMIT = 100
const EMAIL_PHONE_LIMIT = 200

export type FakeUser = {
	id: string
	name: string
	avatarUrl: string | null
	type: 'person' | 'bot'
	email: string | null
}

export type FormulaValue =
	| { type: 'number'; number: number | null }
	| { type: 'string'; string: string | null }
	| { type: 'boolean'; boolean: boolean | null }
	| { type: 'date'; date: { start: string; end: string | null; time_zone: string | null } | null }

/** What a formula's `compute` callback can read from its row. */
export type FormulaRow = {
	/** The property's value in the page response shape (without the `id`/`type` wrapper). */
	value: (propertyName: string) => unknown
	number: (propertyName: string) => number | null
	text: (propertyName: string) => string
}

export type SchemaProperty = {
	id: string
	name: string
	description: string | null
	type: string
	/** The type's configuration in the response shape, e.g. `{format:'dollar'}` for numbers. */
	config: JsonObject
	compute?: (row: FormulaRow) => FormulaValue
}

export type FakeDataSource = {
	id: string
	databaseId: string
	title: string
	description: string
	icon: JsonObject | null
	createdTime: number
	lastEditedTime: number
	inTrash: boolean
	properties: SchemaProperty[]
	nextUniqueId: number
}

export type FakeDatabase = {
	id: string
	title: string
	icon: JsonObject | null
	createdTime: number
	lastEditedTime: number
	inTrash: boolean
	dataSourceIds: string[]
}

export type FakePage = {
	id: string
	/** Insertion order; the final tie-breaker of every sort so paging is stable. */
	seq: number
	dataSourceId: string
	createdTime: number
	lastEditedTime: number
	createdBy: string
	lastEditedBy: string
	inTrash: boolean
	isLocked: boolean
	icon: JsonObject | null
	cover: JsonObject | null
	/** Stored values keyed by property id, in the response shape. Computed types are not stored. */
	values: Map<string, unknown>
	uniqueId: number
}

export type FakeFileUpload = {
	id: string
	createdTime: number
	lastEditedTime: number
	status: 'pending' | 'uploaded' | 'expired' | 'failed'
	filename: string | null
	contentType: string | null
	contentLength: number | null
	data: Uint8Array | null
	expiryTime: number
}

/**
 * A property definition as given to `addDataSource`: Notion's property configuration request keyed by type,
 * e.g. `{ number: { format: 'dollar' } }`, `{ select: { options: [{ name: 'A' }] } }`,
 * `{ relation: { data_source_id, type: 'dual_property', dual_property: { synced_property_name: 'Invoices' } } }`,
 * `{ rollup: { relation_property_name, rollup_property_name, function: 'sum' } }`,
 * `{ formula: { expression }, compute: row => ({ type: 'number', number: … }) }`.
 */
export type PropertyDefinition = Record<string, unknown> & {
	description?: string | null
	compute?: (row: FormulaRow) => FormulaValue
}

const PROPERTY_TYPES = [
	'title',
	'rich_text',
	'number',
	'select',
	'multi_select',
	'status',
	'date',
	'people',
	'files',
	'checkbox',
	'url',
	'email',
	'phone_number',
	'relation',
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
]
const READ_ONLY_TYPES = new Set([
	'formula',
	'rollup',
	'unique_id',
	'created_time',
	'created_by',
	'last_edited_time',
	'last_edited_by',
	'button',
])
const COLORS = ['blue', 'green', 'orange', 'purple', 'pink', 'red', 'yellow', 'brown', 'gray', 'default']
const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:;<=>?@[]^_`{|}~'

export function iso(ms: number): string {
	return new Date(ms).toISOString()
}

function compactId(id: string): string {
	return id.replaceAll('-', '')
}

function shortId(length = 4): string {
	let id = ''
	for (let i = 0; i < length; i++) {
		id += ID_CHARS[Math.floor(Math.random() * ID_CHARS.length)]
	}
	return encodeURIComponent(id)
}

function optionId(): string {
	return randomUUID().slice(0, 8)
}

function userRef(id: string): JsonObject {
	return { object: 'user', id }
}

/** Detects which property type a request value object carries: its `type`, else the first known type key. */
function requestValueType(value: JsonObject): string | undefined {
	if (typeof value.type === 'string') {
		return value.type
	}
	return PROPERTY_TYPES.find((type) => type in value)
}

export type StoreOptions = {
	now: () => number
	/** Created/edited times are truncated to this many milliseconds: 60,000 as in Notion, which keeps whole minutes. */
	timestampPrecisionMs: number
	botId: string
	fileBaseUrl: () => string
}

type PendingOption = { property: SchemaProperty; option: JsonObject }

/** The fake workspace's content and the rules for reading and writing it, independent of HTTP. */
export class FakeNotionStore {
	options: StoreOptions
	users = new Map<string, FakeUser>()
	databases = new Map<string, FakeDatabase>()
	dataSources = new Map<string, FakeDataSource>()
	pages = new Map<string, FakePage>()
	/** Rows per data source in insertion order. */
	rows = new Map<string, FakePage[]>()
	fileUploads = new Map<string, FakeFileUpload>()
	private seq = 0
	private fileSecret = randomBytes(16)

	constructor(options: StoreOptions) {
		this.options = options
	}

	timestamp(): number {
		return this.truncate(this.options.now())
	}

	/** A time as Notion keeps it: whole minutes by default (`timestampPrecisionMs`). */
	truncate(ms: number): number {
		const precision = this.options.timestampPrecisionMs
		return precision > 1 ? ms - (((ms % precision) + precision) % precision) : ms
	}

	// --- users -------------------------------------------------------------------------------------------------

	addUser(input: {
		name: string
		email?: string | null
		type?: 'person' | 'bot'
		id?: string
		avatarUrl?: string | null
	}) {
		const user: FakeUser = {
			id: input.id ?? randomUUID(),
			name: input.name,
			type: input.type ?? 'person',
			email: input.type === 'bot' ? null : (input.email ?? null),
			avatarUrl: input.avatarUrl ?? null,
		}
		this.users.set(user.id, user)
		return user
	}

	// --- schema ------------------------------------------------------------------------------------------------

	getDataSource(id: string): FakeDataSource {
		const dataSource = this.dataSources.get(id)
		if (!dataSource) {
			throw notFound('data_source', id)
		}
		return dataSource
	}

	getDatabase(id: string): FakeDatabase {
		const database = this.databases.get(id)
		if (!database) {
			throw notFound('database', id)
		}
		return database
	}

	/** Finds a property by name, by id, or by its decoded id (path parameters arrive decoded). */
	findProperty(dataSource: FakeDataSource, nameOrId: string): SchemaProperty | undefined {
		return dataSource.properties.find(
			(property) => property.name === nameOrId || property.id === nameOrId || safeDecode(property.id) === nameOrId,
		)
	}

	addDataSource(input: {
		title: string
		properties: Record<string, PropertyDefinition>
		databaseId?: string
		icon?: JsonObject | string | null
		description?: string
		id?: string
	}): FakeDataSource {
		const now = this.timestamp()
		const icon = typeof input.icon === 'string' ? { type: 'emoji', emoji: input.icon } : (input.icon ?? null)
		let database: FakeDatabase
		if (input.databaseId) {
			database = this.getDatabase(input.databaseId)
		} else {
			database = {
				id: randomUUID(),
				title: input.title,
				icon,
				createdTime: now,
				lastEditedTime: now,
				inTrash: false,
				dataSourceIds: [],
			}
			this.databases.set(database.id, database)
		}
		const dataSource: FakeDataSource = {
			id: input.id ?? randomUUID(),
			databaseId: database.id,
			title: input.title,
			description: input.description ?? '',
			icon,
			createdTime: now,
			lastEditedTime: now,
			inTrash: false,
			properties: [],
			nextUniqueId: 1,
		}
		database.dataSourceIds.push(dataSource.id)
		this.dataSources.set(dataSource.id, dataSource)
		this.rows.set(dataSource.id, [])
		const entries = Object.entries(input.properties)
		if (!entries.some(([, definition]) => 'title' in definition)) {
			entries.unshift(['Name', { title: {} }])
		}
		// Rollups refer to other properties by name, so they are resolved after everything else exists.
		for (const [name, definition] of entries) {
			this.addProperty(dataSource, name, definition)
		}
		return dataSource
	}

	addProperty(dataSource: FakeDataSource, name: string, definition: PropertyDefinition): SchemaProperty {
		const type = PROPERTY_TYPES.find((candidate) => candidate in definition)
		if (!type) {
			throw validationError(`Property ${name} has no known type.`)
		}
		if (this.findProperty(dataSource, name)) {
			throw validationError(`Property ${name} already exists.`)
		}
		const raw = isRecord(definition[type]) ? definition[type] : {}
		const existingIds = new Set(dataSource.properties.map((property) => property.id))
		let id = type === 'title' ? 'title' : shortId()
		while (type !== 'title' && existingIds.has(id)) {
			id = shortId()
		}
		const property: SchemaProperty = {
			id,
			name,
			description: definition.description ?? null,
			type,
			config: this.configFor(dataSource, name, type, raw, id),
		}
		if (definition.compute) {
			property.compute = definition.compute
		}
		dataSource.properties.push(property)
		return property
	}

	private configFor(dataSource: FakeDataSource, name: string, type: string, raw: JsonObject, id: string): JsonObject {
		const options = (list: unknown): JsonObject[] =>
			(Array.isArray(list) ? list : []).filter(isRecord).map((option, index) => ({
				id: typeof option.id === 'string' ? option.id : optionId(),
				name: String(option.name),
				color: typeof option.color === 'string' ? option.color : (COLORS[index % COLORS.length] ?? 'default'),
				description: typeof option.description === 'string' ? option.description : null,
			}))
		switch (type) {
			case 'number':
				return { format: typeof raw.format === 'string' ? raw.format : 'number' }
			case 'select':
			case 'multi_select':
				return { options: options(raw.options) }
			case 'status': {
				const statusOptions = options(
					Array.isArray(raw.options) && raw.options.length > 0
						? raw.options
						: [
								{ name: 'Not started', color: 'default' },
								{ name: 'In progress', color: 'blue' },
								{ name: 'Done', color: 'green' },
							],
				)
				// Without explicit groups: first option is To-do, last is Complete, the rest In progress.
				const groups = [
					{ name: 'To-do', color: 'gray', option_ids: statusOptions.slice(0, 1).map((o) => o.id) },
					{ name: 'In progress', color: 'blue', option_ids: statusOptions.slice(1, -1).map((o) => o.id) },
					{ name: 'Complete', color: 'green', option_ids: statusOptions.slice(-1).map((o) => o.id) },
				].map((group) => ({ id: optionId(), ...group }))
				return { options: statusOptions, groups: Array.isArray(raw.groups) ? raw.groups : groups }
			}
			case 'relation': {
				const targetId = String(raw.data_source_id ?? '')
				const target = this.getDataSource(targetId)
				const dual = raw.type === 'dual_property' || isRecord(raw.dual_property)
				if (!dual) {
					return {
						database_id: target.databaseId,
						data_source_id: target.id,
						type: 'single_property',
						single_property: {},
					}
				}
				const wanted = isRecord(raw.dual_property) ? raw.dual_property : {}
				const syncedName =
					typeof wanted.synced_property_name === 'string' ? wanted.synced_property_name : dataSource.title
				let synced = this.findProperty(target, syncedName)
				if (!synced) {
					synced = {
						id: shortId(),
						name: syncedName,
						description: null,
						type: 'relation',
						config: {
							database_id: dataSource.databaseId,
							data_source_id: dataSource.id,
							type: 'dual_property',
							dual_property: { synced_property_id: id, synced_property_name: name },
						},
					}
					target.properties.push(synced)
				}
				return {
					database_id: target.databaseId,
					data_source_id: target.id,
					type: 'dual_property',
					dual_property: { synced_property_id: synced.id, synced_property_name: synced.name },
				}
			}
			case 'rollup': {
				const relation = this.findProperty(
					dataSource,
					String(raw.relation_property_name ?? raw.relation_property_id ?? ''),
				)
				if (relation?.type !== 'relation') {
					throw validationError(`Rollup ${name} needs an existing relation property.`)
				}
				const target = this.getDataSource(String(relation.config.data_source_id))
				const rolled = this.findProperty(target, String(raw.rollup_property_name ?? raw.rollup_property_id ?? ''))
				if (!rolled) {
					throw validationError(`Rollup ${name} refers to a property missing from ${target.title}.`)
				}
				return {
					function: typeof raw.function === 'string' ? raw.function : 'show_original',
					relation_property_name: relation.name,
					relation_property_id: relation.id,
					rollup_property_name: rolled.name,
					rollup_property_id: rolled.id,
				}
			}
			case 'formula':
				return { expression: typeof raw.expression === 'string' ? raw.expression : '' }
			case 'unique_id':
				return { prefix: typeof raw.prefix === 'string' ? raw.prefix : null }
			default:
				return {}
		}
	}

	// --- pages -------------------------------------------------------------------------------------------------

	/** Looks up what rich text mentions point at, to render them as Notion does. */
	readonly mentions: MentionResolver = {
		user: (id) => {
			const user = this.users.get(id)
			return user ? this.renderUser(user) : undefined
		},
		page: (id) => {
			const page = this.pages.get(id)
			return page ? { title: this.pageTitle(page), url: this.pageUrl(page) } : undefined
		},
		database: (id) => {
			const database = this.databases.get(id)
			const dataSource = this.dataSources.get(id)
			if (database) {
				return { title: database.title, url: `https://www.notion.so/${compactId(database.id)}` }
			}
			return dataSource
				? { title: dataSource.title, url: `https://www.notion.so/${compactId(dataSource.id)}` }
				: undefined
		},
	}

	getPage(id: string): FakePage {
		const page = this.pages.get(id)
		if (!page) {
			throw notFound('page', id)
		}
		return page
	}

	/** Resolves a create-page parent to its data source, as Notion does for single-source databases. */
	resolveParent(parent: unknown): FakeDataSource {
		if (!isRecord(parent)) {
			throw validationError('body failed validation: body.parent should be defined, instead was `undefined`.')
		}
		if (typeof parent.data_source_id === 'string') {
			return this.getDataSource(parent.data_source_id)
		}
		if (typeof parent.database_id === 'string') {
			const database = this.getDatabase(parent.database_id)
			if (database.dataSourceIds.length !== 1) {
				throw validationError(
					`Database ${database.id} has multiple data sources; use a data_source_id parent instead of database_id.`,
				)
			}
			return this.getDataSource(database.dataSourceIds[0] ?? '')
		}
		throw validationError('The fake Notion server only creates pages in data sources (parent.data_source_id).')
	}

	createPage(input: {
		dataSource: FakeDataSource
		properties: unknown
		createdBy?: string
		createdTime?: number
		icon?: unknown
		cover?: unknown
	}): FakePage {
		const { dataSource } = input
		const pending: PendingOption[] = []
		const values = this.valuesFromRequest(dataSource, input.properties ?? {}, pending)
		this.commitOptions(pending)
		const time = input.createdTime === undefined ? this.timestamp() : this.truncate(input.createdTime)
		const author = input.createdBy ?? this.options.botId
		const page: FakePage = {
			id: randomUUID(),
			seq: ++this.seq,
			dataSourceId: dataSource.id,
			createdTime: time,
			lastEditedTime: time,
			createdBy: author,
			lastEditedBy: author,
			inTrash: false,
			isLocked: false,
			icon: iconFrom(input.icon),
			cover: iconFrom(input.cover),
			values: new Map(),
			uniqueId: dataSource.nextUniqueId++,
		}
		this.pages.set(page.id, page)
		this.rows.get(dataSource.id)?.push(page)
		this.applyValues(page, dataSource, values, time)
		return page
	}

	updatePage(
		page: FakePage,
		input: { properties?: unknown; inTrash?: boolean; icon?: unknown; cover?: unknown; isLocked?: boolean },
		editedBy?: string,
	): FakePage {
		const dataSource = this.getDataSource(page.dataSourceId)
		const willBeTrashed = input.inTrash ?? page.inTrash
		if (input.properties !== undefined && willBeTrashed) {
			throw validationError("Can't edit block that is archived. You must unarchive the block before editing.")
		}
		const pending: PendingOption[] = []
		const values =
			input.properties === undefined ? new Map() : this.valuesFromRequest(dataSource, input.properties, pending)
		this.commitOptions(pending)
		const time = this.timestamp()
		this.applyValues(page, dataSource, values, time)
		if (input.inTrash !== undefined) {
			page.inTrash = input.inTrash
		}
		if (input.icon !== undefined) {
			page.icon = iconFrom(input.icon)
		}
		if (input.cover !== undefined) {
			page.cover = iconFrom(input.cover)
		}
		if (input.isLocked !== undefined) {
			page.isLocked = input.isLocked
		}
		page.lastEditedTime = Math.max(time, page.createdTime)
		page.lastEditedBy = editedBy ?? this.options.botId
		return page
	}

	/** Removes a page for good (as if deleted from the trash); relations pointing at it are dropped. */
	deletePage(id: string): void {
		const page = this.getPage(id)
		this.pages.delete(id)
		const rows = this.rows.get(page.dataSourceId)
		if (rows) {
			const index = rows.indexOf(page)
			if (index >= 0) {
				rows.splice(index, 1)
			}
		}
		for (const other of this.pages.values()) {
			for (const [propertyId, value] of other.values) {
				if (Array.isArray(value) && value.some((ref) => isRecord(ref) && ref.id === id && !('object' in ref))) {
					other.values.set(
						propertyId,
						value.filter((ref) => !(isRecord(ref) && ref.id === id)),
					)
				}
			}
		}
	}

	private commitOptions(pending: PendingOption[]): void {
		for (const { property, option } of pending) {
			const options = property.config.options
			if (Array.isArray(options) && !options.some((existing) => isRecord(existing) && existing.name === option.name)) {
				options.push(option)
			}
		}
	}

	private applyValues(page: FakePage, dataSource: FakeDataSource, values: Map<string, unknown>, time: number): void {
		for (const [propertyId, value] of values) {
			const property = dataSource.properties.find((candidate) => candidate.id === propertyId)
			if (property?.type === 'relation' && property.config.type === 'dual_property') {
				const before = refIds(page.values.get(propertyId))
				const after = refIds(value)
				this.syncDualRelation(page, property, before, after, time)
			}
			page.values.set(propertyId, value)
		}
	}

	/** Mirrors a dual relation change onto the related pages' synced property, as Notion does. */
	private syncDualRelation(
		page: FakePage,
		property: SchemaProperty,
		before: string[],
		after: string[],
		time: number,
	): void {
		const dual = property.config.dual_property
		const syncedId = isRecord(dual) ? String(dual.synced_property_id) : ''
		const added = after.filter((id) => !before.includes(id))
		const removed = before.filter((id) => !after.includes(id))
		for (const id of added) {
			const other = this.pages.get(id)
			if (other) {
				const current = refIds(other.values.get(syncedId))
				if (!current.includes(page.id)) {
					other.values.set(
						syncedId,
						[...current, page.id].map((ref) => ({ id: ref })),
					)
					other.lastEditedTime = Math.max(other.lastEditedTime, time)
				}
			}
		}
		for (const id of removed) {
			const other = this.pages.get(id)
			if (other) {
				const current = refIds(other.values.get(syncedId))
				other.values.set(
					syncedId,
					current.filter((ref) => ref !== page.id).map((ref) => ({ id: ref })),
				)
				other.lastEditedTime = Math.max(other.lastEditedTime, time)
			}
		}
	}

	/** Validates request property values against the schema and converts them to the stored (response) shape. */
	valuesFromRequest(dataSource: FakeDataSource, input: unknown, pending: PendingOption[]): Map<string, unknown> {
		if (!isRecord(input)) {
			throw validationError('body failed validation: body.properties should be an object.')
		}
		const values = new Map<string, unknown>()
		for (const [key, raw] of Object.entries(input)) {
			const property = this.findProperty(dataSource, key)
			if (!property) {
				throw validationError(`${key} is not a property that exists.`)
			}
			if (READ_ONLY_TYPES.has(property.type)) {
				throw validationError(`${property.name} is a ${property.type} property and cannot be written.`)
			}
			if (!isRecord(raw)) {
				throw validationError(`${property.name} is expected to be ${property.type}.`)
			}
			const given = requestValueType(raw)
			if (given !== property.type || !(property.type in raw)) {
				throw validationError(`${property.name} is expected to be ${property.type}.`)
			}
			values.set(property.id, this.valueFromRequest(property, raw[property.type], pending))
		}
		return values
	}

	private valueFromRequest(property: SchemaProperty, value: unknown, pending: PendingOption[]): unknown {
		const name = property.name
		const path = `body.properties.${name}.${property.type}`
		const expected = (what: string) =>
			validationError(
				`body failed validation: ${path} should be ${what}, instead was \`${JSON.stringify(value) ?? 'undefined'}\`.`,
			)
		switch (property.type) {
			case 'title':
			case 'rich_text':
				return richTextFromRequest(path, value, this.mentions)
			case 'number':
				if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
					throw expected('a number or `null`')
				}
				return value
			case 'checkbox':
				if (typeof value !== 'boolean') {
					throw expected('a boolean')
				}
				return value
			case 'url':
			case 'email':
			case 'phone_number':
				if (value === null) {
					return null
				}
				if (typeof value !== 'string') {
					throw expected('a string or `null`')
				}
				checkLength(path, value, property.type === 'url' ? URL_LIMIT : EMAIL_PHONE_LIMIT)
				return value
			case 'select':
			case 'status':
				if (value === null) {
					return null
				}
				return this.option(property, value, path, pending)
			case 'multi_select': {
				if (!Array.isArray(value)) {
					throw expected('an array')
				}
				if (value.length > LIST_LIMIT) {
					throw validationError(
						`body failed validation: ${path}.length should be ≤ \`${LIST_LIMIT}\`, instead was \`${value.length}\`.`,
					)
				}
				return value.map((item, index) => this.option(property, item, `${path}[${index}]`, pending))
			}
			case 'date': {
				if (value === null) {
					return null
				}
				if (!isRecord(value) || typeof value.start !== 'string' || Number.isNaN(Date.parse(value.start))) {
					throw expected('an object with an ISO 8601 `start`')
				}
				if (
					value.end !== undefined &&
					value.end !== null &&
					(typeof value.end !== 'string' || Number.isNaN(Date.parse(value.end)))
				) {
					throw expected('an object whose `end` is an ISO 8601 date or `null`')
				}
				return {
					start: value.start,
					end: typeof value.end === 'string' ? value.end : null,
					time_zone: typeof value.time_zone === 'string' ? value.time_zone : null,
				}
			}
			case 'people': {
				const refs = this.refList(path, value)
				for (const id of refs) {
					if (!this.users.has(id)) {
						throw validationError(`${name}: could not find user with ID: ${id}.`)
					}
				}
				return refs.map(userRef)
			}
			case 'relation': {
				const refs = this.refList(path, value)
				const targetId = String(property.config.data_source_id)
				for (const id of refs) {
					const related = this.pages.get(id)
					if (!related || related.dataSourceId !== targetId) {
						throw validationError(`${name}: related page ${id} does not exist in the related data source ${targetId}.`)
					}
				}
				return [...new Set(refs)].map((id) => ({ id }))
			}
			case 'files':
				return this.files(path, value)
			case 'place':
				if (value !== null && (!isRecord(value) || typeof value.lat !== 'number' || typeof value.lon !== 'number')) {
					throw expected('an object with `lat` and `lon` or `null`')
				}
				return value
			case 'verification':
				if (!isRecord(value) || (value.state !== 'verified' && value.state !== 'unverified')) {
					throw expected('an object with `state`')
				}
				return { state: value.state, date: value.date ?? null, verified_by: null }
			default:
				throw validationError(`${name} is a ${property.type} property and cannot be written.`)
		}
	}

	private refList(path: string, value: unknown): string[] {
		if (!Array.isArray(value)) {
			throw validationError(`body failed validation: ${path} should be an array.`)
		}
		if (value.length > LIST_LIMIT) {
			throw validationError(
				`body failed validation: ${path}.length should be ≤ \`${LIST_LIMIT}\`, instead was \`${value.length}\`.`,
			)
		}
		return value.map((item, index) => {
			if (!isRecord(item) || typeof item.id !== 'string') {
				throw validationError(`body failed validation: ${path}[${index}].id should be defined.`)
			}
			return item.id
		})
	}

	private option(property: SchemaProperty, value: unknown, path: string, pending: PendingOption[]): JsonObject {
		if (!isRecord(value)) {
			throw validationError(`body failed validation: ${path} should be an object or \`null\`.`)
		}
		const options = (Array.isArray(property.config.options) ? property.config.options : []).filter(isRecord)
		const queued = pending.filter((entry) => entry.property === property).map((entry) => entry.option)
		const all = [...options, ...queued]
		const found =
			typeof value.id === 'string'
				? all.find((option) => option.id === value.id)
				: typeof value.name === 'string'
					? all.find((option) => option.name === value.name)
					: undefined
		if (found) {
			return { id: found.id, name: found.name, color: found.color }
		}
		if (property.type === 'status' || typeof value.name !== 'string') {
			const what = typeof value.name === 'string' ? `name "${value.name}"` : `id "${String(value.id)}"`
			throw validationError(`Invalid ${property.type} option ${what} for property ${property.name}.`)
		}
		if (value.name.includes(',')) {
			throw validationError(`Invalid select option name for property ${property.name}: commas are not allowed.`)
		}
		checkLength(`${path}.name`, value.name, 100)
		const option = {
			id: optionId(),
			name: value.name,
			color: typeof value.color === 'string' ? value.color : (COLORS[all.length % COLORS.length] ?? 'default'),
			description: null,
		}
		pending.push({ property, option })
		return { id: option.id, name: option.name, color: option.color }
	}

	private files(path: string, value: unknown): JsonObject[] {
		if (!Array.isArray(value)) {
			throw validationError(`body failed validation: ${path} should be an array.`)
		}
		if (value.length > LIST_LIMIT) {
			throw validationError(
				`body failed validation: ${path}.length should be ≤ \`${LIST_LIMIT}\`, instead was \`${value.length}\`.`,
			)
		}
		return value.map((item, index) => {
			const itemPath = `${path}[${index}]`
			if (!isRecord(item)) {
				throw validationError(`body failed validation: ${itemPath} should be an object.`)
			}
			if (isRecord(item.external) && typeof item.external.url === 'string') {
				checkLength(`${itemPath}.external.url`, item.external.url, URL_LIMIT)
				const name = typeof item.name === 'string' ? item.name : item.external.url
				return { name, type: 'external', external: { url: item.external.url } }
			}
			if (isRecord(item.file_upload) && typeof item.file_upload.id === 'string') {
				const upload = this.fileUploads.get(item.file_upload.id)
				if (!upload) {
					throw validationError(`${itemPath}: could not find file upload with ID: ${item.file_upload.id}.`)
				}
				if (upload.status !== 'uploaded') {
					throw validationError(
						`File upload ${upload.id} is in status \`${upload.status}\`; only uploaded files can be attached.`,
					)
				}
				const name = typeof item.name === 'string' ? item.name : (upload.filename ?? 'file')
				// Only the reference is kept: every read signs a fresh URL that expires an hour later.
				return { name, type: 'file', fileUploadId: upload.id }
			}
			if (isRecord(item.file) && typeof item.file.url === 'string') {
				// Re-sending a file Notion returned keeps that file (even once its URL has expired, since the file is
				// what it names); a URL Notion did not hand out is no Notion-hosted file.
				const upload = this.uploadOfUrl(item.file.url)
				if (!upload) {
					throw validationError(
						`body failed validation: ${itemPath}.file.url should be a file hosted by Notion; link other files as \`external\`.`,
					)
				}
				const name = typeof item.name === 'string' ? item.name : (upload.filename ?? 'file')
				return { name, type: 'file', fileUploadId: upload.id }
			}
			throw validationError(
				`body failed validation: ${itemPath} should be defined with \`external\` or \`file_upload\`.`,
			)
		})
	}

	/**
	 * A signed URL for a hosted file, valid until `expiresAt` (ms): Notion's are S3 URLs signed for an hour, and the
	 * fake's file route refuses them afterwards (403, S3's "Request has expired").
	 */
	fileUrl(upload: FakeFileUpload, expiresAt: number): string {
		const path = `/__files/${upload.id}/${encodeURIComponent(upload.filename ?? 'file')}`
		return `${this.options.fileBaseUrl()}${path}?X-Expires=${expiresAt}&X-Signature=${this.signFile(upload.id, expiresAt)}`
	}

	signFile(uploadId: string, expiresAt: number): string {
		return createHmac('sha256', this.fileSecret).update(`${uploadId}:${expiresAt}`).digest('hex')
	}

	/** The uploaded file a URL handed out by `fileUrl` names (its signature and expiry aside). */
	uploadOfUrl(url: string): FakeFileUpload | undefined {
		const prefix = `${this.options.fileBaseUrl()}/__files/`
		if (!url.startsWith(prefix)) {
			return undefined
		}
		const id = url.slice(prefix.length).split('/')[0] ?? ''
		return this.fileUploads.get(id)
	}

	// --- rendering ---------------------------------------------------------------------------------------------

	pageUrl(page: FakePage): string {
		const dataSource = this.dataSources.get(page.dataSourceId)
		const titleProperty = dataSource?.properties.find((property) => property.type === 'title')
		const title = titleProperty ? plainText(page.values.get(titleProperty.id)) : ''
		const slug = title
			.replace(/[^A-Za-z0-9]+/g, '-')
			.replace(/^-|-$/g, '')
			.slice(0, 60)
		return `https://www.notion.so/${slug ? `${slug}-` : ''}${compactId(page.id)}`
	}

	pageTitle(page: FakePage): string {
		const dataSource = this.dataSources.get(page.dataSourceId)
		const titleProperty = dataSource?.properties.find((property) => property.type === 'title')
		return titleProperty ? plainText(page.values.get(titleProperty.id)) : ''
	}

	/** The page object as Notion returns it; relation and people lists are cut at 25 with `has_more`. */
	renderPage(page: FakePage, filterProperties?: string[]): JsonObject {
		const dataSource = this.getDataSource(page.dataSourceId)
		const properties: JsonObject = {}
		for (const property of dataSource.properties) {
			if (
				filterProperties &&
				!filterProperties.some(
					(wanted) => wanted === property.id || wanted === property.name || safeDecode(property.id) === wanted,
				)
			) {
				continue
			}
			// Page objects compute rollups from the first 25 relations only, and say nothing about it.
			const value =
				property.type === 'rollup'
					? this.rollup(page, property, 0, REFERENCE_LIMIT)
					: this.propertyValue(page, property, 0)
			const rendered: JsonObject = { id: property.id, type: property.type, [property.type]: value }
			if ((property.type === 'relation' || property.type === 'people') && Array.isArray(value)) {
				const more = value.length > REFERENCE_LIMIT
				rendered[property.type] = value.slice(0, REFERENCE_LIMIT)
				if (property.type === 'relation' || more) {
					rendered.has_more = more
				}
			}
			properties[property.name] = rendered
		}
		return {
			object: 'page',
			id: page.id,
			created_time: iso(page.createdTime),
			last_edited_time: iso(page.lastEditedTime),
			created_by: userRef(page.createdBy),
			last_edited_by: userRef(page.lastEditedBy),
			cover: page.cover,
			icon: page.icon,
			parent: { type: 'data_source_id', data_source_id: dataSource.id, database_id: dataSource.databaseId },
			in_trash: page.inTrash,
			archived: page.inTrash,
			is_archived: page.inTrash,
			is_locked: page.isLocked,
			properties,
			url: this.pageUrl(page),
			public_url: null,
		}
	}

	/** A property's full value in the response shape (no truncation), computing read-only types. */
	propertyValue(page: FakePage, property: SchemaProperty, depth: number): unknown {
		const stored = page.values.get(property.id)
		switch (property.type) {
			case 'title':
			case 'rich_text':
			case 'multi_select':
			case 'people':
			case 'relation':
				return Array.isArray(stored) ? stored : []
			case 'files':
				return Array.isArray(stored) ? stored.filter(isRecord).map((file) => this.renderFile(file)) : []
			case 'checkbox':
				return stored === true
			case 'created_time':
				return iso(page.createdTime)
			case 'last_edited_time':
				return iso(page.lastEditedTime)
			case 'created_by':
				return this.renderUserRef(page.createdBy)
			case 'last_edited_by':
				return this.renderUserRef(page.lastEditedBy)
			case 'unique_id':
				return { prefix: property.config.prefix ?? null, number: page.uniqueId }
			case 'formula':
				return depth > 3 ? { type: 'string', string: null } : this.formula(page, property, depth)
			case 'rollup':
				return depth > 3
					? { type: 'unsupported', unsupported: {}, function: property.config.function }
					: this.rollup(page, property, depth)
			case 'button':
				return {}
			default:
				return stored ?? null
		}
	}

	private renderUserRef(id: string): JsonObject {
		const user = this.users.get(id)
		return user ? this.renderUser(user) : userRef(id)
	}

	renderUser(user: FakeUser): JsonObject {
		if (user.type === 'bot') {
			return { object: 'user', id: user.id, name: user.name, avatar_url: user.avatarUrl, type: 'bot', bot: {} }
		}
		return {
			object: 'user',
			id: user.id,
			name: user.name,
			avatar_url: user.avatarUrl,
			type: 'person',
			person: user.email ? { email: user.email } : {},
		}
	}

	private renderFile(file: JsonObject): JsonObject {
		const upload = typeof file.fileUploadId === 'string' ? this.fileUploads.get(file.fileUploadId) : undefined
		if (file.type !== 'file' || !upload) {
			return file
		}
		// Notion hands out signed URLs that expire an hour after each read.
		const expiresAt = this.options.now() + FILE_URL_LIFETIME_MS
		return {
			name: file.name,
			type: 'file',
			file: { url: this.fileUrl(upload, expiresAt), expiry_time: iso(expiresAt) },
		}
	}

	private row(page: FakePage, depth: number): FormulaRow {
		const dataSource = this.getDataSource(page.dataSourceId)
		const value = (name: string) => {
			const property = this.findProperty(dataSource, name)
			return property ? this.propertyValue(page, property, depth + 1) : undefined
		}
		return {
			value,
			number: (name) => numberOf(value(name)),
			text: (name) => {
				const found = value(name)
				return Array.isArray(found) ? plainText(found) : typeof found === 'string' ? found : ''
			},
		}
	}

	private formula(page: FakePage, property: SchemaProperty, depth: number): FormulaValue {
		if (!property.compute) {
			return { type: 'string', string: null }
		}
		return property.compute(this.row(page, depth))
	}

	/**
	 * What a rollup rolls up: its function, the rolled property, the related pages (the first `relationLimit` of
	 * them, as in page objects, which Notion computes from at most 25 relations) and their values.
	 */
	rollupInputs(
		page: FakePage,
		property: SchemaProperty,
		depth: number,
		relationLimit = Number.POSITIVE_INFINITY,
	): { fn: string; rolled: SchemaProperty; related: FakePage[]; values: unknown[] } | null {
		const fn = String(property.config.function)
		const dataSource = this.getDataSource(page.dataSourceId)
		const relation = this.findProperty(dataSource, String(property.config.relation_property_id))
		const targetId = relation ? String(relation.config.data_source_id) : ''
		const target = this.dataSources.get(targetId)
		const rolled = target ? this.findProperty(target, String(property.config.rollup_property_id)) : undefined
		if (!relation || !target || !rolled) {
			return null
		}
		const related = refIds(page.values.get(relation.id))
			.slice(0, relationLimit)
			.map((id) => this.pages.get(id))
			.filter((candidate): candidate is FakePage => candidate !== undefined)
		const values = related.map((other) => this.propertyValue(other, rolled, depth + 1))
		return { fn, rolled, related, values }
	}

	/** The rollup's value in the response shape, over the first `relationLimit` relations. */
	rollup(page: FakePage, property: SchemaProperty, depth: number, relationLimit?: number): JsonObject {
		const inputs = this.rollupInputs(page, property, depth, relationLimit)
		if (!inputs) {
			return { type: 'unsupported', unsupported: {}, function: String(property.config.function) }
		}
		return rollupOf(inputs)
	}

	renderDataSource(dataSource: FakeDataSource): JsonObject {
		const properties: JsonObject = {}
		for (const property of dataSource.properties) {
			properties[property.name] = {
				id: property.id,
				name: property.name,
				description: property.description,
				type: property.type,
				[property.type]: property.config,
			}
		}
		return {
			object: 'data_source',
			id: dataSource.id,
			title: [textItem(dataSource.title)],
			description: dataSource.description ? [textItem(dataSource.description)] : [],
			parent: { type: 'database_id', database_id: dataSource.databaseId },
			database_parent: { type: 'workspace', workspace: true },
			is_inline: false,
			in_trash: dataSource.inTrash,
			archived: dataSource.inTrash,
			created_time: iso(dataSource.createdTime),
			last_edited_time: iso(dataSource.lastEditedTime),
			created_by: userRef(this.options.botId),
			last_edited_by: userRef(this.options.botId),
			properties,
			icon: dataSource.icon,
			cover: null,
			url: `https://www.notion.so/${compactId(dataSource.id)}`,
			public_url: null,
		}
	}

	renderDatabase(database: FakeDatabase): JsonObject {
		return {
			object: 'database',
			id: database.id,
			title: [textItem(database.title)],
			description: [],
			parent: { type: 'workspace', workspace: true },
			is_inline: false,
			in_trash: database.inTrash,
			archived: database.inTrash,
			is_locked: false,
			created_time: iso(database.createdTime),
			last_edited_time: iso(database.lastEditedTime),
			data_sources: database.dataSourceIds.map((id) => ({ id, name: this.dataSources.get(id)?.title ?? '' })),
			icon: database.icon,
			cover: null,
			url: `https://www.notion.so/${compactId(database.id)}`,
			public_url: null,
		}
	}

	renderFileUpload(upload: FakeFileUpload): JsonObject {
		return {
			object: 'file_upload',
			id: upload.id,
			created_time: iso(upload.createdTime),
			created_by: { id: this.options.botId, type: 'bot' },
			last_edited_time: iso(upload.lastEditedTime),
			in_trash: false,
			archived: false,
			expiry_time: upload.status === 'pending' ? iso(upload.expiryTime) : null,
			status: upload.status,
			filename: upload.filename,
			content_type: upload.contentType,
			content_length: upload.contentLength,
			...(upload.status === 'pending'
				? { upload_url: `${this.options.fileBaseUrl()}/v1/file_uploads/${upload.id}/send` }
				: {}),
		}
	}
}

/** Aggregates rolled-up values as Notion's rollup functions do (those the fake knows; others are `unsupported`). */
function rollupOf(inputs: { fn: string; rolled: SchemaProperty; related: FakePage[]; values: unknown[] }): JsonObject {
	const { fn, rolled, related, values } = inputs
	const numbers = values.map(numberOf).filter((n): n is number => n !== null)
	const isEmpty = (value: unknown) =>
		value === null || value === false || value === '' || (Array.isArray(value) && value.length === 0)
	const number = (n: number | null) => ({ type: 'number', number: n, function: fn })
	switch (fn) {
		case 'count':
			return number(related.length)
		case 'count_values':
		case 'not_empty':
			return number(values.filter((value) => !isEmpty(value)).length)
		case 'empty':
			return number(values.filter(isEmpty).length)
		case 'sum':
			return number(numbers.reduce((sum, n) => sum + n, 0))
		case 'average':
			return number(numbers.length ? numbers.reduce((sum, n) => sum + n, 0) / numbers.length : null)
		case 'min':
			return number(numbers.length ? Math.min(...numbers) : null)
		case 'max':
			return number(numbers.length ? Math.max(...numbers) : null)
		case 'range':
			return number(numbers.length ? Math.max(...numbers) - Math.min(...numbers) : null)
		case 'unique':
			return number(new Set(values.filter((value) => !isEmpty(value)).map((value) => JSON.stringify(value))).size)
		case 'median': {
			const sorted = [...numbers].sort((a, b) => a - b)
			const middle = Math.floor(sorted.length / 2)
			const median =
				sorted.length === 0
					? null
					: sorted.length % 2
						? (sorted[middle] ?? null)
						: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
			return number(median)
		}
		case 'checked':
			return number(values.filter((value) => value === true).length)
		case 'unchecked':
			return number(values.filter((value) => value === false).length)
		// Notion gives percentages as fractions of 1.
		case 'percent_empty':
		case 'percent_not_empty':
		case 'percent_checked':
		case 'percent_unchecked': {
			const counted = values.filter((value) =>
				fn === 'percent_empty'
					? isEmpty(value)
					: fn === 'percent_not_empty'
						? !isEmpty(value)
						: value === (fn === 'percent_checked'),
			).length
			return number(values.length ? counted / values.length : 0)
		}
		case 'earliest_date':
		case 'latest_date': {
			const starts = values
				.map((value) => (isRecord(value) && typeof value.start === 'string' ? value.start : null))
				.filter((start): start is string => start !== null)
				.sort()
			const start = fn === 'earliest_date' ? starts[0] : starts[starts.length - 1]
			return { type: 'date', date: start ? { start, end: null, time_zone: null } : null, function: fn }
		}
		case 'show_original':
		case 'show_unique': {
			const shown =
				fn === 'show_unique'
					? values.filter(
							(value, index) => values.findIndex((other) => JSON.stringify(other) === JSON.stringify(value)) === index,
						)
					: values
			return { type: 'array', array: shown.map((value) => ({ type: rolled.type, [rolled.type]: value })), function: fn }
		}
		default:
			return { type: 'unsupported', unsupported: {}, function: fn }
	}
}

function iconFrom(value: unknown): JsonObject | null {
	if (!isRecord(value)) {
		return null
	}
	if (typeof value.emoji === 'string') {
		return { type: 'emoji', emoji: value.emoji }
	}
	if (isRecord(value.external)) {
		return { type: 'external', external: { url: value.external.url } }
	}
	return value
}

export function refIds(value: unknown): string[] {
	if (!Array.isArray(value)) {
		return []
	}
	return value.filter(isRecord).map((ref) => String(ref.id))
}

/** Reads a number out of a number value, a number formula or a number rollup. */
export function numberOf(value: unknown): number | null {
	if (typeof value === 'number') {
		return value
	}
	if (isRecord(value) && value.type === 'number' && typeof value.number === 'number') {
		return value.number
	}
	if (isRecord(value) && typeof value.number === 'number' && 'prefix' in value) {
		return value.number
	}
	return null
}

export function safeDecode(value: string): string {
	try {
		return decodeURIComponent(value)
	} catch {
		return value
	}
}
