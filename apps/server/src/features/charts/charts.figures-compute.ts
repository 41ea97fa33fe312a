import {
	type Aggregation,
	type ChartConfig,
	type ChartFigures,
	type ChartSeries,
	type DateBucket,
	type FigureSeries,
	maxScatterPoints,
	type SeriesCompare,
} from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { filtersSql } from '#src/workspaces/rows.query.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import {
	addBuckets,
	bucketLabel,
	bucketsBetween,
	bucketsOfWindow,
	bucketYearBefore,
	type DayWindow,
	dayIn,
	previousLabel,
	previousWindow,
	rangeLabel,
	relativeWindow,
} from './charts.dates.ts'
import { type AggregateGroup, aggregate, type Grouping, sampleType, scatterPoints } from './charts.figures-sql.ts'
import {
	type ChartField,
	daySql,
	fieldOf,
	type GroupingOptions,
	kindOfSample,
	sampleKindSql,
} from './charts.figures-values.ts'
import {
	applyTransforms,
	byKey,
	byNumber,
	byOptions,
	byText,
	type Category,
	emptyKey,
	type Order,
	otherKey,
	sortCategories,
} from './charts.transforms.ts'

// From a configuration to figures: plan the groupings, run the aggregation(s) in the database,
// then shape the groups into categories and series (empty buckets, order, limit, comparisons,
// transforms). The configuration is assumed valid (validateChartConfig); a reference that no
// longer resolves is a programming error here.

/** Zero-filled buckets or ranges beyond this many are not made up: only groups with rows show. */
const maxFilled = 1000

type Plan = {
	db: Db
	config: ChartConfig
	zone: string
	conditions: SQL[]
	window: DayWindow | null
	windowField: ChartField | null
	fields: Map<string, ChartField>
}

/** The value of a group with no rows: nothing counted is 0, nothing averaged is no value. */
function emptyValue(aggregation: Aggregation): number | null {
	return aggregation === 'count' || aggregation === 'count_distinct' || aggregation === 'sum' ? 0 : null
}

const aggregationNames: Record<Exclude<Aggregation, 'count'>, string> = {
	count_distinct: 'Distinct',
	sum: 'Sum of',
	average: 'Average of',
	median: 'Median of',
	min: 'Min of',
	max: 'Max of',
}

function seriesName(series: ChartSeries, field: ChartField | null): string {
	if (series.label) {
		return series.label
	}
	if (series.aggregation === 'count' || !field) {
		return 'Count'
	}
	return `${aggregationNames[series.aggregation]} ${field.name}`
}

const compareNames: Record<Exclude<SeriesCompare, 'none'>, string> = {
	previous_period: 'previous period',
	previous_year: 'previous year',
}

const numberLabel = new Intl.NumberFormat('en-US', { maximumFractionDigits: 10 })

function formatNumber(value: number): string {
	return numberLabel.format(Number(value.toPrecision(12)))
}

/** A group's label; people and relation ids stay ids (the service names them after the cache). */
function labelOf(field: ChartField, key: string, options: GroupingOptions): string {
	if (key === emptyKey) {
		return '(Empty)'
	}
	switch (field.kind) {
		case 'date':
			return bucketLabel(key, options.bucket)
		case 'number':
			if (options.rangeSize !== null) {
				return `${formatNumber(Number(key))}–${formatNumber(Number(key) + options.rangeSize)}`
			}
			return formatNumber(Number(key))
		case 'checkbox':
			return key === 'true' ? 'Checked' : 'Unchecked'
		case 'unique_id':
			return field.property?.prefix ? `${field.property.prefix}-${key}` : key
		default:
			return key
	}
}

function naturalOrder(field: ChartField): Order {
	switch (field.kind) {
		case 'date':
			return byKey
		case 'number':
		case 'unique_id':
			return byNumber
		case 'option':
			return byOptions((field.property?.options ?? []).map((option) => option.name))
		default:
			return byText
	}
}

