import {
	type Property,
	type RowFilter,
	type RowSort,
	rowFilterSchema,
	rowSortSchema,
} from '@blocksmith/contracts/workspaces.ts'
import { type SQL, sql } from 'drizzle-orm'
import { z } from 'zod'
import { AppError } from '#src/lib/errors.ts'
import { workspaceRows } from './workspaces.schema.ts'

// Filters and sorts over the mirror's JSONB values, compiled to SQL with every property id and
// value bound as a parameter.

const listTypes = new Set(['multi_select', 'people', 'relation', 'files', 'created_by', 'last_edited_by'])
const timestampColumns = {
	created_time: workspaceRows.createdTime,
	last_edited_time: workspaceRows.lastEditedTime,
} as const

function parseJsonParam<T>(raw: string | undefined, schema: z.ZodType<T>, field: string): T[] {
	if (!raw) {
		return []
	}
	let parsed: unknown
	try {
		parsed = JSON.parse(raw)
	} catch {
		throw new AppError('VALIDATION_FAILED', { errors: [{ field, message: 'Must be a JSON array.' }] })
	}
	const result = z.array(schema).max(20).safeParse(parsed)
	if (!result.success) {
		throw new AppError('VALIDATION_FAILED', {
			errors: result.error.issues.map((issue) => ({
				field: [field, ...issue.path.map(String)].join('.'),
				message: issue.message,
			})),
		})
	}
	return result.data
}

export function parseFilters(raw: string | undefined): RowFilter[] {
	return parseJsonParam(raw, rowFilterSchema, 'filter')
}

export function parseSorts(raw: string | undefined): RowSort[] {
	return parseJsonParam(raw, rowSortSchema, 'sort')
}

function propertyOf(properties: Property[], id: string, field: string): Property {
	const property = properties.find((candidate) => candidate.id === id)
	if (!property) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field, message: `There is no property "${id}" in this database.` }],
		})
	}
	return property
}

function textOf(property: Property): SQL {
	if (property.type === 'date') {
		return sql`(${workspaceRows.values} -> ${property.id} ->> 'start')`
	}
	return sql`(${workspaceRows.values} ->> ${property.id})`
}

function numberOf(property: Property): SQL {
	const value = sql`(${workspaceRows.values} -> ${property.id})`
	return sql`(case when jsonb_typeof(${value}) = 'number' then (${value})::text::numeric end)`
}

