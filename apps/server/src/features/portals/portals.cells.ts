import { numberFormatCurrencies } from '@blocksmith/contracts/number-formats.ts'
import type { PortalCell, PortalRow } from '@blocksmith/contracts/portals.ts'
import type { DateValue, FileValue, Property, RowValues } from '@blocksmith/contracts/workspaces.ts'
import { and, inArray } from 'drizzle-orm'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { fileLink, isImageName } from './portals.files.ts'
import type { PortalPageContext, PortalReader } from './portals.reader.ts'

// A row's values as a member receives them (decision 038): only the page's shown properties;
// relations only to rows the member may open through a page of this portal (that page's rule
// checked in SQL, one query per target page for a whole page of rows), the others dropped
// without a trace; files as portal links; people by name from the portal's snapshot.

export type SourceRow = { id: string; externalId: string; title: string; values: RowValues }
type RelationTarget = { pageId: string; rowId: string; title: string }

// Formatters are made once per kind and kept: building an Intl formatter costs far more than
// formatting with it, and a page of 100 rows formats hundreds of values (bench/portals.bench.ts).
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()

function numberFormat(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
	let format = formatters.get(key) as Intl.NumberFormat | undefined
	if (!format) {
		format = new Intl.NumberFormat('en-US', options)
		formatters.set(key, format)
	}
	return format
}

/** A date-time format in `timeZone`; throws a RangeError for a zone the runtime does not know. */
function dateFormat(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
	const key = `${withTime ? 'dt' : 'd'}:${timeZone}`
	let format = formatters.get(key) as Intl.DateTimeFormat | undefined
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			dateStyle: 'medium',
			...(withTime ? { timeStyle: 'short' } : {}),
			timeZone,
		})
		if (formatters.size < 1000) {
			formatters.set(key, format)
		}
	}
	return format
}

/** As the table editor shows it (apps/web workspaces/lib/values.ts), in en-US: the portal has no locale yet. */
export function formatPropertyNumber(value: number, format: string | undefined): string {
	const currency = format ? numberFormatCurrencies[format] : undefined
	if (currency) {
		return numberFormat(`currency:${currency}`, { style: 'currency', currency }).format(value)
	}
	if (format === 'percent') {
		return numberFormat('percent', { style: 'percent', maximumFractionDigits: 2 }).format(value)
	}
	if (format === 'number_with_commas') {
		return numberFormat('commas', { maximumFractionDigits: 10 }).format(value)
	}
	return String(value)
}

function isDateValue(value: unknown): value is DateValue {
	return typeof value === 'object' && value !== null && 'start' in value && typeof value.start === 'string'
}

function formatDatePart(iso: string, timeZone: string | null): string {
	if (iso.length <= 10) {
		const date = new Date(`${iso}T00:00:00Z`)
		return Number.isNaN(date.getTime()) ? iso : dateFormat('UTC', false).format(date)
	}
	const date = new Date(iso)
	if (Number.isNaN(date.getTime())) {
		return iso
	}
	try {
		return dateFormat(timeZone ?? 'UTC', true).format(date)
	} catch {
		return dateFormat('UTC', true).format(date)
	}
}

export function dateCell(value: DateValue): PortalCell {
	const start = formatDatePart(value.start, value.timeZone ?? null)
	const text = value.end ? `${start} → ${formatDatePart(value.end, value.timeZone ?? null)}` : start
	return { kind: 'date', start: value.start, end: value.end ?? null, text }
}

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

function optionsCell(property: Property, names: string[]): PortalCell {
	if (names.length === 0) {
		return { kind: 'empty' }
	}
	return {
		kind: 'options',
		options: names.map((name) => ({
			name,
			color: property.options?.find((option) => option.name === name)?.color ?? null,
		})),
	}
}

/** A value with no property-specific handling (formulas, rollups): by what it is. */
function plainCell(value: unknown, property: Property): PortalCell {
	if (value === null || value === undefined || value === '') {
		return { kind: 'empty' }
	}
	if (typeof value === 'number') {
		return { kind: 'number', value, text: formatPropertyNumber(value, property.format) }
	}
	if (typeof value === 'boolean') {
		return { kind: 'checkbox', value }
	}
	if (typeof value === 'string') {
		return { kind: 'text', text: value }
	}
	if (isDateValue(value)) {
		return dateCell(value)
	}
	if (Array.isArray(value)) {
		const parts = value.flatMap((item) => {
			const cell = plainCell(item, property)
			return cell.kind === 'text' || cell.kind === 'number' || cell.kind === 'date' ? [cell.text] : []
		})
		return parts.length > 0 ? { kind: 'text', text: parts.join(', ') } : { kind: 'empty' }
	}
	return { kind: 'empty' }
}

type CellInput = {
	reader: PortalReader
	page: PortalPageContext
	row: SourceRow
	relations: Map<string, Map<string, RelationTarget>>
}

