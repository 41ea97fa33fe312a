import { randomUUID } from 'node:crypto'
import { validationError } from './errors.ts'
import { isRecord, type JsonObject, plainText } from './rich-text.ts'
import type { FakeDataSource, FakeNotionStore, FakePage, SchemaProperty } from './store.ts'
import { numberOf, refIds } from './store.ts'

type Predicate = (page: FakePage) => boolean
type Comparator = (a: FakePage, b: FakePage) => number

const DAY = 86_400_000
const TEXT_TYPES = new Set(['title', 'rich_text', 'url', 'email', 'phone_number'])
const FILTER_TYPES = [
	'title',
	'rich_text',
	'url',
	'email',
	'phone_number',
	'number',
	'checkbox',
	'select',
	'multi_select',
	'status',
	'date',
	'people',
	'files',
	'relation',
	'created_by',
	'created_time',
	'last_edited_by',
	'last_edited_time',
	'formula',
	'unique_id',
	'rollup',
]

function dateOnly(ms: number): string {
	return new Date(ms).toISOString().slice(0, 10)
}

function resolveRelativeDate(value: unknown, now: number, path: string): string {
	if (typeof value !== 'string') {
		throw validationError(
			`body failed validation: ${path} should be a string, instead was \`${JSON.stringify(value)}\`.`,
		)
	}
	switch (value) {
		case 'today':
			return dateOnly(now)
		case 'tomorrow':
			return dateOnly(now + DAY)
		case 'yesterday':
			return dateOnly(now - DAY)
		case 'one_week_ago':
			return dateOnly(now - 7 * DAY)
		case 'one_week_from_now':
			return dateOnly(now + 7 * DAY)
		case 'one_month_ago':
			return dateOnly(now - 30 * DAY)
		case 'one_month_from_now':
			return dateOnly(now + 30 * DAY)
	}
	if (Number.isNaN(Date.parse(value))) {
		throw validationError(
			`body failed validation: ${path} should be a valid ISO 8601 date string, instead was \`"${value}"\`.`,
		)
	}
	return value
}

/**
 * Orders a stored date against a filter date. A date-only filter value compares whole (UTC) days, as in
 * Notion's UI; a date-time compares instants.
 */
function compareDate(value: string, target: string): number {
	if (target.length === 10) {
		const day = value.length === 10 ? value : dateOnly(Date.parse(value))
		return day < target ? -1 : day > target ? 1 : 0
	}
	return Math.sign(Date.parse(value) - Date.parse(target))
}

function single(condition: unknown, path: string): [string, unknown] {
	if (!isRecord(condition)) {
		throw validationError(`body failed validation: ${path} should be an object.`)
	}
	const entries = Object.entries(condition)
	const first = entries[0]
	if (entries.length !== 1 || !first) {
		throw validationError(`body failed validation: ${path} should have exactly one condition.`)
	}
	return first
}

function unknownCondition(path: string, operator: string): never {
	throw validationError(`body failed validation: ${path}.${operator} is not a supported condition.`)
}

function dateCondition(condition: unknown, path: string, now: number): (value: string | null) => boolean {
	const [operator, operand] = single(condition, path)
	const within = (from: number, to: number) => (value: string | null) => {
		if (value === null) {
			return false
		}
		const ms = Date.parse(value)
		return ms >= from && ms <= to
	}
	switch (operator) {
		case 'is_empty':
			return (value) => value === null
		case 'is_not_empty':
			return (value) => value !== null
		case 'past_week':
			return within(now - 7 * DAY, now)
		case 'past_month':
			return within(now - 30 * DAY, now)
		case 'past_year':
			return within(now - 365 * DAY, now)
		case 'next_week':
			return within(now, now + 7 * DAY)
		case 'next_month':
			return within(now, now + 30 * DAY)
		case 'next_year':
			return within(now, now + 365 * DAY)
		case 'this_week': {
			const day = new Date(now).getUTCDay()
			const start = Date.parse(dateOnly(now - day * DAY))
			return within(start, start + 7 * DAY - 1)
		}
	}
	const target = resolveRelativeDate(operand, now, `${path}.${operator}`)
	const test = (check: (order: number) => boolean) => (value: string | null) =>
		value !== null && check(compareDate(value, target))
	switch (operator) {
		case 'equals':
			return test((order) => order === 0)
		case 'before':
			return test((order) => order < 0)
		case 'after':
			return test((order) => order > 0)
		case 'on_or_before':
			return test((order) => order <= 0)
		case 'on_or_after':
			return test((order) => order >= 0)
	}
	return unknownCondition(path, operator)
}