async function planOf(db: Db, database: { id: string; properties: Property[] }, config: ChartConfig, now: Date) {
	const refs = [
		config.x?.property,
		config.breakdown?.property,
		config.dateRange?.property,
		...config.series.map((series) => series.property),
	].filter((ref): ref is string => typeof ref === 'string')
	const fields = new Map<string, ChartField>()
	for (const ref of new Set(refs)) {
		const field = fieldOf(database.properties, ref)
		if (!field) {
			throw new Error(`chart refers to ${ref}, which is not a chartable property (validate first)`)
		}
		// A formula's schema does not say what it computes: its values do.
		if (field.kind === 'unknown') {
			const type = await sampleType(db, sampleKindSql(field, database.id))
			field.kind = type ? kindOfSample(type) : 'unknown'
		}
		fields.set(ref, field)
	}
	const zone = config.timeZone
	const range = config.dateRange
	const window = range ? relativeWindow(range.range, dayIn(now, zone), config.weekStart) : null
	return {
		db,
		config,
		zone,
		conditions: [
			sql`${workspaceRows.databaseId} = ${database.id}`,
			...filtersSql(database.properties, config.filters, undefined),
		],
		window,
		windowField: range && window ? (fields.get(range.property) ?? null) : null,
		fields,
	} satisfies Plan
}

function fieldIn(plan: Plan, ref: string | null | undefined): ChartField | null {
	return ref ? (plan.fields.get(ref) ?? null) : null
}

/** Rows whose date (on the range's property) falls in the window's days. */
function windowConditions(plan: Plan, window: DayWindow | null): SQL[] {
	if (!window || !plan.windowField) {
		return []
	}
	const day = daySql(plan.windowField, plan.zone)
	return [sql`${day} >= ${window.start}::date`, sql`${day} < ${window.end}::date`]
}

function measuresOf(plan: Plan) {
	return plan.config.series.map((series) => ({
		aggregation: series.aggregation,
		field: series.aggregation === 'count' ? null : fieldIn(plan, series.property),
	}))
}

/** values by x key (emptyKey for no value), summed over breakdown groups is not done here. */
function byX(groups: AggregateGroup[]): Map<string, (number | null)[]> {
	return new Map(groups.map((group) => [group.x ?? emptyKey, group.values]))
}

