import type { InvoiceDesign } from '@blocksmith/contracts/invoices.ts'
import PDFDocument from 'pdfkit'
import { type FontPair, fontPairs, inter, isWinAnsi } from './invoices.pdf-fonts.ts'
import { type InvoiceDocument, type InvoiceTexts, invoiceTexts } from './invoices.pdf-model.ts'

// An invoice or credit note as a PDF, drawn with pdfkit (no browser: a 20-line invoice takes a
// few milliseconds, bench/invoices-pdf.bench.ts). Three designs share one layout and differ in
// their header, table header and totals (see `styles`); each takes the profile's accent and text
// colours, logo and font. Every text comes from invoiceTexts(): nothing here computes a figure.
//
// Fonts (sans Inter, serif Times, mono Courier) are in invoices.pdf-fonts.ts.
//
// Tables are drawn at computed positions, like the time report's PDF (time.export-pdf.ts): a row
// is one line unless its description is longer than its column, then it wraps; the table's
// header is repeated on each page, and each page's footer says "Page n of m".

type PdfDoc = InstanceType<typeof PDFDocument>

type Style = {
	size: number
	rowHeight: number
	titleSize: number
	/** A band in the accent colour across the top, holding the title. */
	band: boolean
	/** The table's header filled with the accent colour (else a rule under it). */
	filledHeader: boolean
	/** The sender on one line under the logo, the title beside the logo. */
	inline: boolean
	/** The amount due in a box in the accent colour. */
	totalBox: boolean
}

const styles: Record<InvoiceDesign, Style> = {
	classic: { size: 9, rowHeight: 18, titleSize: 24, band: false, filledHeader: false, inline: false, totalBox: false },
	modern: { size: 9, rowHeight: 20, titleSize: 26, band: true, filledHeader: true, inline: false, totalBox: true },
	compact: { size: 7.5, rowHeight: 13, titleSize: 16, band: false, filledHeader: false, inline: true, totalBox: false },
}

const margin = 48
const footerHeight = 34

/** #rrggbb mixed with white: `amount` 0 keeps the colour, 1 is white. */
function lighten(hex: string, amount: number): string {
	const channel = (index: number) => {
		const value = Number.parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16)
		return Math.round(value + (255 - value) * amount)
			.toString(16)
			.padStart(2, '0')
	}
	return `#${channel(0)}${channel(1)}${channel(2)}`
}

/** Relative luminance (WCAG), 0 black to 1 white. */
function luminance(hex: string): number {
	const [r, g, b] = [0, 1, 2].map((index) => {
		const value = Number.parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16) / 255
		return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
	})
	return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0)
}

/** Whether white text reads on the colour. */
function isDark(hex: string): boolean {
	return luminance(hex) < 0.4
}

/** Whether the colour reads as text on white (luminance well below white's). */
function isReadable(hex: string): boolean {
	return luminance(hex) < 0.3
}

type TextOptions = { bold?: boolean; size?: number; color?: string; width?: number; align?: 'left' | 'right' }

/** What drawing needs besides pdfkit: the style, fonts and colours of this document. */
class Pen {
	readonly ink: string
	readonly muted: string
	readonly rule: string
	readonly stripe: string
	readonly accent: string
	/** Text on the accent colour. */
	readonly onAccent: string
	/** Headings on white: the accent, unless it is too light to read. */
	readonly heading: string
	readonly left = margin
	readonly right: number
	readonly width: number
	readonly doc: PdfDoc
	readonly style: Style
	readonly fonts: FontPair

	constructor(doc: PdfDoc, style: Style, fonts: FontPair, template: InvoiceDocument['profile']['template']) {
		this.doc = doc
		this.style = style
		this.fonts = fonts
		this.ink = template.textColor
		this.muted = lighten(template.textColor, 0.35)
		this.rule = lighten(template.textColor, 0.75)
		this.stripe = lighten(template.accentColor, 0.93)
		this.accent = template.accentColor
		this.onAccent = isDark(template.accentColor) ? '#ffffff' : template.textColor
		this.heading = isReadable(template.accentColor) ? template.accentColor : template.textColor
		this.right = doc.page.width - margin
		this.width = this.right - this.left
	}

	/** The lowest y a row may end at: the footer is below. */
	get bottom(): number {
		return this.doc.page.height - margin - footerHeight
	}

