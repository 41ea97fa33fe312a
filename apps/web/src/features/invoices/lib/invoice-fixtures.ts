import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import { computeInvoiceTotals } from '@blocksmith/contracts/invoice-money.ts'
import { makeProfile } from './testing.ts'

// Invoices as the API returns them, for the list's and the editor's tests: totals computed by
// the money core from the lines, as the server stores them.

export function makeInvoice(changes: Partial<Invoice> = {}): Invoice {
	const base: Invoice = {
		id: 'inv1',
		kind: 'invoice',
		profileId: 'prof1',
		number: null,
		status: 'draft',
		isOverdue: false,
		correctsId: null,
		client: { name: 'Globex', address: null, email: null, taxId: null },
		clientRow: null,
		currency: 'EUR',
		issueDate: '2026-11-20',
		dueDate: '2026-12-04',
		lines: [
			{
				description: 'Design',
				quantity: '10',
				unit: 'hours',
				unitPrice: '100',
				discount: null,
				taxRateId: 'rate1',
			},
		],
		discounts: [],
		notes: null,
		totals: null,
		total: { minor: 0, decimal: '0.00' },
		paid: { minor: 0, decimal: '0.00' },
		credited: { minor: 0, decimal: '0.00' },
		due: { minor: 0, decimal: '0.00' },
		publicToken: null,
		recurrenceId: null,
		rowId: null,
		finalizedAt: null,
		sentAt: null,
		viewedAt: null,
		paidAt: null,
		voidedAt: null,
		createdAt: '2026-11-20T10:00:00.000Z',
		updatedAt: '2026-11-20T10:00:00.000Z',
	}
	const invoice = { ...base, ...changes }
	const result = computeInvoiceTotals({
		currency: invoice.currency,
		lines: invoice.lines,
		taxRates: makeProfile().taxRates,
		discounts: invoice.discounts,
	})
	if (!result.ok) {
		return invoice
	}
	const total = result.totals.taxInclusiveAmount
	const due = invoice.status === 'paid' || invoice.status === 'void' ? { minor: 0, decimal: '0.00' } : total
	return {
		...invoice,
		total: changes.total ?? total,
		due: changes.due ?? due,
		totals: result.totals as unknown as Record<string, unknown>,
	}
}
