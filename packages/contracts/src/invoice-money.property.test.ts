import { describe, expect, test } from 'vitest'
import { minorUnitsOf } from './invoice-currencies.ts'
import {
	computeInvoiceTotals,
	type DocumentDiscount,
	type InvoiceMoneyInput,
	type Line,
	type RoundingMode,
	type TaxRate,
} from './invoice-money.ts'

// Random invoices against an independent computation: plain BigInt fractions, no big.js, written
// from EN 16931's rules rather than from the implementation. Seeded, so a failure replays.

/** mulberry32: a small seeded generator. */
function random(seed: number): () => number {
	let state = seed >>> 0
	return () => {
		state = (state + 0x6d2b79f5) >>> 0
		let t = state
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

/** A value as numerator / 10^scale. */
type Fraction = { numerator: bigint; scale: number }

function fraction(text: string): Fraction {
	const negative = text.startsWith('-')
	const [whole = '0', decimals = ''] = text.replace('-', '').split('.')
	const numerator = BigInt(whole + decimals)
	return { numerator: negative ? -numerator : numerator, scale: decimals.length }
}

const pow10 = (exponent: number) => 10n ** BigInt(exponent)
/** "8.10" → "8.1": one spelling per rate, as a text, not a float. */
const normalRate = (rate: string) => (rate.includes('.') ? rate.replace(/\.?0+$/, '') : rate)

/** numerator / denominator (denominator > 0) to an integer, ties by the mode. */
function divideRounded(numerator: bigint, denominator: bigint, mode: RoundingMode): bigint {
	const negative = numerator < 0n
	const magnitude = negative ? -numerator : numerator
	let quotient = magnitude / denominator
	const twice = (magnitude % denominator) * 2n
	if (twice > denominator || (twice === denominator && (mode === 'halfUp' || quotient % 2n === 1n))) {
		quotient += 1n
	}
	return negative ? -quotient : quotient
}

/** value × percent / 100 in minor units, rounded; value in minor units (scale 0) or a Fraction of them. */
function percentOf(value: Fraction, percent: Fraction, mode: RoundingMode): bigint {
	return divideRounded(value.numerator * percent.numerator, pow10(value.scale + percent.scale) * 100n, mode)
}

type Expected = {
	nets: bigint[]
	allowances: { key: string; amount: bigint }[]
	breakdown: { key: string; taxable: bigint; tax: bigint }[]
	net: bigint
	vat: bigint
	error: 'discounts' | null
}

function expectedTotals(input: InvoiceMoneyInput): Expected {
	const digits = minorUnitsOf(input.currency)
	const mode = input.rounding ?? 'halfUp'
	const rateById = new Map(input.taxRates.map((rate) => [rate.id, rate]))
	const keyOf = (rate: TaxRate) => `${rate.categoryCode}|${normalRate(rate.rate)}`
	const keys: string[] = []
	const bases = new Map<string, bigint>()
	const percents = new Map<string, Fraction>()
	const lineVat = new Map<string, bigint>()
	const nets = input.lines.map((line) => {
		const rate = rateById.get(line.taxRateId) as TaxRate
		const key = keyOf(rate)
		if (!keys.includes(key)) {
			keys.push(key)
		}
		percents.set(key, fraction(rate.rate))
		const quantity = fraction(line.quantity)
		const price = fraction(line.unitPrice)
		const exact = {
			numerator: quantity.numerator * price.numerator * pow10(digits),
			scale: quantity.scale + price.scale,
		}
		const gross = divideRounded(exact.numerator, pow10(exact.scale), mode)
		let discount = 0n
		if (line.discount?.kind === 'percent') {
			discount = percentOf(exact, fraction(line.discount.percent), mode)
		} else if (line.discount?.kind === 'amount') {
			const amount = fraction(line.discount.amount)
			discount = (amount.numerator * pow10(digits)) / pow10(amount.scale)
			discount = gross < 0n ? -discount : discount
		}
		const net = gross - discount
		bases.set(key, (bases.get(key) ?? 0n) + net)
		lineVat.set(key, (lineVat.get(key) ?? 0n) + percentOf({ numerator: net, scale: 0 }, fraction(rate.rate), mode))
		return net
	})
	const total = nets.reduce((sum, net) => sum + net, 0n)
	const allowances: { key: string; amount: bigint }[] = []
	for (const discount of input.discounts ?? []) {
		if (discount.kind === 'percent') {
			for (const key of keys) {
				const amount = percentOf({ numerator: bases.get(key) ?? 0n, scale: 0 }, fraction(discount.percent), mode)
				if (amount !== 0n) {
					allowances.push({ key, amount })
				}
			}
			continue
		}
		const given = fraction(discount.amount)
		const amount = (given.numerator * pow10(digits)) / pow10(given.scale)
		// Largest remainder, spelled out: floor of each ideal share, then one unit each to the
		// biggest fractional parts until the amount is reached.
		const shares = keys.map((key, index) => {
			const weighted = amount * (bases.get(key) ?? 0n)
			let floor = weighted / total
			if (weighted % total !== 0n && weighted < 0n) {
				floor -= 1n
			}
			return { key, index, floor, remainder: weighted - floor * total }
		})
		let left = amount - shares.reduce((sum, share) => sum + share.floor, 0n)
		const byRemainder = [...shares].sort((a, b) =>
			a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
		)
		for (const share of byRemainder) {
			if (left > 0n) {
				share.floor += 1n
				left -= 1n
			}
		}
		for (const share of shares) {
			if (share.floor !== 0n) {
				allowances.push({ key: share.key, amount: share.floor })
			}
		}
	}
	const allowanceTotal = allowances.reduce((sum, allowance) => sum + allowance.amount, 0n)
	const breakdown = keys.map((key) => {
		const mine = allowances.filter((allowance) => allowance.key === key)
		const taxable = (bases.get(key) ?? 0n) - mine.reduce((sum, allowance) => sum + allowance.amount, 0n)
		const percent = percents.get(key) as Fraction
		const tax = input.lineRounding
			? (lineVat.get(key) ?? 0n) -
				mine.reduce((sum, allowance) => sum + percentOf({ numerator: allowance.amount, scale: 0 }, percent, mode), 0n)
			: percentOf({ numerator: taxable, scale: 0 }, percent, mode)
		return { key, taxable, tax }
	})
	return {
		nets,
		allowances,
		breakdown,
		net: total - allowanceTotal,
		vat: breakdown.reduce((sum, entry) => sum + entry.tax, 0n),
		error: allowanceTotal > 0n && allowanceTotal > total ? 'discounts' : null,
	}
}

const taxRates: TaxRate[] = [
	{ id: 's19', name: '19', rate: '19', categoryCode: 'S' },
	{ id: 's7', name: '7', rate: '7', categoryCode: 'S' },
	{ id: 's5.5', name: '5.5', rate: '5.5', categoryCode: 'S' },
	{ id: 's20', name: '20', rate: '20', categoryCode: 'S' },
	{ id: 's8.1', name: '8.1', rate: '8.10', categoryCode: 'S' },
	{ id: 's2.1234', name: 'odd', rate: '2.1234', categoryCode: 'S' },
	{ id: 'z', name: 'zero', rate: '0', categoryCode: 'Z' },
	{ id: 'e', name: 'exempt', rate: '0', categoryCode: 'E' },
	{ id: 'l', name: 'IGIC', rate: '0', categoryCode: 'L' },
]
const currencies = ['EUR', 'JPY', 'BHD', 'CLF', 'USD', 'KWD']

function randomInvoice(next: () => number): InvoiceMoneyInput {
	const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
	const digitsText = (whole: number, decimals: number) => {
		const value = Math.floor(next() * 10 ** whole).toString()
		const places = Math.floor(next() * (decimals + 1))
		const fractionDigits = Array.from({ length: places }, () => Math.floor(next() * 10)).join('')
		return places === 0 ? value : `${value}.${fractionDigits}`
	}
	const currency = pick(currencies)
	const digits = minorUnitsOf(currency)
	const allowNegativeQuantities = next() < 0.3
	const lines: Line[] = Array.from({ length: 1 + Math.floor(next() * 12) }, () => {
		const quantity = digitsText(1 + Math.floor(next() * 4), 4)
		const negative = allowNegativeQuantities && next() < 0.3 && /[1-9]/.test(quantity)
		const line: Line = {
			quantity: negative ? `-${quantity}` : quantity,
			// Tenths of a unit up to thousands, with the extra digits a price may have.
			unitPrice: digitsText(1 + Math.floor(next() * 5), digits + 4),
			taxRateId: pick(taxRates).id,
		}
		const kind = next()
		if (kind < 0.2) {
			line.discount = { kind: 'percent', percent: pick(['100', '50', '12.5', '3.3333', '0', '7']) }
		} else if (kind < 0.3) {
			line.discount = { kind: 'amount', amount: '0' }
		}
		return line
	})
	const discounts: DocumentDiscount[] = []
	if (next() < 0.4) {
		discounts.push({ kind: 'percent', percent: pick(['10', '2.5', '33.3333', '100', '0.0001']) })
	}
	if (next() < 0.5) {
		// Share of the positive total, in whole minor units; the oracle's gross tells the size.
		const probe = expectedTotals({ currency, lines, taxRates })
		const total = probe.nets.reduce((sum, net) => sum + net, 0n)
		if (total > 0n) {
			const share = (total * BigInt(Math.floor(next() * 1000))) / 1000n
			const whole = share / pow10(digits)
			const rest = (share % pow10(digits)).toString().padStart(digits, '0')
			discounts.push({ kind: 'amount', amount: digits === 0 ? whole.toString() : `${whole}.${rest}` })
		}
	}
	return {
		currency,
		lines,
		taxRates,
		discounts,
		rounding: next() < 0.5 ? 'halfUp' : 'halfEven',
		lineRounding: next() < 0.25,
		allowNegativeQuantities,
	}
}

describe('random invoices match an independent BigInt computation', () => {
	test('2,000 invoices, every figure', () => {
		const next = random(20261126)
		let compared = 0
		for (let run = 0; run < 2000; run += 1) {
			const input = randomInvoice(next)
			const expected = expectedTotals(input)
			const result = computeInvoiceTotals(input)
			const label = JSON.stringify(input)
			if (expected.error) {
				expect(result.ok, label).toBe(false)
				expect(result.ok ? [] : result.errors.map((error) => error.field), label).toEqual(['discounts'])
				continue
			}
			if (!result.ok) {
				throw new Error(`${label}\n${JSON.stringify(result.errors)}`)
			}
			const { totals } = result
			const minor = (value: bigint) => Number(value)
			expect(
				totals.lines.map((each) => each.net.minor),
				label,
			).toEqual(expected.nets.map(minor))
			expect(
				totals.allowances.map((each) => `${each.categoryCode}|${normalRate(each.rate)} ${each.amount.minor}`),
				label,
			).toEqual(expected.allowances.map((each) => `${each.key} ${each.amount}`))
			expect(
				totals.vatBreakdown.map(
					(each) => `${each.categoryCode}|${normalRate(each.rate)} ${each.taxableAmount.minor} ${each.taxAmount.minor}`,
				),
				label,
			).toEqual(expected.breakdown.map((each) => `${each.key} ${each.taxable} ${each.tax}`))
			expect(totals.taxExclusiveAmount.minor, label).toBe(minor(expected.net))
			expect(totals.vatTotal.minor, label).toBe(minor(expected.vat))
			expect(totals.taxInclusiveAmount.minor, label).toBe(minor(expected.net + expected.vat))
			// The EN 16931 sums hold among the figures themselves (BR-CO-10, -11, -13, -14, -15, -16).
			const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)
			expect(totals.lineNetTotal.minor).toBe(sum(totals.lines.map((each) => each.net.minor)))
			expect(totals.allowanceTotal.minor).toBe(sum(totals.allowances.map((each) => each.amount.minor)))
			expect(totals.taxExclusiveAmount.minor).toBe(totals.lineNetTotal.minor - totals.allowanceTotal.minor)
			expect(totals.taxExclusiveAmount.minor).toBe(sum(totals.vatBreakdown.map((each) => each.taxableAmount.minor)))
			expect(totals.amountDue.minor).toBe(totals.taxInclusiveAmount.minor - totals.paidAmount.minor)
			for (const each of [...totals.lines.map((l) => l.net), totals.taxInclusiveAmount, totals.vatTotal]) {
				expect(BigInt(each.decimal.replace('.', ''))).toBe(BigInt(each.minor))
			}
			compared += 1
		}
		// Most invoices must be compared, not skipped as errors.
		expect(compared).toBeGreaterThan(1800)
	})

	test('an amount discount’s parts always add up to the amount', () => {
		const next = random(4217)
		for (let run = 0; run < 500; run += 1) {
			const input = randomInvoice(next)
			const amountIndex = (input.discounts ?? []).findIndex((discount) => discount.kind === 'amount')
			const result = computeInvoiceTotals(input)
			if (amountIndex < 0 || !result.ok) {
				continue
			}
			const given = (input.discounts ?? [])[amountIndex] as { amount: string }
			const parts = result.totals.allowances.filter((allowance) => allowance.discountIndex === amountIndex)
			const sum = parts.reduce((total, part) => total + part.amount.minor, 0)
			const amount = fraction(given.amount)
			expect(BigInt(sum)).toBe((amount.numerator * pow10(result.totals.minorUnits)) / pow10(amount.scale))
		}
	})
})
