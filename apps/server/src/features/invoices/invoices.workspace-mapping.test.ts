import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { describe, expect, test } from 'vitest'
import type { AppError } from '#src/lib/errors.ts'
import type { DocumentRecord } from './invoices.documents.schema.ts'
import { checkInvoiceMapping, reviewInvoiceMapping, suggestInvoiceMapping } from './invoices.workspace-mapping.ts'
import { desiredValues, isSameValue } from './invoices.workspace-writeback.ts'

// The mapping guessed, reviewed and checked on databases shaped like the ones teams keep
// (pure), and what a document's row is written as.

const option = (name: string) => ({ id: name.toLowerCase(), name, color: 'default' as const })
const invoices: Property[] = [
	{ id: 'title', name: 'Invoice', type: 'title' },
	{ id: 'cust', name: 'Customer', type: 'relation', relationDatabaseId: 'clients' },
	{ id: 'items', name: 'Line items', type: 'relation', relationDatabaseId: 'items' },
	{ id: 'gross', name: 'Total', type: 'number' },
	{ id: 'net', name: 'Subtotal', type: 'number' },
	{ id: 'vat', name: 'VAT', type: 'number' },
	{ id: 'bal', name: 'Balance due', type: 'number' },
	{ id: 'cur', name: 'Currency', type: 'select', options: [option('EUR'), option('USD')] },
	{ id: 'iss', name: 'Invoice date', type: 'date' },
	{ id: 'due', name: 'Due date', type: 'date' },
	{ id: 'pd', name: 'Payment date', type: 'date' },
	{ id: 'chk', name: 'Paid?', type: 'checkbox' },
	{
		id: 'st',
		name: 'State',
		type: 'status',
		options: [
			option('Draft'),
			option('Open'),
			option('Partially paid'),
			option('Paid'),
			option('Cancelled'),
			option('Late'),
		],
	},
	{ id: 'url', name: 'Invoice link', type: 'url' },
]
const related: Record<string, Property[]> = {
	cust: [
		{ id: 'title', name: 'Company', type: 'title' },
		{ id: 'mail', name: 'Billing e-mail', type: 'email' },
		{ id: 'vatid', name: 'VAT ID', type: 'rich_text' },
		{ id: 'street', name: 'Address', type: 'rich_text' },
		{ id: 'zip', name: 'Postcode', type: 'rich_text' },
		{ id: 'city', name: 'City', type: 'rich_text' },
		{ id: 'cc', name: 'Country', type: 'select' },
	],
	items: [
		{ id: 'title', name: 'Item', type: 'title' },
		{ id: 'qty', name: 'Qty', type: 'number' },
		{ id: 'price', name: 'Unit price', type: 'number' },
	],
}
const target = { properties: invoices, related: (id: string) => related[id] ?? [] }