function textCondition(condition: unknown, path: string): (value: string) => boolean {
	const [operator, operand] = single(condition, path)
	if (operator === 'is_empty') {
		return (value) => value === ''
	}
	if (operator === 'is_not_empty') {
		return (value) => value !== ''
	}
	if (typeof operand !== 'string') {
		throw validationError(`body failed validation: ${path}.${operator} should be a string.`)
	}
	const needle = operand.toLowerCase()
	switch (operator) {
		case 'equals':
			return (value) => value === operand
		case 'does_not_equal':
			return (value) => value !== operand
		case 'contains':
			return (value) => value.toLowerCase().includes(needle)
		case 'does_not_contain':
			return (value) => !value.toLowerCase().includes(needle)
		case 'starts_with':
			return (value) => value.toLowerCase().startsWith(needle)
		case 'ends_with':
			return (value) => value.toLowerCase().endsWith(needle)
	}
	return unknownCondition(path, operator)
}

function numberCondition(condition: unknown, path: string): (value: number | null) => boolean {
	const [operator, operand] = single(condition, path)
	if (operator === 'is_empty') {
		return (value) => value === null
	}
	if (operator === 'is_not_empty') {
		return (value) => value !== null
	}
	if (typeof operand !== 'number') {
		throw validationError(`body failed validation: ${path}.${operator} should be a number.`)
	}
	const test = (check: (value: number) => boolean) => (value: number | null) => value !== null && check(value)
	switch (operator) {
		case 'equals':
			return test((value) => value === operand)
		case 'does_not_equal':
			return (value) => value !== operand
		case 'greater_than':
			return test((value) => value > operand)
		case 'less_than':
			return test((value) => value < operand)
		case 'greater_than_or_equal_to':
			return test((value) => value >= operand)
		case 'less_than_or_equal_to':
			return test((value) => value <= operand)
	}
	return unknownCondition(path, operator)
}

/** For select, status, multi_select, people and relation: the value is the list of names or ids it holds. */
function listCondition(condition: unknown, path: string, me: string): (values: string[]) => boolean {
	const [operator, operand] = single(condition, path)
	if (operator === 'is_empty') {
		return (values) => values.length === 0
	}
	if (operator === 'is_not_empty') {
		return (values) => values.length > 0
	}
	const wanted = (Array.isArray(operand) ? operand : [operand]).map((item) => (item === 'me' ? me : item))
	if (!wanted.every((item) => typeof item === 'string')) {
		throw validationError(`body failed validation: ${path}.${operator} should be a string or an array of strings.`)
	}
	const any = (values: string[]) => wanted.some((item) => values.includes(item as string))
	switch (operator) {
		case 'equals':
		case 'contains':
			return any
		case 'does_not_equal':
		case 'does_not_contain':
			return (values) => !any(values)
	}
	return unknownCondition(path, operator)
}

function compatible(propertyType: string, filterType: string): boolean {
	if (propertyType === filterType) {
		return true
	}
	if (TEXT_TYPES.has(propertyType) && TEXT_TYPES.has(filterType)) {
		return true
	}
	if ((propertyType === 'created_time' || propertyType === 'last_edited_time') && filterType === 'date') {
		return true
	}
	if ((propertyType === 'created_by' || propertyType === 'last_edited_by') && filterType === 'people') {
		return true
	}
	return propertyType === 'unique_id' && filterType === 'number'
}

