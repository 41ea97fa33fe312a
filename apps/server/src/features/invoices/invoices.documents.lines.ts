// Lines made from the workspace: rows of any database of the organization read from the mirror
// (never the workspace's API on the request path) with a mapping of properties to description,
// quantity, unit and unit price; or a time-tracking view's billable time not billed yet, through
// the time module's door (time.public.ts). Time rows are remembered on the draft: finalizing
// marks them billed by this invoice (before numbering it, so a row another invoice took stops
// the finalization), voiding offers them again.

import { minorToDecimal } from '@blocksmith/contracts/invoice-currencies.ts'
import type {
	Invoice,
	InvoiceLine,
	linesFromRowsSchema,
	linesFromTimeSchema,
} from '@blocksmith/contracts/invoice-documents.ts'
import type { PropertyValue, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray } from 'drizzle-orm'
import type { z } from 'zod'
import { markBilled, unbilledTime, unmarkBilled, viewDatabaseId } from '#src/features/time/time.public.ts'
import { workspaceDatabases, workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import {
	appendLines,
	defaultRateId,
	documentRecord,
	finalizeInvoice,
	invalid,
	voidInvoice,
} from './invoices.documents.ts'

/** What the time module's door needs (its deps), named through the door itself. */
export type TimeDeps = Parameters<typeof unbilledTime>[0]

type FromRows = z.output<typeof linesFromRowsSchema>
type FromTime = z.output<typeof linesFromTimeSchema>

/** A value as text: titles, texts, selects, numbers, formulas; null for what has no text. */
function textOf(value: PropertyValue | undefined): string | null {
	if (typeof value === 'string') {
		return value
	}
	if (typeof value === 'number' && Number.isFinite(value)) {
		// The mirror keeps numbers as JSON numbers; written without an exponent they are exact
		// decimals the money core checks like typed ones (a price with too many decimals is a 400).
		return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
	}
	if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
		return value.join(', ')
	}
	return null
}

async function rateFor(ctx: InvoicesCtx, profileId: string, taxRateId: string | undefined): Promise<string> {
	const id = taxRateId ?? (await defaultRateId(ctx, profileId))
	if (!id) {
		throw invalid([{ field: 'taxRateId', message: 'Add a tax rate to the settings profile first.' }])
	}
	return id
}

export async function addLinesFromRows(ctx: InvoicesCtx, id: string, input: FromRows): Promise<Invoice> {
	const draft = await documentRecord(ctx.db, ctx.orgId, id)
	const [database] = await ctx.db
		.select({ id: workspaceDatabases.id, properties: workspaceDatabases.properties })
		.from(workspaceDatabases)
		.where(and(eq(workspaceDatabases.id, input.databaseId), eq(workspaceDatabases.organizationId, ctx.orgId)))
	if (!database) {
		throw invalid([{ field: 'databaseId', message: 'Choose a database of this organization.' }])
	}
	const known = new Set(database.properties.map((property) => property.id))
	const mappingErrors = Object.entries(input.mapping)
		.filter(([, propertyId]) => propertyId !== undefined && !known.has(propertyId))
		.map(([part]) => ({ field: `mapping.${part}`, message: 'Choose a property of this database.' }))
	if (mappingErrors.length > 0) {
		throw invalid(mappingErrors)
	}
	const rows = await ctx.db
		.select({ id: workspaceRows.id, values: workspaceRows.values })
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.organizationId, ctx.orgId),
				eq(workspaceRows.databaseId, database.id),
				inArray(workspaceRows.id, input.rowIds),
			),
		)
	const byId = new Map(rows.map((row) => [row.id, row.values]))
	const taxRateId = await rateFor(ctx, draft.profileId, input.taxRateId)
	const errors: { field: string; message: string }[] = []
	const lines: InvoiceLine[] = []
	input.rowIds.forEach((rowId, index) => {
		const values = byId.get(rowId)
		if (!values) {
			errors.push({ field: `rowIds.${index}`, message: 'This database has no such row (or it is not synced yet).' })
			return
		}
		const part = (propertyId: string | undefined) => (propertyId ? textOf(values[propertyId]) : null)
		const description = part(input.mapping.description)?.trim()
		const unitPrice = part(input.mapping.unitPrice)
		if (!description) {
			errors.push({ field: `rowIds.${index}`, message: 'The row has no description in the mapped property.' })
			return
		}
		if (unitPrice === null) {
			errors.push({ field: `rowIds.${index}`, message: 'The row has no price in the mapped property.' })
			return
		}
		lines.push({
			description: description.slice(0, 1000),
			quantity: input.mapping.quantity ? (part(input.mapping.quantity) ?? '0') : '1',
			unit: part(input.mapping.unit)?.slice(0, 30) || null,
			unitPrice,
			discount: null,
			taxRateId,
		})
	})
	if (errors.length > 0) {
		throw invalid(errors)
	}
	return appendLines(ctx, id, lines, null)
}

