// Invoice documents: drafts (no number, every field may change), finalization (one transaction:
// the next number of the profile's sequence, the client, sender and rates frozen), and the
// immutability after it (corrections are credit notes, invoices.credit-notes.ts). Totals are
// always the money core's, computed here from the stored lines and stored with them, so the
// list, the PDF and the e-invoice read the same figures. Another organization's document is a
// 404. Decision 033.

import { randomUUID } from 'node:crypto'
import type { FieldError } from '@blocksmith/contracts/errors.ts'
import { minorToDecimal } from '@blocksmith/contracts/invoice-currencies.ts'
import type {
	createInvoiceSchema,
	Invoice,
	InvoiceClient,
	InvoiceLine,
	updateInvoiceSchema,
} from '@blocksmith/contracts/invoice-documents.ts'
import {
	computeInvoiceTotals,
	type DocumentDiscount,
	type DocumentTotals,
	type TaxRate as MoneyRate,
} from '@blocksmith/contracts/invoice-money.ts'
import type { TaxRate } from '@blocksmith/contracts/invoices.ts'
import { and, eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { clientFromRow } from './invoices.documents.clients.ts'
import {
	type BilledTime,
	type DocumentRecord,
	type FrozenSender,
	invoiceDocuments,
} from './invoices.documents.schema.ts'
import { documentChanged, newPublicToken } from './invoices.lifecycle.ts'
import { dayOf, nextNumber } from './invoices.numbering.ts'
import { invoiceProfiles, type ProfileRecord } from './invoices.schema.ts'
import { resolveTaxRates, taxRatesOf } from './invoices.tax-rates.ts'

type CreateInput = z.output<typeof createInvoiceSchema>
type UpdateInput = z.output<typeof updateInvoiceSchema>

const documentRefusals = {
	immutable:
		'This invoice is finalized and cannot change: its number and figures are issued. Issue a credit note to correct it.',
	notDraft: 'Only a draft can be finalized.',
} as const

export function invalid(errors: FieldError[]): AppError {
	return new AppError('VALIDATION_FAILED', { detail: errors[0]?.message, errors })
}

function addDays(day: string, days: number): string {
	const date = new Date(`${day}T00:00:00Z`)
	date.setUTCDate(date.getUTCDate() + days)
	return date.toISOString().slice(0, 10)
}

/** Overdue is read, never stored: an open invoice whose due date has passed. */
export function isOverdue(
	record: Pick<DocumentRecord, 'status' | 'dueDate' | 'kind' | 'totalMinor' | 'paidMinor' | 'creditedMinor'>,
	today: string,
): boolean {
	const open = record.status === 'finalized' || record.status === 'sent' || record.status === 'partially_paid'
	const owed = record.totalMinor - record.paidMinor - record.creditedMinor > 0
	return record.kind === 'invoice' && open && owed && record.dueDate !== null && record.dueDate < today
}

export function toInvoice(record: DocumentRecord, today: string): Invoice {
	const money = (minor: number) => ({ minor, decimal: minorToDecimal(minor, record.currency) })
	return {
		id: record.id,
		kind: record.kind,
		profileId: record.profileId,
		number: record.number,
		status: record.status,
		isOverdue: isOverdue(record, today),
		correctsId: record.correctsId,
		client: record.client,
		clientRow: record.clientRow,
		currency: record.currency,
		issueDate: record.issueDate,
		dueDate: record.dueDate,
		lines: record.lines,
		discounts: record.discounts,
		notes: record.notes,
		totals: record.totals as Invoice['totals'],
		total: money(record.totalMinor),
		paid: money(record.paidMinor),
		credited: money(record.creditedMinor),
		due: money(
			record.kind === 'invoice' && record.status !== 'void' && record.status !== 'draft'
				? Math.max(0, record.totalMinor - record.paidMinor - record.creditedMinor)
				: record.kind === 'invoice' && record.status === 'draft'
					? record.totalMinor
					: 0,
		),
		publicToken: record.publicToken,
		recurrenceId: record.recurrenceId,
		rowId: record.rowId,
		finalizedAt: record.finalizedAt?.toISOString() ?? null,
		sentAt: record.sentAt?.toISOString() ?? null,
		viewedAt: record.viewedAt?.toISOString() ?? null,
		paidAt: record.paidAt?.toISOString() ?? null,
		voidedAt: record.voidedAt?.toISOString() ?? null,
		createdAt: record.createdAt.toISOString(),
		updatedAt: record.updatedAt.toISOString(),
	}
}

/** The organization's document, or 404; `forUpdate` locks its row until the transaction ends. */
export async function documentRecord(db: Db, orgId: string, id: string, forUpdate = false): Promise<DocumentRecord> {
	const query = db
		.select()
		.from(invoiceDocuments)
		.where(and(eq(invoiceDocuments.id, id), eq(invoiceDocuments.organizationId, orgId)))
	const [record] = forUpdate ? await query.for('update') : await query
	return found(record, 'No such invoice.')
}

/** A profile of the organization named in a body (400 naming the field), or the default one. */
async function profileFor(db: Db, ctx: InvoicesCtx, profileId: string | undefined): Promise<ProfileRecord> {
	const where = profileId
		? and(eq(invoiceProfiles.id, profileId), eq(invoiceProfiles.organizationId, ctx.orgId))
		: and(eq(invoiceProfiles.organizationId, ctx.orgId), eq(invoiceProfiles.isDefault, true))
	const [profile] = await db.select().from(invoiceProfiles).where(where)
	if (!profile) {
		throw invalid([
			{
				field: 'profileId',
				message: profileId ? 'Choose a settings profile of this organization.' : 'Add invoice settings first.',
			},
		])
	}
	return profile
}

export function moneyRates(rates: Iterable<TaxRate>): MoneyRate[] {
	return [...rates].map(({ id, name, rate, categoryCode }) => ({ id, name, rate, categoryCode }))
}

/** The money core's totals of these lines, or a 400 naming the fields it refused. */
export function totalsOf(
	document: { currency: string; lines: InvoiceLine[]; discounts: DocumentDiscount[] },
	rates: MoneyRate[],
	options: { lineRounding: boolean; isCredit: boolean; paid?: string },
): DocumentTotals {
	const result = computeInvoiceTotals({
		currency: document.currency,
		lines: document.lines.map(({ quantity, unitPrice, taxRateId, discount }) => ({
			quantity,
			unitPrice,
			taxRateId,
			discount,
		})),
		taxRates: rates,
		discounts: document.discounts,
		lineRounding: options.lineRounding,
		allowNegativeQuantities: options.isCredit,
		...(options.paid ? { paid: options.paid } : {}),
	})
	if (!result.ok) {
		throw invalid(result.errors)
	}
	return result.totals
}

/** The rates the lines refer to, each a rate in use of the profile (400 naming `lines.N.taxRateId`). */
async function ratesOfLines(db: Db, orgId: string, profileId: string, lines: InvoiceLine[]) {
	const refs = lines.map((line, index) => ({ field: `lines.${index}.taxRateId`, id: line.taxRateId }))
	return resolveTaxRates(db, orgId, profileId, refs)
}

export async function getInvoice(ctx: InvoicesCtx, id: string): Promise<Invoice> {
	return toInvoice(await documentRecord(ctx.db, ctx.orgId, id), dayOf(ctx.now()))
}

export async function createInvoice(ctx: InvoicesCtx, input: CreateInput): Promise<Invoice> {
	const profile = await profileFor(ctx.db, ctx, input.profileId)
	const issueDate = input.issueDate ?? dayOf(ctx.now())
	const dueDate = input.dueDate === undefined ? addDays(issueDate, profile.details.paymentTermsDays) : input.dueDate
	if (dueDate !== null && dueDate < issueDate) {
		throw invalid([{ field: 'dueDate', message: 'The due date is before the issue date.' }])
	}
	const draft = {
		currency: input.currency ?? profile.details.currency,
		lines: input.lines ?? [],
		discounts: input.discounts ?? [],
	}
	const rates = await ratesOfLines(ctx.db, ctx.orgId, profile.id, draft.lines)
	const totals = totalsOf(draft, moneyRates(rates.values()), {
		lineRounding: profile.details.isLineLevelVatRounding,
		isCredit: false,
	})
	const [record] = await ctx.db
		.insert(invoiceDocuments)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			profileId: profile.id,
			kind: 'invoice',
			status: 'draft',
			clientRow: input.clientRow ?? null,
			client: input.clientRow ? await clientFromRow(ctx.db, ctx.orgId, input.clientRow) : (input.client ?? null),
			...draft,
			issueDate,
			dueDate,
			notes: input.notes ?? null,
			totals,
			totalMinor: totals.taxInclusiveAmount.minor,
			createdBy: ctx.userId,
			createdAt: ctx.now(),
			updatedAt: ctx.now(),
		})
		.returning()
	return toInvoice(found(record), dayOf(ctx.now()))
}

