// Credit notes: the only way to correct a finalized invoice. A credit note copies lines of the
// invoice with negative quantities (all of them, or some, partly), is numbered from the
// profile's credit-note sequence in the same transaction, refers to the invoice, and keeps the
// invoice's rates and sender, so it mirrors the invoice's figures to the cent (half-up rounding
// is symmetric around zero). What each line has left to credit is what earlier credit notes of
// the invoice have not credited yet.

import { randomUUID } from 'node:crypto'
import { creditNoteDiscounts } from '@blocksmith/contracts/invoice-credit.ts'
import { parseDecimal } from '@blocksmith/contracts/invoice-decimal.ts'
import type { CreditNoteInput, Invoice, InvoiceLine } from '@blocksmith/contracts/invoice-documents.ts'
import { and, eq } from 'drizzle-orm'
import { AppError, found } from '#src/lib/errors.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { invoiceDocuments } from './invoices.documents.schema.ts'
import { documentRecord, invalid, moneyRates, toInvoice, totalsOf } from './invoices.documents.ts'
import { documentChanged, newPublicToken } from './invoices.lifecycle.ts'
import { dayOf, nextNumber } from './invoices.numbering.ts'
import { settle } from './invoices.payments.ts'

/** An exact decimal of the money core (big.js, which only the contracts depend on). */
type Big = NonNullable<ReturnType<typeof parseDecimal>>

const quantityDecimals = 4

function parseQuantity(text: string): Big | null {
	return parseDecimal(text, quantityDecimals, 9)
}

export async function createCreditNote(ctx: InvoicesCtx, invoiceId: string, input: CreditNoteInput): Promise<Invoice> {
	const record = await ctx.db.transaction(async (tx) => {
		const invoice = await documentRecord(tx, ctx.orgId, invoiceId, true)
		if (invoice.kind !== 'invoice' || invoice.status === 'draft' || invoice.status === 'void') {
			throw new AppError('CONFLICT', {
				detail: 'Only a finalized invoice that is not void can be credited: change a draft instead.',
			})
		}
		const earlier = await tx
			.select({ lines: invoiceDocuments.lines, discounts: invoiceDocuments.discounts })
			.from(invoiceDocuments)
			.where(and(eq(invoiceDocuments.organizationId, ctx.orgId), eq(invoiceDocuments.correctsId, invoice.id)))
		const left = invoice.lines.map((line) => parseQuantity(line.quantity) as Big)
		for (const note of earlier) {
			for (const line of note.lines) {
				const index = line.creditsLine
				if (index !== null && index !== undefined && left[index]) {
					left[index] = left[index].plus(parseQuantity(line.quantity) as Big)
				}
			}
		}
		const wanted =
			input.lines ??
			left.flatMap((rest, line) => (rest.gt('0') ? [{ line, quantity: undefined as string | undefined }] : []))
		if (wanted.length === 0) {
			throw new AppError('CONFLICT', { detail: 'Every line of this invoice was credited already.' })
		}
		const errors: { field: string; message: string }[] = []
		const lines: InvoiceLine[] = []
		wanted.forEach((want, index) => {
			const source = invoice.lines[want.line]
			const rest = left[want.line]
			if (!source || !rest) {
				errors.push({ field: `lines.${index}.line`, message: 'The invoice has no such line.' })
				return
			}
			const quantity = want.quantity === undefined ? rest : parseQuantity(want.quantity)
			if (!quantity || quantity.lte('0') || quantity.gt(rest)) {
				errors.push({
					field: `lines.${index}.quantity`,
					message: `Credit more than 0 and at most what is left of the line (${rest.toFixed()}).`,
				})
				return
			}
			if (source.discount?.kind === 'amount' && !quantity.eq(parseQuantity(source.quantity) as Big)) {
				errors.push({
					field: `lines.${index}.quantity`,
					message: 'This line has a discount of a fixed amount: credit the whole line.',
				})
				return
			}
			lines.push({ ...source, quantity: quantity.times('-1').toFixed(), creditsLine: want.line })
			left[want.line] = rest.minus(quantity)
		})
		if (new Set(wanted.map((want) => want.line)).size !== wanted.length) {
			errors.push({ field: 'lines', message: 'List each line once.' })
		}
		if (errors.length > 0) {
			throw invalid(errors)
		}
		const sender = found(invoice.sender)
		const rates = moneyRates(invoice.taxRates ?? [])
		const options = { lineRounding: sender.isLineLevelVatRounding, isCredit: true }
		const isWhollyCredited = left.every((rest) => rest.eq('0'))
		// An amount discount is carried as its share for the credited lines (decision 033).
		const creditedLines = totalsOf({ currency: invoice.currency, lines, discounts: [] }, rates, options)
		const invoiceTotals = found(invoice.totals)
		const discounts = creditNoteDiscounts({
			currency: invoice.currency,
			discounts: invoice.discounts,
			invoiceLineNetMinor: invoiceTotals.lineNetTotal.minor,
			creditedLineNetMinor: -creditedLines.lineNetTotal.minor,
			earlier: earlier.map((note) => note.discounts),
			isLast: isWhollyCredited,
			rounding: invoiceTotals.rounding,
		})
		const totals = totalsOf({ currency: invoice.currency, lines, discounts }, rates, options)
		const issueDate = input.issueDate ?? dayOf(ctx.now())
		const { number } = await nextNumber(tx, ctx.orgId, invoice.profileId, 'credit_note', issueDate)
		const now = ctx.now()
		const [note] = await tx
			.insert(invoiceDocuments)
			.values({
				id: randomUUID(),
				organizationId: ctx.orgId,
				profileId: invoice.profileId,
				kind: 'credit_note',
				status: 'finalized',
				number,
				correctsId: invoice.id,
				clientRow: invoice.clientRow,
				client: invoice.client,
				currency: invoice.currency,
				issueDate,
				dueDate: null,
				lines,
				discounts,
				notes: input.notes ?? null,
				totals,
				totalMinor: totals.taxInclusiveAmount.minor,
				taxRates: invoice.taxRates,
				sender,
				publicToken: newPublicToken(),
				finalizedAt: now,
				createdBy: ctx.userId,
				createdAt: now,
				updatedAt: now,
			})
			.returning()
		await documentChanged(ctx, tx, found(note), { kind: 'finalized', detail: { number, corrects: invoice.number } })
		// What is credited is no longer due: the invoice's amount due and status follow. Once every
		// line is credited the whole invoice is, even when the notes' own VAT rounding makes them
		// add up to a cent less than it: a cent would otherwise stay due forever.
		const [credited] = await tx
			.update(invoiceDocuments)
			.set({
				creditedMinor: isWhollyCredited ? invoice.totalMinor : invoice.creditedMinor - totals.taxInclusiveAmount.minor,
			})
			.where(eq(invoiceDocuments.id, invoice.id))
			.returning()
		await settle(ctx, tx, found(credited), { kind: 'credited', detail: { creditNote: number } })
		return found(note)
	})
	return toInvoice(record, dayOf(ctx.now()))
}
