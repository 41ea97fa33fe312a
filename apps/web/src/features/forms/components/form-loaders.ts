import type { PublicField, PublicForm } from '@blocksmith/contracts/forms.ts'
import type { WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'
import { useCallback, useMemo, useState } from 'react'
import { fetchPeople, fetchRelationChoices, formScope } from '../public/public-api.ts'
import type { UploadFile } from './fields/field-frame.tsx'
import type { LoadChoices } from './fields/reference-field.tsx'

// What the public form reads and sends besides the answers: the choices of people and relation
// fields (the form's scoped public reads) and each file field's uploader. The preview passes its
// own choices and only pretends to upload.

/** The choices to offer: the given loader, or (live) the form's scoped reads; none in a preview without one. */
export function useChoiceLoader(
	form: Pick<PublicForm, 'id' | 'tool'>,
	isLive: boolean,
	unlockToken: string | null,
	loadChoices: LoadChoices | undefined,
): LoadChoices | undefined {
	const liveLoader = useMemo<LoadChoices>(() => {
		const scope = formScope(form.id, unlockToken)
		let people: Promise<WorkspaceUser[]> | null = null
		return async (field, search, signal) => {
			if (field.kind === 'people') {
				// The people list is small and read once; searching it happens here.
				people ??= fetchPeople(form.tool, scope).catch((error: unknown) => {
					people = null
					throw error
				})
				const needle = search.trim().toLowerCase()
				return (await people)
					.filter((user) => user.type === 'person' && (!needle || user.name.toLowerCase().includes(needle)))
					.map((user) => ({ id: user.id, label: user.name }))
			}
			if (!field.relationDatabaseId) {
				return []
			}
			const [database] = await fetchRelationChoices(form.tool, scope, field.relationDatabaseId, search, signal)
			return (database?.rows ?? []).map((row) => ({ id: row.id, label: row.title || 'Untitled' }))
		}
	}, [form.id, form.tool, unlockToken])
	return loadChoices ?? (isLive ? liveLoader : undefined)
}

/** An uploader per file field: live, straight to storage by a signed address; in a preview, nothing sent. */
export function useUploaders(
	fields: PublicField[],
	isLive: boolean,
	formId: string,
	unlockToken: string | null,
): Map<string, UploadFile> {
	return useMemo(() => {
		const byField = new Map<string, UploadFile>()
		for (const field of fields) {
			if (field.kind !== 'files') {
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
