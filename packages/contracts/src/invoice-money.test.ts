import { describe, expect, test } from 'vitest'
import type { FieldError } from './errors.ts'
import { splitProportionally } from './invoice-decimal.ts'
import {
	computeInvoiceTotals,
	type DocumentTotals,
	type InvoiceMoneyInput,
	type Line,
	type TaxRate,
} from './invoice-money.ts'

const rates: TaxRate[] = [
	{ id: 'de19', name: 'VAT 19 %', rate: '19', categoryCode: 'S' },
	{ id: 'de7', name: 'VAT 7 %', rate: '7', categoryCode: 'S' },
	{ id: 'fr20', name: 'TVA 20 %', rate: '20', categoryCode: 'S' },
	{ id: 'fr5.5', name: 'TVA 5,5 %', rate: '5.50', categoryCode: 'S' },
	{ id: 'jp10', name: '消費税 10 %', rate: '10', categoryCode: 'S' },
	{ id: 'five', name: 'VAT 5 %', rate: '5', categoryCode: 'S' },
	{ id: 'zero', name: 'Zero rated', rate: '0', categoryCode: 'Z' },
	{ id: 'exempt', name: 'Exempt', rate: '0', categoryCode: 'E' },
	{ id: 'reverse', name: 'Reverse charge', rate: '0', categoryCode: 'AE' },
]

function line(quantity: string, unitPrice: string, taxRateId: string, discount?: Line['discount']): Line {
	return { quantity, unitPrice, taxRateId, ...(discount ? { discount } : {}) }
}

function totalsOf(input: Omit<InvoiceMoneyInput, 'taxRates'> & { taxRates?: TaxRate[] }): DocumentTotals {
	const result = computeInvoiceTotals({ taxRates: rates, ...input })
	if (!result.ok) {
		throw new Error(`unexpected errors: ${JSON.stringify(result.errors)}`)
	}
	return result.totals
}

function errorsOf(input: Omit<InvoiceMoneyInput, 'taxRates'> & { taxRates?: TaxRate[] }): FieldError[] {
	const result = computeInvoiceTotals({ taxRates: rates, ...input })
	if (result.ok) {
		throw new Error(`expected errors, got ${result.totals.taxInclusiveAmount.decimal}`)
	}
	return result.errors
}

/** The figures a reader checks first, as decimal strings. */
function summary(totals: DocumentTotals) {
	return {
		net: totals.taxExclusiveAmount.decimal,
		vat: totals.vatTotal.decimal,
		total: totals.taxInclusiveAmount.decimal,
		breakdown: totals.vatBreakdown.map(
			(entry) => `${entry.categoryCode} ${entry.rate}: ${entry.taxableAmount.decimal} → ${entry.taxAmount.decimal}`,
		),
	}
}

