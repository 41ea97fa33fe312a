import type {
	DateValue,
	FileValue,
	OptionColor,
	Property,
	PropertyType,
	PropertyValue,
	RowValues,
	SelectOption,
} from '@blocksmith/contracts/workspaces.ts'
import { isWritableType, optionColors } from '@blocksmith/contracts/workspaces.ts'
import type {
	CreatePageParameters,
	DataSourceObjectResponse,
	GetSelfResponse,
	PageObjectResponse,
	PropertyItemListResponse,
	PropertyItemObjectResponse,
	RichTextItemResponse,
} from '@notionhq/client'
import type { ExternalRow } from '#src/workspaces/connector.ts'
import { ConnectorError } from '#src/workspaces/connector.ts'

// Pure mapping between Notion's JSON (API version 2025-09-03) and our property/value model.
// Nothing here talks to the network, so every rule is unit-tested with literal Notion shapes.

export type NotionPropertyConfig = DataSourceObjectResponse['properties'][string]
type NotionPageProperty = PageObjectResponse['properties'][string]
export type NotionPageProperties = NonNullable<CreatePageParameters['properties']>
type NotionPropertyRequest = NotionPageProperties[string]
type RollupResponse = Extract<NotionPageProperty, { type: 'rollup' }>['rollup']
type RollupElement = Extract<RollupResponse, { type: 'array' }>['array'][number]
type NotionDate = { start: string; end: string | null; time_zone: string | null }

/** Notion's documented request limits (developers.notion.com/reference/request-limits). */
const notionLimits = {
	richTextItemChars: 2000,
	richTextItems: 100,
	urlChars: 2000,
	emailChars: 200,
	phoneChars: 200,
	multiSelectOptions: 100,
	relations: 100,
	people: 100,
	/** Page objects carry at most this many references per relation/people/title/rich_text value. */
	pageReferences: 25,
} as const

// ---- schema ----------------------------------------------------------------------------

const rollupNumberFunctions = new Set([
	'count',
	'count_values',
	'empty',
	'not_empty',
	'unique',
	'percent_empty',
	'percent_not_empty',
	'sum',
	'average',
	'median',
	'min',
	'max',
	'range',
	'checked',
	'unchecked',
	'percent_checked',
	'percent_unchecked',
])
const rollupDateFunctions = new Set(['earliest_date', 'latest_date', 'date_range'])

/** Types that exist in Notion but not (yet) in the SDK's data-source config union. */
const untypedKnownTypes = new Set<PropertyType>(['button', 'place', 'verification'])

function toColor(color: string): OptionColor {
	return (optionColors as readonly string[]).includes(color) ? (color as OptionColor) : 'default'
}

function toOptions(options: ReadonlyArray<{ id: string; name: string; color: string }>): SelectOption[] {
	return options.map((option) => ({ id: option.id, name: option.name, color: toColor(option.color) }))
}

function toProperty(config: NotionPropertyConfig): Property {
	const base = { id: config.id, name: config.name, description: config.description ?? null }
	switch (config.type) {
		case 'number':
			return { ...base, type: 'number', format: config.number.format || 'number' }
		case 'select':
			return { ...base, type: 'select', options: toOptions(config.select.options) }
		case 'multi_select':
			return { ...base, type: 'multi_select', options: toOptions(config.multi_select.options) }
		case 'status':
			return {
				...base,
				type: 'status',
				options: toOptions(config.status.options),
				groups: config.status.groups.map((group) => ({
					id: group.id,
					name: group.name,
					color: toColor(group.color),
					optionIds: [...group.option_ids],
				})),
			}
		case 'relation':
			// The related *data source* id: the caller maps it to our database id.
			return { ...base, type: 'relation', relationDatabaseId: config.relation.data_source_id ?? null }
		case 'formula':
			// Notion's schema only has the expression; the result type shows on values.
			return { ...base, type: 'formula' }
		case 'rollup': {
			const fn = config.rollup.function
			const resultType = rollupNumberFunctions.has(fn) ? 'number' : rollupDateFunctions.has(fn) ? 'date' : 'array'
			return { ...base, type: 'rollup', resultType }
		}
		case 'unique_id':
			return { ...base, type: 'unique_id', prefix: config.unique_id.prefix ?? null }
		case 'title':
		case 'rich_text':
		case 'url':
		case 'people':
		case 'files':
		case 'email':
		case 'phone_number':
		case 'date':
		case 'checkbox':
		case 'created_by':
		case 'created_time':
		case 'last_edited_by':
		case 'last_edited_time':
			return { ...base, type: config.type }
		default: {
			// Types newer than the SDK's union (button, place, verification, and whatever comes next).
			const type = (config as { type: string }).type as PropertyType
			return { ...base, type: untypedKnownTypes.has(type) ? type : 'unsupported' }
		}
	}
}

