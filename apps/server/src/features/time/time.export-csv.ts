import Papa from 'papaparse'
import {
	amountText,
	billableText,
	groupTitles,
	hoursMinutesText,
	hoursText,
	type ReportDocument,
	summaryRows,
} from './time.export-format.ts'

// A report as CSV: the entry lines (one per entry and local day) or the summary by the view's
// grouping, with a total row. Durations twice (decimal hours and h:mm), amounts as exact
// decimals of the currency. Text from someone's database is guarded like the forms' export
// (papaparse's escapeFormulae: a cell starting with = + - @ tab or CR gets a leading
// apostrophe), so a spreadsheet never runs it. A BOM lets spreadsheet apps read UTF-8.

function csvOf(rows: string[][]): string {
	return `\uFEFF${Papa.unparse(rows, { escapeFormulae: true, newline: '\r\n' })}\r\n`
}

export function reportCsv(report: ReportDocument): string {
	const { analytics } = report
	const currency = analytics.currency
	if (report.lines) {
		const header = [
			'Date',
			'Start',
			'End',
			'Person',
			'Project',
			'Client',
			'Task',
			'Tags',
			'Billable',
			'Description',
			'Hours',
			'Duration',
			`Amount (${currency})`,
		]
		return csvOf([
			header,
			...report.lines.map((line) => [
				line.date,
				line.start,
				line.end ?? '',
				line.person,
				line.project,
				line.client,
				line.task,
				line.tags.join(', '),
				billableText(line.billable),
				line.description,
				hoursText(line.seconds),
				hoursMinutesText(line.seconds),
				amountText(line.amount, currency),
			]),
		])
	}
	const header = [groupTitles[report.groupBy], 'Hours', 'Duration', 'Billable hours', `Amount (${currency})`, 'Entries']
	const { totals } = analytics
	return csvOf([
		header,
		...summaryRows(analytics, report.groupBy).map((row) => [
			row.label,
			hoursText(row.seconds),
			hoursMinutesText(row.seconds),
			hoursText(row.billableSeconds),
			amountText(row.amount, currency),
			row.hasEntries ? String(row.entries) : '',
		]),
		[
			'Total',
			hoursText(totals.seconds),
			hoursMinutesText(totals.seconds),
			hoursText(totals.billableSeconds),
			amountText(totals.amount, currency),
			String(totals.entries),
		],
	])
}
