import { ImagePlus, ImageUp, X } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { uploadFile } from '#src/workspaces/api/workspaces.ts'

const accepted = ['image/png', 'image/jpeg', 'image/webp']

/** The portal's logo: uploaded at once (as the invoice settings' logo) and shown before saving. */
export function LogoField({
	blobId,
	savedBlobId,
	savedUrl,
	error,
	onChange,
}: {
	blobId: string | null
	savedBlobId: string | null
	/** The saved logo's link, while the saved one is chosen. */
	savedUrl: string | null
	error: string | undefined
	onChange: (blobId: string | null) => void
}) {
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
			// Never SVG: a drawing can carry script, and the portal is the team's clients' page.
			setProblem('Choose a PNG, JPEG or WebP image.')
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
				<div className="flex h-14 w-28 shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted/30">
					{url ? (
						<img src={url} alt="Logo preview" className="size-full object-contain" />
					) : (
						<ImagePlus aria-hidden className="size-5 text-muted-foreground" />
					)}
				</div>
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
			</div>
			<p className="text-[13px] text-muted-foreground">
				PNG, JPEG or WebP; shown at the top of every page and on the sign-in page.
			</p>
			{shown ? (
				<p id={`${id}-error`} className="text-[13px] text-error">
					{shown}
				</p>
			) : null}
		</fieldset>
	)
}
