// The invoices list with its filters and the totals by status (overdue counted on its own, as
// it is derived when read) and currency: amounts of different currencies are never added up.

import type { InvoiceList, listInvoicesQuerySchema } from '@blocksmith/contracts/invoice-documents.ts'
import { and, desc, eq, gte, lte, or, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { InvoicesCtx } from './invoices.deps.ts'
import { invoiceDocuments } from './invoices.documents.schema.ts'
import { isOverdue, toInvoice } from './invoices.documents.ts'
import { dayOf } from './invoices.numbering.ts'

type ListQuery = z.output<typeof listInvoicesQuerySchema>
type StatusTotal = InvoiceList['totals'][number]

export async function listInvoices(ctx: InvoicesCtx, query: ListQuery): Promise<InvoiceList> {
	const today = dayOf(ctx.now())
	const conditions: SQL[] = [eq(invoiceDocuments.organizationId, ctx.orgId)]
	if (query.currency) {
		conditions.push(eq(invoiceDocuments.currency, query.currency))
	}
	if (query.from) {
		conditions.push(gte(invoiceDocuments.issueDate, query.from))
	}
	if (query.to) {
		conditions.push(lte(invoiceDocuments.issueDate, query.to))
	}
	if (query.clientId) {
		conditions.push(
			or(
				sql`${invoiceDocuments.clientRow} ->> 'rowId' = ${query.clientId}`,
				sql`${invoiceDocuments.client} ->> 'name' = ${query.clientId}`,
			) as SQL,
		)
	}
	if (query.status && query.status !== 'overdue') {
		conditions.push(eq(invoiceDocuments.status, query.status))
	}
	const rows = await ctx.db
		.select()
		.from(invoiceDocuments)
		.where(and(...conditions))
		.orderBy(desc(invoiceDocuments.issueDate), desc(invoiceDocuments.createdAt))
	const kept = query.status === 'overdue' ? rows.filter((row) => isOverdue(row, today)) : rows

	const totals = new Map<string, StatusTotal>()
	const add = (status: StatusTotal['status'], currency: string, total: number, due: number) => {
		const key = `${status} ${currency}`
		const entry = totals.get(key) ?? { status, currency, count: 0, totalMinor: 0, dueMinor: 0 }
		entry.count += 1
		entry.totalMinor += total
		entry.dueMinor += due
		totals.set(key, entry)
	}
	for (const row of kept) {
		const due = toInvoice(row, today).due.minor
		add(row.status, row.currency, row.totalMinor, due)
		if (isOverdue(row, today)) {
			add('overdue', row.currency, row.totalMinor, due)
		}
	}
	return { invoices: kept.map((row) => toInvoice(row, today)), totals: [...totals.values()] }
}
