import {
	type DateValue,
	maxRowsPerBatch,
	type OptionColor,
	optionColors,
	type Property,
	type PropertyInput,
	type PropertyValue,
	type RowValues,
	type WritablePropertyType,
} from '@blocksmith/contracts/workspaces.ts'
import Papa from 'papaparse'

// CSV import, without the screen: parse a file's text, guess each column's property type,
// build the database's properties from the user's plan, and turn the strings into typed values.

/** The types a CSV column can become: the ones whose values can be read from plain text. */
export const importableTypes = [
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
] as const satisfies readonly WritablePropertyType[]
export type ImportableType = (typeof importableTypes)[number]

export type ParsedCsv = { headers: string[]; rows: string[][] }

/** One column of the file and what it becomes; `type: null` leaves it out. */
export type ColumnPlan = {
	index: number
	header: string
	name: string
	type: ImportableType | null
	inferredType: ImportableType
}

const maxChoices = 20
const maxOptions = 500

/** Parses CSV text with a header row; a column without a header is called "Column N". */
export function parseCsv(text: string): ParsedCsv {
	const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { header: false, skipEmptyLines: 'greedy' })
	const [first = [], ...rest] = result.data
	const width = Math.max(first.length, ...rest.slice(0, 1000).map((row) => row.length))
	const headers = Array.from({ length: width }, (_, index) => first[index]?.trim() || `Column ${index + 1}`)
	return { headers, rows: rest }
}

// ---- reading single values ----------------------------------------------------------------

const numberPattern = /^[-+]?(?:\d+|\d{1,3}(?:,\d{3})+)?(?:\.\d+)?(?:[eE][-+]?\d+)?$/
const currencyPrefix = /^[-+]?[$€£¥₹]\s?/

/** "1,234.5", "-3", "$12.50", ".5", "1e3" → numbers; anything else → null. */
export function parseNumber(raw: string): number | null {
	let text = raw.trim()
	if (!text) {
		return null
	}
	const isNegative = text.startsWith('-')
	text = text.replace(currencyPrefix, isNegative ? '-' : '')
	if (!numberPattern.test(text) || !/\d/.test(text)) {
		return null
	}
	const value = Number(text.replaceAll(',', ''))
	return Number.isFinite(value) ? value : null
}

const trueWords = new Set(['true', 'yes', 'y', 'checked', 'x', '1'])
const booleanWords = new Set(['true', 'false', 'yes', 'no'])

function isBooleanWord(raw: string): boolean {
	return booleanWords.has(raw.trim().toLowerCase())
}

const datePattern =
	/^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s?(Z|[+-]\d{2}:?\d{2})?)?$/

function pad(value: string | number): string {
	return String(value).padStart(2, '0')
}

