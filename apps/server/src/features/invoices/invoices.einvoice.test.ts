import { readdirSync, readFileSync } from 'node:fs'
import { inflateSync } from 'node:zlib'
import { computeInvoiceTotals, type DocumentDiscount, type Line } from '@blocksmith/contracts/invoice-money.ts'
import { Schema } from 'node-schematron'
import { extractText } from 'unpdf'
import { describe, expect, test } from 'vitest'
import { validateXML } from 'xmllint-wasm'
import { type EInvoiceSyntax, eInvoiceXml } from './invoices.einvoice.ts'
import { facturXFileName, renderFacturXPdf } from './invoices.einvoice-facturx.ts'
import { negateDecimal, unitCode } from './invoices.einvoice-fields.ts'
import type { InvoiceDocument } from './invoices.pdf-model.ts'

// E-invoices: the rounding table's cases written as UBL (Peppol BIS 3.0) and CII (EN 16931),
// each checked against the EN 16931 business rules we could get (einvoice/README.md: our
// Schematron subset, run by node-schematron) and, for CII, the Factur-X EN 16931 XSD (run by
// xmllint-wasm); every total in the XML is the money core's decimal string. The rules are
// shown to catch what they name (an amount a cent off, a missing reason, elements out of order).
// The Factur-X PDF carries the same CII as its attachment.

const assets = new URL('./einvoice/', import.meta.url)
const asset = (name: string) => readFileSync(new URL(name, assets), 'utf8')
const rules: Record<EInvoiceSyntax, Schema> = {
	ubl: Schema.fromString(asset('en16931-ubl.sch')),
	cii: Schema.fromString(asset('en16931-cii.sch')),
}
const xsdMain = 'Factur-X_1.07.3_EN16931.xsd'
const xsdFiles = readdirSync(assets).filter((name) => name.endsWith('.xsd'))

/** The ids of the business rules the XML breaks, with their messages. */
function brokenRules(xml: string, syntax: EInvoiceSyntax): string[] {
	return rules[syntax]
		.validateString(xml)
		.filter((result) => !result.isReport)
		.map((result) => `${result.assertId}: ${(result.message ?? '').replace(/\s+/g, ' ').trim()}`)
}

async function schemaErrors(xml: string): Promise<string[]> {
	const result = await validateXML({
		xml: [{ fileName: 'invoice.xml', contents: xml }],
		schema: [{ fileName: xsdMain, contents: asset(xsdMain) }],
		preload: xsdFiles.filter((name) => name !== xsdMain).map((name) => ({ fileName: name, contents: asset(name) })),
	})
	return result.errors.map((error) => error.rawMessage)
}

/** The one embedded file of a pdfkit PDF (its /EmbeddedFile stream, inflated). */
function embeddedFile(pdf: Buffer): string {
	const raw = pdf.toString('latin1')
	const at = raw.indexOf('/Type /EmbeddedFile')
	const start = raw.indexOf('stream\n', at) + 'stream\n'.length
	const end = raw.indexOf('\nendstream', start)
	expect(at).toBeGreaterThan(0)
	return inflateSync(pdf.subarray(start, end)).toString('utf8')
}

/** A schema that declares nothing: xmllint still parses the document and reports malformed XML. */
const anySchema = '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>'

const rates = [
	{ id: 'r19', name: 'VAT 19 %', rate: '19', categoryCode: 'S' as const, exemptionReason: null },
	{ id: 'r7', name: 'VAT 7 %', rate: '7', categoryCode: 'S' as const, exemptionReason: null },
	{ id: 'r10', name: 'Consumption tax 10 %', rate: '10', categoryCode: 'S' as const, exemptionReason: null },
	{ id: 'r0', name: 'Exempt', rate: '0', categoryCode: 'E' as const, exemptionReason: 'Exempt medical service' },
	{
		id: 'rAE',
		name: 'Reverse charge',
		rate: '0',
		categoryCode: 'AE' as const,
		exemptionReason: 'Reverse charge',
		exemptionReasonCode: 'VATEX-EU-AE',
	},
	{
		id: 'rO',
		name: 'Not subject to VAT',
		rate: '0',
		categoryCode: 'O' as const,
		exemptionReason: 'Not subject to VAT',
	},
]

