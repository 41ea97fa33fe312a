// Recurring invoices (decision 037): on each date of a schedule the source invoice is copied as a
// new invoice dated that day (same profile, client — read from its row again when it is one —,
// lines, discounts, notes, currency; due after the profile's payment terms), left a draft or
// finalized and sent. The job takes one due series at a time with `FOR UPDATE SKIP LOCKED` and
// advances its next date in the same transaction as the copy, so two instances never produce
// the same run; missed runs are caught up one by one, each dated its own day. A run that fails
// (a retired tax rate, a client row gone) pauses the series and says why on it, instead of
// failing again every hour. A series whose first day is today produces that run when it is made.

import { randomUUID } from 'node:crypto'
import { minorToDecimal } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import type {
	createRecurrenceSchema,
	Recurrence,
	updateRecurrenceSchema,
} from '@blocksmith/contracts/invoice-recurring.ts'
import { and, asc, desc, eq, lte, notExists, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { organizationDeletions } from '#src/core/deletion/deletion.schema.ts'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import type { InvoicesCtx, InvoicesDeps } from './invoices.deps.ts'
import { clientFromRow } from './invoices.documents.clients.ts'
import {
	type DocumentRecord,
	invoiceDocuments,
	invoiceEvents,
	invoiceRecurrences,
	type RecurrenceRecord,
} from './invoices.documents.schema.ts'
import { documentRecord, finalizeInvoice, invalid, moneyRates, toInvoice, totalsOf } from './invoices.documents.ts'
import { documentChanged } from './invoices.lifecycle.ts'
import { dayOf } from './invoices.numbering.ts'
import { addDays, occurrenceAfter, scheduleFrom } from './invoices.recurring-dates.ts'
import { invoiceProfiles } from './invoices.schema.ts'
import { sendInvoice } from './invoices.send.ts'
import { resolveTaxRates } from './invoices.tax-rates.ts'

type CreateInput = z.output<typeof createRecurrenceSchema>
type UpdateInput = z.output<typeof updateRecurrenceSchema>

/** The source invoice's figures shown with a series, read with it in one query. */
const sourceColumns = {
	number: invoiceDocuments.number,
	status: invoiceDocuments.status,
	clientName: sql<string | null>`${invoiceDocuments.client} ->> 'name'`,
	currency: invoiceDocuments.currency,
	totalMinor: invoiceDocuments.totalMinor,
}
type SourceSummary = {
	number: string | null
	status: Invoice['status']
	clientName: string | null
	currency: string
	totalMinor: number
}

function toRecurrence(
	record: RecurrenceRecord,
	source: SourceSummary,
	lastError: { message: string; at: string } | null,
): Recurrence {
	const { number, status, clientName, currency, totalMinor } = source
	return {
		id: record.id,
		sourceId: record.sourceId,
		source: {
			number,
			status,
			clientName,
			currency,
			total: { minor: totalMinor, decimal: minorToDecimal(totalMinor, currency) },
		},
		frequency: record.frequency,
		interval: record.interval,
		anchorDate: record.anchorDate,
		nextDate: record.nextDate,
		endDate: record.endDate,
		remaining: record.remaining,
		action: record.action,
		isActive: record.isActive,
		runs: record.runs,
		lastRunAt: record.lastRunAt?.toISOString() ?? null,
		lastDocumentId: record.lastDocumentId,
		lastError,
		createdAt: record.createdAt.toISOString(),
		updatedAt: record.updatedAt.toISOString(),
	}
}

/**
 * The last run's failure of each series, from the events: a run that worked is an event too
 * (on the invoice it made), so a failure is only shown until the next run works.
 */
async function lastErrors(db: Db, orgId: string, recurrenceId?: string) {
	const key = sql<string>`${invoiceEvents.detail} ->> 'recurrenceId'`
	const rows = await db
		.selectDistinctOn([key], { recurrenceId: key, detail: invoiceEvents.detail, at: invoiceEvents.at })
		.from(invoiceEvents)
		.where(
			and(
				eq(invoiceEvents.organizationId, orgId),
				eq(invoiceEvents.kind, 'recurring'),
				recurrenceId ? sql`${key} = ${recurrenceId}` : undefined,
			),
		)
		// A run's failure to send comes after the run's own event: on a tie of the clock, the failure.
		.orderBy(key, desc(invoiceEvents.at), sql`(${invoiceEvents.detail} ->> 'error') is not null desc`)
	return new Map(
		rows
			.filter((row) => typeof row.detail.error === 'string')
			.map((row) => [row.recurrenceId, { message: row.detail.error as string, at: row.at.toISOString() }]),
	)
}

export async function listRecurrences(ctx: InvoicesCtx): Promise<Recurrence[]> {
	const rows = await ctx.db
		.select({ recurrence: invoiceRecurrences, source: sourceColumns })
		.from(invoiceRecurrences)
		.innerJoin(invoiceDocuments, eq(invoiceDocuments.id, invoiceRecurrences.sourceId))
		.where(eq(invoiceRecurrences.organizationId, ctx.orgId))
		.orderBy(sql`${invoiceRecurrences.nextDate} asc nulls last`, asc(invoiceRecurrences.createdAt))
	const errors = await lastErrors(ctx.db, ctx.orgId)
	return rows.map((row) => toRecurrence(row.recurrence, row.source, errors.get(row.recurrence.id) ?? null))
}

export async function getRecurrence(ctx: InvoicesCtx, id: string): Promise<Recurrence> {
	const [row] = await ctx.db
		.select({ recurrence: invoiceRecurrences, source: sourceColumns })
		.from(invoiceRecurrences)
		.innerJoin(invoiceDocuments, eq(invoiceDocuments.id, invoiceRecurrences.sourceId))
		.where(and(eq(invoiceRecurrences.id, id), eq(invoiceRecurrences.organizationId, ctx.orgId)))
	const { recurrence, source } = found(row, 'No such recurring invoice.')
	const errors = await lastErrors(ctx.db, ctx.orgId, id)
	return toRecurrence(recurrence, source, errors.get(id) ?? null)
}

async function lockedRecurrence(tx: Db, orgId: string, id: string): Promise<RecurrenceRecord> {
	const [record] = await tx
		.select()
		.from(invoiceRecurrences)
		.where(and(eq(invoiceRecurrences.id, id), eq(invoiceRecurrences.organizationId, orgId)))
		.for('update')
	return found(record, 'No such recurring invoice.')
}

export async function createRecurrence(ctx: InvoicesCtx, input: CreateInput): Promise<Recurrence> {
	const [source] = await ctx.db
		.select({ kind: invoiceDocuments.kind })
		.from(invoiceDocuments)
		.where(and(eq(invoiceDocuments.id, input.sourceId), eq(invoiceDocuments.organizationId, ctx.orgId)))
	if (!source) {
		throw invalid([{ field: 'sourceId', message: 'Choose an invoice of this organization.' }])
	}
	if (source.kind !== 'invoice') {
		throw invalid([{ field: 'sourceId', message: 'A credit note cannot recur: choose an invoice.' }])
	}
	const today = dayOf(ctx.now())
	if (input.startDate < today) {
		throw invalid([{ field: 'startDate', message: 'Start today or later.' }])
	}
	const endDate = input.endDate ?? null
	if (endDate !== null && endDate < input.startDate) {
		throw invalid([{ field: 'endDate', message: 'The end date is before the start date.' }])
	}
	const now = ctx.now()
	const id = randomUUID()
	await ctx.db.insert(invoiceRecurrences).values({
		id,
		organizationId: ctx.orgId,
		sourceId: input.sourceId,
		frequency: input.frequency,
		interval: input.interval,
		anchorDate: input.startDate,
		nextDate: input.startDate,
		endDate,
		remaining: input.count ?? null,
		action: input.action,
		createdBy: ctx.userId,
		createdAt: now,
		updatedAt: now,
	})
	if (input.startDate === today) {
		// Its first day is today: that invoice is produced now, as the job would on the day. The
		// job runs hourly, so waiting for it would leave today's invoice missing for up to an hour.
		const run = await ctx.db.transaction(async (tx) => {
			const record = await lockedRecurrence(tx, ctx.orgId, id)
			// A job may have taken it between the insert and the lock: then it is no longer due.
			if (!record.isActive || record.nextDate !== today) {
				return null
			}
			const document = await runScheduled(tx, ctx, record, today)
			return document ? { record, document } : null
		})
		if (run) {
			await deliver(ctx, run.record, run.document)
		}
	}
	return getRecurrence(ctx, id)
}

/** A change of schedule starts again from `startDate` (or the next date); resuming skips the days missed while paused. */
export async function updateRecurrence(ctx: InvoicesCtx, id: string, input: UpdateInput): Promise<Recurrence> {
	const today = dayOf(ctx.now())
	await ctx.db.transaction(async (tx) => {
		const record = await lockedRecurrence(tx, ctx.orgId, id)
		const reschedule = input.startDate !== undefined || input.frequency !== undefined || input.interval !== undefined
		if (input.startDate !== undefined && input.startDate < today) {
			throw invalid([{ field: 'startDate', message: 'Start today or later.' }])
		}
		const frequency = input.frequency ?? record.frequency
		const interval = input.interval ?? record.interval
		let anchorDate = record.anchorDate
		let nextDate = record.nextDate
		if (reschedule) {
			anchorDate = input.startDate ?? (record.nextDate && record.nextDate >= today ? record.nextDate : today)
			nextDate = anchorDate
		}
		const isActive = input.isActive ?? record.isActive
		if (isActive && nextDate === null) {
			throw invalid([{ field: 'isActive', message: 'This series has ended: give a new startDate to start it again.' }])
		}
		if (isActive && !record.isActive && nextDate !== null && nextDate < today) {
			// Resumed after a pause: the days missed meanwhile are skipped, not produced all at once.
			nextDate = scheduleFrom({ anchorDate, frequency, interval }, today)
		}
		const endDate = input.endDate === undefined ? record.endDate : input.endDate
		if (endDate !== null && nextDate !== null && endDate < nextDate) {
			throw invalid([{ field: 'endDate', message: 'The end date is before the next run.' }])
		}
		await tx
			.update(invoiceRecurrences)
			.set({
				frequency,
				interval,
				anchorDate,
				nextDate,
				endDate,
				...(input.count !== undefined ? { remaining: input.count } : {}),
				...(input.action !== undefined ? { action: input.action } : {}),
				isActive,
				updatedAt: ctx.now(),
			})
			.where(eq(invoiceRecurrences.id, record.id))
	})
	return getRecurrence(ctx, id)
}

export async function deleteRecurrence(ctx: InvoicesCtx, id: string): Promise<void> {
	const deleted = await ctx.db
		.delete(invoiceRecurrences)
		.where(and(eq(invoiceRecurrences.id, id), eq(invoiceRecurrences.organizationId, ctx.orgId)))
		.returning({ id: invoiceRecurrences.id })
	found(deleted[0], 'No such recurring invoice.')
}

/** The copy of the source dated `issueDate`, finalized too when the series sends (in `tx`). */
async function produce(ctx: InvoicesCtx, tx: Db, recurrence: RecurrenceRecord, issueDate: string) {
	const source = await documentRecord(tx, ctx.orgId, recurrence.sourceId)
	const [profile] = await tx
		.select()
		.from(invoiceProfiles)
		.where(and(eq(invoiceProfiles.id, source.profileId), eq(invoiceProfiles.organizationId, ctx.orgId)))
	const { details } = found(profile, 'The settings profile of the invoice is gone.')
	const lines = source.lines.map(({ creditsLine: _credits, ...line }) => line)
	const refs = lines.map((line, index) => ({ field: `lines.${index}.taxRateId`, id: line.taxRateId }))
	const rates = await resolveTaxRates(tx, ctx.orgId, source.profileId, refs)
	const copy = { currency: source.currency, lines, discounts: source.discounts }
	const totals = totalsOf(copy, moneyRates(rates.values()), {
		lineRounding: details.isLineLevelVatRounding,
		isCredit: false,
	})
	const now = ctx.now()
	const [record] = await tx
		.insert(invoiceDocuments)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			profileId: source.profileId,
			kind: 'invoice',
			status: 'draft',
			clientRow: source.clientRow,
			client: source.clientRow ? await clientFromRow(tx, ctx.orgId, source.clientRow) : source.client,
			...copy,
			issueDate,
			dueDate: addDays(issueDate, details.paymentTermsDays),
			notes: source.notes,
			totals,
			totalMinor: totals.taxInclusiveAmount.minor,
			recurrenceId: recurrence.id,
			createdBy: recurrence.createdBy,
			createdAt: now,
			updatedAt: now,
		})
		.returning()
	const draft = found(record)
	await documentChanged(ctx, tx, draft, {
		kind: 'recurring',
		detail: { recurrenceId: recurrence.id, runDate: issueDate },
	})
	if (recurrence.action === 'send') {
		// In the run's transaction (a savepoint): the number is taken only if the run commits.
		await finalizeInvoice({ ...ctx, db: tx }, draft.id)
	}
	return draft
}

