import { numberFormatCurrencies } from '@blocksmith/contracts/number-formats.ts'
import type {
	DateValue,
	FileValue,
	OptionColor,
	Property,
	PropertyType,
	SyncState,
} from '@blocksmith/contracts/workspaces.ts'

// Reading and writing property values for the screens: labels, formats and emptiness.

export const typeLabels: Record<PropertyType, string> = {
	title: 'Title',
	rich_text: 'Text',
	number: 'Number',
	select: 'Select',
	multi_select: 'Multi-select',
	status: 'Status',
	date: 'Date',
	checkbox: 'Checkbox',
	url: 'URL',
	email: 'E-mail',
	phone_number: 'Phone',
	people: 'People',
	files: 'Files',
	relation: 'Relation',
	formula: 'Formula',
	rollup: 'Rollup',
	unique_id: 'ID',
	created_time: 'Created time',
	created_by: 'Created by',
	last_edited_time: 'Edited time',
	last_edited_by: 'Edited by',
	button: 'Button',
	place: 'Place',
	verification: 'Verification',
	unsupported: 'Unsupported',
}

/** Option chips in Notion's colours: these are the data's colours, so they use the palette, in both themes. */
export const optionColorClasses: Record<OptionColor, string> = {
	default: 'bg-secondary text-secondary-foreground',
	gray: 'bg-zinc-200 text-zinc-800 dark:bg-zinc-500/25 dark:text-zinc-200',
	brown: 'bg-amber-900/15 text-amber-950 dark:bg-amber-800/30 dark:text-amber-100',
	orange: 'bg-orange-100 text-orange-900 dark:bg-orange-500/20 dark:text-orange-200',
	yellow: 'bg-yellow-100 text-yellow-900 dark:bg-yellow-500/20 dark:text-yellow-100',
	green: 'bg-green-100 text-green-900 dark:bg-green-500/20 dark:text-green-200',
	blue: 'bg-blue-100 text-blue-900 dark:bg-blue-500/20 dark:text-blue-200',
	purple: 'bg-purple-100 text-purple-900 dark:bg-purple-500/20 dark:text-purple-200',
	pink: 'bg-pink-100 text-pink-900 dark:bg-pink-500/20 dark:text-pink-200',
	red: 'bg-red-100 text-red-900 dark:bg-red-500/20 dark:text-red-200',
}

export function optionColor(property: Property, name: string): OptionColor {
	return property.options?.find((option) => option.name === name)?.color ?? 'default'
}

export function formatNumber(value: number, format: string | undefined): string {
	const currency = format ? numberFormatCurrencies[format] : undefined
	if (currency) {
		return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value)
	}
	if (format === 'percent') {
		return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 }).format(value)
	}
	if (format === 'number_with_commas') {
		return new Intl.NumberFormat(undefined, { maximumFractionDigits: 10 }).format(value)
	}
	return String(value)
}

export function isDateValue(value: unknown): value is DateValue {
	return typeof value === 'object' && value !== null && 'start' in value && typeof value.start === 'string'
}

export function isFileList(value: unknown): value is FileValue[] {
	return Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null && 'name' in item)
}

function hasTime(iso: string): boolean {
	return iso.length > 10
}

function formatDatePart(iso: string): string {
	if (!hasTime(iso)) {
		const [year, month, day] = iso.split('-').map(Number)
		return new Date(year ?? 1970, (month ?? 1) - 1, day ?? 1).toLocaleDateString(undefined, { dateStyle: 'medium' })
	}
	const date = new Date(iso)
	return Number.isNaN(date.getTime())
		? iso
		: date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

export function formatDate(value: DateValue): string {
	if (!value.end) {
		return formatDatePart(value.start)
	}
	// Same day, both with a time: "Jan 26, 2026, 1:00 PM → 2:15 PM".
	const start = new Date(value.start)
	const end = new Date(value.end)
	if (hasTime(value.start) && hasTime(value.end) && start.toDateString() === end.toDateString()) {
		return `${formatDatePart(value.start)} → ${end.toLocaleTimeString(undefined, { timeStyle: 'short' })}`
	}
	return `${formatDatePart(value.start)} → ${formatDatePart(value.end)}`
}

export function formatDateTime(iso: string): string {
	return formatDatePart(iso)
}

/** A value as one line of plain text (for titles, tooltips and read-only computed values). */
export function plainText(value: unknown, property?: Property): string {
	if (value === null || value === undefined) {
		return ''
	}
	if (typeof value === 'number') {
		return formatNumber(value, property?.format)
	}
	if (typeof value === 'boolean') {
		return value ? 'Yes' : 'No'
	}
	if (typeof value === 'string') {
		return property?.type === 'created_time' || property?.type === 'last_edited_time' ? formatDateTime(value) : value
	}
	if (isDateValue(value)) {
		return formatDate(value)
	}
	if (Array.isArray(value)) {
		return value
			.map((item: unknown) =>
				typeof item === 'object' && item && 'name' in item ? String(item.name) : plainText(item),
			)
			.filter(Boolean)
			.join(', ')
	}
	if (typeof value === 'object' && 'number' in value) {
		const { prefix, number } = value as { prefix: string | null; number: number | null }
		return number === null ? '' : prefix ? `${prefix}-${number}` : String(number)
	}
	return JSON.stringify(value)
}

export function asString(value: unknown): string {
	return typeof value === 'string' ? value : ''
}

export function asStringList(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

const minute = 60_000

/** "just now", "3 min ago", "in 2 min", "5 h ago", "2 days ago". */
export function relativeTime(iso: string, now: number = Date.now()): string {
	const difference = new Date(iso).getTime() - now
	const minutes = Math.round(Math.abs(difference) / minute)
	const text =
		minutes < 1
			? null
			: minutes < 60
				? `${minutes} min`
				: minutes < 60 * 24
					? `${Math.round(minutes / 60)} h`
					: `${Math.round(minutes / 60 / 24)} ${Math.round(minutes / 60 / 24) === 1 ? 'day' : 'days'}`
	if (text === null) {
		return difference > 0 ? 'in a moment' : 'just now'
	}
	return difference > 0 ? `in ${text}` : `${text} ago`
}

/** "Synced 3 min ago · next in 2 min", "Running…", "Queued…", "Never synced". */
export function syncLabel(sync: SyncState, now: number = Date.now()): string {
	if (sync.state === 'running') {
		return 'Running…'
	}
	if (sync.state === 'queued') {
		return 'Queued…'
	}
	const parts = [sync.lastSyncedAt ? `Synced ${relativeTime(sync.lastSyncedAt, now)}` : 'Never synced']
	if (sync.nextSyncAt) {
		const next = relativeTime(sync.nextSyncAt, now)
		parts.push(next === 'just now' ? 'next any moment' : `next ${next}`)
	}
	return parts.join(' · ')
}