	font(text: string, bold: boolean, size: number): void {
		const pair = this.fonts.embedded || isWinAnsi(text) ? this.fonts : fontPairs.sans
		this.doc.font(bold ? pair.bold : pair.regular).fontSize(size)
	}

	widthOf(text: string, options: TextOptions = {}): number {
		this.font(text, options.bold ?? false, options.size ?? this.style.size)
		return this.doc.widthOfString(text)
	}

	/** The height of the text wrapped at `width`, in the body size. */
	heightOf(text: string, width: number): number {
		this.font(text, false, this.style.size)
		return this.doc.heightOfString(text, { width })
	}

	/**
	 * One line at (x, y), right-aligned to x + width when asked; given a width and left-aligned it
	 * wraps. Returns the height it took.
	 */
	text(text: string, x: number, y: number, options: TextOptions = {}): number {
		const size = options.size ?? this.style.size
		this.font(text, options.bold ?? false, size)
		this.doc.fillColor(options.color ?? this.ink)
		if (options.align === 'right' && options.width !== undefined) {
			this.doc.text(text, x + options.width - this.doc.widthOfString(text), y, { lineBreak: false })
			return this.doc.currentLineHeight(true)
		}
		if (options.width !== undefined && this.doc.widthOfString(text) > options.width) {
			this.doc.text(text, x, y, { width: options.width })
			return this.doc.heightOfString(text, { width: options.width })
		}
		this.doc.text(text, x, y, { lineBreak: false })
		return this.doc.currentLineHeight(true)
	}

	/** Lines under each other from y; returns the y below them. */
	block(lines: string[], x: number, y: number, options: TextOptions = {}): number {
		let next = y
		for (const line of lines) {
			next += this.text(line, x, next, options) + 1.5
		}
		return next
	}

	hline(y: number, x1 = this.left, x2 = this.right, color = this.rule, width = 0.6): void {
		this.doc.moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor(color).stroke()
	}
}

/** Whether the bytes start as a PNG or a JPEG does (what pdfkit embeds). */
function looksLikeImage(bytes: Uint8Array): boolean {
	const png = [0x89, 0x50, 0x4e, 0x47]
	return png.every((byte, index) => bytes[index] === byte) || (bytes[0] === 0xff && bytes[1] === 0xd8)
}

function drawLogo(
	pen: Pen,
	logo: InvoiceDocument['profile']['logo'],
	[x, y, w, h]: [number, number, number, number],
	isCentered = false,
) {
	if (!logo || !looksLikeImage(logo.bytes)) {
		return false
	}
	try {
		pen.doc.image(Buffer.from(logo.bytes.buffer, logo.bytes.byteOffset, logo.bytes.byteLength), x, y, {
			fit: [w, h],
			...(isCentered ? { align: 'center', valign: 'center' } : {}),
		})
		return true
	} catch {
		// A file that is not a readable PNG or JPEG: the invoice is still drawn, without it.
		return false
	}
}