/** Moves the series past `consumed` (the scheduled day a run used), ending it after its count or end date. */
async function advance(tx: Db, ctx: InvoicesCtx, recurrence: RecurrenceRecord, consumed: string, documentId: string) {
	const next = occurrenceAfter(recurrence, consumed)
	const remaining = recurrence.remaining === null ? null : recurrence.remaining - 1
	const ended = remaining === 0 || (recurrence.endDate !== null && next > recurrence.endDate)
	await tx
		.update(invoiceRecurrences)
		.set({
			nextDate: ended ? null : next,
			isActive: ended ? false : recurrence.isActive,
			remaining,
			runs: recurrence.runs + 1,
			lastRunAt: ctx.now(),
			lastDocumentId: documentId,
			updatedAt: ctx.now(),
		})
		.where(eq(invoiceRecurrences.id, recurrence.id))
}

function messageOf(error: unknown): string {
	if (error instanceof AppError) {
		const first = error.errors?.[0]
		return first ? `${first.field}: ${first.message}` : error.detail
	}
	return 'The invoice could not be produced (an unexpected error, logged).'
}

/** Pauses the series and says why on it (an event of its source), in the run's transaction. */
async function failed(tx: Db, ctx: InvoicesCtx, recurrence: RecurrenceRecord, runDate: string, error: unknown) {
	ctx.log.warn({ err: error, recurrenceId: recurrence.id, runDate }, 'recurring invoice run failed; series paused')
	await tx
		.update(invoiceRecurrences)
		.set({ isActive: false, updatedAt: ctx.now() })
		.where(eq(invoiceRecurrences.id, recurrence.id))
	const source = await documentRecord(tx, ctx.orgId, recurrence.sourceId)
	await documentChanged(ctx, tx, source, {
		kind: 'recurring',
		detail: { recurrenceId: recurrence.id, runDate, error: messageOf(error) },
	})
}