/** A draft of the organization, locked; a finalized document is a 409 saying to issue a credit note. */
async function draftRecord(tx: Db, ctx: InvoicesCtx, id: string): Promise<DocumentRecord> {
	const record = await documentRecord(tx, ctx.orgId, id, true)
	if (record.status !== 'draft') {
		throw new AppError('CONFLICT', { detail: documentRefusals.immutable })
	}
	return record
}

/** The client a change leaves: copied from the row when one is (still) named, else as sent. */
async function clientChange(tx: Db, ctx: InvoicesCtx, input: UpdateInput, draft: DocumentRecord) {
	const source = input.clientRow === undefined ? draft.clientRow : input.clientRow
	if (source) {
		return { client: await clientFromRow(tx, ctx.orgId, source) }
	}
	return input.client !== undefined ? { client: input.client } : {}
}

export async function updateInvoice(ctx: InvoicesCtx, id: string, input: UpdateInput): Promise<Invoice> {
	const record = await ctx.db.transaction(async (tx) => {
		const draft = await draftRecord(tx, ctx, id)
		const profile = await profileFor(tx, ctx, input.profileId ?? draft.profileId)
		const profileId = profile.id
		const lineRounding = profile.details.isLineLevelVatRounding
		const next = {
			currency: input.currency ?? draft.currency,
			lines: input.lines ?? draft.lines,
			discounts: input.discounts ?? draft.discounts,
		}
		const rates = await ratesOfLines(tx, ctx.orgId, profileId, next.lines)
		const totals = totalsOf(next, moneyRates(rates.values()), { lineRounding, isCredit: false })
		const issueDate = input.issueDate ?? draft.issueDate
		const dueDate = input.dueDate === undefined ? draft.dueDate : input.dueDate
		if (dueDate !== null && dueDate < issueDate) {
			throw invalid([{ field: 'dueDate', message: 'The due date is before the issue date.' }])
		}
		const [updated] = await tx
			.update(invoiceDocuments)
			.set({
				profileId,
				...next,
				...(input.clientRow !== undefined ? { clientRow: input.clientRow } : {}),
				...(await clientChange(tx, ctx, input, draft)),
				issueDate,
				dueDate,
				...(input.notes !== undefined ? { notes: input.notes } : {}),
				totals,
				totalMinor: totals.taxInclusiveAmount.minor,
				updatedAt: ctx.now(),
			})
			.where(eq(invoiceDocuments.id, draft.id))
			.returning()
		return found(updated)
	})
	return toInvoice(record, dayOf(ctx.now()))
}