type Context = { store: FakeNotionStore; dataSource: FakeDataSource; now: number }

function propertyPredicate(filter: JsonObject, path: string, context: Context): Predicate {
	const { store, dataSource, now } = context
	const name = String(filter.property)
	const property = store.findProperty(dataSource, name)
	if (!property) {
		throw validationError(`Could not find property with name or id: ${name}`)
	}
	const filterType = typeof filter.type === 'string' ? filter.type : FILTER_TYPES.find((type) => type in filter)
	if (!filterType || !(filterType in filter)) {
		throw validationError(`body failed validation: ${path} should define a ${property.type} condition.`)
	}
	if (!compatible(property.type, filterType)) {
		throw validationError(
			`body failed validation: ${path}.${filterType} does not match the type of property ${property.name} (${property.type}).`,
		)
	}
	const condition = filter[filterType]
	const conditionPath = `${path}.${filterType}`
	const read = (page: FakePage) => store.propertyValue(page, property, 0)
	return valuePredicate(property, filterType, condition, conditionPath, read, context, now)
}

function valuePredicate(
	property: SchemaProperty,
	filterType: string,
	condition: unknown,
	path: string,
	read: (page: FakePage) => unknown,
	context: Context,
	now: number,
): Predicate {
	const me = context.store.options.botId
	switch (filterType) {
		case 'title':
		case 'rich_text':
		case 'url':
		case 'email':
		case 'phone_number': {
			const test = textCondition(condition, path)
			return (page) => {
				const value = read(page)
				return test(Array.isArray(value) ? plainText(value) : typeof value === 'string' ? value : '')
			}
		}
		case 'number':
		case 'unique_id': {
			const test = numberCondition(condition, path)
			return (page) => test(numberOf(read(page)))
		}
		case 'checkbox': {
			const [operator, operand] = single(condition, path)
			if (operator !== 'equals' && operator !== 'does_not_equal') {
				return unknownCondition(path, operator)
			}
			return (page) => (read(page) === operand) === (operator === 'equals')
		}
		case 'select':
		case 'status': {
			const test = listCondition(condition, path, me)
			return (page) => {
				const value = read(page)
				return test(isRecord(value) ? [String(value.name)] : [])
			}
		}
		case 'multi_select': {
			const test = listCondition(condition, path, me)
			return (page) => {
				const value = read(page)
				return test(Array.isArray(value) ? value.filter(isRecord).map((option) => String(option.name)) : [])
			}
		}
		case 'people':
		case 'created_by':
		case 'last_edited_by':
		case 'relation': {
			const test = listCondition(condition, path, me)
			return (page) => {
				const value = read(page)
				return test(isRecord(value) ? [String(value.id)] : refIds(value))
			}
		}
		case 'files': {
			const test = listCondition(condition, path, me)
			return (page) => {
				const value = read(page)
				return test(Array.isArray(value) ? value.map((_, index) => String(index)) : [])
			}
		}
		case 'date':
		case 'created_time':
		case 'last_edited_time': {
			const test = dateCondition(condition, path, now)
			return (page) => {
				const value = read(page)
				return test(typeof value === 'string' ? value : isRecord(value) ? String(value.start) : null)
			}
		}
		case 'formula':
		case 'rollup': {
			const [kind, inner] = single(condition, path)
			const innerType = kind === 'string' ? 'rich_text' : kind
			const innerRead = (page: FakePage) => {
				const value = read(page)
				if (!isRecord(value)) {
					return null
				}
				return value[kind] ?? null
			}
			if (!['rich_text', 'number', 'checkbox', 'date'].includes(innerType)) {
				return unknownCondition(path, kind)
			}
			const innerForRead =
				innerType === 'checkbox'
					? (page: FakePage) => {
							const value = read(page)
							return isRecord(value) ? value.boolean : null
						}
					: innerRead
			return valuePredicate(property, innerType, inner, `${path}.${kind}`, innerForRead, context, now)
		}
	}
	return unknownCondition(path, filterType)
}