/** Our properties from a data source's `properties` (keyed by name): the title first, then Notion's order. */
export function toProperties(dataSourceProperties: Record<string, NotionPropertyConfig>): Property[] {
	const properties = Object.values(dataSourceProperties).map(toProperty)
	const title = properties.filter((property) => property.type === 'title')
	return [...title, ...properties.filter((property) => property.type !== 'title')]
}

// ---- values from Notion ---------------------------------------------------------------

export function plainText(items: ReadonlyArray<RichTextItemResponse>): string {
	return items.map((item) => item.plain_text).join('')
}

function textOrNull(text: string): string | null {
	return text === '' ? null : text
}

function toDateValue(date: NotionDate | null): DateValue | null {
	return date ? { start: date.start, end: date.end ?? null, timeZone: date.time_zone ?? null } : null
}

function toFileValue(file: {
	name: string
	type: string
	file?: { url: string; expiry_time?: string }
	external?: { url: string }
}): FileValue {
	const name = (file.name || 'file').slice(0, 255)
	if (file.type === 'file') {
		// Notion's own file: its URL expires, and it says when.
		const expiresAt = file.file?.expiry_time
		return { name, url: file.file?.url ?? null, blobId: null, ...(expiresAt ? { expiresAt } : {}) }
	}
	return { name, url: file.external?.url ?? null, blobId: null }
}

/** Converts one Notion value (a page property, or an element of a rollup array). */
function toValue(value: NotionPageProperty | RollupElement): PropertyValue {
	switch (value.type) {
		case 'title':
			return textOrNull(plainText(value.title))
		case 'rich_text':
			return textOrNull(plainText(value.rich_text))
		case 'number':
			return value.number
		case 'url':
			return value.url || null
		case 'email':
			return value.email || null
		case 'phone_number':
			return value.phone_number || null
		case 'select':
			return value.select?.name ?? null
		case 'status':
			return value.status?.name ?? null
		case 'multi_select':
			return value.multi_select.map((option) => option.name)
		case 'date':
			return toDateValue(value.date)
		case 'checkbox':
			return value.checkbox
		case 'people':
			return value.people.map((person) => person.id)
		case 'relation':
			return value.relation.map((page) => page.id)
		case 'files':
			return value.files.map(toFileValue)
		case 'formula': {
			const formula = value.formula
			switch (formula.type) {
				case 'string':
					return formula.string
				case 'number':
					return formula.number
				case 'boolean':
					return formula.boolean
				case 'date':
					return toDateValue(formula.date)
				default:
					return null
			}
		}
		case 'rollup': {
			const rollup = value.rollup
			switch (rollup.type) {
				case 'number':
					return rollup.number
				case 'date':
					return toDateValue(rollup.date)
				case 'array':
					return rollup.array.map(toValue)
				default:
					return null
			}
		}
		case 'unique_id':
			return { prefix: value.unique_id.prefix ?? null, number: value.unique_id.number ?? null }
		case 'created_by':
			return [value.created_by.id]
		case 'last_edited_by':
			return [value.last_edited_by.id]
		case 'created_time':
			return value.created_time
		case 'last_edited_time':
			return value.last_edited_time
		case 'place': {
			// We have no place value type: keep what a person would read.
			const place = value.place
			return place ? (place.name ?? place.address ?? `${place.lat}, ${place.lon}`) : null
		}
		case 'verification':
			return value.verification?.state ?? null
		default:
			return null
	}
}

