// Invoice PDFs (issue 17): how long renderInvoicePdf takes for an invoice of 20 and of 200 lines
// in each design, next to a bare pdfkit document of the same lines in the same run: the same
// font (Inter, registered from its file as pdfkit's documentation shows), a title, a simple
// table (one text per cell, no header repeated, no wrapping) and the total. A second baseline in
// Helvetica (a standard font: nothing shaped or embedded) shows the floor. Each run has new lines
// (seeded: descriptions, quantities and prices differ), rendered by all of them in turn, so the
// machine's load falls on each alike; medians after warm-up. Goal: under 50 ms for 20 lines.
// Figures go to stdout and bench/results/invoices-pdf.json.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import { computeInvoiceTotals } from '@blocksmith/contracts/invoice-money.ts'
import type { InvoiceDesign } from '@blocksmith/contracts/invoices.ts'
import PDFDocument from 'pdfkit'
import { renderInvoicePdf } from '../apps/server/src/features/invoices/invoices.pdf.ts'
import type { InvoiceDocument, InvoiceDocumentLine } from '../apps/server/src/features/invoices/invoices.pdf-model.ts'
import { sampleDocument } from '../apps/server/src/features/invoices/invoices.templates.ts'
import {
	aboutRun,
	positiveIntegerFromEnv,
	printAligned,
	progress,
	type RunStart,
	round,
	runBenchmark,
	writeResults,
} from './bench-kit.ts'

const settings = {
	sizes: [20, 200],
	designs: ['classic', 'modern', 'compact'] as InvoiceDesign[],
	warmupRuns: 5,
	runs: positiveIntegerFromEnv('BENCH_RUNS', 30),
}

const goalMs = 50

// The Inter the server renders with.
const serverRequire = createRequire(path.resolve(import.meta.dirname, '../apps/server/package.json'))
const interDir = path.dirname(serverRequire.resolve('@expo-google-fonts/inter/package.json'))
const interFiles = {
	regular: readFileSync(path.join(interDir, '400Regular/Inter_400Regular.ttf')),
	semiBold: readFileSync(path.join(interDir, '600SemiBold/Inter_600SemiBold.ttf')),
}

/** A small seeded generator (mulberry32), so each run's lines are new but the same in every run of the benchmark. */
function random(seed: number): () => number {
	let state = seed
	return () => {
		state = (state + 0x6d2b79f5) | 0
		let value = Math.imul(state ^ (state >>> 15), 1 | state)
		value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value
		return ((value ^ (value >>> 14)) >>> 0) / 4294967296
	}
}

/** The sample invoice's rates (invoices.templates.ts). */
const sampleRates = [
	{ id: 'sample-standard', name: 'VAT 19 %', rate: '19', categoryCode: 'S' as const },
	{ id: 'sample-reduced', name: 'VAT 7 %', rate: '7', categoryCode: 'S' as const },
]

const words = {
	what: ['Design review', 'Development', 'Support ticket', 'Workshop', 'Copywriting', 'Hosting', 'Consulting'],
	of: ['checkout flow', 'product pages', 'onboarding e-mails', 'API integration', 'search', 'landing page', 'reports'],
}

/**
 * An invoice of `count` lines: the sample's sender and client, lines made for this run and
 * design. Each design gets lines of its own: the renderer keeps the words it has shaped, so a
 * design drawing the lines another one just drew would only find them there.
 */
function invoiceOf(count: number, run: number, design: InvoiceDesign): InvoiceDocument {
	const next = random(run * 1000 + count + settings.designs.indexOf(design) * 1_000_000)
	const pick = (list: string[]) => list[Math.floor(next() * list.length)] as string
	const sample = sampleDocument(design, '2026-11-26', null)
	const lines: InvoiceDocumentLine[] = Array.from({ length: count }, (_, index) => ({
		description: `${pick(words.what)}: ${pick(words.of)} (#${run}-${index + 1})`,
		quantity: (Math.floor(next() * 400) / 4 + 0.25).toString(),
		unit: 'h',
		unitPrice: `${Math.floor(next() * 200) + 40}.${String(Math.floor(next() * 100)).padStart(2, '0')}`,
		taxRateId: next() < 0.2 ? 'sample-reduced' : 'sample-standard',
		discount: next() < 0.1 ? { kind: 'percent', percent: '10' } : null,
	}))
	const result = computeInvoiceTotals({
		currency: 'EUR',
		lines: lines.map(({ quantity, unitPrice, taxRateId, discount }) => ({ quantity, unitPrice, taxRateId, discount })),
		taxRates: sampleRates,
	})
	if (!result.ok) {
		throw new Error(`the benchmark's invoice does not compute: ${JSON.stringify(result.errors)}`)
	}
	return { ...sample, lines, totals: result.totals }
}