type DocLine = Line & { description?: string; unit?: string }
type Case = {
	name: string
	currency: string
	lines: DocLine[]
	discounts?: DocumentDiscount[]
	paid?: string
	kind?: InvoiceDocument['kind']
	/** Totals known by hand, as the XML writes them: line nets, VAT, with VAT, due. */
	known: { lineNets: string; vat: string; total: string; due: string }
}

const line = (quantity: string, unitPrice: string, taxRateId: string, extra: Partial<DocLine> = {}): DocLine => ({
	quantity,
	unitPrice,
	taxRateId,
	...extra,
})

const cases: Case[] = [
	{
		name: '1000.00 at 19 %',
		currency: 'EUR',
		lines: [line('1', '1000.00', 'r19', { unit: 'day' })],
		known: { lineNets: '1000.00', vat: '190.00', total: '1190.00', due: '1190.00' },
	},
	{
		name: '100 lines of 0.01 at 19 % (VAT rounded once: 0.19)',
		currency: 'EUR',
		lines: Array.from({ length: 100 }, () => line('1', '0.01', 'r19')),
		known: { lineNets: '1.00', vat: '0.19', total: '1.19', due: '1.19' },
	},
	{
		name: 'mixed rates, a 10 % discount and a payment',
		currency: 'EUR',
		lines: [line('12.5', '88.00', 'r19', { unit: 'hours' }), line('2', '39.90', 'r7', { unit: 'pcs' })],
		discounts: [{ kind: 'percent', percent: '10', reason: 'Regular client' }],
		paid: '200.00',
		known: { lineNets: '1179.80', vat: '193.13', total: '1254.95', due: '1054.95' },
	},
	{
		name: 'a 100 % line discount and an amount discount split over two rates',
		currency: 'EUR',
		lines: [
			line('3', '33.333', 'r19', { discount: { kind: 'percent', percent: '100' } }),
			line('1', '100', 'r19'),
			line('2', '25.00', 'r7', { discount: { kind: 'amount', amount: '5.00' } }),
		],
		discounts: [{ kind: 'amount', amount: '14.50' }],
		// Nets 0.00 + 100.00 + 45.00 = 145.00; 14.50 split 10.00 / 4.50; VAT 17.10 + 2.84.
		known: { lineNets: '145.00', vat: '19.94', total: '150.44', due: '150.44' },
	},
	{
		name: 'a 100 % invoice discount over two rates',
		currency: 'EUR',
		lines: [line('1', '99.99', 'r19'), line('1', '0.01', 'r7')],
		discounts: [{ kind: 'percent', percent: '100', reason: 'Goodwill' }],
		known: { lineNets: '100.00', vat: '0.00', total: '0.00', due: '0.00' },
	},
	{
		name: 'exempt and reverse-charge lines beside a standard one',
		currency: 'EUR',
		lines: [line('1', '250.00', 'r19'), line('1', '80.00', 'r0'), line('4', '120.00', 'rAE', { unit: 'h' })],
		known: { lineNets: '810.00', vat: '47.50', total: '857.50', due: '857.50' },
	},
	{
		name: 'not subject to VAT (O), on its own and without VAT ids',
		currency: 'EUR',
		lines: [line('1', '15.00', 'rO')],
		known: { lineNets: '15.00', vat: '0.00', total: '15.00', due: '15.00' },
	},
	{
		name: 'JPY, no decimals',
		currency: 'JPY',
		lines: [line('3', '1234', 'r10'), line('1', '999', 'r10')],
		known: { lineNets: '4701', vat: '470', total: '5171', due: '5171' },
	},
	{
		name: 'a credit note with negative lines',
		currency: 'EUR',
		kind: 'creditNote',
		lines: [line('-2', '149.00', 'r19'), line('-1', '12.50', 'r7')],
		// The money core: −310.50, VAT −56.62 and −0.88, −368.00; a credit note writes them positive.
		known: { lineNets: '310.50', vat: '57.50', total: '368.00', due: '368.00' },
	},
]

