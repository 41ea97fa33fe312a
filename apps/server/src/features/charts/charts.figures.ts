import { seriesNumberFormat } from '@blocksmith/contracts/chart-format.ts'
import {
	type ChartConfig,
	type ChartFigures,
	type FigureSeries,
	maxScatterPoints,
} from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import type { SQL } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { previousLabel, previousWindow, rangeLabel } from './charts.dates.ts'
import { computeGroupedFigures } from './charts.figures-compute.ts'
import {
	compareNames,
	emptyValue,
	fieldIn,
	measuresOf,
	type ProjectionRead,
	planOf,
	seriesName,
	windowConditions,
} from './charts.figures-plan.ts'
import { aggregate, inSnapshot, scatterPoints } from './charts.figures-sql.ts'
import type { GroupingOptions } from './charts.figures-values.ts'

// The figures engine's entry: a chart configuration becomes figures computed in the database
// from the mirror (never by loading rows into Node). Parts: charts.figures-values.ts reads a
// property (the one place that knows the JSONB shapes), charts.figures-sql.ts builds and runs
// the statements, charts.figures-plan.ts resolves a configuration against its database,
// charts.figures-compute.ts shapes groups into figures, charts.transforms.ts
// orders and transforms them, charts.figures-checks.ts says what no longer fits the database.

export { validateChartConfig } from './charts.figures-checks.ts'

/**
 * The figures of a valid configuration (check it with validateChartConfig first: references
 * that do not resolve are a programming error here). `now` fixes "today" for relative ranges.
 */
export async function computeFigures(
	db: Db,
	database: { id: string; properties: Property[] },
	config: ChartConfig,
	options: {
		now: Date
		/** Read the database's typed projection when it is current (charts.projection.ts). */
		useProjection?: boolean
		/** Called when the projection was missing or behind the rows: time to build it. */
		onProjectionStale?: (wanted: string[]) => void
		/** Only the rows this condition on workspace_rows grants (a portal member's). */
		scope?: SQL
	},
): Promise<ChartFigures> {
	const read: ProjectionRead = { useProjection: options.useProjection ?? false, wasStale: false, scope: options.scope }
	const run = () =>
		inSnapshot(db, (snapshot) => {
			switch (config.type) {
				case 'number':
					return computeKpiFigures(snapshot, database, config, options.now, read)
				case 'scatter':
					// A point per row with its title: read from the mirror, which has the titles.
					return computeScatterFigures(snapshot, database, config, options.now, {
						useProjection: false,
						wasStale: false,
						scope: options.scope,
					})
				default:
					// bar, line, area, pie, and table (the same figures, shown as a pivot).
					return computeGroupedFigures(snapshot, database, config, options.now, read)
			}
		})
	let figures: ChartFigures
	try {
		figures = await run()
	} catch (error) {
		// A rebuild replaced the projection's table between its registry read and the query: read the mirror.
		if (!read.useProjection || !isUndefinedTable(error)) {
			throw error
		}
		read.useProjection = false
		read.wasStale = true
		figures = await run()
	}
	if (read.wasStale) {
		options.onProjectionStale?.(read.wanted ?? [])
	}
	return withFormats(figures, config)
}

/** Each series with the format its values read in (a count on a chart of money is no money). */
function withFormats(figures: ChartFigures, config: ChartConfig): ChartFigures {
	const chart = config.display.numberFormat
	const formats = new Map(config.series.map((series) => [series.id, seriesNumberFormat(chart, series)]))
	return { ...figures, series: figures.series.map((s) => ({ ...s, format: formats.get(s.seriesId) ?? chart })) }
}

function isUndefinedTable(error: unknown): boolean {
	const code =
		(error as { code?: unknown; cause?: { code?: unknown } }).code ??
		(error as { cause?: { code?: unknown } }).cause?.code
	return code === '42P01'
}

/** type `number`: the first series over every row that passes, and the same over the previous window. */
async function computeKpiFigures(
	db: Db,
	database: { id: string; properties: Property[] },
	config: ChartConfig,
	now: Date,
	read: ProjectionRead,
): Promise<ChartFigures> {
	const plan = await planOf(db, database, config, now, read)
	const [series] = config.series
	const [measure] = measuresOf(plan)
	if (!series || !measure) {
		throw new Error('a chart has at least one series')
	}
	const current = await aggregate(db, {
		source: plan.source,
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
			source: plan.source,
			conditions: [...plan.conditions, ...windowConditions(plan, window)],
			x: null,
			breakdown: null,
			series: [measure],
			zone: plan.zone,
		})
		previous = before.groups[0]?.values[0] ?? emptyValue(series.aggregation)
		previousName = previousLabel(range.range, series.compare)
	}
	// From nothing to something is no percentage: null, and the drawing says "up from 0".
	const change =
		value === null || previous === null
			? null
			: previous === 0
				? value === 0
					? 0
					: null
				: (value - previous) / Math.abs(previous)
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
async function computeScatterFigures(
	db: Db,
	database: { id: string; properties: Property[] },
	config: ChartConfig,
	now: Date,
	read: ProjectionRead,
): Promise<ChartFigures> {
	const plan = await planOf(db, database, config, now, read)
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
