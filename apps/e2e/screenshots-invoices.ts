import type { Browser, Page } from 'playwright-core'
import { DEFAULT_PRICES, startFakeStripe } from '../server/src/test/fake-stripe/fake-stripe.ts'
import type { createHttpApi } from './http-api.ts'
import { pdfPageToPng } from './pdf-image.ts'

// The invoices module in the screenshots (screenshots.ts): Ada's company with a logo, two VAT
// rates and its own (fake) Stripe account connected; an invoice sent and overdue, one sent and
// open (its public page has Pay), one paid, and a draft; a recurring series; and the sample
// workspace's Invoices database mapped. The three finalized invoices are each drawn in one of the
// designs (the design is frozen when an invoice is numbered), and page 1 of each PDF is a picture.

type HttpApi = ReturnType<typeof createHttpApi>

type Viewport = 'desktop' | 'phone'
type Theme = 'light' | 'dark'

export type SeededInvoices = {
	draftId: string
	overdueId: string
	overdueNumber: string
	openNumber: string
	openToken: string
	paidNumber: string
	paidToken: string
	/** Each design's PDF, of a real finalized invoice with two rates, a discount and the logo. */
	pdfs: { design: 'classic' | 'modern' | 'compact'; number: string; bytes: Uint8Array }[]
}

const base = '/dashboard/local_invoice/invoices'
const settings = '/dashboard/local_invoice/settings'

/** The fake Stripe the teams' own accounts are on, in this process (the server is given its URL). */
export async function startShotsStripe() {
	return await startFakeStripe({ prices: DEFAULT_PRICES })
}

/** A calendar day `days` from today, as the API takes it. */
function day(days: number): string {
	return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}

type Invoice = { id: string; number: string | null; publicToken: string | null; due: { decimal: string } }