/** Validates a query filter once and returns a fast row predicate. */
export function compileFilter(filter: unknown, context: Context, path = 'body.filter'): Predicate {
	if (filter === undefined || filter === null) {
		return () => true
	}
	if (!isRecord(filter)) {
		throw validationError(`body failed validation: ${path} should be an object.`)
	}
	if (Array.isArray(filter.and) || Array.isArray(filter.or)) {
		const isAnd = Array.isArray(filter.and)
		const list = (isAnd ? filter.and : filter.or) as unknown[]
		const parts = list.map((part, index) => compileFilter(part, context, `${path}.${isAnd ? 'and' : 'or'}[${index}]`))
		return isAnd ? (page) => parts.every((part) => part(page)) : (page) => parts.some((part) => part(page))
	}
	if (filter.timestamp === 'created_time' || filter.timestamp === 'last_edited_time') {
		const key = filter.timestamp
		const test = dateCondition(filter[key], `${path}.${key}`, context.now)
		return key === 'created_time'
			? (page) => test(new Date(page.createdTime).toISOString())
			: (page) => test(new Date(page.lastEditedTime).toISOString())
	}
	if (typeof filter.property === 'string') {
		return propertyPredicate(filter, path, context)
	}
	throw validationError(
		`body failed validation: ${path} should be a property filter, a timestamp filter, or a compound \`and\`/\`or\` filter.`,
	)
}

function sortKey(value: unknown, property: SchemaProperty): string | number | null {
	if (value === null || value === undefined) {
		return null
	}
	if (typeof value === 'number') {
		return value
	}
	if (typeof value === 'boolean') {
		return value ? 1 : 0
	}
	if (typeof value === 'string') {
		return property.type.endsWith('_time') ? Date.parse(value) : value.toLowerCase()
	}
	if (Array.isArray(value)) {
		if (value.length === 0) {
			return null
		}
		const first = value[0]
		if (isRecord(first) && 'plain_text' in first) {
			return plainText(value).toLowerCase() || null
		}
		return isRecord(first) && typeof first.name === 'string' ? first.name.toLowerCase() : value.length
	}
	if (isRecord(value)) {
		if (property.type === 'select' || property.type === 'status') {
			const options = Array.isArray(property.config.options) ? property.config.options : []
			return options.findIndex((option) => isRecord(option) && option.id === value.id)
		}
		if (typeof value.start === 'string') {
			return Date.parse(value.start)
		}
		const number = numberOf(value)
		if (number !== null) {
			return number
		}
		for (const key of ['string', 'date', 'boolean']) {
			if (key in value) {
				return sortKey(value[key], property)
			}
		}
	}
	return null
}

/**
 * Compiles `sorts` into one comparator. Without sorts the order is `created_time` descending.
 * Ties (and empty values, which always sort last) fall back to insertion order, so paging is stable.
 */