const secondsPerHour = 3600

/**
 * Hours as an exact decimal of at most 4 places, or null: 4 places hold whole multiples of
 * 0.36 s, so most rounded durations are exact and the line reads hours × rate.
 */
function exactHours(seconds: number): string | null {
	return (seconds * 10_000) % secondsPerHour === 0 ? String((seconds * 10_000) / secondsPerHour / 10_000) : null
}

function durationText(seconds: number): string {
	const minutes = Math.round(seconds / 60)
	return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')} h`
}

export async function addLinesFromTime(
	ctx: InvoicesCtx,
	time: TimeDeps,
	tool: WorkspaceTool,
	id: string,
	input: FromTime,
): Promise<Invoice> {
	const draft = await documentRecord(ctx.db, ctx.orgId, id)
	const unbilled = await unbilledTime(time, ctx.orgId, tool, input.viewId, input.groupBy)
	if (unbilled.lines.length > 0 && unbilled.currency !== draft.currency) {
		throw invalid([
			{
				field: 'viewId',
				message: `The view's rates are in ${unbilled.currency} and the invoice in ${draft.currency}: change the invoice's currency first.`,
			},
		])
	}
	if (unbilled.lines.length === 0) {
		throw invalid([{ field: 'viewId', message: 'This view has no billable time that is not billed yet.' }])
	}
	const taxRateId = await rateFor(ctx, draft.profileId, input.taxRateId)
	const lines: InvoiceLine[] = unbilled.lines.map((line) => {
		const hours = exactHours(line.seconds)
		// Hours × rate when that is exact and gives the time's amount; else the amount as one item.
		if (hours !== null && line.rate !== null) {
			return {
				description: line.description,
				quantity: hours,
				unit: 'h',
				unitPrice: minorToDecimal(line.rate, unbilled.currency),
				discount: null,
				taxRateId,
			}
		}
		return {
			description: `${line.description} (${durationText(line.seconds)})`,
			quantity: '1',
			unit: null,
			unitPrice: minorToDecimal(line.amount ?? 0, unbilled.currency),
			discount: null,
			taxRateId,
		}
	})
	const databaseId = await viewDatabaseId(time, ctx.orgId, input.viewId)
	const rows = [...new Set(unbilled.lines.flatMap((line) => line.rowIds))]
	return appendLines(ctx, id, lines, { databaseId, externalRowIds: rows })
}

/**
 * Finalizes a draft whose time rows are first marked billed by it: another invoice's row is a
 * 409 and nothing is numbered; a finalization that fails after marking gives the rows back.
 */
export async function finalizeWithTime(ctx: InvoicesCtx, time: TimeDeps, id: string): Promise<Invoice> {
	const draft = await documentRecord(ctx.db, ctx.orgId, id)
	const marked: string[] = []
	try {
		if (draft.status === 'draft') {
			for (const billed of draft.billedTime) {
				await markBilled(time, ctx.orgId, billed.databaseId, billed.externalRowIds, draft.id)
				marked.push(billed.databaseId)
			}
		}
		return await finalizeInvoice(ctx, id)
	} catch (error) {
		// Given back only while it is still a draft: when a finalization running at the same
		// time numbered it, the rows are that invoice's.
		const now = await documentRecord(ctx.db, ctx.orgId, id)
		if (now.status === 'draft') {
			for (const databaseId of marked) {
				await unmarkBilled(time, ctx.orgId, databaseId, null, draft.id)
			}
		}
		throw error
	}
}

/** Voids an invoice and offers the time it billed as unbilled again. */
export async function voidWithTime(ctx: InvoicesCtx, time: TimeDeps, id: string): Promise<Invoice> {
	const voided = await voidInvoice(ctx, id)
	const record = await documentRecord(ctx.db, ctx.orgId, id)
	for (const billed of record.billedTime) {
		await unmarkBilled(time, ctx.orgId, billed.databaseId, null, record.id)
	}
	return voided
}
