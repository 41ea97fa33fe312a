import { randomBytes } from 'node:crypto'
import type { BlobWithUrl, DirectUploadRequest, DirectUploadResponse } from '@blocksmith/contracts/uploads.ts'
import { and, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import type { Storage } from '#src/lib/storage.ts'
import { isAllowedContentType, normaliseContentType } from './uploads.policy.ts'
import { blobs } from './uploads.schema.ts'

export type UploadsDeps = {
	db: Db
	storage: Storage
	publicUrl: string
	authSecret: string
	maxBytes: number
	/** Asked before a file is announced: the plan counts the bytes an organization keeps. */
	subscriptions: Pick<Subscriptions, 'assertCanAdd'>
}

const uploadUrlSeconds = 10 * 60
const downloadUrlSeconds = 60 * 60

type BlobRow = typeof blobs.$inferSelect

function signatureFor(
	deps: Pick<UploadsDeps, 'authSecret'>,
	purpose: 'upload' | 'download',
	blobId: string,
	expires: number,
): string {
	return sign(deriveKey(deps.authSecret, `blob-${purpose}`), `${blobId}.${expires}`)
}

export function verifySignedUrl(
	deps: UploadsDeps,
	purpose: 'upload' | 'download',
	blobId: string,
	query: { expires: number; signature: string },
): void {
	const isValid = isValidSignature(
		deriveKey(deps.authSecret, `blob-${purpose}`),
		`${blobId}.${query.expires}`,
		query.signature,
	)
	if (!isValid || query.expires * 1000 < Date.now()) {
		throw new AppError('INVALID_TOKEN', { detail: 'This upload link is invalid or has expired. Request a new one.' })
	}
}

function toBlob(row: BlobRow) {
	return {
		id: row.id,
		filename: row.filename,
		contentType: row.contentType,
		byteSize: row.byteSize,
		checksum: row.checksum,
		status: row.status,
		createdAt: row.createdAt.toISOString(),
	}
}

/**
 * Announces a file: a pending blob and a signed URL to PUT it to. `scope` limits where an
 * anonymous upload may be attached (see blobs.scope).
 */
export async function createDirectUpload(
	deps: UploadsDeps,
	ctx: { orgId: string; userId: string | null; scope?: string },
	input: DirectUploadRequest,
): Promise<DirectUploadResponse> {
	if (input.byteSize > deps.maxBytes) {
		throw new AppError('PAYLOAD_TOO_LARGE', {
			detail: `Files can be at most ${Math.floor(deps.maxBytes / 1024 / 1024)} MB.`,
			errors: [{ field: 'byteSize', message: `At most ${deps.maxBytes} bytes.` }],
		})
	}
	const contentType = normaliseContentType(input.contentType)
	if (!isAllowedContentType(contentType)) {
		throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
			detail: `Files of type ${contentType} are not accepted.`,
			errors: [{ field: 'contentType', message: 'This file type is not accepted.' }],
		})
	}
	await deps.subscriptions.assertCanAdd(deps.db, ctx.orgId, 'fileStorageBytes', input.byteSize)
	const id = randomBytes(16).toString('base64url')
	const [row] = await deps.db
		.insert(blobs)
		.values({
			id,
			organizationId: ctx.orgId,
			key: `${ctx.orgId}/${id}`,
			filename: input.filename,
			contentType,
			byteSize: input.byteSize,
			checksum: input.checksum,
			createdBy: ctx.userId,
			scope: ctx.scope ?? null,
		})
		.returning()
	const blob = found(row)
	const expires = Math.floor(Date.now() / 1000) + uploadUrlSeconds
	const signature = signatureFor(deps, 'upload', id, expires)
	return {
		...toBlob(blob),
		directUpload: {
			url: `${deps.publicUrl}/api/uploads/${id}?expires=${expires}&signature=${signature}`,
			method: 'PUT',
			headers: { 'Content-Type': contentType, 'Content-MD5': input.checksum },
			expiresAt: new Date(expires * 1000).toISOString(),
		},
	}
}

