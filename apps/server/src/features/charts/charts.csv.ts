import type { ChartDisplay, ChartFigures } from '@blocksmith/contracts/charts.ts'

// The figures of a chart as CSV (RFC 4180: comma, CRLF, quotes doubled): what was drawn, as
// numbers a spreadsheet can use. Numbers are written as the figures hold them, unformatted and
// unrounded; an empty cell is a group without a value.

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return, which some
 * strip first) as a formula: a label such as `=HYPERLINK(…)` from someone's database would run on
 * the reader's machine. Such text cells get a leading apostrophe. Numbers are never text here,
 * so a negative number keeps its minus.
 */
function textCell(value: string): string {
	const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
	return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded
}

function numberCell(value: number | null | undefined): string {
	return value === null || value === undefined || !Number.isFinite(value) ? '' : String(value)
}

function lines(rows: string[][]): string {
	return rows.map((row) => `${row.join(',')}\r\n`).join('')
}

export function figuresCsv(figures: ChartFigures, display: ChartDisplay): string {
	if (figures.kpi) {
		const { kpi } = figures
		return lines([
			['label', 'value', 'previous', 'change'],
			[textCell(kpi.currentLabel), numberCell(kpi.value), numberCell(kpi.previous), numberCell(kpi.change)],
		])
	}
	if (figures.points) {
		return lines([
			['x', 'y', 'group', 'label'],
			...figures.points.map((point) => [
				numberCell(point.x),
				numberCell(point.y),
				textCell(point.group ?? ''),
				textCell(point.label),
			]),
		])
	}
	const header = [textCell(display.xAxisTitle || 'Label'), ...figures.series.map((series) => textCell(series.name))]
	return lines([
		header,
		...figures.categories.map((category, index) => [
			textCell(category.label),
			...figures.series.map((series) => numberCell(series.values[index])),
		]),
	])
}
