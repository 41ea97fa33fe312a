// The organization's invoices database: which workspace database it is and how it is mapped
// (owners and admins choose, as for the settings: it decides where every invoice is written),
// its rows read from the mirror with SQL, page by page, each with the document kept in it, and
// a draft built from a row. Another organization's database, row or document reads as 404.
// Decision 035.

import type { FieldError } from '@blocksmith/contracts/errors.ts'
import { isCurrency } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import type {
	draftFromRowSchema,
	InvoiceDatabaseState,
	InvoiceRow,
	invoiceRowsQuerySchema,
	saveInvoiceDatabaseSchema,
} from '@blocksmith/contracts/invoice-workspace.ts'
import type { DateValue, Property, PropertyValue, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaceRows, workspaces } from '#src/workspaces/workspaces.schema.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { addLinesFromRows } from './invoices.documents.lines.ts'
import { invoiceDocuments } from './invoices.documents.schema.ts'
import {
	appendLines,
	createInvoice,
	defaultRateId,
	deleteInvoice,
	getInvoice,
	invalid,
	isOverdue,
} from './invoices.documents.ts'
import { dayOf } from './invoices.numbering.ts'
import { canChangeSettings } from './invoices.policy.ts'
import { invoiceDatabases } from './invoices.workspace.schema.ts'
import {
	checkInvoiceMapping,
	type MappingTarget,
	reviewInvoiceMapping,
	suggestInvoiceMapping,
} from './invoices.workspace-mapping.ts'
import { mappedDatabase, writeBack } from './invoices.workspace-writeback.ts'

type DatabaseRecord = typeof workspaceDatabases.$inferSelect

const refusals = {
	change: 'Only an owner or admin can choose the invoices database. Ask one of them to do it.',
	noDatabase: 'No invoices database is mapped in this workspace tool.',
} as const

/** The databases of this tool's workspaces in the organization. */
async function databasesOfTool(db: Db, orgId: string, tool: WorkspaceTool): Promise<DatabaseRecord[]> {
	const rows = await db
		.select({ database: workspaceDatabases })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(and(eq(workspaceDatabases.organizationId, orgId), eq(workspaces.tool, tool)))
		.orderBy(workspaceDatabases.name)
	return rows.map((row) => row.database)
}

/** For each database, what its relations point at (read in one statement). */
async function targetsOf(db: Db, orgId: string, databases: DatabaseRecord[]): Promise<Map<string, MappingTarget>> {
	const relatedIds = [
		...new Set(
			databases.flatMap((database) =>
				database.properties.flatMap((property) => (property.relationDatabaseId ? [property.relationDatabaseId] : [])),
			),
		),
	]
	const related =
		relatedIds.length === 0
			? []
			: await db
					.select({ id: workspaceDatabases.id, properties: workspaceDatabases.properties })
					.from(workspaceDatabases)
					.where(and(eq(workspaceDatabases.organizationId, orgId), inArray(workspaceDatabases.id, relatedIds)))
	const propertiesOf = new Map(related.map((database) => [database.id, database.properties]))
	return new Map(
		databases.map((database) => [
			database.id,
			{
				properties: database.properties,
				related: (relationPropertyId: string) => {
					const relation = database.properties.find((property) => property.id === relationPropertyId)
					return (relation?.relationDatabaseId && propertiesOf.get(relation.relationDatabaseId)) || []
				},
			},
		]),
	)
}

async function toolOf(db: Db, workspaceId: string): Promise<WorkspaceTool> {
	const [workspace] = await db.select({ tool: workspaces.tool }).from(workspaces).where(eq(workspaces.id, workspaceId))
	return found(workspace).tool as WorkspaceTool
}

export async function getInvoiceDatabase(ctx: InvoicesCtx, tool: WorkspaceTool): Promise<InvoiceDatabaseState> {
	const mapped = await mappedDatabase(ctx.db, ctx.orgId)
	const candidates = await databasesOfTool(ctx.db, ctx.orgId, tool)
	const targets = await targetsOf(ctx.db, ctx.orgId, mapped ? [...candidates, mapped.database] : candidates)
	const ref = (database: DatabaseRecord, databaseTool: WorkspaceTool) => ({
		id: database.id,
		workspaceId: database.workspaceId,
		tool: databaseTool,
		name: database.name,
	})
	return {
		mapped: mapped
			? {
					...ref(mapped.database, await toolOf(ctx.db, mapped.database.workspaceId)),
					review: reviewInvoiceMapping(mapped.mapping, found(targets.get(mapped.database.id))),
					lastSyncAt: mapped.lastSyncAt?.toISOString() ?? null,
				}
			: null,
		candidates: candidates.map((database) => {
			const target = found(targets.get(database.id))
			return { ...ref(database, tool), suggested: reviewInvoiceMapping(suggestInvoiceMapping(target), target) }
		}),
	}
}

