import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import { computeInvoiceTotals, type DocumentDiscount } from '@blocksmith/contracts/invoice-money.ts'
import { type InvoiceDesign, invoiceDesigns } from '@blocksmith/contracts/invoices.ts'
import { extractText } from 'unpdf'
import { describe, expect, test } from 'vitest'
import { renderInvoicePdf } from './invoices.pdf.ts'
import type { InvoiceDocument, InvoiceDocumentLine } from './invoices.pdf-model.ts'
import { sampleDocument } from './invoices.templates.ts'

// Invoice PDFs: every design draws a valid PDF whose text holds the number, the client, each
// line, every VAT rate's amount and the totals exactly as the money core computed them (and, for
// the first cases, as known by hand: 1000.00 at 19 % is 1,190.00); 200 lines make several pages,
// each with the table's header and its page number.

type Rate = { id: string; name: string; rate: string; categoryCode: 'S' | 'Z' | 'E' }

const rates: Rate[] = [
	{ id: 'r19', name: 'VAT 19 %', rate: '19', categoryCode: 'S' },
	{ id: 'r7', name: 'VAT 7 %', rate: '7', categoryCode: 'S' },
	{ id: 'r10', name: 'Consumption tax 10 %', rate: '10', categoryCode: 'S' },
	{ id: 'r0', name: 'Exempt', rate: '0', categoryCode: 'E' },
]

type Case = {
	name: string
	currency: string
	locale: string
	lines: Omit<InvoiceDocumentLine, 'unit'>[]
	discounts?: DocumentDiscount[]
	paid?: string
	kind?: InvoiceDocument['kind']
	/** Figures known by hand, as the locale writes them. */
	known: string[]
}

const line = (description: string, quantity: string, unitPrice: string, taxRateId: string) => ({
	description,
	quantity,
	unitPrice,
	taxRateId,
	discount: null,
})

const cases: Case[] = [
	{
		name: '1000.00 at 19 %',
		currency: 'EUR',
		locale: 'en-GB',
		lines: [line('Consulting, November', '1', '1000.00', 'r19')],
		known: ['€1,000.00', '€190.00', '€1,190.00'],
	},
	{
		name: 'two rates, a 10 % discount and a payment, in German',
		currency: 'EUR',
		locale: 'de-DE',
		lines: [line('Beratung', '12.5', '88.00', 'r19'), line('Fachbuch', '2', '39.90', 'r7')],
		discounts: [{ kind: 'percent', percent: '10', reason: 'Stammkunde' }],
		paid: '200.00',
		// 1100.00 + 79.80; less 10 %: 990.00 and 71.82; VAT 188.10 and 5.03; total 1254.95; due 1054.95.
		known: ['1.179,80 €', '188,10 €', '5,03 €', '1.254,95 €', 'Amount due 1.054,95 €'],
	},
	{
		name: 'JPY, no decimals',
		currency: 'JPY',
		locale: 'en-US',
		lines: [line('Translation, per page', '3', '1234', 'r10'), line('Rush fee', '1', '999', 'r10')],
		// 3702 + 999 = 4701; VAT 470.1 → 470; total 5171.
		known: ['¥4,701', '¥470', '¥5,171'],
	},
	{
		name: 'BHD, three decimals',
		currency: 'BHD',
		locale: 'en-GB',
		lines: [line('Licence seats', '2', '12.345', 'r10'), line('Export documents', '1', '5.000', 'r0')],
		// 24.690 + 5.000; VAT 2.469; total 32.159.
		known: ['29.690', '2.469', '32.159'],
	},
	{
		name: 'a credit note with negative lines',
		currency: 'EUR',
		locale: 'en-GB',
		kind: 'creditNote',
		lines: [line('Returned: trail backpack', '-2', '149.00', 'r19'), line('Returned: map set', '-1', '12.50', 'r7')],
		// −298.00 and −12.50; VAT −56.62 and −0.88 (−0.875 half-up away from zero); total −368.00.
		known: ['-€310.50', '-€56.62', '-€0.88', '-€368.00'],
	},
]