/**
 * Sends a finalized run by e-mail to the client's address (with the PDF, through the mail
 * queue), after its transaction committed. A client without an address would fail every run
 * the same way, so the series pauses and says so; the invoice stays issued, to send by hand.
 */
async function deliver(ctx: InvoicesCtx, recurrence: RecurrenceRecord, document: DocumentRecord): Promise<void> {
	if (recurrence.action !== 'send') {
		return
	}
	try {
		await sendInvoice(ctx, document.id, {})
	} catch (error) {
		await ctx.db.transaction((tx) => failed(tx, ctx, recurrence, document.issueDate, error))
	}
}

/**
 * The run of `recurrence` (locked by the caller) scheduled for `runDate`, in `tx`: the copy and
 * the series advanced, or, when the copy fails, the series paused with the reason.
 */
async function runScheduled(tx: Db, ctx: InvoicesCtx, recurrence: RecurrenceRecord, runDate: string) {
	try {
		const document = await tx.transaction((run) => produce({ ...ctx, db: run }, run, recurrence, runDate))
		await advance(tx, ctx, recurrence, runDate, document.id)
		return document
	} catch (error) {
		await failed(tx, ctx, recurrence, runDate, error)
		return null
	}
}

/** A job acts for nobody: its events have no actor. */
function jobCtx(deps: InvoicesDeps, recurrence: RecurrenceRecord): InvoicesCtx {
	return { ...deps, orgId: recurrence.organizationId, userId: '', role: 'owner' }
}

