import type { Property } from '@blocksmith/contracts/workspaces.ts'
import type { PageObjectResponse, QueryDataSourceParameters } from '@notionhq/client'
import { plainText } from './notion.properties.ts'

// One Notion query returns at most 10,000 rows, and Notion keeps created and edited times to
// the minute, so a bulk import can put more rows in one minute than any created_time window
// can hold. Notion's API has no row-id filter or order; what it does have is filters on values.
// These pure helpers cut such an over-full slice of a data source into disjoint parts by the
// values its rows hold, chosen from the rows the capped query did return, so that each part
// can be read on its own and together they are the whole slice.

export type Timestamp = 'created_time' | 'last_edited_time'
type QueryFilter = NonNullable<QueryDataSourceParameters['filter']>
/** One condition on a property or a timestamp; a part's conditions all hold (`and`). */
export type Condition = Extract<QueryFilter, { property: string } | { timestamp: string }>

/** A value a split may cut along: present on every data source (timestamps, title) or on this one. */
export type Dimension =
	| { kind: 'timestamp'; key: Timestamp }
	| { kind: 'number'; key: string; unique: boolean }
	| { kind: 'checkbox'; key: string }
	| { kind: 'title'; key: string }

/** What a split needs to know of one row: its value per dimension key. */
export type Sample = Map<string, string | number | boolean | null>

/** One part of a split: the filters that select it, and what is then known of every row in it. */
export type SplitPart = { filters: Condition[]; pins: string[] }

/** Number properties a split may use besides the unique id; each is read along with the ids. */
const maxNumberDimensions = 3

/**
 * The dimensions to cut along, best first: a unique id (distinct on every row), the two
 * timestamps, numbers, then the title (on every data source) and checkboxes.
 */
export function dimensionsOf(properties: Property[] | undefined): Dimension[] {
	const list = properties ?? []
	const dimensions: Dimension[] = []
	for (const property of list) {
		if (property.type === 'unique_id') {
			dimensions.push({ kind: 'number', key: property.id, unique: true })
		}
	}
	dimensions.push({ kind: 'timestamp', key: 'created_time' }, { kind: 'timestamp', key: 'last_edited_time' })
	const numbers = list.filter((property) => property.type === 'number').slice(0, maxNumberDimensions)
	for (const property of numbers) {
		dimensions.push({ kind: 'number', key: property.id, unique: false })
	}
	// Notion's title property always has the id `title`.
	dimensions.push({ kind: 'title', key: list.find((property) => property.type === 'title')?.id ?? 'title' })
	for (const property of list) {
		if (property.type === 'checkbox') {
			dimensions.push({ kind: 'checkbox', key: property.id })
		}
	}
	return dimensions
}

/** Property ids a split reads, for queries that ask for only some properties. */
export function dimensionPropertyIds(dimensions: Dimension[]): string[] {
	return dimensions.flatMap((dimension) => (dimension.kind === 'timestamp' ? [] : [dimension.key]))
}

export function sampleOf(page: PageObjectResponse, dimensions: Dimension[]): Sample {
	const sample: Sample = new Map()
	const byId = new Map(Object.values(page.properties).map((value) => [value.id, value]))
	for (const dimension of dimensions) {
		if (dimension.kind === 'timestamp') {
			sample.set(dimension.key, page[dimension.key])
			continue
		}
		const value = byId.get(dimension.key)
		if (!value) {
			sample.set(dimension.key, dimension.kind === 'title' ? '' : null)
			continue
		}
		switch (value.type) {
			case 'number':
				sample.set(dimension.key, value.number)
				break
			case 'unique_id':
				sample.set(dimension.key, value.unique_id.number)
				break
			case 'checkbox':
				sample.set(dimension.key, value.checkbox)
				break
			case 'title':
				sample.set(dimension.key, plainText(value.title))
				break
			default:
				sample.set(dimension.key, null)
		}
	}
	return sample
}

function timestampFilter(key: Timestamp, condition: { before: string } | { on_or_after: string }): Condition {
	return key === 'created_time'
		? { timestamp: 'created_time', created_time: condition }
		: { timestamp: 'last_edited_time', last_edited_time: condition }
}

/** The value to cut at: about the median, and above the smallest so both sides hold rows of the sample. */
function cutPoint<T>(sorted: T[]): T | undefined {
	const first = sorted[0]
	const middle = sorted[Math.floor(sorted.length / 2)]
	if (middle !== undefined && middle !== first) {
		return middle
	}
	return sorted.find((value) => value !== first)
}

function splitTimestamp(key: Timestamp, samples: Sample[]): SplitPart[] | null {
	const byTime = new Map<number, string>()
	for (const sample of samples) {
		const value = sample.get(key)
		if (typeof value === 'string') {
			byTime.set(Date.parse(value), value)
		}
	}
	const at = cutPoint([...byTime.keys()].sort((a, b) => a - b))
	const iso = at === undefined ? undefined : byTime.get(at)
	if (iso === undefined) {
		return null
	}
	return [
		{ filters: [timestampFilter(key, { before: iso })], pins: [] },
		{ filters: [timestampFilter(key, { on_or_after: iso })], pins: [] },
	]
}

