import { ImagePlus, ImageUp, X } from 'lucide-react'
import { type ReactNode, useEffect, useId, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { uploadFile } from '../api/workspaces.ts'

export type LogoUploadProps = {
	/** The blob the form holds now; `savedBlobId` and `savedUrl` are the stored one's, for its preview. */
	blobId: string | null
	savedBlobId: string | null
	savedUrl: string | null
	error?: string | undefined
	isReadOnly?: boolean
	onChange: (blobId: string | null) => void
	/** The image types taken (never SVG where a drawing could carry script). */
	accepted: readonly string[]
	/** Said when another type is chosen. */
	wrongType: string
	/** Under the field: what the logo is used for. */
	hint: ReactNode
	previewClassName?: string
}

/**
 * A logo field (invoice settings, portal branding): uploaded as soon as it is chosen, shown
 * before the form is saved, replaced or removed.
 */
export function LogoUpload({
	blobId,
	savedBlobId,
	savedUrl,
	error,
	isReadOnly = false,
	onChange,
	accepted,
	wrongType,
	hint,
	previewClassName,
}: LogoUploadProps) {
	const id = useId()
	const [local, setLocal] = useState<{ blobId: string; url: string } | null>(null)
	const [problem, setProblem] = useState<string | null>(null)
	const [isUploading, setIsUploading] = useState(false)
	const url = blobId && local?.blobId === blobId ? local.url : blobId && blobId === savedBlobId ? savedUrl : null
	const shown = problem ?? error

	useEffect(() => () => (local ? URL.revokeObjectURL(local.url) : undefined), [local])

	async function upload(file: File | undefined): Promise<void> {
		if (!file) {
			return
		}
		if (!accepted.includes(file.type)) {
			setProblem(wrongType)
			return
		}
		setProblem(null)
		setIsUploading(true)
		try {
			const uploaded = await uploadFile(file)
			if (uploaded.blobId) {
				setLocal({ blobId: uploaded.blobId, url: URL.createObjectURL(file) })
				onChange(uploaded.blobId)
			}
		} catch (uploadError) {
			setProblem(errorMessage(uploadError))
		} finally {
			setIsUploading(false)
		}
	}

	return (
		<fieldset className="grid gap-2" aria-describedby={shown ? `${id}-error` : undefined}>
			<legend className="mb-1 font-medium text-sm">Logo</legend>
			<div className="flex flex-wrap items-center gap-3">
				<div
					className={cn(
						'flex h-14 w-28 shrink-0 items-center justify-center overflow-hidden rounded-md border',
						previewClassName,
					)}
				>
					{url ? (
						<img src={url} alt="Logo preview" className="size-full object-contain" />
					) : (
						<ImagePlus aria-hidden className="size-5 text-muted-foreground" />
					)}
				</div>
				{isReadOnly ? null : (
					<div className="flex flex-wrap gap-2">
						<Button variant="outline" size="sm" asChild isLoading={isUploading}>
							<label htmlFor={`${id}-file`} className="cursor-pointer">
								<ImageUp aria-hidden /> {blobId ? 'Replace logo' : 'Upload logo'}
							</label>
						</Button>
						<input
							id={`${id}-file`}
							type="file"
							accept={accepted.join(',')}
							className="sr-only"
							aria-label="Logo file"
							onChange={(event) => {
								void upload(event.target.files?.[0])
								event.target.value = ''
							}}
						/>
						{blobId ? (
							<Button variant="ghost" size="sm" onClick={() => onChange(null)}>
								<X aria-hidden /> Remove logo
							</Button>
						) : null}
					</div>
				)}
			</div>
			<p className="text-[13px] text-muted-foreground">{hint}</p>
			{shown ? (
				<p id={`${id}-error`} className="text-[13px] text-error">
					{shown}
				</p>
			) : null}
		</fieldset>
	)
}