const profile: InvoiceDocument['profile'] = {
	legalName: 'Acme Tools GmbH',
	address: { lines: ['Hauptstraße 1', 'Hinterhaus'], postcode: '10115', city: 'Berlin', country: 'DE' },
	taxIds: { vatId: 'DE123456789', other: [{ label: 'Register', value: 'HRB 12345 B' }] },
	email: 'billing@acme.example',
	bank: { kind: 'iban', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountHolder: null },
	notes: 'Thank you & see you soon.',
	footer: null,
	template: { design: 'modern', accentColor: '#0f766e', textColor: '#111827', font: 'serif' },
	locale: 'en-GB',
	logo: null,
}

function documentOf(one: Pick<Case, 'currency' | 'lines' | 'discounts' | 'paid' | 'kind'>): InvoiceDocument {
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
	const isCreditNote = one.kind === 'creditNote'
	return {
		profile,
		kind: one.kind ?? 'invoice',
		corrects: isCreditNote ? 'INV-2026-0007' : null,
		number: isCreditNote ? 'CN-2026-0001' : 'INV-2026-0042',
		issueDate: '2026-11-26',
		dueDate: '2026-12-10',
		client: {
			name: 'Northwind Łódź Sp. z o.o.',
			address: { lines: ['ul. Piotrkowska 12'], postcode: '90-001', city: 'Łódź', country: 'PL' },
			taxId: 'PL5260250274',
			email: 'ap@northwind.example',
		},
		lines: one.lines.map((each, index) => ({
			description: each.description ?? `Item ${index + 1} <special & "quoted">`,
			quantity: each.quantity,
			unit: each.unit ?? null,
			unitPrice: each.unitPrice,
			discount: each.discount ?? null,
			taxRateId: each.taxRateId,
		})),
		taxRates: rates,
		totals: result.totals,
		paymentTerms: 'Payable within 14 days.',
		paymentLink: null,
	}
}

function xmlOf(document: InvoiceDocument, syntax: EInvoiceSyntax): string {
	const result = eInvoiceXml(document, syntax)
	if (!result.ok) {
		throw new Error(JSON.stringify(result.errors))
	}
	return result.xml
}

/** The totals' elements in each syntax, with the amount the money core gave, signed for the XML. */
function expectedTotals(document: InvoiceDocument, syntax: EInvoiceSyntax): string[] {
	const { totals } = document
	const sign = document.kind === 'creditNote' ? negateDecimal : (value: string) => value
	const c = `currencyID="${totals.currency}"`
	if (syntax === 'ubl') {
		return [
			`<cbc:LineExtensionAmount ${c}>${sign(totals.lineNetTotal.decimal)}</cbc:LineExtensionAmount>`,
			`<cbc:TaxExclusiveAmount ${c}>${sign(totals.taxExclusiveAmount.decimal)}</cbc:TaxExclusiveAmount>`,
			`<cbc:TaxAmount ${c}>${sign(totals.vatTotal.decimal)}</cbc:TaxAmount>`,
			`<cbc:TaxInclusiveAmount ${c}>${sign(totals.taxInclusiveAmount.decimal)}</cbc:TaxInclusiveAmount>`,
			`<cbc:PayableAmount ${c}>${sign(totals.amountDue.decimal)}</cbc:PayableAmount>`,
			...totals.vatBreakdown.flatMap((group) => [
				`<cbc:TaxableAmount ${c}>${sign(group.taxableAmount.decimal)}</cbc:TaxableAmount>`,
				`<cbc:TaxAmount ${c}>${sign(group.taxAmount.decimal)}</cbc:TaxAmount>`,
			]),
			...totals.lines.map(
				(each) => `<cbc:LineExtensionAmount ${c}>${sign(each.net.decimal)}</cbc:LineExtensionAmount>`,
			),
		]
	}
	return [
		`<ram:LineTotalAmount>${sign(totals.lineNetTotal.decimal)}</ram:LineTotalAmount>`,
		`<ram:TaxBasisTotalAmount>${sign(totals.taxExclusiveAmount.decimal)}</ram:TaxBasisTotalAmount>`,
		`<ram:TaxTotalAmount ${c}>${sign(totals.vatTotal.decimal)}</ram:TaxTotalAmount>`,
		`<ram:GrandTotalAmount>${sign(totals.taxInclusiveAmount.decimal)}</ram:GrandTotalAmount>`,
		`<ram:DuePayableAmount>${sign(totals.amountDue.decimal)}</ram:DuePayableAmount>`,
		...totals.vatBreakdown.flatMap((group) => [
			`<ram:CalculatedAmount>${sign(group.taxAmount.decimal)}</ram:CalculatedAmount>`,
			`<ram:BasisAmount>${sign(group.taxableAmount.decimal)}</ram:BasisAmount>`,
		]),
		...totals.lines.map((each) => `<ram:LineTotalAmount>${sign(each.net.decimal)}</ram:LineTotalAmount>`),
	]
}

