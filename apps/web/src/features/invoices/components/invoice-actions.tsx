import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'

/** What can be done with a finalized invoice or credit note (grows: send, payments, credit notes, void…). */
export function InvoiceActions({ invoice }: { invoice: Invoice }) {
	return (
		<section aria-label="Invoice actions" className="flex flex-wrap gap-2">
			<span className="text-muted-foreground text-sm">{invoice.number ?? 'Draft'}</span>
		</section>
	)
}
