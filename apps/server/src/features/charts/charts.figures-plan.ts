import type { Aggregation, ChartConfig, ChartSeries, SeriesCompare } from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { filtersSql } from '#src/workspaces/rows.query.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { type DayWindow, dayIn, relativeWindow } from './charts.dates.ts'
import { sampleType } from './charts.figures-sql.ts'
import { type ChartField, daySql, fieldOf, kindOfSample, sampleKindSql } from './charts.figures-values.ts'

// What every kind of figures starts from: the configuration's references resolved to fields
// (what an untyped formula computes is learnt from its values), the conditions every row must
// meet (its database, the chart's filters) and the date range's window of days in the chart's
// zone; and the names of series. The configuration is assumed valid (validateChartConfig): a
// reference that no longer resolves is a programming error here.

export type Plan = {
	db: Db
	config: ChartConfig
	zone: string
	conditions: SQL[]
	window: DayWindow | null
	windowField: ChartField | null
	fields: Map<string, ChartField>
}

/** The value of a group with no rows: nothing counted is 0, nothing averaged is no value. */
export function emptyValue(aggregation: Aggregation): number | null {
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

export function seriesName(series: ChartSeries, field: ChartField | null): string {
	if (series.label) {
		return series.label
	}
	if (series.aggregation === 'count' || !field) {
		return 'Count'
	}
	return `${aggregationNames[series.aggregation]} ${field.name}`
}

export const compareNames: Record<Exclude<SeriesCompare, 'none'>, string> = {
	previous_period: 'previous period',
	previous_year: 'previous year',
}

export async function planOf(db: Db, database: { id: string; properties: Property[] }, config: ChartConfig, now: Date) {
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

export function fieldIn(plan: Plan, ref: string | null | undefined): ChartField | null {
	return ref ? (plan.fields.get(ref) ?? null) : null
}

/** Rows whose date (on the range's property) falls in the window's days. */
export function windowConditions(plan: Plan, window: DayWindow | null): SQL[] {
	if (!window || !plan.windowField) {
		return []
	}
	const day = daySql(plan.windowField, plan.zone)
	return [sql`${day} >= ${window.start}::date`, sql`${day} < ${window.end}::date`]
}

export function measuresOf(plan: Plan) {
	return plan.config.series.map((series) => ({
		aggregation: series.aggregation,
		field: series.aggregation === 'count' ? null : fieldIn(plan, series.property),
	}))
}