const syntaxes: EInvoiceSyntax[] = ['ubl', 'cii']

describe('e-invoices from the rounding table', () => {
	test.each(syntaxes.flatMap((syntax) => cases.map((one) => [syntax, one.name, one] as const)))(
		'%s: %s passes the EN 16931 rules with the money core’s totals',
		async (syntax, _name, one) => {
			const document = documentOf(one)
			const xml = xmlOf(document, syntax)
			expect(brokenRules(xml, syntax)).toEqual([])
			if (syntax === 'cii') {
				expect(await schemaErrors(xml)).toEqual([])
			}
			for (const expected of expectedTotals(document, syntax)) {
				expect(xml).toContain(expected)
			}
			const known = one.known
			const text = (element: string) => xml.match(new RegExp(`<${element}[^>]*>([^<]*)<`))?.[1]
			if (syntax === 'ubl') {
				expect(text('cbc:LineExtensionAmount')).not.toBeUndefined()
				expect(text('cbc:PayableAmount')).toBe(known.due)
				expect(text('cbc:TaxInclusiveAmount')).toBe(known.total)
				expect(xml).toContain(`<cbc:TaxAmount currencyID="${one.currency}">${known.vat}</cbc:TaxAmount>`)
				expect(xml).toContain(`<cbc:LineExtensionAmount currencyID="${one.currency}">${known.lineNets}<`)
			} else {
				expect(text('ram:DuePayableAmount')).toBe(known.due)
				expect(text('ram:GrandTotalAmount')).toBe(known.total)
				expect(text('ram:TaxTotalAmount')).toBe(known.vat)
				expect(xml).toContain(`<ram:LineTotalAmount>${known.lineNets}</ram:LineTotalAmount>\n`)
			}
		},
	)

	test.each(syntaxes)('%s: the identifiers, parties, payment and credit-note reference are written', (syntax) => {
		const invoice = xmlOf(documentOf(cases[2] as Case), syntax)
		const credit = xmlOf(documentOf(cases.at(-1) as Case), syntax)
		for (const text of [
			'INV-2026-0042',
			'Acme Tools GmbH',
			'DE123456789',
			'Northwind Łódź Sp. z o.o.',
			'PL5260250274',
		]) {
			expect(invoice).toContain(text)
		}
		expect(invoice).toContain('DE89370400440532013000')
		expect(invoice).toContain(
			syntax === 'ubl' ? '<cbc:CompanyID>HRB 12345 B</cbc:CompanyID>' : '<ram:SpecifiedLegalOrganization>',
		)
		expect(invoice).toContain('Item 1 &lt;special &amp; "quoted"&gt;')
		if (syntax === 'ubl') {
			expect(invoice).toContain(
				'<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>',
			)
			expect(invoice).toContain('<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>')
			expect(invoice).toContain('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>')
			expect(invoice).toContain('<cbc:InvoicedQuantity unitCode="HUR">12.5</cbc:InvoicedQuantity>')
			expect(invoice).toContain('<cbc:InvoicedQuantity unitCode="H87">2</cbc:InvoicedQuantity>')
			expect(credit).toMatch(
				/^<\?xml[^>]*>\s*<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/,
			)
			expect(credit).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>')
			expect(credit).toContain('<cbc:CreditedQuantity unitCode="C62">2</cbc:CreditedQuantity>')
			expect(credit).toMatch(/<cac:InvoiceDocumentReference>\s*<cbc:ID>INV-2026-0007<\/cbc:ID>/)
		} else {
			expect(invoice).toContain('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>')
			expect(invoice).toContain('<ram:TypeCode>380</ram:TypeCode>')
			expect(invoice).toContain('<ram:BilledQuantity unitCode="HUR">12.5</ram:BilledQuantity>')
			expect(invoice).toContain('<udt:DateTimeString format="102">20261210</udt:DateTimeString>')
			expect(credit).toContain('<ram:TypeCode>381</ram:TypeCode>')
			expect(credit).toContain('<ram:BilledQuantity unitCode="C62">2</ram:BilledQuantity>')
			expect(credit).toMatch(/<ram:InvoiceReferencedDocument>\s*<ram:IssuerAssignedID>INV-2026-0007</)
		}
	})

	test.each(syntaxes)('%s: exemption reasons and codes per VAT category; O carries no rate', (syntax) => {
		const xml = xmlOf(documentOf(cases[5] as Case), syntax)
		const outOfScope = xmlOf(documentOf(cases[6] as Case), syntax)
		// BR-O-02: an invoice not subject to VAT names no VAT identifier.
		expect(outOfScope).not.toContain('DE123456789')
		expect(outOfScope).not.toContain('PL5260250274')
		if (syntax === 'ubl') {
			expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode>')
			expect(xml).toContain('<cbc:TaxExemptionReason>Exempt medical service</cbc:TaxExemptionReason>')
			expect(outOfScope).toMatch(/<cbc:ID>O<\/cbc:ID>\s*<cbc:TaxExemptionReason>/)
		} else {
			expect(xml).toContain('<ram:ExemptionReasonCode>VATEX-EU-AE</ram:ExemptionReasonCode>')
			expect(xml).toContain('<ram:ExemptionReason>Exempt medical service</ram:ExemptionReason>')
			expect(outOfScope).toMatch(/<ram:CategoryCode>O<\/ram:CategoryCode>\s*<\/ram:ApplicableTradeTax>/)
		}
	})

	test.each(syntaxes)(
		'%s: a draft, a BHD invoice, O mixed with other rates and a client without address are refused by field',
		(syntax) => {
			const draft = { ...documentOf(cases[0] as Case), number: null }
			expect(eInvoiceXml(draft, syntax)).toMatchObject({ ok: false, errors: [{ field: 'number' }] })
			// EN 16931 allows 2 decimals in amounts (BR-DEC); BHD has 3, which we do not round again.
			const bhd = documentOf({ currency: 'BHD', lines: [line('2', '12.345', 'r10')] })
			expect(bhd.totals.taxInclusiveAmount.decimal).toBe('27.159')
			expect(eInvoiceXml(bhd, syntax)).toMatchObject({ ok: false, errors: [{ field: 'currency' }] })
			// BR-O-11: lines not subject to VAT cannot share an invoice with other VAT categories.
			const mixed = documentOf({ currency: 'EUR', lines: [line('1', '10.00', 'r19'), line('1', '15.00', 'rO')] })
			expect(eInvoiceXml(mixed, syntax)).toMatchObject({ ok: false, errors: [{ field: 'lines' }] })
			// BR-CO-26: without a VAT id (BR-O-02) the seller needs its registration number.
			const unregistered = documentOf(cases[6] as Case)
			unregistered.profile = { ...unregistered.profile, taxIds: { vatId: 'DE123456789', other: [] } }
			expect(eInvoiceXml(unregistered, syntax)).toMatchObject({
				ok: false,
				errors: [{ field: 'profile.taxIds.other' }],
			})
			const nowhere = documentOf(cases[0] as Case)
			nowhere.client = { ...nowhere.client, address: null }
			expect(eInvoiceXml(nowhere, syntax)).toMatchObject({ ok: false, errors: [{ field: 'client.address' }] })
		},
	)
})