function assertCanChange(ctx: InvoicesCtx): void {
	if (!canChangeSettings(ctx.role)) {
		throw new AppError('FORBIDDEN', { detail: refusals.change })
	}
}

/** Maps a database (replacing the one mapped before); a 400 names `databaseId` or `mapping.<field>`. */
export async function saveInvoiceDatabase(
	ctx: InvoicesCtx,
	tool: WorkspaceTool,
	input: z.output<typeof saveInvoiceDatabaseSchema>,
): Promise<InvoiceDatabaseState> {
	assertCanChange(ctx)
	const database = (await databasesOfTool(ctx.db, ctx.orgId, tool)).find((one) => one.id === input.databaseId)
	if (!database) {
		throw invalid([{ field: 'databaseId', message: `Choose a database of this organization's ${tool} workspaces.` }])
	}
	checkInvoiceMapping(input.mapping, found((await targetsOf(ctx.db, ctx.orgId, [database])).get(database.id)))
	const now = ctx.now()
	await ctx.db
		.insert(invoiceDatabases)
		.values({
			id: crypto.randomUUID(),
			organizationId: ctx.orgId,
			databaseId: database.id,
			mapping: input.mapping,
			createdBy: ctx.userId,
			createdAt: now,
			updatedAt: now,
		})
		.onConflictDoUpdate({
			target: invoiceDatabases.organizationId,
			set: {
				databaseId: database.id,
				mapping: input.mapping,
				updatedAt: now,
				// Another database starts its sync afresh.
				lastSyncAt: sql`case when ${invoiceDatabases.databaseId} = ${database.id} then ${invoiceDatabases.lastSyncAt} end`,
				lastSync: sql`case when ${invoiceDatabases.databaseId} = ${database.id} then ${invoiceDatabases.lastSync} end`,
			},
		})
	return getInvoiceDatabase(ctx, tool)
}

/** Unmaps the database: nothing more is written to it (its rows stay as they are). */
export async function unlinkInvoiceDatabase(ctx: InvoicesCtx): Promise<void> {
	assertCanChange(ctx)
	await ctx.db.delete(invoiceDatabases).where(eq(invoiceDatabases.organizationId, ctx.orgId))
}

/** The mapped database when it is in a workspace of this tool, else 404. */
export async function mappedForTool(ctx: InvoicesCtx, tool: WorkspaceTool) {
	const mapped = await mappedDatabase(ctx.db, ctx.orgId)
	if (!mapped || (await toolOf(ctx.db, mapped.database.workspaceId)) !== tool) {
		throw new AppError('NOT_FOUND', { detail: refusals.noDatabase })
	}
	return mapped
}

/**
 * Documents whose row was created by a write delivered since: the row's id in its workspace,
 * learnt from the last write of the chain (it names the row once the create is delivered), so
 * lists and the sync can join on it.
 */
export async function learnRowIds(db: Db, orgId: string): Promise<void> {
	await db.execute(sql`
		update invoice_documents as d set row_id = w.external_row_id
		from workspace_writes as w
		where d.organization_id = ${orgId} and d.row_id is null and d.row_write_id is not null
			and w.id = d.row_write_id and w.organization_id = ${orgId} and w.external_row_id is not null`)
}

/** A number value as an exact decimal string (the mirror keeps JSON numbers). */
function decimalOf(value: PropertyValue | undefined): string | null {
	return typeof value === 'number' && Number.isFinite(value)
		? value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
		: null
}

function dayOfValue(value: PropertyValue | undefined): string | null {
	return value && typeof value === 'object' && !Array.isArray(value) && 'start' in value
		? (value as DateValue).start.slice(0, 10)
		: null
}

function textOfValue(value: PropertyValue | undefined): string | null {
	return typeof value === 'string' ? value : null
}

function idsOf(value: PropertyValue | undefined): string[] {
	return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
}

type Cursor = { at: string; id: string }

function readCursor(cursor: string | undefined): Cursor | null {
	if (!cursor) {
		return null
	}
	try {
		const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as Cursor
		if (typeof parsed.at === 'string' && typeof parsed.id === 'string' && !Number.isNaN(Date.parse(parsed.at))) {
			return parsed
		}
	} catch {
		// Falls through to the 400.
	}
	throw invalid([{ field: 'cursor', message: 'Use the cursor of the page before.' }])
}

