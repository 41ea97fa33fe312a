import { randomUUID } from 'node:crypto'
import {
	type ChartConfigInput,
	type ChartFigures,
	chartConfigSchema,
	maxScatterPoints,
} from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { workspaceDatabases, workspaceRows, workspaces } from '#src/workspaces/workspaces.schema.ts'
import { computeFigures, validateChartConfig } from './charts.figures.ts'

// The figures engine on a real database, case by case: each test writes a few rows straight
// into the mirror of a database of its own and checks figures worked out by hand (the random
// comparison with an independent computation is charts.figures-reference.int.test.ts).

let t: TestApp
let orgId: string
let workspaceId: string

beforeAll(async () => {
	t = await createTestApp()
	const account = await t.signUp()
	orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: account.token })).body.id
	workspaceId = randomUUID()
	await t.db.insert(workspaces).values({ id: workspaceId, organizationId: orgId, tool: 'local', name: 'Charts' })
})
afterAll(async () => {
	await t?.close()
})

const options = (names: string[]) => names.map((name) => ({ id: name, name, color: 'default' as const }))

const properties: Property[] = [
	{ id: 'name', name: 'Name', type: 'title' },
	{ id: 'amount', name: 'Amount', type: 'number' },
	{ id: 'kind', name: 'Kind', type: 'select', options: options(['Zeta', 'Alpha', 'Mid']) },
	{ id: 'when', name: 'When', type: 'date' },
	{ id: 'tags', name: 'Tags', type: 'multi_select', options: options(['x', 'y']) },
	{ id: 'done', name: 'Done', type: 'checkbox' },
	{ id: 'score', name: 'Score', type: 'formula' },
]

type RowInput = { values: Record<string, unknown>; created?: string }

const day = (start: string) => ({ start, end: null, timeZone: null })

async function databaseWith(rows: RowInput[]) {
	const id = randomUUID()
	await t.db.insert(workspaceDatabases).values({
		id,
		organizationId: orgId,
		workspaceId,
		externalId: id,
		name: 'Deals',
		properties,
	})
	if (rows.length > 0) {
		await t.db.insert(workspaceRows).values(
			rows.map((row, index) => {
				const rowId = randomUUID()
				const created = new Date(row.created ?? Date.UTC(2026, 0, 1, 12, 0, index))
				return {
					id: rowId,
					organizationId: orgId,
					databaseId: id,
					externalId: rowId,
					values: row.values as never,
					title: String(row.values.name ?? ''),
					createdTime: created,
					lastEditedTime: created,
				}
			}),
		)
	}
	return { id, properties }
}

const may15 = new Date('2026-05-15T10:00:00Z')

async function figuresOf(database: { id: string; properties: Property[] }, input: ChartConfigInput, now = may15) {
	const config = chartConfigSchema.parse(input)
	expect(validateChartConfig(database.properties, config)).toEqual([])
	return computeFigures(t.db, database, config, { now })
}

const valuesOf = (figures: ChartFigures, key: string) => figures.series.find((series) => series.key === key)?.values
const keysOf = (figures: ChartFigures) => figures.categories.map((category) => category.key)

