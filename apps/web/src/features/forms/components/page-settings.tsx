import type { FormPage, PageImage } from '@blocksmith/contracts/forms.ts'
import { useQuery } from '@tanstack/react-query'
import { ImageIcon, Upload, X } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { uploadFile } from '#src/workspaces/api/workspaces.ts'
import { blobQuery } from '../api/forms.ts'
import type { DraftErrors } from '../lib/draft.ts'

/** Files uploaded in this visit, by blob id: their name and a local URL to show them at once. */
export type LocalUploads = Record<string, { name: string; url: string }>

type PageSettingsProps = {
	page: FormPage
	errors: DraftErrors
	uploads: LocalUploads
	onUploaded: (blobId: string, file: { name: string; url: string }) => void
	onChange: (changes: Partial<FormPage>, path: string) => void
}

/** What the public page's head says: title, description, link-preview image, favicon, indexing. */
export function PageSettings({ page, errors, uploads, onUploaded, onChange }: PageSettingsProps) {
	return (
		<section className="grid gap-5" aria-labelledby="page-heading">
			<div className="grid gap-0.5">
				<h2 id="page-heading" className="font-semibold text-base">
					Page
				</h2>
				<p className="text-muted-foreground text-sm">
					How the public page shows in the browser tab, in search results and in link previews.
				</p>
			</div>
			<Field
				label="Page title"
				description="Shown above the form, in the browser tab and in link previews."
				error={errors['page.pageTitle']}
			>
				<Input
					maxLength={200}
					value={page.pageTitle ?? ''}
					onChange={(event) => onChange({ pageTitle: event.target.value || null }, 'page.pageTitle')}
				/>
			</Field>
			<Field
				label="Page description"
				description="A sentence or two under the title, and in search results and link previews."
				error={errors['page.pageDescription']}
			>
				<Textarea
					rows={3}
					maxLength={500}
					value={page.pageDescription ?? ''}
					onChange={(event) => onChange({ pageDescription: event.target.value || null }, 'page.pageDescription')}
				/>
			</Field>
			<ImagePicker
				name="Thumbnail"
				description="The picture of link previews; 1200 × 630 pixels fits everywhere."
				image={page.pageThumbnail}
				error={errors['page.pageThumbnail']}
				uploads={uploads}
				onUploaded={onUploaded}
				onChange={(image) => onChange({ pageThumbnail: image }, 'page.pageThumbnail')}
			/>
			<ImagePicker
				name="Favicon"
				description="The small icon in the browser tab: a square image, 64 × 64 pixels or more."
				image={page.favicon}
				error={errors['page.favicon']}
				uploads={uploads}
				onUploaded={onUploaded}
				onChange={(image) => onChange({ favicon: image }, 'page.favicon')}
				isSquare
			/>
			<Field
				label="Let search engines index this page"
				description="Off, the page asks search engines not to list it (noindex); people with the link can still open it."
				orientation="horizontal"
			>
				<Switch
					checked={page.extras.indexable}
					onCheckedChange={(checked) => onChange({ extras: { ...page.extras, indexable: checked } }, 'page.extras')}
				/>
			</Field>
		</section>
	)
}

const accepted =
	'image/png,image/jpeg,image/gif,image/webp,image/avif,image/svg+xml,image/x-icon,image/vnd.microsoft.icon'

function linkName(url: string): string {
	try {
		const segments = new URL(url).pathname.split('/').filter(Boolean)
		return decodeURIComponent(segments[segments.length - 1] ?? new URL(url).hostname)
	} catch {
		return url
	}
}

/** The preview and file name of the image now set: an upload (named by its blob) or a link. */
export function usePageImage(
	image: PageImage | null,
	uploads: LocalUploads,
): { name: string; url: string | null } | null {
	const blobId = image && 'blobId' in image ? image.blobId : null
	const local = blobId ? uploads[blobId] : undefined
	const blob = useQuery({ ...blobQuery(blobId ?? ''), enabled: Boolean(blobId) && !local })
	if (!image) {
		return null
	}
	if ('url' in image) {
		return { name: linkName(image.url), url: image.url }
	}
	if (local) {
		return local
	}
	return { name: blob.data?.filename ?? (blob.isPending ? 'Loading…' : 'Uploaded image'), url: blob.data?.url ?? null }
}

type ImagePickerProps = {
	name: 'Thumbnail' | 'Favicon' | 'Logo' | 'Cover' | 'Image'
	description: string
	image: PageImage | null
	error?: string | undefined
	uploads: LocalUploads
	isSquare?: boolean
	onUploaded: (blobId: string, file: { name: string; url: string }) => void
	onChange: (image: PageImage | null) => void
}

