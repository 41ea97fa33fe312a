import type {
	InvoiceDatabaseMapping,
	InvoiceMappingReview,
	rowStatusKeys,
} from '@blocksmith/contracts/invoice-workspace.ts'
import type { Property, PropertyType } from '@blocksmith/contracts/workspaces.ts'

// The fields of an invoices database's mapping as the page shows them: their labels and the
// property types each may be (the server's own list; it checks them again on save).

export type PlainField =
	| 'number'
	| 'client'
	| 'amount'
	| 'netAmount'
	| 'taxAmount'
	| 'amountDue'
	| 'currency'
	| 'issueDate'
	| 'dueDate'
	| 'paidDate'
	| 'paid'
	| 'status'
	| 'link'

export const plainFields: { field: PlainField; label: string; types: readonly PropertyType[] }[] = [
	{ field: 'number', label: 'Number', types: ['title', 'rich_text'] },
	{ field: 'client', label: 'Client', types: ['relation'] },
	{ field: 'amount', label: 'Total', types: ['number'] },
	{ field: 'netAmount', label: 'Net amount', types: ['number'] },
	{ field: 'taxAmount', label: 'Tax', types: ['number'] },
	{ field: 'amountDue', label: 'Amount due', types: ['number'] },
	{ field: 'currency', label: 'Currency', types: ['select', 'rich_text'] },
	{ field: 'issueDate', label: 'Issue date', types: ['date'] },
	{ field: 'dueDate', label: 'Due date', types: ['date'] },
	{ field: 'paidDate', label: 'Paid on', types: ['date'] },
	{ field: 'paid', label: 'Paid (ticked)', types: ['checkbox'] },
	{ field: 'status', label: 'Status', types: ['select', 'status'] },
	{ field: 'link', label: 'Link to the invoice’s page', types: ['url'] },
]

type ClientPart = keyof NonNullable<InvoiceDatabaseMapping['clientMapping']>
export const clientParts: { part: ClientPart; label: string; types: readonly PropertyType[] }[] = [
	{ part: 'name', label: 'Client name', types: ['title', 'rich_text'] },
	{ part: 'email', label: 'Client e-mail', types: ['email', 'rich_text'] },
	{ part: 'taxId', label: 'Client tax id', types: ['rich_text'] },
	{ part: 'addressLines', label: 'Address lines', types: ['rich_text'] },
	{ part: 'postcode', label: 'Postcode', types: ['rich_text'] },
	{ part: 'city', label: 'City', types: ['rich_text', 'select'] },
	{ part: 'country', label: 'Country', types: ['rich_text', 'select'] },
]

type LinePart = keyof NonNullable<InvoiceDatabaseMapping['lineItems']>['mapping']
export const lineParts: { part: LinePart; label: string; types: readonly PropertyType[] }[] = [
	{ part: 'description', label: 'Line description', types: ['title', 'rich_text'] },
	{ part: 'quantity', label: 'Quantity', types: ['number'] },
	{ part: 'unit', label: 'Unit', types: ['rich_text', 'select'] },
	{ part: 'unitPrice', label: 'Unit price', types: ['number'] },
]

export const statusLabels: Record<(typeof rowStatusKeys)[number], string> = {
	draft: 'Draft',
	finalized: 'Finalized',
	sent: 'Sent',
	partially_paid: 'Partially paid',
	paid: 'Paid',
	void: 'Void',
	overdue: 'Overdue',
}

export function ofTypes(properties: readonly Property[], types: readonly PropertyType[]): Property[] {
	return properties.filter((property) => types.includes(property.type))
}

/** The server's words for each field it found missing in a review. */
export function messagesOf(review: InvoiceMappingReview): Map<string, string> {
	return new Map(review.fields.flatMap((check) => (check.message ? [[check.field, check.message]] : [])))
}

/** A 400 on `mapping.status` is shown on `status`; `databaseId` stays as it is. */
export function fieldOfError(path: string): string {
	return path.startsWith('mapping.') ? path.slice('mapping.'.length) : path
}
