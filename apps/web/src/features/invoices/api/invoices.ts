import {
	type CreateInvoiceProfile,
	type InvoiceDesign,
	type InvoiceProfile,
	invoiceProfileSchema,
	type UpdateInvoiceProfile,
} from '@blocksmith/contracts/invoices.ts'
import { queryOptions } from '@tanstack/react-query'
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
	const headers = new Headers({ accept: 'application/pdf' })
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const search = new URLSearchParams({ template: input.design, profileId: input.profileId, format: 'pdf' })
	const response = await fetch(`${base}/templates/get_template?${search}`, {
		headers,
		...(signal ? { signal } : {}),
	})
	if (!response.ok) {
		throw new ApiError({
			status: response.status,
			code: 'PREVIEW_FAILED',
			detail: 'The preview could not be drawn. Try again.',
		})
	}
	return response.blob()
}
