import type { AnswerFile } from '@blocksmith/contracts/form-files.ts'
import type { DirectUploadResponse } from '@blocksmith/contracts/uploads.ts'
import SparkMD5 from 'spark-md5'
import { PublicApiError, request } from './public-api.ts'

// A visitor's file for a file field: announced to the form (which checks the field's limits and
// answers with a signed URL), then PUT there with its progress shown. Loaded only by forms that
// have a file field, with the MD5 library it needs.

export type UploadProgress = (fraction: number) => void

/** Announces and uploads one file for a field of a published form; the answer entry that names it. */
export async function uploadFormFile(
	target: { formId: string; fieldId: string; unlockToken: string | null },
	file: File,
	onProgress: UploadProgress,
	signal: AbortSignal,
): Promise<AnswerFile> {
	const buffer = await file.arrayBuffer()
	// Web Crypto has no MD5; the server checks the bytes arrived as announced with it.
	const checksum = btoa(SparkMD5.ArrayBuffer.hash(buffer, true))
	const announced = await request<DirectUploadResponse>(
		`/api/forms/${encodeURIComponent(target.formId)}/uploads`,
		{
			fieldId: target.fieldId,
			filename: file.name,
			byteSize: file.size,
			checksum,
			contentType: file.type || 'application/octet-stream',
			...(target.unlockToken ? { unlockToken: target.unlockToken } : {}),
		},
		signal,
	)
	// The page's own origin: the server's public address may be written differently (a proxy).
	const url = new URL(announced.directUpload.url)
	await put(`${url.pathname}${url.search}`, announced.directUpload.headers, buffer, onProgress, signal)
	return { blobId: announced.id, name: file.name }
}

/** A PUT with upload progress, which fetch cannot report. */
function put(
	path: string,
	headers: Record<string, string>,
	body: ArrayBuffer,
	onProgress: UploadProgress,
	signal: AbortSignal,
): Promise<void> {
	return new Promise((resolve, reject) => {
		const xhr = new XMLHttpRequest()
		xhr.open('PUT', path)
		for (const [name, value] of Object.entries(headers)) {
			xhr.setRequestHeader(name, value)
		}
		xhr.upload.onprogress = (event) => {
			if (event.lengthComputable && event.total > 0) {
				onProgress(event.loaded / event.total)
			}
		}
		xhr.onload = () => {
			if (xhr.status >= 200 && xhr.status < 300) {
				resolve()
				return
			}
			let detail = 'The file could not be uploaded. Try again.'
			try {
				const problem = JSON.parse(xhr.responseText) as { detail?: unknown }
				if (typeof problem.detail === 'string') {
					detail = problem.detail
				}
			} catch {
				// Not a problem document: the general message does.
			}
			reject(new PublicApiError({ status: xhr.status, code: 'UPLOAD_FAILED', detail }))
		}
		xhr.onerror = () =>
			reject(new PublicApiError({ status: 0, code: 'NETWORK', detail: 'The upload was cut off. Try again.' }))
		const abort = () => xhr.abort()
		signal.addEventListener('abort', abort, { once: true })
		xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'))
		xhr.send(body)
	})
}
