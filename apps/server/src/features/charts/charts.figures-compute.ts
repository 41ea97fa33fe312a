import type {
	Aggregation,
	ChartConfig,
	ChartFigures,
	DateBucket,
	FigureSeries,
	SeriesCompare,
} from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import type { Db } from '#src/db/client.ts'
import {
	addBuckets,
	bucketLabel,
	bucketsBetween,
	bucketsOfWindow,
	bucketYearBefore,
	previousWindow,
} from './charts.dates.ts'
import {
	compareNames,
	emptyValue,
	fieldIn,
	measuresOf,
	type Plan,
	type ProjectionRead,
	planOf,
	seriesName,
	windowConditions,
} from './charts.figures-plan.ts'
import { type AggregateGroup, aggregate, type Grouping } from './charts.figures-sql.ts'
import type { ChartField, GroupingOptions } from './charts.figures-values.ts'
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

// Bar, line, area, pie and table figures: x groups (date buckets, ranges, values) by series,
// each series possibly broken down by a second property. One aggregation in the database, then
// the groups are shaped here: empty buckets filled, categories ordered and limited, comparison
// series added, transforms applied.

/** Zero-filled buckets or ranges beyond this many are not made up: only groups with rows show. */
const maxFilled = 1000

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

/** values by x key (emptyKey for no value), summed over breakdown groups is not done here. */
function byX(groups: AggregateGroup[]): Map<string, (number | null)[]> {
	return new Map(groups.map((group) => [group.x ?? emptyKey, group.values]))
}

export async function computeGroupedFigures(
	db: Db,
	database: { id: string; properties: Property[] },
	config: ChartConfig,
	now: Date,
	read: ProjectionRead,
): Promise<ChartFigures> {
	const plan = await planOf(db, database, config, now, read)
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
	const main = await aggregate(db, { source: plan.source, conditions, x, breakdown, series: measures, zone: plan.zone })

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
				source: plan.source,
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
						source: plan.source,
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
