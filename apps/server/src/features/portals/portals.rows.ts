import type { PortalRows } from '@blocksmith/contracts/portals.ts'
import type { Property, RowFilter, RowSort } from '@blocksmith/contracts/workspaces.ts'
import { and, or, type SQL, sql } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import { filtersSql, parseFilters, parseSorts } from '#src/workspaces/rows.query.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { toPortalRows } from './portals.cells.ts'
import { type PortalPageContext, type PortalReader, pageOf, readerLastSyncedAt } from './portals.reader.ts'

// A page's rows for a member: the rule's condition always, then the visitor's filters (only on
// the page's filterable properties), search on titles, a sort on shown properties, and keyset
// pages. The cursor carries the last row's sort keys, signed, so a changed or forged one is a 400
// (and never reaches SQL as a value to cast).

/** Values that name other rows or people: filtering or sorting by them would hint at rows outside the rule. */
const hiddenValueTypes = new Set(['relation', 'people', 'created_by', 'last_edited_by', 'files', 'rollup'])
const timestampColumns = {
	created_time: workspaceRows.createdTime,
	last_edited_time: workspaceRows.lastEditedTime,
} as const

type SortKey = { expr: SQL; cast: 'numeric' | 'text' | 'timestamptz'; descending: boolean; nullable: boolean }

function invalid(field: string, message: string): AppError {
	return new AppError('VALIDATION_FAILED', { errors: [{ field, message }] })
}

/** Filters of the visitor: each on a property the page lets them filter by. */
function checkedFilters(page: PortalPageContext, raw: string | undefined): RowFilter[] {
	const filters = parseFilters(raw)
	filters.forEach((filter, index) => {
		const property = page.shown.find((candidate) => candidate.id === filter.property)
		if (!property || !page.page.filterable.includes(filter.property)) {
			throw invalid(`filter.${index}.property`, 'This page cannot be filtered by that property.')
		}
		if (hiddenValueTypes.has(property.type)) {
			throw invalid(`filter.${index}.property`, `${property.name} cannot be filtered in the portal.`)
		}
	})
	return filters
}

function sortKey(property: Property, descending: boolean): SortKey {
	const value = sql`(${workspaceRows.values} -> ${property.id}::text)`
	if (property.type === 'title') {
		return { expr: sql`lower(${workspaceRows.title})`, cast: 'text', descending, nullable: false }
	}
	if (property.type === 'number' || property.resultType === 'number') {
		return {
			expr: sql`(case when jsonb_typeof(${value}) = 'number' then (${value})::text::numeric end)`,
			cast: 'numeric',
			descending,
			nullable: true,
		}
	}
	const text =
		property.type === 'date' || property.type === 'formula'
			? sql`coalesce(${value} ->> 'start', ${workspaceRows.values} ->> ${property.id}::text)`
			: sql`(${workspaceRows.values} ->> ${property.id}::text)`
	return { expr: sql`lower(${text})`, cast: 'text', descending, nullable: true }
}

/**
 * The order: the visitor's sort (on shown properties) or else the page's (what of it still
 * exists), then creation time and id, so that every row has one place and keyset pages are exact.
 */
function sortKeys(page: PortalPageContext, raw: string | undefined): SortKey[] {
	const given = parseSorts(raw)
	const keys: SortKey[] = []
	given.forEach((sort, index) => {
		const property = page.shown.find((candidate) => candidate.id === sort.property)
		if (!property || hiddenValueTypes.has(property.type) || property.type === 'multi_select') {
			throw invalid(`sort.${index}.property`, 'This page cannot be sorted by that property.')
		}
		keys.push(sortKey(property, sort.direction === 'descending'))
	})
	if (given.length === 0) {
		for (const sort of page.page.sort as RowSort[]) {
			const column = timestampColumns[sort.property as keyof typeof timestampColumns]
			const property = page.properties.find((candidate) => candidate.id === sort.property)
			if (column) {
				keys.push({
					expr: sql`${column}`,
					cast: 'timestamptz',
					descending: sort.direction === 'descending',
					nullable: false,
				})
			} else if (property && !hiddenValueTypes.has(property.type) && property.type !== 'multi_select') {
				keys.push(sortKey(property, sort.direction === 'descending'))
			}
		}
	}
	keys.push({ expr: sql`${workspaceRows.createdTime}`, cast: 'timestamptz', descending: false, nullable: false })
	keys.push({ expr: sql`${workspaceRows.id}`, cast: 'text', descending: false, nullable: false })
	return keys
}