export async function computeGroupedFigures(
	db: Db,
	database: { id: string; properties: Property[] },
	config: ChartConfig,
	now: Date,
): Promise<ChartFigures> {
	const plan = await planOf(db, database, config, now)
	const xConfig = config.x
	const xField = fieldIn(plan, xConfig?.property)
	if (!xConfig || !xField) {
		throw new Error('a grouped chart has an x property (validate first)')
	}
	const bucket: DateBucket = xConfig.bucket
	const xOptions: GroupingOptions = {
		zone: plan.zone,
		bucket,
		weekStart: config.weekStart,
		rangeSize: xField.kind === 'number' ? xConfig.rangeSize : null,
	}
	const x: Grouping = { field: xField, options: xOptions }
	const breakdownField = fieldIn(plan, config.breakdown?.property)
	const breakdown =
		config.breakdown && breakdownField
			? { field: breakdownField, options: { ...xOptions, rangeSize: null }, topN: config.breakdown.topN }
			: null
	const measures = measuresOf(plan)
	const conditions = [...plan.conditions, ...windowConditions(plan, plan.window)]
	const main = await aggregate(db, { conditions, x, breakdown, series: measures, zone: plan.zone })

	// Cells by x key and breakdown group.
	const cells = new Map<string, Map<string, (number | null)[]>>()
	const groupKeys = new Map<string, { g: string | null; rank: number }>()
	let hasOther = false
	for (const group of main.groups) {
		const xKey = group.x ?? emptyKey
		const groupKey = !breakdown ? '' : group.rank === null ? otherKey : (group.g ?? emptyKey)
		if (breakdown && group.rank !== null) {
			groupKeys.set(groupKey, { g: group.g, rank: group.rank })
		}
		hasOther ||= breakdown !== null && group.rank === null
		const row = cells.get(xKey) ?? new Map<string, (number | null)[]>()
		row.set(groupKey, group.values)
		cells.set(xKey, row)
	}

	// Categories: the groups with rows, gaps between dates (or ranges) filled unless hidden.
	const isDate = xField.kind === 'date'
	const isRange = xOptions.rangeSize !== null
	const present = [...cells.keys()]
	let keys = present.filter((key) => key !== emptyKey)
	if (!xConfig.hideEmpty) {
		keys = [...new Set([...filledKeys(plan, xField, keys, xOptions), ...keys])]
		if (cells.has(emptyKey)) {
			keys.push(emptyKey)
		}
	}
	const first = config.series[0]
	if (!first) {
		throw new Error('a chart has at least one series')
	}
	const totals = new Map(
		keys.map((key) => {
			const row = cells.get(key)
			const values = row ? [...row.values()].map((values) => values[0] ?? null) : []
			const total = values.some((value) => value !== null)
				? values.reduce<number>((sum, value) => sum + (value ?? 0), 0)
				: emptyValue(first.aggregation)
			return [key, total]
		}),
	)
	const sorted = sortCategories(
		keys.map((key) => ({ key, label: labelOf(xField, key, xOptions) })),
		xConfig.sort,
		naturalOrder(xField),
		totals,
	)
	const limit = xConfig.limit
	const categories: Category[] = limit !== null ? sorted.slice(0, limit) : sorted
	const isTruncated = (limit !== null && sorted.length > limit) || main.isTruncated

	const figures: FigureSeries[] = []
	const cellOf = (xKey: string, groupKey: string, index: number, aggregation: Aggregation) =>
		cells.get(xKey)?.get(groupKey)?.[index] ?? emptyValue(aggregation)
	config.series.forEach((series, index) => {
		const name = seriesName(series, measures[index]?.field ?? null)
		if (!breakdown) {
			figures.push({
				key: series.id,
				name,
				seriesId: series.id,
				group: null,
				isOther: false,
				isComparison: false,
				values: categories.map((category) => cellOf(category.key, '', index, series.aggregation)),
			})
			return
		}
		const ranked = [...groupKeys.entries()].sort((a, b) => a[1].rank - b[1].rank)
		for (const [groupKey, { g }] of ranked) {
			const label = labelOf(breakdown.field, groupKey, breakdown.options)
			figures.push({
				key: `${series.id}:${groupKey}`,
				name: config.series.length > 1 ? `${name} · ${label}` : label,
				seriesId: series.id,
				group: g,
				isOther: false,
				isComparison: false,
				values: categories.map((category) => cellOf(category.key, groupKey, index, series.aggregation)),
			})
		}
		if (hasOther && config.breakdown?.showOther) {
			figures.push({
				key: `${series.id}:${otherKey}`,
				name: config.series.length > 1 ? `${name} · Other` : 'Other',
				seriesId: series.id,
				group: 'other',
				isOther: true,
				isComparison: false,
				values: categories.map((category) => cellOf(category.key, otherKey, index, series.aggregation)),
			})
		}
	})
	figures.push(...(await comparisons(plan, x, categories, main.groups, breakdown !== null)))

	return {
		type: config.type,
		xKind: isDate ? 'date' : isRange ? 'range' : 'category',
		categories,
		series: applyTransforms(
			figures,
			new Map(config.series.map((series) => [series.id, series.transform])),
			breakdown !== null,
		),
		rowCount: main.rowCount,
		isTruncated,
		problems: [],
		computedAt: now.toISOString(),
	}
}

