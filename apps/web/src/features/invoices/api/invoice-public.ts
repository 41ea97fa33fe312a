import {
	checkoutUrlSchema,
	type PublicInvoice,
	publicInvoiceSchema,
	type StripeAccount,
	stripeAccountSchema,
} from '@blocksmith/contracts/invoice-sending.ts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '#src/lib/api-client.ts'

// The public invoice (/i/:token, signed out: plain fetches, no React Query) and the settings
// profile's own Stripe account (in the dashboard, with React Query). Decision 036.

const encode = encodeURIComponent

export async function fetchPublicInvoice(token: string, signal?: AbortSignal): Promise<PublicInvoice> {
	return api(`/api/invoices/${encode(token)}`, { schema: publicInvoiceSchema, ...(signal ? { signal } : {}) })
}

export function publicPdfPath(token: string): string {
	return `/api/invoices/${encode(token)}/pdf`
}

/** A Stripe Checkout Session for what is left to pay: the page sends the visitor to its url. */
export async function startCheckout(token: string): Promise<string> {
	return (await api(`/api/invoices/${encode(token)}/checkout`, { method: 'POST', schema: checkoutUrlSchema })).url
}

/** The return from Checkout: the server reads the session from Stripe and records the payment once. */
export async function confirmCheckout(token: string, sessionId: string): Promise<PublicInvoice> {
	return api(`/api/invoices/${encode(token)}/checkout/confirm`, { json: { sessionId }, schema: publicInvoiceSchema })
}

const stripePath = (profileId: string) => `/dashboard/local_invoice/settings/${encode(profileId)}/stripe`

export const stripeAccountKey = (profileId: string) => ['invoices', 'settings', profileId, 'stripe'] as const

export const stripeAccountQuery = (profileId: string) =>
	queryOptions({
		queryKey: stripeAccountKey(profileId),
		queryFn: ({ signal }) => api(stripePath(profileId), { schema: stripeAccountSchema, signal }),
	})

export async function connectStripe(profileId: string, secretKey: string): Promise<StripeAccount> {
	return api(stripePath(profileId), { method: 'PUT', json: { secretKey }, schema: stripeAccountSchema })
}

export async function disconnectStripe(profileId: string): Promise<StripeAccount> {
	return api(stripePath(profileId), { method: 'DELETE', schema: stripeAccountSchema })
}
