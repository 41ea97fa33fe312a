import { type DateBucket, rowTimestampProperties } from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { type SQL, sql } from 'drizzle-orm'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import type { WeekStart } from './charts.dates.ts'

// How the figures engine reads one property of a mirrored row. Every SQL expression over a
// row's values is made here and nowhere else, so a typed projection of hot properties can later
// replace the JSONB reads without touching the grouping, filtering or aggregation.

/**
 * What a property holds, as a chart reads it. `unknown` is a formula (Notion gives no result
 * type in the schema) or rollup whose kind is learnt from its values before a query is built.
 */
export type ValueKind = 'date' | 'number' | 'checkbox' | 'option' | 'text' | 'list' | 'unique_id' | 'unknown'

/** A property of the chart's database, or one of the row's own timestamps. */
export type ChartField = {
	ref: string
	name: string
	kind: ValueKind
	property: Property | null
	/** created_time and last_edited_time are columns of the row, not values. */
	column: typeof workspaceRows.createdTime | typeof workspaceRows.lastEditedTime | null
	/**
	 * Set when the figures read the database's typed projection (charts.projection.ts) instead of
	 * JSONB: the column holding this field's value there (dates: its day and its instant).
	 */
	projected?: { value: string; instant?: string }
}

/** The projection's alias in the figures' statements. */
export const projectionAlias = 'chart_rows'

function projectedColumn(name: string): SQL {
	return sql`${sql.identifier(projectionAlias)}.${sql.identifier(name)}`
}

const listTypes = new Set(['multi_select', 'people', 'relation', 'created_by', 'last_edited_by'])
const textTypes = new Set(['title', 'rich_text', 'url', 'email', 'phone_number'])
const resultKinds: Record<string, ValueKind> = {
	number: 'number',
	date: 'date',
	boolean: 'checkbox',
	string: 'text',
	array: 'list',
}

/** The kind of a property, or null for what a chart cannot read (files, buttons, places…). */
export function kindOfProperty(property: Property): ValueKind | null {
	switch (property.type) {
		case 'date':
		case 'created_time':
		case 'last_edited_time':
			return 'date'
		case 'number':
			return 'number'
		case 'checkbox':
			return 'checkbox'
		case 'select':
		case 'status':
			return 'option'
		case 'unique_id':
			return 'unique_id'
		case 'formula':
		case 'rollup':
			return resultKinds[property.resultType ?? ''] ?? 'unknown'
		default:
			if (listTypes.has(property.type)) {
				return 'list'
			}
			return textTypes.has(property.type) ? 'text' : null
	}
}

/** Null when the reference names nothing the chart can read (the property is gone or unchartable). */
export function fieldOf(properties: Property[], ref: string): ChartField | null {
	if ((rowTimestampProperties as readonly string[]).includes(ref)) {
		return {
			ref,
			name: ref === 'created_time' ? 'Created time' : 'Last edited time',
			kind: 'date',
			property: null,
			column: ref === 'created_time' ? workspaceRows.createdTime : workspaceRows.lastEditedTime,
		}
	}
	const property = properties.find((candidate) => candidate.id === ref)
	const kind = property ? kindOfProperty(property) : null
	if (!property || !kind) {
		return null
	}
	const column =
		property.type === 'created_time'
			? workspaceRows.createdTime
			: property.type === 'last_edited_time'
				? workspaceRows.lastEditedTime
				: null
	return { ref, name: property.name, kind, property, column }
}

function rawOf(field: ChartField): SQL {
	return sql`(${workspaceRows.values} -> ${field.ref})`
}

/**
 * A sample of the field's values says what an untyped formula or rollup computes: its most common
 * JSON type among up to 200 rows with a value (a date is an object with a start).
 */
export function sampleKindSql(field: ChartField, databaseId: string): SQL {
	const raw = rawOf(field)
	return sql`
		select s.t as "type" from (
			select case when jsonb_typeof(${raw}) = 'object' and ${raw} ? 'start' then 'date' else jsonb_typeof(${raw}) end as t
			from ${workspaceRows}
			where ${workspaceRows.databaseId} = ${databaseId} and jsonb_typeof(${raw}) <> 'null'
			limit 200
		) as s
		group by s.t order by count(*) desc, s.t limit 1`
}

