import { type AnswerFile, fileRulesOf, formatBytes, isAcceptedFile } from '@blocksmith/contracts/form-files.ts'
import { type DragEvent, useEffect, useRef, useState } from 'react'
import { describedBy, type FieldProps, GroupFrame } from './field-frame.tsx'

// A file-upload field: files are chosen (or dropped) and uploaded at once, one by one with their
// progress, so the answer only names files already stored. The field's limits are checked here
// first, to say at once what the server would refuse; the server checks them again. Loaded only
// by forms that have such a field.

type Item = {
	key: number
	name: string
	size: number
	/** 0–1 while uploading. */
	progress: number
	error: string | null
	controller: AbortController
}

/** What the help line says about the limits: `Up to 3 files, 10 MB each. PDF, image files.` */
function limitsNote(maxFiles: number, maxFileBytes: number, accept: string[]): string {
	const count = maxFiles === 1 ? 'One file' : `Up to ${maxFiles} files`
	const types = accept.length > 0 ? ` Accepted: ${accept.join(', ')}.` : ''
	return `${count}, ${formatBytes(maxFileBytes)}${maxFiles === 1 ? '' : ' each'}.${types}`
}

function uploadError(error: unknown): string {
	const detail = (error as { detail?: unknown }).detail
	return typeof detail === 'string' ? detail : 'The file could not be uploaded. Try again.'
}

