import { describe, expect, test } from 'vitest'
import { invoiceDatabaseMappingSchema, rowStatusKeys, saveInvoiceDatabaseSchema } from './invoice-workspace.ts'

function fieldsOf(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) {
	return (result.error?.issues ?? []).map((issue) => issue.path.map(String).join('.'))
}

describe('invoices database mapping contract', () => {
	test('only the number is required; everything else defaults to not mapped', () => {
		const parsed = invoiceDatabaseMappingSchema.parse({ number: 'title' })
		expect(parsed).toMatchObject({ number: 'title', amount: null, status: null, clientMapping: null, lineItems: null })
		expect(Object.keys(parsed.statusOptions).sort()).toEqual([...rowStatusKeys].sort())
		expect(Object.values(parsed.statusOptions).every((option) => option === null)).toBe(true)
	})

	test('our statuses and overdue map to option names; an unknown status is refused', () => {
		const parsed = invoiceDatabaseMappingSchema.parse({
			number: 'title',
			status: 'st',
			statusOptions: { paid: ' Paid ', overdue: 'Late' },
		})
		expect(parsed.statusOptions).toMatchObject({ paid: 'Paid', overdue: 'Late', sent: null })
		const strange = invoiceDatabaseMappingSchema.safeParse({ number: 'title', statusOptions: { paid: '' } })
		expect(fieldsOf(strange)).toEqual(['statusOptions.paid'])
	})

	test('bad input names mapping.<field> in the body', () => {
		const body = (mapping: Record<string, unknown>) =>
			saveInvoiceDatabaseSchema.safeParse({ databaseId: 'db', mapping })
		expect(fieldsOf(body({}))).toEqual(['mapping.number'])
		expect(fieldsOf(body({ number: 'title', status: 7 }))).toEqual(['mapping.status'])
		expect(fieldsOf(body({ number: 'title', clientMapping: { email: 'e' } }))).toEqual(['mapping.clientMapping.name'])
		expect(
			fieldsOf(body({ number: 'title', lineItems: { propertyId: 'rel', mapping: { description: 'title' } } })),
		).toEqual(['mapping.lineItems.mapping.unitPrice'])
		expect(body({ number: 'title', clientMapping: { name: 'title' } }).success).toBe(true)
	})
})
