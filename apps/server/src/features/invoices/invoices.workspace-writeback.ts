// The write-back of an invoice to its row of the mapped invoices database, always through the
// write queue (stored in the caller's transaction, delivered by a job), so a slow or failing
// workspace never loses or delays a change of ours. A finalized invoice not kept in a row yet
// gets one (a create); later changes write only the properties whose value changed since the
// last write (`rowState`), each delivered after the one before (`rowWriteId`), like a time
// entry's edits. Credit notes have no row: they change their invoice's amount due, which is
// written to the invoice's row. Decision 035.

import { minorToDecimal } from '@blocksmith/contracts/invoice-currencies.ts'
import { type InvoiceDatabaseMapping, invoiceDatabaseMappingSchema } from '@blocksmith/contracts/invoice-workspace.ts'
import type { DateValue, Property, PropertyValue } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import type { WorkspaceDeps } from '#src/workspaces/workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import type { SourceLabeler } from '#src/workspaces/workspaces.sources.ts'
import { queueDelivery, storeWrite } from '#src/workspaces/workspaces.writes.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { type DocumentRecord, invoiceDocuments } from './invoices.documents.schema.ts'
import { invoiceDatabases } from './invoices.workspace.schema.ts'

type WriteValue = string | number | boolean | string[] | null
export type RowState = Record<string, WriteValue>
type DatabaseRecord = typeof workspaceDatabases.$inferSelect

/** The organization's invoices database with its mapping, or null when none is mapped. */
export async function mappedDatabase(
	db: Db,
	orgId: string,
): Promise<{ mapping: InvoiceDatabaseMapping; database: DatabaseRecord; lastSyncAt: Date | null } | null> {
	const [row] = await db
		.select({ link: invoiceDatabases, database: workspaceDatabases })
		.from(invoiceDatabases)
		.innerJoin(workspaceDatabases, eq(workspaceDatabases.id, invoiceDatabases.databaseId))
		.where(and(eq(invoiceDatabases.organizationId, orgId), eq(workspaceDatabases.organizationId, orgId)))
	if (!row) {
		return null
	}
	return {
		mapping: invoiceDatabaseMappingSchema.parse(row.link.mapping),
		database: row.database,
		lastSyncAt: row.link.lastSyncAt,
	}
}

/** What is left to pay, as the invoice shows it: 0 once void or for a credit note. */
function dueMinor(document: DocumentRecord): number {
	if (document.status === 'void' || document.kind !== 'invoice') {
		return 0
	}
	return Math.max(0, document.totalMinor - document.paidMinor - document.creditedMinor)
}

/** An exact decimal of the currency as the number a number property holds (the mirror's and Notion's JSON number). */
function amount(minor: number, currency: string): number {
	return Number(minorToDecimal(minor, currency))
}

type DesiredInput = {
	document: DocumentRecord
	mapping: InvoiceDatabaseMapping
	properties: Property[]
	publicUrl: string
	/** The client row's id in its workspace, when the relation points into the clients database. */
	clientExternalId: string | null
	/** Sync only: the invoice is overdue today and the mapping names an option for it. */
	isOverdue?: boolean
}

/**
 * The row's values as our records say, for the mapped properties. A draft writes only its
 * status (and only when "draft" is mapped); overdue is asked for by the sync alone.
 */
