import { describe, expect, test } from 'vitest'
import { creditNoteDiscounts } from './invoice-credit.ts'
import type { DocumentDiscount } from './invoice-money.ts'

describe('an invoice’s discounts on its credit notes', () => {
	const discounts: DocumentDiscount[] = [
		{ kind: 'percent', percent: '5', reason: 'Loyalty' },
		{ kind: 'amount', amount: '10.00', reason: 'Goodwill' },
	]
	const base = { currency: 'EUR', discounts, invoiceLineNetMinor: 30000 }

	test('three notes of a third each share the amount 3.33, 3.33 and what is left, 3.34; percents as they are', () => {
		const first = creditNoteDiscounts({ ...base, creditedLineNetMinor: 10000, earlier: [], isLast: false })
		expect(first).toEqual([discounts[0], { kind: 'amount', amount: '3.33', reason: 'Goodwill' }])
		const second = creditNoteDiscounts({ ...base, creditedLineNetMinor: 10000, earlier: [first], isLast: false })
		expect(second[1]).toMatchObject({ amount: '3.33' })
		const last = creditNoteDiscounts({ ...base, creditedLineNetMinor: 10000, earlier: [first, second], isLast: true })
		expect(last[1]).toMatchObject({ amount: '3.34' })
	})

	test('a share never passes what earlier notes left, and rounds as the invoice does', () => {
		const earlier = [[discounts[0] as DocumentDiscount, { kind: 'amount' as const, amount: '9.99' }]]
		const capped = creditNoteDiscounts({ ...base, creditedLineNetMinor: 15000, earlier, isLast: false })
		expect(capped[1]).toMatchObject({ amount: '0.01' })
		// 10.00 × 5 / 40 = 1.25 → half-up 1.25; JPY 1000 × 1 / 8 = 125 exactly; 1000 × 1 / 16 = 62.5.
		const yen = { currency: 'JPY', discounts: [{ kind: 'amount' as const, amount: '1000' }], invoiceLineNetMinor: 16 }
		expect(creditNoteDiscounts({ ...yen, creditedLineNetMinor: 1, earlier: [], isLast: false })[0]).toMatchObject({
			amount: '63',
		})
		expect(
			creditNoteDiscounts({ ...yen, creditedLineNetMinor: 1, earlier: [], isLast: false, rounding: 'halfEven' })[0],
		).toMatchObject({ amount: '62' })
	})
})
