import type { Form } from '@blocksmith/contracts/forms.ts'
import { Copy, Download, ExternalLink, ImageOff } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { toast } from 'sonner'
import { Button, buttonVariants } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Dialog, DialogContent } from '#src/components/ui/dialog.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { publicUrl } from '../lib/form-paths.ts'
import { EmbedSettings } from './embed-settings.tsx'
import { usePageImage } from './page-settings.tsx'
import { qrPng, qrSvg, svgDataUrl } from './share-qr.ts'

// Where a published form goes next: its link to copy, a QR code to print (PNG or SVG), the codes
// that put it on another site, and the card social sites and chat apps will show for the link.
// Loaded only when it opens (form-actions.tsx), with the QR encoder.

type SharePanelProps = {
	form: Form
	open: boolean
	onOpenChange: (open: boolean) => void
	/** Just published: the panel says so. */
	isJustPublished?: boolean
}

export function SharePanel({ form, open, onOpenChange, isJustPublished = false }: SharePanelProps) {
	// Opened without a Radix trigger (a button outside, a menu item, a publish): focus goes back to
	// whatever had it when the panel opened, while that is still on the page.
	const returnFocusTo = useRef<HTMLElement | null>(null)
	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent
				onOpenAutoFocus={() => {
					returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
				}}
				onCloseAutoFocus={(event) => {
					if (returnFocusTo.current?.isConnected) {
						event.preventDefault()
						returnFocusTo.current.focus()
					}
				}}
				size="lg"
				title={`Share ${form.name}`}
				description={
					isJustPublished
						? 'Your form is published. Send the link, print the QR code or put the form on your site.'
						: 'Anyone with the link can open the form and answer it.'
				}
			>
				<LinkRow form={form} />
				<div className="grid gap-5 sm:grid-cols-[auto_minmax(0,1fr)]">
					<QrCode form={form} />
					<LinkCard form={form} />
				</div>
				<div className="border-t pt-5">
					<EmbedSettings form={form} />
				</div>
			</DialogContent>
		</Dialog>
	)
}

async function copyLink(url: string): Promise<void> {
	try {
		await navigator.clipboard.writeText(url)
		toast.success('The link is copied.')
	} catch {
		toast.error('The link could not be copied: select it and copy it yourself.')
	}
}

function LinkRow({ form }: { form: Form }) {
	const id = useId()
	const url = publicUrl(form)
	return (
		<div className="grid gap-1.5">
			<label htmlFor={id} className="font-medium text-sm">
				Link
			</label>
			<div className="flex flex-wrap gap-2">
				<Input
					id={id}
					readOnly
					value={url}
					className="min-w-48 flex-1 font-mono text-xs sm:text-xs"
					onFocus={(event) => event.currentTarget.select()}
				/>
				<Button onClick={() => void copyLink(url)}>
					<Copy aria-hidden /> Copy link
				</Button>
				<a href={url} target="_blank" rel="noreferrer" className={buttonVariants({ variant: 'outline' })}>
					<ExternalLink aria-hidden /> Open
					<span className="sr-only"> (opens in a new tab)</span>
				</a>
			</div>
		</div>
	)
}

/** A file name for the downloads: the form's address part, or its name made safe. */
function fileBaseOf(form: Pick<Form, 'slug' | 'name' | 'id'>): string {
	const base = (form.slug ?? form.name)
		.toLowerCase()
		.normalize('NFKD')
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60)
	return `${base || form.id}-qr`
}

type Codes = { status: 'loading' } | { status: 'ready'; svg: string; png: string } | { status: 'failed' }