describe('numbers', () => {
	test('sums and averages are exact decimals, not floats', async () => {
		const database = await databaseWith([{ values: { amount: 0.1 } }, { values: { amount: 0.2 } }])
		const figures = await figuresOf(database, {
			type: 'number',
			series: [{ id: 's1', aggregation: 'sum', property: 'amount' }],
		})
		expect(figures.kpi?.value).toBe(0.3)
		const average = await figuresOf(database, {
			type: 'number',
			series: [{ id: 's1', aggregation: 'average', property: 'amount' }],
		})
		expect(average.kpi?.value).toBe(0.15)
	})

	test('ranges of numbers are labelled and the gaps between them are zero', async () => {
		const database = await databaseWith([
			{ values: { amount: 3 } },
			{ values: { amount: 9.5 } },
			{ values: { amount: 41 } },
			{ values: { amount: -2 } },
			{ values: {} },
		])
		const figures = await figuresOf(database, {
			x: { property: 'amount', rangeSize: 10 },
			series: [{ id: 's1', aggregation: 'count' }],
		})
		expect(figures.xKind).toBe('range')
		expect(figures.categories).toEqual([
			{ key: '-10', label: '-10–0' },
			{ key: '0', label: '0–10' },
			{ key: '10', label: '10–20' },
			{ key: '20', label: '20–30' },
			{ key: '30', label: '30–40' },
			{ key: '40', label: '40–50' },
			{ key: '__empty__', label: '(Empty)' },
		])
		expect(valuesOf(figures, 's1')).toEqual([1, 2, 0, 0, 0, 1, 1])
	})
	test('a formula without a result type is read as what its values are, even when most rows have none', async () => {
		const database = await databaseWith([
			{ values: { score: 3 } },
			{ values: { score: 14 } },
			{ values: {} },
			{ values: {} },
			{ values: {} },
			{ values: { score: null } },
		])
		const figures = await figuresOf(database, { x: { property: 'score', rangeSize: 10, hideEmpty: true } })
		expect(figures.categories).toEqual([
			{ key: '0', label: '0–10' },
			{ key: '10', label: '10–20' },
		])
	})
})

describe('dates', () => {
	test('empty months between the first and the last are zero (count, sum) or no value (average); hideEmpty drops them', async () => {
		const database = await databaseWith([
			{ values: { when: day('2026-01-31'), amount: 4 } },
			{ values: { when: day('2026-04-01'), amount: 6 } },
			{ values: { when: day('2026-04-30'), amount: 10 } },
			{ values: { amount: 100 } },
		])
		const input: ChartConfigInput = {
			x: { property: 'when', bucket: 'month' },
			series: [
				{ id: 'n', aggregation: 'count' },
				{ id: 's', aggregation: 'sum', property: 'amount' },
				{ id: 'a', aggregation: 'average', property: 'amount' },
			],
		}
		const figures = await figuresOf(database, input)
		expect(figures.xKind).toBe('date')
		expect(figures.categories.map((category) => category.label)).toEqual([
			'Jan 2026',
			'Feb 2026',
			'Mar 2026',
			'Apr 2026',
			'(Empty)',
		])
		expect(keysOf(figures)).toEqual(['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01', '__empty__'])
		expect(valuesOf(figures, 'n')).toEqual([1, 0, 0, 2, 1])
		expect(valuesOf(figures, 's')).toEqual([4, 0, 0, 16, 100])
		expect(valuesOf(figures, 'a')).toEqual([4, null, null, 8, 100])
		expect(figures.rowCount).toBe(4)
		const hidden = await figuresOf(database, { ...input, x: { property: 'when', bucket: 'month', hideEmpty: true } })
		expect(keysOf(hidden)).toEqual(['2026-01-01', '2026-04-01'])
		expect(valuesOf(hidden, 'n')).toEqual([1, 2])
	})

	test('a date range keeps its rows and shows every bucket of its window', async () => {
		const database = await databaseWith([
			{ values: { when: day('2025-12-31') } },
			{ values: { when: day('2026-02-10') } },
			{ values: { when: day('2026-02-11') } },
			{ values: {} },
		])
		const figures = await figuresOf(database, {
			x: { property: 'when', bucket: 'quarter' },
			dateRange: { property: 'when', range: 'this_year' },
		})
		expect(figures.categories.map((category) => category.label)).toEqual(['Q1 2026', 'Q2 2026', 'Q3 2026', 'Q4 2026'])
		expect(valuesOf(figures, 's1')).toEqual([2, 0, 0, 0])
		expect(figures.rowCount).toBe(2)
	})

	test('a date-time falls on its day in the chart time zone; a bare date is that day everywhere', async () => {
		// 22:30 UTC on March 31 is April 1, 00:30 in Berlin (summer time) and March 31 in New York.
		const database = await databaseWith([
			{ values: { when: day('2026-03-31T22:30:00.000Z') } },
			{ values: { when: day('2026-04-01T00:30:00+02:00') } },
			{ values: { when: day('2026-03-31') } },
			{ values: {}, created: '2026-03-31T22:30:00Z' },
		])
		const inBerlin = await figuresOf(database, {
			x: { property: 'when', bucket: 'month', hideEmpty: true },
			timeZone: 'Europe/Berlin',
		})
		expect(keysOf(inBerlin)).toEqual(['2026-03-01', '2026-04-01'])
		expect(valuesOf(inBerlin, 's1')).toEqual([1, 2])
		const inNewYork = await figuresOf(database, {
			x: { property: 'when', bucket: 'month', hideEmpty: true },
			timeZone: 'America/New_York',
		})
		expect(keysOf(inNewYork)).toEqual(['2026-03-01'])
		expect(valuesOf(inNewYork, 's1')).toEqual([3])
		const created = await figuresOf(database, {
			x: { property: 'created_time', bucket: 'day', hideEmpty: true },
			timeZone: 'Europe/Berlin',
		})
		expect(created.categories.at(-1)).toEqual({ key: '2026-04-01', label: 'Apr 1, 2026' })
	})

	test('weeks start on Monday or on Sunday', async () => {
		// May 3, 2026 is a Sunday.
		const database = await databaseWith([
			{ values: { when: day('2026-05-03') } },
			{ values: { when: day('2026-05-04') } },
		])
		const monday = await figuresOf(database, { x: { property: 'when', bucket: 'week' } })
		expect(monday.categories).toEqual([
			{ key: '2026-04-27', label: 'Week of Apr 27, 2026' },
			{ key: '2026-05-04', label: 'Week of May 4, 2026' },
		])
		const sunday = await figuresOf(database, { x: { property: 'when', bucket: 'week' }, weekStart: 'sunday' })
		expect(sunday.categories).toEqual([{ key: '2026-05-03', label: 'Week of May 3, 2026' }])
		expect(valuesOf(sunday, 's1')).toEqual([2])
	})
})

