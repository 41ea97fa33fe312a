import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Ban, ChevronDown, Download, Link2, MailCheck, Repeat } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuLabel,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { downloadInvoiceFile, type InvoiceFile, markSent, publicLink, voidInvoice } from '../api/invoice-actions.ts'
import { CreditNoteDialog } from './credit-note-dialog.tsx'
import { InvoiceHistoryDialog } from './invoice-history.tsx'
import { PaymentDialog } from './payment-dialog.tsx'
import { RecurringDialog } from './recurring-dialog.tsx'
import { SendDialog } from './send-dialog.tsx'

// What can be done with a finalized invoice or credit note. Drafts are the editor's business;
// every action here ends by invalidating the 'invoices' prefix (list, document, payments).

const eInvoiceFiles: { file: InvoiceFile; label: string }[] = [
	{ file: 'ubl', label: 'UBL 2.1 (Peppol) XML' },
	{ file: 'cii', label: 'CII XML' },
	{ file: 'facturx', label: 'Factur-X PDF' },
]

export function InvoiceActions({ invoice }: { invoice: Invoice }) {
	if (invoice.status === 'draft') {
		return null
	}
	const isInvoice = invoice.kind === 'invoice'
	const isOpen = isInvoice && invoice.status !== 'void'
	return (
		<section aria-label="Invoice actions" className="flex flex-wrap gap-2">
			{invoice.status === 'void' ? null : <SendDialog invoice={invoice} />}
			<DownloadMenu invoice={invoice} />
			<CopyLinkButton invoice={invoice} />
			{isOpen && invoice.status === 'finalized' ? <MarkSentButton invoice={invoice} /> : null}
			{isOpen ? <PaymentDialog invoice={invoice} /> : null}
			{isOpen ? <CreditNoteDialog invoice={invoice} /> : null}
			{isOpen ? (
				<RecurringDialog
					invoice={invoice}
					trigger={
						<Button variant="outline">
							<Repeat aria-hidden /> Make recurring
						</Button>
					}
				/>
			) : null}
			<InvoiceHistoryDialog invoice={invoice} />
			{isOpen ? <VoidButton invoice={invoice} /> : null}
		</section>
	)
}

function DownloadMenu({ invoice }: { invoice: Invoice }) {
	const [busy, setBusy] = useState<InvoiceFile | null>(null)

	async function download(file: InvoiceFile): Promise<void> {
		setBusy(file)
		try {
			await downloadInvoiceFile(invoice, file)
		} catch (error) {
			toast.error(errorMessage(error))
		} finally {
			setBusy(null)
		}
	}

	return (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<Button variant="outline" isLoading={busy !== null}>
					{busy ? null : <Download aria-hidden />} Download <ChevronDown aria-hidden />
				</Button>
			</DropdownMenuTrigger>
			<DropdownMenuContent align="start">
				<DropdownMenuItem onSelect={() => void download('pdf')}>PDF</DropdownMenuItem>
				<DropdownMenuSeparator />
				<DropdownMenuLabel>E-invoice</DropdownMenuLabel>
				{eInvoiceFiles.map(({ file, label }) => (
					<DropdownMenuItem key={file} onSelect={() => void download(file)}>
						{label}
					</DropdownMenuItem>
				))}
			</DropdownMenuContent>
		</DropdownMenu>
	)
}

function CopyLinkButton({ invoice }: { invoice: Invoice }) {
	const link = publicLink(invoice)
	if (!link) {
		return null
	}
	async function copy(value: string): Promise<void> {
		try {
			await navigator.clipboard.writeText(value)
			toast.success('The link to the invoice’s page is copied.')
		} catch {
			// Clipboard refused (an insecure origin, a denied permission): show it to copy by hand.
			toast.info(value, { description: 'Copy the link from here.' })
		}
	}
	return (
		<Button variant="outline" onClick={() => void copy(link)}>
			<Link2 aria-hidden /> Copy public link
		</Button>
	)
}

function MarkSentButton({ invoice }: { invoice: Invoice }) {
	const queryClient = useQueryClient()
	const mark = useMutation({
		mutationFn: () => markSent(invoice.id),
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success(`${invoice.number} is marked as sent.`)
		},
	})
	return (
		<Button variant="outline" isLoading={mark.isPending} onClick={() => mark.mutate()}>
			<MailCheck aria-hidden /> Mark as sent
		</Button>
	)
}

function VoidButton({ invoice }: { invoice: Invoice }) {
	const queryClient = useQueryClient()
	const cancel = useMutation({
		mutationFn: () => voidInvoice(invoice.id),
		// The refusal (payments recorded, say) is told inside the dialog, where the user is looking.
		meta: { isErrorShownInPage: true },
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success(`${invoice.number} is void; its number stays issued.`)
		},
	})
	return (
		<ConfirmDialog
			title={`Void ${invoice.number ?? 'this invoice'}?`}
			description="A void invoice is no longer due. Its number stays issued and it cannot be changed again; to take back only part of it, issue a credit note instead."
			confirmLabel="Void invoice"
			isDestructive
			onOpenChange={() => cancel.reset()}
			onConfirm={() => cancel.mutateAsync()}
			trigger={
				<Button variant="outline" className="text-error">
					<Ban aria-hidden /> Void
				</Button>
			}
		>
			{cancel.error ? (
				<Alert variant="error" title="The invoice was not voided">
					{errorMessage(cancel.error)}
				</Alert>
			) : null}
		</ConfirmDialog>
	)
}