/**
 * Produces every run due by today, one per transaction; returns how many invoices it made.
 * Safe to run in several processes at once: a series being run elsewhere is skipped (its row
 * is locked), and once that commits its next date is no longer due.
 */
export async function runDue(deps: InvoicesDeps, maxRuns = 1000): Promise<number> {
	const today = dayOf(deps.now())
	let produced = 0
	for (let step = 0; step < maxRuns; step++) {
		const outcome = await deps.db.transaction(async (tx) => {
			const [recurrence] = await tx
				.select()
				.from(invoiceRecurrences)
				.where(
					and(
						eq(invoiceRecurrences.isActive, true),
						lte(invoiceRecurrences.nextDate, today),
						// An organization scheduled for deletion issues nothing (decision 040); restored, its
						// series catch up like any run that came due while no worker ran.
						notExists(
							tx
								.select({ organizationId: organizationDeletions.organizationId })
								.from(organizationDeletions)
								.where(eq(organizationDeletions.organizationId, invoiceRecurrences.organizationId)),
						),
					),
				)
				.orderBy(asc(invoiceRecurrences.nextDate))
				.limit(1)
				.for('update', { skipLocked: true })
			if (!recurrence?.nextDate) {
				return null
			}
			const ctx = jobCtx(deps, recurrence)
			const document = await runScheduled(tx, ctx, recurrence, recurrence.nextDate)
			return { recurrence, document, ctx }
		})
		if (!outcome) {
			break
		}
		if (outcome.document) {
			produced += 1
			await deliver(outcome.ctx, outcome.recurrence, outcome.document)
		}
	}
	return produced
}

