import type { TimeAnalytics, TimeGroup, TimeGroupFigures } from '@blocksmith/contracts/time-reports.ts'

// What every export format shows, and how its figures are written. Durations and amounts are
// integers until the last step, which writes them as decimal text by integer arithmetic: a
// report's "1.50 h" or "120.50" never passes through a binary fraction.

/** An analytics without its view (a shared report's has none). */
export type ReportAnalytics = Omit<TimeAnalytics, 'viewId'>

/** One entry on one local day, as an export lists it (labels only: no row ids, no e-mails). */
export type ExportLine = {
	/** Local date "YYYY-MM-DD" in the view's time zone. */
	date: string
	/** Local times "HH:mm" of the part of the entry on that day; end null while running. */
	start: string
	end: string | null
	person: string
	project: string
	client: string
	task: string
	tags: string[]
	billable: boolean | null
	description: string
	/** Rounded as the view says. */
	seconds: number
	/** Minor units; null when not billable or no rate applies. */
	amount: number | null
}

/** Everything a renderer needs: the view's name, its figures and, for `entries`, its lines. */
export type ReportDocument = {
	title: string
	analytics: ReportAnalytics
	groupBy: TimeGroup
	/** Null for a summary. */
	lines: ExportLine[] | null
}

export const groupTitles: Record<TimeGroup, string> = {
	project: 'Project',
	person: 'Person',
	client: 'Client',
	task: 'Task',
	tag: 'Tag',
	billable: 'Billable',
}

/**
 * The summary's rows: the analytics' groups of the view's grouping. Analytics has no "billable"
 * grouping of its own; its totals split the time into billable and the rest (entries are not
 * counted per side, so that column stays empty).
 */
export function summaryRows(
	analytics: ReportAnalytics,
	groupBy: TimeGroup,
): (TimeGroupFigures & { hasEntries: boolean })[] {
	if (groupBy !== 'billable') {
		return analytics.groups[groupBy].map((group) => ({ ...group, hasEntries: true }))
	}
	const { totals } = analytics
	return [
		{
			key: 'billable',
			label: 'Billable',
			seconds: totals.billableSeconds,
			billableSeconds: totals.billableSeconds,
			amount: totals.amount,
			entries: 0,
			hasEntries: false,
		},
		{
			key: 'non_billable',
			label: 'Non-billable',
			seconds: totals.seconds - totals.billableSeconds,
			billableSeconds: 0,
			amount: null,
			entries: 0,
			hasEntries: false,
		},
	]
}

/** A non-negative integer divided by 10^digits, as exact decimal text: (12050, 2) → "120.50". */
function decimalText(value: number, digits: number): string {
	if (!Number.isSafeInteger(value) || value < 0) {
		throw new RangeError(`Expected a whole number, 0 or more; got ${value}.`)
	}
	if (digits === 0) {
		return String(value)
	}
	const text = String(value).padStart(digits + 1, '0')
	return `${text.slice(0, -digits)}.${text.slice(-digits)}`
}

/** Hours with two decimals, rounded half-up from whole seconds: 5400 → "1.50", 30 → "0.01". */
export function hoursText(seconds: number): string {
	// hundredths of an hour = seconds / 36, half-up
	return decimalText(Math.floor((seconds + 18) / 36), 2)
}

/** Hours and minutes, the minutes rounded half-up from whole seconds: 5400 → "1:30", 100000 → "27:47". */
export function hoursMinutesText(seconds: number): string {
	const minutes = Math.floor((seconds + 30) / 60)
	return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`
}

const fractionDigitsCache = new Map<string, number>()

/** The currency's minor-unit digits as Intl knows them: EUR 2, JPY 0, BHD 3. */
export function currencyDigits(currency: string): number {
	let digits = fractionDigitsCache.get(currency)
	if (digits === undefined) {
		try {
			digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
		} catch {
			digits = 2
		}
		fractionDigitsCache.set(currency, digits)
	}
	return digits
}

/** An amount in minor units as an exact decimal of its currency (12050 EUR → "120.50"); null → "". */
export function amountText(minorUnits: number | null, currency: string): string {
	return minorUnits === null ? '' : decimalText(minorUnits, currencyDigits(currency))
}

export function billableText(billable: boolean | null): string {
	return billable === null ? '' : billable ? 'Yes' : 'No'
}

/** The range as a title shows it: "2026-11-02 – 2026-11-08", one date, or "All time". */
export function rangeText(analytics: Pick<ReportAnalytics, 'from' | 'to'>): string {
	if (!analytics.from || !analytics.to) {
		return analytics.from ? `From ${analytics.from}` : analytics.to ? `Until ${analytics.to}` : 'All time'
	}
	return analytics.from === analytics.to ? analytics.from : `${analytics.from} – ${analytics.to}`
}

/** How the view rounds, in words, or null when it does not. */
export function roundingText(rounding: ReportAnalytics['rounding']): string | null {
	if (!rounding) {
		return null
	}
	const mode = { up: 'up', down: 'down', nearest: 'to the nearest' }[rounding.mode]
	const scope = rounding.scope === 'entry' ? 'per entry' : 'per total'
	return `Rounded ${mode} ${rounding.minutes} min, ${scope}`
}

/**
 * A download's file name: the view's name and range, without characters file systems or
 * headers dislike ("Client work 2026-11-02 to 2026-11-08.csv").
 */
export function exportFileName(
	title: string,
	analytics: Pick<ReportAnalytics, 'from' | 'to'>,
	extension: string,
): string {
	const name =
		title
			.replace(/[^\p{L}\p{N} _.-]+/gu, ' ')
			.replace(/\s+/g, ' ')
			.trim()
			.slice(0, 120) || 'Time report'
	const range = rangeText(analytics).replace(' – ', ' to ')
	return `${name} ${range}.${extension}`
}
