import { describe, expect, test } from 'vitest'
import { formatChartChange, formatChartNumber, formatUpdatedAgo, noValue, seriesNumberFormat } from './chart-format.ts'
import type { ChartNumberFormat } from './charts.ts'

const plain: ChartNumberFormat = { style: 'number', currency: 'USD', decimals: null, compact: false }

describe('formatChartNumber', () => {
	test('numbers show at most two decimals unless told', () => {
		expect(formatChartNumber(1234.5678, plain)).toBe('1,234.57')
		expect(formatChartNumber(12, plain)).toBe('12')
		expect(formatChartNumber(12, { ...plain, decimals: 3 })).toBe('12.000')
	})

	test('currency uses the code, and whole amounts show no cents', () => {
		expect(formatChartNumber(1200, { ...plain, style: 'currency', currency: 'EUR' })).toBe('€1,200')
		expect(formatChartNumber(1200.5, { ...plain, style: 'currency', currency: 'USD' })).toBe('$1,200.50')
		expect(formatChartNumber(3, { ...plain, style: 'currency', currency: 'JPY', decimals: 0 })).toBe('¥3')
	})

	test('percent reads fractions', () => {
		expect(formatChartNumber(0.25, { ...plain, style: 'percent' })).toBe('25%')
		expect(formatChartNumber(0.12345, { ...plain, style: 'percent' })).toBe('12.35%')
	})

	test('compact notation', () => {
		expect(formatChartNumber(1234, { ...plain, compact: true })).toBe('1.2K')
		expect(formatChartNumber(3_400_000, { ...plain, style: 'currency', compact: true })).toBe('$3.4M')
	})

	test('no value', () => {
		expect(formatChartNumber(null, plain)).toBe(noValue)
		expect(formatChartNumber(Number.NaN, plain)).toBe(noValue)
	})
})

test('formatChartChange signs the change', () => {
	expect(formatChartChange(0.25)).toBe('+25%')
	expect(formatChartChange(-0.125)).toBe('-12.5%')
	expect(formatChartChange(0)).toBe('0%')
	expect(formatChartChange(null)).toBe(noValue)
})

test('formatUpdatedAgo', () => {
	const now = new Date('2026-11-24T12:00:00Z')
	expect(formatUpdatedAgo('2026-11-24T11:59:30Z', now)).toBe('just now')
	expect(formatUpdatedAgo('2026-11-24T11:55:00Z', now)).toBe('5 min ago')
	expect(formatUpdatedAgo('2026-11-24T09:00:00Z', now)).toBe('3 h ago')
	expect(formatUpdatedAgo('2026-11-23T10:00:00Z', now)).toBe('yesterday')
	expect(formatUpdatedAgo('2026-11-20T12:00:00Z', now)).toBe('4 days ago')
	expect(formatUpdatedAgo('2026-10-01T12:00:00Z', now)).toBe('on Oct 1, 2026')
	expect(formatUpdatedAgo('not a date', now)).toBe('')
})

describe('seriesNumberFormat', () => {
	const money: ChartNumberFormat = { style: 'currency', currency: 'EUR', decimals: 2, compact: false }
	const sum = { aggregation: 'sum', transform: 'none', numberFormat: null } as const

	test('a series without its own format reads as the chart says', () => {
		expect(seriesNumberFormat(money, sum)).toEqual(money)
		expect(formatChartNumber(1200, seriesNumberFormat(money, sum))).toBe('€1,200.00')
	})

	test('a count on a chart of money is a plain whole number', () => {
		const count = seriesNumberFormat(money, { ...sum, aggregation: 'count' })
		expect(formatChartNumber(3, count)).toBe('3')
		expect(formatChartNumber(3, seriesNumberFormat(money, { ...sum, aggregation: 'count_distinct' }))).toBe('3')
		// On a plain chart a count keeps the chart's decimals, as the owner set them.
		expect(seriesNumberFormat({ ...plain, decimals: 1 }, { ...sum, aggregation: 'count' }).decimals).toBe(1)
	})

	test('a percent of total is a percent whatever the chart says', () => {
		expect(formatChartNumber(0.25, seriesNumberFormat(money, { ...sum, transform: 'percent_of_total' }))).toBe('25.00%')
		expect(formatChartNumber(0.25, seriesNumberFormat(plain, { ...sum, transform: 'percent_of_total' }))).toBe('25%')
	})

	test("a series' own format wins over the chart's, keeping its decimals", () => {
		const own = seriesNumberFormat(plain, { ...sum, numberFormat: { style: 'currency', currency: 'JPY' } })
		expect(own).toEqual({ ...plain, style: 'currency', currency: 'JPY' })
		expect(formatChartNumber(1500, own)).toBe('¥1,500')
	})
})
