import type { PublicField, PublicForm } from '@blocksmith/contracts/forms.ts'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { createChoiceReader, formScope } from '../public/public-api.ts'
import type { UploadFile } from './fields/field-frame.tsx'
import type { LoadChoices } from './fields/reference-field.tsx'

// What the public form reads and loads besides the answers: the choices of people and relation
// fields (the form's scoped public reads), each file field's uploader (the preview passes its own
// choices and only pretends to upload), and the keys of one question at a time.

/** The choices to offer: the given loader, or (live) the form's scoped reads; none in a preview without one. */
export function useChoiceLoader(
	form: Pick<PublicForm, 'id' | 'tool'>,
	isLive: boolean,
	unlockToken: string | null,
	loadChoices: LoadChoices | undefined,
): LoadChoices | undefined {
	// Each question's choices through its own scope (`field`): the server gives only what it allows.
	const liveLoader = useMemo<LoadChoices>(
		() => createChoiceReader(form.tool, formScope(form.id, unlockToken)),
		[form.id, form.tool, unlockToken],
	)
	return loadChoices ?? (isLive ? liveLoader : undefined)
}

/** An uploader per file or signature field: live, straight to storage by a signed address; in a preview, nothing sent. */
export function useUploaders(
	fields: PublicField[],
	isLive: boolean,
	formId: string,
	unlockToken: string | null,
): Map<string, UploadFile> {
	return useMemo(() => {
		const byField = new Map<string, UploadFile>()
		for (const field of fields) {
			if (field.kind !== 'files' && field.kind !== 'signature') {
				continue
			}
			byField.set(
				field.id,
				isLive
					? async (file, onProgress, signal) => {
							const { uploadFormFile } = await import('../public/form-upload.ts')
							return uploadFormFile({ formId, fieldId: field.id, unlockToken }, file, onProgress, signal)
						}
					: // The preview sends nothing: the file is only listed.
						async (file) => ({
							blobId: `preview-${crypto.getRandomValues(new Uint32Array(2)).join('')}`,
							name: file.name,
						}),
			)
		}
		return byField
	}, [fields, isLive, formId, unlockToken])
}

/** Which file fields have uploads under way (the form waits for them), and a callback per field to say so. */
export function useBusyFields(fields: PublicField[]) {
	const [busyFields, setBusyFields] = useState<ReadonlySet<string>>(() => new Set())
	const setBusy = useCallback((fieldId: string, isBusy: boolean) => {
		setBusyFields((current) => {
			if (current.has(fieldId) === isBusy) {
				return current
			}
			const next = new Set(current)
			if (isBusy) {
				next.add(fieldId)
			} else {
				next.delete(fieldId)
			}
			return next
		})
	}, [])
	const busyCallbacks = useMemo(
		() => new Map(fields.map((field) => [field.id, (isBusy: boolean) => setBusy(field.id, isBusy)])),
		[fields, setBusy],
	)
	return { busyFields, busyCallbacks }
}

type Keys = typeof import('./one-at-a-time.tsx')

/** The keys of one question at a time, loaded only by forms shown that way; null until they arrive. */
export function useKeys(isOneAtATime: boolean): Keys | null {
	const [keys, setKeys] = useState<Keys | null>(null)
	useEffect(() => {
		if (!isOneAtATime) {
			return
		}
		let isCurrent = true
		import('./one-at-a-time.tsx').then(
			(module) => isCurrent && setKeys(module),
			// Without them the buttons still move: the form works, only slower to use.
			() => {},
		)
		return () => {
			isCurrent = false
		}
	}, [isOneAtATime])
	return keys
}
