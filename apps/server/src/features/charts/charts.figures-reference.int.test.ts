import { randomUUID } from 'node:crypto'
import {
	type Aggregation,
	type ChartConfig,
	type ChartConfigInput,
	type ChartFigures,
	chartConfigSchema,
	type DateBucket,
} from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { workspaceDatabases, workspaceRows, workspaces } from '#src/workspaces/workspaces.schema.ts'
import { computeFigures, validateChartConfig } from './charts.figures.ts'
import { buildProjection } from './charts.projection.ts'

// The figures engine against an independent computation: a few hundred seeded random rows (nulls,
// empty strings, several values, values that are not numbers, dates at 23:30 and 00:30 local
// time around DST changes and month, quarter and year edges, written with assorted offsets) are
// charted by every aggregation over every kind of x, with and without a breakdown, in two time
// zones, and each figure is compared with what plain TypeScript computes from the same rows.
// The reference shares no code with the engine: its calendar comes from Intl and Date.UTC.

const zones = ['Europe/Berlin', 'America/New_York'] as const

/** mulberry32: small, seeded, good enough to pick test data. */
function prng(seed: number) {
	let state = seed >>> 0
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0
		let t = state
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
	const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
	const subset = <T>(items: readonly T[]): T[] => items.filter(() => next() < 0.4)
	return { next, pick, subset }
}

// ---- the reference calendar ------------------------------------------------------------------

function localFields(ms: number, zone: string): { day: string; minutes: number } {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
		})
			.formatToParts(new Date(ms))
			.map((part) => [part.type, part.value]),
	)
	return { day: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) }
}

/** The instant of a local wall time in `zone` (none of ours falls in a DST gap). */
function instantOf(day: string, minutes: number, zone: string): number {
	const wall = Date.parse(`${day}T00:00:00Z`) + minutes * 60_000
	let guess = wall
	for (let i = 0; i < 3; i++) {
		const local = localFields(guess, zone)
		const seen = Date.parse(`${local.day}T00:00:00Z`) + local.minutes * 60_000
		guess += wall - seen
	}
	return guess
}

