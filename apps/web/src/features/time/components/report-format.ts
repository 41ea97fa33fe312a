import { formatDecimalHours, formatDuration } from '@blocksmith/contracts/time-duration.ts'
import type { RelativeRange, TimeGroup, TimeRange } from '@blocksmith/contracts/time-reports.ts'

// How reports write their figures. Money arrives in integer minor units and is turned into an
// exact decimal string before Intl formats it, so 0.1 + 0.2 never shows up in an amount: Intl
// takes the string as the exact decimal it is (ES2023), whatever the currency's digits.

/** How many minor digits a currency has (EUR 2, JPY 0, BHD 3), as Intl knows it. */
export function currencyDigits(currency: string): number {
	try {
		return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
	} catch {
		return 2
	}
}

/** Minor units as an exact decimal string in major units: 12050, 2 digits → "120.50". */
export function minorToDecimal(minor: number, digits: number): string {
	const sign = minor < 0 ? '-' : ''
	const text = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0')
	return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`
}

/** An amount in minor units, formatted in the currency with exactly its digits. */
export function formatMoney(minor: number, currency: string, locale?: string): string {
	const digits = currencyDigits(currency)
	const format = new Intl.NumberFormat(locale, {
		style: 'currency',
		currency,
		minimumFractionDigits: digits,
		maximumFractionDigits: digits,
	})
	return format.format(minorToDecimal(minor, digits) as Intl.StringNumericLiteral)
}

/**
 * What a person typed as an amount in major units ("120.5", "120,50") as minor units, exactly;
 * null for an empty field. More decimals than the currency has is refused, never rounded.
 */
export function parseMoney(
	text: string,
	currency: string,
): { ok: true; minor: number | null } | { ok: false; message: string } {
	const trimmed = text.trim().replace(/\s/g, '')
	if (trimmed === '') {
		return { ok: true, minor: null }
	}
	const digits = currencyDigits(currency)
	const match = /^(\d+)(?:[.,](\d*))?$/.exec(trimmed)
	if (!match) {
		return { ok: false, message: 'Type an amount such as 120.50.' }
	}
	const [, whole = '0', fraction = ''] = match
	if (fraction.length > digits) {
		return {
			ok: false,
			message: digits === 0 ? `${currency} has no decimals.` : `${currency} has at most ${digits} decimals.`,
		}
	}
	const minor = Number(`${whole}${fraction.padEnd(digits, '0')}`)
	if (!Number.isSafeInteger(minor) || minor > 100_000_000) {
		return { ok: false, message: 'That rate is too high.' }
	}
	return { ok: true, minor }
}

/** Seconds as hours and minutes ("12:30"), the way the timesheet writes them. */
export function formatHours(seconds: number): string {
	return formatDuration(seconds, { precision: 'minutes' })
}

/** Seconds as decimal hours ("12.50 h"), for a title or a chart's axis. */
export function formatDecimal(seconds: number): string {
	return `${formatDecimalHours(seconds)} h`
}

export const rangeLabels: Record<RelativeRange, string> = {
	today: 'Today',
	yesterday: 'Yesterday',
	this_week: 'This week',
	last_week: 'Last week',
	this_month: 'This month',
	last_month: 'Last month',
	this_quarter: 'This quarter',
	last_quarter: 'Last quarter',
	this_year: 'This year',
	last_year: 'Last year',
	last_7_days: 'Last 7 days',
	last_30_days: 'Last 30 days',
	last_90_days: 'Last 90 days',
	all_time: 'All time',
}

export const groupLabels: Record<TimeGroup, string> = {
	project: 'Project',
	person: 'Person',
	client: 'Client',
	task: 'Task',
	tag: 'Tag',
	billable: 'Billable',
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' })

/** A local date ("2026-11-24") as the reader writes dates, without moving it through a time zone. */
export function formatDate(date: string): string {
	const parsed = new Date(`${date}T00:00:00Z`)
	return Number.isNaN(parsed.getTime()) ? date : dateFormat.format(parsed)
}

/** The dates a report counts, as a sentence fragment: "Nov 1, 2026 – Nov 30, 2026" or "All time". */
export function describeDates(from: string | null, to: string | null): string {
	if (from === null || to === null) {
		return 'All time'
	}
	return from === to ? formatDate(from) : `${formatDate(from)} – ${formatDate(to)}`
}

export function describeRange(range: TimeRange): string {
	return range.kind === 'relative' ? rangeLabels[range.preset] : describeDates(range.from, range.to)
}