export async function deleteInvoice(ctx: InvoicesCtx, id: string): Promise<void> {
	await ctx.db.transaction(async (tx) => {
		const draft = await draftRecord(tx, ctx, id)
		await tx.delete(invoiceDocuments).where(eq(invoiceDocuments.id, draft.id))
	})
}

/** The sender as the profile has it now, frozen into a finalized document. */
export function senderOf(profile: ProfileRecord): FrozenSender {
	const { address, taxIds, email, bank, notes, footer, template, locale, paymentTermsDays, isLineLevelVatRounding } =
		profile.details
	return {
		legalName: profile.legalName,
		address,
		taxIds,
		email,
		bank,
		notes,
		footer,
		template,
		locale,
		logoBlobId: profile.logoBlobId,
		paymentTermsDays,
		isLineLevelVatRounding,
	}
}

function clientProblems(client: InvoiceClient | null, lines: InvoiceLine[]): FieldError[] {
	const errors: FieldError[] = []
	if (!client) {
		errors.push({ field: 'client', message: 'Say who the invoice is for before finalizing it.' })
	}
	if (lines.length === 0) {
		errors.push({ field: 'lines', message: 'Add a line before finalizing.' })
	}
	return errors
}

/**
 * Numbers a draft and freezes it, in one transaction: the number is taken last, so the
 * sequence's counter row stays locked as briefly as possible (decision 032), and a failure
 * anywhere rolls the number back with the rest.
 */
export async function finalizeInvoice(ctx: InvoicesCtx, id: string): Promise<Invoice> {
	const record = await ctx.db.transaction(async (tx) => {
		const draft = await documentRecord(tx, ctx.orgId, id, true)
		if (draft.status !== 'draft') {
			throw new AppError('CONFLICT', { detail: documentRefusals.notDraft })
		}
		// The client as the row holds it now, frozen from here on.
		const client = draft.clientRow ? await clientFromRow(tx, ctx.orgId, draft.clientRow) : draft.client
		const problems = clientProblems(client, draft.lines)
		if (problems.length > 0) {
			throw invalid(problems)
		}
		const [profile] = await tx
			.select()
			.from(invoiceProfiles)
			.where(and(eq(invoiceProfiles.id, draft.profileId), eq(invoiceProfiles.organizationId, ctx.orgId)))
		const sender = senderOf(found(profile))
		const rates = await ratesOfLines(tx, ctx.orgId, draft.profileId, draft.lines)
		const totals = totalsOf(draft, moneyRates(rates.values()), {
			lineRounding: sender.isLineLevelVatRounding,
			isCredit: false,
		})
		const { number } = await nextNumber(tx, ctx.orgId, draft.profileId, 'invoice', draft.issueDate)
		const now = ctx.now()
		const [finalized] = await tx
			.update(invoiceDocuments)
			.set({
				status: 'finalized',
				number,
				client,
				totals,
				totalMinor: totals.taxInclusiveAmount.minor,
				taxRates: [...rates.values()],
				sender,
				publicToken: newPublicToken(),
				finalizedAt: now,
				updatedAt: now,
			})
			.where(eq(invoiceDocuments.id, draft.id))
			.returning()
		await documentChanged(ctx, tx, found(finalized), { kind: 'finalized', detail: { number } })
		return found(finalized)
	})
	return toInvoice(record, dayOf(ctx.now()))
}