export function desiredValues(input: DesiredInput): RowState {
	const { document, mapping, properties } = input
	const byId = new Map(properties.map((property) => [property.id, property]))
	const values: RowState = {}
	const set = (id: string | null, value: WriteValue) => {
		if (id && byId.has(id)) {
			values[id] = value
		}
	}
	const options = mapping.statusOptions
	const statusOption = input.isOverdue && options.overdue ? options.overdue : options[document.status]
	const statusProperty = mapping.status ? byId.get(mapping.status) : undefined
	if (statusOption && statusProperty?.options?.some((option) => option.name === statusOption)) {
		set(mapping.status, statusOption)
	}
	if (document.status === 'draft') {
		return values
	}
	const { currency } = document
	set(mapping.number, document.number ?? '')
	const clientProperty = mapping.client ? byId.get(mapping.client) : undefined
	if (
		clientProperty &&
		input.clientExternalId &&
		document.clientRow &&
		clientProperty.relationDatabaseId === document.clientRow.databaseId
	) {
		set(mapping.client, [input.clientExternalId])
	}
	set(mapping.amount, amount(document.totalMinor, currency))
	const totals = document.totals
	if (totals) {
		set(mapping.netAmount, amount(totals.taxExclusiveAmount.minor, currency))
		set(mapping.taxAmount, amount(totals.vatTotal.minor, currency))
	}
	set(mapping.amountDue, amount(dueMinor(document), currency))
	const currencyProperty = mapping.currency ? byId.get(mapping.currency) : undefined
	if (currencyProperty?.type === 'rich_text' || currencyProperty?.options?.some((option) => option.name === currency)) {
		set(mapping.currency, currency)
	}
	set(mapping.issueDate, document.issueDate)
	set(mapping.dueDate, document.dueDate)
	set(
		mapping.paidDate,
		document.status === 'paid' && document.paidAt ? document.paidAt.toISOString().slice(0, 10) : null,
	)
	set(mapping.paid, document.status === 'paid')
	if (document.publicToken) {
		set(mapping.link, `${input.publicUrl.replace(/\/$/, '')}/i/${document.publicToken}`)
	}
	return values
}

/** Whether the row's value (as the mirror holds it) already says what we would write. */
export function isSameValue(current: PropertyValue | undefined, wanted: WriteValue): boolean {
	if (Array.isArray(wanted)) {
		const have = Array.isArray(current) ? (current as unknown[]).map(String) : []
		return have.length === wanted.length && wanted.every((id) => have.includes(id))
	}
	if (current && typeof current === 'object' && !Array.isArray(current) && 'start' in current) {
		return (current as DateValue).start.slice(0, 10) === wanted
	}
	if (typeof wanted === 'boolean') {
		return (current ?? false) === wanted
	}
	if (wanted === null || wanted === '') {
		return current === null || current === undefined || current === '' || current === false
	}
	return current === wanted
}

function changedValues(wanted: RowState, before: RowState): RowState {
	return Object.fromEntries(
		Object.entries(wanted).filter(([id, value]) => JSON.stringify(before[id] ?? null) !== JSON.stringify(value)),
	)
}

/** The client row's id in its workspace, for the relation. */
export async function clientExternalId(db: Db, orgId: string, document: DocumentRecord): Promise<string | null> {
	if (!document.clientRow) {
		return null
	}
	const [row] = await db
		.select({ externalId: workspaceRows.externalId })
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.id, document.clientRow.rowId),
				eq(workspaceRows.databaseId, document.clientRow.databaseId),
				eq(workspaceRows.organizationId, orgId),
			),
		)
	return row?.externalId ?? null
}

type QueueCtx = { orgId: string; userId: string; workspaces: WorkspaceDeps; log: InvoicesCtx['log'] }

/**
 * Stores one write of `values` to the document's row (a create when it has none yet) in `tx`,
 * queues it with the transaction, and records it on the document. A write the workspace's
 * properties refuse (a property or option deleted there since the mapping was saved) is logged
 * and left out: the change of ours that asked for it must not fail for it. Returns the error's
 * words then, else null.
 */