describe('categories', () => {
	const kinds = ['Mid', 'Mid', 'Mid', 'Alpha', 'Zeta', 'Zeta', 'Gone', '', null]

	test('options sort in the order of the database, unknown ones after, "(Empty)" last; value sorts and limits', async () => {
		const database = await databaseWith(kinds.map((kind) => ({ values: { kind } })))
		const ascending = await figuresOf(database, { x: { property: 'kind' } })
		expect(ascending.xKind).toBe('category')
		expect(keysOf(ascending)).toEqual(['Zeta', 'Alpha', 'Mid', 'Gone', '__empty__'])
		expect(valuesOf(ascending, 's1')).toEqual([2, 1, 3, 1, 2])
		const descending = await figuresOf(database, { x: { property: 'kind', sort: 'label_desc' } })
		expect(keysOf(descending)).toEqual(['Gone', 'Mid', 'Alpha', 'Zeta', '__empty__'])
		const byValue = await figuresOf(database, { x: { property: 'kind', sort: 'value_desc', limit: 2 } })
		expect(keysOf(byValue)).toEqual(['Mid', 'Zeta'])
		expect(valuesOf(byValue, 's1')).toEqual([3, 2])
		expect(byValue.isTruncated).toBe(true)
		expect(ascending.isTruncated).toBe(false)
		const hidden = await figuresOf(database, { x: { property: 'kind', sort: 'value_asc', hideEmpty: true } })
		expect(keysOf(hidden)).toEqual(['Alpha', 'Gone', 'Zeta', 'Mid'])
	})

	test('a row with several tags counts under each; checkboxes are Checked and Unchecked', async () => {
		const database = await databaseWith([
			{ values: { tags: ['x', 'y'], done: true } },
			{ values: { tags: ['x'] } },
			{ values: { tags: [], done: false } },
		])
		const tags = await figuresOf(database, { x: { property: 'tags' } })
		expect(tags.categories).toEqual([
			{ key: 'x', label: 'x' },
			{ key: 'y', label: 'y' },
			{ key: '__empty__', label: '(Empty)' },
		])
		expect(valuesOf(tags, 's1')).toEqual([2, 1, 1])
		expect(tags.rowCount).toBe(3)
		const done = await figuresOf(database, { x: { property: 'done' } })
		expect(done.categories).toEqual([
			{ key: 'true', label: 'Checked' },
			{ key: 'false', label: 'Unchecked' },
		])
		expect(valuesOf(done, 's1')).toEqual([1, 2])
	})

	test('filters narrow the rows; a table has the figures of a bar chart', async () => {
		const database = await databaseWith(kinds.map((kind, index) => ({ values: { kind, amount: index } })))
		const input: ChartConfigInput = {
			x: { property: 'kind', hideEmpty: true },
			series: [{ id: 's1', aggregation: 'sum', property: 'amount' }],
			filters: [{ property: 'amount', operator: 'greater_than', value: 2 }],
		}
		const bar = await figuresOf(database, input)
		expect(keysOf(bar)).toEqual(['Zeta', 'Alpha', 'Gone'])
		expect(valuesOf(bar, 's1')).toEqual([4 + 5, 3, 6])
		expect(bar.rowCount).toBe(6)
		const table = await figuresOf(database, { ...input, type: 'table' })
		expect({ ...table, type: 'bar' }).toEqual(bar)
	})
})