function findPageProperty(page: PageObjectResponse, property: Property): NotionPageProperty | undefined {
	const values = Object.values(page.properties)
	// Ids survive renames; the name is a fallback for hand-written or older payloads.
	return values.find((value) => value.id === property.id) ?? page.properties[property.name]
}

/** The row's plain title text ('' when it has none). */
function pageTitle(page: PageObjectResponse): string {
	for (const value of Object.values(page.properties)) {
		if (value.type === 'title') {
			return plainText(value.title)
		}
	}
	return ''
}

/**
 * A page as our row: values keyed by property id. Properties the page does not carry (a
 * schema change not yet seen, or `filter_properties`) are left out rather than guessed.
 */
export function fromPage(page: PageObjectResponse, properties: Property[]): ExternalRow {
	const values: RowValues = {}
	for (const property of properties) {
		const value = findPageProperty(page, property)
		if (value) {
			values[property.id] = toValue(value)
		}
	}
	return {
		externalId: page.id,
		values,
		title: pageTitle(page),
		url: page.url ?? null,
		createdTime: page.created_time,
		lastEditedTime: page.last_edited_time,
	}
}

/**
 * Ids of the page's properties whose value Notion may have cut at 25 references: the full
 * value has to be read with `GET /v1/pages/:id/properties/:property_id`.
 *
 * Rollups too: a page object computes them from its first 25 relations and says nothing about
 * it (a sum over 30 related rows shows the sum of 25). The page does not say which relation a
 * rollup follows, so once any relation of the page was cut, every rollup of the page is re-read:
 * a few more calls, only on such pages, and never a wrong sum stored as if it were right.
 */
export function truncatedPropertyIds(page: PageObjectResponse): string[] {
	const ids: string[] = []
	const rollups: string[] = []
	let relationCut = false
	for (const value of Object.values(page.properties)) {
		// `has_more` is sent on relation values but is missing from the SDK's types.
		const hasMore = (value as { has_more?: boolean }).has_more === true
		switch (value.type) {
			case 'relation':
				if (hasMore || value.relation.length >= notionLimits.pageReferences) {
					ids.push(value.id)
					relationCut = true
				}
				break
			case 'rollup':
				rollups.push(value.id)
				break
			case 'people':
				if (hasMore || value.people.length >= notionLimits.pageReferences) {
					ids.push(value.id)
				}
				break
			case 'title':
			case 'rich_text': {
				// The cap counts mentions (page, user, date … references), not plain text runs.
				const items = value.type === 'title' ? value.title : value.rich_text
				const mentions = items.filter((item) => item.type === 'mention').length
				if (hasMore || mentions >= notionLimits.pageReferences) {
					ids.push(value.id)
				}
				break
			}
			default:
				break
		}
	}
	return relationCut ? [...ids, ...rollups] : ids
}

/** `property_item` of the last page of a property item list: where a rollup's value is. */
export type PropertyItemSummary = PropertyItemListResponse['property_item']

/** One element of a flattened "show original" rollup, as our value of that element. */
function fromRolledItem(item: PropertyItemObjectResponse): PropertyValue {
	switch (item.type) {
		case 'title':
			return textOrNull(item.title.plain_text)
		case 'rich_text':
			return textOrNull(item.rich_text.plain_text)
		case 'people':
			return [item.people.id]
		case 'relation':
			return [item.relation.id]
		case 'rollup':
			return null
		default:
			// The other items are shaped like page values.
			return toValue(item as unknown as NotionPageProperty)
	}
}

/**
 * A rollup read in full: the value in the last page's `property_item` (calculated rollups), or
 * the rolled-up values in `results` ("show original"). When Notion answers that its value is
 * `incomplete` or `unsupported`, the value is null: charts and reports then leave the row out
 * rather than use a partial figure, and the contract needs no "incomplete" marker for it.
 */
