import type { InvoiceStatus } from '@blocksmith/contracts/invoice-documents.ts'
import { and, desc, eq, ne, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { invoiceDocuments as d } from './invoices.documents.schema.ts'

// What other modules read of invoices: a client portal lists the invoices of a member's company
// (issue 18 item 5), each opened and paid on its own public page (/i/{token}, decision 036).

/** How many of a client's documents a portal lists: the newest. */
const clientDocumentsLimit = 200

export type ClientDocument = {
	id: string
	kind: 'invoice' | 'credit_note'
	number: string
	status: InvoiceStatus
	isOverdue: boolean
	currency: string
	issueDate: string
	dueDate: string | null
	totalMinor: number
	dueMinor: number
	publicToken: string
}

/**
 * The finalized documents (never drafts) billed to one row of a clients database, newest first.
 * The row is named as the portal knows it: the database and the row's id in the workspace.
 */
export async function documentsOfClientRow(
	db: Db,
	organizationId: string,
	client: { databaseId: string; externalRowId: string },
	today: string,
): Promise<ClientDocument[]> {
	const [row] = await db
		.select({ id: workspaceRows.id })
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.organizationId, organizationId),
				eq(workspaceRows.databaseId, client.databaseId),
				eq(workspaceRows.externalId, client.externalRowId),
			),
		)
	if (!row) {
		return []
	}
	const found = await db
		.select({
			id: d.id,
			kind: d.kind,
			number: d.number,
			status: d.status,
			currency: d.currency,
			issueDate: d.issueDate,
			dueDate: d.dueDate,
			totalMinor: d.totalMinor,
			paidMinor: d.paidMinor,
			creditedMinor: d.creditedMinor,
			publicToken: d.publicToken,
		})
		.from(d)
		.where(
			and(
				eq(d.organizationId, organizationId),
				ne(d.status, 'draft'),
				sql`${d.publicToken} is not null`,
				sql`${d.clientRow} @> ${JSON.stringify({ databaseId: client.databaseId, rowId: row.id })}::jsonb`,
			),
		)
		.orderBy(desc(d.issueDate), desc(d.createdAt))
		.limit(clientDocumentsLimit)
	return found.map((document) => {
		// As the invoices list says it (invoices.documents.list.ts): void and credit notes owe nothing.
		const isOpen = document.kind === 'invoice' && ['finalized', 'sent', 'partially_paid'].includes(document.status)
		const dueMinor = isOpen ? Math.max(0, document.totalMinor - document.paidMinor - document.creditedMinor) : 0
		return {
			id: document.id,
			kind: document.kind,
			number: document.number ?? '',
			status: document.status,
			isOverdue: isOpen && dueMinor > 0 && document.dueDate !== null && document.dueDate < today,
			currency: document.currency,
			issueDate: document.issueDate,
			dueDate: document.dueDate,
			totalMinor: document.totalMinor,
			dueMinor,
			publicToken: document.publicToken as string,
		}
	})
}

export { createInvoicesExport } from './invoices.export.ts'