export function kindOfSample(type: string | undefined): ValueKind {
	return resultKinds[type ?? ''] ?? (type === 'date' ? 'date' : 'text')
}

/** The number, guarded like rows.query.ts: anything but a JSON number is no number. */
export function numberSql(field: ChartField): SQL {
	if (field.projected) {
		return projectedColumn(field.projected.value)
	}
	if (field.kind === 'unique_id') {
		const raw = sql`(${rawOf(field)} -> 'number')`
		return sql`(case when jsonb_typeof(${raw}) = 'number' then (${raw})::text::numeric end)`
	}
	const raw = rawOf(field)
	return sql`(case when jsonb_typeof(${raw}) = 'number' then (${raw})::text::numeric end)`
}

/**
 * The row's calendar day in `zone`. A bare `YYYY-MM-DD` is that day wherever the chart is read;
 * a date-time (always with an offset in the mirror) is moved into the zone first.
 */
export function daySql(field: ChartField, zone: string): SQL {
	if (field.projected?.instant) {
		const instant = projectedColumn(field.projected.instant)
		return sql`coalesce(${projectedColumn(field.projected.value)}, (${instant} at time zone ${zone})::date)`
	}
	if (field.column) {
		return sql`((${field.column} at time zone ${zone})::date)`
	}
	const start = sql`(${rawOf(field)} ->> 'start')`
	return sql`(case
		when ${start} ~ '^\\d{4}-\\d{2}-\\d{2}$' then (${start})::date
		when ${start} ~ '^\\d{4}-\\d{2}-\\d{2}T' then ((${start})::timestamptz at time zone ${zone})::date
	end)`
}

/** The instant of a date as epoch milliseconds (a bare day is its midnight in `zone`), for scatter. */
export function epochMsSql(field: ChartField, zone: string): SQL {
	if (field.projected?.instant) {
		const day = projectedColumn(field.projected.value)
		const instant = projectedColumn(field.projected.instant)
		return sql`(extract(epoch from coalesce(${day}::timestamp at time zone ${zone}, ${instant})) * 1000)`
	}
	if (field.column) {
		return sql`(extract(epoch from ${field.column}) * 1000)`
	}
	const start = sql`(${rawOf(field)} ->> 'start')`
	return sql`(extract(epoch from case
		when ${start} ~ '^\\d{4}-\\d{2}-\\d{2}$' then ((${start})::date::timestamp at time zone ${zone})
		when ${start} ~ '^\\d{4}-\\d{2}-\\d{2}T' then (${start})::timestamptz
	end) * 1000)`
}

/** The first day of the bucket a day falls in; weeks start on Monday (ISO) or Sunday. */
function bucketSql(day: SQL, bucket: DateBucket, weekStart: WeekStart): SQL {
	if (bucket === 'week' && weekStart === 'sunday') {
		return sql`((date_trunc('week', (${day} + 1)::timestamp) - interval '1 day')::date)`
	}
	return sql`(date_trunc(${bucket}, (${day})::timestamp)::date)`
}

/** A non-empty text, or null: empty strings are no value, as in Notion. */
export function textSql(field: ChartField): SQL {
	if (field.projected) {
		return projectedColumn(field.projected.value)
	}
	const raw = rawOf(field)
	return sql`nullif(case when jsonb_typeof(${raw}) in ('string', 'number', 'boolean') then ${raw} #>> '{}' end, '')`
}

export function checkboxSql(field: ChartField): SQL {
	if (field.projected) {
		return projectedColumn(field.projected.value)
	}
	return sql`coalesce(${rawOf(field)} = 'true'::jsonb, false)`
}

/**
 * The distinct elements of a list value as text, a set to join laterally (zero elements: no
 * value). Rollup arrays hold any value: a date counts by its start, nested lists are skipped.
 */
export function elementsSql(field: ChartField): SQL {
	return elementsOfListValue(field, listValueSql(field))
}