function fromRollupItems(items: ReadonlyArray<PropertyItemObjectResponse>, summary: PropertyItemSummary | undefined) {
	if (summary?.type !== 'rollup') {
		return null
	}
	const rollup = summary.rollup
	switch (rollup.type) {
		case 'number':
			return rollup.number
		case 'date':
			return toDateValue(rollup.date)
		case 'array':
			return items.map(fromRolledItem)
		default:
			return null
	}
}

/**
 * The full value of a property from the items of `GET /v1/pages/:id/properties/:property_id`
 * (all pages of a paginated list concatenated, or the single item of a simple property), and
 * `summary`, the `property_item` of the list's last page.
 */
export function fromPropertyItems(
	type: string,
	items: ReadonlyArray<PropertyItemObjectResponse>,
	summary?: PropertyItemSummary,
): PropertyValue {
	switch (type) {
		case 'rollup':
			return fromRollupItems(items, summary)
		case 'title':
		case 'rich_text': {
			const text = items
				.map((item) => {
					if (item.type === 'title') {
						return item.title.plain_text
					}
					return item.type === 'rich_text' ? item.rich_text.plain_text : ''
				})
				.join('')
			return textOrNull(text)
		}
		case 'people':
			return items.flatMap((item) => (item.type === 'people' ? [item.people.id] : []))
		case 'relation':
			return items.flatMap((item) => (item.type === 'relation' ? [item.relation.id] : []))
		default: {
			// Simple properties come back as one item shaped like the page value.
			const [item] = items
			return item ? toValue(item as unknown as NotionPageProperty) : null
		}
	}
}

// ---- the workspace ---------------------------------------------------------------------

/** `single_part` uploads take at most 20 MB whatever the plan; bigger files need multi-part uploads. */
const singlePartBytes = 20 * 1024 * 1024

/**
 * The largest file one upload to this workspace may carry: the workspace's own limit from
 * `users/me` (`bot.workspace_limits`: 5 MiB on Notion's free plan), and never more than a
 * single-part upload takes.
 */
export function maxUploadBytes(me: GetSelfResponse): number {
	const limit =
		me.type === 'bot' && 'workspace_limits' in me.bot
			? me.bot.workspace_limits.max_file_upload_size_in_bytes
			: undefined
	return typeof limit === 'number' && limit > 0 ? Math.min(limit, singlePartBytes) : singlePartBytes
}

export function formatMegabytes(bytes: number): string {
	const megabytes = bytes / (1024 * 1024)
	return `${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1)} MB`
}

// ---- values to Notion -------------------------------------------------------------------

function invalid(property: Property, message: string): ConnectorError {
	return new ConnectorError('invalid', `${property.name}: ${message}`, { property: property.name })
}

/**
 * Splits text into chunks Notion accepts (≤ 2000 UTF-16 units each), never between the two
 * halves of a surrogate pair, so emoji survive the split.
 */
export function splitText(text: string, size: number = notionLimits.richTextItemChars): string[] {
	const chunks: string[] = []
	let start = 0
	while (start < text.length) {
		let end = Math.min(start + size, text.length)
		const last = text.charCodeAt(end - 1)
		if (end < text.length && last >= 0xd800 && last <= 0xdbff) {
			end -= 1
		}
		chunks.push(text.slice(start, end))
		start = end
	}
	return chunks
}

function richText(property: Property, value: PropertyValue): Array<{ type: 'text'; text: { content: string } }> {
	if (value === null || value === '') {
		return []
	}
	if (typeof value !== 'string') {
		throw invalid(property, 'expected text')
	}
	const chunks = splitText(value)
	if (chunks.length > notionLimits.richTextItems) {
		throw invalid(property, `text is too long for Notion (at most ${notionLimits.richTextItems * 2000} characters)`)
	}
	return chunks.map((content) => ({ type: 'text', text: { content } }))
}

function optionalString(property: Property, value: PropertyValue, max: number): string | null {
	if (value === null || value === '') {
		return null
	}
	if (typeof value !== 'string') {
		throw invalid(property, 'expected text')
	}
	if (value.length > max) {
		throw invalid(property, `at most ${max} characters`)
	}
	return value
}

