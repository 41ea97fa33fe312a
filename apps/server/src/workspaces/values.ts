import type { FieldError } from '@blocksmith/contracts/errors.ts'
import {
	type DateValue,
	type FileValue,
	isWritableType,
	type Property,
	type PropertyValue,
	type RowValues,
} from '@blocksmith/contracts/workspaces.ts'
import { AppError } from '#src/lib/errors.ts'

/**
 * The limits every workspace keeps, chosen to fit Notion's (2,000 characters per rich-text
 * item and 100 items per property, 100 options/relations/people, 2,000-character URLs,
 * 200-character e-mails and phone numbers), so a value accepted here is never refused there
 * for its size.
 */
const valueLimits = {
	textChars: 200_000,
	listItems: 100,
	urlChars: 2000,
	emailChars: 200,
	phoneChars: 200,
} as const

const isoDate = /^\d{4}-\d{2}-\d{2}$/
const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const phonePattern = /^[+()\d\s.\-/#*xextEXT]{3,}$/

class InvalidValue extends Error {}

function fail(message: string): never {
	throw new InvalidValue(message)
}

function text(value: unknown, name: string): string {
	if (value === null || value === undefined) {
		return ''
	}
	if (typeof value !== 'string') {
		fail(`${name} must be text.`)
	}
	if (value.length > valueLimits.textChars) {
		fail(`${name} is longer than ${valueLimits.textChars} characters.`)
	}
	return value
}

function optionalString(
	value: unknown,
	name: string,
	limit: number,
	check: (v: string) => boolean,
	what: string,
): string | null {
	if (value === null || value === undefined || value === '') {
		return null
	}
	if (typeof value !== 'string') {
		fail(`${name} must be ${what}.`)
	}
	const trimmed = value.trim()
	if (trimmed.length > limit) {
		fail(`${name} is longer than ${limit} characters.`)
	}
	if (!check(trimmed)) {
		fail(`${name} must be ${what}.`)
	}
	return trimmed
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value)
		return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:'
	} catch {
		return false
	}
}

function list(value: unknown, name: string): unknown[] {
	if (value === null || value === undefined) {
		return []
	}
	if (!Array.isArray(value)) {
		fail(`${name} must be a list.`)
	}
	if (value.length > valueLimits.listItems) {
		fail(`${name} takes at most ${valueLimits.listItems} items.`)
	}
	return value
}

function ids(value: unknown, name: string): string[] {
	const items = list(value, name)
	if (!items.every((item) => typeof item === 'string' && item.length > 0 && item.length <= 100)) {
		fail(`${name} must be a list of ids.`)
	}
	return [...new Set(items as string[])]
}

function option(property: Property, value: unknown): string | null {
	if (value === null || value === undefined || value === '') {
		return null
	}
	if (typeof value !== 'string') {
		fail(`${property.name} must be one of its options.`)
	}
	const match = property.options?.find((o) => o.name === value) ?? property.options?.find((o) => o.id === value)
	if (!match) {
		fail(`${property.name} has no option "${value}".`)
	}
	return match.name
}

function dateBoundary(value: unknown, name: string): string {
	if (typeof value !== 'string' || !(isoDate.test(value) || isoDateTime.test(value))) {
		fail(`${name} must be a date (YYYY-MM-DD) or a date and time (ISO 8601 with an offset).`)
	}
	if (Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value))) {
		fail(`${name} is not a real date.`)
	}
	return value
}

