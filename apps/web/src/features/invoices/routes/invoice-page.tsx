import { InvoicesLayout } from '../components/invoices-nav.tsx'

/** /invoices/:id: the draft's editor, or the finalized document. */
export function InvoicePage() {
	return <InvoicesLayout title="Invoice">{null}</InvoicesLayout>
}
