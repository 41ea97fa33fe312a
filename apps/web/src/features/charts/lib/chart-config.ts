import type {
	Aggregation,
	ChartConfig,
	ChartSeries,
	ChartType,
	RelativeRange,
	SeriesCompare,
	SeriesTransform,
} from '@blocksmith/contracts/charts.ts'
import type { Property, RowFilter, rowFilterOperators } from '@blocksmith/contracts/workspaces.ts'

// What the builder needs to know about a chart's settings and the database's properties:
// which properties fit which setting, the labels of every choice, and where a problem belongs.

/** The type picker's choices: a donut is a pie drawn as a ring, but people look for it by name. */
export const typeChoices = ['bar', 'line', 'area', 'pie', 'donut', 'scatter', 'number', 'table'] as const
export type TypeChoice = (typeof typeChoices)[number]

export const typeLabels: Record<TypeChoice, string> = {
	bar: 'Bar',
	line: 'Line',
	area: 'Area',
	pie: 'Pie',
	donut: 'Donut',
	scatter: 'Scatter',
	number: 'Number',
	table: 'Table',
}

export function typeChoiceOf(config: Pick<ChartConfig, 'type' | 'display'>): TypeChoice {
	return config.type === 'pie' && config.display.donut ? 'donut' : config.type
}

/** The settings after picking a type: a donut is `pie` with its ring on, a pie without. */
export function withTypeChoice(config: ChartConfig, choice: TypeChoice): ChartConfig {
	const type: ChartType = choice === 'donut' ? 'pie' : choice
	const donut = choice === 'donut' ? true : choice === 'pie' ? false : config.display.donut
	return { ...config, type, display: { ...config.display, donut } }
}

export const aggregationLabels: Record<Aggregation, string> = {
	count: 'Count',
	count_distinct: 'Count distinct',
	sum: 'Sum',
	average: 'Average',
	median: 'Median',
	min: 'Min',
	max: 'Max',
}

/** Aggregations that only make sense of numbers. `count_distinct` counts values of any kind. */
export function needsNumber(aggregation: Aggregation): boolean {
	return aggregation !== 'count' && aggregation !== 'count_distinct'
}

export const transformLabels: Record<SeriesTransform, string> = {
	none: 'As is',
	cumulative: 'Running total',
	percent_of_total: 'Percent of total',
}

export const compareLabels: Record<SeriesCompare, string> = {
	none: 'No comparison',
	previous_period: 'Previous period',
	previous_year: 'Same period last year',
}

export const rangeLabels: Record<RelativeRange, string> = {
	all_time: 'All time',
	today: 'Today',
	last_7_days: 'Last 7 days',
	last_30_days: 'Last 30 days',
	last_90_days: 'Last 90 days',
	last_365_days: 'Last 365 days',
	this_week: 'This week',
	this_month: 'This month',
	this_quarter: 'This quarter',
	this_year: 'This year',
	last_week: 'Last week',
	last_month: 'Last month',
	last_quarter: 'Last quarter',
	last_year: 'Last year',
}

// ---- properties ---------------------------------------------------------------------------

/** A property a setting can point at: the database's own, or one of the row's timestamps. */
export type PropertyChoice = Pick<Property, 'id' | 'name' | 'type' | 'resultType' | 'options'>

/** The row's own timestamps, chartable in every database (Notion or local). */
const rowTimestamps: PropertyChoice[] = [
	{ id: 'created_time', name: 'Created time', type: 'created_time' },
	{ id: 'last_edited_time', name: 'Last edited time', type: 'last_edited_time' },
]

// A button has no value, and an unsupported property none we can read.
const unchartable = new Set<Property['type']>(['button', 'unsupported'])

/** Every property a chart can group or filter by, then the row timestamps. */
export function chartableProperties(properties: readonly Property[]): PropertyChoice[] {
	return [...properties.filter((property) => !unchartable.has(property.type)), ...rowTimestamps]
}

const isComputed = (property: PropertyChoice) => property.type === 'formula' || property.type === 'rollup'

/** Number-valued: what sum, average, median, min and max take. */
export function isNumberValued(property: PropertyChoice): boolean {
	return property.type === 'number' || (isComputed(property) && property.resultType === 'number')
}

/** Date-like: grouped by a date bucket, and what a date range reads. */
export function isDateLike(property: PropertyChoice): boolean {
	return (
		property.type === 'date' ||
		property.type === 'created_time' ||
		property.type === 'last_edited_time' ||
		(isComputed(property) && property.resultType === 'date')
	)
}

export function findProperty(properties: readonly PropertyChoice[], id: string | null | undefined) {
	return id ? properties.find((property) => property.id === id) : undefined
}

// ---- series -------------------------------------------------------------------------------

/** An id no series of the chart has yet: figures and colours are keyed by it. */
function nextSeriesId(series: readonly ChartSeries[]): string {
	const taken = new Set(series.map((item) => item.id))
	let index = series.length + 1
	while (taken.has(`s${index}`)) {
		index += 1
	}
	return `s${index}`
}