describe('suggest, review, check', () => {
	test('names and types give every field, the client’s details and the line items', () => {
		const mapping = suggestInvoiceMapping(target)
		expect(mapping).toEqual({
			number: 'title',
			client: 'cust',
			amount: 'gross',
			netAmount: 'net',
			taxAmount: 'vat',
			amountDue: 'bal',
			currency: 'cur',
			issueDate: 'iss',
			dueDate: 'due',
			paidDate: 'pd',
			paid: 'chk',
			status: 'st',
			statusOptions: {
				draft: 'Draft',
				finalized: 'Open',
				sent: 'Open',
				partially_paid: 'Partially paid',
				paid: 'Paid',
				void: 'Cancelled',
				overdue: 'Late',
			},
			link: 'url',
			clientMapping: {
				name: 'title',
				email: 'mail',
				taxId: 'vatid',
				addressLines: 'street',
				postcode: 'zip',
				city: 'city',
				country: 'cc',
			},
			lineItems: { propertyId: 'items', mapping: { description: 'title', unitPrice: 'price', quantity: 'qty' } },
		})
		expect(() => checkInvoiceMapping(mapping, target)).not.toThrow()
		const review = reviewInvoiceMapping(mapping, target)
		expect(review.isComplete).toBe(true)
		expect(review.unmappedStatuses).toEqual([])
		expect(review.fields.every((field) => field.isMapped)).toBe(true)
	})

	test('a database with only a title: complete, every other field missing with words', () => {
		const bare = { properties: [{ id: 'title', name: 'Name', type: 'title' as const }], related: () => [] }
		const review = reviewInvoiceMapping(suggestInvoiceMapping(bare), bare)
		expect(review.isComplete).toBe(true)
		expect(review.fields.filter((field) => !field.isMapped).every((field) => field.message)).toBe(true)
		expect(review.unmappedStatuses).toHaveLength(7)
	})

	test('check names each offending field', () => {
		const mapping = suggestInvoiceMapping(target)
		const fields = (changed: object) => {
			try {
				checkInvoiceMapping({ ...mapping, ...changed }, target)
				return []
			} catch (error) {
				return (error as AppError).errors?.map((one) => one.field)
			}
		}
		expect(fields({ status: 'gross', amount: null })).toEqual(['mapping.status'])
		expect(
			fields({ lineItems: { propertyId: 'cust', mapping: { description: 'title', unitPrice: 'price' } } }),
		).toEqual(['mapping.lineItems.propertyId'])
		expect(
			fields({ lineItems: { propertyId: 'items', mapping: { description: 'title', unitPrice: 'qtyy' } } }),
		).toEqual(['mapping.lineItems.mapping.unitPrice'])
		expect(fields({ client: null })).toEqual(['mapping.clientMapping'])
		expect(fields({ netAmount: 'gross' })).toEqual(['mapping.netAmount'])
	})
})

describe('the row as written', () => {
	const document = {
		id: 'd1',
		kind: 'invoice',
		status: 'partially_paid',
		number: 'INV-7',
		currency: 'BHD',
		clientRow: { databaseId: 'clients', rowId: 'r1', mapping: { name: 'title' } },
		totalMinor: 1381,
		paidMinor: 381,
		creditedMinor: 0,
		totals: { taxExclusiveAmount: { minor: 1255 }, vatTotal: { minor: 126 } },
		issueDate: '2026-03-01',
		dueDate: '2026-03-31',
		paidAt: null,
		publicToken: 'tok',
	} as unknown as DocumentRecord
	const mapping = suggestInvoiceMapping(target)

	test('every mapped property from our records; overdue only when asked for', () => {
		const values = desiredValues({
			document,
			mapping,
			properties: invoices,
			publicUrl: 'https://app.example/',
			clientExternalId: 'page-1',
		})
		expect(values).toEqual({
			st: 'Partially paid',
			title: 'INV-7',
			cust: ['page-1'],
			gross: 1.381,
			net: 1.255,
			vat: 0.126,
			bal: 1,
			iss: '2026-03-01',
			due: '2026-03-31',
			pd: null,
			chk: false,
			url: 'https://app.example/i/tok',
		})
		const late = desiredValues({
			document,
			mapping,
			properties: invoices,
			publicUrl: '',
			clientExternalId: null,
			isOverdue: true,
		})
		expect(late.st).toBe('Late')
		expect(late.cust).toBeUndefined()
		const draft = desiredValues({
			document: { ...document, status: 'draft' },
			mapping,
			properties: invoices,
			publicUrl: '',
			clientExternalId: 'page-1',
		})
		expect(draft).toEqual({ st: 'Draft' })
	})

	test('the mirror’s values compare as the workspace holds them', () => {
		expect(isSameValue({ start: '2026-03-01', end: null, timeZone: null }, '2026-03-01')).toBe(true)
		expect(isSameValue(['b', 'a'], ['a', 'b'])).toBe(true)
		expect(isSameValue(undefined, false)).toBe(true)
		expect(isSameValue(null, null)).toBe(true)
		expect(isSameValue(1.381, 1.381)).toBe(true)
		expect(isSameValue('Paid', 'Open')).toBe(false)
	})
})