export async function seedInvoices(
	api: HttpApi,
	token: string,
	company: { logoBlobId: string; stripeKey: string },
): Promise<SeededInvoices> {
	const profile = await api.callOk<{ id: string; taxRates: { id: string; rate: string }[] }>(settings, {
		token,
		json: {
			name: 'Analytical Engines',
			legalName: 'Analytical Engines Ltd',
			address: { lines: ['Hauptstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' },
			taxIds: { vatId: 'DE123456789', other: [] },
			email: 'billing@analytical-engines.example',
			logoBlobId: company.logoBlobId,
			currency: 'EUR',
			taxRates: [
				{ name: 'VAT 19 %', rate: '19', categoryCode: 'S', isDefault: true },
				{ name: 'VAT 7 %', rate: '7', categoryCode: 'S' },
			],
			// A prefix of the company's own, as a company that has issued invoices elsewhere has; the
			// database picture shows ours beside the sample's (#1001…).
			numbering: {
				invoice: { pattern: 'AE-{YYYY}-{counter:4}', reset: 'yearly' },
				creditNote: { pattern: 'AE-CN-{YYYY}-{counter:4}', reset: 'yearly' },
			},
			bank: {
				kind: 'iban',
				iban: 'DE89370400440532013000',
				bic: 'COBADEFFXXX',
				accountHolder: 'Analytical Engines Ltd',
			},
			notes: 'Thank you for your business.',
			footer: 'Analytical Engines Ltd · Registered in Berlin, HRB 12345',
			template: { design: 'classic', accentColor: '#0f766e', textColor: '#111827', font: 'sans' },
		},
	})
	await api.callOk(`${settings}/${profile.id}/stripe`, {
		token,
		method: 'PUT',
		json: { secretKey: company.stripeKey },
	})
	const design = (name: SeededInvoices['pdfs'][number]['design'], accentColor: string, font: string) =>
		api.callOk(`${settings}/${profile.id}`, {
			token,
			method: 'PATCH',
			json: { template: { design: name, accentColor, textColor: '#111827', font } },
		})
	const rate = (percent: string) => profile.taxRates.find((one) => one.rate === percent)?.id ?? ''
	const create = (client: string, issueDate: string, dueDate: string, lines: unknown[], discounts: unknown[] = []) =>
		api.callOk<Invoice>(base, {
			token,
			json: {
				profileId: profile.id,
				client: {
					name: client,
					email: 'accounts@example.com',
					address: { lines: ['Market Street 5'], postcode: '80331', city: 'München', country: 'DE' },
				},
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
	const finalize = async (id: string) => {
		const finalized = await api.callOk<Invoice>(`${base}/${id}/finalize`, { token, json: {} })
		const response = await api.call(`${base}/${id}/pdf`, { token, headers: { accept: 'application/pdf' } })
		if (!response.ok) {
			throw new Error(`the PDF of ${finalized.number}: ${response.status} ${await response.text()}`)
		}
		return { ...finalized, pdf: new Uint8Array(await response.arrayBuffer()) }
	}

	// Classic: sent, and overdue.
	const overdue = await create(
		'Initech GmbH',
		day(-40),
		day(-26),
		[
			line('Website redesign: discovery', '16', 'hours', '95.00', '19'),
			line('Website redesign: design', '24', 'hours', '95.00', '19'),
			line('Style guide, printed', '2', 'pcs', '45.00', '7'),
		],
		[{ kind: 'percent', percent: '3', reason: 'Framework agreement' }],
	)
	const classic = await finalize(overdue.id)
	await api.callOk(`${base}/${overdue.id}/mark_sent`, { token, json: {} })

	// Modern: sent, due in two weeks; its public page has Pay.
	await design('modern', '#4338ca', 'sans')
	const open = await create(
		'Wayne Enterprises',
		day(-3),
		day(11),
		[
			line('Mobile app: sprint 2', '40', 'hours', '110.00', '19'),
			line('Workshop materials', '12', 'sets', '18.50', '7'),
		],
		[{ kind: 'percent', percent: '10', reason: 'Early booking' }],
	)
	const modern = await finalize(open.id)
	await api.callOk(`${base}/${open.id}/mark_sent`, { token, json: {} })

	// Compact: paid in full.
	await design('compact', '#b45309', 'serif')
	const paid = await create(
		'Globex Corporation',
		day(-20),
		day(-6),
		[
			line('Hosting, one year', '1', 'year', '480.00', '19'),
			line('Support hours', '6', 'hours', '80.00', '19'),
			line('Printed manual', '3', 'pcs', '24.00', '7'),
		],
		[{ kind: 'percent', percent: '5', reason: 'Loyalty' }],
	)
	const compact = await finalize(paid.id)
	await api.callOk(`${base}/${paid.id}/payments`, {
		token,
		json: { date: day(-8), amount: compact.due.decimal, method: 'bank_transfer' },
	})
	await design('classic', '#0f766e', 'sans')

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

	// A monthly series of the open invoice, each run sent; and one of the paid invoice, as drafts.
	await api.callOk('/dashboard/local_invoice/recurring', {
		token,
		json: { sourceId: open.id, startDate: day(25), frequency: 'month', interval: 1, action: 'send' },
	})
	await api.callOk('/dashboard/local_invoice/recurring', {
		token,
		json: { sourceId: paid.id, startDate: day(60), frequency: 'year', interval: 1, count: 3, action: 'draft' },
	})

	// The sample's Invoices database mapped last, so the invoices above write no rows into it: the
	// charts (seeded earlier on the same database) stay as their own pictures show them.
	type Candidate = { id: string; name: string; suggested: { mapping: unknown } }
	const state = await api.callOk<{ candidates: Candidate[] }>('/dashboard/local/invoices/database', { token })
	const invoicesDatabase = state.candidates.find((candidate) => candidate.name === 'Invoices')
	if (!invoicesDatabase) {
		throw new Error('the sample workspace has no Invoices database')
	}
	await api.callOk('/dashboard/local/invoices/database', {
		token,
		method: 'PUT',
		json: { databaseId: invoicesDatabase.id, mapping: invoicesDatabase.suggested.mapping },
	})

	const numberOf = (invoice: Invoice) => invoice.number ?? ''
	return {
		draftId: draft.id,
		overdueId: overdue.id,
		overdueNumber: numberOf(classic),
		openNumber: numberOf(modern),
		openToken: modern.publicToken ?? '',
		paidNumber: numberOf(compact),
		paidToken: compact.publicToken ?? '',
		pdfs: [
			{ design: 'classic', number: numberOf(classic), bytes: classic.pdf },
			{ design: 'modern', number: numberOf(modern), bytes: modern.pdf },
			{ design: 'compact', number: numberOf(compact), bytes: compact.pdf },
		],
	}
}

/** The finalized overdue invoice with a dialog of its actions open. */
function documentWithDialog(invoices: SeededInvoices, button: string, dialog: string) {
	return {
		path: `/invoices/${invoices.overdueId}`,
		isSignedIn: true,
		ready: async (page: Page) => {
			await page.getByRole('heading', { level: 1, name: `Invoice ${invoices.overdueNumber}` }).waitFor()
			await page.getByRole('region', { name: 'Invoice actions' }).waitFor()
		},
		prepare: async (page: Page) => {
			await page.getByRole('region', { name: 'Invoice actions' }).getByRole('button', { name: button }).click()
			await page.getByRole('dialog', { name: dialog }).waitFor()
		},
		isWindowOnly: true,
	}
}

function publicPage(token: string, number: string) {
	return {
		path: `/i/${token}`,
		isSignedIn: false,
		ready: async (page: Page) => {
			await page.getByRole('heading', { level: 1, name: `Invoice ${number}` }).waitFor()
			await page.getByRole('link', { name: 'Download PDF' }).waitFor()
		},
		viewports: ['desktop', 'phone'] as Viewport[],
		phoneThemes: ['light', 'dark'] as Theme[],
	}
}

export function invoiceShots(invoices: SeededInvoices) {
	return [
		{
			name: 'invoices',
			caption:
				'Invoices: totals by status (overdue highlighted), filters kept in the address, saved filters, CSV export, and the list with a draft, an overdue, an open and a paid invoice',
			path: '/invoices',
			isSignedIn: true,
			ready: async (page: Page) => {
				await page.getByRole('table', { name: 'Invoices' }).getByText(invoices.overdueNumber).waitFor()
			},
			viewports: ['desktop', 'phone'] as Viewport[],
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
			viewports: ['desktop', 'phone'] as Viewport[],
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
		{
			name: 'invoice-payment-dialog',
			caption: `Record payment on ${invoices.overdueNumber}: date, amount (the amount due), method, and the payments so far`,
			...documentWithDialog(invoices, 'Record payment', `Payments of ${invoices.overdueNumber}`),
		},
		{
			name: 'invoice-credit-note-dialog',
			caption: `Credit note for ${invoices.overdueNumber}: the lines still open, each credited whole or in part`,
			...documentWithDialog(invoices, 'Credit note', `Credit note for ${invoices.overdueNumber}`),
		},
		{
			name: 'invoice-send-dialog',
			caption: `Send ${invoices.overdueNumber} again: to whom, the profile’s subject and text with the link, the PDF attached`,
			...documentWithDialog(invoices, 'Send again', `Send ${invoices.overdueNumber}`),
		},
		{
			name: 'invoice-settings',
			caption:
				'Invoice settings: the company profile with its logo, address, tax ids, two VAT rates, numbering, bank, texts and design, the designs’ preview (a PDF in a frame: the headless browser draws no PDF viewer, so it is empty here; the designs are the invoice-pdf-* pictures), and its own Stripe account connected (test mode)',
			path: '/invoices/settings',
			isSignedIn: true,
			ready: async (page: Page) => {
				await page.getByRole('heading', { level: 2, name: 'Analytical Engines' }).waitFor()
				await page.getByRole('img', { name: 'Logo preview' }).waitFor()
				await page.getByText('Connected to').waitFor()
				await page.waitForFunction(() =>
					Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0),
				)
			},
			viewports: ['desktop', 'phone'] as Viewport[],
		},
		...invoices.pdfs.map(({ design, number, bytes }) => ({
			name: `invoice-pdf-${design}`,
			caption: `Page 1 of the PDF of ${number} in the ${design} design: the logo, two VAT rates and a discount (drawn by PDF.js)`,
			path: '',
			isSignedIn: false,
			ready: async () => {},
			image: (browser: Browser) => pdfPageToPng(browser, bytes),
		})),
		{
			name: 'invoice-public',
			caption: `The public invoice page (/i/{token}) of ${invoices.openNumber}, signed out: the invoice, Download PDF and Pay with Stripe`,
			...publicPage(invoices.openToken, invoices.openNumber),
		},
		{
			name: 'invoice-public-paid',
			caption: `The public invoice page of ${invoices.paidNumber}, paid: said so, nothing left to pay, the PDF still there`,
			...publicPage(invoices.paidToken, invoices.paidNumber),
			phoneThemes: ['light'] as Theme[],
		},
		{
			name: 'invoices-recurring',
			caption:
				'Recurring invoices: a monthly series sent automatically and a yearly one of three drafts, their next dates, pause, run now',
			path: '/invoices/recurring',
			isSignedIn: true,
			ready: async (page: Page) => {
				await page.getByRole('table', { name: 'Recurring invoices' }).getByText(invoices.openNumber).waitFor()
			},
		},
		{
			name: 'invoices-database',
			caption:
				'Invoices database: the sample workspace’s Invoices mapped (the fields written), the sync, and its rows with the invoice kept in each',
			path: '/invoices/database',
			isSignedIn: true,
			ready: async (page: Page) => {
				await page.getByRole('heading', { level: 2, name: 'Invoices' }).waitFor()
				await page.getByRole('table', { name: 'Rows of the invoices database' }).waitFor()
			},
		},
	]
}