function cellOf(input: CellInput, property: Property): PortalCell {
	const value = input.row.values[property.id]
	switch (property.type) {
		case 'title':
			return { kind: 'text', text: input.row.title }
		case 'rich_text':
			return typeof value === 'string' && value ? { kind: 'text', text: value } : { kind: 'empty' }
		case 'number':
			return typeof value === 'number' && Number.isFinite(value)
				? { kind: 'number', value, text: formatPropertyNumber(value, property.format) }
				: { kind: 'empty' }
		case 'checkbox':
			return { kind: 'checkbox', value: value === true }
		case 'url':
			return typeof value === 'string' && /^https?:\/\//i.test(value)
				? { kind: 'url', url: value, text: value }
				: typeof value === 'string' && value
					? { kind: 'text', text: value }
					: { kind: 'empty' }
		case 'email':
			return typeof value === 'string' && value
				? { kind: 'url', url: `mailto:${value}`, text: value }
				: { kind: 'empty' }
		case 'phone_number':
			return typeof value === 'string' && value
				? { kind: 'url', url: `tel:${value.replace(/[^\d+]/g, '')}`, text: value }
				: { kind: 'empty' }
		case 'select':
		case 'status':
			return optionsCell(property, typeof value === 'string' && value ? [value] : [])
		case 'multi_select':
			return optionsCell(property, strings(value))
		case 'date':
			return isDateValue(value) ? dateCell(value) : { kind: 'empty' }
		case 'created_time':
		case 'last_edited_time':
			return typeof value === 'string' ? dateCell({ start: value, end: null, timeZone: null }) : { kind: 'empty' }
		case 'people':
		case 'created_by':
		case 'last_edited_by': {
			// Names from the setup's snapshot; someone it does not know is left out (never an id or e-mail).
			const people = input.reader.portal.people
			const names = strings(value).flatMap((id) => (people[id] ? [people[id]] : []))
			return { kind: 'people', names }
		}
		case 'relation': {
			const targets = input.relations.get(property.id)
			const rows = strings(value).flatMap((id) => {
				const target = targets?.get(id)
				return target ? [target] : []
			})
			return { kind: 'relation', rows }
		}
		case 'files': {
			const files = Array.isArray(value) ? (value as FileValue[]) : []
			return {
				kind: 'files',
				files: files.flatMap((file, index) =>
					file && typeof file === 'object' && typeof file.name === 'string'
						? [
								{
									name: file.name,
									isImage: isImageName(file.name) || isImageName(file.url ?? ''),
									url: fileLink(input.reader.deps, input.reader.portal, input.reader.member.memberId, {
										pageId: input.page.page.id,
										rowId: input.row.externalId,
										propertyId: property.id,
										index,
									}),
								},
							]
						: [],
				),
			}
		}
		case 'unique_id': {
			const id = value as { prefix?: string | null; number?: number | null } | null
			return id && typeof id.number === 'number'
				? { kind: 'text', text: id.prefix ? `${id.prefix}-${id.number}` : String(id.number) }
				: { kind: 'empty' }
		}
		case 'formula':
			return plainCell(value, property)
		case 'rollup':
			// A rollup's list is read through a relation, over every related row, the member's or not:
			// its texts may be other rows' titles or ids, so only numbers and dates of it are sent.
			return plainCell(
				Array.isArray(value) ? value.flat(3).filter((item) => typeof item !== 'string') : value,
				property,
			)
		default:
			return { kind: 'empty' }
	}
}

/**
 * For each shown relation property, the related rows (by external id) the member may open: a
 * row counts when a page of this portal on the related database grants it (the first such page
 * is where its link goes). One query per target page, whatever the number of rows.
 */
async function openableRelations(
	reader: PortalReader,
	page: PortalPageContext,
	rows: SourceRow[],
): Promise<Map<string, Map<string, RelationTarget>>> {
	const byProperty = new Map<string, Map<string, RelationTarget>>()
	const wanted = new Map<string, { target: PortalPageContext; ids: Set<string>; properties: string[] }>()
	for (const property of page.shown) {
		if (property.type !== 'relation' || !property.relationDatabaseId) {
			continue
		}
		const ids = rows.flatMap((row) => strings(row.values[property.id]))
		byProperty.set(property.id, new Map())
		if (ids.length === 0) {
			continue
		}
		for (const target of reader.pages.values()) {
			if (target.page.databaseId !== property.relationDatabaseId) {
				continue
			}
			const entry = wanted.get(target.page.id) ?? { target, ids: new Set<string>(), properties: [] }
			for (const id of ids) {
				entry.ids.add(id)
			}
			entry.properties.push(property.id)
			wanted.set(target.page.id, entry)
		}
	}
	for (const { target, ids, properties } of wanted.values()) {
		const found = await reader.deps.db
			.select({ externalId: workspaceRows.externalId, title: workspaceRows.title })
			.from(workspaceRows)
			.where(and(target.granted, inArray(workspaceRows.externalId, [...ids])))
		for (const propertyId of properties) {
			const map = byProperty.get(propertyId) as Map<string, RelationTarget>
			for (const row of found) {
				if (!map.has(row.externalId)) {
					map.set(row.externalId, { pageId: target.page.id, rowId: row.externalId, title: row.title })
				}
			}
		}
	}
	return byProperty
}

/** Rows of one page as they leave the server: nothing but the shown properties. */
export async function toPortalRows(
	reader: PortalReader,
	page: PortalPageContext,
	rows: SourceRow[],
): Promise<PortalRow[]> {
	const relations = await openableRelations(reader, page, rows)
	return rows.map((row) => ({
		id: row.externalId,
		title: row.title,
		cells: Object.fromEntries(
			page.shown.map((property) => [property.id, cellOf({ reader, page, row, relations }, property)]),
		),
	}))
}
