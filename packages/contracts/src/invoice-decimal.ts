import Big from 'big.js'

// Exact decimals for invoice money (docs/decisions/031-invoice-money.md): parsing the decimal
// strings people type, rounding to whole minor units by the document's mode, and splitting an
// amount exactly. big.js does the products and the divisions by 100; BigInt the whole units.

// A constructor of our own, so no other user of big.js changes our settings (nor we theirs).
export const Decimal = Big()
// Divisions here are only by 100 (percentages); 40 places keep them exact for our inputs.
Decimal.DP = 40
// A JavaScript number passed by mistake throws instead of carrying a float's error in.
Decimal.strict = true

export type DecimalRounding = 'halfUp' | 'halfEven'

const bigRounding = { halfUp: Big.roundHalfUp, halfEven: Big.roundHalfEven } as const

/** A value rounded to a whole number by the mode: half-up (ties away from zero) or half-even. */
export function roundToInteger(value: Big, rounding: DecimalRounding): bigint {
	return BigInt(value.round(0, bigRounding[rounding]).toFixed(0))
}

/** A decimal string with at most `maxDecimals` decimals and `maxWhole` whole digits, or null. */
export function parseDecimal(text: string, maxDecimals: number, maxWhole = 15): Big | null {
	const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim())
	if (!match || (match[2] ?? '').replace(/^0+(?=\d)/, '').length > maxWhole) {
		return null
	}
	if ((match[3] ?? '').replace(/0+$/, '').length > maxDecimals) {
		return null
	}
	return new Decimal(text.trim())
}

/** "19.00" → "19", "5.50" → "5.5": one spelling per rate, for grouping and output. */
export function normalizeDecimal(value: Big, maxDecimals: number): string {
	const fixed = value.toFixed(maxDecimals)
	return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed
}

/** Floor division for a positive divisor (BigInt division truncates towards zero). */
function floorDiv(numerator: bigint, divisor: bigint): bigint {
	const quotient = numerator / divisor
	return numerator % divisor !== 0n && numerator < 0n ? quotient - 1n : quotient
}

/**
 * `amount` split in proportion to `weights` (their sum must be positive), in whole units that
 * add up to exactly `amount`: each part is floored, and the units left over go one each to the
 * parts with the largest remainders (ties: the earlier part).
 */
export function splitProportionally(amount: bigint, weights: readonly bigint[]): bigint[] {
	const total = weights.reduce((sum, weight) => sum + weight, 0n)
	if (total <= 0n) {
		throw new RangeError('The weights must add up to more than zero.')
	}
	const parts = weights.map((weight) => floorDiv(amount * weight, total))
	const remainders = weights.map((weight, index) => amount * weight - (parts[index] ?? 0n) * total)
	let left = amount - parts.reduce((sum, part) => sum + part, 0n)
	const order = weights.map((_, index) => index)
	order.sort((a, b) => {
		const difference = (remainders[b] ?? 0n) - (remainders[a] ?? 0n)
		return difference > 0n ? 1 : difference < 0n ? -1 : a - b
	})
	for (const index of order) {
		if (left <= 0n) {
			break
		}
		parts[index] = (parts[index] ?? 0n) + 1n
		left -= 1n
	}
	return parts
}
