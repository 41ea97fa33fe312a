import { type InvoiceDesign, invoiceDesigns } from '@blocksmith/contracts/invoices.ts'
import { useQuery } from '@tanstack/react-query'
import { Download, ExternalLink } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#src/components/ui/tabs.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { fetchTemplatePdf, invoiceKeys } from '../api/invoices.ts'

/**
 * The three designs drawn by the server for the saved profile, as tabs (a PDF each is large; one
 * at a time is drawn, when its tab opens). The version (the profile's updatedAt) draws them again
 * after a save.
 */
export function TemplatePreview({
	profileId,
	version,
	chosen,
}: {
	profileId: string
	version: string
	chosen: InvoiceDesign
}) {
	const [design, setDesign] = useState<InvoiceDesign>(chosen)
	return (
		<section aria-labelledby="invoice-preview" className="grid gap-3">
			<div className="grid gap-1">
				<h2 id="invoice-preview" className="font-semibold text-lg">
					Preview
				</h2>
				<p className="text-muted-foreground text-sm">
					A sample invoice from this profile as saved, in each design. Save to see your changes here.
				</p>
			</div>
			<Tabs value={design} onValueChange={(value) => setDesign(value as InvoiceDesign)}>
				<TabsList aria-label="Designs">
					{invoiceDesigns.map((one) => (
						<TabsTrigger key={one.design} value={one.design}>
							{one.name}
							{one.design === chosen ? ' (chosen)' : ''}
						</TabsTrigger>
					))}
				</TabsList>
				{invoiceDesigns.map((one) => (
					<TabsContent key={one.design} value={one.design} className="grid gap-2 pt-3">
						<p className="text-[13px] text-muted-foreground">{one.description}</p>
						{design === one.design ? (
							<PdfFrame profileId={profileId} design={one.design} version={version} name={one.name} />
						) : null}
					</TabsContent>
				))}
			</Tabs>
		</section>
	)
}

function PdfFrame({
	profileId,
	design,
	version,
	name,
}: {
	profileId: string
	design: InvoiceDesign
	version: string
	name: string
}) {
	const pdf = useQuery({
		queryKey: invoiceKeys.preview(profileId, design, version),
		queryFn: ({ signal }) => fetchTemplatePdf({ profileId, design }, signal),
		staleTime: Number.POSITIVE_INFINITY,
		gcTime: 60_000,
	})
	const [url, setUrl] = useState<string | null>(null)
	const [isUnshowable, setIsUnshowable] = useState(false)
	const isFrameBlocked = useFrameBlocked()
	useEffect(() => {
		if (!pdf.data) {
			return
		}
		let made: string
		try {
			made = URL.createObjectURL(pdf.data)
		} catch {
			// A browser that cannot hold the file: say so rather than break the settings page.
			setIsUnshowable(true)
			return
		}
		setUrl(made)
		return () => URL.revokeObjectURL(made)
	}, [pdf.data])

	if (pdf.isError || isUnshowable) {
		return (
			<Alert variant="error" title="No preview">
				{pdf.isError ? errorMessage(pdf.error) : 'This browser cannot show the PDF here.'}
			</Alert>
		)
	}
	if (!url) {
		return (
			<SkeletonGroup label={`Drawing the ${name} design…`}>
				<Skeleton className="h-[36rem] w-full" />
			</SkeletonGroup>
		)
	}
	const fileName = `invoice-${design}.pdf`
	const links = (
		<div className="flex flex-wrap gap-2">
			<Button asChild variant="outline" size="sm">
				<a href={url} target="_blank" rel="noopener">
					<ExternalLink aria-hidden /> Open the PDF
				</a>
			</Button>
			<Button asChild variant="ghost" size="sm">
				<a href={url} download={fileName}>
					<Download aria-hidden /> Download
				</a>
			</Button>
		</div>
	)
	if (isFrameBlocked) {
		return (
			<div className="grid gap-3 rounded-lg border p-4">
				<p className="text-muted-foreground text-sm">
					This page may not show PDFs inside it; open the {name} design in its own tab or download it.
				</p>
				{links}
			</div>
		)
	}
	return (
		<div className="grid gap-2">
			<iframe
				title={`${name} design preview (PDF)`}
				src={url}
				className="h-[36rem] w-full rounded-lg border bg-white"
			/>
			{links}
		</div>
	)
}

/**
 * Whether the page's Content-Security-Policy refused to frame the PDF (a policy without `blob:`
 * in frame-src): the browser says so with a violation event instead of an error.
 */
function useFrameBlocked(): boolean {
	const [isBlocked, setIsBlocked] = useState(false)
	// Listening from the first render, before the frame exists, so the event cannot come first.
	useEffect(() => {
		const onViolation = (event: SecurityPolicyViolationEvent) => {
			if (event.effectiveDirective === 'frame-src' || event.effectiveDirective === 'child-src') {
				setIsBlocked(true)
			}
		}
		document.addEventListener('securitypolicyviolation', onViolation)
		return () => document.removeEventListener('securitypolicyviolation', onViolation)
	}, [])
	return isBlocked
}
