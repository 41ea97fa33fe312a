import { describe, expect, test } from 'vitest'
import {
	createInvoiceProfileSchema,
	isValidIban,
	numberingSchema,
	ratePercentSchema,
	taxRateInputSchema,
	updateInvoiceProfileSchema,
} from './invoices.ts'

function issuesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
	return (result.error?.issues ?? []).map((issue) => issue.path.map(String).join('.'))
}

describe('invoice settings contract', () => {
	test('IBANs are checked by their check digits (ISO 13616 mod 97)', () => {
		for (const valid of [
			'DE89370400440532013000',
			'GB82WEST12345698765432',
			'FR1420041010050500013M02606',
			'NL91ABNA0417164300',
		]) {
			expect(isValidIban(valid), valid).toBe(true)
		}
		for (const invalid of [
			'DE89370400440532013001',
			'GB82WEST12345698765433',
			'DE8937040044',
			'de89370400440532013000',
			'',
		]) {
			expect(isValidIban(invalid), invalid).toBe(false)
		}
	})

	test('rates are exact decimal strings from 0 to 100, kept without trailing zeros', () => {
		const rate = (value: string) => ratePercentSchema.safeParse(value)
		expect(rate('19.50').data).toBe('19.5')
		expect(rate('100.00').data).toBe('100')
		expect(rate('007').data).toBe('7')
		expect(rate('0.0').data).toBe('0')
		expect(rate('5.5').data).toBe('5.5')
		for (const bad of ['100.0001', '101', '-1', '19,5', '1e1', '19.12345', '', 'abc']) {
			expect(rate(bad).success, bad).toBe(false)
		}
	})

	test('a rate fits its VAT category, and exempt categories say why', () => {
		const parse = (rate: Record<string, unknown>) =>
			taxRateInputSchema.safeParse({ name: 'Rate', categoryCode: 'S', rate: '19', ...rate })
		expect(parse({}).success).toBe(true)
		expect(issuesOf(parse({ rate: '0' }))).toEqual(['rate'])
		expect(issuesOf(parse({ categoryCode: 'Z', rate: '7' }))).toEqual(['rate'])
		expect(parse({ categoryCode: 'Z', rate: '0' }).success).toBe(true)
		expect(issuesOf(parse({ categoryCode: 'AE', rate: '0' }))).toEqual(['exemptionReason'])
		expect(parse({ categoryCode: 'AE', rate: '0', exemptionReason: 'Reverse charge' }).success).toBe(true)
		expect(parse({ categoryCode: 'K', rate: '0', exemptionReasonCode: 'VATEX-EU-IC' }).success).toBe(true)
		// Canary Islands and Ceuta/Melilla have rates of their own, 0 included.
		expect(parse({ categoryCode: 'L', rate: '7' }).success).toBe(true)
		expect(parse({ categoryCode: 'M', rate: '0' }).success).toBe(true)
	})

	test('invoice and credit-note patterns must be able to give different numbers', () => {
		const parse = (invoice: string, creditNote: string) =>
			numberingSchema.safeParse({
				invoice: { pattern: invoice, reset: 'never' },
				creditNote: { pattern: creditNote, reset: 'never' },
			})
		expect(parse('INV-{counter}', 'CN-{counter}').success).toBe(true)
		expect(issuesOf(parse('INV-{counter}', 'INV-1{counter}'))).toEqual(['creditNote.pattern'])
		expect(issuesOf(parse('{counter}', '{counter:5}'))).toEqual(['creditNote.pattern'])
		expect(issuesOf(parse('INV', 'CN-{counter}'))).toEqual(['invoice.pattern'])
	})

	test('a new profile needs a legal name and an address; a change needs nothing', () => {
		const address = { lines: [], postcode: '', city: 'Berlin', country: 'de' }
		const created = createInvoiceProfileSchema.safeParse({ legalName: 'Acme', address })
		expect(created.success).toBe(true)
		expect(created.data?.address.country).toBe('DE')
		expect(issuesOf(createInvoiceProfileSchema.safeParse({ address }))).toEqual(['legalName'])
		expect(updateInvoiceProfileSchema.parse({})).toEqual({})
		expect(
			issuesOf(updateInvoiceProfileSchema.safeParse({ emailMessage: { subject: 'Hi {name}', body: '' } })),
		).toEqual(['emailMessage.subject'])
		expect(updateInvoiceProfileSchema.parse({ taxIds: { vatId: 'el 123.456.789', other: [] } }).taxIds?.vatId).toBe(
			'EL123456789',
		)
	})
})