function orderBy(keys: SortKey[]): SQL[] {
	return keys.map((key) => (key.descending ? sql`${key.expr} desc nulls last` : sql`${key.expr} asc nulls last`))
}

/** A key as text, the same in the cursor as in SQL (timestamps as ISO text whatever the session's DateStyle). */
function keyText(key: SortKey): SQL {
	return key.cast === 'timestamptz' ? sql`(to_json(${key.expr}) #>> '{}')` : sql`(${key.expr})::text`
}

function bound(key: SortKey, value: string): SQL {
	return sql`(${value}::text)::${sql.raw(key.cast)}`
}

/** Rows after the cursor's, in the order of `keys` (nulls last in both directions). */
function afterSql(keys: SortKey[], values: (string | null)[]): SQL | undefined {
	const branches: SQL[] = []
	for (let i = 0; i < keys.length; i++) {
		const key = keys[i] as SortKey
		const value = values[i] ?? null
		if (value === null) {
			// Nulls come last: nothing is after a null in this key; ties go on to the next key.
		} else {
			const beyond = key.descending ? sql`${key.expr} < ${bound(key, value)}` : sql`${key.expr} > ${bound(key, value)}`
			const step = key.nullable ? sql`(${beyond} or ${key.expr} is null)` : beyond
			const equalBefore = keys.slice(0, i).map((previous, j) => {
				const before = values[j] ?? null
				return before === null ? sql`${previous.expr} is null` : sql`${previous.expr} = ${bound(previous, before)}`
			})
			branches.push(and(...equalBefore, step) as SQL)
		}
	}
	return branches.length > 0 ? or(...branches) : sql`false`
}

function cursorKey(reader: PortalReader) {
	return deriveKey(reader.deps.authSecret, 'portal-rows-cursor')
}

/**
 * What a cursor is bound to: this member, this page, this query's order and filters, and the
 * keys' types (a property retyped between two pages must not have a text cast to a number).
 */
function cursorScope(reader: PortalReader, pageId: string, query: RowsQuery, keys: SortKey[]): string {
	return [
		reader.member.memberId,
		pageId,
		query.sort ?? '',
		query.filter ?? '',
		query.search ?? '',
		keys.map((key) => key.cast).join(','),
	].join('\u0000')
}

function encodeCursor(reader: PortalReader, scope: string, values: (string | null)[]): string {
	const body = Buffer.from(JSON.stringify(values)).toString('base64url')
	return `${body}.${sign(cursorKey(reader), `${scope}\u0000${body}`)}`
}

function decodeCursor(reader: PortalReader, scope: string, cursor: string, length: number): (string | null)[] {
	const [body, signature, extra] = cursor.split('.')
	const refuse = () => invalid('cursor', 'This cursor does not belong to this list. Start from the first page.')
	if (!body || !signature || extra !== undefined) {
		throw refuse()
	}
	if (!isValidSignature(cursorKey(reader), `${scope}\u0000${body}`, signature)) {
		throw refuse()
	}
	let values: unknown
	try {
		values = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
	} catch {
		throw refuse()
	}
	if (
		!Array.isArray(values) ||
		values.length !== length ||
		!values.every((value) => value === null || typeof value === 'string')
	) {
		throw refuse()
	}
	return values as (string | null)[]
}

export type RowsQuery = { filter?: string; sort?: string; search?: string; cursor?: string; limit: number }

const optionTypes = new Set(['select', 'status', 'multi_select'])

/**
 * The option names the member's rows use, by property: a select's other options may name what
 * only rows outside the rule hold (a client, a project), so only these are described.
 */
