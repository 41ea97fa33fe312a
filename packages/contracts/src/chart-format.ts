import type { ChartNumberFormat, ChartSeries } from './charts.ts'

// A chart's numbers as the reader sees them: the server draws them into axis labels, data labels
// and tooltips, the public page into its table and KPI, and the embed's script into a refreshed
// table. One function, so a figure never reads differently in two places. It imports nothing at
// run time: the embed's tiny script can use it without zod.

const formatters = new Map<string, Intl.NumberFormat>()

function formatterFor(options: Intl.NumberFormatOptions, locale: string): Intl.NumberFormat {
	const key = `${locale}|${JSON.stringify(options)}`
	let formatter = formatters.get(key)
	if (!formatter) {
		formatter = new Intl.NumberFormat(locale, options)
		// A few formats per chart: the map stays small, but a server draws many charts.
		if (formatters.size > 200) {
			formatters.clear()
		}
		formatters.set(key, formatter)
	}
	return formatter
}

/** What is shown where there is no value (a group with nothing to take the minimum of). */
export const noValue = '–'

/**
 * A value in the chart's format. `percent` reads values as fractions (0.25 is 25 %), as the
 * percent-of-total transform and KPI changes give them. With `decimals` null the value decides,
 * at most two digits (one when compact); whole currency amounts show no cents.
 */
export function formatChartNumber(
	value: number | null | undefined,
	format: ChartNumberFormat,
	locale = 'en-US',
): string {
	if (value === null || value === undefined || !Number.isFinite(value)) {
		return noValue
	}
	const options: Intl.NumberFormatOptions = {}
	if (format.style === 'currency') {
		options.style = 'currency'
		options.currency = format.currency
	} else if (format.style === 'percent') {
		options.style = 'percent'
	}
	if (format.compact) {
		options.notation = 'compact'
	}
	if (format.decimals !== null) {
		options.minimumFractionDigits = format.decimals
		options.maximumFractionDigits = format.decimals
	} else if (format.compact) {
		options.minimumFractionDigits = 0
		options.maximumFractionDigits = 1
	} else if (format.style === 'currency') {
		const digits = Number.isInteger(value) ? 0 : 2
		options.minimumFractionDigits = digits
		options.maximumFractionDigits = digits
	} else {
		options.minimumFractionDigits = 0
		options.maximumFractionDigits = 2
	}
	return formatterFor(options, locale).format(value)
}

/**
 * How one series' values read: a percent of total is a percent (its values are fractions);
 * otherwise the series' own format over the chart's; without one, the chart's, except that a
 * count is a plain number on a chart of money or percents.
 */
export function seriesNumberFormat(
	chart: ChartNumberFormat,
	series: Pick<ChartSeries, 'aggregation' | 'transform' | 'numberFormat'>,
): ChartNumberFormat {
	if (series.transform === 'percent_of_total') {
		return { ...chart, style: 'percent', compact: false }
	}
	if (series.numberFormat) {
		return { ...chart, ...series.numberFormat }
	}
	const isCount = series.aggregation === 'count' || series.aggregation === 'count_distinct'
	// Whole numbers: the cents of money do not apply to them either.
	return isCount && chart.style !== 'number' ? { ...chart, style: 'number', decimals: null } : chart
}

/** A change as a fraction, signed and in percent: `+25%`, `-12.5%`; no sign for zero. */
export function formatChartChange(change: number | null | undefined, locale = 'en-US'): string {
	if (change === null || change === undefined || !Number.isFinite(change)) {
		return noValue
	}
	return formatterFor(
		{ style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: 0, maximumFractionDigits: 1 },
		locale,
	).format(change)
}

/**
 * How long ago the figures were updated, short: "just now", "5 min ago", "3 h ago", "yesterday",
 * "4 days ago", then the date. The public page writes it and the embed's script keeps it current.
 */
export function formatUpdatedAgo(iso: string, now: Date, locale = 'en-US'): string {
	const then = new Date(iso)
	const seconds = Math.round((now.getTime() - then.getTime()) / 1000)
	if (!Number.isFinite(seconds)) {
		return ''
	}
	if (seconds < 60) {
		return 'just now'
	}
	const minutes = Math.floor(seconds / 60)
	if (minutes < 60) {
		return `${minutes} min ago`
	}
	const hours = Math.floor(minutes / 60)
	if (hours < 24) {
		return `${hours} h ago`
	}
	const days = Math.floor(hours / 24)
	if (days < 7) {
		return days === 1 ? 'yesterday' : `${days} days ago`
	}
	return `on ${formatterDate(locale).format(then)}`
}

let dateFormat: { locale: string; format: Intl.DateTimeFormat } | undefined

function formatterDate(locale: string): Intl.DateTimeFormat {
	if (dateFormat?.locale !== locale) {
		dateFormat = { locale, format: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }) }
	}
	return dateFormat.format
}