function QrCode({ form }: { form: Form }) {
	const url = publicUrl(form)
	const [codes, setCodes] = useState<Codes>({ status: 'loading' })
	useEffect(() => {
		let isCurrent = true
		setCodes({ status: 'loading' })
		Promise.all([qrSvg(url), qrPng(url)]).then(
			([svg, png]) => {
				if (isCurrent) {
					setCodes({ status: 'ready', svg: svgDataUrl(svg), png })
				}
			},
			() => {
				if (isCurrent) {
					setCodes({ status: 'failed' })
				}
			},
		)
		return () => {
			isCurrent = false
		}
	}, [url])
	const fileBase = fileBaseOf(form)
	return (
		<section className="grid content-start justify-items-start gap-2" aria-labelledby={`${fileBase}-qr-heading`}>
			<h3 id={`${fileBase}-qr-heading`} className="font-semibold text-sm">
				QR code
			</h3>
			{codes.status === 'ready' ? (
				// Always black on white: phones read that best, in either theme.
				<img
					src={codes.svg}
					alt={`QR code of ${url}`}
					width={160}
					height={160}
					className="size-40 rounded-md border bg-white"
				/>
			) : codes.status === 'loading' ? (
				<SkeletonGroup label="Making the QR code…">
					<Skeleton className="size-40" />
				</SkeletonGroup>
			) : (
				<p role="alert" className="w-40 text-error text-sm">
					The QR code could not be made. The link above works all the same.
				</p>
			)}
			{codes.status === 'ready' ? (
				<div className="flex gap-2">
					<a
						href={codes.png}
						download={`${fileBase}.png`}
						className={buttonVariants({ variant: 'outline', size: 'sm' })}
					>
						<Download aria-hidden /> PNG
						<span className="sr-only"> (download the QR code as an image)</span>
					</a>
					<a
						href={codes.svg}
						download={`${fileBase}.svg`}
						className={buttonVariants({ variant: 'outline', size: 'sm' })}
					>
						<Download aria-hidden /> SVG
						<span className="sr-only"> (download the QR code for print)</span>
					</a>
				</div>
			) : null}
		</section>
	)
}

function hostOf(url: string): string {
	try {
		return new URL(url).host
	} catch {
		return url
	}
}

/**
 * The link card as social sites and chat apps draw it from the page's head (forms.head.ts): the
 * page title, else the form's name; the page description, or none; the thumbnail as a large
 * image, or a text-only card without one. The saved settings, as crawlers will read them.
 */
function LinkCard({ form }: { form: Form }) {
	const headingId = useId()
	const title = form.page.pageTitle || form.name
	const description = form.page.pageDescription
	const image = usePageImage(form.page.pageThumbnail, {})
	const imageUrl = image?.url ?? null
	return (
		<section className="grid min-w-0 content-start gap-2" aria-labelledby={headingId}>
			<h3 id={headingId} className="font-semibold text-sm">
				Link preview
			</h3>
			<figure
				aria-label="How the link shows when shared"
				className="overflow-hidden rounded-lg border bg-card text-card-foreground shadow-xs"
			>
				{imageUrl ? (
					<img src={imageUrl} alt="" className="aspect-[1.91/1] w-full border-b bg-muted object-cover" />
				) : null}
				<figcaption className={cn('grid gap-0.5 p-3', !imageUrl && 'border-l-4 border-l-primary/60')}>
					<span className="text-muted-foreground text-xs uppercase tracking-wide">{hostOf(publicUrl(form))}</span>
					<span className="line-clamp-2 font-semibold text-sm" data-testid="card-title">
						{title}
					</span>
					{description ? (
						<span className="line-clamp-2 text-muted-foreground text-sm" data-testid="card-description">
							{description}
						</span>
					) : null}
				</figcaption>
			</figure>
			{!imageUrl || !description ? (
				<p className="flex items-start gap-1.5 text-muted-foreground text-xs">
					<ImageOff aria-hidden className="mt-px size-3.5 shrink-0" />
					<span>
						{!imageUrl && !description
							? 'No thumbnail or description yet: add them in the builder’s Page tab for a fuller card.'
							: !imageUrl
								? 'No thumbnail: add one in the builder’s Page tab for a large card with a picture.'
								: 'No description: add one in the builder’s Page tab.'}
					</span>
				</p>
			) : null}
		</section>
	)
}
