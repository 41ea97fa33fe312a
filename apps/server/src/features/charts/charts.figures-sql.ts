import type { Aggregation } from '@blocksmith/contracts/charts.ts'
import { and, type SQL, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import {
	type ChartField,
	distinctSql,
	elementsOf,
	elementsOfListValue,
	elementsSql,
	epochMsSql,
	type GroupingOptions,
	keySql,
	keyTextSql,
	listSql,
	listValueSql,
	numberSql,
} from './charts.figures-values.ts'

// The statements of the figures engine. One statement per set of figures: the filtered rows are
// read once into a CTE fenced with `offset 0` (ADR 009: PostgreSQL has no statistics on JSONB
// values and would otherwise plan for as many groups as rows), multi-valued properties are
// exploded laterally (a row tagged A and B counts under both), and every aggregate is computed
// in `numeric` so 0.1 + 0.2 is 0.3. Property ids and values are always bound parameters.

export type Grouping = { field: ChartField; options: GroupingOptions }

type SeriesMeasure = { aggregation: Aggregation; field: ChartField | null }

/** Where a statement reads rows: the mirror's JSONB, or the database's typed projection. */
export type RowSource = {
	from: SQL
	rowId: SQL
	/**
	 * What ends a subquery of rows: `offset 0` over JSONB, so the planner does not expect a group
	 * per row (ADR 009); nothing over the typed projection, whose statistics are real and whose
	 * aggregations PostgreSQL may then run in parallel (a fence forbids that).
	 */
	fence: SQL
}

export const mirrorSource: RowSource = {
	from: sql`${workspaceRows}`,
	rowId: sql`${workspaceRows.id}`,
	fence: sql`offset 0`,
}

export type AggregateSpec = {
	source: RowSource
	/** Database, filters and date window: which rows count. */
	conditions: SQL[]
	x: Grouping | null
	breakdown: (Grouping & { topN: number }) | null
	series: SeriesMeasure[]
	zone: string
}

export type AggregateGroup = {
	x: string | null
	/** The breakdown value (null: rows without one). */
	g: string | null
	/** 1 for the breakdown group with the largest total; null for the rows pooled into "Other". */
	rank: number | null
	values: (number | null)[]
}

/** (x, breakdown) groups brought back at most: a chart of one bar per row (grouped by title) stops here. */
const maxGroupRows = 20_000

export type AggregateResult = { groups: AggregateGroup[]; rowCount: number; isTruncated: boolean }

function rowsOf<T>(result: unknown): T[] {
	return (result as { rows: T[] }).rows
}

function toNumber(value: unknown): number | null {
	if (value === null || value === undefined) {
		return null
	}
	const number = Number(value)
	return Number.isFinite(number) ? number : null
}

/**
 * The key of a grouping (typed: grouped as it is), how a group's key becomes text, and, for
 * lists, the lateral join that explodes them.
 */
type GroupKey = { key: SQL; join: SQL; text: (key: SQL) => SQL }

function groupKeyOf(grouping: Grouping | null, alias: string): GroupKey {
	if (!grouping) {
		return { key: sql`null::text`, join: sql``, text: (key) => key }
	}
	if (grouping.field.kind === 'list') {
		const name = sql.identifier(alias)
		return {
			key: sql`${name}.v`,
			join: sql`left join lateral (${elementsSql(grouping.field)}) as ${name}(v) on true`,
			text: (key) => key,
		}
	}
	const field = grouping.field
	return { key: keySql(field, grouping.options), join: sql``, text: (key) => keyTextSql(field, key) }
}

function measureSql(measure: SeriesMeasure, zone: string): SQL {
	const field = measure.field
	if (measure.aggregation === 'count' || !field) {
		return sql`null::text`
	}
	if (measure.aggregation === 'count_distinct') {
		return field.kind === 'list' ? listSql(field) : distinctSql(field, zone)
	}
	return numberSql(field)
}

/** The aggregate of one series over the rows of a group; `column` holds its measure. */
function aggregateSql(measure: SeriesMeasure, column: SQL): SQL {
	switch (measure.aggregation) {
		case 'count':
			return sql`count(*)`
		case 'count_distinct':
			if (measure.field?.kind === 'list') {
				// The group's lists concatenated, then their distinct elements.
				return sql`(select count(distinct l.v) from jsonb_array_elements(jsonb_agg(${column})) as a(arr)
					cross join lateral (${elementsOf(sql`a.arr`)}) as l(v))`
			}
			return sql`count(distinct ${column})`
		case 'sum':
			// A group with rows but no numbers sums to 0, as an empty bucket does.
			return sql`coalesce(sum(${column}), 0)`
		case 'average':
			return sql`avg(${column})`
		case 'median':
			// percentile_cont works in double precision; the mean of the two middle values stays exact.
			return sql`((percentile_disc(0.5) within group (order by ${column}) + percentile_disc(0.5) within group (order by ${column} desc)) / 2)`
		case 'min':
			return sql`min(${column})`
		case 'max':
			return sql`max(${column})`
	}
}

/**
 * Counts and sums add up, so the rows are read once and grouped by x as stored (a list whole:
 * rows share few distinct lists) and the breakdown. A list is exploded only over those groups,
 * and the same groups give the ranking of the breakdown (a row tagged A and B counts once towards
 * its group's total) and the row count: one pass over the rows, as a typed table would need.
 */
function additiveStatement(spec: AggregateSpec, x: GroupKey, g: GroupKey, measures: SQL[], limit: number): SQL {
	const listX = spec.x?.field.kind === 'list' ? spec.x.field : null
	const column = (prefix: string, index: number) => sql.identifier(`${prefix}${index}`)
	const partials = spec.series.map(
		(measure, index) => sql`${aggregateSql(measure, measureColumn('b', index))} as ${column('p', index)}`,
	)
	const sums = (alias: string, from: string, to: string) =>
		spec.series.map((_, index) => sql`sum(${sql.identifier(alias)}.${column(from, index)}) as ${column(to, index)}`)
	const cells = listX
		? sql`select e.v as x, p.g, ${sql.join(sums('p', 'p', 'c'), sql`, `)}
			from pre as p left join lateral (${elementsOfListValue(listX, sql`p.x`)}) as e(v) on true
			group by e.v, p.g`
		: sql`select p.x, p.g, ${sql.join(
				spec.series.map((_, index) => sql`p.${column('p', index)} as ${column('c', index)}`),
				sql`, `,
			)} from pre as p`
	const totals = spec.series.map((_, index) => sql`(sum(c.${column('c', index)}))::text as ${column('a', index)}`)
	return sql`with pre as (
			select b.x, b.g, ${sql.join(partials, sql`, `)}, count(*) as n
			from (
				select ${listX ? listValueSql(listX) : x.key} as x, ${g.key} as g, ${sql.join(measures, sql`, `)}
				from ${spec.source.from}
				where ${and(...spec.conditions) ?? sql`true`}
				${spec.source.fence}
			) as b
			group by b.x, b.g
		),
		cells as (${cells}),
		ranked as (
			select p.g, row_number() over (
				order by sum(p.p0) desc nulls last, ${g.text(sql`p.g`)} collate "C" asc nulls last
			) as rank
			from pre as p
			group by p.g
			order by rank
			limit ${spec.breakdown?.topN ?? 1}
		)
		select ${x.text(sql`c.x`)} as x, ${g.text(sql`k.g`)} as g, k.rank, ${sql.join(totals, sql`, `)},
			(select sum(n) from pre) as row_count
		from cells as c left join ranked as k on k.g is not distinct from c.g
		group by c.x, k.g, k.rank
		order by c.x nulls last, k.rank nulls last
		limit ${limit}`
}

function measureColumn(alias: string, index: number): SQL {
	return sql`${sql.identifier(alias)}.${sql.identifier(`m${index}`)}`
}

/**
 * Every series aggregated per x group and breakdown group. With a breakdown, the groups beyond the
 * top N (ranked by the first series over each group's rows) come back pooled as one group with a
 * null rank, aggregated over their rows together — an average of "Other" is the average of its
 * rows, not a sum of averages.
 */
export async function aggregate(db: Db, spec: AggregateSpec): Promise<AggregateResult> {
	const x = groupKeyOf(spec.x, 'chart_x')
	const g = groupKeyOf(spec.breakdown, 'chart_g')
	const measures = spec.series.map(
		(measure, index) => sql`${measureSql(measure, spec.zone)} as ${sql.identifier(`m${index}`)}`,
	)
	const aggregates = spec.series.map(
		(measure, index) =>
			sql`(${aggregateSql(measure, measureColumn('b', index))})::text as ${sql.identifier(`a${index}`)}`,
	)
	const first = spec.series[0]
	if (!first) {
		throw new Error('a chart has at least one series')
	}
	const base = sql`base as (
		select ${spec.source.rowId} as row_id, ${x.key} as x, ${g.key} as g, ${sql.join(measures, sql`, `)}
		from ${spec.source.from} ${x.join} ${g.join}
		where ${and(...spec.conditions) ?? sql`true`}
		${spec.source.fence}
	)`
	// A list exploded by x or breakdown repeats its row; otherwise every base row is a row, and
	// counting them needs no distinct (a sort of every row id, the costliest step of a plain chart).
	const isExploded = spec.x?.field.kind === 'list' || spec.breakdown?.field.kind === 'list'
	const rowCount = isExploded
		? sql`(select count(distinct row_id) from base) as row_count`
		: sql`(select count(*) from base) as row_count`
	const limit = maxGroupRows + 1
	// Each row once (nothing exploded): one pass, grouped as a plain table would be.
	const rowsRead = sql`select ${x.key} as x, ${g.key} as g, ${sql.join(measures, sql`, `)}
		from ${spec.source.from}
		where ${and(...spec.conditions) ?? sql`true`}
		${spec.source.fence}`
	const isAdditive = spec.series.every((measure) => measure.aggregation === 'count' || measure.aggregation === 'sum')
	let statement: SQL
	if (!isExploded && !spec.breakdown) {
		statement = sql`select ${x.text(sql`b.x`)} as x, null::text as g, 1 as rank, ${sql.join(aggregates, sql`, `)},
			sum(count(*)) over () as row_count
			from (${rowsRead}) as b
			group by b.x
			order by b.x nulls last
			limit ${limit}`
	} else if (isAdditive && spec.breakdown?.field.kind !== 'list') {
		statement = additiveStatement(spec, x, g, measures, limit)
	} else if (spec.breakdown) {
		statement = sql`with ${base},
			ranked as (
				select s.g, row_number() over (
					order by ${aggregateSql(first, measureColumn('s', 0))} desc nulls last, ${g.text(sql`s.g`)} collate "C" asc nulls last
				) as rank
				from (select distinct on (row_id, g) * from base) as s
				group by s.g
				order by rank
				limit ${spec.breakdown.topN}
			)
			select ${x.text(sql`b.x`)} as x, ${g.text(sql`k.g`)} as g, k.rank, ${sql.join(aggregates, sql`, `)}, ${rowCount}
			from base as b left join ranked as k on k.g is not distinct from b.g
			group by b.x, k.g, k.rank
			order by b.x nulls last, k.rank nulls last
			limit ${limit}`
	} else {
		statement = sql`with ${base}
			select ${x.text(sql`b.x`)} as x, null::text as g, 1 as rank, ${sql.join(aggregates, sql`, `)}, ${rowCount}
			from base as b
			group by b.x
			order by b.x nulls last
			limit ${limit}`
	}
	const rows = rowsOf<Record<string, unknown>>(await db.execute(statement))
	return {
		groups: rows.slice(0, maxGroupRows).map((row) => ({
			x: row.x === null || row.x === undefined ? null : String(row.x),
			g: row.g === null || row.g === undefined ? null : String(row.g),
			rank: toNumber(row.rank),
			values: spec.series.map((_, index) => toNumber(row[`a${index}`])),
		})),
		rowCount: toNumber(rows[0]?.row_count) ?? 0,
		isTruncated: rows.length > maxGroupRows,
	}
}

export type ScatterSpec = {
	conditions: SQL[]
	x: ChartField
	y: ChartField
	group: Grouping | null
	zone: string
	limit: number
}

export type ScatterPoint = { x: number; y: number; group: string | null; label: string }

/**
 * One point per row with both numbers (a row with several breakdown values is a point in each),
 * in a stable order (x, y, row id) so a cut at `limit` always keeps the same points.
 */
export async function scatterPoints(
	db: Db,
	spec: ScatterSpec,
): Promise<{ points: ScatterPoint[]; isTruncated: boolean; rowCount: number }> {
	const g = groupKeyOf(spec.group, 'chart_g')
	const x = spec.x.kind === 'date' ? epochMsSql(spec.x, spec.zone) : numberSql(spec.x)
	const statement = sql`
		select s.x::text as x, s.y::text as y, s.g, s.label
		from (
			select ${x} as x, ${numberSql(spec.y)} as y, ${g.text(g.key)} as g, ${workspaceRows.title} as label, ${workspaceRows.id} as id
			from ${workspaceRows} ${g.join}
			where ${and(...spec.conditions)}
			offset 0
		) as s
		where s.x is not null and s.y is not null
		order by s.x, s.y, s.id collate "C", s.g collate "C" nulls first
		limit ${spec.limit + 1}`
	const counted = sql`select count(*) as n from ${workspaceRows} where ${and(...spec.conditions)}`
	const rows = rowsOf<Record<string, unknown>>(await db.execute(statement))
	const [count] = rowsOf<{ n: unknown }>(await db.execute(counted))
	const points = rows.slice(0, spec.limit).map((row) => ({
		x: Number(row.x),
		y: Number(row.y),
		group: row.g === null || row.g === undefined ? null : String(row.g),
		label: String(row.label ?? ''),
	}))
	return { points, isTruncated: rows.length > spec.limit, rowCount: toNumber(count?.n) ?? 0 }
}

/**
 * Runs the statements of one set of figures in a read-only snapshot (a comparison sees the same
 * rows as its figures) without JIT: PostgreSQL cannot estimate JSONB values or lateral lists, so
 * it thinks these small aggregations expensive and spends over a second compiling each one —
 * measured on 320 rows: 1.2 s with JIT, 10 ms without. PGlite has no JIT and accepts the setting.
 */
export function inSnapshot<T>(db: Db, run: (db: Db) => Promise<T>): Promise<T> {
	return db.transaction(
		async (tx) => {
			await tx.execute(sql`set local jit = off`)
			return run(tx as unknown as Db)
		},
		{ isolationLevel: 'repeatable read', accessMode: 'read only' },
	)
}

/** What an untyped formula or rollup mostly holds, as a JSON type (or `date`). */
export async function sampleType(db: Db, statement: SQL): Promise<string | undefined> {
	const [row] = rowsOf<{ type: string }>(await db.execute(statement))
	return row?.type
}