describe('known results', () => {
	test('1000.00 at 19 % is 1190.00 (not 1189.99)', () => {
		const totals = totalsOf({ currency: 'EUR', lines: [line('1', '1000.00', 'de19')] })
		expect(summary(totals)).toEqual({
			net: '1000.00',
			vat: '190.00',
			total: '1190.00',
			breakdown: ['S 19: 1000.00 → 190.00'],
		})
		expect(totals.taxInclusiveAmount).toEqual({ minor: 119000, decimal: '1190.00' })
		expect(totals.amountDue).toEqual({ minor: 119000, decimal: '1190.00' })
	})

	test('100 lines of 0.01 at 19 %: VAT rounded once on 1.00 is 0.19; per line it would be 0', () => {
		const lines = Array.from({ length: 100 }, () => line('1', '0.01', 'de19'))
		const once = totalsOf({ currency: 'EUR', lines })
		expect(summary(once)).toEqual({ net: '1.00', vat: '0.19', total: '1.19', breakdown: ['S 19: 1.00 → 0.19'] })
		expect(once.lines.every((each) => each.vat === null)).toBe(true)
		const perLine = totalsOf({ currency: 'EUR', lines, lineRounding: true })
		expect(summary(perLine)).toEqual({ net: '1.00', vat: '0.00', total: '1.00', breakdown: ['S 19: 1.00 → 0.00'] })
		expect(perLine.lines[0]?.vat).toEqual({ minor: 0, decimal: '0.00' })
	})

	test('mixed 19 % and 7 %: one breakdown per rate, each rounded once', () => {
		const lines = [
			line('1', '9.99', 'de19'),
			line('1', '9.99', 'de7'),
			line('1', '9.99', 'de19'),
			line('1', '9.99', 'de19'),
		]
		expect(summary(totalsOf({ currency: 'EUR', lines }))).toEqual({
			net: '39.96',
			vat: '6.39',
			total: '46.35',
			// 29.97 × 0.19 = 5.6943; 9.99 × 0.07 = 0.6993
			breakdown: ['S 19: 29.97 → 5.69', 'S 7: 9.99 → 0.70'],
		})
		// Per line: 3 × round(1.8981) = 5.70.
		expect(summary(totalsOf({ currency: 'EUR', lines, lineRounding: true })).breakdown).toEqual([
			'S 19: 29.97 → 5.70',
			'S 7: 9.99 → 0.70',
		])
	})

	test('mixed 20 % and 5.5 % (a rate given as "5.50" reads "5.5")', () => {
		const totals = totalsOf({ currency: 'EUR', lines: [line('1', '123.45', 'fr20'), line('3', '22.63', 'fr5.5')] })
		expect(summary(totals)).toEqual({
			net: '191.34',
			vat: '28.42',
			total: '219.76',
			// 67.89 × 0.055 = 3.73395
			breakdown: ['S 20: 123.45 → 24.69', 'S 5.5: 67.89 → 3.73'],
		})
	})

	test('a 100 % line discount leaves exactly 0.00, never -0.01', () => {
		const totals = totalsOf({
			currency: 'EUR',
			lines: [line('3', '33.333', 'de19', { kind: 'percent', percent: '100' }), line('1', '100', 'de19')],
		})
		expect(totals.lines[0]).toMatchObject({
			gross: { minor: 10000, decimal: '100.00' },
			discount: { minor: 10000, decimal: '100.00' },
			net: { minor: 0, decimal: '0.00' },
		})
		expect(summary(totals)).toEqual({
			net: '100.00',
			vat: '19.00',
			total: '119.00',
			breakdown: ['S 19: 100.00 → 19.00'],
		})
	})

	test('a 100 % invoice discount over two rates: one allowance per rate, everything 0.00', () => {
		const totals = totalsOf({
			currency: 'EUR',
			lines: [line('1', '99.99', 'de19'), line('1', '0.01', 'de7')],
			discounts: [{ kind: 'percent', percent: '100', reason: 'Goodwill' }],
		})
		expect(summary(totals)).toEqual({
			net: '0.00',
			vat: '0.00',
			total: '0.00',
			breakdown: ['S 19: 0.00 → 0.00', 'S 7: 0.00 → 0.00'],
		})
		expect(totals.allowances).toEqual([
			{
				discountIndex: 0,
				categoryCode: 'S',
				rate: '19',
				amount: { minor: 9999, decimal: '99.99' },
				baseAmount: { minor: 9999, decimal: '99.99' },
				percent: '100',
				reason: 'Goodwill',
			},
			{
				discountIndex: 0,
				categoryCode: 'S',
				rate: '7',
				amount: { minor: 1, decimal: '0.01' },
				baseAmount: { minor: 1, decimal: '0.01' },
				percent: '100',
				reason: 'Goodwill',
			},
		])
		expect(totals.allowanceTotal.decimal).toBe('100.00')
	})

	test('a percent invoice discount rounds each rate’s allowance on its own base', () => {
		const totals = totalsOf({
			currency: 'EUR',
			lines: [line('1', '100.00', 'de19'), line('1', '55.55', 'de7')],
			discounts: [{ kind: 'percent', percent: '10' }],
		})
		expect(totals.allowances.map((each) => each.amount.decimal)).toEqual(['10.00', '5.56'])
		expect(summary(totals)).toEqual({
			net: '139.99',
			vat: '20.60',
			total: '160.59',
			// 90.00 × 0.19 = 17.10; 49.99 × 0.07 = 3.4993
			breakdown: ['S 19: 90.00 → 17.10', 'S 7: 49.99 → 3.50'],
		})
	})

	test('JPY has no decimals: amounts are whole yen, a half yen rounds per the profile', () => {
		const totals = totalsOf({ currency: 'JPY', lines: [line('3', '333', 'jp10'), line('1.5', '999', 'jp10')] })
		// 999 + 1498.5 → 1499; 2498 × 0.10 = 249.8
		expect(summary(totals)).toEqual({ net: '2498', vat: '250', total: '2748', breakdown: ['S 10: 2498 → 250'] })
		expect(totals.lines[1]?.net).toEqual({ minor: 1499, decimal: '1499' })
		const even = totalsOf({ currency: 'JPY', rounding: 'halfEven', lines: [line('1.5', '999', 'jp10')] })
		expect(even.lines[0]?.net.decimal).toBe('1498')
		expect(errorsOf({ currency: 'JPY', lines: [line('1', '100.12345', 'jp10')] })).toEqual([
			{ field: 'lines.0.unitPrice', message: 'Enter a price such as 100.00 (at most 4 decimals).' },
		])
	})

	test('BHD has 3 decimals, and prices up to 7', () => {
		const up = totalsOf({ currency: 'BHD', lines: [line('1', '1.2345', 'jp10')] })
		expect(summary(up)).toEqual({ net: '1.235', vat: '0.124', total: '1.359', breakdown: ['S 10: 1.235 → 0.124'] })
		expect(up.taxInclusiveAmount.minor).toBe(1359)
		const even = totalsOf({ currency: 'BHD', rounding: 'halfEven', lines: [line('1', '1.2345', 'jp10')] })
		expect(summary(even)).toEqual({ net: '1.234', vat: '0.123', total: '1.357', breakdown: ['S 10: 1.234 → 0.123'] })
		expect(totalsOf({ currency: 'BHD', lines: [line('2', '0.0000005', 'jp10')] }).lines[0]?.net.decimal).toBe('0.000')
	})

	test('negative credit lines, where the caller allows them', () => {
		const lines = [line('1', '200.00', 'de19'), line('-1', '50.00', 'de19'), line('-2', '12.345', 'de7')]
		expect(errorsOf({ currency: 'EUR', lines })).toEqual([
			{ field: 'lines.1.quantity', message: 'The quantity cannot be negative here.' },
			{ field: 'lines.2.quantity', message: 'The quantity cannot be negative here.' },
		])
		const totals = totalsOf({ currency: 'EUR', lines, allowNegativeQuantities: true })
		expect(totals.lines.map((each) => each.net.decimal)).toEqual(['200.00', '-50.00', '-24.69'])
		expect(summary(totals)).toEqual({
			net: '125.31',
			vat: '26.77',
			total: '152.08',
			// -24.69 × 0.07 = -1.7283
			breakdown: ['S 19: 150.00 → 28.50', 'S 7: -24.69 → -1.73'],
		})
	})

	test('a credit note mirrors its invoice to the cent (half-up rounds ties away from zero)', () => {
		const lines = [line('1', '0.125', 'de19'), line('3', '0.335', 'de7', { kind: 'percent', percent: '12.5' })]
		const invoice = totalsOf({ currency: 'EUR', lines })
		const credit = totalsOf({
			currency: 'EUR',
			allowNegativeQuantities: true,
			lines: lines.map((each) => ({ ...each, quantity: `-${each.quantity}` })),
		})
		expect(invoice.lines[0]?.net.decimal).toBe('0.13')
		expect(credit.lines[0]?.net.decimal).toBe('-0.13')
		const negate = (text: string) => (text.startsWith('-') ? text.slice(1) : text === '0.00' ? text : `-${text}`)
		expect(summary(credit)).toEqual({
			net: negate(invoice.taxExclusiveAmount.decimal),
			vat: negate(invoice.vatTotal.decimal),
			total: negate(invoice.taxInclusiveAmount.decimal),
			breakdown: invoice.vatBreakdown.map(
				(entry) =>
					`${entry.categoryCode} ${entry.rate}: ${negate(entry.taxableAmount.decimal)} → ${negate(entry.taxAmount.decimal)}`,
			),
		})
	})

	test('an amount discount split across three rates adds up exactly (largest remainder)', () => {
		const totals = totalsOf({
			currency: 'EUR',
			lines: [line('1', '100.00', 'de19'), line('1', '100.00', 'de7'), line('1', '100.00', 'zero')],
			discounts: [{ kind: 'amount', amount: '10.00' }],
		})
		expect(totals.allowances.map((each) => `${each.categoryCode} ${each.rate} ${each.amount.decimal}`)).toEqual([
			'S 19 3.34',
			'S 7 3.33',
			'Z 0 3.33',
		])
		expect(totals.allowances.every((each) => each.baseAmount === null && each.percent === null)).toBe(true)
		expect(summary(totals)).toEqual({
			net: '290.00',
			vat: '25.14',
			total: '315.14',
			breakdown: ['S 19: 96.66 → 18.37', 'S 7: 96.67 → 6.77', 'Z 0: 96.67 → 0.00'],
		})
	})

	test('uneven weights: 0.05 over 1.00, 2.00 and 4.00 gives 0.01, 0.01, 0.03', () => {
		// Ideal parts 0.714…, 1.428…, 2.857… cents: floors 0, 1, 2 and the two cents left go to the
		// largest remainders (0.857 and 0.714).
		expect(splitProportionally(5n, [100n, 200n, 400n])).toEqual([1n, 1n, 3n])
		expect(splitProportionally(3n, [1n, 1n, 1n, 1n])).toEqual([1n, 1n, 1n, 0n])
		expect(splitProportionally(7n, [10n, -5n, 5n])).toEqual([7n, -3n, 3n])
		expect(() => splitProportionally(1n, [1n, -1n])).toThrow(RangeError)
	})

	test('half-up and half-even differ exactly on .5', () => {
		const cases: [string, string, string, string][] = [
			// unit price (EUR), rate id, half-up net → vat, half-even net → vat
			['0.125', 'de19', '0.13 → 0.02', '0.12 → 0.02'],
			['0.135', 'de19', '0.14 → 0.03', '0.14 → 0.03'],
			// 0.50 × 5 % = 0.025 and 1.50 × 5 % = 0.075: ties in the VAT itself
			['0.50', 'five', '0.50 → 0.03', '0.50 → 0.02'],
			['1.50', 'five', '1.50 → 0.08', '1.50 → 0.08'],
			['2.0050', 'zero', '2.01 → 0.00', '2.00 → 0.00'],
		]
		for (const [price, rateId, halfUp, halfEven] of cases) {
			for (const [rounding, expected] of [
				['halfUp', halfUp],
				['halfEven', halfEven],
			] as const) {
				const totals = totalsOf({ currency: 'EUR', rounding, lines: [line('1', price, rateId)] })
				expect(`${totals.lineNetTotal.decimal} → ${totals.vatTotal.decimal}`, `${price} ${rounding}`).toBe(expected)
			}
		}
	})

	test('rates with the same category and rate are one breakdown; the same rate in another category is not', () => {
		const totals = totalsOf({
			currency: 'EUR',
			taxRates: [...rates, { id: 'de19b', name: 'MwSt', rate: '19.00', categoryCode: 'S' }],
			lines: [line('1', '10', 'de19'), line('1', '10', 'de19b'), line('1', '10', 'zero'), line('1', '10', 'exempt')],
		})
		expect(totals.vatBreakdown.map((entry) => [entry.categoryCode, entry.rate, entry.taxRateIds])).toEqual([
			['S', '19', ['de19', 'de19b']],
			['Z', '0', ['zero']],
			['E', '0', ['exempt']],
		])
	})

	test('paid so far and the amount due (negative when overpaid)', () => {
		const lines = [line('1', '1000', 'de19')]
		expect(totalsOf({ currency: 'EUR', lines, paid: '100' }).amountDue).toEqual({ minor: 109000, decimal: '1090.00' })
		const over = totalsOf({ currency: 'EUR', lines, paid: '1200.00' })
		expect(over.paidAmount.decimal).toBe('1200.00')
		expect(over.amountDue).toEqual({ minor: -1000, decimal: '-10.00' })
	})

	test('line discounts as amounts take the line’s sign', () => {
		const totals = totalsOf({
			currency: 'EUR',
			allowNegativeQuantities: true,
			lines: [
				line('2', '50', 'de19', { kind: 'amount', amount: '10' }),
				line('-2', '50', 'de19', { kind: 'amount', amount: '10' }),
			],
		})
		expect(totals.lines.map((each) => [each.gross.decimal, each.discount.decimal, each.net.decimal])).toEqual([
			['100.00', '10.00', '90.00'],
			['-100.00', '-10.00', '-90.00'],
		])
	})

	test('an empty invoice is all zeros', () => {
		expect(summary(totalsOf({ currency: 'EUR', lines: [] }))).toEqual({
			net: '0.00',
			vat: '0.00',
			total: '0.00',
			breakdown: [],
		})
	})
})