/** Receives the file for a signed upload URL; checks it against what was announced. */
export async function receiveUpload(
	deps: UploadsDeps,
	blobId: string,
	request: {
		contentType: string | undefined
		contentLength: number | undefined
		body: ReadableStream<Uint8Array> | null
	},
): Promise<BlobWithUrl> {
	const [row] = await deps.db.select().from(blobs).where(eq(blobs.id, blobId))
	const blob = found(row)
	if (blob.status !== 'pending') {
		throw new AppError('CONFLICT', { detail: 'This file was already uploaded.' })
	}
	if (normaliseContentType(request.contentType ?? '') !== blob.contentType) {
		throw new AppError('UPLOAD_MISMATCH', {
			detail: `Send the file with Content-Type ${blob.contentType}, as announced.`,
		})
	}
	if (request.contentLength !== undefined && request.contentLength !== blob.byteSize) {
		throw new AppError('UPLOAD_MISMATCH', { detail: `The file must be ${blob.byteSize} bytes, as announced.` })
	}
	if (!request.body) {
		throw new AppError('UPLOAD_MISMATCH', { detail: 'The request has no file in its body.' })
	}
	await deps.storage.put(blob.key, request.body, { byteSize: blob.byteSize, checksum: blob.checksum })
	const [updated] = await deps.db
		.update(blobs)
		.set({ status: 'uploaded', uploadedAt: new Date() })
		.where(and(eq(blobs.id, blobId), eq(blobs.status, 'pending')))
		.returning()
	return withDownloadUrl(deps, found(updated))
}

/** A link that downloads the blob without signing in, for `seconds`. */
export function signedDownloadUrl(
	deps: Pick<UploadsDeps, 'publicUrl' | 'authSecret'>,
	blobId: string,
	seconds = downloadUrlSeconds,
): string {
	const expires = Math.floor(Date.now() / 1000) + seconds
	const signature = signatureFor(deps, 'download', blobId, expires)
	return `${deps.publicUrl}/api/uploads/${blobId}?expires=${expires}&signature=${signature}`
}

function withDownloadUrl(deps: UploadsDeps, blob: BlobRow): BlobWithUrl {
	if (blob.status !== 'uploaded') {
		return { ...toBlob(blob), url: null }
	}
	return { ...toBlob(blob), url: signedDownloadUrl(deps, blob.id) }
}

export async function getBlob(deps: UploadsDeps, ctx: { orgId: string }, blobId: string): Promise<BlobWithUrl> {
	const [row] = await deps.db
		.select()
		.from(blobs)
		.where(and(eq(blobs.id, blobId), eq(blobs.organizationId, ctx.orgId)))
	return withDownloadUrl(deps, found(row, 'No such file.'))
}

export async function openDownload(deps: UploadsDeps, blobId: string) {
	const [row] = await deps.db.select().from(blobs).where(eq(blobs.id, blobId))
	const blob = found(row)
	const file = blob.status === 'uploaded' ? await deps.storage.get(blob.key) : null
	return { blob, file: found(file, 'The file is not there (yet).') }
}

/**
 * The bytes an organization keeps, for its plan's storage limit: uploaded files, and files
 * announced whose upload link still works (so announcing many at once cannot pass the limit).
 * A visitor's upload no answer has taken yet is left out: it is swept unless an answer takes it
 * (blobs.scope). Expired announcements never become files. One sum on the organization's index.
 */
export async function measureStoredBytes(db: Db, organizationId: string): Promise<number> {
	const [row] = await db
		.select({ bytes: sql<string | number>`coalesce(sum(${blobs.byteSize}), 0)` })
		.from(blobs)
		.where(
			and(
				eq(blobs.organizationId, organizationId),
				or(isNull(blobs.scope), isNotNull(blobs.claimedBy)),
				or(eq(blobs.status, 'uploaded'), gt(blobs.createdAt, new Date(Date.now() - uploadUrlSeconds * 1000))),
			),
		)
	return Number(row?.bytes ?? 0)
}
