import Papa from 'papaparse'
import readXlsxFile from 'read-excel-file/node'
import { extractText } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { reportCsv } from './time.export-csv.ts'
import {
	amountText,
	type ExportLine,
	exportFileName,
	hoursMinutesText,
	hoursText,
	type ReportAnalytics,
	type ReportDocument,
} from './time.export-format.ts'
import { reportPdf } from './time.export-pdf.ts'
import { reportXlsx } from './time.export-xlsx.ts'

// The renderers over a made-up report: each output read back (CSV with papaparse, XLSX with
// read-excel-file, PDF text with unpdf) gives the figures it was given.

const figures = (seconds: number, billableSeconds: number, amount: number | null, entries: number) => ({
	seconds,
	billableSeconds,
	amount,
	entries,
})

const analytics: ReportAnalytics = {
	from: '2026-11-02',
	to: '2026-11-08',
	timeZone: 'Europe/Berlin',
	currency: 'EUR',
	rounding: { mode: 'up', minutes: 15, scope: 'entry' },
	totals: figures(5400 + 1800 + 3599, 5400, 18075, 3),
	groups: {
		project: [
			{ key: 'p1', label: '=HYPERLINK("http://evil")', ...figures(5400, 5400, 18075, 1) },
			{ key: 'none', label: 'No project', ...figures(1800 + 3599, 0, null, 2) },
		],
		person: [{ key: 'u1', label: 'Ada Lovelace', ...figures(10799, 5400, 18075, 3) }],
		client: [],
		task: [],
		tag: [],
	},
	running: 0,
	overlaps: 0,
	generatedAt: '2026-11-09T08:00:00.000Z',
}

const line = (overrides: Partial<ExportLine>): ExportLine => ({
	date: '2026-11-02',
	start: '09:00',
	end: '10:30',
	person: 'Ada Lovelace',
	project: 'Website',
	client: 'Acme',
	task: 'Design',
	tags: ['Deep work', 'Meeting'],
	billable: true,
	description: 'Home page',
	seconds: 5400,
	amount: 18075,
	...overrides,
})

const lines = [
	line({}),
	line({ description: '@SUM(A1:A2)', billable: false, amount: null, seconds: 1800, start: '11:00', end: '11:30' }),
	line({ description: 'Still going', billable: false, amount: null, seconds: 3599, end: null }),
]

const report: ReportDocument = { title: 'Client work', analytics, groupBy: 'project', lines }
const summary: ReportDocument = { ...report, lines: null }

describe('figures as text', () => {
	it('writes hours with two decimals and h:mm, half-up from whole seconds', () => {
		expect(hoursText(5400)).toBe('1.50')
		expect(hoursText(17)).toBe('0.00')
		expect(hoursText(18)).toBe('0.01')
		expect(hoursText(3599)).toBe('1.00')
		expect(hoursMinutesText(5400)).toBe('1:30')
		expect(hoursMinutesText(29)).toBe('0:00')
		expect(hoursMinutesText(30)).toBe('0:01')
		expect(hoursMinutesText(100_000)).toBe('27:47')
	})

	it('writes amounts as exact decimals of their currency', () => {
		expect(amountText(12050, 'EUR')).toBe('120.50')
		expect(amountText(5, 'EUR')).toBe('0.05')
		expect(amountText(5000, 'JPY')).toBe('5000')
		expect(amountText(1234, 'BHD')).toBe('1.234')
		expect(amountText(900719925474099, 'EUR')).toBe('9007199254740.99')
		expect(amountText(null, 'EUR')).toBe('')
	})

	it('names the file after the view and its range', () => {
		expect(exportFileName('Client work / Q4', analytics, 'csv')).toBe('Client work Q4 2026-11-02 to 2026-11-08.csv')
		expect(exportFileName('', { from: null, to: null }, 'pdf')).toBe('Time report All time.pdf')
	})
})

