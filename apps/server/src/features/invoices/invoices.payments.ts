// Payments of an invoice: our records are the truth for what was paid. Each change locks the
// invoice's row, so two payments recorded at once cannot together pay more than the total, and
// sets its status from the sum: partially paid, paid, or back to sent (or finalized).

import { randomUUID } from 'node:crypto'
import { decimalToMinor, minorToDecimal } from '@blocksmith/contracts/invoice-currencies.ts'
import type { createPaymentSchema, Payment } from '@blocksmith/contracts/invoice-documents.ts'
import { and, asc, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import {
	type DocumentRecord,
	invoiceDocuments,
	invoicePayments,
	type PaymentRecord,
} from './invoices.documents.schema.ts'
import { documentRecord, invalid } from './invoices.documents.ts'
import { documentChanged } from './invoices.lifecycle.ts'

type PaymentInput = z.output<typeof createPaymentSchema>

function toPayment(record: PaymentRecord, currency: string): Payment {
	return {
		id: record.id,
		invoiceId: record.documentId,
		date: record.date,
		amount: { minor: record.amountMinor, decimal: minorToDecimal(record.amountMinor, currency) },
		method: record.method as Payment['method'],
		note: record.note,
		createdAt: record.createdAt.toISOString(),
	}
}

/** An invoice that can take payments: finalized, not void, not a credit note. */
function assertPayable(document: DocumentRecord): void {
	if (document.kind !== 'invoice') {
		throw new AppError('CONFLICT', { detail: 'A credit note is not paid: record the refund on your side.' })
	}
	if (document.status === 'draft') {
		throw new AppError('CONFLICT', { detail: 'Finalize the invoice before recording a payment.' })
	}
	if (document.status === 'void') {
		throw new AppError('CONFLICT', { detail: 'This invoice is void.' })
	}
}

/**
 * Sums the payments again and sets the paid amount, the status and the paid date from it and
 * what credit notes took off: paid once payments and credits cover the total (with at least one
 * payment); void when credit notes alone cancelled it all; otherwise partially paid, sent or
 * finalized. Records the event and queues the write-back (`documentChanged`).
 */
export async function settle(
	ctx: Parameters<typeof documentChanged>[0],
	tx: Db,
	document: DocumentRecord,
	event: Parameters<typeof documentChanged>[3],
): Promise<DocumentRecord> {
	const now = ctx.now()
	const [sum] = await tx
		.select({
			paid: sql<string>`coalesce(sum(${invoicePayments.amountMinor}), 0)`,
			last: sql<string | null>`max(${invoicePayments.date})`,
		})
		.from(invoicePayments)
		.where(eq(invoicePayments.documentId, document.id))
	const paid = Number(found(sum).paid)
	const isCovered = document.totalMinor > 0 && paid + document.creditedMinor >= document.totalMinor
	const isPaid = isCovered && paid > 0
	const status =
		document.status === 'void'
			? 'void'
			: isPaid
				? 'paid'
				: isCovered
					? 'void'
					: paid > 0
						? 'partially_paid'
						: document.sentAt
							? 'sent'
							: 'finalized'
	const [settled] = await tx
		.update(invoiceDocuments)
		.set({
			paidMinor: paid,
			status,
			// The day of the payment that settled it, as a UTC midnight (a calendar day).
			paidAt: isPaid && sum?.last ? new Date(`${String(sum.last).slice(0, 10)}T00:00:00Z`) : null,
			voidedAt: status === 'void' ? (document.voidedAt ?? now) : null,
			updatedAt: now,
		})
		.where(eq(invoiceDocuments.id, document.id))
		.returning()
	await documentChanged(ctx, tx, found(settled), event)
	return found(settled)
}

/** What is left to pay: the total less payments and credit notes, never below zero. */
export function leftToPay(document: Pick<DocumentRecord, 'totalMinor' | 'paidMinor' | 'creditedMinor'>): number {
	return Math.max(0, document.totalMinor - document.paidMinor - document.creditedMinor)
}

export async function listPayments(ctx: InvoicesCtx, invoiceId: string): Promise<Payment[]> {
	const document = await documentRecord(ctx.db, ctx.orgId, invoiceId)
	const rows = await ctx.db
		.select()
		.from(invoicePayments)
		.where(and(eq(invoicePayments.documentId, document.id), eq(invoicePayments.organizationId, ctx.orgId)))
		.orderBy(asc(invoicePayments.date), asc(invoicePayments.createdAt))
	return rows.map((row) => toPayment(row, document.currency))
}

/**
 * Records a payment; more than is left to pay is a 400 naming `amount`. A payment made online
 * carries the provider's id (`externalId`): the same id again returns the payment already
 * recorded, so a webhook delivered twice pays once.
 */
export async function createPayment(
	ctx: InvoicesCtx,
	invoiceId: string,
	input: PaymentInput & { externalId?: string },
): Promise<Payment> {
	return ctx.db.transaction(async (tx) => {
		const document = await documentRecord(tx, ctx.orgId, invoiceId, true)
		if (input.externalId) {
			const [existing] = await tx
				.select()
				.from(invoicePayments)
				.where(and(eq(invoicePayments.externalId, input.externalId), eq(invoicePayments.documentId, document.id)))
			if (existing) {
				return toPayment(existing, document.currency)
			}
		}
		assertPayable(document)
		const parsed = decimalToMinor(input.amount, document.currency)
		if (!parsed.ok) {
			throw invalid([{ field: 'amount', message: parsed.message }])
		}
		const amount = Number(parsed.minor)
		if (amount <= 0) {
			throw invalid([{ field: 'amount', message: 'Enter an amount above zero.' }])
		}
		const left = leftToPay(document)
		if (amount > left) {
			throw invalid([
				{
					field: 'amount',
					message: `That is more than is left to pay (${minorToDecimal(left, document.currency)} ${document.currency}).`,
				},
			])
		}
		const [payment] = await tx
			.insert(invoicePayments)
			.values({
				id: randomUUID(),
				organizationId: ctx.orgId,
				documentId: document.id,
				date: input.date,
				amountMinor: amount,
				method: input.method,
				note: input.note,
				externalId: input.externalId ?? null,
				createdBy: ctx.userId || null,
				createdAt: ctx.now(),
			})
			.returning()
		await settle(ctx, tx, document, {
			kind: 'payment',
			detail: { amount: minorToDecimal(amount, document.currency), method: input.method, date: input.date },
		})
		return toPayment(found(payment), document.currency)
	})
}

export async function deletePayment(ctx: InvoicesCtx, invoiceId: string, paymentId: string): Promise<void> {
	await ctx.db.transaction(async (tx) => {
		const document = await documentRecord(tx, ctx.orgId, invoiceId, true)
		const deleted = await tx
			.delete(invoicePayments)
			.where(
				and(
					eq(invoicePayments.id, paymentId),
					eq(invoicePayments.documentId, document.id),
					eq(invoicePayments.organizationId, ctx.orgId),
				),
			)
			.returning({ id: invoicePayments.id })
		found(deleted[0], 'No such payment.')
		await settle(ctx, tx, document, { kind: 'payment_deleted' })
	})
}