/** Buckets (or ranges) from the first to the last group with rows, or across the date range's window. */
function filledKeys(plan: Plan, field: ChartField, keys: string[], options: GroupingOptions): string[] {
	if (field.kind === 'date') {
		const window = plan.windowField?.ref === field.ref ? plan.window : null
		if (window) {
			const filled = bucketsOfWindow(window, options.bucket, options.weekStart, maxFilled)
			return filled.length > maxFilled ? [] : filled
		}
		const sorted = [...keys].sort()
		const [first, last] = [sorted[0], sorted.at(-1)]
		if (!first || !last) {
			return []
		}
		const filled = bucketsBetween(first, last, options.bucket, maxFilled)
		return filled.length > maxFilled ? [] : filled
	}
	if (field.kind === 'number' && options.rangeSize !== null && keys.length > 0) {
		const size = options.rangeSize
		const starts = keys.map(Number)
		const [min, max] = [Math.min(...starts), Math.max(...starts)]
		const count = Math.round((max - min) / size) + 1
		if (count > maxFilled) {
			return []
		}
		return Array.from({ length: count }, (_, index) => String(Number((min + index * size).toPrecision(12))))
	}
	return []
}

/**
 * The comparison series, one per series that asks for it, aligned to the categories shown. With a
 * date range: the same aggregation over the previous window, bucket by bucket when x is the range's
 * date (else category by category). Without one (x is a date): each bucket against the bucket
 * before it, or the same bucket a year before. With a breakdown a comparison is of the series'
 * total, not of each group: a second stack of every group would be unreadable.
 */
async function comparisons(
	plan: Plan,
	x: Grouping,
	categories: Category[],
	groups: AggregateGroup[],
	isBrokenDown: boolean,
): Promise<FigureSeries[]> {
	const config = plan.config
	const measures = measuresOf(plan)
	const wanted = config.series.filter((series) => series.compare !== 'none')
	if (wanted.length === 0) {
		return []
	}
	const kinds = [...new Set(wanted.map((series) => series.compare as Exclude<SeriesCompare, 'none'>))]
	const previous = new Map<string, { values: Map<string, (number | null)[]>; keyOf: (key: string) => string | null }>()
	const range = config.dateRange
	for (const compare of kinds) {
		if (plan.window && range) {
			const window = previousWindow(range.range, plan.window, compare)
			const result = await aggregate(plan.db, {
				conditions: [...plan.conditions, ...windowConditions(plan, window)],
				x,
				breakdown: null,
				series: measures,
				zone: plan.zone,
			})
			let keyOf = (key: string): string | null => key
			if (x.field.kind === 'date' && plan.windowField?.ref === x.field.ref) {
				const current = bucketsOfWindow(plan.window, x.options.bucket, x.options.weekStart, maxFilled)
				const before = bucketsOfWindow(window, x.options.bucket, x.options.weekStart, maxFilled)
				keyOf = (key) => before[current.indexOf(key)] ?? null
			}
			previous.set(compare, { values: byX(result.groups), keyOf })
			continue
		}
		const totals = isBrokenDown
			? (
					await aggregate(plan.db, {
						conditions: plan.conditions,
						x,
						breakdown: null,
						series: measures,
						zone: plan.zone,
					})
				).groups
			: groups
		const bucket = x.options.bucket
		previous.set(compare, {
			values: byX(totals),
			keyOf: (key) =>
				key === emptyKey
					? null
					: compare === 'previous_period'
						? addBuckets(key, bucket, -1)
						: bucketYearBefore(key, bucket),
		})
	}
	return config.series.flatMap((series, index) => {
		if (series.compare === 'none') {
			return []
		}
		const source = previous.get(series.compare)
		if (!source) {
			return []
		}
		return [
			{
				key: `${series.id}:compare`,
				name: `${seriesName(series, measures[index]?.field ?? null)} (${compareNames[series.compare]})`,
				seriesId: series.id,
				group: null,
				isOther: false,
				isComparison: true,
				values: categories.map((category) => {
					const key = source.keyOf(category.key)
					return key === null ? null : (source.values.get(key)?.[index] ?? emptyValue(series.aggregation))
				}),
			},
		]
	})
}

