import {
	type CreateInvoice,
	type Invoice,
	type InvoiceList,
	invoiceListSchema,
	invoiceSchema,
	type LinesFromRows,
	type LinesFromTime,
	type UpdateInvoice,
} from '@blocksmith/contracts/invoice-documents.ts'
import {
	type CreateInvoiceFilter,
	type InvoiceFilter,
	invoiceFilterSchema,
} from '@blocksmith/contracts/invoice-filters.ts'
import {
	type CreateInvoiceProfile,
	type InvoiceDesign,
	type InvoiceProfile,
	invoiceProfileSchema,
	type UpdateInvoiceProfile,
} from '@blocksmith/contracts/invoices.ts'
import { timeViewSchema } from '@blocksmith/contracts/time-reports.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { ApiError, api } from '#src/lib/api-client.ts'
import { readToken } from '#src/lib/token-store.ts'

// Invoices' API. Settings profiles belong to the organization, so every tool's path reaches the
// same ones: the web always asks through the built-in tool's (`/dashboard/local_invoice/…`).

const base = '/dashboard/local_invoice'
const encode = encodeURIComponent

export const invoiceKeys = {
	all: ['invoices'] as const,
	profiles: ['invoices', 'profiles'] as const,
	lists: ['invoices', 'list'] as const,
	list: (filters: InvoiceListFilters) => ['invoices', 'list', filters] as const,
	invoice: (id: string) => ['invoices', 'invoice', id] as const,
	pdf: (id: string, version: string) => ['invoices', 'pdf', id, version] as const,
	timeViews: ['invoices', 'time-views'] as const,
	filters: ['invoices', 'filters'] as const,
	preview: (profileId: string, design: InvoiceDesign, version: string) =>
		['invoices', 'preview', profileId, design, version] as const,
}

/** The organization's profiles, the default first. */
export const profilesQuery = queryOptions({
	queryKey: invoiceKeys.profiles,
	queryFn: ({ signal }) => api(`${base}/settings`, { schema: z.array(invoiceProfileSchema), signal }),
})

export async function createProfile(input: CreateInvoiceProfile): Promise<InvoiceProfile> {
	return api(`${base}/settings`, { json: input, schema: invoiceProfileSchema })
}

export async function updateProfile(id: string, input: UpdateInvoiceProfile): Promise<InvoiceProfile> {
	return api(`${base}/settings/${encode(id)}`, { method: 'PATCH', json: input, schema: invoiceProfileSchema })
}

export async function deleteProfile(id: string): Promise<void> {
	await api(`${base}/settings/${encode(id)}`, { method: 'DELETE' })
}

/**
 * A design drawn as a PDF for a saved profile, as a Blob. Fetched with the bearer header (a token
 * never goes into a URL), so the page shows it through an object URL.
 */
export async function fetchTemplatePdf(
	input: { profileId: string; design: InvoiceDesign },
	signal?: AbortSignal,
): Promise<Blob> {
	const search = new URLSearchParams({ template: input.design, profileId: input.profileId, format: 'pdf' })
	return fetchPdf(`${base}/templates/get_template?${search}`, signal)
}

async function fetchPdf(path: string, signal?: AbortSignal): Promise<Blob> {
	const headers = new Headers({ accept: 'application/pdf' })
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const response = await fetch(path, { headers, ...(signal ? { signal } : {}) })
	if (!response.ok) {
		throw new ApiError({
			status: response.status,
			code: 'PREVIEW_FAILED',
			detail: 'The PDF could not be drawn. Try again.',
		})
	}
	return response.blob()
}

// ---- invoice documents ---------------------------------------------------------------------------

const documents = `${base}/invoices`

/** The list's filters as the API takes them (the page keeps them in its address). */
export type InvoiceListFilters = {
	status?: string | undefined
	clientId?: string | undefined
	from?: string | undefined
	to?: string | undefined
	currency?: string | undefined
	amountMin?: string | undefined
	amountMax?: string | undefined
	search?: string | undefined
	kind?: string | undefined
}

export function invoicesQuery(filters: InvoiceListFilters) {
	return infiniteQueryOptions({
		queryKey: invoiceKeys.list(filters),
		queryFn: ({ signal, pageParam }): Promise<InvoiceList> =>
			api(documents, {
				query: { ...filters, ...(pageParam ? { cursor: pageParam } : {}) },
				schema: invoiceListSchema,
				signal,
			}),
		initialPageParam: '',
		getNextPageParam: (page) => page.nextCursor ?? undefined,
		placeholderData: keepPreviousData,
	})
}

