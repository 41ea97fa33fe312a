import type { DocumentTotals } from '@blocksmith/contracts/invoice-money.ts'
import { expect, test } from 'vitest'
import { makeInvoice } from '../lib/invoice-fixtures.ts'
import { creditTotal } from './credit-note-lines.ts'

// The total shown before a credit note is issued is the one the server stores: with a discount of
// a fixed amount, each note carries its share of it, and the last note what earlier ones left.

const line = (description: string) => ({
	description,
	quantity: '1',
	unit: null,
	unitPrice: '100',
	discount: null,
	taxRateId: 'rate1',
})
const invoice = makeInvoice({
	status: 'sent',
	number: 'INV-2026-0001',
	lines: [line('A'), line('B'), line('C')],
	discounts: [{ kind: 'amount', amount: '10.00', reason: 'Goodwill' }],
})

test('a third of the lines carries a third of the amount discount, the last one what is left', () => {
	const first = creditTotal(invoice, [{ line: 0, quantity: '1' }]) as DocumentTotals
	expect(first.allowanceTotal.decimal).toBe('-3.33')
	const earlier = makeInvoice({
		id: 'cn1',
		kind: 'credit_note',
		correctsId: invoice.id,
		lines: [{ ...line('A'), quantity: '-1', creditsLine: 0 }],
		discounts: [{ kind: 'amount', amount: '3.33', reason: 'Goodwill' }],
	})
	const second = creditTotal(invoice, [{ line: 1, quantity: '1' }], [earlier]) as DocumentTotals
	expect(second.allowanceTotal.decimal).toBe('-3.33')
	const rest = creditTotal(
		invoice,
		[
			{ line: 1, quantity: '1' },
			{ line: 2, quantity: '1' },
		],
		[earlier],
	) as DocumentTotals
	expect(rest.allowanceTotal.decimal).toBe('-6.67')
	// Crediting everything at once is the invoice negated.
	const whole = creditTotal(
		invoice,
		[0, 1, 2].map((index) => ({ line: index, quantity: '1' })),
	) as DocumentTotals
	expect(whole.taxInclusiveAmount.minor).toBe(-(invoice.totals as DocumentTotals).taxInclusiveAmount.minor)
})
