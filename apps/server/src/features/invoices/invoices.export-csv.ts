// The invoices list as CSV (GET /dashboard/{tool}_invoice/invoices_export, the list's query):
// streamed page by page through the list's keyset query, so a large organization is never held
// in memory at once. UTF-8 with a BOM (spreadsheets then read accents right), money as exact
// decimals in each document's currency, overdue shown as the status. Text a spreadsheet would
// run as a formula (= + - @, tab, CR first) gets a leading apostrophe; the money cells are our
// own decimals and stay numbers (a credit note's −10.00 must not turn into text).

import { minorToDecimal } from '@blocksmith/contracts/invoice-currencies.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { type ListFilter, listPage } from './invoices.documents.list.ts'
import type { DocumentRecord } from './invoices.documents.schema.ts'
import { isOverdue } from './invoices.documents.ts'
import { dayOf } from './invoices.numbering.ts'

const header = [
	'number',
	'kind',
	'status',
	'client',
	'issue date',
	'due date',
	'currency',
	'net',
	'tax',
	'total',
	'paid',
	'credited',
	'due',
	'paid date',
]

const pageSize = 500

/** A text cell: neutralised against formula injection, then quoted when it must be. */
function textCell(value: string | null | undefined): string {
	const text = value ?? ''
	return quoted(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text)
}

function quoted(text: string): string {
	return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

function dueOf(record: DocumentRecord): number {
	if (record.kind !== 'invoice' || record.status === 'void') {
		return 0
	}
	return record.status === 'draft'
		? record.totalMinor
		: Math.max(0, record.totalMinor - record.paidMinor - record.creditedMinor)
}

function rowOf(record: DocumentRecord, today: string): string {
	const money = (minor: number) => minorToDecimal(minor, record.currency)
	// The stored totals hold net and tax as the money core computed them; a draft that does not compute has none.
	const net = record.totals?.taxExclusiveAmount.decimal ?? ''
	const tax = record.totals?.vatTotal.decimal ?? ''
	return [
		textCell(record.number),
		record.kind,
		isOverdue(record, today) ? 'overdue' : record.status,
		textCell(record.client?.name),
		record.issueDate,
		record.dueDate ?? '',
		record.currency,
		net,
		tax,
		money(record.totalMinor),
		money(record.paidMinor),
		money(record.creditedMinor),
		money(dueOf(record)),
		record.paidAt ? dayOf(record.paidAt) : '',
	].join(',')
}

/** The CSV of every document matching `filter`, newest first, as a stream of pages. */
export function invoicesCsv(ctx: InvoicesCtx, filter: ListFilter): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder()
	const today = dayOf(ctx.now())
	let cursor: string | undefined
	let started = false
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			if (!started) {
				started = true
				controller.enqueue(encoder.encode(`\uFEFF${header.join(',')}\r\n`))
				return
			}
			const { records, nextCursor } = await listPage(ctx, filter, pageSize, cursor)
			if (records.length > 0) {
				controller.enqueue(encoder.encode(records.map((record) => `${rowOf(record, today)}\r\n`).join('')))
			}
			if (nextCursor === null) {
				controller.close()
				return
			}
			cursor = nextCursor
		},
	})
}