function stringList(property: Property, value: PropertyValue, max: number, what: string): string[] {
	if (value === null) {
		return []
	}
	if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
		throw invalid(property, 'expected a list')
	}
	const list = value as string[]
	if (list.length > max) {
		throw invalid(property, `Notion accepts at most ${max} ${what}`)
	}
	return list
}

function optionName(property: Property, name: string): string {
	// Notion refuses option names with commas (they separate options in its own UI).
	if (name.includes(',')) {
		throw invalid(property, `option names cannot contain commas ("${name}")`)
	}
	return name
}

function isDateValue(value: PropertyValue): value is DateValue {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && 'start' in value
}

function isFileList(value: PropertyValue): value is FileValue[] {
	return (
		Array.isArray(value) &&
		value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item) && 'name' in item)
	)
}

function toRequest(
	property: Property,
	value: PropertyValue,
	fileUploadIds: Map<string, string>,
): NotionPropertyRequest {
	switch (property.type) {
		case 'title':
			return { title: richText(property, value) }
		case 'rich_text':
			return { rich_text: richText(property, value) }
		case 'number':
			if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
				throw invalid(property, 'expected a finite number')
			}
			return { number: value }
		case 'checkbox':
			if (value !== null && typeof value !== 'boolean') {
				throw invalid(property, 'expected true or false')
			}
			return { checkbox: value === true }
		case 'url':
			return { url: optionalString(property, value, notionLimits.urlChars) }
		case 'email':
			return { email: optionalString(property, value, notionLimits.emailChars) }
		case 'phone_number':
			return { phone_number: optionalString(property, value, notionLimits.phoneChars) }
		case 'select': {
			const name = optionalString(property, value, 100)
			return { select: name === null ? null : { name: optionName(property, name) } }
		}
		case 'status': {
			const name = optionalString(property, value, 100)
			return { status: name === null ? null : { name } }
		}
		case 'multi_select': {
			const names = stringList(property, value, notionLimits.multiSelectOptions, 'options')
			return { multi_select: names.map((name) => ({ name: optionName(property, name) })) }
		}
		case 'people':
			return { people: stringList(property, value, notionLimits.people, 'people').map((id) => ({ id })) }
		case 'relation':
			return { relation: stringList(property, value, notionLimits.relations, 'related rows').map((id) => ({ id })) }
		case 'date':
			if (value === null) {
				return { date: null }
			}
			if (!isDateValue(value)) {
				throw invalid(property, 'expected a date')
			}
			return { date: { start: value.start, end: value.end ?? null, time_zone: value.timeZone ?? null } }
		case 'files': {
			if (value === null) {
				return { files: [] }
			}
			if (!isFileList(value)) {
				throw invalid(property, 'expected a list of files')
			}
			return {
				files: value.map((file) => {
					const name = file.name.slice(0, 100)
					if (file.blobId) {
						const uploadId = fileUploadIds.get(file.blobId)
						if (!uploadId) {
							throw invalid(property, `the file "${file.name}" was not uploaded to Notion`)
						}
						return { name, type: 'file_upload' as const, file_upload: { id: uploadId } }
					}
					if (!file.url) {
						throw invalid(property, `the file "${file.name}" has neither a URL nor an upload`)
					}
					if (file.expiresAt) {
						// A file Notion hosts stays Notion's: sent back as an external link, it would break
						// when its URL expires. The connector makes sure the URL is a current one.
						return { name, type: 'file' as const, file: { url: file.url } }
					}
					if (file.url.length > notionLimits.urlChars) {
						throw invalid(property, `file URLs can be at most ${notionLimits.urlChars} characters`)
					}
					return { name, external: { url: file.url } }
				}),
			}
		}
		default:
			throw invalid(property, `${property.type} values are computed by Notion and cannot be written`)
	}
}