export function newSeries(series: readonly ChartSeries[]): ChartSeries {
	return {
		id: nextSeriesId(series),
		aggregation: 'count',
		property: null,
		label: null,
		transform: 'none',
		compare: 'none',
		numberFormat: null,
	}
}

/**
 * The aggregation after a change: a property that no longer fits it (text under a sum) is
 * dropped rather than sent, so the user picks one that does.
 */
export function withAggregation(
	series: ChartSeries,
	aggregation: Aggregation,
	properties: readonly PropertyChoice[],
): ChartSeries {
	const property = findProperty(properties, series.property)
	const keeps =
		aggregation === 'count' ? false : !needsNumber(aggregation) || (property ? isNumberValued(property) : false)
	return { ...series, aggregation, property: keeps ? series.property : null }
}

// ---- filters ------------------------------------------------------------------------------

export type FilterOperator = (typeof rowFilterOperators)[number]

export const operatorLabels: Record<FilterOperator, string> = {
	equals: 'is',
	not_equals: 'is not',
	contains: 'contains',
	not_contains: 'does not contain',
	is_empty: 'is empty',
	is_not_empty: 'is not empty',
	greater_than: '>',
	less_than: '<',
	on_or_after: 'on or after',
	on_or_before: 'on or before',
}

const emptiness: FilterOperator[] = ['is_empty', 'is_not_empty']

/** Which operators make sense for a property (the table's filter bar offers the same). */
export function operatorsFor(property: PropertyChoice): FilterOperator[] {
	if (isNumberValued(property) || property.type === 'unique_id') {
		return ['equals', 'not_equals', 'greater_than', 'less_than', ...emptiness]
	}
	if (isDateLike(property)) {
		return ['equals', 'on_or_after', 'on_or_before', ...emptiness]
	}
	switch (property.type) {
		case 'checkbox':
			return ['equals']
		case 'select':
		case 'status':
			return ['equals', 'not_equals', ...emptiness]
		case 'multi_select':
		case 'people':
		case 'relation':
			return ['contains', 'not_contains', ...emptiness]
		case 'files':
			return emptiness
		default:
			return ['contains', 'not_contains', 'equals', 'not_equals', ...emptiness]
	}
}

export function needsValue(operator: FilterOperator): boolean {
	return !emptiness.includes(operator)
}

/** A new filter on a property: its first operator, and a value of the right kind. */
export function newFilter(property: PropertyChoice): RowFilter {
	const operator = operatorsFor(property)[0] ?? 'equals'
	if (!needsValue(operator)) {
		return { property: property.id, operator }
	}
	return { property: property.id, operator, value: property.type === 'checkbox' ? true : '' }
}

/** The filter after another property is picked: the operator stays when it still fits. */
export function withFilterProperty(filter: RowFilter, property: PropertyChoice): RowFilter {
	const operators = operatorsFor(property)
	const operator = operators.includes(filter.operator) ? filter.operator : (operators[0] ?? 'equals')
	if (!needsValue(operator)) {
		return { property: property.id, operator }
	}
	return { property: property.id, operator, value: property.type === 'checkbox' ? true : '' }
}

/** A typed value as the filter's: numbers as numbers (text until it reads as one). */
export function filterValueOf(text: string, property: PropertyChoice | undefined): RowFilter['value'] {
	if (property && isNumberValued(property) && text.trim() !== '') {
		const number = Number(text)
		return Number.isFinite(number) ? number : text
	}
	return text
}

// ---- problems -----------------------------------------------------------------------------

/** Messages keyed by the settings' path (`x.property`, `series.1.property`, `display.title`, `name`). */
export type ChartErrors = Record<string, string>

/**
 * A save's field errors name `config.x.property` (the body's path); the preview's problems name
 * `x.property`. Both land on the same field, so the prefix goes.
 */
export function errorsByPath(fieldErrors: readonly { field: string; message: string }[]): ChartErrors {
	const errors: ChartErrors = {}
	for (const { field, message } of fieldErrors) {
		errors[field.replace(/^config\./, '')] ??= message
	}
	return errors
}

/** Drops the errors at a path and below it, once the user has changed what they were about. */
export function withoutErrors(errors: ChartErrors, path: string): ChartErrors {
	const kept = Object.entries(errors).filter(([key]) => key !== path && !key.startsWith(`${path}.`))
	return kept.length === Object.keys(errors).length ? errors : Object.fromEntries(kept)
}

/** The builder's tab a setting is on. */
export type Section = 'data' | 'filters' | 'style' | 'share'

export function sectionOf(path: string): Section {
	const [head] = path.split('.')
	if (head === 'filters' || head === 'dateRange' || head === 'timeZone' || head === 'weekStart') {
		return 'filters'
	}
	if (head === 'display') {
		// How bars stand and stack is picked beside the type.
		return /^display\.(orientation|stacking|donut)/.test(path) ? 'data' : 'style'
	}
	if (head === 'embed' || head === 'published') {
		return 'share'
	}
	return 'data'
}
