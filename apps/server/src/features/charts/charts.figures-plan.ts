import type { Aggregation, ChartConfig, ChartSeries, SeriesCompare } from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { and, type SQL, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { filtersSql } from '#src/workspaces/rows.query.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { type DayWindow, dayIn, relativeWindow } from './charts.dates.ts'
import { mirrorSource, type RowSource, sampleType } from './charts.figures-sql.ts'
import {
	type ChartField,
	daySql,
	fieldOf,
	kindOfSample,
	projectionAlias,
	sampleKindSql,
} from './charts.figures-values.ts'
import { chartRefs, currentProjection } from './charts.projection.ts'

// What every kind of figures starts from: the configuration's references resolved to fields
// (what an untyped formula computes is learnt from its values), the conditions every row must
// meet (its database, the chart's filters) and the date range's window of days in the chart's
// zone; and the names of series. The configuration is assumed valid (validateChartConfig): a
// reference that no longer resolves is a programming error here.

/** Whether figures may read the typed projection, and whether they found it missing or behind. */
export type ProjectionRead = {
	useProjection: boolean
	wasStale: boolean
	wanted?: string[]
	/** Only these rows count: a condition on workspace_rows (a portal member's grant, decision 038). */
	scope?: SQL | undefined
}

export type Plan = {
	db: Db
	/** The mirror, or the database's typed projection when it is current and holds every field. */
	source: RowSource
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

export async function planOf(
	db: Db,
	database: { id: string; properties: Property[] },
	config: ChartConfig,
	now: Date,
	read: ProjectionRead,
) {
	const refs = chartRefs(config)
	const fields = new Map<string, ChartField>()
	/** Fields a projection can hold (an untyped formula cannot: its kind is learnt from its values). */
	const projectable = new Set<string>()
	for (const ref of refs) {
		const field = fieldOf(database.properties, ref)
		if (!field) {
			throw new Error(`chart refers to ${ref}, which is not a chartable property (validate first)`)
		}
		// A formula's schema does not say what it computes: its values do.
		if (field.kind !== 'unknown') {
			projectable.add(ref)
		} else {
			const type = await sampleType(db, sampleKindSql(field, database.id))
			field.kind = type ? kindOfSample(type) : 'unknown'
		}
		fields.set(ref, field)
	}
	const zone = config.timeZone
	const range = config.dateRange
	const window = range ? relativeWindow(range.range, dayIn(now, zone), config.weekStart) : null
	const filters = [...filtersSql(database.properties, config.filters, undefined), ...(read.scope ? [read.scope] : [])]
	const base = {
		db,
		config,
		zone,
		window,
		windowField: range && window ? (fields.get(range.property) ?? null) : null,
		fields,
	}
	const projection = read.useProjection ? await currentProjection(db, database.id) : null
	const isCovered = projection !== null && [...fields.keys()].every((ref) => projection.columns[ref])
	if (!projection || !isCovered) {
		// Not built, behind the rows or without a field it could hold: a build is asked for, with
		// these fields. Without a field it cannot hold (an untyped formula) it is as current as it gets.
		const isMissingField = [...projectable].some((ref) => !projection?.columns[ref])
		if (read.useProjection && (!projection || isMissingField)) {
			read.wasStale = true
			read.wanted = [...projectable]
		}
		return {
			...base,
			source: mirrorSource,
			conditions: [sql`${workspaceRows.databaseId} = ${database.id}`, ...filters],
		} satisfies Plan
	}
	for (const [ref, field] of fields) {
		const columns = projection.columns[ref]
		if (columns) {
			field.projected = columns
		}
	}
	const alias = sql.identifier(projectionAlias)
	const rowId = sql`${alias}.row_id`
	// Filters are compiled over the mirror's values (rows.query.ts): rows that pass them, by id.
	const filtered =
		filters.length > 0
			? [
					sql`${rowId} in (select ${workspaceRows.id} from ${workspaceRows} where ${and(sql`${workspaceRows.databaseId} = ${database.id}`, ...filters)})`,
				]
			: []
	return {
		...base,
		source: { from: sql`${sql.identifier(projection.tableName)} as ${alias}`, rowId, fence: sql`` },
		conditions: filtered,
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