/** An instant written as ISO with a chosen offset, as Notion and the local editor may store it. */
function isoWithOffset(ms: number, offsetMinutes: number): string {
	const shifted = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19)
	if (offsetMinutes === 0) {
		return `${shifted}.000Z`
	}
	const sign = offsetMinutes < 0 ? '-' : '+'
	const abs = Math.abs(offsetMinutes)
	return `${shifted}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

function bucketOf(day: string, bucket: DateBucket, weekStart: 'monday' | 'sunday'): string {
	const [year, month, date] = day.split('-').map(Number) as [number, number, number]
	const pad = (n: number) => String(n).padStart(2, '0')
	switch (bucket) {
		case 'day':
			return day
		case 'week': {
			const at = new Date(Date.UTC(year, month - 1, date))
			const back = weekStart === 'monday' ? (at.getUTCDay() + 6) % 7 : at.getUTCDay()
			return new Date(Date.UTC(year, month - 1, date - back)).toISOString().slice(0, 10)
		}
		case 'month':
			return `${year}-${pad(month)}-01`
		case 'quarter':
			return `${year}-${pad(Math.floor((month - 1) / 3) * 3 + 1)}-01`
		case 'year':
			return `${year}-01-01`
	}
}

// ---- the rows ----------------------------------------------------------------------------------

const ids = {
	name: 'p-name',
	amount: 'p-amount',
	price: 'p-price',
	kind: 'p-kind',
	stage: 'p-stage',
	tags: 'p-tags',
	owner: 'p-owner',
	company: 'p-company',
	done: 'p-done',
	when: 'p-when',
	score: 'p-score',
	code: 'p-code',
	due: 'p-due',
} as const

const properties: Property[] = [
	{ id: ids.name, name: 'Name', type: 'title' },
	{ id: ids.amount, name: 'Amount', type: 'number' },
	{ id: ids.price, name: 'Price', type: 'number' },
	{
		id: ids.kind,
		name: 'Kind',
		type: 'select',
		options: ['Zeta', 'Alpha', 'Mid'].map((name) => ({ id: name, name, color: 'default' as const })),
	},
	{
		id: ids.stage,
		name: 'Stage',
		type: 'status',
		options: ['Todo', 'Doing', 'Done'].map((name) => ({ id: name, name, color: 'default' as const })),
	},
	{
		id: ids.tags,
		name: 'Tags',
		type: 'multi_select',
		options: ['x', 'y', 'z'].map((name) => ({ id: name, name, color: 'default' as const })),
	},
	{ id: ids.owner, name: 'Owner', type: 'people' },
	{ id: ids.company, name: 'Company', type: 'relation', relationDatabaseId: null },
	{ id: ids.done, name: 'Done', type: 'checkbox' },
	{ id: ids.when, name: 'When', type: 'date' },
	// Notion's formulas come without a result type: the engine learns it from the values.
	{ id: ids.score, name: 'Score', type: 'formula' },
	{ id: ids.code, name: 'Code', type: 'unique_id', prefix: 'T' },
	{ id: ids.due, name: 'Due', type: 'rollup', resultType: 'date' },
]

/** Local days around DST changes (Berlin: Mar 29, Oct 25; New York: Mar 8, Nov 1) and calendar edges. */
const pivots = [
	'2026-03-08',
	'2026-03-09',
	'2026-03-29',
	'2026-03-30',
	'2026-10-25',
	'2026-10-26',
	'2026-11-01',
	'2026-11-02',
	'2026-01-01',
	'2026-02-01',
	'2026-04-01',
	'2026-07-01',
	'2026-10-01',
	'2027-01-01',
	'2026-05-03',
	'2026-05-04',
]
const offsets = [0, 60, 120, -300, -240, 330, 840, -600]

type TestRow = { values: Record<string, unknown>; createdTime: Date; lastEditedTime: Date }

function previousDay(day: string): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
}

/** An instant at 00:30 on a pivot day, or 23:30 the day before, local to one of the two zones. */
function edgeInstant(random: ReturnType<typeof prng>): number {
	const day = random.pick(pivots)
	const zone = random.pick(zones)
	return random.next() < 0.5 ? instantOf(day, 30, zone) : instantOf(previousDay(day), 23 * 60 + 30, zone)
}

function money(random: ReturnType<typeof prng>): number {
	return Math.round((random.next() - 0.3) * 20_000) / 100
}

function makeRows(count: number, seed: number): TestRow[] {
	const random = prng(seed)
	const users = ['u-ada', 'u-bob', 'u-cy']
	const companies = ['r-acme', 'r-globex', 'r-initech', 'r-umbrella']
	return Array.from({ length: count }, (_, index) => {
		const values: Record<string, unknown> = {}
		const set = (id: string, value: unknown) => {
			if (value !== undefined) {
				values[id] = value
			}
		}
		set(ids.name, random.pick(['Alpha', 'beta', 'Gamma', '', null, undefined, 'delta', 'Beta']))
		set(ids.amount, random.pick([null, undefined, 'text', 0, 0.1, 0.2, 10, -5.5, money(random), money(random), 12]))
		set(ids.price, random.pick([null, undefined, money(random), money(random), 3, 0.3]))
		set(ids.kind, random.pick(['Zeta', 'Alpha', 'Mid', 'Mid', '', null, undefined, 'Gone']))
		set(ids.stage, random.pick(['Todo', 'Doing', 'Done', 'Done', null, undefined]))
		set(
			ids.tags,
			random.pick([[], null, undefined, ['x'], ['x', 'y'], ['y', 'z'], ['x', 'x'], random.subset(['x', 'y', 'z'])]),
		)
		set(ids.owner, random.pick([[], undefined, random.subset(users), [random.pick(users)]]))
		set(ids.company, random.pick([[], undefined, random.subset(companies), [random.pick(companies)]]))
		set(ids.done, random.pick([true, false, undefined]))
		const roll = random.next()
		if (roll < 0.5) {
			set(ids.when, { start: isoWithOffset(edgeInstant(random), random.pick(offsets)), end: null, timeZone: null })
		} else if (roll < 0.8) {
			set(ids.when, { start: random.pick(pivots), end: null, timeZone: null })
		} else if (roll < 0.9) {
			set(ids.when, null)
		}
		set(ids.score, random.pick([1, 2.5, 2.5, 7, -1, 'n/a', null, 3]))
		set(ids.code, { prefix: 'T', number: index + 1 })
		set(
			ids.due,
			random.pick([
				null,
				undefined,
				{ start: isoWithOffset(edgeInstant(random), random.pick(offsets)), end: null, timeZone: null },
			]),
		)
		return {
			values,
			createdTime: new Date(edgeInstant(random)),
			lastEditedTime: new Date(edgeInstant(random) + 3_600_000),
		}
	})
}

// ---- the reference figures ---------------------------------------------------------------------

type Reference = { rowCount: number; cells: Map<string, Map<string, (number | null)[]>>; groupOrder: string[] }

const emptyKey = '__empty__'
const otherKey = '__other__'

function textValue(value: unknown): string | null {
	if (typeof value === 'string') {
		return value === '' ? null : value
	}
	return typeof value === 'number' || typeof value === 'boolean' ? String(value) : null
}

function numberValue(value: unknown): number | null {
	return typeof value === 'number' ? value : null
}

function dayValue(row: TestRow, ref: string, zone: string): string | null {
	if (ref === 'created_time' || ref === 'last_edited_time') {
		return localFields((ref === 'created_time' ? row.createdTime : row.lastEditedTime).getTime(), zone).day
	}
	const value = row.values[ref] as { start?: string } | null | undefined
	const start = value?.start
	if (!start) {
		return null
	}
	return start.length === 10 ? start : localFields(Date.parse(start), zone).day
}

type Grouping = { ref: string; bucket: DateBucket; rangeSize: number | null }

/** The group keys of a row (several for lists; [null] for no value). */
function keysOf(row: TestRow, grouping: Grouping, config: ChartConfig): (string | null)[] {
	const { ref } = grouping
	const raw = row.values[ref]
	switch (ref) {
		case 'created_time':
		case ids.due:
		case ids.when: {
			const day = dayValue(row, ref, config.timeZone)
			return [day ? bucketOf(day, grouping.bucket, config.weekStart) : null]
		}
		case ids.tags:
		case ids.owner:
		case ids.company: {
			const list = Array.isArray(raw) ? [...new Set(raw.map(textValue).filter((v): v is string => v !== null))] : []
			return list.length > 0 ? list : [null]
		}
		case ids.done:
			return [raw === true ? 'true' : 'false']
		case ids.amount:
		case ids.score: {
			const number = numberValue(raw)
			if (number === null) {
				return [null]
			}
			return [String(grouping.rangeSize ? Math.floor(number / grouping.rangeSize) * grouping.rangeSize : number)]
		}
		case ids.code:
			return [String((raw as { number: number }).number)]
		default:
			return [textValue(raw)]
	}
}

type Measure = { aggregation: Aggregation; ref: string | null }

function aggregateOf(rows: TestRow[], measure: Measure, config: ChartConfig): number | null {
	const ref = measure.ref ?? ''
	switch (measure.aggregation) {
		case 'count':
			return rows.length
		case 'count_distinct': {
			const seen = new Set<string>()
			for (const row of rows) {
				if (ref === ids.when) {
					const day = dayValue(row, ref, config.timeZone)
					if (day) {
						seen.add(day)
					}
				} else if (ref === ids.tags) {
					for (const tag of (row.values[ref] as string[] | null | undefined) ?? []) {
						seen.add(tag)
					}
				} else {
					const text = textValue(row.values[ref])
					if (text !== null) {
						seen.add(text)
					}
				}
			}
			return seen.size
		}
		default: {
			// Cents are integers: sums, minima, maxima and medians are exact, as they are in numeric.
			const cents = rows
				.map((row) => numberValue(row.values[ref]))
				.filter((v): v is number => v !== null)
				.map((v) => Math.round(v * 100))
			if (measure.aggregation === 'sum') {
				return cents.reduce((a, b) => a + b, 0) / 100
			}
			if (cents.length === 0) {
				return null
			}
			const sorted = [...cents].sort((a, b) => a - b)
			switch (measure.aggregation) {
				case 'average':
					return sorted.reduce((a, b) => a + b, 0) / sorted.length / 100
				case 'min':
					return (sorted[0] as number) / 100
				case 'max':
					return (sorted.at(-1) as number) / 100
				default: {
					const low = sorted[Math.floor((sorted.length - 1) / 2)] as number
					const high = sorted[Math.ceil((sorted.length - 1) / 2)] as number
					return (low + high) / 200
				}
			}
		}
	}
}

function reference(
	rows: TestRow[],
	config: ChartConfig,
	x: Grouping,
	breakdown: (Grouping & { topN: number }) | null,
): Reference {
	const measures: Measure[] = config.series.map((series) => ({
		aggregation: series.aggregation,
		ref: series.property,
	}))
	// Rank breakdown groups by the first series over each group's rows.
	let kept: Set<string> | null = null
	let groupOrder: string[] = []
	if (breakdown) {
		const byGroup = new Map<string, TestRow[]>()
		for (const row of rows) {
			for (const g of keysOf(row, breakdown, config)) {
				const key = g ?? emptyKey
				byGroup.set(key, [...(byGroup.get(key) ?? []), row])
			}
		}
		const first = measures[0] as Measure
		const ranked = [...byGroup.entries()]
			.map(([key, groupRows]) => ({ key, total: aggregateOf(groupRows, first, config) }))
			.sort((a, b) => {
				const left = a.total ?? Number.NEGATIVE_INFINITY
				const right = b.total ?? Number.NEGATIVE_INFINITY
				if (left !== right) {
					return right - left
				}
				if (a.key === emptyKey || b.key === emptyKey) {
					return a.key === emptyKey ? 1 : -1
				}
				return a.key < b.key ? -1 : a.key > b.key ? 1 : 0
			})
		groupOrder = ranked.slice(0, breakdown.topN).map((group) => group.key)
		kept = new Set(groupOrder)
	}
	const members = new Map<string, Map<string, TestRow[]>>()
	for (const row of rows) {
		const gs = breakdown ? keysOf(row, breakdown, config).map((g) => g ?? emptyKey) : ['']
		for (const xKey of keysOf(row, x, config)) {
			for (const g of gs) {
				const groupKey = kept && !kept.has(g) ? otherKey : g
				const byGroup = members.get(xKey ?? emptyKey) ?? new Map<string, TestRow[]>()
				byGroup.set(groupKey, [...(byGroup.get(groupKey) ?? []), row])
				members.set(xKey ?? emptyKey, byGroup)
			}
		}
	}
	const cells = new Map(
		[...members.entries()].map(([xKey, byGroup]) => [
			xKey,
			new Map(
				[...byGroup.entries()].map(([g, groupRows]) => [
					g,
					measures.map((measure) => aggregateOf(groupRows, measure, config)),
				]),
			),
		]),
	)
	return { rowCount: rows.length, cells, groupOrder }
}

function emptyValue(aggregation: Aggregation): number | null {
	return ['count', 'count_distinct', 'sum'].includes(aggregation) ? 0 : null
}

function compare(figures: ChartFigures, expected: Reference, config: ChartConfig, context: string): void {
	expect(figures.problems, context).toEqual([])
	expect(figures.rowCount, context).toBe(expected.rowCount)
	const categoryKeys = figures.categories.map((category) => category.key)
	// Every group with rows is shown, and with hideEmpty nothing else is (nor rows without a value).
	const hidesEmpty = config.x?.hideEmpty === true
	const withRows = [...expected.cells.keys()].filter((key) => !hidesEmpty || key !== emptyKey)
	expect(categoryKeys, context).toEqual(expect.arrayContaining(withRows))
	if (hidesEmpty) {
		expect(categoryKeys.length, context).toBe(withRows.length)
	}
	expect(new Set(categoryKeys).size, context).toBe(categoryKeys.length)
	config.series.forEach((series, index) => {
		const figureSeries = figures.series.filter((figure) => figure.seriesId === series.id)
		const groupKeys = figureSeries.map((figure) => figure.key.slice(series.id.length + 1))
		if (config.breakdown) {
			const hasOther = [...expected.cells.values()].some((byGroup) => byGroup.has(otherKey))
			expect(groupKeys, `${context} groups`).toEqual([...expected.groupOrder, ...(hasOther ? [otherKey] : [])])
		} else {
			expect(groupKeys, context).toEqual([''])
		}
		for (const figure of figureSeries) {
			const groupKey = figure.key.slice(series.id.length + 1)
			figure.values.forEach((actual, position) => {
				const xKey = categoryKeys[position] as string
				const cell = expected.cells.get(xKey)?.get(groupKey)
				const wanted = cell ? (cell[index] ?? null) : emptyValue(series.aggregation)
				const where = `${context} ${series.aggregation}(${series.property}) at ${xKey} / ${groupKey || '-'}`
				if (wanted === null || series.aggregation !== 'average') {
					expect(actual, where).toBe(wanted)
				} else {
					expect(actual, where).toBeCloseTo(wanted, 9)
				}
			})
		}
	})
}

// ---- the run -------------------------------------------------------------------------------

let t: TestApp
const database = { id: randomUUID(), properties }
let rows: TestRow[]

beforeAll(async () => {
	t = await createTestApp()
	const account = await t.signUp()
	const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: account.token })).body.id
	const workspaceId = randomUUID()
	await t.db.insert(workspaces).values({ id: workspaceId, organizationId: orgId, tool: 'local', name: 'Charts' })
	await t.db.insert(workspaceDatabases).values({
		id: database.id,
		organizationId: orgId,
		workspaceId,
		externalId: database.id,
		name: 'Random',
		properties,
	})
	rows = makeRows(320, 20_261_124)
	await t.db.insert(workspaceRows).values(
		rows.map((row) => {
			const id = randomUUID()
			return {
				id,
				organizationId: orgId,
				databaseId: database.id,
				externalId: id,
				values: row.values as never,
				title: String(row.values[ids.name] ?? ''),
				createdTime: row.createdTime,
				lastEditedTime: row.lastEditedTime,
			}
		}),
	)
	// The same figures must come from the typed projection (decision 022) as from JSONB.
	// No chart is saved here: the build is asked for every property, as a builder's preview asks.
	const everyRef = ['created_time', 'last_edited_time', ...properties.map((property) => property.id)]
	expect(await buildProjection(t.db, database.id, everyRef)).toBe('built')
})
afterAll(async () => {
	await t?.close()
})

const xCases: { name: string; x: Grouping }[] = [
	...(['day', 'week', 'month', 'quarter', 'year'] as const).map((bucket) => ({
		name: `date by ${bucket}`,
		x: { ref: ids.when, bucket, rangeSize: null },
	})),
	{ name: 'created time by week', x: { ref: 'created_time', bucket: 'week', rangeSize: null } },
	{ name: 'rollup date by quarter', x: { ref: ids.due, bucket: 'quarter', rangeSize: null } },
	{ name: 'select', x: { ref: ids.kind, bucket: 'month', rangeSize: null } },
	{ name: 'status', x: { ref: ids.stage, bucket: 'month', rangeSize: null } },
	{ name: 'multi-select', x: { ref: ids.tags, bucket: 'month', rangeSize: null } },
	{ name: 'people', x: { ref: ids.owner, bucket: 'month', rangeSize: null } },
	{ name: 'relation', x: { ref: ids.company, bucket: 'month', rangeSize: null } },
	{ name: 'checkbox', x: { ref: ids.done, bucket: 'month', rangeSize: null } },
	{ name: 'text', x: { ref: ids.name, bucket: 'month', rangeSize: null } },
	{ name: 'number ranges', x: { ref: ids.amount, bucket: 'month', rangeSize: 25 } },
	{ name: 'numbers', x: { ref: ids.amount, bucket: 'month', rangeSize: null } },
	{ name: 'formula numbers', x: { ref: ids.score, bucket: 'month', rangeSize: null } },
	{ name: 'unique id', x: { ref: ids.code, bucket: 'month', rangeSize: null } },
]

/** Every aggregation, over numbers (a number property and an untyped formula), options, lists and dates. */
const seriesSets = [
	[
		{ id: 'a', aggregation: 'count' },
		{ id: 'b', aggregation: 'sum', property: ids.amount },
		{ id: 'c', aggregation: 'average', property: ids.amount },
		{ id: 'd', aggregation: 'median', property: ids.price },
		{ id: 'e', aggregation: 'min', property: ids.amount },
	],
	// A distinct count of tags first: breakdown groups are ranked by it.
	[
		{ id: 'a', aggregation: 'count_distinct', property: ids.tags },
		{ id: 'b', aggregation: 'max', property: ids.price },
		{ id: 'c', aggregation: 'count_distinct', property: ids.kind },
		{ id: 'd', aggregation: 'count_distinct', property: ids.when },
		{ id: 'e', aggregation: 'sum', property: ids.score },
	],
	// Counts and sums only: a breakdown's ranking and "Other" come from its cells (one pass).
	[
		{ id: 'a', aggregation: 'sum', property: ids.amount },
		{ id: 'b', aggregation: 'count' },
		{ id: 'c', aggregation: 'sum', property: ids.price },
	],
] as const

const breakdowns = [
	null,
	{ ref: ids.stage, bucket: 'month' as const, rangeSize: null, topN: 2 },
	// Two of the tags and people on their own, the rest pooled into "Other".
	{ ref: ids.tags, bucket: 'month' as const, rangeSize: null, topN: 2 },
	{ ref: ids.owner, bucket: 'month' as const, rangeSize: null, topN: 1 },
]

describe('figures match an independent computation over random rows', () => {
	for (const zone of zones) {
		for (const xCase of xCases) {
			test(`${xCase.name} in ${zone}`, async () => {
				let checked = 0
				for (const [setIndex, seriesSet] of seriesSets.entries()) {
					for (const breakdown of breakdowns) {
						const weekStart = setIndex === 0 ? 'monday' : 'sunday'
						const input: ChartConfigInput = {
							type: 'bar',
							x: {
								property: xCase.x.ref,
								bucket: xCase.x.bucket,
								rangeSize: xCase.x.rangeSize,
								hideEmpty: breakdown !== null,
							},
							series: seriesSet.map((series) => ({ ...series })),
							breakdown: breakdown ? { property: breakdown.ref, topN: breakdown.topN, showOther: true } : null,
							timeZone: zone,
							weekStart,
						}
						const config = chartConfigSchema.parse(input)
						expect(validateChartConfig(properties, config)).toEqual([])
						const expected = reference(rows, config, xCase.x, breakdown)
						for (const useProjection of [false, true]) {
							let isStale = false
							const figures = await computeFigures(t.db, database, config, {
								now: new Date('2026-11-24T12:00:00Z'),
								useProjection,
								onProjectionStale: () => {
									isStale = true
								},
							})
							const from = useProjection ? 'projection' : 'JSONB'
							const context = `${xCase.name}, ${zone}, set ${setIndex}, breakdown ${breakdown?.ref ?? 'none'}, ${from}`
							expect(isStale, context).toBe(false)
							compare(figures, expected, config, context)
						}
						checked++
					}
				}
				expect(checked).toBe(seriesSets.length * breakdowns.length)
			})
		}
	}
})
