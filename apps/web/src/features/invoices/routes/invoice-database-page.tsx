import type { InvoiceMappingReview } from '@blocksmith/contracts/invoice-workspace.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { invoiceDatabaseQuery, unlinkInvoiceDatabase } from '../api/invoice-workspace.ts'
import { InvoicesLayout } from '../components/invoices-nav.tsx'
import { WorkspaceDatabaseMapping } from '../components/workspace-database-mapping.tsx'
import { WorkspaceDatabaseRows, WorkspaceDatabaseSync } from '../components/workspace-database-rows.tsx'

const title = 'Invoices database'
const description =
	'The workspace database your invoices are kept in: each finalized invoice gets a row, and its status follows.'

/**
 * /invoices/database: until one is mapped, choose it and map it; then its mapping (in words,
 * changed on demand), its rows with their invoices, and the sync of statuses.
 */
export function InvoiceDatabasePage() {
	const state = useQuery({ ...invoiceDatabaseQuery, meta: { isErrorShownInPage: true } })
	const canEdit = useIsOwnerOrAdmin()
	const [isChanging, setIsChanging] = useState(false)

	if (state.isPending || canEdit === undefined) {
		return (
			<InvoicesLayout title={title} description={description}>
				<SkeletonGroup label="Loading the invoices database…">
					<Skeleton className="h-64 w-full" />
				</SkeletonGroup>
			</InvoicesLayout>
		)
	}
	if (!state.data) {
		return (
			<InvoicesLayout title={title} description={description}>
				<Alert variant="error" title="The invoices database could not be read">
					{errorMessage(state.error)}
				</Alert>
			</InvoicesLayout>
		)
	}
	const mapped = state.data.mapped
	// The client's details and line items are read from their databases, never written.
	const written = (mapped?.review.fields ?? []).filter(
		(check) => check.isMapped && check.field !== 'clientMapping' && check.field !== 'lineItems',
	)
	return (
		<InvoicesLayout title={title} description={description}>
			{!mapped || isChanging ? (
				<section aria-labelledby="mapping-heading" className="grid gap-4">
					<div className="flex flex-wrap items-center justify-between gap-2">
						<h2 id="mapping-heading" className="font-semibold text-lg">
							{mapped ? 'Change the mapping' : 'Choose the database'}
						</h2>
						{mapped ? (
							<Button variant="ghost" onClick={() => setIsChanging(false)}>
								Cancel
							</Button>
						) : null}
					</div>
					<WorkspaceDatabaseMapping state={state.data} canEdit={canEdit} onSaved={() => setIsChanging(false)} />
				</section>
			) : (
				<>
					<section aria-labelledby="mapped-heading" className="grid gap-3 rounded-xl border bg-card p-4 sm:p-5">
						<div className="flex flex-wrap items-start justify-between gap-3">
							<div className="grid gap-1">
								<h2 id="mapped-heading" className="font-semibold text-lg">
									{mapped.name}
								</h2>
								<p className="text-muted-foreground text-sm">
									{written.length} fields written:{' '}
									{written.map((check) => check.propertyName ?? check.field).join(', ')}.
								</p>
							</div>
							{canEdit ? (
								<div className="flex flex-wrap gap-2">
									<Button variant="outline" onClick={() => setIsChanging(true)}>
										Change mapping
									</Button>
									<UnlinkButton tool={mapped.tool} name={mapped.name} />
								</div>
							) : null}
						</div>
						<MappingGaps review={mapped.review} />
						<WorkspaceDatabaseSync tool={mapped.tool} />
					</section>
					<section aria-labelledby="rows-heading" className="grid gap-3">
						<h2 id="rows-heading" className="font-semibold text-lg">
							Rows
						</h2>
						<WorkspaceDatabaseRows tool={mapped.tool} databaseId={mapped.id} />
					</section>
				</>
			)}
		</InvoicesLayout>
	)
}

/** What the saved mapping misses as the database is now (a property deleted, a status without option). */
function MappingGaps({ review }: { review: InvoiceMappingReview }) {
	const gaps = review.fields.filter(
		(check) => !check.isMapped && (check.isRequired || check.field === 'status' || check.field === 'amount'),
	)
	if (gaps.length === 0 && review.unmappedStatuses.length === 0 && review.isComplete) {
		return null
	}
	return (
		<Alert
			variant={review.isComplete ? 'info' : 'warning'}
			title={review.isComplete ? 'Some parts are not written' : 'Invoices cannot be written to it'}
		>
			{[
				...gaps.map((check) => check.message ?? `${check.field} is not mapped.`),
				review.unmappedStatuses.length > 0
					? `No option is chosen for: ${review.unmappedStatuses.join(', ').replaceAll('_', ' ')}; those statuses are not written.`
					: null,
			]
				.filter(Boolean)
				.join(' ')}
		</Alert>
	)
}

function UnlinkButton({ tool, name }: { tool: WorkspaceTool; name: string }) {
	const queryClient = useQueryClient()
	const unlink = useMutation({
		mutationFn: () => unlinkInvoiceDatabase(tool),
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success(`Nothing more is written to ${name}.`)
		},
	})
	return (
		<ConfirmDialog
			title={`Stop keeping invoices in ${name}?`}
			description="Its rows stay as they are; new invoices and status changes are no longer written to it. You can map it again later."
			confirmLabel="Stop writing"
			isDestructive
			onConfirm={() => unlink.mutateAsync()}
			trigger={<Button variant="ghost">Stop writing to it</Button>}
		/>
	)
}