async function usedOptions(reader: PortalReader, page: PortalPageContext): Promise<Map<string, Set<string>>> {
	const properties = page.shown.filter((property) => optionTypes.has(property.type))
	const used = new Map(properties.map((property) => [property.id, new Set<string>()]))
	if (properties.length === 0 || page.page.rule.kind === 'everyone') {
		// Every row is the member's to see: so is every option (and no scan of the whole database).
		return new Map()
	}
	const parts = properties.map((property) => {
		const value = sql`(${workspaceRows.values} -> ${property.id}::text)`
		const names =
			property.type === 'multi_select'
				? sql`jsonb_array_elements_text(case when jsonb_typeof(${value}) = 'array' then ${value} else '[]'::jsonb end)`
				: sql`(${workspaceRows.values} ->> ${property.id}::text)`
		return sql`select distinct ${property.id}::text as property, ${names} as name from ${workspaceRows} where ${page.granted}`
	})
	const result = await reader.deps.db.execute(sql.join(parts, sql` union `))
	for (const row of (result as unknown as { rows: { property: string; name: string | null }[] }).rows) {
		if (row.name !== null) {
			used.get(row.property)?.add(row.name)
		}
	}
	return used
}

/**
 * The page as the member's client draws it: its shown properties only, each without what is the
 * team's (descriptions, the related database's id), options limited to those the member's rows use.
 */
export async function pageSummary(reader: PortalReader, page: PortalPageContext): Promise<PortalRows['page']> {
	const used = await usedOptions(reader, page)
	const properties = page.shown.map((property): Property => {
		const { description: _description, relationDatabaseId: _relation, options, groups, ...rest } = property
		const names = used.get(property.id)
		if (!names) {
			return { ...rest, ...(options ? { options } : {}), ...(groups ? { groups } : {}) }
		}
		const kept = (options ?? []).filter((option) => names.has(option.name))
		const keptIds = new Set(kept.map((option) => option.id))
		return {
			...rest,
			options: kept,
			...(groups
				? { groups: groups.map((group) => ({ ...group, optionIds: group.optionIds.filter((id) => keptIds.has(id)) })) }
				: {}),
		}
	})
	return {
		id: page.page.id,
		title: page.page.title,
		view: page.page.view,
		groupBy: page.shown.some((property) => property.id === page.page.groupBy) ? page.page.groupBy : null,
		coverProperty: page.shown.some((property) => property.id === page.page.coverProperty)
			? page.page.coverProperty
			: null,
		properties,
		filterable: page.page.filterable.filter((id) => page.shown.some((property) => property.id === id)),
		isSearchable: page.page.isSearchable,
	}
}

export async function listPortalRows(reader: PortalReader, pageId: string, query: RowsQuery): Promise<PortalRows> {
	const page = pageOf(reader, pageId)
	const filters = checkedFilters(page, query.filter)
	if (query.search?.trim() && !page.page.isSearchable) {
		throw invalid('search', 'This page cannot be searched.')
	}
	const keys = sortKeys(page, query.sort)
	const scope = cursorScope(reader, pageId, query, keys)
	const after = query.cursor ? afterSql(keys, decodeCursor(reader, scope, query.cursor, keys.length)) : undefined
	const limit = Math.min(Math.max(query.limit, 1), 100)
	const found = await reader.deps.db
		.select({
			id: workspaceRows.id,
			externalId: workspaceRows.externalId,
			title: workspaceRows.title,
			values: workspaceRows.values,
			keys: sql<(string | null)[]>`json_build_array(${sql.join(keys.map(keyText), sql`, `)})`,
		})
		.from(workspaceRows)
		.where(
			and(page.granted, ...filtersSql(page.shown, filters, page.page.isSearchable ? query.search : undefined), after),
		)
		.orderBy(...orderBy(keys))
		.limit(limit + 1)
	const rows = found.slice(0, limit)
	const last = rows.at(-1)
	return {
		page: await pageSummary(reader, page),
		rows: await toPortalRows(reader, page, rows),
		nextCursor: found.length > limit && last ? encodeCursor(reader, scope, last.keys) : null,
		lastSyncedAt: readerLastSyncedAt(reader, [page]),
	}
}
