import type { FieldError } from '@blocksmith/contracts/errors.ts'
import {
	type AnswerFile,
	type FileRules,
	fileRulesOf,
	formatBytes,
	isAcceptedFile,
} from '@blocksmith/contracts/form-files.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { FileValue } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray, isNotNull, isNull, like, lt } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { Db } from '#src/db/client.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import type { RateLimitRule } from '#src/lib/rate-limit.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { FormsDeps } from './forms.deps.ts'

// File-upload and signature questions. A visitor announces each file for one field of a published form and PUTs
// it to the signed URL it gets back (the same direct uploads members use); the blob is scoped to
// that form and field, so it can only be attached there, and only once. The answer then names
// the blobs; the server checks them against the field's limits again, since the builder may have
// changed them. Blobs never attached are swept after a day. Questions without a property keep
// their files with the answer the same way (claimed by the submission), so they can be opened later.

/** Explicit limits on anonymous uploads (RATE_LIMITS=false turns them off for load tests). */
export const formUploadLimits = {
	/** Files announced by one address for one form: ten full answers of the largest field. */
	perIp: { limit: 100, windowSeconds: 10 * 60 },
	/** Files announced for one form by everyone. */
	perForm: { limit: 600, windowSeconds: 60 },
	/** An upload not attached to an answer within this is deleted. */
	unclaimedHours: 24,
} satisfies Record<string, RateLimitRule | number>

/**
 * A signature is one PNG the page draws: a few tens of KB for a large pad, so a megabyte is
 * plenty and keeps a forged "signature" from being a place to store anything else.
 */
export const signatureFileRules: FileRules = { maxFiles: 1, maxFileBytes: 1024 * 1024, accept: ['image/png'] }

/** The widest and tallest signature taken, in pixels: a large pad on a dense screen is well within. */
export const signatureMaxPixels = 4000

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/**
 * The width and height a PNG declares, from its first 24 bytes (the 8-byte signature, then the
 * IHDR chunk, which must come first and be 13 bytes long), or null when the bytes are no PNG.
 */
function pngSizeOf(head: Uint8Array): { width: number; height: number } | null {
	if (head.length < 24 || !pngSignature.every((byte, index) => head[index] === byte)) {
		return null
	}
	const view = new DataView(head.buffer, head.byteOffset, head.byteLength)
	const type = String.fromCharCode(...head.subarray(12, 16))
	if (view.getUint32(8) !== 13 || type !== 'IHDR') {
		return null
	}
	return { width: view.getUint32(16), height: view.getUint32(20) }
}

/** The first `length` bytes of a stored file (fewer when it is shorter), without reading the rest. */
async function readHead(storage: Storage, key: string, length: number): Promise<Uint8Array> {
	const file = await storage.get(key)
	if (!file) {
		return new Uint8Array()
	}
	const head = new Uint8Array(length)
	let filled = 0
	const reader = file.body.getReader()
	try {
		while (filled < length) {
			const { done, value } = await reader.read()
			if (done) {
				break
			}
			const part = value.subarray(0, length - filled)
			head.set(part, filled)
			filled += part.length
		}
	} finally {
		// Closes the file (or the bucket's response) at once rather than reading it to the end.
		await reader.cancel()
	}
	return head.subarray(0, filled)
}

/**
 * Whether a stored signature really is a PNG of sane size. Its declared type is only what the
 * visitor said: without this, an HTML or SVG file sent as image/png would be kept as the
 * answer's "signature", and shown, linked and mailed as one.
 */
async function isSignaturePng(storage: Storage, key: string): Promise<boolean> {
	const size = pngSizeOf(await readHead(storage, key, 24))
	return (
		size !== null &&
		size.width > 0 &&
		size.height > 0 &&
		size.width <= signatureMaxPixels &&
		size.height <= signatureMaxPixels
	)
}

/** What a file or signature question takes: the field's limits, or the fixed ones of a signature. */
export function uploadRulesOf(field: FormField): FileRules {
	return field.kind === 'signature' ? signatureFileRules : fileRulesOf(field)
}

/** Where an anonymous upload for a form's field may go (blobs.scope). */
export function formUploadScope(formId: string, fieldId: string): string {
	return `form:${formId}/${fieldId}`
}