/** The sender, the title and number, the client and the dates; returns the y below. */
function drawHeader(pen: Pen, document: InvoiceDocument, texts: InvoiceTexts): number {
	const { style, left, right, width } = pen
	const top = margin
	let y: number
	if (style.band) {
		const bandHeight = 92
		pen.doc.rect(0, 0, pen.doc.page.width, bandHeight).fillColor(pen.accent).fill()
		pen.text(texts.title, left, 28, { bold: true, size: style.titleSize, color: pen.onAccent })
		pen.text(texts.number, left, 62, { size: 11, color: pen.onAccent })
		const logo = document.profile.logo
		if (logo && looksLikeImage(logo.bytes)) {
			// On a white card: a logo drawn for white paper may vanish on the accent colour.
			pen.doc
				.roundedRect(right - 166, 14, 166, 64, 6)
				.fillColor('#ffffff')
				.fill()
			drawLogo(pen, logo, [right - 158, 20, 150, 52], true)
		}
		const senderTop = bandHeight + 20
		pen.text(texts.sender.name, left, senderTop, { bold: true })
		const senderBottom = pen.block(texts.sender.lines, left, senderTop + style.size + 4, { color: pen.muted })
		const metaBottom = drawMeta(pen, texts.meta.slice(1), right - 200, senderTop, 200)
		y = Math.max(senderBottom, metaBottom) + 18
	} else if (style.inline) {
		const hasLogo = drawLogo(pen, document.profile.logo, [left, top, 90, 30])
		pen.text(texts.title, hasLogo ? left + 100 : left, top + 4, {
			bold: true,
			size: style.titleSize,
			color: pen.heading,
		})
		const sender = [texts.sender.name, ...texts.sender.lines].join(' · ')
		const senderHeight = pen.text(sender, left, top + 38, { color: pen.muted, width })
		y = top + 38 + senderHeight + 8
		pen.hline(y - 4)
		const metaBottom = drawMeta(pen, texts.meta, right - 190, y + 4, 190)
		const clientBottom = drawClient(pen, document, texts, left, y + 4, width - 210)
		return Math.max(metaBottom, clientBottom) + 14
	} else {
		const hasLogo = drawLogo(pen, document.profile.logo, [left, top, 160, 56])
		pen.text(texts.sender.name, right - 220, top, { bold: true, width: 220, align: 'right' })
		let senderY = top + style.size + 5
		for (const line of texts.sender.lines) {
			senderY += pen.text(line, right - 220, senderY, { color: pen.muted, width: 220, align: 'right' }) + 1.5
		}
		y = Math.max(senderY, hasLogo ? top + 60 : top) + 22
		pen.text(texts.title, left, y, { bold: true, size: style.titleSize, color: pen.heading })
		y += style.titleSize + 14
	}
	const metaBottom = drawMeta(pen, style.band ? [] : texts.meta, right - 200, y, 200)
	const clientBottom = drawClient(pen, document, texts, left, y, width - 230)
	return Math.max(metaBottom, clientBottom) + 22
}

function drawMeta(pen: Pen, meta: [string, string][], x: number, y: number, width: number): number {
	let next = y
	for (const [label, value] of meta) {
		pen.text(label, x, next, { color: pen.muted })
		next += pen.text(value, x, next, { bold: true, width, align: 'right' }) + 2
	}
	return next
}

function drawClient(pen: Pen, document: InvoiceDocument, texts: InvoiceTexts, x: number, y: number, width: number) {
	const label = document.kind === 'creditNote' ? 'Credit to' : 'Bill to'
	pen.text(label.toUpperCase(), x, y, { size: pen.style.size - 1, color: pen.muted, bold: true })
	const nameY = y + pen.style.size + 4
	const nameHeight = pen.text(texts.client.name, x, nameY, { bold: true, size: pen.style.size + 1.5, width })
	return pen.block(texts.client.lines, x, nameY + nameHeight + 1, { width })
}

type Column = { key: keyof InvoiceTexts['lines'][number]; width: number; align: 'left' | 'right' }

function columnsFor(pen: Pen): Column[] {
	const scale = pen.style.size / 9
	const fixed = [
		{ key: 'quantity', width: 62 * scale, align: 'right' },
		{ key: 'unitPrice', width: 72 * scale, align: 'right' },
		{ key: 'discount', width: 54 * scale, align: 'right' },
		{ key: 'vat', width: 42 * scale, align: 'right' },
		{ key: 'amount', width: 80 * scale, align: 'right' },
	] as const
	const used = fixed.reduce((sum, column) => sum + column.width, 0)
	return [{ key: 'description', width: pen.width - used, align: 'left' }, ...fixed]
}

const pad = 4

function drawTableHeader(pen: Pen, texts: InvoiceTexts, columns: Column[], y: number): number {
	const { style } = pen
	const height = style.rowHeight
	const color = style.filledHeader ? pen.onAccent : pen.ink
	if (style.filledHeader) {
		pen.doc.rect(pen.left, y, pen.width, height).fillColor(pen.accent).fill()
	}
	let x = pen.left
	const textY = y + (height - style.size) / 2 - 1
	for (const column of columns) {
		pen.text(texts.columns[column.key], x + pad, textY, {
			bold: true,
			color,
			width: column.width - 2 * pad,
			align: column.align,
		})
		x += column.width
	}
	if (!style.filledHeader) {
		pen.hline(y + height, pen.left, pen.right, pen.accent, 1)
	}
	return y + height + 2
}

