import { describe, expect, test } from 'vitest'
import {
	currencyCodeSchema,
	currencyCodes,
	decimalToMinor,
	formatDecimal,
	formatDecimalMoney,
	formatMoney,
	isCurrency,
	minorToDecimal,
	minorUnitsOf,
} from './invoice-currencies.ts'

// ICU separates a symbol with a no-break (or narrow no-break) space; compare with plain ones.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

describe('the ISO 4217 table', () => {
	test('has every active code with a minor unit, and only those', () => {
		// List one has 178 codes; 14 of them have no minor unit (metals, bond units, XDR, XSU, XUA,
		// XAD, XTS, XXX) and cannot be invoiced.
		expect(currencyCodes).toHaveLength(164)
		expect(new Set(currencyCodes).size).toBe(164)
		expect([...currencyCodes].sort()).toEqual(currencyCodes)
		for (const code of currencyCodes) {
			expect(code).toMatch(/^[A-Z]{3}$/)
		}
	})

	test.each([
		['EUR', 2],
		['USD', 2],
		['JPY', 0],
		['KRW', 0],
		['VND', 0],
		['XOF', 0],
		['ISK', 0],
		['CLP', 0],
		['BHD', 3],
		['IQD', 3],
		['JOD', 3],
		['KWD', 3],
		['LYD', 3],
		['OMR', 3],
		['TND', 3],
		['CLF', 4],
		['UYW', 4],
		['XCG', 2],
		['ZWG', 2],
		['SLE', 2],
		['VED', 2],
		['HUF', 2],
	])('%s has %i decimals', (code, digits) => {
		expect(isCurrency(code)).toBe(true)
		expect(minorUnitsOf(code)).toBe(digits)
	})

	test.each(['XXX', 'XAU', 'XTS', 'XDR', 'HRK', 'ANG', 'SLL', 'ZWL', 'eur', 'EURO', ''])(
		'%s is not an invoice currency',
		(code) => {
			expect(isCurrency(code)).toBe(false)
			expect(() => minorUnitsOf(code)).toThrow(RangeError)
			expect(currencyCodeSchema.safeParse(code).success).toBe(false)
		},
	)
})

describe('decimal strings and minor units', () => {
	test.each([
		[119000, 'EUR', '1190.00'],
		[-1, 'EUR', '-0.01'],
		[0, 'EUR', '0.00'],
		[5, 'EUR', '0.05'],
		[1190, 'JPY', '1190'],
		[-7, 'JPY', '-7'],
		[1190, 'BHD', '1.190'],
		[1, 'KWD', '0.001'],
		[12345, 'CLF', '1.2345'],
	])('%i minor units of %s read %s, and back', (minor, code, decimal) => {
		expect(minorToDecimal(minor, code)).toBe(decimal)
		expect(decimalToMinor(decimal, code)).toEqual({ ok: true, minor: BigInt(minor) })
	})

	test('beyond a float: 2^63 cents are exact', () => {
		const minor = 9_223_372_036_854_775_807n
		expect(minorToDecimal(minor, 'EUR')).toBe('92233720368547758.07')
		expect(decimalToMinor('92233720368547758.07', 'EUR')).toEqual({ ok: true, minor })
	})

	test('fewer decimals are padded, "-0" is zero, and more decimals are refused (never rounded)', () => {
		expect(decimalToMinor('1190', 'EUR')).toEqual({ ok: true, minor: 119000n })
		expect(decimalToMinor('1190.5', 'BHD')).toEqual({ ok: true, minor: 1190500n })
		expect(decimalToMinor('-0.00', 'EUR')).toEqual({ ok: true, minor: 0n })
		expect(decimalToMinor('1.005', 'EUR')).toEqual({ ok: false, message: 'EUR amounts have at most 2 decimals.' })
		expect(decimalToMinor('1.5', 'JPY')).toEqual({ ok: false, message: 'JPY amounts have no decimals.' })
		for (const bad of ['', '1,5', '1e3', '.5', '1.', '+1', 'NaN', '1 000']) {
			expect(decimalToMinor(bad, 'EUR').ok).toBe(false)
		}
	})

	test('a number of minor units must be a safe integer', () => {
		expect(() => minorToDecimal(0.5, 'EUR')).toThrow(RangeError)
		expect(() => minorToDecimal(2 ** 60, 'EUR')).toThrow(RangeError)
	})
})

describe('formatting', () => {
	test.each([
		[119000, 'EUR', 'en-US', '€1,190.00'],
		[119000, 'EUR', 'de-DE', '1.190,00 €'],
		[-1, 'EUR', 'fr-FR', '-0,01 €'],
		[1190, 'JPY', 'en-US', '¥1,190'],
		[1190, 'JPY', 'ja-JP', '￥1,190'],
		[1190, 'BHD', 'en-US', 'BHD 1.190'],
		[1, 'BHD', 'en-US', 'BHD 0.001'],
		// CLDR shows IQD without decimals; ISO (and so the invoice) has 3.
		[1500, 'IQD', 'en-US', 'IQD 1.500'],
		[12345, 'CLF', 'es-CL', 'CLF 1,2345'],
	])('%i of %s in %s reads %s', (minor, code, locale, text) => {
		expect(plain(formatMoney(minor, code, locale))).toBe(text)
	})

	test('large amounts keep every digit (a float would not)', () => {
		const minor = 1_234_567_890_123_456_789n
		expect(Number(minor) / 100).toBe(12345678901234568)
		expect(formatMoney(minor, 'EUR', 'en-US')).toBe('€12,345,678,901,234,567.89')
		expect(formatMoney(9_007_199_254_740_993n, 'JPY', 'en-US')).toBe('¥9,007,199,254,740,993')
		expect(plain(formatMoney(123_456_789_012_345_678_901n, 'BHD', 'en-US'))).toBe('BHD 123,456,789,012,345,678.901')
	})

	test('the currency can be named by code or left out', () => {
		expect(plain(formatMoney(119000, 'EUR', 'en-US', { display: 'code' }))).toBe('EUR 1,190.00')
		expect(formatMoney(119000, 'EUR', 'de-DE', { display: 'none' })).toBe('1.190,00')
		expect(formatMoney(1190, 'JPY', 'en-US', { display: 'none' })).toBe('1,190')
	})

	test('unit prices show up to four more digits, never fewer than the currency has', () => {
		expect(formatDecimalMoney('0.123456', 'EUR', 'en-US', { maxDecimals: 6 })).toBe('€0.123456')
		expect(formatDecimalMoney('12.5', 'EUR', 'en-US', { maxDecimals: 6 })).toBe('€12.50')
		expect(formatDecimalMoney('99.5', 'JPY', 'en-US', { maxDecimals: 4 })).toBe('¥99.5')
		expect(formatDecimalMoney('99', 'JPY', 'en-US', { maxDecimals: 4 })).toBe('¥99')
		expect(() => formatDecimalMoney('1e3', 'EUR')).toThrow(RangeError)
	})

	test('quantities and percentages keep their own decimals', () => {
		expect(formatDecimal('1.5000', 'de-DE')).toBe('1,5')
		expect(formatDecimal('2', 'en-US')).toBe('2')
		expect(formatDecimal('1234567.0625', 'en-US')).toBe('1,234,567.0625')
		expect(formatDecimal('-0.25', 'en-US')).toBe('-0.25')
	})
})
