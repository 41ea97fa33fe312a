import { type Invoice, invoiceSchema } from '@blocksmith/contracts/invoice-documents.ts'
import {
	type CreateRecurrence,
	type Recurrence,
	recurrenceSchema,
	type UpdateRecurrence,
} from '@blocksmith/contracts/invoice-recurring.ts'
import { queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { api } from '#src/lib/api-client.ts'

// Recurring invoices: the organization's series, read and changed through the built-in tool's
// path like every invoice call of the web.

const base = '/dashboard/local_invoice/recurring'
const encode = encodeURIComponent

export const recurrencesQuery = queryOptions({
	queryKey: ['invoices', 'recurring'] as const,
	queryFn: ({ signal }) => api(base, { schema: z.array(recurrenceSchema), signal }),
})

export async function createRecurrence(input: CreateRecurrence): Promise<Recurrence> {
	return api(base, { json: input, schema: recurrenceSchema })
}

export async function updateRecurrence(id: string, changes: UpdateRecurrence): Promise<Recurrence> {
	return api(`${base}/${encode(id)}`, { method: 'PATCH', json: changes, schema: recurrenceSchema })
}

export async function deleteRecurrence(id: string): Promise<void> {
	await api(`${base}/${encode(id)}`, { method: 'DELETE' })
}

/** The next invoice now, dated today; the series goes on after it. */
export async function runRecurrenceNow(id: string): Promise<Invoice> {
	return api(`${base}/${encode(id)}/run_now`, { method: 'POST', schema: invoiceSchema })
}
