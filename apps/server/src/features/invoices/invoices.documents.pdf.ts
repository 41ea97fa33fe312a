// An invoice or credit note drawn as a PDF from what is stored: a finalized document with the
// sender, client and rates frozen when it was numbered; a draft with its profile as it is now.
// The figures are the money core's for the stored lines, with the payments recorded so far as
// the amount paid, so the PDF reads what the list and the e-invoice read.

import { minorToDecimal } from '@blocksmith/contracts/invoice-currencies.ts'
import type { TaxRate } from '@blocksmith/contracts/invoices.ts'
import { and, eq, inArray } from 'drizzle-orm'
import { found } from '#src/lib/errors.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { invoiceDocuments } from './invoices.documents.schema.ts'
import { documentRecord, moneyRates, senderOf, totalsOf } from './invoices.documents.ts'
import { renderInvoicePdf } from './invoices.pdf.ts'
import type { InvoiceDocument } from './invoices.pdf-model.ts'
import { invoiceProfiles, invoiceTaxRates } from './invoices.schema.ts'
import { logoOf } from './invoices.templates.ts'

function termsText(days: number): string {
	return days === 0 ? 'Payable on receipt.' : `Payable within ${days} days, without deduction.`
}

/** The document model of a stored invoice, as the PDF and the e-invoice read it. */
export async function invoiceDocumentOf(ctx: InvoicesCtx, id: string): Promise<InvoiceDocument> {
	const record = await documentRecord(ctx.db, ctx.orgId, id)
	let sender = record.sender
	let rates = record.taxRates
	if (!sender || !rates) {
		const [profile] = await ctx.db
			.select()
			.from(invoiceProfiles)
			.where(and(eq(invoiceProfiles.id, record.profileId), eq(invoiceProfiles.organizationId, ctx.orgId)))
		sender = senderOf(found(profile))
		// A draft's rates as they are now, retired ones too: a GET draws what is saved, and the
		// draft is told about a retired rate when it is changed or finalized.
		const ids = [...new Set(record.lines.map((line) => line.taxRateId))]
		const rows =
			ids.length === 0
				? []
				: await ctx.db
						.select()
						.from(invoiceTaxRates)
						.where(
							and(
								eq(invoiceTaxRates.organizationId, ctx.orgId),
								eq(invoiceTaxRates.profileId, record.profileId),
								inArray(invoiceTaxRates.id, ids),
							),
						)
		rates = rows.map((row) => ({
			id: row.id,
			name: row.name,
			categoryCode: row.category as TaxRate['categoryCode'],
			rate: row.rate,
			exemptionReason: row.exemptionReason,
			exemptionReasonCode: row.exemptionReasonCode,
			isDefault: row.isDefault,
		}))
	}
	let corrects: string | null = null
	if (record.correctsId) {
		const [invoice] = await ctx.db
			.select({ number: invoiceDocuments.number })
			.from(invoiceDocuments)
			.where(and(eq(invoiceDocuments.id, record.correctsId), eq(invoiceDocuments.organizationId, ctx.orgId)))
		corrects = invoice?.number ?? null
	}
	const totals = totalsOf(record, moneyRates(rates), {
		lineRounding: sender.isLineLevelVatRounding,
		isCredit: record.kind === 'credit_note',
		paid: minorToDecimal(record.paidMinor, record.currency),
	})
	const { logoBlobId, paymentTermsDays, isLineLevelVatRounding: _, ...printed } = sender
	return {
		profile: { ...printed, logo: logoBlobId ? await logoOf(ctx, logoBlobId) : null },
		kind: record.kind === 'credit_note' ? 'creditNote' : 'invoice',
		corrects,
		number: record.number,
		issueDate: record.issueDate,
		dueDate: record.dueDate,
		client: record.client ?? { name: '', address: null, taxId: null, email: null },
		lines: record.lines.map(({ description, quantity, unit, unitPrice, discount, taxRateId }) => ({
			description,
			quantity,
			unit,
			unitPrice,
			discount,
			taxRateId,
		})),
		taxRates: rates,
		totals,
		paymentTerms: record.kind === 'invoice' ? termsText(paymentTermsDays) : null,
		// The public page, where the client views, downloads and pays it (finalized invoices only).
		paymentLink:
			record.kind === 'invoice' && record.publicToken && record.status !== 'void'
				? `${ctx.publicUrl}/i/${record.publicToken}`
				: null,
	}
}

export async function invoicePdf(ctx: InvoicesCtx, id: string): Promise<{ pdf: Buffer; name: string }> {
	const document = await invoiceDocumentOf(ctx, id)
	return { pdf: await renderInvoicePdf(document), name: document.number ?? 'draft' }
}