function date(value: unknown, name: string): DateValue | null {
	if (value === null || value === undefined || value === '') {
		return null
	}
	if (typeof value === 'string') {
		return { start: dateBoundary(value, name), end: null, timeZone: null }
	}
	if (typeof value !== 'object' || Array.isArray(value)) {
		fail(`${name} must be a date.`)
	}
	const raw = value as Record<string, unknown>
	const start = dateBoundary(raw.start, name)
	const end = raw.end === null || raw.end === undefined || raw.end === '' ? null : dateBoundary(raw.end, name)
	if (
		end &&
		Date.parse(end.length === 10 ? `${end}T00:00:00Z` : end) <
			Date.parse(start.length === 10 ? `${start}T00:00:00Z` : start)
	) {
		fail(`${name} ends before it starts.`)
	}
	const timeZone = raw.timeZone ?? null
	if (timeZone !== null && (typeof timeZone !== 'string' || !isTimeZone(timeZone))) {
		fail(`${name} has an unknown time zone.`)
	}
	return { start, end, timeZone: timeZone as string | null }
}

function isTimeZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en', { timeZone: zone })
		return true
	} catch {
		return false
	}
}

function files(value: unknown, name: string): FileValue[] {
	return list(value, name).map((item) => {
		if (typeof item !== 'object' || item === null) {
			fail(`${name} must be a list of files.`)
		}
		const raw = item as Record<string, unknown>
		if (typeof raw.name !== 'string' || raw.name.length === 0 || raw.name.length > 255) {
			fail(`${name}: every file needs a name of 1 to 255 characters.`)
		}
		const url = raw.url === undefined || raw.url === null ? null : raw.url
		const blobId = raw.blobId === undefined || raw.blobId === null ? null : raw.blobId
		if (url !== null && (typeof url !== 'string' || url.length > valueLimits.urlChars || !isHttpUrl(url))) {
			fail(`${name}: "${raw.name}" needs an http(s) URL.`)
		}
		if (blobId !== null && typeof blobId !== 'string') {
			fail(`${name}: "${raw.name}" has an invalid upload id.`)
		}
		if (url === null && blobId === null) {
			fail(`${name}: "${raw.name}" needs a URL or an upload.`)
		}
		// Kept from a row read from Notion: the file stays Notion's when the row is written back.
		const expiresAt = raw.expiresAt
		if (expiresAt !== undefined && (typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt)))) {
			fail(`${name}: "${raw.name}" has an invalid expiry time.`)
		}
		return {
			name: raw.name,
			url: url as string | null,
			blobId: blobId as string | null,
			...(expiresAt === undefined ? {} : { expiresAt }),
		}
	})
}

function checkValue(property: Property, value: unknown): PropertyValue {
	const name = property.name
	switch (property.type) {
		case 'title':
		case 'rich_text':
			return text(value, name)
		case 'number': {
			if (value === null || value === undefined || value === '') {
				return null
			}
			if (typeof value !== 'number' || !Number.isFinite(value)) {
				fail(`${name} must be a number.`)
			}
			return value
		}
		case 'select':
		case 'status':
			return option(property, value)
		case 'multi_select': {
			const names = list(value, name).map((item) => option(property, item))
			return [...new Set(names.filter((item): item is string => item !== null))]
		}
		case 'date':
			return date(value, name)
		case 'checkbox': {
			if (value === null || value === undefined) {
				return false
			}
			if (typeof value !== 'boolean') {
				fail(`${name} must be true or false.`)
			}
			return value
		}
		case 'url':
			return optionalString(value, name, valueLimits.urlChars, isHttpUrl, 'a web address (http:// or https://)')
		case 'email':
			return optionalString(value, name, valueLimits.emailChars, (v) => emailPattern.test(v), 'an e-mail address')
		case 'phone_number':
			return optionalString(value, name, valueLimits.phoneChars, (v) => phonePattern.test(v), 'a phone number')
		case 'people':
		case 'relation':
			return ids(value, name)
		case 'files':
			return files(value, name)
		default:
			return fail(`${name} is computed by the workspace and cannot be written.`)
	}
}

/**
 * Checks and normalises values written to a database: every key must name one of its
 * writable properties, every value must fit its type and the limits. Throws a
 * VALIDATION_FAILED problem whose errors name each offending property (`values.<id>`).
 */