/**
 * The `properties` body of `pages.create` / `pages.update`, keyed by property name. Values were
 * validated against our model already; this guards what only Notion limits (text size, list
 * lengths, URL length) and refuses read-only types. `fileUploadIds` maps our blob ids to the
 * Notion file uploads made for them.
 */
export function toPageProperties(
	values: RowValues,
	properties: Property[],
	fileUploadIds: Map<string, string> = new Map(),
): NotionPageProperties {
	const byId = new Map(properties.map((property) => [property.id, property]))
	const body: NotionPageProperties = {}
	for (const [id, value] of Object.entries(values)) {
		const property = byId.get(id)
		if (!property) {
			throw new ConnectorError('invalid', `Unknown property ${id}`, { property: id })
		}
		if (!isWritableType(property.type)) {
			throw invalid(property, `${property.type} values are computed by Notion and cannot be written`)
		}
		body[property.name] = toRequest(property, value, fileUploadIds)
	}
	return body
}

/** Blob ids referenced by `files` values: what must be uploaded to Notion before the write. */
export function blobIdsOf(values: RowValues, properties: Property[]): string[] {
	const ids: string[] = []
	for (const property of properties) {
		const value = values[property.id]
		if (property.type === 'files' && value !== undefined && isFileList(value)) {
			for (const file of value) {
				if (file.blobId) {
					ids.push(file.blobId)
				}
			}
		}
	}
	return ids
}

// ---- comparing -------------------------------------------------------------------------

function normaliseText(value: unknown): string {
	return typeof value === 'string' ? value.trim() : ''
}

function normaliseId(id: string): string {
	return id.replaceAll('-', '').toLowerCase()
}

function normaliseInstant(value: string | null | undefined): string | null {
	if (!value) {
		return null
	}
	// Date-only values compare as written; date-times by instant (Notion rewrites offsets).
	if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
		return value
	}
	const time = Date.parse(value)
	return Number.isNaN(time) ? value : new Date(time).toISOString()
}

function sameSet(a: string[], b: string[]): boolean {
	const left = new Set(a)
	const right = new Set(b)
	return left.size === right.size && [...left].every((item) => right.has(item))
}

function asStrings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function sameValue(type: PropertyType, actual: unknown, expected: unknown): boolean {
	switch (type) {
		case 'title':
		case 'rich_text':
		case 'url':
		case 'email':
		case 'phone_number':
		case 'select':
		case 'status':
			return normaliseText(actual) === normaliseText(expected)
		case 'number':
			return (actual ?? null) === (expected ?? null)
		case 'checkbox':
			return (actual === true) === (expected === true)
		case 'multi_select':
			return sameSet(
				asStrings(actual).map((name) => name.trim()),
				asStrings(expected).map((name) => name.trim()),
			)
		case 'people':
		case 'relation':
			return sameSet(asStrings(actual).map(normaliseId), asStrings(expected).map(normaliseId))
		case 'date': {
			const left = (actual ?? null) as DateValue | null
			const right = (expected ?? null) as DateValue | null
			if (!left || !right) {
				return !left && !right
			}
			return (
				normaliseInstant(left.start) === normaliseInstant(right.start) &&
				normaliseInstant(left.end) === normaliseInstant(right.end)
			)
		}
		case 'files': {
			// Uploaded files come back under a Notion URL, so names are what can be compared.
			const names = (value: unknown) => (Array.isArray(value) ? value.map((file: FileValue) => file.name).sort() : [])
			const left = names(actual)
			const right = names(expected)
			return left.length === right.length && left.every((name, index) => name === right[index])
		}
		default:
			// Computed values are never part of a write.
			return true
	}
}

/**
 * True when the row holds exactly `values` on each given property (text trimmed, lists as
 * sets, dates by start/end): how a create whose response was lost is recognised.
 */
export function valuesMatch(row: ExternalRow, values: RowValues, properties: Property[]): boolean {
	const byId = new Map(properties.map((property) => [property.id, property]))
	return Object.entries(values).every(([id, expected]) => {
		const property = byId.get(id)
		return property ? sameValue(property.type, row.values[id], expected) : false
	})
}