/** A row's whole list as stored (projected: a text[]; JSONB: the raw value), to group rows by before exploding. */
export function listValueSql(field: ChartField): SQL {
	return field.projected ? projectedColumn(field.projected.value) : rawOf(field)
}

/** `elementsSql` over a list read earlier with `listValueSql`, e.g. a column of a grouped subquery. */
export function elementsOfListValue(field: ChartField, value: SQL): SQL {
	if (field.projected) {
		// Stored as the distinct non-empty elements already.
		return sql`select t.v from unnest(${value}) as t(v)`
	}
	return elementsOf(value)
}

export function elementsOf(raw: SQL): SQL {
	const list = sql`(case when jsonb_typeof(${raw}) = 'array' then ${raw} else '[]'::jsonb end)`
	return sql`select distinct t.v from (
		select nullif(case jsonb_typeof(e.v)
			when 'object' then e.v ->> 'start'
			when 'array' then null
			when 'null' then null
			else e.v #>> '{}'
		end, '') as v
		from jsonb_array_elements(${list}) as e(v)
	) as t where t.v is not null`
}

/** How a field groups rows: dates by bucket, numbers by value or range, the rest by value. */
export type GroupingOptions = { zone: string; bucket: DateBucket; weekStart: WeekStart; rangeSize: number | null }

/**
 * The group key of a row, typed (a bucket's first day, a number, a checkbox, a text), or null
 * for "no value"; `keyTextSql` turns a group's key into text once per group, not once per row.
 * Lists are not here: they are exploded by a lateral join on `elementsSql` (one group per value).
 */
export function keySql(field: ChartField, options: GroupingOptions): SQL {
	switch (field.kind) {
		case 'date':
			return bucketSql(daySql(field, options.zone), options.bucket, options.weekStart)
		case 'number':
		case 'unique_id': {
			const number = numberSql(field)
			if (options.rangeSize !== null && field.kind === 'number') {
				const size = sql`(${String(options.rangeSize)})::numeric`
				return sql`(floor(${number} / ${size}) * ${size})`
			}
			return number
		}
		case 'checkbox':
			return checkboxSql(field)
		case 'list':
			throw new Error('list values are grouped through elementsSql')
		default:
			return textSql(field)
	}
}

/** A group's key as text: days `YYYY-MM-DD`, numbers without trailing zeros (1.5 and 1.50 are one group). */
export function keyTextSql(field: ChartField, key: SQL): SQL {
	switch (field.kind) {
		case 'date':
			return sql`to_char(${key}, 'YYYY-MM-DD')`
		case 'number':
		case 'unique_id':
			return sql`trim_scale(${key})::text`
		case 'checkbox':
			return sql`(${key})::text`
		default:
			return key
	}
}

/**
 * What `count_distinct` counts for a non-list field: its text, its number, its calendar day in
 * the chart's zone (dates), or checked/unchecked.
 */
export function distinctSql(field: ChartField, zone: string): SQL {
	switch (field.kind) {
		case 'date':
			return sql`(${daySql(field, zone)})::text`
		case 'number':
		case 'unique_id':
			return sql`trim_scale(${numberSql(field)})::text`
		case 'checkbox':
			return sql`(${checkboxSql(field)})::text`
		default:
			return textSql(field)
	}
}

/** The raw JSON of a list field, for distinct counts over all of a group's lists. */
export function listSql(field: ChartField): SQL {
	if (field.projected) {
		return sql`to_jsonb(${projectedColumn(field.projected.value)})`
	}
	return rawOf(field)
}

/** A date's two stored forms for the projection: a bare day, or an instant (one of them is null). */
export function datePartsSql(field: ChartField): { day: SQL; instant: SQL } {
	if (field.column) {
		return { day: sql`null::date`, instant: sql`${field.column}` }
	}
	const start = sql`(${rawOf(field)} ->> 'start')`
	return {
		day: sql`(case when ${start} ~ '^\\d{4}-\\d{2}-\\d{2}$' then (${start})::date end)`,
		instant: sql`(case when ${start} ~ '^\\d{4}-\\d{2}-\\d{2}T' then (${start})::timestamptz end)`,
	}
}