/** The bare baseline: the same lines as a simple pdfkit table, in Inter or Helvetica. */
function barePdf(document: InvoiceDocument, font: 'Inter' | 'Helvetica'): Promise<Buffer> {
	const doc = new PDFDocument({ size: 'A4', margin: 48 })
	const chunks: Buffer[] = []
	doc.on('data', (chunk: Buffer) => chunks.push(chunk))
	const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))))
	const [regular, bold] = font === 'Inter' ? ['Inter', 'Inter-SemiBold'] : ['Helvetica', 'Helvetica-Bold']
	if (font === 'Inter') {
		doc.registerFont('Inter', interFiles.regular)
		doc.registerFont('Inter-SemiBold', interFiles.semiBold)
	}
	const { totals } = document
	const money = (minor: number) => formatMoney(minor, 'EUR', 'en-GB', { display: 'none' })
	doc.font(bold).fontSize(20).text(`Invoice ${document.number}`, 48, 48)
	doc.font(regular).fontSize(9).text(document.client.name, 48, 80)
	const columns = [48, 330, 390, 460, 547]
	let y = 110
	for (const [index, line] of document.lines.entries()) {
		if (y > 770) {
			doc.addPage()
			y = 48
		}
		const cells = [line.description, line.quantity, line.unitPrice, money(totals.lines[index]?.net.minor ?? 0)]
		for (const [column, text] of cells.entries()) {
			const x = columns[column] ?? 0
			const width = (columns[column + 1] ?? 547) - x - 4
			doc.text(text, x, y, { width, lineBreak: false, align: column === 0 ? 'left' : 'right' })
		}
		y += 16
	}
	doc.font(bold).text(`Total ${money(totals.taxInclusiveAmount.minor)}`, 360, y + 10, { width: 187, align: 'right' })
	doc.end()
	return done
}

type Timing = { medianMs: number; p90Ms: number; minMs: number; bytes: number }

function timingOf(times: number[], bytes: number): Timing {
	const sorted = [...times].sort((a, b) => a - b)
	const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN
	return { medianMs: round(at(0.5), 2), p90Ms: round(at(0.9), 2), minMs: round(sorted[0] ?? Number.NaN, 2), bytes }
}

async function timed(render: () => Promise<Buffer>): Promise<{ ms: number; bytes: number }> {
	const start = performance.now()
	const pdf = await render()
	return { ms: performance.now() - start, bytes: pdf.byteLength }
}

async function main(start: RunStart): Promise<number> {
	progress(`${settings.runs} runs after ${settings.warmupRuns} warm-up runs, lines: ${settings.sizes.join(' and ')}`)
	// The very first invoice, fonts read and parsed: what the first request after a start pays.
	const first = await timed(() => renderInvoicePdf(invoiceOf(20, 0, 'classic')))
	const subjects = [
		...settings.designs.map((design) => ({ key: design, design, render: renderInvoicePdf })),
		// The baselines draw the classic design's lines, with fonts of their own.
		{ key: 'bare pdfkit · Inter', design: 'classic', render: (d: InvoiceDocument) => barePdf(d, 'Inter') },
		{ key: 'bare pdfkit · Helvetica', design: 'classic', render: (d: InvoiceDocument) => barePdf(d, 'Helvetica') },
	] as const
	const results: Record<string, Record<string, Timing>> = {}
	for (const size of settings.sizes) {
		const times = new Map<string, number[]>(subjects.map((subject) => [subject.key, []]))
		const bytes = new Map<string, number>()
		for (let run = 1; run <= settings.warmupRuns + settings.runs; run++) {
			// Each run starts with the next subject: whichever follows the bare Inter document
			// (which parses the font again, leaving much garbage) pays for its collection.
			const order = subjects.map((_, index) => subjects[(index + run) % subjects.length] as (typeof subjects)[number])
			for (const subject of order) {
				const document = invoiceOf(size, run, subject.design)
				const measured = await timed(() => subject.render(document))
				if (run > settings.warmupRuns) {
					times.get(subject.key)?.push(measured.ms)
					bytes.set(subject.key, measured.bytes)
				}
			}
		}
		results[`${size} lines`] = Object.fromEntries(
			subjects.map((subject) => [subject.key, timingOf(times.get(subject.key) ?? [], bytes.get(subject.key) ?? 0)]),
		)
	}

	const body: string[][] = []
	for (const [size, bySubject] of Object.entries(results)) {
		const bare = bySubject['bare pdfkit · Inter']?.medianMs ?? Number.NaN
		for (const [key, timing] of Object.entries(bySubject)) {
			body.push([
				`${size} · ${key}`,
				timing.medianMs.toFixed(2),
				timing.p90Ms.toFixed(2),
				(timing.bytes / 1024).toFixed(1),
				(timing.medianMs / bare).toFixed(2),
			])
		}
	}
	printAligned(['invoice', 'median ms', 'p90 ms', 'KiB', 'vs bare Inter'], body)
	const twentyLines = results['20 lines'] ?? {}
	const slowest = Math.max(
		...settings.designs.map((design) => twentyLines[design]?.medianMs ?? Number.POSITIVE_INFINITY),
	)
	console.log(`first invoice after start (fonts read and parsed): ${first.ms.toFixed(1)} ms`)
	console.log(
		`20 lines, slowest design: ${slowest.toFixed(2)} ms (goal: under ${goalMs} ms) ${slowest < goalMs ? 'met' : 'NOT met'}`,
	)
	const report = {
		benchmark: 'invoices-pdf',
		description:
			'renderInvoicePdf for 20 and 200 lines in each design, next to a bare pdfkit table of the same lines (Inter, and Helvetica as the floor), medians after warm-up',
		...aboutRun(start, ['apps/server/src/features/invoices', 'packages/contracts']),
		settings,
		goals: { twentyLinesUnderMs: goalMs },
		firstRenderMs: round(first.ms, 1),
		results,
	}
	writeResults(report)
	return slowest < goalMs ? 0 : 1
}

await runBenchmark('the invoice PDF renderer', main)
