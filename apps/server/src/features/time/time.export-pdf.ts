import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import PDFDocument from 'pdfkit'
import {
	amountText,
	groupTitles,
	hoursMinutesText,
	hoursText,
	type ReportDocument,
	rangeText,
	roundingText,
	summaryRows,
} from './time.export-format.ts'

// A report as a PDF: the view's name, range and time zone, its totals (hours, billable hours,
// amount), a table by its grouping and, for `entries`, the entry lines. Tables are drawn here
// rather than with pdfkit's table(): each page repeats the table's header, and rows have one
// fixed height (a long text ends in an ellipsis), so pages are laid out without measuring.
// Shaping text (Inter's OpenType features) is most of the time a long table takes, about
// 0.5 ms a line once warm; pdfkit caches it per word. The caller limits the lines (time.export.ts).
// Text is Inter (shipped in an npm package, embedded as a subset): the same on every machine,
// and copyable, since pdfkit writes each font's Unicode map. Dark text on white.

type PdfDoc = InstanceType<typeof PDFDocument>

const ink = '#111111'
const muted = '#4b4b4b'
const rule = '#c8c8c8'
const stripe = '#f3f3f3'
const margin = 40
const rowHeight = 15
const bodySize = 8.5

let fonts: { regular: Buffer; semiBold: Buffer } | undefined

/** Inter, read once from the package that also gives chart images their text. */
function loadFonts() {
	if (!fonts) {
		const require = createRequire(import.meta.url)
		const dir = path.dirname(require.resolve('@expo-google-fonts/inter/package.json'))
		fonts = {
			regular: readFileSync(path.join(dir, '400Regular/Inter_400Regular.ttf')),
			semiBold: readFileSync(path.join(dir, '600SemiBold/Inter_600SemiBold.ttf')),
		}
	}
	return fonts
}

type Column = { title: string; width: number; align?: 'left' | 'right' }
type TableRow = { cells: string[]; isBold?: boolean }

/** The lowest y a row may end at: below it the footer lives (pdfkit would add a page of its own). */
const bottomOf = (doc: PdfDoc) => doc.page.height - margin - 24

/** The text cut to `width` points with an ellipsis (in the current font and size). */
function fitText(doc: PdfDoc, text: string, width: number): { text: string; width: number } {
	const full = doc.widthOfString(text)
	if (full <= width) {
		return { text, width: full }
	}
	let low = 0
	let high = text.length
	while (low < high) {
		const middle = Math.ceil((low + high) / 2)
		if (doc.widthOfString(`${text.slice(0, middle).trimEnd()}…`) <= width) {
			low = middle
		} else {
			high = middle - 1
		}
	}
	const cut = `${text.slice(0, low).trimEnd()}…`
	return { text: cut, width: doc.widthOfString(cut) }
}

/**
 * One line per cell, cut to fit. Text is placed at computed positions without pdfkit's line
 * wrapper (given no width, it writes the line as is): a long table renders several times faster.
 */
function drawCells(doc: PdfDoc, columns: Column[], cells: string[], y: number, isBold: boolean): void {
	doc
		.font(isBold ? 'Inter-SemiBold' : 'Inter')
		.fontSize(bodySize)
		.fillColor(ink)
	let x = margin
	for (const [index, column] of columns.entries()) {
		const text = cells[index] ?? ''
		if (text) {
			const fitted = fitText(doc, text, column.width - 6)
			const left = column.align === 'right' ? x + column.width - 3 - fitted.width : x + 3
			doc.text(fitted.text, left, y + 4, { lineBreak: false })
		}
		x += column.width
	}
}

function drawHeader(doc: PdfDoc, columns: Column[], y: number): number {
	const width = columns.reduce((sum, column) => sum + column.width, 0)
	drawCells(
		doc,
		columns,
		columns.map((column) => column.title),
		y,
		true,
	)
	doc
		.moveTo(margin, y + rowHeight + 1)
		.lineTo(margin + width, y + rowHeight + 1)
		.lineWidth(0.75)
		.strokeColor(ink)
		.stroke()
	return y + rowHeight + 3
}

