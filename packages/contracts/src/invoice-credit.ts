import { decimalToMinor, minorToDecimal } from './invoice-currencies.ts'
import { Decimal, type DecimalRounding, roundToInteger } from './invoice-decimal.ts'
import type { DocumentDiscount } from './invoice-money.ts'

// The discounts of an invoice as a credit note of some of its lines carries them, shared by the
// server (which stores the note) and the page (which shows its total before it is issued).

type CreditDiscountsInput = {
	currency: string
	/** The invoice's discounts. */
	discounts: readonly DocumentDiscount[]
	/** The invoice's line nets (BT-106), in minor units. */
	invoiceLineNetMinor: number
	/** The nets of the lines this credit note credits, in minor units, as a positive amount. */
	creditedLineNetMinor: number
	/** The discounts earlier credit notes of the invoice carried, in the invoice's order. */
	earlier: readonly (readonly DocumentDiscount[])[]
	/** This credit note credits the last of every line. */
	isLast: boolean
	/** The invoice's rounding (its totals'); half-up when left out. */
	rounding?: DecimalRounding
}

/**
 * A percent discount is carried as it is: it takes the same share of any lines. An amount
 * discount is carried as its share for the credited lines (the amount × their nets ÷ the
 * invoice's line nets, rounded to the currency as the invoice rounds), never more than earlier credit notes
 * left of it; the credit note that credits the last of every line takes exactly what is left, so
 * the shares add up to the discount to the cent.
 */
export function creditNoteDiscounts(input: CreditDiscountsInput): DocumentDiscount[] {
	const minorOf = (amount: string) => {
		const parsed = decimalToMinor(amount, input.currency)
		return parsed.ok ? parsed.minor : 0n
	}
	return input.discounts.map((discount, index) => {
		if (discount.kind === 'percent') {
			return discount
		}
		const whole = minorOf(discount.amount)
		const taken = input.earlier.reduce((sum, note) => {
			const carried = note[index]
			return sum + (carried?.kind === 'amount' ? minorOf(carried.amount) : 0n)
		}, 0n)
		const left = whole > taken ? whole - taken : 0n
		let share = left
		if (!input.isLast && input.invoiceLineNetMinor > 0) {
			const exact = new Decimal(whole.toString())
				.times(String(input.creditedLineNetMinor))
				.div(String(input.invoiceLineNetMinor))
			const rounded = roundToInteger(exact, input.rounding ?? 'halfUp')
			share = rounded < left ? rounded : left
		}
		return { ...discount, amount: minorToDecimal(share, input.currency) }
	})
}