export function FilesField(props: FieldProps) {
	const { field, value, onChange, controlId, upload, onBusyChange } = props
	const rules = fileRulesOf(field)
	const files = Array.isArray(value) ? (value as AnswerFile[]).filter((file) => typeof file === 'object') : []
	const [items, setItems] = useState<Item[]>([])
	const [isDragging, setIsDragging] = useState(false)
	const nextKey = useRef(0)
	// The latest files, for uploads that finish after other changes.
	const latest = useRef(files)
	latest.current = files

	const uploading = items.filter((item) => item.error === null).length
	useEffect(() => {
		onBusyChange?.(uploading > 0)
	}, [uploading, onBusyChange])
	// Leaving the page (or the field hidden by a rule) stops its uploads.
	const itemsRef = useRef(items)
	itemsRef.current = items
	useEffect(
		() => () => {
			for (const item of itemsRef.current) {
				item.controller.abort()
			}
		},
		[],
	)

	const update = (key: number, change: Partial<Item> | null) =>
		setItems((current) =>
			change === null
				? current.filter((item) => item.key !== key)
				: current.map((item) => (item.key === key ? { ...item, ...change } : item)),
		)

	const add = (chosen: File[]) => {
		let room = rules.maxFiles - files.length - uploading
		const added: Item[] = []
		const toSend: { item: Item; file: File }[] = []
		for (const file of chosen) {
			const item: Item = {
				key: nextKey.current++,
				name: file.name,
				size: file.size,
				progress: 0,
				error: null,
				controller: new AbortController(),
			}
			if (room <= 0) {
				item.error = `Only ${rules.maxFiles} ${rules.maxFiles === 1 ? 'file' : 'files'} can be added.`
			} else if (file.size > rules.maxFileBytes) {
				item.error = `Larger than ${formatBytes(rules.maxFileBytes)}.`
			} else if (!isAcceptedFile(rules.accept, file.name, file.type)) {
				item.error = `Not a file type this field takes (${rules.accept.join(', ')}).`
			} else if (!upload) {
				item.error = 'Files cannot be added here.'
			} else {
				room--
				toSend.push({ item, file })
			}
			added.push(item)
		}
		// Listed first, so the first progress report has its row to update.
		setItems((current) => [...current, ...added])
		for (const { item, file } of toSend) {
			void upload?.(file, (progress) => update(item.key, { progress }), item.controller.signal).then(
				(sent) => {
					update(item.key, null)
					// Two uploads can finish before the form renders again: each adds to the latest list.
					latest.current = [...latest.current, sent]
					onChange(latest.current)
				},
				(error: unknown) => {
					if ((error as Error).name !== 'AbortError') {
						update(item.key, { error: uploadError(error) })
					}
				},
			)
		}
	}

	const remove = (blobId: string) => onChange(files.filter((file) => file.blobId !== blobId))
	const dismiss = (item: Item) => {
		item.controller.abort()
		update(item.key, null)
	}
	const isFull = files.length + uploading >= rules.maxFiles

	const onDrop = (event: DragEvent) => {
		event.preventDefault()
		setIsDragging(false)
		if (!isFull) {
			add(Array.from(event.dataTransfer.files))
		}
	}

	return (
		<GroupFrame {...props} note={[props.note, limitsNote(rules.maxFiles, rules.maxFileBytes, rules.accept)].join(' ')}>
			{/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; the button does the same for everyone. */}
			<div
				className={`flex flex-col items-center gap-2 rounded-md border border-dashed px-4 py-5 text-center text-muted-foreground text-sm transition-colors sm:flex-row sm:text-left ${isDragging ? 'border-primary bg-primary/5' : 'border-input'}`}
				onDragOver={(event) => {
					event.preventDefault()
					setIsDragging(!isFull)
				}}
				onDragLeave={() => setIsDragging(false)}
				onDrop={onDrop}
			>
				<label
					className={`inline-flex h-10 shrink-0 items-center justify-center rounded-md border border-input bg-background px-4 font-medium text-foreground text-sm shadow-xs transition-colors has-focus-visible:ring-3 has-focus-visible:ring-ring/30 dark:bg-input/20 ${isFull ? 'cursor-not-allowed opacity-50' : 'cursor-pointer hover:bg-accent'}`}
				>
					<input
						id={controlId}
						type="file"
						className="sr-only"
						multiple={rules.maxFiles > 1}
						accept={rules.accept.length > 0 ? rules.accept.join(',') : undefined}
						disabled={isFull}
						aria-describedby={describedBy(props)}
						aria-invalid={props.error ? true : undefined}
						onChange={(event) => {
							add(Array.from(event.target.files ?? []))
							// The same file can be chosen again after it was removed.
							event.target.value = ''
						}}
					/>
					{rules.maxFiles > 1 ? 'Choose files' : 'Choose a file'}
				</label>
				<span>
					{isFull ? 'No more files can be added.' : rules.maxFiles > 1 ? 'or drop them here' : 'or drop it here'}
				</span>
			</div>
			{files.length > 0 || items.length > 0 ? (
				<ul className="grid gap-2" aria-label={`Files of ${field.label}`}>
					{files.map((file) => (
						<li
							key={file.blobId}
							className="flex items-center justify-between gap-3 rounded-md border border-input px-3 py-2 text-sm"
						>
							<span className="min-w-0 truncate text-foreground">{file.name}</span>
							<button
								type="button"
								className="shrink-0 font-medium text-link text-sm hover:underline"
								onClick={() => remove(file.blobId)}
								aria-label={`Remove ${file.name}`}
							>
								Remove
							</button>
						</li>
					))}
					{items.map((item) => (
						<li
							key={item.key}
							className={`grid gap-1.5 rounded-md border px-3 py-2 text-sm ${item.error ? 'border-error/40 bg-error/5' : 'border-input'}`}
						>
							<div className="flex items-center justify-between gap-3">
								<span className="min-w-0 truncate text-foreground">
									{item.name} <span className="text-muted-foreground">({formatBytes(item.size)})</span>
								</span>
								<button
									type="button"
									className="shrink-0 font-medium text-link text-sm hover:underline"
									onClick={() => dismiss(item)}
									aria-label={item.error ? `Dismiss ${item.name}` : `Cancel ${item.name}`}
								>
									{item.error ? 'Dismiss' : 'Cancel'}
								</button>
							</div>
							{item.error ? (
								<p role="alert" className="text-[13px] text-error">
									{item.error}
								</p>
							) : (
								<progress
									className="h-1.5 w-full overflow-hidden rounded-full accent-primary"
									value={item.progress}
									max={1}
									aria-label={`Uploading ${item.name}`}
								/>
							)}
						</li>
					))}
				</ul>
			) : null}
		</GroupFrame>
	)
}