/** A table over as many pages as it needs, its header on each; returns the y below it. */
function drawTable(doc: PdfDoc, columns: Column[], rows: TableRow[]): void {
	const width = columns.reduce((sum, column) => sum + column.width, 0)
	let y = doc.y
	if (y + 2 * rowHeight + 4 > bottomOf(doc)) {
		doc.addPage()
		y = margin
	}
	y = drawHeader(doc, columns, y)
	for (const [index, row] of rows.entries()) {
		if (y + rowHeight > bottomOf(doc)) {
			doc.addPage()
			y = drawHeader(doc, columns, margin)
		}
		if (row.isBold) {
			doc
				.moveTo(margin, y)
				.lineTo(margin + width, y)
				.lineWidth(0.5)
				.strokeColor(rule)
				.stroke()
		} else if (index % 2 === 1) {
			doc.rect(margin, y, width, rowHeight).fillColor(stripe).fill()
		}
		drawCells(doc, columns, row.cells, y, row.isBold ?? false)
		y += rowHeight
	}
	doc.x = margin
	doc.y = y + 14
}

function heading(doc: PdfDoc, text: string): void {
	if (doc.y + 40 > bottomOf(doc)) {
		doc.addPage()
	}
	doc.font('Inter-SemiBold').fontSize(11).fillColor(ink).text(text, margin, doc.y)
	doc.moveDown(0.4)
}

/** Three figures side by side: total hours, billable hours, amount. */
function drawTotals(doc: PdfDoc, report: ReportDocument, contentWidth: number): void {
	const { totals, currency } = report.analytics
	const boxes = [
		{ label: 'Total hours', value: hoursMinutesText(totals.seconds), note: `${hoursText(totals.seconds)} h` },
		{
			label: 'Billable hours',
			value: hoursMinutesText(totals.billableSeconds),
			note: `${hoursText(totals.billableSeconds)} h`,
		},
		{
			label: 'Amount',
			value: totals.amount === null ? '—' : `${amountText(totals.amount, currency)} ${currency}`,
			note: `${totals.entries} ${totals.entries === 1 ? 'entry' : 'entries'}`,
		},
	]
	const gap = 12
	const width = (contentWidth - gap * (boxes.length - 1)) / boxes.length
	const top = doc.y
	for (const [index, box] of boxes.entries()) {
		const x = margin + index * (width + gap)
		doc.rect(x, top, width, 58).lineWidth(0.75).strokeColor(rule).stroke()
		doc
			.font('Inter')
			.fontSize(8.5)
			.fillColor(muted)
			.text(box.label, x + 10, top + 8, { width: width - 20 })
		doc
			.font('Inter-SemiBold')
			.fontSize(16)
			.fillColor(ink)
			.text(box.value, x + 10, top + 21, { width: width - 20, height: 20, ellipsis: true })
		doc
			.font('Inter')
			.fontSize(8.5)
			.fillColor(muted)
			.text(box.note, x + 10, top + 42, { width: width - 20 })
	}
	doc.x = margin
	doc.y = top + 58 + 18
}

function footers(doc: PdfDoc, report: ReportDocument): void {
	const range = doc.bufferedPageRange()
	for (let index = range.start; index < range.start + range.count; index++) {
		doc.switchToPage(index)
		// Inside the bottom margin: lift it so pdfkit does not start a page for the footer.
		const bottom = doc.page.margins.bottom
		doc.page.margins.bottom = 0
		const y = doc.page.height - margin - 10
		const width = doc.page.width - 2 * margin
		doc.font('Inter').fontSize(7.5).fillColor(muted)
		doc.text(report.title, margin, y, { width: width * 0.7, height: 10, ellipsis: true, lineBreak: false })
		doc.text(`Page ${index + 1} of ${range.count}`, margin, y, { width, align: 'right', lineBreak: false })
		doc.page.margins.bottom = bottom
	}
}

