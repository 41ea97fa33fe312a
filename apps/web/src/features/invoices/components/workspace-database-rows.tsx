import type { InvoiceRow, InvoiceSync } from '@blocksmith/contracts/invoice-workspace.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { FilePlus, RefreshCw } from 'lucide-react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { draftFromRow, invoiceRowsQuery, lastSyncQuery, syncInvoices } from '../api/invoice-workspace.ts'
import { statusLabels } from './workspace-database-fields.ts'

// The mapped database's rows with the invoice kept in each (read from the mirror), a draft made
// from a row that has none, and the sync that puts our statuses back where the workspace differs.

export function WorkspaceDatabaseRows({ tool, databaseId }: { tool: WorkspaceTool; databaseId: string }) {
	const rows = useInfiniteQuery({ ...invoiceRowsQuery(tool, databaseId), meta: { isErrorShownInPage: true } })
	if (rows.isPending) {
		return <Skeleton className="h-48 w-full" />
	}
	if (!rows.data) {
		return (
			<Alert variant="error" title="The rows could not be read">
				{errorMessage(rows.error)}
			</Alert>
		)
	}
	const list = rows.data.pages.flatMap((page) => page.rows)
	if (list.length === 0) {
		return (
			<p className="text-muted-foreground text-sm">The database has no rows yet; finalized invoices will add theirs.</p>
		)
	}
	return (
		<div className="grid gap-3">
			<Table aria-label="Rows of the invoices database">
				<TableHeader>
					<TableRow>
						<TableHead>Row</TableHead>
						<TableHead>Client</TableHead>
						<TableHead isNumeric>Amount</TableHead>
						<TableHead>Status in the row</TableHead>
						<TableHead>Invoice</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{list.map((row) => (
						<RowLine key={row.id} tool={tool} row={row} />
					))}
				</TableBody>
			</Table>
			{rows.hasNextPage ? (
				<Button
					variant="outline"
					className="justify-self-center"
					isLoading={rows.isFetchingNextPage}
					onClick={() => void rows.fetchNextPage()}
				>
					Show more rows
				</Button>
			) : null}
		</div>
	)
}

function RowLine({ tool, row }: { tool: WorkspaceTool; row: InvoiceRow }) {
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const create = useMutation({
		mutationFn: () => draftFromRow(tool, row.id),
		onSuccess: async (draft) => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success('A draft is made from the row; check it and finalize it.')
			await navigate(paths.invoice(draft.id))
		},
	})
	const label = row.number ?? 'Untitled row'
	return (
		<TableRow>
			<TableCell className="font-medium">{label}</TableCell>
			<TableCell>{row.clientNames.join(', ') || '—'}</TableCell>
			<TableCell isNumeric className="tabular-nums">
				{row.amount ?? '—'}
			</TableCell>
			<TableCell>{row.status ?? '—'}</TableCell>
			<TableCell>
				{row.document ? (
					<span className="inline-flex flex-wrap items-center gap-2">
						<Link className="text-link hover:underline" to={paths.invoice(row.document.id)}>
							{row.document.number ?? 'Draft'}
						</Link>
						<Badge variant={row.document.isOverdue ? 'error' : 'neutral'}>
							{row.document.isOverdue ? 'Overdue' : statusLabels[row.document.status]}
						</Badge>
					</span>
				) : (
					<Button
						variant="outline"
						size="sm"
						isLoading={create.isPending}
						aria-label={`Create invoice from row ${label}`}
						onClick={() => create.mutate()}
					>
						<FilePlus aria-hidden /> Create invoice
					</Button>
				)}
			</TableCell>
		</TableRow>
	)
}

/** "Sync statuses" and what the last sync did, in words. */
export function WorkspaceDatabaseSync({ tool }: { tool: WorkspaceTool }) {
	const queryClient = useQueryClient()
	const last = useQuery({ ...lastSyncQuery(tool), meta: { isErrorShownInPage: true } })
	const sync = useMutation({
		mutationFn: () => syncInvoices(tool),
		onSuccess: async (result) => {
			queryClient.setQueryData(lastSyncQuery(tool).queryKey, result)
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success(syncSummary(result))
		},
	})
	const result = sync.data ?? last.data ?? null
	return (
		<div className="grid gap-3">
			<div className="flex flex-wrap items-center gap-3">
				<Button variant="outline" isLoading={sync.isPending} onClick={() => sync.mutate()}>
					{sync.isPending ? null : <RefreshCw aria-hidden />} Sync statuses
				</Button>
				<p className="text-muted-foreground text-sm" aria-live="polite">
					{result ? `Last sync ${new Date(result.at).toLocaleString()}: ${syncSummary(result)}` : 'Not synced yet.'}
				</p>
			</div>
			{result && result.pushes.length > 0 ? (
				<ul aria-label="What the sync wrote" className="grid gap-1 text-sm">
					{result.pushes.map((push) => (
						// A sync writes a document's row once: its number (with the change) tells the lines apart.
						<li key={`${push.number}:${push.from}:${push.to}`} className={push.error ? 'text-error' : undefined}>
							{push.number ?? 'A row'}: {push.from ?? 'empty'} → {push.to ?? 'empty'}
							{push.error ? ` (not written: ${push.error})` : ''}
						</li>
					))}
				</ul>
			) : null}
		</div>
	)
}

function syncSummary(result: InvoiceSync): string {
	const parts = [
		`${result.checked} ${result.checked === 1 ? 'row' : 'rows'} checked`,
		`${result.pushed} written back`,
		`${result.unchanged} unchanged`,
	]
	if (result.notLinked > 0) {
		parts.push(`${result.notLinked} without an invoice of ours`)
	}
	if (result.failed > 0) {
		parts.push(`${result.failed} refused`)
	}
	return `${parts.join(', ')}.`
}