describe('breakdown', () => {
	// Mid: 10, 10, 10 (three rows); Alpha: 1; Zeta: 100, 200.
	const rows = [
		{ kind: 'Mid', amount: 10, done: true },
		{ kind: 'Mid', amount: 10, done: true },
		{ kind: 'Mid', amount: 10, done: false },
		{ kind: 'Alpha', amount: 1, done: true },
		{ kind: 'Zeta', amount: 100, done: false },
		{ kind: 'Zeta', amount: 200, done: true },
	]

	test('the top groups get a series each; "Other" is computed over the pooled rows, not added up', async () => {
		const database = await databaseWith(rows.map((values) => ({ values })))
		const figures = await figuresOf(database, {
			x: { property: 'done' },
			series: [
				{ id: 'n', aggregation: 'count' },
				{ id: 'a', aggregation: 'average', property: 'amount' },
			],
			breakdown: { property: 'kind', topN: 1 },
		})
		expect(keysOf(figures)).toEqual(['true', 'false'])
		expect(figures.series.map((series) => [series.key, series.name, series.group, series.isOther])).toEqual([
			['n:Mid', 'Count · Mid', 'Mid', false],
			['n:__other__', 'Count · Other', 'other', true],
			['a:Mid', 'Average of Amount · Mid', 'Mid', false],
			['a:__other__', 'Average of Amount · Other', 'other', true],
		])
		expect(valuesOf(figures, 'n:Mid')).toEqual([2, 1])
		expect(valuesOf(figures, 'n:__other__')).toEqual([2, 1])
		// Checked, outside Mid: Alpha 1 and Zeta 200 → 100.5 (the sum of their averages would be 201).
		expect(valuesOf(figures, 'a:__other__')).toEqual([100.5, 100])
		const withoutOther = await figuresOf(database, {
			x: { property: 'done' },
			breakdown: { property: 'kind', topN: 2, showOther: false },
		})
		// Ranked by the first series' total: Mid (3 rows), then Zeta (2).
		expect(withoutOther.series.map((series) => series.key)).toEqual(['s1:Mid', 's1:Zeta'])
		expect(withoutOther.rowCount).toBe(6)
	})
})

describe('transforms', () => {
	test('cumulative runs along x; percent of total is a share of the series, or of the x category with a breakdown', async () => {
		const database = await databaseWith([
			{ values: { when: day('2026-01-05'), kind: 'Mid' } },
			{ values: { when: day('2026-01-06'), kind: 'Alpha' } },
			{ values: { when: day('2026-01-07'), kind: 'Alpha' } },
			{ values: { when: day('2026-03-01'), kind: 'Mid' } },
		])
		const figures = await figuresOf(database, {
			x: { property: 'when', bucket: 'month' },
			series: [
				{ id: 'c', transform: 'cumulative' },
				{ id: 'p', transform: 'percent_of_total' },
			],
		})
		expect(valuesOf(figures, 'c')).toEqual([3, 3, 4])
		expect(valuesOf(figures, 'p')).toEqual([0.75, 0, 0.25])
		const shares = await figuresOf(database, {
			x: { property: 'when', bucket: 'month' },
			series: [{ id: 'p', transform: 'percent_of_total' }],
			breakdown: { property: 'kind' },
		})
		expect(valuesOf(shares, 'p:Alpha')).toEqual([2 / 3, null, 0])
		expect(valuesOf(shares, 'p:Mid')).toEqual([1 / 3, null, 1])
	})
})