export async function queueRowWrite(
	ctx: QueueCtx,
	tx: Db,
	document: DocumentRecord,
	database: DatabaseRecord,
	values: RowState,
): Promise<string | null> {
	const workspaceCtx = { ...ctx.workspaces, db: tx, orgId: ctx.orgId, userId: ctx.userId }
	const isLinked = document.rowWriteId !== null || document.rowId !== null
	let rowId: string | undefined
	if (!document.rowWriteId && document.rowId) {
		const [row] = await tx
			.select({ id: workspaceRows.id })
			.from(workspaceRows)
			.where(and(eq(workspaceRows.databaseId, database.id), eq(workspaceRows.externalId, document.rowId)))
		if (!row) {
			ctx.log.warn({ documentId: document.id }, 'invoice row not in the mirror; write-back skipped')
			return 'The row is not in the workspace any more.'
		}
		rowId = row.id
	}
	let writeId: string
	try {
		const write = await storeWrite(
			workspaceCtx,
			{
				databaseId: database.id,
				...(document.rowWriteId ? { after: document.rowWriteId } : rowId ? { rowId } : {}),
				values,
				source: `invoice:${document.id}`,
			},
			database,
		)
		writeId = write.id
	} catch (error) {
		// Refused before anything was stored (the values' check), so the transaction goes on.
		if (error instanceof AppError && error.code === 'VALIDATION_FAILED') {
			ctx.log.warn({ err: error, documentId: document.id }, 'invoice row write refused by the database')
			return error.errors?.[0]?.message ?? error.detail
		}
		throw error
	}
	await tx
		.update(invoiceDocuments)
		.set({
			rowDatabaseId: database.id,
			rowWriteId: writeId,
			rowState: { ...(isLinked ? ((document.rowState as RowState | null) ?? {}) : {}), ...values },
		})
		.where(eq(invoiceDocuments.id, document.id))
	await queueDelivery(ctx.workspaces, writeId, tx)
	return null
}

/**
 * The document's row was to be created by a write that was given up on: the writes after a dead
 * create die too (there is no row to update), so the last one is dead and names no row.
 */
async function isCreateGivenUp(tx: Db, document: DocumentRecord): Promise<boolean> {
	if (document.rowId || !document.rowWriteId) {
		return false
	}
	const [last] = await tx
		.select({ state: workspaceWrites.state, externalRowId: workspaceWrites.externalRowId })
		.from(workspaceWrites)
		.where(eq(workspaceWrites.id, document.rowWriteId))
	return last?.state === 'dead' && !last.externalRowId
}

export type WriteBackCtx = Pick<InvoicesCtx, 'orgId' | 'userId' | 'now' | 'workspaces' | 'publicUrl' | 'log'>

/**
 * After a state change (inside its transaction): the document's row is created or brought up
 * to date with what changed. Nothing happens without a mapped database, for credit notes, for
 * drafts not linked to a row, and for a row kept in a database that is no longer the mapped one.
 */
export async function writeBack(ctx: WriteBackCtx, tx: Db, changed: DocumentRecord): Promise<void> {
	if (changed.kind !== 'invoice' || (changed.status === 'draft' && !changed.rowWriteId && !changed.rowId)) {
		return
	}
	const mapped = await mappedDatabase(tx, ctx.orgId)
	if (!mapped || (changed.rowDatabaseId && changed.rowDatabaseId !== mapped.database.id)) {
		return
	}
	// A row whose create was given up on (refused, or the workspace down past every retry) is never
	// made by the writes chained after it: this change starts the row again, with every value.
	const document = (await isCreateGivenUp(tx, changed)) ? { ...changed, rowWriteId: null, rowState: null } : changed
	const isLinked = document.rowWriteId !== null || document.rowId !== null
	const { workspaces, publicUrl, log } = ctx
	const wanted = desiredValues({
		document,
		mapping: mapped.mapping,
		properties: mapped.database.properties,
		publicUrl,
		clientExternalId: await clientExternalId(tx, ctx.orgId, document),
	})
	const values = isLinked ? changedValues(wanted, (document.rowState as RowState | null) ?? {}) : wanted
	if (Object.keys(values).length === 0) {
		return
	}
	await queueRowWrite({ ...ctx, workspaces, log }, tx, document, mapped.database, values)
}

/** `invoice:<document id>` in the deliveries list: the invoice's number. */
export const labelInvoiceWrites: SourceLabeler = async (db, orgId, ids) => {
	const rows = await db
		.select({ id: invoiceDocuments.id, number: invoiceDocuments.number })
		.from(invoiceDocuments)
		.where(and(eq(invoiceDocuments.organizationId, orgId), inArray(invoiceDocuments.id, ids)))
	return new Map(rows.map((row) => [row.id, row.number ? `Invoice ${row.number}` : 'Invoice draft']))
}
