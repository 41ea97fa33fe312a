import { Readable } from 'node:stream'
import { and, asc, eq, gt, isNotNull, isNull, lte, notLike, or } from 'drizzle-orm'
import type { ExportContext, ExportContributor } from '#src/core/exports/exports.contributor.ts'
import { archiveName } from '#src/core/exports/exports.names.ts'
import { blobs } from './uploads.schema.ts'

// The uploads' part of an organization's export (decision 040): the files members uploaded
// (invoice and portal logos, form images, files in built-in database rows) under
// uploads/<blobId>-<name>, and uploads/uploads.json listing them. An answer's files are the
// forms part's (under its form), so they are not here twice; a visitor's file no answer took is
// not the organization's yet (it is swept, and not counted against the plan either).

const blobsPerPage = 500

/** Kept in the forms part, beside the answer that took them (forms.export.ts). */
const answerClaim = 'form-submission:%'

export const uploadsExport: ExportContributor = {
	label: 'Uploaded files',
	run: async (context) => {
		// Both passes below read the same files: none uploaded while the first ran shows up in the second.
		const cutoff = new Date()
		const missing = new Set<string>()
		for await (const page of uploadPages(context, cutoff)) {
			const stored: string[] = []
			for (const blob of page) {
				if (await context.archive.addStored(pathOf(blob), blob.key)) {
					stored.push(blob.id)
				} else {
					missing.add(blob.id)
					context.log.warn({ blobId: blob.id }, 'export: an uploaded file is missing from storage')
				}
			}
			context.archive.record('uploads', stored)
		}
		await context.archive.addFile('uploads/uploads.json', Readable.from(listing(context, cutoff, missing)))
	},
}

type UploadRow = { id: string; filename: string }

/** One segment, the id first: two files of one name never collide, and the name stays readable. */
const pathOf = (blob: UploadRow) => `uploads/${archiveName(`${blob.id}-${blob.filename}`)}`

/** The organization's uploads as of `cutoff`, a page at a time in id order. */
async function* uploadPages({ db, organizationId }: ExportContext, cutoff: Date) {
	let lastId = ''
	for (;;) {
		const page = await db
			.select({
				id: blobs.id,
				key: blobs.key,
				filename: blobs.filename,
				contentType: blobs.contentType,
				byteSize: blobs.byteSize,
				scope: blobs.scope,
				createdAt: blobs.createdAt,
			})
			.from(blobs)
			.where(
				and(
					eq(blobs.organizationId, organizationId),
					eq(blobs.status, 'uploaded'),
					lte(blobs.uploadedAt, cutoff),
					// A member's upload (no scope), or a visitor's that something other than an answer took.
					or(isNull(blobs.scope), isNotNull(blobs.claimedBy)),
					or(isNull(blobs.claimedBy), notLike(blobs.claimedBy, answerClaim)),
					gt(blobs.id, lastId),
				),
			)
			.orderBy(asc(blobs.id))
			.limit(blobsPerPage)
		if (page.length > 0) {
			yield page
		}
		const last = page.at(-1)
		if (!last || page.length < blobsPerPage) {
			return
		}
		lastId = last.id
	}
}

/** uploads.json, a page at a time: each file as stored, and its path in the archive (null when storage lost it). */
async function* listing(context: ExportContext, cutoff: Date, missing: Set<string>) {
	yield '[\n'
	let isFirst = true
	for await (const page of uploadPages(context, cutoff)) {
		for (const { key: _, createdAt, ...blob } of page) {
			const entry = {
				...blob,
				createdAt: createdAt.toISOString(),
				path: missing.has(blob.id) ? null : pathOf(blob),
			}
			yield `${isFirst ? '' : ',\n'}${JSON.stringify(entry)}`
			isFirst = false
		}
	}
	yield '\n]\n'
}