/** One ISO-ish date or date-time → `YYYY-MM-DD` or an ISO date-time with offset; else null. */
function parseDatePart(raw: string): string | null {
	const match = datePattern.exec(raw.trim())
	if (!match) {
		return null
	}
	const [, year, month, day, hour, minute, second, zone] = match
	const monthNumber = Number(month)
	const dayNumber = Number(day)
	if (monthNumber < 1 || monthNumber > 12 || dayNumber < 1 || dayNumber > 31) {
		return null
	}
	const date = `${year}-${pad(monthNumber)}-${pad(dayNumber)}`
	if (hour === undefined || minute === undefined) {
		return date
	}
	const time = `${pad(hour)}:${minute}:${second ?? '00'}`
	if (zone) {
		const offset = zone === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`
		return `${date}T${time}${offset === '+00:00' ? 'Z' : offset}`
	}
	// A time without a zone is the importer's own local time.
	const local = new Date(`${date}T${time}`)
	return Number.isNaN(local.getTime()) ? null : local.toISOString().replace('.000Z', 'Z')
}

/** "2024-05-01", "2024/5/1 14:30", and ranges written "start → end" (as our export writes them). */
export function parseDate(raw: string): DateValue | null {
	const [startText, endText, ...extra] = raw.split(/\s+(?:→|->)\s+/)
	if (startText === undefined || extra.length > 0) {
		return null
	}
	const start = parseDatePart(startText)
	if (!start) {
		return null
	}
	if (endText === undefined) {
		return { start, end: null, timeZone: null }
	}
	const end = parseDatePart(endText)
	return end ? { start, end, timeZone: null } : null
}

const emailPattern = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/
const urlPattern = /^(?:https?:\/\/|www\.)[^\s]+$/i

function splitList(raw: string): string[] {
	return [
		...new Set(
			raw
				.split(',')
				.map((part) => part.trim())
				.filter(Boolean),
		),
	]
}

// ---- inference ----------------------------------------------------------------------------

/** A column's type from its values, before the title is chosen (so text is `rich_text`). */
export function inferType(values: readonly string[]): Exclude<ImportableType, 'title'> {
	const filled = values.map((value) => value.trim()).filter(Boolean)
	if (filled.length === 0) {
		return 'rich_text'
	}
	if (filled.every(isBooleanWord)) {
		return 'checkbox'
	}
	if (filled.every((value) => parseNumber(value) !== null)) {
		return 'number'
	}
	if (filled.every((value) => parseDate(value) !== null)) {
		return 'date'
	}
	if (filled.every((value) => emailPattern.test(value))) {
		return 'email'
	}
	if (filled.every((value) => urlPattern.test(value))) {
		return 'url'
	}
	if (filled.some((value) => value.includes(','))) {
		const lists = filled.map(splitList)
		const tokens = lists.flat()
		const distinct = new Set(tokens)
		if (
			distinct.size <= maxChoices &&
			tokens.length > distinct.size &&
			[...distinct].every((token) => token.length <= 100)
		) {
			return 'multi_select'
		}
		return 'rich_text'
	}
	const distinct = new Set(filled)
	if (
		distinct.size <= maxChoices &&
		filled.length > distinct.size &&
		[...distinct].every((value) => value.length <= 100)
	) {
		return 'select'
	}
	return 'rich_text'
}

/** Every column's inferred type; the first text column is the title (or the first column, when none is text). */
export function inferColumns(csv: ParsedCsv): ColumnPlan[] {
	const columns = csv.headers.map((header, index): ColumnPlan => {
		const inferredType = inferType(csv.rows.map((row) => row[index] ?? ''))
		return { index, header, name: header, type: inferredType, inferredType }
	})
	const titleColumn = columns.find((column) => column.type === 'rich_text') ?? columns[0]
	if (titleColumn) {
		titleColumn.type = 'title'
		titleColumn.inferredType = 'title'
	}
	return uniqueNames(columns)
}

/** Makes column names unique ("Name", "Name 2"), as property names must be. */
function uniqueNames(columns: ColumnPlan[]): ColumnPlan[] {
	const seen = new Set<string>()
	return columns.map((column) => {
		let name = column.name.trim().slice(0, 200) || `Column ${column.index + 1}`
		for (let counter = 2; seen.has(name.toLowerCase()); counter++) {
			name = `${column.name.trim().slice(0, 190)} ${counter}`
		}
		seen.add(name.toLowerCase())
		return { ...column, name }
	})
}

/** Marks one column as the title; the previous title goes back to its inferred type (text when that was title). */
export function setTitleColumn(columns: readonly ColumnPlan[], index: number): ColumnPlan[] {
	return columns.map((column) => {
		if (column.index === index) {
			return { ...column, type: 'title' }
		}
		if (column.type === 'title') {
			return { ...column, type: column.inferredType === 'title' ? 'rich_text' : column.inferredType }
		}
		return column
	})
}

/** What stops the import: exactly one title, names present and unique. Empty when it can go. */
export function planProblems(columns: readonly ColumnPlan[]): string[] {
	const included = columns.filter((column) => column.type !== null)
	const problems: string[] = []
	const titles = included.filter((column) => column.type === 'title').length
	if (titles !== 1) {
		problems.push(titles === 0 ? 'Mark one column as the title.' : 'Only one column can be the title.')
	}
	if (included.some((column) => !column.name.trim())) {
		problems.push('Every imported column needs a name.')
	}
	const names = included.map((column) => column.name.trim().toLowerCase())
	if (new Set(names).size !== names.length) {
		problems.push('Column names must be different.')
	}
	return problems
}

// ---- properties and values ----------------------------------------------------------------

const choiceColors = optionColors.filter((color) => color !== 'default')

function colorAt(index: number): OptionColor {
	return choiceColors[index % choiceColors.length] ?? 'default'
}

/** The option names a column's values use, in order of first appearance. */
function collectOptions(values: readonly string[], type: 'select' | 'multi_select' | 'status'): string[] {
	const names = new Set<string>()
	for (const value of values) {
		for (const name of type === 'multi_select' ? splitList(value) : [value.trim()]) {
			if (name) {
				names.add(name.slice(0, 100))
			}
		}
	}
	return [...names].slice(0, maxOptions)
}

/** The new database's properties, in the order of the included columns. */
export function buildProperties(columns: readonly ColumnPlan[], rows: readonly string[][]): PropertyInput[] {
	return columns.flatMap((column): PropertyInput[] => {
		const { type } = column
		if (type === null) {
			return []
		}
		const property: PropertyInput = { name: column.name.trim(), type }
		if (type === 'select' || type === 'multi_select' || type === 'status') {
			const values = rows.map((row) => row[column.index] ?? '')
			property.options = collectOptions(values, type).map((name, index) => ({ name, color: colorAt(index) }))
		}
		if (type === 'number') {
			property.format = 'number'
		}
		return [property]
	})
}

/** One cell's text as the value of a property of `type`. */
export function convertValue(raw: string, type: ImportableType): PropertyValue {
	const text = raw.trim()
	switch (type) {
		case 'number':
			return parseNumber(text)
		case 'checkbox':
			return trueWords.has(text.toLowerCase())
		case 'date':
			return text ? parseDate(text) : null
		case 'multi_select':
			return splitList(text).map((name) => name.slice(0, 100))
		case 'select':
		case 'status':
			return text ? text.slice(0, 100) : null
		default:
			return text || null
	}
}

/**
 * The rows' values keyed by the created database's property ids. The properties were sent in the
 * order of the included columns; each is found by that position, or by name.
 */
export function convertRows(
	columns: readonly ColumnPlan[],
	rows: readonly string[][],
	properties: readonly Property[],
): RowValues[] {
	const included = columns.filter((column): column is ColumnPlan & { type: ImportableType } => column.type !== null)
	const targets = included.map((column, position) => {
		const byName = properties.find((property) => property.name === column.name.trim())
		const byPosition = properties.filter((property) => property.type !== 'created_time')[position]
		const property = byPosition?.name === column.name.trim() ? byPosition : (byName ?? byPosition)
		return { column, propertyId: property?.id }
	})
	return rows.map((row) => {
		const values: RowValues = {}
		for (const { column, propertyId } of targets) {
			if (propertyId) {
				values[propertyId] = convertValue(row[column.index] ?? '', column.type)
			}
		}
		return values
	})
}

/**
 * Splits rows into the batches the server takes at once: at most 1000 rows, and small enough
 * for its request body limit (1 MB by default) even when the CSV is wide.
 */
export function batches<T>(items: readonly T[], size: number = maxRowsPerBatch, maxBytes = 700_000): T[][] {
	const result: T[][] = []
	let current: T[] = []
	let bytes = 0
	for (const item of items) {
		const itemBytes = new TextEncoder().encode(JSON.stringify(item)).length + 16
		if (current.length > 0 && (current.length >= size || bytes + itemBytes > maxBytes)) {
			result.push(current)
			current = []
			bytes = 0
		}
		current.push(item)
		bytes += itemBytes
	}
	if (current.length > 0) {
		result.push(current)
	}
	return result
}
