// A stored invoice or credit note as an e-invoice: UBL (Peppol BIS Billing 3.0), CII (EN 16931)
// or a Factur-X PDF, from the same document model the PDF is drawn from (decision 034). A
// document that cannot be one (a draft, three-decimal currencies, no client address) is a 400
// whose fields say what to fix.

import type { InvoicesCtx } from './invoices.deps.ts'
import { invoiceDocumentOf } from './invoices.documents.pdf.ts'
import { invalid } from './invoices.documents.ts'
import { type EInvoiceSyntax, eInvoiceXml } from './invoices.einvoice.ts'
import { renderFacturXPdf } from './invoices.einvoice-facturx.ts'

export type EInvoiceFormat = EInvoiceSyntax | 'facturx'

export async function invoiceEInvoice(
	ctx: InvoicesCtx,
	id: string,
	format: EInvoiceFormat,
): Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string; fileName: string }> {
	const document = await invoiceDocumentOf(ctx, id)
	const base = (document.number ?? 'draft').replace(/[^\w.-]/g, '_')
	if (format === 'facturx') {
		const result = await renderFacturXPdf(document, ctx.now())
		if (!result.ok) {
			throw invalid(result.errors)
		}
		return { body: new Uint8Array(result.pdf), contentType: 'application/pdf', fileName: `${base}.pdf` }
	}
	const result = eInvoiceXml(document, format)
	if (!result.ok) {
		throw invalid(result.errors)
	}
	return {
		body: new TextEncoder().encode(result.xml),
		contentType: 'application/xml; charset=utf-8',
		fileName: `${base}-${format}.xml`,
	}
}
