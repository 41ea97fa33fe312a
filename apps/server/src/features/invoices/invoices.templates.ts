// Invoice templates: the designs (`invoiceDesigns` in the contract) and `get_template`, a design
// drawn with a realistic sample invoice, either from a sample company or from one of the
// organization's profiles (its sender, logo, bank details, texts, currency, tax rates, colours
// and font), so the settings can show what its invoices will look like.

import { computeInvoiceTotals, type TaxRate as MoneyRate } from '@blocksmith/contracts/invoice-money.ts'
import type { InvoiceDesign, InvoiceProfile, TaxRate } from '@blocksmith/contracts/invoices.ts'
import { and, eq } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { dayOf } from './invoices.numbering.ts'
import { renderInvoicePdf } from './invoices.pdf.ts'
import type { InvoiceDocument, InvoiceDocumentLine, InvoiceSender } from './invoices.pdf-model.ts'
import { getProfile } from './invoices.service.ts'

/** The sample company a preview without a profile is billed from. */
const sampleSender: InvoiceSender = {
	legalName: 'Blue Fern Studio GmbH',
	address: { lines: ['Torstraße 118'], postcode: '10119', city: 'Berlin', country: 'DE' },
	taxIds: { vatId: 'DE811907980', other: [{ label: 'Register', value: 'HRB 204711 B, Amtsgericht Charlottenburg' }] },
	email: 'billing@bluefern.example',
	bank: { kind: 'iban', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountHolder: null },
	notes: 'Thank you for working with us. Questions about this invoice? Reply to the e-mail it came with.',
	footer: 'Blue Fern Studio GmbH · Managing director: Mara Lindqvist · Torstraße 118, 10119 Berlin',
	template: { design: 'classic', accentColor: '#1f2937', textColor: '#111827', font: 'sans' },
	locale: 'en-GB',
	logo: null,
}

const sampleRates: TaxRate[] = [
	rate('sample-standard', 'VAT 19 %', 'S', '19'),
	rate('sample-reduced', 'VAT 7 %', 'S', '7'),
]

function rate(id: string, name: string, categoryCode: TaxRate['categoryCode'], value: string): TaxRate {
	return {
		id,
		name,
		categoryCode,
		rate: value,
		exemptionReason: null,
		exemptionReasonCode: null,
		isDefault: false,
	}
}

/** Lines of a small agency's month: the second rate (if any) on the photos, a discount on one. */
function sampleLines(standard: string, reduced: string): InvoiceDocumentLine[] {
	const line = (
		description: string,
		quantity: string,
		unit: string | null,
		unitPrice: string,
		taxRateId = standard,
		discount: InvoiceDocumentLine['discount'] = null,
	): InvoiceDocumentLine => ({ description, quantity, unit, unitPrice, taxRateId, discount })
	return [
		line('Discovery workshop, on site (two facilitators)', '1', 'day', '1200.00'),
		line('Design review of the checkout flow', '6.5', 'h', '95.00'),
		line('Front-end development: product pages, cart and checkout', '32', 'h', '95.00', standard, {
			kind: 'percent',
			percent: '10',
		}),
		line('Hosting and monitoring, December', '1', 'month', '49.90'),
		line('Printed style guide (booklet, 40 pages)', '3', 'pcs', '18.50', reduced),
	]
}

function addDays(day: string, days: number): string {
	const date = new Date(`${day}T00:00:00Z`)
	date.setUTCDate(date.getUTCDate() + days)
	return date.toISOString().slice(0, 10)
}

function termsText(days: number): string {
	return days === 0 ? 'Payable on receipt.' : `Payable within ${days} days, without deduction.`
}

/**
 * A realistic invoice to draw a design with: from the profile when given (its rates: the default
 * for most lines, another one for the last), else from the sample company.
 */
