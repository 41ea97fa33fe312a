import { type ChartConfigInput, chartConfigSchema, type FigureSeries } from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { describe, expect, test } from 'vitest'
import { validateChartConfig } from './charts.figures.ts'
import { applyTransforms, byOptions, byText, cumulative, emptyKey, sortCategories } from './charts.transforms.ts'

// The pure parts of the figures engine: what a configuration that no longer fits its database
// is told, and the ordering and transforms applied to aggregated figures.

const properties: Property[] = [
	{ id: 'name', name: 'Name', type: 'title' },
	{ id: 'amount', name: 'Amount', type: 'number' },
	{ id: 'stage', name: 'Stage', type: 'select', options: [{ id: 'a', name: 'Lead', color: 'default' }] },
	{ id: 'tags', name: 'Tags', type: 'multi_select' },
	{ id: 'when', name: 'When', type: 'date' },
	{ id: 'done', name: 'Done', type: 'checkbox' },
	{ id: 'files', name: 'Files', type: 'files' },
	{ id: 'score', name: 'Score', type: 'formula' },
	{ id: 'label', name: 'Label', type: 'formula', resultType: 'string' },
	{ id: 'total', name: 'Total', type: 'rollup', resultType: 'number' },
	{ id: 'due', name: 'Due', type: 'rollup', resultType: 'date' },
]

function problemsOf(input: ChartConfigInput) {
	return validateChartConfig(properties, chartConfigSchema.parse(input))
}

const fieldsOf = (input: ChartConfigInput) => problemsOf(input).map((problem) => problem.field)

describe('validateChartConfig', () => {
	test('a valid chart has no problems, whatever the property kinds', () => {
		expect(problemsOf({ x: { property: 'stage' } })).toEqual([])
		expect(
			problemsOf({
				x: { property: 'created_time', bucket: 'week' },
				series: [
					{ id: 'a', aggregation: 'sum', property: 'amount', compare: 'previous_year' },
					{ id: 'b', aggregation: 'median', property: 'total' },
					// A formula's result type is unknown until its values are read: allowed.
					{ id: 'c', aggregation: 'average', property: 'score' },
					{ id: 'd', aggregation: 'count_distinct', property: 'tags' },
				],
				breakdown: { property: 'tags' },
				dateRange: { property: 'due', range: 'last_30_days' },
				filters: [{ property: 'amount', operator: 'greater_than', value: 3 }],
			}),
		).toEqual([])
		expect(problemsOf({ type: 'number', series: [{ id: 's', aggregation: 'count' }] })).toEqual([])
	})

	test('grouping is required but for a number; a removed property is named as gone, with what to do', () => {
		expect(problemsOf({ type: 'bar' })).toEqual([{ field: 'x.property', message: 'Choose a property to group by.' }])
		expect(problemsOf({ x: { property: 'gone' } })).toEqual([
			{
				field: 'x.property',
				message:
					'The grouping uses a property that no longer exists in this database. Choose another property for the grouping.',
			},
		])
		expect(problemsOf({ x: { property: 'files' } })[0]?.message).toBe(
			'The property "Files" (files) cannot be charted. Choose another property for the grouping.',
		)
		expect(fieldsOf({ x: { property: 'stage' }, breakdown: { property: 'gone' } })).toEqual(['breakdown.property'])
		expect(
			problemsOf({ x: { property: 'stage' }, series: [{ id: 's', aggregation: 'sum', property: 'gone' }] })[0]?.message,
		).toBe('Series 1 uses a property that no longer exists in this database. Choose another property for series 1.')
	})

	test('number aggregations need numbers; count needs no property, the others one', () => {
		const [problem] = problemsOf({
			x: { property: 'when' },
			series: [{ id: 's', aggregation: 'sum', property: 'stage' }],
		})
		expect(problem).toEqual({
			field: 'series.0.property',
			message:
				'"Stage" does not hold numbers, so it cannot be used to sum. Choose a number property, or count rows instead.',
		})
		expect(
			fieldsOf({
				x: { property: 'when' },
				series: [
					{ id: 'a', aggregation: 'count', property: 'gone' },
					{ id: 'b', aggregation: 'average', property: null },
					{ id: 'c', aggregation: 'max', property: 'label' },
					{ id: 'd', aggregation: 'count_distinct', property: 'when' },
					{ id: 'e', aggregation: 'min', property: 'gone' },
				],
			}),
		).toEqual(['series.1.property', 'series.2.property', 'series.4.property'])
		expect(problemsOf({ x: { property: 'when' }, series: [{ id: 'b', aggregation: 'average' }] })[0]?.message).toBe(
			'Choose the property to average.',
		)
	})

	test('scatter needs a number or date x and a number y; ranges need a number x', () => {
		expect(
			fieldsOf({
				type: 'scatter',
				x: { property: 'stage' },
				series: [{ id: 's', aggregation: 'count', property: 'done' }],
			}),
		).toEqual(['x.property', 'series.0.property'])
		expect(fieldsOf({ type: 'scatter', x: { property: 'when' }, series: [{ id: 's', property: 'amount' }] })).toEqual(
			[],
		)
		expect(fieldsOf({ x: { property: 'stage', rangeSize: 10 } })).toEqual(['x.rangeSize'])
		expect(fieldsOf({ x: { property: 'amount', rangeSize: 10 } })).toEqual([])
	})

	test('a date range needs a date; a comparison needs a date x or a date range', () => {
		expect(fieldsOf({ x: { property: 'stage' }, dateRange: { property: 'amount', range: 'this_year' } })).toEqual([
			'dateRange.property',
		])
		expect(fieldsOf({ x: { property: 'stage' }, dateRange: { property: 'gone', range: 'this_year' } })).toEqual([
			'dateRange.property',
		])
		expect(fieldsOf({ x: { property: 'stage' }, series: [{ id: 's', compare: 'previous_period' }] })).toEqual([
			'series.0.compare',
		])
		expect(
			fieldsOf({
				x: { property: 'stage' },
				series: [{ id: 's', compare: 'previous_period' }],
				dateRange: { property: 'when', range: 'all_time' },
			}),
		).toEqual(['series.0.compare'])
		expect(
			fieldsOf({
				x: { property: 'stage' },
				series: [{ id: 's', compare: 'previous_period' }],
				dateRange: { property: 'when', range: 'last_week' },
			}),
		).toEqual([])
		expect(fieldsOf({ type: 'number', series: [{ id: 's', compare: 'previous_year' }] })).toEqual(['series.0.compare'])
	})

	test('filters: a gone property, a condition the type does not take, a value that does not fit', () => {
		const problems = problemsOf({
			x: { property: 'stage' },
			filters: [
				{ property: 'gone', operator: 'equals', value: 'x' },
				{ property: 'done', operator: 'greater_than', value: 1 },
				{ property: 'amount', operator: 'less_than', value: 'many' },
				{ property: 'created_time', operator: 'contains', value: '2026-01-01' },
				{ property: 'stage', operator: 'equals', value: 'Lead' },
			],
		})
		expect(problems).toEqual([
			{
				field: 'filters.0.property',
				message:
					'A filter uses a property that no longer exists in this database. Remove the filter or choose another property.',
			},
			{
				field: 'filters.1.operator',
				message: 'A filter on "Done" cannot use "is greater than". Choose another condition.',
			},
			{ field: 'filters.2.value', message: 'The filter on "Amount" needs a number. Change its value.' },
			{
				field: 'filters.3.operator',
				message: 'A filter on "Created time" cannot use "contains". Choose another condition.',
			},
		])
	})
})