function splitNumber(dimension: Extract<Dimension, { kind: 'number' }>, samples: Sample[]): SplitPart[] | null {
	const values = samples.map((sample) => sample.get(dimension.key))
	const numbers = [...new Set(values.filter((value): value is number => typeof value === 'number'))]
	const condition = (filter: Record<string, unknown>): Condition =>
		(dimension.unique
			? { property: dimension.key, unique_id: filter }
			: { property: dimension.key, number: filter }) as Condition
	// Rows with no value match neither bound: a part of their own (a unique id is never empty).
	const empty = dimension.unique ? [] : [{ filters: [condition({ is_empty: true })], pins: [] }]
	const at = cutPoint(numbers.sort((a, b) => a - b))
	if (at !== undefined) {
		return [
			{ filters: [condition({ less_than: at })], pins: [] },
			{ filters: [condition({ greater_than_or_equal_to: at })], pins: [] },
			...empty,
		]
	}
	if (numbers.length === 1 && values.includes(null) && !dimension.unique) {
		return [{ filters: [condition({ is_not_empty: true })], pins: [] }, ...empty]
	}
	return null
}

function splitCheckbox(key: string, samples: Sample[]): SplitPart[] | null {
	const values = new Set(samples.map((sample) => sample.get(key)))
	if (!values.has(true) || !values.has(false)) {
		return null
	}
	return [
		{ filters: [{ property: key, checkbox: { equals: true } }], pins: [] },
		{ filters: [{ property: key, checkbox: { equals: false } }], pins: [] },
	]
}

/**
 * Titles are cut by a character that about half the sampled titles contain (`contains` and
 * `does_not_contain` are each other's complement), else by one exact title. Empty titles get
 * a part of their own, so the cut holds whether or not Notion counts an empty title as not
 * containing a character.
 */
function splitTitle(key: string, samples: Sample[], pins: ReadonlySet<string>): SplitPart[] | null {
	const titles = samples.map((sample) => String(sample.get(key) ?? ''))
	const nonEmptyPin = `${key}:not-empty`
	const knownNonEmpty = pins.has(nonEmptyPin)
	const text = (filter: Record<string, unknown>): Condition => ({ property: key, title: filter }) as Condition
	const notEmpty = knownNonEmpty ? [] : [text({ is_not_empty: true })]
	const emptyPart = knownNonEmpty ? [] : [{ filters: [text({ is_empty: true })], pins: [`${key}=`] }]
	const filled = titles.filter((title) => title !== '')
	if (filled.length > 0 && filled.length < titles.length) {
		return [{ filters: [text({ is_not_empty: true })], pins: [nonEmptyPin] }, ...emptyPart]
	}
	if (filled.length === 0) {
		if (knownNonEmpty || pins.has(`${key}=`)) {
			return null
		}
		return [
			{ filters: [text({ is_empty: true })], pins: [`${key}=`] },
			{ filters: [text({ is_not_empty: true })], pins: [nonEmptyPin] },
		]
	}
	const counts = new Map<string, number>()
	for (const title of filled) {
		for (const char of new Set(title.toLowerCase())) {
			if (char.trim() !== '') {
				counts.set(char, (counts.get(char) ?? 0) + 1)
			}
		}
	}
	let best: string | undefined
	let bestDistance = Number.POSITIVE_INFINITY
	for (const [char, count] of counts) {
		const distance = Math.abs(count - filled.length / 2)
		if (count < filled.length && distance < bestDistance) {
			best = char
			bestDistance = distance
		}
	}
	if (best !== undefined) {
		return [
			{ filters: [text({ contains: best })], pins: [nonEmptyPin] },
			{ filters: [...notEmpty, text({ does_not_contain: best })], pins: [nonEmptyPin] },
			...emptyPart,
		]
	}
	// Every sampled title has the same characters: set the commonest title apart once.
	const frequency = new Map<string, number>()
	for (const title of filled) {
		frequency.set(title, (frequency.get(title) ?? 0) + 1)
	}
	const [common] = [...frequency.entries()].sort((a, b) => b[1] - a[1])[0] ?? []
	if (common === undefined || pins.has(`${key}=${common}`)) {
		return null
	}
	return [
		{ filters: [text({ equals: common })], pins: [`${key}=${common}`, nonEmptyPin] },
		{ filters: [...notEmpty, text({ does_not_equal: common })], pins: [nonEmptyPin] },
		...emptyPart,
	]
}

/**
 * Disjoint parts that together hold every row of the slice the samples came from, cut along
 * the first dimension on which the samples differ; or null when the rows cannot be told apart
 * by anything a query filters on. `pins` are what earlier cuts already fixed (an exact title),
 * so no cut is made twice.
 */
export function chooseSplit(samples: Sample[], dimensions: Dimension[], pins: ReadonlySet<string>): SplitPart[] | null {
	for (const dimension of dimensions) {
		const parts =
			dimension.kind === 'timestamp'
				? splitTimestamp(dimension.key, samples)
				: dimension.kind === 'number'
					? splitNumber(dimension, samples)
					: dimension.kind === 'checkbox'
						? splitCheckbox(dimension.key, samples)
						: splitTitle(dimension.key, samples, pins)
		if (parts) {
			return parts
		}
	}
	return null
}

/** The title most of the samples share: what a search for the rows a split could not reach asks for. */
export function commonTitle(samples: Sample[], dimensions: Dimension[]): string {
	const key = dimensions.find((dimension) => dimension.kind === 'title')?.key ?? 'title'
	const frequency = new Map<string, number>()
	for (const sample of samples) {
		const title = String(sample.get(key) ?? '')
		frequency.set(title, (frequency.get(title) ?? 0) + 1)
	}
	return [...frequency.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
}
