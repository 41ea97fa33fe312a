import type { Page } from 'playwright-core'
import type { createHttpApi } from './http-api.ts'

// The invoice list and the invoice page in the screenshots (screenshots.ts): Ada's company with
// two VAT rates, an invoice sent and overdue, one paid, and a draft with two rates and a
// discount, so the list has every kind of total and the editor a VAT breakdown.

type HttpApi = ReturnType<typeof createHttpApi>

export type SeededInvoices = { draftId: string; overdueId: string; overdueNumber: string }

const base = '/dashboard/local_invoice/invoices'

/** A calendar day `days` from today, as the API takes it. */
function day(days: number): string {
	return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}

export async function seedInvoices(api: HttpApi, token: string): Promise<SeededInvoices> {
	const profile = await api.callOk<{ id: string; taxRates: { id: string; rate: string }[] }>(
		'/dashboard/local_invoice/settings',
		{
			token,
			json: {
				name: 'Analytical Engines',
				legalName: 'Analytical Engines Ltd',
				address: { lines: ['Hauptstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' },
				currency: 'EUR',
				taxRates: [
					{ name: 'VAT 19 %', rate: '19', categoryCode: 'S', isDefault: true },
					{ name: 'VAT 7 %', rate: '7', categoryCode: 'S' },
				],
			},
		},
	)
	const rate = (percent: string) => profile.taxRates.find((one) => one.rate === percent)?.id ?? ''
	const create = (client: string, issueDate: string, dueDate: string, lines: unknown[], discounts: unknown[] = []) =>
		api.callOk<{ id: string; number: string | null }>(base, {
			token,
			json: {
				profileId: profile.id,
				client: { name: client, email: 'accounts@example.com' },
				issueDate,
				dueDate,
				lines,
				discounts,
			},
		})
	const line = (description: string, quantity: string, unit: string, unitPrice: string, percent: string) => ({
		description,
		quantity,
		unit,
		unitPrice,
		taxRateId: rate(percent),
	})

	const overdue = await create('Initech GmbH', day(-40), day(-26), [
		line('Website redesign: discovery', '16', 'hours', '95.00', '19'),
		line('Style guide, printed', '2', 'pcs', '45.00', '7'),
	])
	const finalized = await api.callOk<{ number: string }>(`${base}/${overdue.id}/finalize`, { token, json: {} })
	await api.callOk(`${base}/${overdue.id}/mark_sent`, { token, json: {} })

	const paid = await create('Globex Corporation', day(-20), day(-6), [
		line('Hosting, one year', '1', 'year', '480.00', '19'),
	])
	await api.callOk(`${base}/${paid.id}/finalize`, { token, json: {} })
	await api.callOk(`${base}/${paid.id}/payments`, {
		token,
		json: { date: day(-8), amount: '571.20', method: 'bank_transfer' },
	})

	const draft = await create(
		'Umbrella Studio',
		day(0),
		day(14),
		[
			line('Mobile app: sprint 3', '32', 'hours', '110.00', '19'),
			line('User testing sessions', '4', 'sessions', '250.00', '19'),
			line('Printed brochures', '500', 'pcs', '0.84', '7'),
		],
		[{ kind: 'percent', percent: '5', reason: 'Loyalty' }],
	)
	return { draftId: draft.id, overdueId: overdue.id, overdueNumber: finalized.number }
}

export function invoiceShots(invoices: SeededInvoices) {
	return [
		{
			name: 'invoices',
			caption:
				'Invoices: totals by status (overdue highlighted), filters kept in the address, saved filters, CSV export, and the list with a draft, an overdue and a paid invoice',
			path: '/invoices',
			isSignedIn: true,
			ready: async (page: Page) => {
				await page.getByRole('table', { name: 'Invoices' }).getByText(invoices.overdueNumber).waitFor()
			},
			viewports: ['desktop', 'phone'] as ('desktop' | 'phone')[],
		},
		{
			name: 'invoice-editor',
			caption:
				'Invoice editor: a draft saved as it is typed, its client, lines with two VAT rates, a 5 % discount, and the totals with the VAT per rate',
			path: `/invoices/${invoices.draftId}`,
			isSignedIn: true,
			ready: async (page: Page) => {
				await page.getByRole('heading', { level: 1, name: 'Draft invoice' }).waitFor()
				await page.getByRole('region', { name: 'Totals' }).getByText('Total', { exact: true }).waitFor()
			},
			viewports: ['desktop', 'phone'] as ('desktop' | 'phone')[],
		},
		{
			name: 'invoice-document',
			caption: `A finalized invoice (${invoices.overdueNumber}), overdue: the document read-only, what is paid and due, and what can still be done with it`,
			path: `/invoices/${invoices.overdueId}`,
			isSignedIn: true,
			ready: async (page: Page) => {
				await page.getByRole('heading', { level: 1, name: `Invoice ${invoices.overdueNumber}` }).waitFor()
				await page.getByRole('region', { name: 'Invoice actions' }).waitFor()
			},
		},
	]
}