/** The lines, over as many pages as they need, the header on each; returns the y below. */
function drawLines(pen: Pen, texts: InvoiceTexts, top: number): number {
	const { style, doc } = pen
	const columns = columnsFor(pen)
	const description = columns[0] as Column
	let y = top
	if (y + 3 * style.rowHeight > pen.bottom) {
		doc.addPage()
		y = margin
	}
	y = drawTableHeader(pen, texts, columns, y)
	for (const [index, line] of texts.lines.entries()) {
		// Only a description longer than its column is measured: most rows are one line.
		const wraps = pen.widthOf(line.description) > description.width - 2 * pad
		const textHeight = wraps ? pen.heightOf(line.description, description.width - 2 * pad) : style.size
		const height = Math.max(style.rowHeight, textHeight + style.rowHeight - style.size)
		if (y + height > pen.bottom) {
			doc.addPage()
			y = drawTableHeader(pen, texts, columns, margin)
		}
		if (index % 2 === 1) {
			doc.rect(pen.left, y, pen.width, height).fillColor(pen.stripe).fill()
		}
		const textY = y + (style.rowHeight - style.size) / 2 - 1
		let x = pen.left
		for (const column of columns) {
			const value = line[column.key]
			if (value) {
				pen.text(value, x + pad, textY, { width: column.width - 2 * pad, align: column.align })
			}
			x += column.width
		}
		y += height
	}
	pen.hline(y)
	return y + 16
}

/** The VAT breakdown (left) and the totals (right), kept together on one page. */
function drawSummary(pen: Pen, texts: InvoiceTexts, top: number): number {
	const { style, doc } = pen
	const line = style.size + 6
	const vatWidth = pen.width * 0.5
	const cols = [0.13, 0.39, 0.24, 0.24].map((share) => share * vatWidth)
	const [rateW = 0, labelW = 0, taxableW = 0, taxW = 0] = cols
	const totalsWidth = pen.width * 0.42
	const totalsX = pen.right - totalsWidth
	const labelWidth = totalsWidth * 0.62
	// Long labels (an exemption reason, a discount's reason) wrap: each row is measured first,
	// so the two blocks are kept together on one page and rows never overlap.
	const vatHeights = texts.vat.map((group) => Math.max(line, pen.heightOf(group.label, labelW - 6) + 4))
	const rowHeights = texts.totals.map((row) =>
		row.isStrong ? line + 8 : Math.max(line, pen.heightOf(row.label, labelWidth) + 4),
	)
	const sum = (heights: number[]) => heights.reduce((total, height) => total + height, 0)
	let y = top
	if (y + Math.max(line + sum(vatHeights), sum(rowHeights)) + 8 > pen.bottom) {
		doc.addPage()
		y = margin
	}

	// VAT breakdown: rate, what it is, taxable amount, VAT.
	let x = pen.left
	for (const [index, header] of ['Rate', 'VAT', 'Taxable', 'Tax'].entries()) {
		const w = cols[index] ?? 0
		pen.text(header, x, y, {
			bold: true,
			size: style.size - 0.5,
			color: pen.muted,
			width: w - 4,
			align: index >= 2 ? 'right' : 'left',
		})
		x += w
	}
	let vatY = y + line
	pen.hline(vatY - 3, pen.left, pen.left + vatWidth)
	for (const [index, group] of texts.vat.entries()) {
		pen.text(group.rate, pen.left, vatY, { width: rateW - 4 })
		pen.text(group.label, pen.left + rateW, vatY, { width: labelW - 6, color: pen.muted })
		pen.text(group.taxable, pen.left + rateW + labelW, vatY, { width: taxableW - 4, align: 'right' })
		pen.text(group.tax, pen.left + rateW + labelW + taxableW, vatY, { width: taxW - 4, align: 'right' })
		vatY += vatHeights[index] ?? line
	}

	// Totals, right-aligned.
	let totalsY = y
	for (const [index, row] of texts.totals.entries()) {
		const strong = row.isStrong ?? false
		if (strong && style.totalBox) {
			doc
				.rect(totalsX - 6, totalsY - 4, totalsWidth + 6, line + 8)
				.fillColor(pen.accent)
				.fill()
		} else if (strong) {
			pen.hline(totalsY - 3, totalsX, pen.right, pen.ink, 0.8)
		}
		const color = strong && style.totalBox ? pen.onAccent : pen.ink
		const size = strong ? style.size + 1.5 : style.size
		pen.text(row.label, totalsX, totalsY, { bold: strong, size, color, width: labelWidth })
		pen.text(row.value, totalsX, totalsY, { bold: strong, size, color, width: totalsWidth - 4, align: 'right' })
		totalsY += rowHeights[index] ?? line
	}
	return Math.max(vatY, totalsY) + 18
}

