import { expect, test } from 'vitest'
import { currencyDigits, formatMoney, minorToDecimal, parseMoney } from './report-format.ts'

/** Intl puts a no-break space between a code and the number. */
const money = (minor: number, currency: string) => formatMoney(minor, currency, 'en-US').replace(/\u00a0/g, ' ')

test('amounts in minor units show with exactly the currency’s digits', () => {
	expect(currencyDigits('EUR')).toBe(2)
	expect(currencyDigits('JPY')).toBe(0)
	expect(currencyDigits('BHD')).toBe(3)
	expect(formatMoney(12_050, 'EUR', 'en-US')).toBe('€120.50')
	expect(formatMoney(5000, 'JPY', 'en-US')).toBe('¥5,000')
	expect(money(12_345, 'BHD')).toBe('BHD 12.345')
	expect(money(5, 'BHD')).toBe('BHD 0.005')
	// Where a float has no exact cents any more, the digits are still the integer's.
	expect(formatMoney(900_719_925_474_099, 'EUR', 'en-US')).toBe('€9,007,199,254,740.99')
})

test('minor units become an exact decimal string', () => {
	expect(minorToDecimal(7, 2)).toBe('0.07')
	expect(minorToDecimal(120, 0)).toBe('120')
	expect(minorToDecimal(1, 3)).toBe('0.001')
})

test('a typed rate is read exactly in the currency’s digits, never rounded', () => {
	expect(parseMoney('120.5', 'EUR')).toEqual({ ok: true, minor: 12_050 })
	expect(parseMoney('120,50', 'EUR')).toEqual({ ok: true, minor: 12_050 })
	expect(parseMoney('0.1', 'EUR')).toEqual({ ok: true, minor: 10 })
	expect(parseMoney('5000', 'JPY')).toEqual({ ok: true, minor: 5000 })
	expect(parseMoney('12.345', 'BHD')).toEqual({ ok: true, minor: 12_345 })
	expect(parseMoney('', 'EUR')).toEqual({ ok: true, minor: null })
	expect(parseMoney('1.5', 'JPY')).toEqual({ ok: false, message: 'JPY has no decimals.' })
	expect(parseMoney('1.005', 'EUR')).toEqual({ ok: false, message: 'EUR has at most 2 decimals.' })
	expect(parseMoney('-3', 'EUR').ok).toBe(false)
})