/** Records that a finalized invoice was sent (by hand; the e-mail sends it through this too). */
export async function markSent(ctx: InvoicesCtx, id: string): Promise<Invoice> {
	const record = await ctx.db.transaction(async (tx) => {
		const document = await documentRecord(tx, ctx.orgId, id, true)
		if (document.status === 'draft') {
			throw new AppError('CONFLICT', { detail: 'Finalize the invoice before sending it: a draft has no number.' })
		}
		if (document.status === 'void') {
			throw new AppError('CONFLICT', { detail: 'This invoice is void.' })
		}
		const now = ctx.now()
		const [updated] = await tx
			.update(invoiceDocuments)
			.set({
				sentAt: document.sentAt ?? now,
				status: document.status === 'finalized' ? 'sent' : document.status,
				updatedAt: now,
			})
			.where(eq(invoiceDocuments.id, document.id))
			.returning()
		await documentChanged(ctx, tx, found(updated), { kind: 'sent', detail: { by: 'hand' } })
		return found(updated)
	})
	return toInvoice(record, dayOf(ctx.now()))
}

/** Voids a finalized invoice without payments; its number stays issued (no gap, no reuse). */
export async function voidInvoice(ctx: InvoicesCtx, id: string): Promise<Invoice> {
	const record = await ctx.db.transaction(async (tx) => {
		const document = await documentRecord(tx, ctx.orgId, id, true)
		if (document.status === 'draft') {
			throw new AppError('CONFLICT', { detail: 'A draft has no number: delete it instead.' })
		}
		if (document.status === 'void') {
			return document
		}
		if (document.paidMinor !== 0) {
			throw new AppError('CONFLICT', {
				detail: 'Payments were recorded for it: delete them first, or issue a credit note.',
			})
		}
		const now = ctx.now()
		const [updated] = await tx
			.update(invoiceDocuments)
			.set({ status: 'void', voidedAt: now, updatedAt: now })
			.where(eq(invoiceDocuments.id, document.id))
			.returning()
		await documentChanged(ctx, tx, found(updated), { kind: 'voided' })
		return found(updated)
	})
	return toInvoice(record, dayOf(ctx.now()))
}

/**
 * Adds lines to a draft (from workspace rows or tracked time), with the time rows they bill,
 * and recomputes its totals; the lines' rates must be the profile's as for any line.
 */
export async function appendLines(
	ctx: InvoicesCtx,
	id: string,
	lines: InvoiceLine[],
	billed: BilledTime | null,
): Promise<Invoice> {
	const record = await ctx.db.transaction(async (tx) => {
		const draft = await draftRecord(tx, ctx, id)
		const profile = await profileFor(tx, ctx, draft.profileId)
		const next = { currency: draft.currency, lines: [...draft.lines, ...lines], discounts: draft.discounts }
		const rates = await ratesOfLines(tx, ctx.orgId, draft.profileId, next.lines)
		const totals = totalsOf(next, moneyRates(rates.values()), {
			lineRounding: profile.details.isLineLevelVatRounding,
			isCredit: false,
		})
		let billedTime = draft.billedTime
		if (billed) {
			const taken = new Set(
				billedTime.filter((one) => one.databaseId === billed.databaseId).flatMap((one) => one.externalRowIds),
			)
			if (billed.externalRowIds.some((row) => taken.has(row))) {
				throw new AppError('CONFLICT', { detail: 'This time is on the invoice already.' })
			}
			billedTime = [...billedTime, billed]
		}
		const [updated] = await tx
			.update(invoiceDocuments)
			.set({ lines: next.lines, totals, totalMinor: totals.taxInclusiveAmount.minor, billedTime, updatedAt: ctx.now() })
			.where(eq(invoiceDocuments.id, draft.id))
			.returning()
		return found(updated)
	})
	return toInvoice(record, dayOf(ctx.now()))
}

/** The profile's default rate (or its first), for lines made from rows when none is chosen. */
export async function defaultRateId(ctx: InvoicesCtx, profileId: string): Promise<string | null> {
	const rates = (await taxRatesOf(ctx.db, ctx.orgId, [profileId])).get(profileId) ?? []
	return (rates.find((rate) => rate.isDefault) ?? rates[0])?.id ?? null
}
