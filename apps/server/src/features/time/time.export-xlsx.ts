import writeXlsxFile, { type Cell, type Row, type Sheet } from 'write-excel-file/node'
import {
	amountText,
	billableText,
	currencyDigits,
	groupTitles,
	hoursMinutesText,
	hoursText,
	type ReportDocument,
	rangeText,
	roundingText,
	summaryRows,
} from './time.export-format.ts'

// A report as an XLSX workbook: a Summary sheet (the view's name, range and time zone, then
// the figures by its grouping and a total row) and, for `entries`, an Entries sheet with one
// row per entry and local day. Hours and amounts are number cells, so a spreadsheet can add
// them up; their values are the exact decimal text of the integer figures (120.50 is written
// "120.5"), and formats show two decimals (the currency's digits for amounts). Durations are
// also given as h:mm text. Text cells are never formulas in XLSX, so nothing here is run.

/** Sheets without images: the file-content type parameter is unused. */
type WorkbookSheet = Sheet<Buffer>

const bold = { fontWeight: 'bold' as const }
const headerCell = (text: string): Cell => ({ value: text, ...bold, bottomBorderStyle: 'thin' })

function hoursCell(seconds: number, extra: object = {}): Cell {
	return { value: Number(hoursText(seconds)), type: Number, format: '0.00', ...extra }
}

function amountCell(minorUnits: number | null, currency: string, extra: object = {}): Cell {
	if (minorUnits === null) {
		return null
	}
	const digits = currencyDigits(currency)
	const format = digits === 0 ? '#,##0' : `#,##0.${'0'.repeat(digits)}`
	return { value: Number(amountText(minorUnits, currency)), type: Number, format, ...extra }
}

function summarySheet(report: ReportDocument): WorkbookSheet {
	const { analytics, groupBy } = report
	const { currency, totals } = analytics
	const about = [rangeText(analytics), `Time zone ${analytics.timeZone}`, roundingText(analytics.rounding)]
		.filter(Boolean)
		.join(' · ')
	const header = [groupTitles[groupBy], 'Hours', 'Duration', 'Billable hours', `Amount (${currency})`, 'Entries']
	const rows: Row[] = [
		[{ value: report.title, ...bold, fontSize: 14 }],
		[about],
		[],
		header.map(headerCell),
		...summaryRows(analytics, groupBy).map(
			(row): Row => [
				row.label,
				hoursCell(row.seconds),
				hoursMinutesText(row.seconds),
				hoursCell(row.billableSeconds),
				amountCell(row.amount, currency),
				row.hasEntries ? { value: row.entries, type: Number } : null,
			],
		),
		[
			{ value: 'Total', ...bold },
			hoursCell(totals.seconds, bold),
			{ value: hoursMinutesText(totals.seconds), ...bold },
			hoursCell(totals.billableSeconds, bold),
			amountCell(totals.amount, currency, bold),
			{ value: totals.entries, type: Number, ...bold },
		],
	]
	return {
		sheet: 'Summary',
		data: rows,
		columns: [{ width: 32 }, { width: 10 }, { width: 10 }, { width: 14 }, { width: 16 }, { width: 10 }],
	}
}

function entriesSheet(report: ReportDocument, lines: NonNullable<ReportDocument['lines']>): WorkbookSheet {
	const { currency } = report.analytics
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
	return {
		sheet: 'Entries',
		stickyRowsCount: 1,
		data: [
			header.map(headerCell),
			...lines.map(
				(line): Row => [
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
					hoursCell(line.seconds),
					hoursMinutesText(line.seconds),
					amountCell(line.amount, currency),
				],
			),
		],
		columns: [10, 7, 7, 20, 24, 20, 20, 20, 8, 40, 8, 8, 14].map((width) => ({ width })),
	}
}

export async function reportXlsx(report: ReportDocument): Promise<Buffer> {
	const sheets = [summarySheet(report)]
	if (report.lines) {
		sheets.push(entriesSheet(report, report.lines))
	}
	return writeXlsxFile(sheets, { fontFamily: 'Calibri', fontSize: 11 }).toBuffer()
}