const profile: InvoiceDocument['profile'] = {
	legalName: 'Acme Tools GmbH',
	address: { lines: ['Hauptstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' },
	taxIds: { vatId: 'DE123456789', other: [] },
	email: 'billing@acme.example',
	bank: { kind: 'iban', iban: 'DE89370400440532013000', bic: null, accountHolder: null },
	notes: 'Thank you.',
	footer: 'Acme Tools GmbH · Register HRB 1',
	template: { design: 'classic', accentColor: '#0f766e', textColor: '#111827', font: 'sans' },
	locale: 'en-GB',
	logo: null,
}

function documentOf(one: Case, design: InvoiceDesign, font: InvoiceDocument['profile']['template']['font'] = 'sans') {
	const result = computeInvoiceTotals({
		currency: one.currency,
		lines: one.lines,
		taxRates: rates,
		discounts: one.discounts ?? [],
		paid: one.paid ?? '0',
		allowNegativeQuantities: one.kind === 'creditNote',
	})
	if (!result.ok) {
		throw new Error(JSON.stringify(result.errors))
	}
	const document: InvoiceDocument = {
		profile: { ...profile, locale: one.locale, template: { ...profile.template, design, font } },
		kind: one.kind ?? 'invoice',
		corrects: one.kind === 'creditNote' ? 'INV-2026-0007' : null,
		number: one.kind === 'creditNote' ? 'CN-2026-0001' : 'INV-2026-0042',
		issueDate: '2026-11-26',
		dueDate: '2026-12-10',
		client: {
			name: 'Northwind Łódź Sp. z o.o.',
			address: { lines: ['ul. Piotrkowska 12'], postcode: '90-001', city: 'Łódź', country: 'PL' },
			taxId: 'PL5260250274',
			email: null,
		},
		lines: one.lines.map((each) => ({ ...each, unit: null })),
		taxRates: rates.map(({ id, name }) => ({ id, name, exemptionReason: id === 'r0' ? 'Exempt export' : null })),
		totals: result.totals,
		paymentTerms: 'Payable within 14 days.',
		paymentLink: 'https://pay.example/i/abc',
	}
	return document
}

/** Whitespace as one space: a wrapped description reads as one line, and NBSPs as spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ')

async function textOf(pdf: Buffer): Promise<{ text: string; pages: string[] }> {
	const bytes = new Uint8Array(pdf)
	const merged = await extractText(bytes.slice(), { mergePages: true })
	const split = await extractText(bytes.slice())
	return { text: flat(merged.text), pages: split.text.map(flat) }
}

describe('invoice PDFs', () => {
	const designs = invoiceDesigns.map((info) => info.design)

	test.each(designs.flatMap((design) => cases.map((one) => [design, one.name, one] as const)))(
		'%s: %s shows the money core’s figures',
		async (design, _name, one) => {
			const document = documentOf(one, design)
			const pdf = await renderInvoicePdf(document)
			expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
			const { text } = await textOf(pdf)
			const { totals } = document
			const money = (minor: number) => flat(formatMoney(minor, totals.currency, one.locale))
			const amount = (minor: number) => flat(formatMoney(minor, totals.currency, one.locale, { display: 'none' }))

			expect(text).toContain(document.number)
			expect(text).toContain(document.client.name)
			expect(text).toContain(one.kind === 'creditNote' ? 'Credit note' : 'Invoice')
			if (one.kind === 'creditNote') {
				expect(text).toContain('Corrects invoice INV-2026-0007')
			}
			for (const [index, each] of document.lines.entries()) {
				expect(text).toContain(each.description)
				expect(text).toContain(amount(totals.lines[index]?.net.minor ?? Number.NaN))
			}
			for (const group of totals.vatBreakdown) {
				expect(text).toContain(amount(group.taxableAmount.minor))
				expect(text).toContain(amount(group.taxAmount.minor))
				expect(text).toContain(money(group.taxAmount.minor))
			}
			for (const allowance of totals.allowances) {
				expect(text).toContain(money(-allowance.amount.minor))
			}
			expect(text).toContain(`Subtotal ${money(totals.lineNetTotal.minor)}`)
			expect(text).toContain(`Total ${money(totals.taxInclusiveAmount.minor)}`)
			if (one.paid) {
				expect(text).toContain(`Paid ${money(-totals.paidAmount.minor)}`)
				expect(text).toContain(`Amount due ${money(totals.amountDue.minor)}`)
			}
			for (const known of one.known) {
				expect(text).toContain(flat(known))
			}
		},
	)

	test.each(designs)('%s: 200 lines make several pages, each with the table header and its number', async (design) => {
		const many: Case = {
			...cases[0],
			lines: Array.from({ length: 200 }, (_, index) =>
				line(`Support ticket #${1000 + index}`, '1.25', '80.00', index % 3 === 0 ? 'r7' : 'r19'),
			),
		} as Case
		const document = documentOf(many, design)
		const { text, pages } = await textOf(await renderInvoicePdf(document))
		const withLines = pages.filter((page) => page.includes('Support ticket'))
		expect(withLines.length).toBeGreaterThanOrEqual(3)
		for (const page of withLines) {
			expect(page).toContain('Description Quantity Unit price Discount VAT Amount (EUR)')
		}
		for (const [index, page] of pages.entries()) {
			expect(page).toContain(`Page ${index + 1} of ${pages.length}`)
		}
		for (let index = 0; index < 200; index++) {
			expect(text).toContain(`Support ticket #${1000 + index} 1.25 80.00`)
		}
		expect(text).toContain(`Total ${flat(formatMoney(document.totals.taxInclusiveAmount.minor, 'EUR', 'en-GB'))}`)
	})

	test.each(['serif', 'mono'] as const)('the %s font draws what Windows-1252 lacks in Inter', async (font) => {
		const { text } = await textOf(await renderInvoicePdf(documentOf(cases[0] as Case, 'classic', font)))
		expect(text).toContain('Northwind Łódź Sp. z o.o.')
		expect(text).toContain('Acme Tools GmbH')
		expect(text).toContain('€1,190.00')
	})

	test.each(designs)('%s: a draft has no number and says so', async (design) => {
		const document = { ...documentOf(cases[0] as Case, design), number: null }
		const { text } = await textOf(await renderInvoicePdf(document))
		expect(text).toContain('Invoice Draft · Acme Tools GmbH · Page 1 of 1')
		expect(text).not.toContain('INV-2026-0042')
		expect(text).not.toContain('Reference:')
	})

	test('the sample invoice of every design renders, and a broken logo is left out', async () => {
		for (const design of designs) {
			const document = sampleDocument(design, '2026-11-26', null)
			const broken = { ...document, profile: { ...document.profile, logo: { bytes: new Uint8Array([1, 2, 3]) } } }
			const { text } = await textOf(await renderInvoicePdf(broken))
			expect(text).toContain('Northwind Outdoor Supply Ltd')
			expect(text).toContain(flat(formatMoney(document.totals.taxInclusiveAmount.minor, 'EUR', 'en-GB')))
		}
	})
})