export function sampleDocument(
	design: InvoiceDesign,
	today: string,
	from: { profile: InvoiceProfile; logo: InvoiceSender['logo'] } | null,
): InvoiceDocument {
	const profile = from?.profile
	const sender: InvoiceSender = from
		? {
				legalName: from.profile.legalName,
				address: from.profile.address,
				taxIds: from.profile.taxIds,
				email: from.profile.email,
				bank: from.profile.bank,
				notes: from.profile.notes,
				footer: from.profile.footer,
				template: from.profile.template,
				locale: from.profile.locale,
				logo: from.logo,
			}
		: sampleSender
	// A profile without rates yet still gets a preview: with the sample's.
	const rates = profile && profile.taxRates.length > 0 ? profile.taxRates : sampleRates
	const standard = rates.find((one) => one.isDefault) ?? (rates[0] as TaxRate)
	const reduced = rates.find((one) => one.id !== standard.id) ?? standard
	const lines = sampleLines(standard.id, reduced.id)
	const currency = profile?.currency ?? 'EUR'
	const moneyRates: MoneyRate[] = rates.map(({ id, name, rate: value, categoryCode }) => ({
		id,
		name,
		rate: value,
		categoryCode,
	}))
	const result = computeInvoiceTotals({
		currency,
		lines: lines.map(({ quantity, unitPrice, taxRateId, discount }) => ({ quantity, unitPrice, taxRateId, discount })),
		taxRates: moneyRates,
		lineRounding: profile?.isLineLevelVatRounding ?? false,
	})
	if (!result.ok) {
		// The sample's figures fit every currency and any rate a profile may hold.
		throw new Error(`The sample invoice does not compute: ${JSON.stringify(result.errors)}`)
	}
	const termsDays = profile?.paymentTermsDays ?? 14
	return {
		profile: { ...sender, template: { ...sender.template, design } },
		kind: 'invoice',
		corrects: null,
		number: profile?.nextNumbers.invoice ?? `INV-${today.slice(0, 4)}-0042`,
		issueDate: today,
		dueDate: addDays(today, termsDays),
		client: {
			name: 'Northwind Outdoor Supply Ltd',
			address: {
				lines: ['Unit 4, Harbour Yard', '22 Quay Street'],
				postcode: 'BS1 4DJ',
				city: 'Bristol',
				country: 'GB',
			},
			taxId: 'GB123456789',
			email: 'accounts@northwind.example',
		},
		lines,
		taxRates: rates,
		totals: result.totals,
		paymentTerms: termsText(termsDays),
		paymentLink: null,
	}
}

/** Logo bytes by blob id: an upload never changes, so each is read from storage once. */
const logoCache = new Map<string, Uint8Array>()
const logoCacheSize = 64

export async function logoOf(ctx: InvoicesCtx, blobId: string): Promise<InvoiceSender['logo']> {
	const cached = logoCache.get(blobId)
	if (cached) {
		return { bytes: cached }
	}
	const [blob] = await ctx.db
		.select({ key: blobs.key })
		.from(blobs)
		.where(and(eq(blobs.id, blobId), eq(blobs.organizationId, ctx.orgId), eq(blobs.status, 'uploaded')))
	const file = blob ? await ctx.storage.get(blob.key) : null
	if (!file) {
		return null
	}
	const bytes = new Uint8Array(await new Response(file.body).arrayBuffer())
	if (logoCache.size >= logoCacheSize) {
		logoCache.delete(logoCache.keys().next().value as string)
	}
	logoCache.set(blobId, bytes)
	return { bytes }
}

/** The design drawn with the sample invoice; another organization's profile is a 404. */
export async function templatePreview(
	ctx: InvoicesCtx,
	query: { template: InvoiceDesign; profileId?: string | undefined },
): Promise<Buffer> {
	let from: { profile: InvoiceProfile; logo: InvoiceSender['logo'] } | null = null
	if (query.profileId) {
		const profile = await getProfile(ctx, query.profileId)
		from = { profile, logo: profile.logo ? await logoOf(ctx, profile.logo.blobId) : null }
	}
	return renderInvoicePdf(sampleDocument(query.template, dayOf(ctx.now()), from))
}
