import type { Invoice, InvoiceLine } from '@blocksmith/contracts/invoice-documents.ts'
import { computeInvoiceTotals } from '@blocksmith/contracts/invoice-money.ts'

// Shared by the invoice actions' tests: a finalized invoice whose totals are the money core's, as
// the server stores them (10 h of design at 100.00 and hosting at 50.00, both at 19 %).

const lines: InvoiceLine[] = [
	{ description: 'Design', quantity: '10', unit: 'h', unitPrice: '100.00', discount: null, taxRateId: 'rate1' },
	{ description: 'Hosting', quantity: '1', unit: null, unitPrice: '50.00', discount: null, taxRateId: 'rate1' },
]

export function makeInvoice(changes: Partial<Invoice> = {}): Invoice {
	const computed = computeInvoiceTotals({
		currency: 'EUR',
		lines,
		taxRates: [{ id: 'rate1', name: 'VAT 19 %', rate: '19', categoryCode: 'S' }],
	})
	if (!computed.ok) {
		throw new Error('The sample invoice does not compute.')
	}
	const total = computed.totals.taxInclusiveAmount
	return {
		id: 'inv1',
		kind: 'invoice',
		profileId: 'prof1',
		number: 'INV-2026-0007',
		status: 'sent',
		isOverdue: false,
		correctsId: null,
		client: { name: 'Globex', address: null, email: 'ap@globex.test', taxId: null },
		clientRow: null,
		currency: 'EUR',
		issueDate: '2026-11-20',
		dueDate: '2026-12-04',
		lines,
		discounts: [],
		notes: null,
		totals: computed.totals as unknown as Record<string, unknown>,
		total,
		paid: { minor: 0, decimal: '0.00' },
		credited: { minor: 0, decimal: '0.00' },
		due: total,
		publicToken: 'tok_abc',
		recurrenceId: null,
		rowId: null,
		finalizedAt: '2026-11-20T10:00:00.000Z',
		sentAt: '2026-11-20T10:05:00.000Z',
		viewedAt: null,
		paidAt: null,
		voidedAt: null,
		createdAt: '2026-11-20T09:00:00.000Z',
		updatedAt: '2026-11-20T10:05:00.000Z',
		...changes,
	}
}
