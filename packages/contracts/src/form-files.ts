// File-upload fields: their limits and the check of a file against them. Zod-free, so the public
// form page (which has a size budget) and the server use the same rules.

/** Notion takes single-part uploads up to 20 MB; a form never asks for more. */
export const maxFormFileBytes = 20 * 1024 * 1024
/** Files one field may take. */
export const maxFormFiles = 10

/** A file-upload field's limits, as the builder sets them. */
export type FileRules = {
	/** How many files one answer may hold. */
	maxFiles: number
	/** The largest file accepted, in bytes. */
	maxFileBytes: number
	/**
	 * The file types accepted, as an `accept` attribute lists them: MIME types (`application/pdf`),
	 * families (`image/*`) or extensions (`.pdf`). Empty: every type the server stores.
	 */
	accept: string[]
}

export const defaultFileRules: FileRules = { maxFiles: 1, maxFileBytes: 10 * 1024 * 1024, accept: [] }

/** A field's limits: its own, or the defaults. */
export function fileRulesOf(field: { fileRules?: FileRules | null }): FileRules {
	return field.fileRules ?? defaultFileRules
}

/** Whether a file of this name and type is one the list accepts (case-insensitively). */
export function isAcceptedFile(accept: string[], filename: string, contentType: string): boolean {
	if (accept.length === 0) {
		return true
	}
	const name = filename.trim().toLowerCase()
	const type = (contentType.split(';')[0] ?? '').trim().toLowerCase()
	return accept.some((entry) => {
		const wanted = entry.trim().toLowerCase()
		if (wanted.startsWith('.')) {
			return name.endsWith(wanted) && name.length > wanted.length
		}
		if (wanted.endsWith('/*')) {
			return type.startsWith(wanted.slice(0, -1))
		}
		return type === wanted
	})
}

/** A size for people: `512 KB`, `2.5 MB`. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024 * 1024) {
		return `${Math.max(1, Math.round(bytes / 1024))} KB`
	}
	const megabytes = bytes / 1024 / 1024
	return `${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1)} MB`
}

/** A file an answer holds: uploaded to the form (its blob) and named as it was uploaded. */
export type AnswerFile = { blobId: string; name: string }
