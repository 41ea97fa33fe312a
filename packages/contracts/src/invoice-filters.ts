import { z } from 'zod'
import { listInvoicesQuerySchema } from './invoice-documents.ts'

// Saved filters of the invoices list (`/dashboard/{tool}/invoice_filter`, issue 17 item 9): a
// name and the list's own filter fields, so a saved filter is exactly a query of the list.

/** The list's filter fields (no page, no cursor, no other saved filter). */
export const savedInvoiceFilterSchema = listInvoicesQuerySchema
	.omit({ limit: true, cursor: true, filterId: true, correctsId: true })
	.strict()
export type SavedInvoiceFilter = z.infer<typeof savedInvoiceFilterSchema>

const nameSchema = z.string().trim().min(1, 'Name the filter.').max(100, 'Use at most 100 characters.')

export const createInvoiceFilterSchema = z.object({ name: nameSchema, filter: savedInvoiceFilterSchema })
export type CreateInvoiceFilter = z.input<typeof createInvoiceFilterSchema>

/** Each field sent replaces the saved one (the filter whole). */
export const updateInvoiceFilterSchema = createInvoiceFilterSchema.partial()

export const invoiceFilterSchema = z.object({
	id: z.string(),
	name: z.string(),
	filter: savedInvoiceFilterSchema,
	createdAt: z.string(),
	updatedAt: z.string(),
})
export type InvoiceFilter = z.infer<typeof invoiceFilterSchema>