/** The rows of the invoices database, newest first, each with its mapped fields and the document kept in it. */
export async function listInvoiceRows(
	ctx: InvoicesCtx,
	tool: WorkspaceTool,
	query: z.output<typeof invoiceRowsQuerySchema>,
): Promise<{ rows: InvoiceRow[]; nextCursor: string | null }> {
	const { database, mapping } = await mappedForTool(ctx, tool)
	await learnRowIds(ctx.db, ctx.orgId)
	const cursor = readCursor(query.cursor)
	const conditions: SQL[] = [eq(workspaceRows.databaseId, database.id), eq(workspaceRows.organizationId, ctx.orgId)]
	if (query.search) {
		conditions.push(
			sql`lower(${workspaceRows.title}) like ${`%${query.search.toLowerCase().replace(/[%_\\]/g, '\\$&')}%`}`,
		)
	}
	if (cursor) {
		conditions.push(
			sql`(${workspaceRows.createdTime}, ${workspaceRows.id}) < (${cursor.at}::timestamptz, ${cursor.id})`,
		)
	}
	const page = await ctx.db
		.select({ row: workspaceRows, document: invoiceDocuments })
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
		.orderBy(desc(workspaceRows.createdTime), desc(workspaceRows.id))
		.limit(query.limit + 1)
	const rows = page.slice(0, query.limit)
	const clientProperty = database.properties.find((property) => property.id === mapping.client)
	const clientIds = [...new Set(rows.flatMap(({ row }) => idsOf(mapping.client ? row.values[mapping.client] : null)))]
	const clientNames = new Map<string, string>()
	if (clientProperty?.relationDatabaseId && clientIds.length > 0) {
		const clients = await ctx.db
			.select({ externalId: workspaceRows.externalId, title: workspaceRows.title })
			.from(workspaceRows)
			.where(
				and(
					eq(workspaceRows.databaseId, clientProperty.relationDatabaseId),
					eq(workspaceRows.organizationId, ctx.orgId),
					inArray(workspaceRows.externalId, clientIds),
				),
			)
		for (const client of clients) {
			clientNames.set(client.externalId, client.title)
		}
	}
	const today = dayOf(ctx.now())
	const value = (values: Record<string, PropertyValue>, id: string | null) => (id ? values[id] : undefined)
	const last = rows.at(-1)?.row
	return {
		rows: rows.map(({ row, document }) => ({
			id: row.id,
			number: textOfValue(value(row.values, mapping.number)) ?? (row.title || null),
			clientNames: idsOf(value(row.values, mapping.client)).map((id) => clientNames.get(id) ?? ''),
			amount: decimalOf(value(row.values, mapping.amount)),
			issueDate: dayOfValue(value(row.values, mapping.issueDate)),
			dueDate: dayOfValue(value(row.values, mapping.dueDate)),
			status: textOfValue(value(row.values, mapping.status)),
			paid: mapping.paid ? value(row.values, mapping.paid) === true : null,
			document: document
				? {
						id: document.id,
						number: document.number,
						status: document.status,
						dueDate: document.dueDate,
						isOverdue: isOverdue(document, today),
					}
				: null,
		})),
		nextCursor:
			page.length > query.limit && last
				? Buffer.from(JSON.stringify({ at: last.createdTime.toISOString(), id: last.id })).toString('base64url')
				: null,
	}
}

/** Rows of a related database by their ids in the workspace (relation values), as our row ids. */
async function relatedRows(db: Db, orgId: string, property: Property | undefined, externalIds: string[]) {
	if (!property?.relationDatabaseId || externalIds.length === 0) {
		return []
	}
	const rows = await db
		.select({ id: workspaceRows.id, externalId: workspaceRows.externalId })
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.databaseId, property.relationDatabaseId),
				eq(workspaceRows.organizationId, orgId),
				inArray(workspaceRows.externalId, externalIds.slice(0, 500)),
			),
		)
	const byExternal = new Map(rows.map((row) => [row.externalId, row.id]))
	return externalIds.flatMap((id) => {
		const rowId = byExternal.get(id)
		return rowId ? [{ databaseId: property.relationDatabaseId as string, rowId }] : []
	})
}

function alreadyKept(documentId: string): AppError {
	return new AppError('CONFLICT', { detail: `An invoice is already kept in this row: ${documentId}.` })
}

/**
 * A draft from a row of the invoices database, kept in that row: the client from its relation
 * (through `clientMapping`), lines from the line-items relation or one line of the amount, the
 * dates and currency from the row. 409 (naming the document) when one is kept in the row already.
 */