describe('credit notes', () => {
	test('an amount discount on a credit takes off what it takes off the invoice, below zero', () => {
		const invoiceLines = [line('2', '100', 'de19'), line('1', '50.55', 'de7')]
		const creditLines = invoiceLines.map((one) => ({ ...one, quantity: `-${one.quantity}` }))
		const discounts = [{ kind: 'amount' as const, amount: '25.33' }]
		const invoice = totalsOf({ currency: 'EUR', lines: invoiceLines, discounts })
		const credit = totalsOf({ currency: 'EUR', lines: creditLines, discounts, allowNegativeQuantities: true })
		expect(credit.allowanceTotal.minor).toBe(-invoice.allowanceTotal.minor)
		expect(credit.vatTotal.minor).toBe(-invoice.vatTotal.minor)
		expect(credit.taxInclusiveAmount.minor).toBe(-invoice.taxInclusiveAmount.minor)
		expect(credit.allowances.map((one) => one.amount.minor)).toEqual(invoice.allowances.map((one) => -one.amount.minor))
	})
})

describe('bad input is a list of field errors', () => {
	const ok = [line('1', '100', 'de19')]
	test.each<[string, Omit<InvoiceMoneyInput, 'taxRates'> & { taxRates?: TaxRate[] }, FieldError[]]>([
		[
			'unknown currency',
			{ currency: 'XYZ', lines: ok },
			[{ field: 'currency', message: 'Choose an ISO 4217 currency code such as EUR.' }],
		],
		[
			'a quantity with 5 decimals',
			{ currency: 'EUR', lines: [line('1.23456', '1', 'de19')] },
			[{ field: 'lines.0.quantity', message: 'Enter a quantity such as 2 or 1.5 (at most 4 decimals).' }],
		],
		[
			'a unit price with 7 decimals in EUR',
			{ currency: 'EUR', lines: [line('1', '1.1234567', 'de19')] },
			[{ field: 'lines.0.unitPrice', message: 'Enter a price such as 100.00 (at most 6 decimals).' }],
		],
		[
			'a negative unit price (BR-27)',
			{ currency: 'EUR', lines: [line('1', '-1', 'de19')], allowNegativeQuantities: true },
			[{ field: 'lines.0.unitPrice', message: 'The price cannot be negative; use a negative quantity for a credit.' }],
		],
		[
			'a tax rate the profile does not have (another organization’s)',
			{ currency: 'EUR', lines: [line('1', '1', 'theirs')] },
			[{ field: 'lines.0.taxRateId', message: 'Choose one of the tax rates of this profile.' }],
		],
		[
			'a standard rate of 0 %, said once for two lines',
			{
				currency: 'EUR',
				taxRates: [{ id: 's0', name: 'S 0', rate: '0', categoryCode: 'S' }],
				lines: [line('1', '1', 's0'), line('2', '1', 's0')],
			},
			[{ field: 'taxRates.0.rate', message: 'A standard rate (S) must be above 0 %.' }],
		],
		[
			'a zero-rated category with 7 %',
			{
				currency: 'EUR',
				taxRates: [{ id: 'z7', name: 'Z', rate: '7', categoryCode: 'Z' }],
				lines: [line('1', '1', 'z7')],
			},
			[{ field: 'taxRates.0.rate', message: 'Category Z has a rate of 0 %.' }],
		],
		[
			'a rate over 100 %',
			{
				currency: 'EUR',
				taxRates: [{ id: 'x', name: 'X', rate: '101', categoryCode: 'S' }],
				lines: [line('1', '1', 'x')],
			},
			[{ field: 'taxRates.0.rate', message: 'Enter a rate from 0 to 100 %.' }],
		],
		[
			'a line discount above the line',
			{ currency: 'EUR', lines: [line('1', '10', 'de19', { kind: 'amount', amount: '10.01' })] },
			[{ field: 'lines.0.discount.amount', message: "The discount must be between 0 and the line's amount." }],
		],
		[
			'a line discount with too many decimals',
			{ currency: 'JPY', lines: [line('1', '10', 'jp10', { kind: 'amount', amount: '1.5' })] },
			[{ field: 'lines.0.discount.amount', message: 'JPY amounts have no decimals.' }],
		],
		[
			'a line discount of 120 %',
			{ currency: 'EUR', lines: [line('1', '10', 'de19', { kind: 'percent', percent: '120' })] },
			[{ field: 'lines.0.discount.percent', message: 'Enter a percentage from 0 to 100.' }],
		],
		[
			'an invoice discount above the total',
			{ currency: 'EUR', lines: ok, discounts: [{ kind: 'amount', amount: '100.01' }] },
			[{ field: 'discounts.0.amount', message: "The discount is larger than the lines' total." }],
		],
		[
			'an amount discount larger than what a credit takes off',
			{
				currency: 'EUR',
				lines: [line('-1', '100', 'de19')],
				allowNegativeQuantities: true,
				discounts: [{ kind: 'amount', amount: '100.01' }],
			},
			[{ field: 'discounts.0.amount', message: "The discount is larger than the lines' total." }],
		],
		[
			'an amount discount on lines that add up to zero',
			{
				currency: 'EUR',
				lines: [line('-1', '100', 'de19'), line('1', '100', 'de19')],
				allowNegativeQuantities: true,
				discounts: [{ kind: 'amount', amount: '1' }],
			},
			[{ field: 'discounts.0.amount', message: 'An amount discount needs lines that add up to more than zero.' }],
		],
		[
			'two discounts that together pass the total',
			{
				currency: 'EUR',
				lines: ok,
				discounts: [
					{ kind: 'percent', percent: '60' },
					{ kind: 'amount', amount: '50' },
				],
			},
			[{ field: 'discounts', message: "Together the discounts are larger than the lines' total." }],
		],
		[
			'a negative amount paid',
			{ currency: 'EUR', lines: ok, paid: '-1' },
			[{ field: 'paid', message: 'The amount paid cannot be negative.' }],
		],
		[
			'an amount too large for a safe integer of minor units',
			{ currency: 'EUR', lines: [line('999999999', '999999999999', 'de19')] },
			[{ field: 'lines.0.unitPrice', message: "This line's amount is too large." }],
		],
		[
			'lines each fine whose total is too large',
			{ currency: 'EUR', lines: Array.from({ length: 3 }, () => line('4000', '10000000000', 'de19')) },
			[{ field: 'lines', message: "The invoice's total is too large." }],
		],
	])('%s', (_name, input, expected) => {
		expect(errorsOf(input)).toEqual(expected)
	})

	test('an exponent or a float-like text is not a number here', () => {
		for (const bad of ['1e3', '0x10', 'Infinity', '1,5', ' ', '']) {
			expect(errorsOf({ currency: 'EUR', lines: [line(bad, '1', 'de19')] })[0]?.field).toBe('lines.0.quantity')
		}
	})
})
