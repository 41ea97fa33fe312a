import { describe, expect, test } from 'vitest'
import { changesOf, daysOverdue, draftOf, liveTotals } from './invoice-draft.ts'
import { makeInvoice } from './invoice-fixtures.ts'
import { makeProfile } from './testing.ts'

describe('the draft as the editor holds it', () => {
	test('goes back to the server as the PATCH body, with what is empty as null', () => {
		const draft = draftOf(makeInvoice({ notes: null, dueDate: null }))
		draft.client = { ...draft.client, email: ' ', addressLines: 'Main St 1\n\n  Floor 2 ', city: 'Lyon', country: 'fr' }
		draft.currency = 'jpy'
		expect(changesOf(draft)).toEqual({
			profileId: 'prof1',
			client: {
				name: 'Globex',
				email: null,
				taxId: null,
				address: { lines: ['Main St 1', 'Floor 2'], postcode: '', city: 'Lyon', country: 'FR' },
			},
			clientRow: null,
			currency: 'JPY',
			issueDate: '2026-11-20',
			dueDate: null,
			lines: [
				{ description: 'Design', quantity: '10', unit: 'hours', unitPrice: '100', taxRateId: 'rate1', discount: null },
			],
			discounts: [],
			notes: null,
		})
	})

	test('a client without a name is no client; a row client wins only with a row', () => {
		const draft = draftOf(makeInvoice())
		draft.client.name = '  '
		expect(changesOf(draft).client).toBeNull()
		const row = { databaseId: 'db1', rowId: 'r1', mapping: { name: 'title' } }
		expect(changesOf({ ...draft, clientSource: 'row', clientRow: null })).toMatchObject({ clientRow: null })
		expect(changesOf({ ...draft, clientSource: 'row', clientRow: row })).toMatchObject({ client: null, clientRow: row })
	})

	test('live totals use the money core with the profile rates and rounding', () => {
		const draft = draftOf(makeInvoice())
		const result = liveTotals(
			{ ...draft, lines: [{ ...(draft.lines[0] as (typeof draft.lines)[0]), unitPrice: '0.333' }] },
			makeProfile(),
		)
		expect(result.ok && result.totals.taxInclusiveAmount.decimal).toBe('3.96')
		const bad = liveTotals(
			{ ...draft, lines: [{ ...(draft.lines[0] as (typeof draft.lines)[0]), quantity: 'x' }] },
			makeProfile(),
		)
		expect(bad.ok ? [] : bad.errors.map((error) => error.field)).toEqual(['lines.0.quantity'])
	})

	test('overdue days count calendar days', () => {
		expect(daysOverdue('2026-02-27', '2026-03-01')).toBe(2)
		expect(daysOverdue('2026-03-28', '2026-03-30')).toBe(2)
		expect(daysOverdue('2026-12-01', '2026-11-30')).toBe(0)
	})
})