/** A heading and its lines, on a new page when they do not fit. */
function drawSection(pen: Pen, title: string, lines: string[], top: number): number {
	const { style, doc } = pen
	const width = pen.width
	pen.font(lines.join(' '), false, style.size)
	const height = lines.reduce((sum, text) => sum + doc.heightOfString(text, { width }) + 1.5, style.size + 8)
	let y = top
	if (y + height > pen.bottom) {
		doc.addPage()
		y = margin
	}
	pen.text(title, pen.left, y, { bold: true, color: pen.heading })
	y += style.size + 6
	for (const text of lines) {
		y += pen.text(text, pen.left, y, { width }) + 1.5
	}
	return y + 12
}

function drawFooters(pen: Pen, texts: InvoiceTexts): void {
	const { doc, style } = pen
	const range = doc.bufferedPageRange()
	const size = Math.min(style.size - 1, 7.5)
	for (let index = range.start; index < range.start + range.count; index++) {
		doc.switchToPage(index)
		// The footer is inside the bottom margin: lift it so pdfkit does not start a page for it.
		const bottomMargin = doc.page.margins.bottom
		doc.page.margins.bottom = 0
		const y = doc.page.height - margin - footerHeight + 10
		pen.hline(y - 5)
		if (texts.footer) {
			pen.font(texts.footer, false, size)
			doc.fillColor(pen.muted).text(texts.footer, pen.left, y, {
				width: pen.width * 0.75,
				height: 2 * (size + 2),
				ellipsis: true,
			})
		}
		const label = `${texts.pageLabel} · Page ${index + 1} of ${range.count}`
		const labelY = texts.footer ? y + 2 * (size + 2) + 1 : y
		pen.text(label, pen.left, labelY, { size, color: pen.muted, width: pen.width, align: 'right' })
		doc.page.margins.bottom = bottomMargin
	}
}

/**
 * What a caller may add to the drawing without changing it: document options (PDF/A) and a step
 * before the file is closed (attachments, metadata). Factur-X uses both (invoices.einvoice-facturx.ts).
 */
export type PdfExtras = {
	options?: Pick<PDFKit.PDFDocumentOptions, 'subset' | 'pdfVersion' | 'tagged'>
	beforeEnd?: (doc: PdfDoc) => void
}

/** The invoice as a PDF in the profile's design, colours and font. */
export async function renderInvoicePdf(document: InvoiceDocument, extras: PdfExtras = {}): Promise<Buffer> {
	const texts = invoiceTexts(document)
	const { template, locale } = document.profile
	const doc = new PDFDocument({
		size: 'A4',
		margin,
		bufferPages: true,
		info: {
			Title: `${texts.title} ${texts.number}`,
			Author: document.profile.legalName,
			Creator: 'Blocksmith',
			Producer: 'Blocksmith',
		},
		lang: locale,
		...extras.options,
	})
	const chunks: Buffer[] = []
	doc.on('data', (chunk: Buffer) => chunks.push(chunk))
	const done = new Promise<Buffer>((resolve, reject) => {
		doc.on('end', () => resolve(Buffer.concat(chunks)))
		doc.on('error', reject)
	})
	const fonts = inter()
	doc.registerFont('Inter', fonts.regular)
	doc.registerFont('Inter-SemiBold', fonts.semiBold)
	const pen = new Pen(doc, styles[template.design], fontPairs[template.font], template)

	let y = drawHeader(pen, document, texts)
	y = drawLines(pen, texts, y)
	y = drawSummary(pen, texts, y)
	if (texts.payment.length > 0) {
		y = drawSection(pen, 'Payment', texts.payment, y)
	}
	if (texts.notes) {
		drawSection(pen, 'Notes', texts.notes.split('\n'), y)
	}
	drawFooters(pen, texts)
	extras.beforeEnd?.(doc)
	doc.end()
	return done
}