describe('the rules catch what they name', () => {
	const valid = (syntax: EInvoiceSyntax) => xmlOf(documentOf(cases[2] as Case), syntax)
	const ids = (xml: string, syntax: EInvoiceSyntax) => brokenRules(xml, syntax).map((each) => each.split(':')[0])

	test('UBL: a VAT amount a cent off, a line net changed, a missing exemption reason, 3 decimals', () => {
		const xml = valid('ubl')
		const vatOff = xml.replace(
			'<cbc:TaxAmount currencyID="EUR">188.10</cbc:TaxAmount>',
			'<cbc:TaxAmount currencyID="EUR">188.11</cbc:TaxAmount>',
		)
		expect(vatOff).not.toBe(xml)
		expect(ids(vatOff, 'ubl')).toEqual(expect.arrayContaining(['BR-CO-14', 'BR-CO-17']))
		const lineOff = xml.replace(
			'<cbc:LineExtensionAmount currencyID="EUR">1100.00</cbc:LineExtensionAmount>',
			'<cbc:LineExtensionAmount currencyID="EUR">1100.01</cbc:LineExtensionAmount>',
		)
		expect(ids(lineOff, 'ubl')).toEqual(expect.arrayContaining(['BR-CO-10', 'BR-S-08', 'PEPPOL-EN16931-R120']))
		const exempt = xmlOf(documentOf(cases[5] as Case), 'ubl')
		const noReason = exempt.replace('<cbc:TaxExemptionReason>Exempt medical service</cbc:TaxExemptionReason>', '')
		expect(ids(noReason, 'ubl')).toEqual(['BR-E-10'])
		expect(ids(xml.replace('>1254.95<', '>1254.950<'), 'ubl')).toContain('BR-DEC')
		expect(
			ids(xml.replace('<cbc:PriceAmount currencyID="EUR">88.00', '<cbc:PriceAmount currencyID="EUR">-88.00'), 'ubl'),
		).toContain('BR-27')
	})

	test('CII: a VAT amount a cent off, a total changed, a missing seller VAT id, elements out of order', async () => {
		const xml = valid('cii')
		const vatOff = xml.replace(
			'<ram:CalculatedAmount>188.10</ram:CalculatedAmount>',
			'<ram:CalculatedAmount>188.11</ram:CalculatedAmount>',
		)
		expect(vatOff).not.toBe(xml)
		expect(ids(vatOff, 'cii')).toEqual(expect.arrayContaining(['BR-CO-14', 'BR-CO-17']))
		const dueOff = xml.replace(
			'<ram:DuePayableAmount>1054.95</ram:DuePayableAmount>',
			'<ram:DuePayableAmount>1054.96</ram:DuePayableAmount>',
		)
		expect(ids(dueOff, 'cii')).toEqual(['BR-CO-16'])
		const noVatId = xml.replace(
			/<ram:SpecifiedTaxRegistration>\s*<ram:ID schemeID="VA">DE123456789<\/ram:ID>\s*<\/ram:SpecifiedTaxRegistration>/,
			'',
		)
		expect(ids(noVatId, 'cii')).toEqual(['BR-S-02'])
		const swapped = xml.replace(/(<ram:ID>INV-2026-0042<\/ram:ID>)(\s*)(<ram:TypeCode>380<\/ram:TypeCode>)/, '$3$2$1')
		expect(swapped).not.toBe(xml)
		expect((await schemaErrors(swapped)).join('\n')).toContain('TypeCode')
	})
})