export function validateRowValues(properties: Property[], values: Record<string, unknown>): RowValues {
	const errors: FieldError[] = []
	const result: RowValues = {}
	const byId = new Map(properties.map((property) => [property.id, property]))
	for (const [key, value] of Object.entries(values)) {
		const property = byId.get(key) ?? properties.find((candidate) => candidate.name === key)
		if (!property) {
			errors.push({ field: `values.${key}`, message: `There is no property "${key}" in this database.` })
			continue
		}
		if (!isWritableType(property.type)) {
			errors.push({
				field: `values.${property.id}`,
				message: `${property.name} is computed by the workspace and cannot be written.`,
			})
			continue
		}
		try {
			result[property.id] = checkValue(property, value)
		} catch (error) {
			if (!(error instanceof InvalidValue)) {
				throw error
			}
			errors.push({ field: `values.${property.id}`, message: error.message })
		}
	}
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', {
			detail: errors.length === 1 ? (errors[0]?.message ?? 'Invalid value.') : 'Some values are invalid.',
			errors,
		})
	}
	return result
}

function asText(value: unknown): string | undefined {
	if (typeof value === 'string') {
		return value
	}
	if (typeof value === 'number') {
		return String(value)
	}
	if (typeof value === 'boolean') {
		return value ? 'Yes' : 'No'
	}
	if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
		return value.join(', ')
	}
	if (value && typeof value === 'object' && 'start' in value) {
		const date = value as DateValue
		return date.end ? `${date.start} → ${date.end}` : date.start
	}
	return undefined
}

/** The candidate forms of `value` for a property's type, tried in order by `convertValue`. */
function candidates(property: Property, value: unknown): unknown[] {
	const text = asText(value)?.trim()
	switch (property.type) {
		case 'title':
		case 'rich_text':
		case 'url':
		case 'email':
		case 'phone_number':
			return [value, text]
		case 'number':
			return [value, text !== undefined && text !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined]
		case 'select':
		case 'status':
			return [value, Array.isArray(value) ? value[0] : text]
		case 'multi_select':
			return [
				value,
				typeof value === 'string' ? [value] : undefined,
				text
					?.split(',')
					.map((item) => item.trim())
					.filter((item) => property.options?.some((option) => option.name === item)),
			]
		case 'checkbox':
			return [value, text === undefined ? undefined : /^(true|yes|y|1|x|✓|checked)$/i.test(text)]
		case 'date':
			return [value, text?.split(' → ')[0]]
		default:
			return [value]
	}
}

/**
 * `value` as the property now defines it, converted where a person would expect it to carry
 * over after a change of type; undefined when it cannot be kept.
 */
export function convertValue(property: Property, value: PropertyValue | undefined): PropertyValue | undefined {
	for (const candidate of candidates(property, value)) {
		if (candidate === undefined) {
			continue
		}
		try {
			return validateRowValues([property], { [property.id]: candidate })[property.id]
		} catch (error) {
			if (!(error instanceof AppError)) {
				throw error
			}
		}
	}
	return undefined
}

/** The row's title as plain text. */
export function titleOf(properties: Property[], values: RowValues): string {
	const title = properties.find((property) => property.type === 'title')
	const value = title ? values[title.id] : undefined
	return typeof value === 'string' ? value : ''
}

/** Same value, ignoring list order and surrounding blanks: how a retried create recognises its row. */
export function sameValue(a: PropertyValue | undefined, b: PropertyValue | undefined): boolean {
	const norm = (value: PropertyValue | undefined): unknown => {
		if (value === undefined || value === null || value === '') {
			return null
		}
		if (typeof value === 'string') {
			return value.trim()
		}
		if (Array.isArray(value)) {
			const items = value.map((item) => JSON.stringify(norm(item as PropertyValue))).sort()
			return items.length === 0 ? null : items
		}
		if (typeof value === 'object' && 'start' in value) {
			return { start: value.start, end: value.end ?? null }
		}
		if (typeof value === 'object' && 'name' in value) {
			return { name: value.name }
		}
		return value
	}
	return JSON.stringify(norm(a)) === JSON.stringify(norm(b))
}
