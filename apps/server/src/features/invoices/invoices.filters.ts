// Saved filters of the invoices list (`invoice_filter`): a name and the list's own filter fields,
// kept per organization. Members may create, change and delete them; another organization's is
// a 404, and the list's `filterId` naming one is a 400 on that field (it is a reference in a
// query, like a tax rate's id in a body).

import { randomUUID } from 'node:crypto'
import {
	type createInvoiceFilterSchema,
	type InvoiceFilter,
	type SavedInvoiceFilter,
	savedInvoiceFilterSchema,
	type updateInvoiceFilterSchema,
} from '@blocksmith/contracts/invoice-filters.ts'
import { and, asc, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { found } from '#src/lib/errors.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { invalid } from './invoices.documents.ts'
import { type InvoiceFilterRecord, invoiceFilters } from './invoices.workspace.schema.ts'

type CreateInput = z.output<typeof createInvoiceFilterSchema>
type UpdateInput = z.output<typeof updateInvoiceFilterSchema>

/** A stored filter read again through its schema: fields a later version dropped are left out. */
function filterOf(record: InvoiceFilterRecord): SavedInvoiceFilter {
	const parsed = savedInvoiceFilterSchema.strip().safeParse(record.filter)
	return parsed.success ? parsed.data : {}
}

function toFilter(record: InvoiceFilterRecord): InvoiceFilter {
	return {
		id: record.id,
		name: record.name,
		filter: filterOf(record),
		createdAt: record.createdAt.toISOString(),
		updatedAt: record.updatedAt.toISOString(),
	}
}

const mine = (ctx: InvoicesCtx, id: string) =>
	and(eq(invoiceFilters.id, id), eq(invoiceFilters.organizationId, ctx.orgId))

export async function listFilters(ctx: InvoicesCtx): Promise<InvoiceFilter[]> {
	const rows = await ctx.db
		.select()
		.from(invoiceFilters)
		.where(eq(invoiceFilters.organizationId, ctx.orgId))
		.orderBy(asc(invoiceFilters.name), asc(invoiceFilters.createdAt))
	return rows.map(toFilter)
}

export async function createFilter(ctx: InvoicesCtx, input: CreateInput): Promise<InvoiceFilter> {
	const now = ctx.now()
	const [record] = await ctx.db
		.insert(invoiceFilters)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			name: input.name,
			filter: input.filter,
			createdBy: ctx.userId,
			createdAt: now,
			updatedAt: now,
		})
		.returning()
	return toFilter(found(record))
}

export async function updateFilter(ctx: InvoicesCtx, id: string, input: UpdateInput): Promise<InvoiceFilter> {
	const [record] = await ctx.db
		.update(invoiceFilters)
		.set({
			...(input.name !== undefined ? { name: input.name } : {}),
			...(input.filter !== undefined ? { filter: input.filter } : {}),
			updatedAt: ctx.now(),
		})
		.where(mine(ctx, id))
		.returning()
	return toFilter(found(record, 'No such saved filter.'))
}

export async function deleteFilter(ctx: InvoicesCtx, id: string): Promise<void> {
	const deleted = await ctx.db.delete(invoiceFilters).where(mine(ctx, id)).returning({ id: invoiceFilters.id })
	found(deleted[0], 'No such saved filter.')
}

/** The fields of a saved filter the list applies (`filterId`). */
export async function savedFilter(ctx: InvoicesCtx, id: string): Promise<SavedInvoiceFilter> {
	const [record] = await ctx.db.select().from(invoiceFilters).where(mine(ctx, id))
	if (!record) {
		throw invalid([{ field: 'filterId', message: 'Choose a saved filter of this organization.' }])
	}
	return filterOf(record)
}