function filterSql(properties: Property[], filter: RowFilter, index: number): SQL {
	const field = `filter.${index}`
	const value = filter.value
	const timestamp = timestampColumns[filter.property as keyof typeof timestampColumns]
	if (timestamp) {
		const at = new Date(String(value))
		if (Number.isNaN(at.getTime()) && !['is_empty', 'is_not_empty'].includes(filter.operator)) {
			throw new AppError('VALIDATION_FAILED', { errors: [{ field: `${field}.value`, message: 'Must be a date.' }] })
		}
		switch (filter.operator) {
			case 'on_or_after':
			case 'greater_than':
				return sql`${timestamp} >= ${at}`
			case 'on_or_before':
			case 'less_than':
				return sql`${timestamp} <= ${at}`
			default:
				throw new AppError('VALIDATION_FAILED', {
					errors: [{ field: `${field}.operator`, message: 'Use on_or_after or on_or_before with times.' }],
				})
		}
	}
	const property = propertyOf(properties, filter.property, `${field}.property`)
	const raw = sql`(${workspaceRows.values} -> ${property.id})`
	if (listTypes.has(property.type)) {
		const empty = sql`coalesce(jsonb_array_length(case when jsonb_typeof(${raw}) = 'array' then ${raw} end), 0) = 0`
		switch (filter.operator) {
			case 'is_empty':
				return empty
			case 'is_not_empty':
				return sql`not (${empty})`
			case 'contains':
			case 'equals':
				return sql`coalesce(${raw} ? ${String(value ?? '')}, false)`
			case 'not_contains':
			case 'not_equals':
				return sql`not coalesce(${raw} ? ${String(value ?? '')}, false)`
			default:
				break
		}
	} else if (property.type === 'number' || (property.type === 'formula' && property.resultType === 'number')) {
		const number = numberOf(property)
		if (filter.operator === 'is_empty') {
			return sql`${number} is null`
		}
		if (filter.operator === 'is_not_empty') {
			return sql`${number} is not null`
		}
		const n = typeof value === 'number' ? value : Number(value)
		if (!Number.isFinite(n)) {
			throw new AppError('VALIDATION_FAILED', { errors: [{ field: `${field}.value`, message: 'Must be a number.' }] })
		}
		switch (filter.operator) {
			case 'equals':
				return sql`${number} = ${n}`
			case 'not_equals':
				return sql`${number} is distinct from ${n}`
			case 'greater_than':
				return sql`${number} > ${n}`
			case 'less_than':
				return sql`${number} < ${n}`
			case 'on_or_after':
				return sql`${number} >= ${n}`
			case 'on_or_before':
				return sql`${number} <= ${n}`
			default:
				break
		}
	} else if (property.type === 'checkbox') {
		if (filter.operator === 'equals' || filter.operator === 'not_equals') {
			const wanted = value === true || value === 'true'
			const equal = sql`coalesce((${raw})::text = 'true', false) = ${wanted}`
			return filter.operator === 'equals' ? equal : sql`not (${equal})`
		}
	} else {
		const text = textOf(property)
		const empty = sql`coalesce(${text}, '') = ''`
		const given = String(value ?? '')
		switch (filter.operator) {
			case 'is_empty':
				return empty
			case 'is_not_empty':
				return sql`not (${empty})`
			case 'equals':
				return sql`lower(coalesce(${text}, '')) = lower(${given})`
			case 'not_equals':
				return sql`lower(coalesce(${text}, '')) <> lower(${given})`
			case 'contains':
				return sql`coalesce(${text}, '') ilike ${`%${escapeLike(given)}%`}`
			case 'not_contains':
				return sql`coalesce(${text}, '') not ilike ${`%${escapeLike(given)}%`}`
			case 'greater_than':
				return sql`${text} > ${given}`
			case 'less_than':
				return sql`${text} < ${given}`
			case 'on_or_after':
				return sql`${text} >= ${given}`
			case 'on_or_before':
				return sql`${text} <= ${given}`
			default:
				break
		}
	}
	throw new AppError('VALIDATION_FAILED', {
		errors: [{ field: `${field}.operator`, message: `${filter.operator} does not apply to ${property.name}.` }],
	})
}

function escapeLike(value: string): string {
	return value.replace(/[\\%_]/g, (char) => `\\${char}`)
}

export function filtersSql(properties: Property[], filters: RowFilter[], search: string | undefined): SQL[] {
	const conditions = filters.map((filter, index) => filterSql(properties, filter, index))
	if (search?.trim()) {
		conditions.push(sql`${workspaceRows.title} ilike ${`%${escapeLike(search.trim())}%`}`)
	}
	return conditions
}

export function orderSql(properties: Property[], sorts: RowSort[]): SQL[] {
	const order = sorts.map((sort, index) => {
		const direction = sort.direction === 'descending' ? sql`desc` : sql`asc`
		const timestamp = timestampColumns[sort.property as keyof typeof timestampColumns]
		if (timestamp) {
			return sql`${timestamp} ${direction}`
		}
		const property = propertyOf(properties, sort.property, `sort.${index}.property`)
		if (property.type === 'number' || property.resultType === 'number') {
			return sql`${numberOf(property)} ${direction} nulls last`
		}
		if (property.type === 'title') {
			return sql`lower(${workspaceRows.title}) ${direction}`
		}
		return sql`lower(${textOf(property)}) ${direction} nulls last`
	})
	return [...order, sql`${workspaceRows.createdTime} asc`, sql`${workspaceRows.id} asc`]
}
