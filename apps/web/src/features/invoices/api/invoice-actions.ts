import {
	type CreatePayment,
	type CreditNoteInput,
	type Invoice,
	invoiceListSchema,
	invoiceSchema,
	type Payment,
	paymentSchema,
} from '@blocksmith/contracts/invoice-documents.ts'
import { invoiceEventListSchema, type SendInvoice } from '@blocksmith/contracts/invoice-sending.ts'
import { queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { ApiError, api } from '#src/lib/api-client.ts'
import { readToken } from '#src/lib/token-store.ts'

// What can be done with a finalized invoice: payments, credit notes, void, mark sent, downloads.
// Every key starts with 'invoices', so invalidating that prefix after an action refreshes the
// list, the document and these reads together.

const base = '/dashboard/local_invoice/invoices'
const encode = encodeURIComponent

const actionKeys = {
	payments: (id: string) => ['invoices', 'document', id, 'payments'] as const,
	creditNotes: (id: string) => ['invoices', 'document', id, 'credit-notes'] as const,
	events: (id: string) => ['invoices', 'document', id, 'events'] as const,
}

/** The invoice's history, newest first. */
export const eventsQuery = (invoiceId: string) =>
	queryOptions({
		queryKey: actionKeys.events(invoiceId),
		queryFn: ({ signal }) => api(`${base}/${encode(invoiceId)}/events`, { schema: invoiceEventListSchema, signal }),
	})

/** E-mails the invoice with its PDF and link; what is left out is the client's address and the profile's text. */
export async function sendInvoice(invoiceId: string, input: SendInvoice): Promise<Invoice> {
	return api(`${base}/${encode(invoiceId)}/send`, { json: input, schema: invoiceSchema })
}

export const paymentsQuery = (invoiceId: string) =>
	queryOptions({
		queryKey: actionKeys.payments(invoiceId),
		queryFn: ({ signal }) => api(`${base}/${encode(invoiceId)}/payments`, { schema: z.array(paymentSchema), signal }),
	})

/** The credit notes that correct an invoice, for what each line has left to credit. */
export const creditNotesQuery = (invoice: Invoice) =>
	queryOptions({
		queryKey: actionKeys.creditNotes(invoice.id),
		queryFn: async ({ signal }) => {
			const found: Invoice[] = []
			let cursor: string | undefined
			do {
				const page = await api(base, {
					query: { correctsId: invoice.id, limit: 200, cursor },
					schema: invoiceListSchema,
					signal,
				})
				found.push(...page.invoices)
				cursor = page.nextCursor ?? undefined
			} while (cursor)
			return found
		},
	})

export async function recordPayment(invoiceId: string, input: CreatePayment): Promise<Payment> {
	return api(`${base}/${encode(invoiceId)}/payments`, { json: input, schema: paymentSchema })
}

export async function deletePayment(invoiceId: string, paymentId: string): Promise<void> {
	await api(`${base}/${encode(invoiceId)}/payments/${encode(paymentId)}`, { method: 'DELETE' })
}

export async function markSent(invoiceId: string): Promise<Invoice> {
	return api(`${base}/${encode(invoiceId)}/mark_sent`, { method: 'POST', schema: invoiceSchema })
}

export async function voidInvoice(invoiceId: string): Promise<Invoice> {
	return api(`${base}/${encode(invoiceId)}/void`, { method: 'POST', schema: invoiceSchema })
}

export async function createCreditNote(invoiceId: string, input: CreditNoteInput): Promise<Invoice> {
	return api(`${base}/${encode(invoiceId)}/credit_note`, { json: input, schema: invoiceSchema })
}

export type InvoiceFile = 'pdf' | 'ubl' | 'cii' | 'facturx'

/** Where each download comes from, and the file's name. */
function invoiceFile(invoice: Invoice, file: InvoiceFile): { path: string; fileName: string } {
	const name = (invoice.number ?? 'draft').replace(/[\\/:*?"<>|]+/g, '-')
	const id = encode(invoice.id)
	if (file === 'pdf') {
		return { path: `${base}/${id}/pdf`, fileName: `${name}.pdf` }
	}
	const extension = file === 'facturx' ? 'pdf' : 'xml'
	const suffix = file === 'facturx' ? '-facturx' : `-${file}`
	return { path: `${base}/${id}/einvoice?format=${file}`, fileName: `${name}${suffix}.${extension}` }
}

/** A file the API draws, saved through an object URL: the bearer token never goes into a link. */
export async function downloadInvoiceFile(invoice: Invoice, file: InvoiceFile): Promise<void> {
	const { path, fileName } = invoiceFile(invoice, file)
	const headers = new Headers()
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const response = await fetch(path, { headers })
	if (!response.ok) {
		let detail = 'The file could not be made. Try again.'
		try {
			const problem = (await response.json()) as { detail?: unknown }
			detail = typeof problem.detail === 'string' ? problem.detail : detail
		} catch {
			// Not a problem body: the generic message stands.
		}
		throw new ApiError({ status: response.status, code: 'DOWNLOAD_FAILED', detail })
	}
	const url = URL.createObjectURL(await response.blob())
	const link = document.createElement('a')
	link.href = url
	link.download = fileName
	document.body.append(link)
	link.click()
	link.remove()
	setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** The client's link to the invoice's public page; null while a draft. */
export function publicLink(invoice: Invoice, origin = window.location.origin): string | null {
	return invoice.publicToken ? `${origin}/i/${encode(invoice.publicToken)}` : null
}