/**
 * "Send now": the next run produced at once, dated today; the series then continues after the
 * day that run was scheduled for. A failure is the caller's answer (a 400 naming the field).
 */
export async function runNow(ctx: InvoicesCtx, id: string): Promise<Invoice> {
	const today = dayOf(ctx.now())
	const { recurrence, document } = await ctx.db.transaction(async (tx) => {
		const record = await lockedRecurrence(tx, ctx.orgId, id)
		if (!record.isActive || record.nextDate === null) {
			throw new AppError('CONFLICT', { detail: 'This series is paused or has ended: resume it first.' })
		}
		const made = await tx.transaction((run) => produce({ ...ctx, db: run }, run, record, today))
		await advance(tx, ctx, record, record.nextDate, made.id)
		return { recurrence: record, document: made }
	})
	await deliver(ctx, recurrence, document)
	return toInvoice(await documentRecord(ctx.db, ctx.orgId, document.id), today)
}

/** Hourly, and when a worker starts: every due run of every organization. */
export function createRecurringQueue(deps: () => InvoicesDeps): JobQueue<Record<string, never>> {
	return {
		name: 'invoice-recurring',
		options: { retryLimit: 0 },
		cron: '7 * * * *',
		runAtStart: true,
		handle: async () => {
			await runDue(deps())
		},
	}
}