/** The blob ids an answer names, or null when it is not a list of `{ blobId }`. */
export function answerBlobIds(raw: unknown): string[] | null {
	if (!Array.isArray(raw)) {
		return null
	}
	const ids: string[] = []
	for (const item of raw) {
		const blobId = item && typeof item === 'object' ? (item as Partial<AnswerFile>).blobId : undefined
		if (typeof blobId !== 'string' || blobId.length === 0 || blobId.length > 64) {
			return null
		}
		if (!ids.includes(blobId)) {
			ids.push(blobId)
		}
	}
	return ids
}

/**
 * The files of each file field's answer as the property stores them, named as uploaded. Each
 * must have been uploaded to this form's field, not be attached to another answer, and fit the
 * field's limits now; a signature must be a PNG by its bytes. Problems are added to `errors` by field.
 */
export async function resolveAnswerFiles(
	{ db, storage }: { db: Db; storage: Storage },
	form: { id: string; organizationId: string },
	wanted: { field: FormField; blobIds: string[] }[],
	errors: FieldError[],
): Promise<Map<string, FileValue[]>> {
	const resolved = new Map<string, FileValue[]>()
	const allIds = wanted.flatMap((entry) => entry.blobIds)
	if (allIds.length === 0) {
		return resolved
	}
	const rows = await db
		.select()
		.from(blobs)
		.where(and(eq(blobs.organizationId, form.organizationId), inArray(blobs.id, allIds)))
	const byId = new Map(rows.map((row) => [row.id, row]))
	for (const { field, blobIds } of wanted) {
		const rules = uploadRulesOf(field)
		const files: FileValue[] = []
		let problem: string | null = null
		for (const id of blobIds) {
			const blob = byId.get(id)
			if (!blob || blob.scope !== formUploadScope(form.id, field.id) || blob.status !== 'uploaded') {
				problem = `A file of "${field.label}" was not uploaded. Add it again.`
			} else if (blob.claimedBy !== null) {
				problem = `A file of "${field.label}" was already sent with another answer. Add it again.`
			} else if (blob.byteSize > rules.maxFileBytes) {
				problem = `"${blob.filename}" is larger than ${formatBytes(rules.maxFileBytes)}.`
			} else if (!isAcceptedFile(rules.accept, blob.filename, blob.contentType)) {
				problem = `"${field.label}" does not take files like "${blob.filename}".`
			} else if (field.kind === 'signature' && !(await isSignaturePng(storage, blob.key))) {
				problem = `"${field.label}" must be a PNG picture of at most ${signatureMaxPixels}×${signatureMaxPixels} pixels. Sign again.`
			} else {
				files.push({ name: blob.filename, url: null, blobId: blob.id })
			}
			if (problem) {
				break
			}
		}
		if (problem) {
			errors.push({ field: `answers.${field.id}`, message: problem })
		} else {
			resolved.set(field.id, files)
		}
	}
	return resolved
}

/** Attaches an answer's files to it, in its transaction; false when one is already attached elsewhere. */
export async function claimAnswerFiles(db: Db, submissionId: string, blobIds: string[]): Promise<boolean> {
	if (blobIds.length === 0) {
		return true
	}
	const claimed = await db
		.update(blobs)
		.set({ claimedBy: `form-submission:${submissionId}` })
		.where(and(inArray(blobs.id, blobIds), isNull(blobs.claimedBy)))
		.returning({ id: blobs.id })
	return claimed.length === blobIds.length
}

/** Deletes visitors' uploads that no answer took within a day: abandoned forms, removed files. */
export async function sweepUnclaimedUploads(deps: FormsDeps, now = new Date()): Promise<number> {
	const cutoff = new Date(now.getTime() - formUploadLimits.unclaimedHours * 60 * 60 * 1000)
	const stale = await deps.db
		.select({ id: blobs.id, key: blobs.key })
		.from(blobs)
		.where(
			and(isNotNull(blobs.scope), like(blobs.scope, 'form:%'), isNull(blobs.claimedBy), lt(blobs.createdAt, cutoff)),
		)
		.limit(500)
	for (const blob of stale) {
		// The row first: a file without its row is unreachable, a row without its file is a broken link.
		const [deleted] = await deps.db
			.delete(blobs)
			.where(and(eq(blobs.id, blob.id), isNull(blobs.claimedBy)))
			.returning({ key: blobs.key })
		if (deleted) {
			await deps.storage.delete(deleted.key)
		}
	}
	return stale.length
}

export function createUploadSweepQueue(deps: () => FormsDeps): JobQueue<Record<string, never>> {
	return {
		name: 'form-upload-sweep',
		options: { retryLimit: 0 },
		cron: '17 * * * *',
		handle: async () => {
			await sweepUnclaimedUploads(deps())
		},
	}
}