export function invoiceQuery(id: string) {
	return queryOptions({
		queryKey: invoiceKeys.invoice(id),
		queryFn: ({ signal }): Promise<Invoice> => api(`${documents}/${encode(id)}`, { schema: invoiceSchema, signal }),
	})
}

export async function createInvoice(input: CreateInvoice): Promise<Invoice> {
	return api(documents, { json: input, schema: invoiceSchema })
}

export async function updateInvoice(id: string, changes: UpdateInvoice): Promise<Invoice> {
	return api(`${documents}/${encode(id)}`, { method: 'PATCH', json: changes, schema: invoiceSchema })
}

export async function deleteInvoice(id: string): Promise<void> {
	await api(`${documents}/${encode(id)}`, { method: 'DELETE' })
}

export async function finalizeInvoice(id: string): Promise<Invoice> {
	return api(`${documents}/${encode(id)}/finalize`, { method: 'POST', schema: invoiceSchema })
}

export async function addLinesFromRows(id: string, input: LinesFromRows): Promise<Invoice> {
	return api(`${documents}/${encode(id)}/lines/from_rows`, { json: input, schema: invoiceSchema })
}

/** A time view belongs to one tool: its time is read through that tool's invoice path. */
export async function addLinesFromTime(id: string, tool: WorkspaceTool, input: LinesFromTime): Promise<Invoice> {
	return api(`/dashboard/${tool}_invoice/invoices/${encode(id)}/lines/from_time`, {
		json: input,
		schema: invoiceSchema,
	})
}

export type InvoiceTimeView = { id: string; name: string; tool: WorkspaceTool; databaseName: string }

/** The time-tracking views of both tools, for "Add tracked time" (read here: a feature never imports another). */
// Only what the choice shows: the view's settings belong to the time pages.
const viewChoiceSchema = timeViewSchema.pick({ id: true, name: true, databaseName: true })

export const timeViewsQuery = queryOptions({
	queryKey: invoiceKeys.timeViews,
	queryFn: async ({ signal }): Promise<InvoiceTimeView[]> => {
		const tools: WorkspaceTool[] = ['local', 'notion']
		const lists = await Promise.all(
			tools.map(async (tool) => {
				const views = await api(`/dashboard/${tool}_time/views`, { schema: z.array(viewChoiceSchema), signal }).catch(
					() => [],
				)
				return views.map((view) => ({ id: view.id, name: view.name, tool, databaseName: view.databaseName }))
			}),
		)
		return lists.flat()
	},
})

/** The invoice drawn as a PDF by the server (with its profile's design), as a Blob for an object URL. */
export async function fetchInvoicePdf(id: string, signal?: AbortSignal): Promise<Blob> {
	return fetchPdf(`${documents}/${encode(id)}/pdf`, signal)
}

// ---- saved filters and the CSV export ------------------------------------------------------------

const filtersPath = '/dashboard/local/invoice_filter'

export const invoiceFiltersQuery = queryOptions({
	queryKey: invoiceKeys.filters,
	queryFn: ({ signal }): Promise<InvoiceFilter[]> => api(filtersPath, { schema: z.array(invoiceFilterSchema), signal }),
})

export async function createInvoiceFilter(input: CreateInvoiceFilter): Promise<InvoiceFilter> {
	return api(filtersPath, { json: input, schema: invoiceFilterSchema })
}

export async function deleteInvoiceFilter(id: string): Promise<void> {
	await api(`${filtersPath}/${encode(id)}`, { method: 'DELETE' })
}

/** The list as CSV with the same filters (every page), saved as a file. */
export async function downloadInvoicesCsv(filters: InvoiceListFilters): Promise<void> {
	const search = new URLSearchParams()
	for (const [key, value] of Object.entries(filters)) {
		if (value) {
			search.set(key, value)
		}
	}
	const headers = new Headers({ accept: 'text/csv' })
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const response = await fetch(`${base}/invoices_export?${search}`, { headers })
	if (!response.ok) {
		throw new ApiError({ status: response.status, code: 'EXPORT_FAILED', detail: 'The export failed. Try again.' })
	}
	const url = URL.createObjectURL(await response.blob())
	const link = document.createElement('a')
	link.href = url
	link.download = 'invoices.csv'
	link.click()
	setTimeout(() => URL.revokeObjectURL(url), 1000)
}
