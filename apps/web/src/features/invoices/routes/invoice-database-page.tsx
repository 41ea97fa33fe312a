import { InvoicesLayout } from '../components/invoices-nav.tsx'

/** /invoices/database: the workspace database invoices are kept in (its mapping, rows and sync). */
export function InvoiceDatabasePage() {
	return (
		<InvoicesLayout title="Invoices database" description="The workspace database your invoices are kept in.">
			<p className="text-muted-foreground text-sm">Loading…</p>
		</InvoicesLayout>
	)
}
