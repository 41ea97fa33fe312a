// `sync_invoices`: the rows of the invoices database changed in the workspace since the last
// sync (as the mirror has them) are compared with the documents kept in them, and where a row
// says something else than our records (someone set "Paid" by hand, or undid it), our values are
// written back through the write queue: our records are the truth for payments and statuses.
// "Overdue" is written here only (derived from the due date, never stored on our side), for
// every open invoice whose due date has passed, changed or not. Decision 035.

import type { InvoiceSync } from '@blocksmith/contracts/invoice-workspace.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, eq, gt, isNotNull, or, type SQL, sql } from 'drizzle-orm'
import { found } from '#src/lib/errors.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { type DocumentRecord, invoiceDocuments } from './invoices.documents.schema.ts'
import { documentRecord, isOverdue } from './invoices.documents.ts'
import { dayOf } from './invoices.numbering.ts'
import { invoiceDatabases } from './invoices.workspace.schema.ts'
import { learnRowIds, mappedForTool } from './invoices.workspace.ts'
import {
	clientExternalId,
	desiredValues,
	isSameValue,
	queueRowWrite,
	type RowState,
} from './invoices.workspace-writeback.ts'

/** Rows read per statement, so no sync holds a whole database in memory. */
const batchSize = 200
/** What the answer lists of the writes queued. */
const listedPushes = 50

/** The last sync's answer, or null before the first one. */
export async function lastInvoiceSync(ctx: InvoicesCtx, tool: WorkspaceTool): Promise<InvoiceSync | null> {
	await mappedForTool(ctx, tool)
	const [link] = await ctx.db
		.select({ lastSync: invoiceDatabases.lastSync })
		.from(invoiceDatabases)
		.where(eq(invoiceDatabases.organizationId, ctx.orgId))
	return (link?.lastSync as InvoiceSync | null | undefined) ?? null
}

export async function syncInvoices(ctx: InvoicesCtx, tool: WorkspaceTool): Promise<InvoiceSync> {
	const { database, mapping, lastSyncAt } = await mappedForTool(ctx, tool)
	// Taken before reading: a row changed while this runs is read again next time.
	const startedAt = new Date()
	const today = dayOf(ctx.now())
	await learnRowIds(ctx.db, ctx.orgId)
	const result: InvoiceSync = { checked: 0, pushed: 0, unchanged: 0, notLinked: 0, failed: 0, at: '', pushes: [] }
	const since = lastSyncAt ?? new Date(0)
	// Changed in the workspace (edited there, or mirrored again), or kept for an open invoice past its due date.
	const changed = sql`greatest(${workspaceRows.lastEditedTime}, ${workspaceRows.mirroredAt}) > ${since.toISOString()}::timestamptz`
	const overdue = and(
		isNotNull(invoiceDocuments.id),
		sql`${invoiceDocuments.status} in ('finalized', 'sent', 'partially_paid')`,
		sql`${invoiceDocuments.dueDate} < ${today}::date`,
	)
	const statusOf = (values: Record<string, unknown>) =>
		mapping.status ? ((values[mapping.status] as string | null | undefined) ?? null) : null
	let after: string | null = null
	for (;;) {
		const conditions: SQL[] = [
			eq(workspaceRows.databaseId, database.id),
			eq(workspaceRows.organizationId, ctx.orgId),
			found(or(changed, overdue)),
		]
		if (after) {
			conditions.push(gt(workspaceRows.id, after))
		}
		const batch = await ctx.db
			.select({ row: workspaceRows, documentId: invoiceDocuments.id })
			.from(workspaceRows)
			.leftJoin(
				invoiceDocuments,
				and(
					eq(invoiceDocuments.organizationId, ctx.orgId),
					eq(invoiceDocuments.rowDatabaseId, database.id),
					eq(invoiceDocuments.rowId, workspaceRows.externalId),
					eq(invoiceDocuments.kind, 'invoice'),
				),
			)
			.where(and(...conditions))
			.orderBy(asc(workspaceRows.id))
			.limit(batchSize)
		for (const { row, documentId } of batch) {
			if (!documentId) {
				result.notLinked += 1
				continue
			}
			result.checked += 1
			// Locked like any change of the document, so the write joins its chain in order.
			const outcome = await ctx.db.transaction(async (tx) => {
				const document: DocumentRecord = await documentRecord(tx, ctx.orgId, documentId, true)
				const wanted = desiredValues({
					document,
					mapping,
					properties: database.properties,
					publicUrl: ctx.publicUrl,
					clientExternalId: await clientExternalId(tx, ctx.orgId, document),
					isOverdue: isOverdue(document, today),
				})
				const values: RowState = Object.fromEntries(
					Object.entries(wanted).filter(([id, value]) => !isSameValue(row.values[id], value)),
				)
				if (Object.keys(values).length === 0) {
					return { kind: 'unchanged' as const }
				}
				const error = await queueRowWrite(ctx, tx, document, database, values)
				const to = mapping.status && mapping.status in values ? (values[mapping.status] as string | null) : null
				return { kind: error ? ('failed' as const) : ('pushed' as const), number: document.number, to, error }
			})
			if (outcome.kind === 'unchanged') {
				result.unchanged += 1
				continue
			}
			result[outcome.kind] += 1
			if (result.pushes.length < listedPushes) {
				const from = statusOf(row.values)
				result.pushes.push({
					number: outcome.number,
					from,
					to: outcome.to ?? from,
					error: outcome.error,
				})
			}
		}
		if (batch.length < batchSize) {
			break
		}
		after = batch.at(-1)?.row.id ?? null
	}
	result.at = startedAt.toISOString()
	await ctx.db
		.update(invoiceDatabases)
		.set({ lastSyncAt: startedAt, lastSync: result, updatedAt: startedAt })
		.where(and(eq(invoiceDatabases.organizationId, ctx.orgId), eq(invoiceDatabases.databaseId, database.id)))
	return result
}