/** Upload an image or paste a link to one; shows what is set, with its file name. */
export function ImagePicker({
	name,
	description,
	image,
	error,
	uploads,
	isSquare,
	onUploaded,
	onChange,
}: ImagePickerProps) {
	const id = useId()
	const lower = name.toLowerCase()
	const [link, setLink] = useState('')
	const [problem, setProblem] = useState<string | null>(null)
	const [isUploading, setIsUploading] = useState(false)
	const info = usePageImage(image, uploads)
	const shown = problem ?? error

	async function upload(file: File | undefined): Promise<void> {
		if (!file) {
			return
		}
		if (!file.type.startsWith('image/')) {
			setProblem('Choose an image: PNG, JPEG, GIF, WebP, AVIF, ICO or SVG.')
			return
		}
		setProblem(null)
		setIsUploading(true)
		try {
			const uploaded = await uploadFile(file)
			if (uploaded.blobId) {
				onUploaded(uploaded.blobId, { name: file.name, url: URL.createObjectURL(file) })
				onChange({ blobId: uploaded.blobId })
			}
		} catch (uploadError) {
			setProblem(errorMessage(uploadError))
		} finally {
			setIsUploading(false)
		}
	}

	function applyLink(): void {
		const text = link.trim()
		let isValid = false
		try {
			isValid = /^https?:$/.test(new URL(text).protocol)
		} catch {
			isValid = false
		}
		if (!isValid) {
			setProblem('Paste a full link, starting with https://.')
			return
		}
		setProblem(null)
		setLink('')
		onChange({ url: text })
	}

	return (
		<fieldset
			className="grid gap-3 rounded-lg border p-3 sm:p-4"
			aria-describedby={`${id}-description${shown ? ` ${id}-error` : ''}`}
		>
			<legend className="px-1 font-medium text-sm">{name}</legend>
			<p id={`${id}-description`} className="-mt-1 text-[13px] text-muted-foreground leading-snug">
				{description} SVG images are sanitised by the server before the public page shows them.
			</p>
			<div className="flex flex-wrap items-center gap-3">
				<div
					className={cn(
						'flex shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted/50',
						isSquare ? 'size-12' : 'h-12 w-24',
					)}
				>
					{info?.url ? (
						<img src={info.url} alt={`${name} preview`} className="size-full object-contain" />
					) : (
						<ImageIcon aria-hidden className="size-5 text-muted-foreground" />
					)}
				</div>
				<div className="grid min-w-0 flex-1 gap-0.5 text-sm">
					<span className={cn('truncate', info ? 'font-medium' : 'text-muted-foreground')}>
						{info ? info.name : `No ${lower}`}
					</span>
					{image ? (
						<span className="text-muted-foreground text-xs">{'url' in image ? 'Linked' : 'Uploaded'}</span>
					) : null}
				</div>
				{image ? (
					<Button variant="ghost" size="sm" onClick={() => onChange(null)}>
						<X aria-hidden /> Remove {lower}
					</Button>
				) : null}
			</div>
			<div className="flex flex-wrap items-end gap-2">
				<label
					htmlFor={`${id}-file`}
					className="inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-md border border-input bg-background px-3 font-medium text-[13px] shadow-xs hover:bg-accent has-focus-visible:ring-2 has-focus-visible:ring-ring pointer-coarse:h-9"
				>
					{isUploading ? <Spinner size="sm" /> : <Upload aria-hidden className="size-4" />}
					{isUploading ? 'Uploading…' : `Upload ${lower}`}
					<input
						id={`${id}-file`}
						type="file"
						accept={accepted}
						className="sr-only"
						disabled={isUploading}
						onChange={(event) => {
							void upload(event.target.files?.[0])
							event.target.value = ''
						}}
					/>
				</label>
				<span className="pb-1.5 text-muted-foreground text-xs">or</span>
				<div className="flex min-w-56 flex-1 gap-2">
					<Input
						type="url"
						aria-label={`${name} link`}
						placeholder="https://…"
						className="h-8"
						value={link}
						onChange={(event) => setLink(event.target.value)}
						onKeyDown={(event) => {
							if (event.key === 'Enter') {
								event.preventDefault()
								applyLink()
							}
						}}
					/>
					<Button variant="outline" size="sm" disabled={!link.trim()} onClick={applyLink}>
						Use link<span className="sr-only"> for {lower}</span>
					</Button>
				</div>
			</div>
			{shown ? (
				<p id={`${id}-error`} className="text-[13px] text-error" role="alert">
					{shown}
				</p>
			) : null}
		</fieldset>
	)
}