export async function reportPdf(report: ReportDocument): Promise<Buffer> {
	const { analytics } = report
	const { currency } = analytics
	const doc = new PDFDocument({
		size: 'A4',
		margin,
		bufferPages: true,
		info: { Title: report.title, Creator: 'Blocksmith', Producer: 'Blocksmith' },
		lang: 'en',
	})
	const chunks: Buffer[] = []
	doc.on('data', (chunk: Buffer) => chunks.push(chunk))
	const done = new Promise<Buffer>((resolve, reject) => {
		doc.on('end', () => resolve(Buffer.concat(chunks)))
		doc.on('error', reject)
	})
	const { regular, semiBold } = loadFonts()
	doc.registerFont('Inter', regular)
	doc.registerFont('Inter-SemiBold', semiBold)
	const contentWidth = doc.page.width - 2 * margin

	doc.font('Inter-SemiBold').fontSize(18).fillColor(ink).text(report.title, margin, margin, { width: contentWidth })
	doc.moveDown(0.2)
	const about = [rangeText(analytics), `Time zone: ${analytics.timeZone}`, roundingText(analytics.rounding)]
		.filter(Boolean)
		.join('   ·   ')
	doc.font('Inter').fontSize(9.5).fillColor(muted).text(about, { width: contentWidth })
	const generated = `Generated ${analytics.generatedAt.slice(0, 16).replace('T', ' ')} UTC`
	const running = analytics.running > 0 ? ` · ${analytics.running} running, counted up to then` : ''
	doc.text(`${generated}${running}`, { width: contentWidth })
	doc.moveDown(1.2)
	drawTotals(doc, report, contentWidth)

	const groupTitle = groupTitles[report.groupBy]
	heading(doc, `By ${groupTitle.toLowerCase()}`)
	const numeric = (title: string, width: number): Column => ({ title, width, align: 'right' })
	const figureColumns = [
		numeric('Hours', 62),
		numeric('Duration', 62),
		numeric('Billable h', 62),
		numeric(`Amount (${currency})`, 82),
		numeric('Entries', 52),
	]
	const labelWidth = contentWidth - figureColumns.reduce((sum, column) => sum + column.width, 0)
	const summaryColumns: Column[] = [{ title: groupTitle, width: labelWidth }, ...figureColumns]
	const { totals } = analytics
	drawTable(doc, summaryColumns, [
		...summaryRows(analytics, report.groupBy).map((row) => ({
			cells: [
				row.label,
				hoursText(row.seconds),
				hoursMinutesText(row.seconds),
				hoursText(row.billableSeconds),
				amountText(row.amount, currency),
				row.hasEntries ? String(row.entries) : '',
			],
		})),
		{
			cells: [
				'Total',
				hoursText(totals.seconds),
				hoursMinutesText(totals.seconds),
				hoursText(totals.billableSeconds),
				amountText(totals.amount, currency),
				String(totals.entries),
			],
			isBold: true,
		},
	])

	if (report.lines) {
		heading(doc, 'Entries')
		const fixed = 58 + 62 + 72 + 84 + 40 + 58
		drawTable(
			doc,
			[
				{ title: 'Date', width: 58 },
				{ title: 'Time', width: 62 },
				{ title: 'Person', width: 72 },
				{ title: 'Project', width: 84 },
				{ title: 'Description', width: contentWidth - fixed },
				numeric('Hours', 40),
				numeric(`Amount`, 58),
			],
			report.lines.map((line) => ({
				cells: [
					line.date,
					`${line.start}–${line.end ?? '…'}`,
					line.person,
					line.project,
					[line.task, line.description].filter(Boolean).join(' · '),
					hoursText(line.seconds),
					amountText(line.amount, currency),
				],
			})),
		)
		if (report.lines.length === 0) {
			doc.font('Inter').fontSize(bodySize).fillColor(muted).text('No entries in this range.', margin, doc.y)
		}
	}
	footers(doc, report)
	doc.end()
	return done
}
