import { useQuery } from '@tanstack/react-query'
import { Download, Eye } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#src/components/ui/tabs.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { fetchInvoicePdf, invoiceKeys } from '../api/invoices.ts'
import { TemplatePreview } from './template-preview.tsx'

// "Preview": this invoice as its PDF (the profile's chosen design, drawn by the server from what
// is saved), and the three designs with the profile's sample invoice to compare them.

export function InvoicePreviewDialog({
	invoiceId,
	version,
	profileId,
	profileVersion,
	chosenDesign,
	onOpen,
}: {
	invoiceId: string
	/** The invoice's updatedAt: a save draws it again. */
	version: string
	profileId: string
	profileVersion: string
	chosenDesign: 'classic' | 'modern' | 'compact'
	/** Saves what is typed first, so the PDF shows it. */
	onOpen: () => Promise<unknown>
}) {
	const [isOpen, setIsOpen] = useState(false)
	const [isReady, setIsReady] = useState(false)
	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open)
				setIsReady(false)
				if (open) {
					void onOpen().finally(() => setIsReady(true))
				}
			}}
		>
			<DialogTrigger asChild>
				<Button variant="outline">
					<Eye aria-hidden /> Preview
				</Button>
			</DialogTrigger>
			<DialogContent size="lg" title="Preview">
				<Tabs defaultValue="invoice">
					<TabsList aria-label="Preview">
						<TabsTrigger value="invoice">This invoice</TabsTrigger>
						<TabsTrigger value="designs">The designs</TabsTrigger>
					</TabsList>
					<TabsContent value="invoice" className="pt-3">
						{isReady ? <InvoicePdf invoiceId={invoiceId} version={version} /> : <Skeleton className="h-96 w-full" />}
					</TabsContent>
					<TabsContent value="designs" className="pt-3">
						<TemplatePreview profileId={profileId} version={profileVersion} chosen={chosenDesign} />
					</TabsContent>
				</Tabs>
			</DialogContent>
		</Dialog>
	)
}

/** The invoice's own PDF, fetched with the bearer header and shown through an object URL. */
function InvoicePdf({ invoiceId, version, name }: { invoiceId: string; version: string; name?: string }) {
	const pdf = useQuery({
		queryKey: invoiceKeys.pdf(invoiceId, version),
		queryFn: ({ signal }) => fetchInvoicePdf(invoiceId, signal),
		staleTime: Number.POSITIVE_INFINITY,
		gcTime: 60_000,
	})
	const [url, setUrl] = useState<string | null>(null)
	useEffect(() => {
		if (!pdf.data) {
			return
		}
		const made = URL.createObjectURL(pdf.data)
		setUrl(made)
		return () => URL.revokeObjectURL(made)
	}, [pdf.data])
	if (pdf.isError) {
		return (
			<Alert variant="error" title="No PDF">
				{errorMessage(pdf.error)}
			</Alert>
		)
	}
	if (!url) {
		return (
			<SkeletonGroup label="Drawing the invoice…">
				<Skeleton className="h-96 w-full" />
			</SkeletonGroup>
		)
	}
	return (
		<div className="grid gap-2">
			<iframe title="Invoice (PDF)" src={url} className="h-[32rem] w-full rounded-lg border bg-white" />
			<div>
				<Button asChild variant="outline" size="sm">
					<a href={url} download={`${name ?? 'invoice'}.pdf`}>
						<Download aria-hidden /> Download the PDF
					</a>
				</Button>
			</div>
		</div>
	)
}
