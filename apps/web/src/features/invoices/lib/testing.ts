import type { InvoiceProfile } from '@blocksmith/contracts/invoices.ts'

// Shared by the invoice screens' tests: a saved profile as the API returns it.

export function makeProfile(changes: Partial<InvoiceProfile> = {}): InvoiceProfile {
	return {
		id: 'prof1',
		name: 'Acme GmbH',
		isDefault: true,
		legalName: 'Acme Software GmbH',
		address: { lines: ['Hauptstraße 1', 'Hinterhaus'], postcode: '10115', city: 'Berlin', country: 'DE' },
		taxIds: { vatId: 'DE123456789', other: [{ label: 'Tax number', value: '12/345/67890' }] },
		email: 'billing@acme.test',
		logoBlobId: null,
		logo: null,
		currency: 'EUR',
		locale: 'de-DE',
		taxRates: [
			{
				id: 'rate1',
				name: 'VAT 19 %',
				categoryCode: 'S',
				rate: '19',
				exemptionReason: null,
				exemptionReasonCode: null,
				isDefault: true,
			},
			{
				id: 'rate2',
				name: 'Reverse charge',
				categoryCode: 'AE',
				rate: '0',
				exemptionReason: 'Reverse charge',
				exemptionReasonCode: 'VATEX-EU-AE',
				isDefault: false,
			},
		],
		numbering: {
			invoice: { pattern: 'INV-{YYYY}-{counter:4}', reset: 'yearly' },
			creditNote: { pattern: 'CN-{YYYY}-{counter:4}', reset: 'yearly' },
		},
		nextNumbers: { invoice: 'INV-2026-0042', creditNote: 'CN-2026-0003' },
		paymentTermsDays: 14,
		notes: 'Thank you for your business.',
		footer: null,
		bank: { kind: 'iban', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountHolder: 'Acme Software GmbH' },
		emailMessage: { subject: 'Invoice {number} from {company}', body: 'Hello {client}' },
		isLineLevelVatRounding: false,
		template: { design: 'modern', accentColor: '#2563eb', textColor: '#111827', font: 'sans' },
		createdAt: '2026-11-01T10:00:00.000Z',
		updatedAt: '2026-11-20T10:00:00.000Z',
		...changes,
	}
}