export function compileSorts(sorts: unknown, context: Context): Comparator {
	const list = sorts === undefined || sorts === null ? [] : sorts
	if (!Array.isArray(list)) {
		throw validationError('body failed validation: body.sorts should be an array.')
	}
	if (list.length === 0) {
		return (a, b) => b.createdTime - a.createdTime || b.seq - a.seq
	}
	const comparators: Comparator[] = list.map((sort, index) => {
		const path = `body.sorts[${index}]`
		if (!isRecord(sort) || (sort.direction !== 'ascending' && sort.direction !== 'descending')) {
			throw validationError(`body failed validation: ${path}.direction should be \`"ascending"\` or \`"descending"\`.`)
		}
		const sign = sort.direction === 'ascending' ? 1 : -1
		if (sort.timestamp === 'created_time') {
			return (a, b) => sign * (a.createdTime - b.createdTime)
		}
		if (sort.timestamp === 'last_edited_time') {
			return (a, b) => sign * (a.lastEditedTime - b.lastEditedTime)
		}
		if (typeof sort.property !== 'string') {
			throw validationError(`body failed validation: ${path} should have a \`property\` or \`timestamp\`.`)
		}
		const property = context.store.findProperty(context.dataSource, sort.property)
		if (!property) {
			throw validationError(`Could not find sort property with name or id: ${sort.property}`)
		}
		const keys = new Map<FakePage, string | number | null>()
		const key = (page: FakePage) => {
			if (!keys.has(page)) {
				keys.set(page, sortKey(context.store.propertyValue(page, property, 0), property))
			}
			return keys.get(page) ?? null
		}
		return (a, b) => {
			const left = key(a)
			const right = key(b)
			if (left === right) {
				return 0
			}
			if (left === null) {
				return 1
			}
			if (right === null) {
				return -1
			}
			if (typeof left === 'number' && typeof right === 'number') {
				return sign * (left - right)
			}
			return sign * String(left).localeCompare(String(right))
		}
	})
	return (a, b) => {
		for (const comparator of comparators) {
			const order = comparator(a, b)
			if (order !== 0) {
				return order
			}
		}
		return a.seq - b.seq
	}
}

type Snapshot = { ids: string[]; truncated: boolean; scope: string }
type CursorEntry = { snapshot: Snapshot; offset: number }

/**
 * `incomplete`: the query matched more than the result cap. Notion says so on every page of such a query, from
 * the first (developers.notion.com/guides/data-apis/query-large-data-sources), not only on the last.
 */
export type PageSlice = { ids: string[]; nextCursor: string | null; hasMore: boolean; incomplete: boolean }

/**
 * Cursors point into a snapshot of the matching ids taken by the first request, so a walk through a large
 * result costs one filter+sort instead of one per page (and the result cap is counted per query, as in Notion).
 */
export class CursorBook {
	private entries = new Map<string, CursorEntry>()
	private maxEntries = 5000

	parsePageSize(value: unknown, path: string): number {
		if (value === undefined || value === null) {
			return 100
		}
		if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
			throw validationError(
				`body failed validation: ${path} should be a positive integer, instead was \`${JSON.stringify(value)}\`.`,
			)
		}
		if (value > 100) {
			throw validationError(`body failed validation: ${path} should be ≤ \`100\`, instead was \`${value}\`.`)
		}
		return value
	}

	/** Serves one page: from `startCursor`'s snapshot, or from a fresh snapshot built by `build`. */
	page(
		scope: string,
		startCursor: unknown,
		pageSize: number,
		build: () => { ids: string[]; truncated: boolean },
	): PageSlice {
		let entry: CursorEntry
		if (typeof startCursor === 'string' && startCursor !== '') {
			const found = this.entries.get(startCursor)
			if (!found || found.snapshot.scope !== scope) {
				throw validationError(`start_cursor provided is invalid: ${startCursor}`)
			}
			entry = found
		} else {
			entry = { snapshot: { ...build(), scope }, offset: 0 }
		}
		const { snapshot, offset } = entry
		const end = offset + pageSize
		const ids = snapshot.ids.slice(offset, end)
		const hasMore = end < snapshot.ids.length
		let nextCursor: string | null = null
		if (hasMore) {
			nextCursor = randomUUID()
			this.entries.set(nextCursor, { snapshot, offset: end })
			if (this.entries.size > this.maxEntries) {
				const oldest = this.entries.keys().next().value
				if (oldest !== undefined) {
					this.entries.delete(oldest)
				}
			}
		}
		return { ids, nextCursor, hasMore, incomplete: snapshot.truncated }
	}
}