describe('comparisons', () => {
	test('previous period with a date range: the window before it, bucket by bucket', async () => {
		const database = await databaseWith([
			{ values: { when: day('2026-04-02'), amount: 5 } },
			{ values: { when: day('2026-04-30'), amount: 7 } },
			{ values: { when: day('2026-03-02'), amount: 11 } },
			{ values: { when: day('2026-03-31'), amount: 13 } },
			{ values: { when: day('2025-04-02'), amount: 17 } },
		])
		const figures = await figuresOf(database, {
			x: { property: 'when', bucket: 'day' },
			series: [
				{ id: 's', aggregation: 'sum', property: 'amount', compare: 'previous_period' },
				{ id: 'y', aggregation: 'sum', property: 'amount', compare: 'previous_year' },
			],
			dateRange: { property: 'when', range: 'last_month' },
		})
		expect(figures.categories).toHaveLength(30)
		expect(figures.rowCount).toBe(2)
		const compared = figures.series.find((series) => series.key === 's:compare')
		expect(compared).toMatchObject({ name: 'Sum of Amount (previous period)', isComparison: true, seriesId: 's' })
		// April 2 ↔ March 2; April 30 ↔ March 30 (March 31 has no April day to stand beside).
		expect(compared?.values[1]).toBe(11)
		expect(compared?.values.reduce((sum, value) => (sum ?? 0) + (value ?? 0), 0)).toBe(11)
		const lastYear = valuesOf(figures, 'y:compare')
		expect(lastYear?.[1]).toBe(17)
		expect(lastYear?.reduce((sum, value) => (sum ?? 0) + (value ?? 0), 0)).toBe(17)
	})

	test('without a date range each bucket is compared with the one before it, or the same bucket a year before', async () => {
		const database = await databaseWith([
			{ values: { when: day('2025-02-10') } },
			{ values: { when: day('2026-01-10') } },
			{ values: { when: day('2026-01-11') } },
			{ values: { when: day('2026-02-10') } },
		])
		const figures = await figuresOf(database, {
			x: { property: 'when', bucket: 'month', hideEmpty: true },
			series: [
				{ id: 'p', compare: 'previous_period' },
				{ id: 'y', compare: 'previous_year' },
			],
		})
		expect(keysOf(figures)).toEqual(['2025-02-01', '2026-01-01', '2026-02-01'])
		expect(valuesOf(figures, 'p')).toEqual([1, 2, 1])
		// Hidden months still count as the month before: December 2025 had nothing.
		expect(valuesOf(figures, 'p:compare')).toEqual([0, 0, 2])
		expect(valuesOf(figures, 'y:compare')).toEqual([0, 0, 1])
	})

	test('with a breakdown, a comparison is of the series total', async () => {
		const database = await databaseWith([
			{ values: { when: day('2026-04-02'), kind: 'Mid' } },
			{ values: { when: day('2026-03-02'), kind: 'Mid' } },
			{ values: { when: day('2026-03-03'), kind: 'Alpha' } },
		])
		const figures = await figuresOf(database, {
			x: { property: 'when', bucket: 'month' },
			series: [{ id: 's', compare: 'previous_period' }],
			breakdown: { property: 'kind' },
			dateRange: { property: 'when', range: 'last_month' },
		})
		expect(figures.series.map((series) => series.key)).toEqual(['s:Mid', 's:compare'])
		expect(valuesOf(figures, 's:compare')).toEqual([2])
	})
})