describe('CSV', () => {
	it('lists each line with its hours and amount; text that a spreadsheet would run is quoted away', () => {
		const csv = reportCsv(report)
		expect(csv.startsWith('\uFEFF')).toBe(true)
		const parsed = Papa.parse<Record<string, string>>(csv.slice(1), { header: true, skipEmptyLines: true })
		expect(parsed.errors).toEqual([])
		expect(parsed.data).toHaveLength(3)
		expect(parsed.data[0]).toMatchObject({
			Date: '2026-11-02',
			Project: 'Website',
			Tags: 'Deep work, Meeting',
			Billable: 'Yes',
			Hours: '1.50',
			Duration: '1:30',
			'Amount (EUR)': '180.75',
		})
		expect(parsed.data[1]?.Description).toBe("'@SUM(A1:A2)")
		expect(parsed.data[2]).toMatchObject({ End: '', Hours: '1.00', 'Amount (EUR)': '' })
	})

	it('sums up by the grouping, with a total row', () => {
		const parsed = Papa.parse<Record<string, string>>(reportCsv(summary).slice(1), {
			header: true,
			skipEmptyLines: true,
		})
		expect(parsed.data.map((row) => row.Project)).toEqual(['\'=HYPERLINK("http://evil")', 'No project', 'Total'])
		expect(parsed.data[0]).toMatchObject({
			Hours: '1.50',
			'Billable hours': '1.50',
			'Amount (EUR)': '180.75',
			Entries: '1',
		})
		expect(parsed.data[2]).toMatchObject({ Hours: '3.00', Duration: '3:00', 'Amount (EUR)': '180.75', Entries: '3' })
	})

	it('splits the time into billable and not when the view groups by billable', () => {
		const parsed = Papa.parse<string[]>(reportCsv({ ...summary, groupBy: 'billable' }).slice(1), {
			skipEmptyLines: true,
		})
		expect(parsed.data.slice(1).map((row) => [row[0], row[1], row[4]])).toEqual([
			['Billable', '1.50', '180.75'],
			['Non-billable', '1.50', ''],
			['Total', '3.00', '180.75'],
		])
	})
})

describe('XLSX', () => {
	it('has a summary sheet and an entries sheet whose numbers are the figures', async () => {
		const sheets = await readXlsxFile(await reportXlsx(report))
		expect(sheets.map((sheet) => sheet.sheet)).toEqual(['Summary', 'Entries'])
		const [summarySheet, entriesSheet] = sheets
		expect(summarySheet?.data[0]?.[0]).toBe('Client work')
		expect(summarySheet?.data[1]?.[0]).toContain('Europe/Berlin')
		expect(summarySheet?.data[3]).toEqual(['Project', 'Hours', 'Duration', 'Billable hours', 'Amount (EUR)', 'Entries'])
		// A label is text, never a formula.
		expect(summarySheet?.data[4]).toEqual(['=HYPERLINK("http://evil")', 1.5, '1:30', 1.5, 180.75, 1])
		expect(summarySheet?.data[6]).toEqual(['Total', 3, '3:00', 1.5, 180.75, 3])
		expect(entriesSheet?.data).toHaveLength(4)
		expect(entriesSheet?.data[1]).toEqual([
			'2026-11-02',
			'09:00',
			'10:30',
			'Ada Lovelace',
			'Website',
			'Acme',
			'Design',
			'Deep work, Meeting',
			'Yes',
			'Home page',
			1.5,
			'1:30',
			180.75,
		])
	})

	it('leaves the entries sheet out of a summary', async () => {
		const sheets = await readXlsxFile(await reportXlsx(summary))
		expect(sheets.map((sheet) => sheet.sheet)).toEqual(['Summary'])
	})
})

describe('PDF', () => {
	it('is a report with its title, range, time zone, totals, groups and lines in text', async () => {
		const pdf = await reportPdf(report)
		expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
		const { text, totalPages } = await extractText(new Uint8Array(pdf), { mergePages: true })
		expect(totalPages).toBe(1)
		for (const expected of [
			'Client work',
			'2026-11-02 – 2026-11-08',
			'Europe/Berlin',
			'Rounded up 15 min, per entry',
			'3:00',
			'180.75 EUR',
			'No project',
			'=HYPERLINK',
			'Home page',
			'09:00–10:30',
			'Page 1 of 1',
		]) {
			expect(text).toContain(expected)
		}
	})

	it('runs long tables over pages, the header repeated on each', async () => {
		const many = Array.from({ length: 400 }, (_, index) => line({ description: `Entry number ${index}` }))
		const pdf = await reportPdf({ ...report, lines: many })
		const { text, totalPages } = await extractText(new Uint8Array(pdf))
		expect(totalPages).toBeGreaterThan(5)
		expect(text).toHaveLength(totalPages)
		for (const [index, page] of text.entries()) {
			if (index > 0) {
				expect(page).toMatch(/Date\s+Time\s+Person\s+Project\s+Description/)
			}
			expect(page).toContain(`Page ${index + 1} of ${totalPages}`)
		}
		expect(text.join('\n')).toContain('Entry number 399')
	})
})