/** type `number`: the first series over every row that passes, and the same over the previous window. */
export async function computeKpiFigures(
	db: Db,
	database: { id: string; properties: Property[] },
	config: ChartConfig,
	now: Date,
): Promise<ChartFigures> {
	const plan = await planOf(db, database, config, now)
	const [series] = config.series
	const [measure] = measuresOf(plan)
	if (!series || !measure) {
		throw new Error('a chart has at least one series')
	}
	const current = await aggregate(db, {
		conditions: [...plan.conditions, ...windowConditions(plan, plan.window)],
		x: null,
		breakdown: null,
		series: [measure],
		zone: plan.zone,
	})
	const value = current.groups[0]?.values[0] ?? emptyValue(series.aggregation)
	let previous: number | null = null
	let previousName: string | null = null
	const range = config.dateRange
	if (series.compare !== 'none' && plan.window && range) {
		const window = previousWindow(range.range, plan.window, series.compare)
		const before = await aggregate(db, {
			conditions: [...plan.conditions, ...windowConditions(plan, window)],
			x: null,
			breakdown: null,
			series: [measure],
			zone: plan.zone,
		})
		previous = before.groups[0]?.values[0] ?? emptyValue(series.aggregation)
		previousName = previousLabel(range.range, series.compare)
	}
	const change = value === null || previous === null || previous === 0 ? null : (value - previous) / Math.abs(previous)
	const currentLabel = range ? rangeLabel(range.range) : 'All time'
	const name = seriesName(series, measure.field)
	const figures: FigureSeries[] = [
		{ key: series.id, name, seriesId: series.id, group: null, isOther: false, isComparison: false, values: [value] },
	]
	if (previousName !== null && series.compare !== 'none') {
		figures.push({
			key: `${series.id}:compare`,
			name: `${name} (${compareNames[series.compare]})`,
			seriesId: series.id,
			group: null,
			isOther: false,
			isComparison: true,
			values: [previous],
		})
	}
	return {
		type: config.type,
		xKind: 'none',
		categories: [{ key: 'all', label: currentLabel }],
		series: figures,
		kpi: { value, previous, change, currentLabel, previousLabel: previousName },
		rowCount: current.rowCount,
		isTruncated: false,
		problems: [],
		computedAt: now.toISOString(),
	}
}

/** type `scatter`: a point per row, x the x property (dates as epoch ms), y the first series' property. */
export async function computeScatterFigures(
	db: Db,
	database: { id: string; properties: Property[] },
	config: ChartConfig,
	now: Date,
): Promise<ChartFigures> {
	const plan = await planOf(db, database, config, now)
	const xField = fieldIn(plan, config.x?.property)
	const yField = fieldIn(plan, config.series[0]?.property)
	if (!xField || !yField) {
		throw new Error('a scatter chart has an x and a y property (validate first)')
	}
	const groupField = fieldIn(plan, config.breakdown?.property)
	const options: GroupingOptions = {
		zone: plan.zone,
		bucket: config.x?.bucket ?? 'month',
		weekStart: config.weekStart,
		rangeSize: null,
	}
	const result = await scatterPoints(db, {
		conditions: [...plan.conditions, ...windowConditions(plan, plan.window)],
		x: xField,
		y: yField,
		group: groupField ? { field: groupField, options } : null,
		zone: plan.zone,
		limit: maxScatterPoints,
	})
	return {
		type: config.type,
		xKind: xField.kind === 'date' ? 'date' : 'none',
		categories: [],
		series: [],
		points: result.points,
		rowCount: result.rowCount,
		isTruncated: result.isTruncated,
		problems: [],
		computedAt: now.toISOString(),
	}
}