describe('number (KPI)', () => {
	test('the value over the range, the previous window, the change and both labels', async () => {
		const database = await databaseWith([
			{ values: { when: day('2026-05-01'), amount: 30 } },
			{ values: { when: day('2026-05-14'), amount: 20 } },
			{ values: { when: day('2026-04-20'), amount: 40 } },
			{ values: { when: day('2026-03-20'), amount: 1000 } },
		])
		const figures = await figuresOf(database, {
			type: 'number',
			series: [{ id: 's', aggregation: 'sum', property: 'amount', compare: 'previous_period' }],
			dateRange: { property: 'when', range: 'this_month' },
		})
		expect(figures.kpi).toEqual({
			value: 50,
			previous: 40,
			change: 0.25,
			currentLabel: 'This month',
			previousLabel: 'Last month',
		})
		expect(figures.rowCount).toBe(2)
		const nothingBefore = await figuresOf(
			database,
			{
				type: 'number',
				series: [{ id: 's', aggregation: 'count', compare: 'previous_year' }],
				dateRange: { property: 'when', range: 'this_month' },
			},
			may15,
		)
		expect(nothingBefore.kpi).toMatchObject({ value: 2, previous: 0, change: null })
		const nothingEither = await figuresOf(
			database,
			{
				type: 'number',
				series: [{ id: 's', aggregation: 'count', compare: 'previous_year' }],
				dateRange: { property: 'when', range: 'last_year' },
			},
			may15,
		)
		// Nothing then and nothing now is no change, not an unknown one.
		expect(nothingEither.kpi).toMatchObject({ value: 0, previous: 0, change: 0 })
	})
})

describe('number formats', () => {
	test("each series carries the format its values read in: the chart's, a count's, a percent's or its own", async () => {
		const database = await databaseWith([
			{ values: { kind: 'Big', amount: 30 } },
			{ values: { kind: 'Big', amount: 10 } },
			{ values: { kind: 'Small', amount: 20 } },
		])
		const euro = { style: 'currency', currency: 'EUR', decimals: 2, compact: false } as const
		const figures = await figuresOf(database, {
			type: 'bar',
			x: { property: 'kind' },
			series: [
				{ id: 'sum', aggregation: 'sum', property: 'amount' },
				{ id: 'count', aggregation: 'count' },
				{ id: 'share', aggregation: 'sum', property: 'amount', transform: 'percent_of_total' },
				{ id: 'yen', aggregation: 'max', property: 'amount', numberFormat: { style: 'currency', currency: 'JPY' } },
			],
			display: { numberFormat: euro },
		})
		const formatOf = (id: string) => figures.series.find((series) => series.seriesId === id)?.format
		expect(formatOf('sum')).toEqual(euro)
		expect(formatOf('count')).toEqual({ ...euro, style: 'number', decimals: null })
		expect(formatOf('share')).toEqual({ ...euro, style: 'percent' })
		expect(formatOf('yen')).toEqual({ ...euro, currency: 'JPY' })
	})
})

describe('scatter', () => {
	test(`at most ${maxScatterPoints} points, always the same ones, in order`, async () => {
		const count = maxScatterPoints + 5
		const database = await databaseWith(
			Array.from({ length: count }, (_, index) => ({
				values: { name: `Row ${index}`, amount: (index * 7919) % count, when: day('2026-03-29'), kind: 'Mid' },
			})),
		)
		const figures = await figuresOf(database, {
			type: 'scatter',
			x: { property: 'amount' },
			series: [{ id: 's', aggregation: 'sum', property: 'amount' }],
			breakdown: { property: 'kind' },
		})
		expect(figures.points).toHaveLength(maxScatterPoints)
		expect(figures.isTruncated).toBe(true)
		expect(figures.rowCount).toBe(count)
		expect(figures.points?.slice(0, 2)).toEqual([
			{ x: 0, y: 0, group: 'Mid', label: 'Row 0' },
			{ x: 1, y: 1, group: 'Mid', label: expect.any(String) },
		])
		expect(figures.points?.at(-1)?.x).toBe(maxScatterPoints - 1)
		const byDate = await figuresOf(database, {
			type: 'scatter',
			x: { property: 'when' },
			series: [{ id: 's', aggregation: 'sum', property: 'amount' }],
			timeZone: 'Europe/Berlin',
		})
		// A bare date is its midnight in the chart's zone (still winter time on the 29th at 00:00).
		expect(byDate.points?.[0]?.x).toBe(Date.parse('2026-03-28T23:00:00Z'))
		expect(byDate.xKind).toBe('date')
	})
})