describe('units', () => {
	test('free-text units map to UN/ECE Rec 20 codes, anything else to C62', () => {
		expect(['h', 'Hours', 'Std.', 'Stunden'].map(unitCode)).toEqual(['HUR', 'HUR', 'HUR', 'HUR'])
		expect(['day', 'Tage', 'month', 'pcs', 'Stück', 'kg', 'm²', 'kWh', 'HUR', 'MON'].map(unitCode)).toEqual([
			'DAY',
			'DAY',
			'MON',
			'H87',
			'H87',
			'KGM',
			'MTK',
			'KWH',
			'HUR',
			'MON',
		])
		expect([null, '', 'seat', 'licence'].map(unitCode)).toEqual(['C62', 'C62', 'C62', 'C62'])
	})
})

describe('Factur-X', () => {
	test('a PDF/A-3 with the CII XML attached as factur-x.xml (Alternative) and the Factur-X XMP', async () => {
		const document = documentOf(cases[2] as Case)
		const result = await renderFacturXPdf(document, new Date('2026-11-26T10:00:00Z'))
		if (!result.ok) {
			throw new Error(JSON.stringify(result.errors))
		}
		const { pdf, xml } = result
		expect(xml).toBe(xmlOf(document, 'cii'))
		const raw = pdf.toString('latin1')
		expect(raw.startsWith('%PDF-1.7')).toBe(true)
		expect(raw).toContain('/AFRelationship /Alternative')
		expect(raw).toMatch(/\/AF \[\d+ 0 R\]/)
		expect(raw).toContain('/Subtype /text#2Fxml')
		expect(raw).toContain('<pdfaid:part>3</pdfaid:part>')
		expect(raw).toContain('<pdfaid:conformance>B</pdfaid:conformance>')
		expect(raw).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>')
		expect(raw).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>')
		expect(raw).toContain('/OutputIntents')
		// PDF/A embeds every font: only Inter, never the standard Times the profile asked for.
		expect(raw).not.toMatch(/\/BaseFont \/Times/)

		// The embedded file, read back from the PDF's bytes: its stream, deflated as pdfkit writes it.
		const embedded = embeddedFile(pdf)
		expect(raw).toMatch(/\/EmbeddedFiles <<\s*\/Names \[\s*\(factur-x\.xml\) \d+ 0 R/)
		expect(raw).toContain(`/F (${facturXFileName})`)
		expect(embedded).toBe(xml)
		expect(brokenRules(embedded, 'cii')).toEqual([])
		expect(await schemaErrors(embedded)).toEqual([])

		// The page is the same invoice as the XML.
		const { text } = await extractText(new Uint8Array(pdf), { mergePages: true })
		expect(text.replace(/\s+/g, ' ')).toContain('Amount due €1,054.95')
	})

	test('a legal name with & and < is escaped in the XMP, as it is in the document information', async () => {
		const document = documentOf(cases[0] as Case)
		document.profile = { ...document.profile, legalName: 'Smith & Sons <Tools>' }
		const result = await renderFacturXPdf(document)
		if (!result.ok) {
			throw new Error(JSON.stringify(result.errors))
		}
		const raw = result.pdf.toString('latin1')
		const xmp = raw.slice(raw.indexOf('<x:xmpmeta'), raw.indexOf('</x:xmpmeta>') + '</x:xmpmeta>'.length)
		expect(xmp).toContain('<rdf:li>Smith &amp; Sons &lt;Tools&gt;</rdf:li>')
		expect(xmp).not.toContain('Smith & Sons')
		expect(raw).toContain('(Smith & Sons <Tools>)')
		// The XMP is well-formed XML (xmllint reads it; no schema needed for that).
		const parsed = await validateXML({
			xml: [{ fileName: 'xmp.xml', contents: xmp }],
			schema: [{ fileName: 'any.xsd', contents: anySchema }],
		})
		expect(parsed.errors.filter((error) => !/No matching global declaration/.test(error.rawMessage))).toEqual([])
	})

	test('a draft gets the XML’s field errors, not a PDF', async () => {
		const draft = { ...documentOf(cases[0] as Case), number: null }
		expect(await renderFacturXPdf(draft)).toMatchObject({ ok: false, errors: [{ field: 'number' }] })
	})
})
