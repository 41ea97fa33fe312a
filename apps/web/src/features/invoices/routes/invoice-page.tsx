import { useQuery } from '@tanstack/react-query'
import { FileText } from 'lucide-react'
import { useParams } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { PageGate } from '#src/components/page-gate.tsx'
import { ItemPageHeader } from '#src/components/page-header.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { invoiceQuery, profilesQuery } from '../api/invoices.ts'
import { InvoiceEditor } from '../components/invoice-editor.tsx'
import { InvoiceDocument } from '../components/invoice-editor-document.tsx'
import { InvoiceStatusBadge } from '../components/invoice-list-parts.tsx'

/**
 * /invoices/:id: a draft opens in the editor (saved as it is typed); a finalized invoice or a
 * credit note is shown read-only with what can still be done with it. Another organization's
 * invoice is a 404, shown as "not found".
 */
export function InvoicePage() {
	const { id = '' } = useParams()
	const invoice = useQuery(invoiceQuery(id))
	const profiles = useQuery(profilesQuery)
	return (
		<PageGate
			query={invoice}
			loadingLabel="Loading the invoice…"
			icon={FileText}
			errorTitle="This invoice could not be loaded"
			backTo={paths.invoices}
			backLabel="Back to invoices"
		>
			{(loaded) => {
				const profile = profiles.data?.find((candidate) => candidate.id === loaded.profileId)
				const isDraft = loaded.status === 'draft'
				const title = loaded.number
					? `${loaded.kind === 'credit_note' ? 'Credit note' : 'Invoice'} ${loaded.number}`
					: 'Draft invoice'
				return (
					<div className="grid grid-cols-1 gap-6">
						<ItemPageHeader
							crumbs={[{ label: 'Invoices', to: paths.invoices }]}
							title={title}
							badge={<InvoiceStatusBadge invoice={loaded} />}
							actions={null}
							details={
								<p className="text-muted-foreground text-sm">
									{loaded.client?.name ?? 'No client yet'}
									{profile ? ` · from ${profile.name}` : ''}
								</p>
							}
						/>
						{isDraft ? (
							profiles.data ? (
								<InvoiceEditor key={loaded.id} invoice={loaded} profiles={profiles.data} />
							) : profiles.isError ? (
								<Alert variant="error" title="The company profiles could not be loaded">
									{errorMessage(profiles.error)}
								</Alert>
							) : (
								<SkeletonGroup label="Loading the editor…">
									<Skeleton className="h-96 w-full" />
								</SkeletonGroup>
							)
						) : (
							<InvoiceDocument invoice={loaded} profile={profile} />
						)}
					</div>
				)
			}}
		</PageGate>
	)
}