export async function draftFromRow(
	ctx: InvoicesCtx,
	tool: WorkspaceTool,
	rowId: string,
	input: z.output<typeof draftFromRowSchema>,
): Promise<Invoice> {
	const { database, mapping } = await mappedForTool(ctx, tool)
	const [row] = await ctx.db
		.select()
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.id, rowId),
				eq(workspaceRows.databaseId, database.id),
				eq(workspaceRows.organizationId, ctx.orgId),
			),
		)
	const source = found(row, 'The invoices database has no such row.')
	const linked = async (db: Db) => {
		const [document] = await db
			.select({ id: invoiceDocuments.id })
			.from(invoiceDocuments)
			.where(
				and(
					eq(invoiceDocuments.organizationId, ctx.orgId),
					eq(invoiceDocuments.rowDatabaseId, database.id),
					eq(invoiceDocuments.rowId, source.externalId),
					eq(invoiceDocuments.kind, 'invoice'),
				),
			)
		return document?.id ?? null
	}
	const existing = await linked(ctx.db)
	if (existing) {
		throw alreadyKept(existing)
	}
	const property = (id: string | null) => database.properties.find((one) => one.id === id)
	const value = (id: string | null) => (id ? source.values[id] : undefined)
	const [client] = await relatedRows(ctx.db, ctx.orgId, property(mapping.client), idsOf(value(mapping.client)))
	const issueDate = dayOfValue(value(mapping.issueDate)) ?? undefined
	const dueDate = dayOfValue(value(mapping.dueDate))
	const currency = textOfValue(value(mapping.currency))?.trim().toUpperCase()
	const errors: FieldError[] = []
	const lineRows = mapping.lineItems
		? await relatedRows(
				ctx.db,
				ctx.orgId,
				property(mapping.lineItems.propertyId),
				idsOf(value(mapping.lineItems.propertyId)),
			)
		: []
	const price = decimalOf(value(mapping.netAmount)) ?? decimalOf(value(mapping.amount))
	if (lineRows.length === 0 && price === null) {
		errors.push({ field: 'rowId', message: 'The row has no amount and no line items to bill.' })
	}
	const { profileId: draftProfile, taxRateId } = input
	if (errors.length > 0) {
		throw invalid(errors)
	}
	const number = textOfValue(value(mapping.number))?.trim() || source.title || 'Invoice'
	const draft = await createInvoice(ctx, {
		...(draftProfile ? { profileId: draftProfile } : {}),
		...(client && mapping.clientMapping ? { clientRow: { ...client, mapping: mapping.clientMapping } } : {}),
		...(currency && isCurrency(currency) ? { currency } : {}),
		...(issueDate ? { issueDate } : {}),
		...(dueDate && (!issueDate || dueDate >= issueDate) ? { dueDate } : {}),
	})
	try {
		if (lineRows.length > 0 && mapping.lineItems) {
			await addLinesFromRows(ctx, draft.id, {
				databaseId: (lineRows[0] as { databaseId: string }).databaseId,
				rowIds: lineRows.map((line) => line.rowId),
				mapping: mapping.lineItems.mapping,
				...(taxRateId ? { taxRateId } : {}),
			})
		} else if (price !== null) {
			const rate = taxRateId ?? (await defaultRateId(ctx, draft.profileId))
			if (!rate) {
				throw invalid([{ field: 'taxRateId', message: 'Add a tax rate to the settings profile first.' }])
			}
			await appendLines(
				ctx,
				draft.id,
				[
					{
						description: number.slice(0, 1000),
						quantity: '1',
						unit: null,
						unitPrice: price,
						discount: null,
						taxRateId: rate,
					},
				],
				null,
			)
		}
		await ctx.db.transaction(async (tx) => {
			// The row locked, so two drafts from it at once cannot both be kept in it.
			await tx.execute(sql`select 1 from ${workspaceRows} where ${workspaceRows.id} = ${source.id} for update`)
			const other = await linked(tx)
			if (other) {
				throw alreadyKept(other)
			}
			const [kept] = await tx
				.update(invoiceDocuments)
				.set({ rowDatabaseId: database.id, rowId: source.externalId, rowState: {} })
				.where(and(eq(invoiceDocuments.id, draft.id), isNull(invoiceDocuments.rowId)))
				.returning()
			await writeBack(ctx, tx, found(kept))
		})
	} catch (error) {
		await deleteInvoice(ctx, draft.id)
		throw error
	}
	return getInvoice(ctx, draft.id)
}
