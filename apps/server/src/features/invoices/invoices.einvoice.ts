import type { FieldError } from '@blocksmith/contracts/errors.ts'
import { ciiXml } from './invoices.einvoice-cii.ts'
import { ublXml } from './invoices.einvoice-ubl.ts'
import type { InvoiceDocument } from './invoices.pdf-model.ts'

// E-invoices (EN 16931) from the same `InvoiceDocument` the PDF is drawn from: UBL 2.1 as
// Peppol BIS Billing 3.0 (invoices.einvoice-ubl.ts) and UN/CEFACT CII D16B in the EN 16931
// profile (invoices.einvoice-cii.ts), which Factur-X embeds (invoices.einvoice-facturx.ts).
// Every amount is the money core's decimal string as computed (`DocumentTotals`): nothing here
// adds, multiplies or rounds. Why we write the XML ourselves: docs/decisions/034-e-invoicing.md.
//
// Credit notes: our credit note is the negative of what it corrects (negative quantities, so
// negative totals). UBL's CreditNote and CII's type 381 carry the credited amounts POSITIVE
// (a negative figure there would be a debit), so for a credit note every quantity and amount is
// written with its sign turned: the same digits, the sign flipped as text, never recomputed.

export type EInvoiceSyntax = 'ubl' | 'cii'

export type EInvoiceResult = { ok: true; xml: string } | { ok: false; errors: FieldError[] }

/** Why a document cannot be an EN 16931 e-invoice, as field errors; none when it can. */
function problemsOf(document: InvoiceDocument): FieldError[] {
	const errors: FieldError[] = []
	if (!document.number) {
		errors.push({ field: 'number', message: 'A draft has no number yet: finalize it to export an e-invoice.' })
	}
	// EN 16931 allows at most 2 decimals in every amount (BR-DEC-01…28), whatever the currency:
	// a BHD invoice's 3-decimal figures cannot be written without rounding them again, which
	// would make the e-invoice disagree with the PDF. We refuse instead.
	if (document.totals.minorUnits > 2) {
		errors.push({
			field: 'currency',
			message: `EN 16931 e-invoices allow amounts with at most 2 decimals; ${document.totals.currency} has ${document.totals.minorUnits}.`,
		})
	}
	if (!document.client.address) {
		errors.push({ field: 'client.address', message: "An e-invoice needs the client's address with its country." })
	}
	// BR-O-11/12: an invoice with lines not subject to VAT (O) has no other VAT category.
	const categories = new Set(document.totals.vatBreakdown.map((group) => group.categoryCode))
	if (categories.has('O') && categories.size > 1) {
		errors.push({
			field: 'lines',
			message: 'EN 16931: lines not subject to VAT (category O) need an invoice of their own, without other VAT rates.',
		})
	}
	// BR-CO-26: the seller is identified by its VAT id or its registration; an invoice not
	// subject to VAT may not carry the VAT id (BR-O-02), so it needs the registration.
	if (categories.has('O') && document.profile.taxIds.other.length === 0) {
		errors.push({
			field: 'profile.taxIds.other',
			message:
				'An e-invoice not subject to VAT needs the company’s registration number (BR-CO-26): add it in the settings.',
		})
	}
	if (document.lines.length === 0) {
		errors.push({ field: 'lines', message: 'An e-invoice needs at least one line.' })
	}
	return errors
}

/** The document as UBL 2.1 (Peppol BIS Billing 3.0) or CII D16B (EN 16931) XML. */
export function eInvoiceXml(document: InvoiceDocument, syntax: EInvoiceSyntax): EInvoiceResult {
	const errors = problemsOf(document)
	if (errors.length > 0) {
		return { ok: false, errors }
	}
	return { ok: true, xml: syntax === 'ubl' ? ublXml(document) : ciiXml(document) }
}