function figure(key: string, values: (number | null)[], extra: Partial<FigureSeries> = {}): FigureSeries {
	return { key, name: key, seriesId: 's', group: null, isOther: false, isComparison: false, values, ...extra }
}

describe('transforms', () => {
	test('cumulative carries the total over missing values and stays decimal', () => {
		expect(cumulative([0.1, null, 0.2, 1])).toEqual([0.1, 0.1, 0.3, 1.3])
	})

	test('percent of total: of the series without a breakdown, within each x category with one', () => {
		const transforms = new Map([['s', 'percent_of_total' as const]])
		expect(applyTransforms([figure('s', [1, 3, null])], transforms, false)[0]?.values).toEqual([0.25, 0.75, null])
		const [a, other, compared] = applyTransforms(
			[
				figure('s:a', [1, 0, 2], { group: 'a' }),
				figure('s:__other__', [3, 0, null], { group: 'other', isOther: true }),
				figure('s:compare', [2, 2, 4], { isComparison: true }),
			],
			transforms,
			true,
		)
		expect(a?.values).toEqual([0.25, null, 1])
		expect(other?.values).toEqual([0.75, null, null])
		expect(compared?.values).toEqual([0.25, 0.25, 0.5])
		const untouched = figure('t', [5], { seriesId: 't' })
		expect(applyTransforms([untouched], transforms, false)[0]).toBe(untouched)
	})

	test('categories: natural or value order, "(Empty)" always last', () => {
		const categories = [
			{ key: emptyKey, label: '(Empty)' },
			{ key: 'b', label: 'item 10' },
			{ key: 'a', label: 'item 9' },
			{ key: 'c', label: 'Apple' },
		]
		const totals = new Map([
			['a', 5],
			['b', 1],
			['c', 5],
			[emptyKey, 100],
		])
		const keys = (sorted: { key: string }[]) => sorted.map((category) => category.key)
		expect(keys(sortCategories(categories, 'label_asc', byText, totals))).toEqual(['c', 'a', 'b', emptyKey])
		expect(keys(sortCategories(categories, 'label_desc', byText, totals))).toEqual(['b', 'a', 'c', emptyKey])
		expect(keys(sortCategories(categories, 'value_desc', byText, totals))).toEqual(['c', 'a', 'b', emptyKey])
		expect(keys(sortCategories(categories, 'value_asc', byText, totals))).toEqual(['b', 'c', 'a', emptyKey])
		const options = byOptions(['Won', 'Lost'])
		const named = ['Lost', 'Zombie', 'Won', 'Abandoned'].map((name) => ({ key: name, label: name }))
		expect(keys(sortCategories(named, 'label_asc', options, new Map()))).toEqual(['Won', 'Lost', 'Abandoned', 'Zombie'])
	})
})
