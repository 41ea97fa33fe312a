import { z } from 'zod'

/** Base64 of the file's MD5 digest, the same value an HTTP `Content-MD5` header carries. */
export const checksumSchema = z
	.string()
	.regex(/^[A-Za-z0-9+/]{22}==$/, 'Send the base64 MD5 digest of the file (24 characters).')

export const directUploadRequestSchema = z.object({
	filename: z.string().trim().min(1).max(255),
	byteSize: z.number().int().positive(),
	checksum: checksumSchema,
	contentType: z.string().trim().min(1).max(255),
})
export type DirectUploadRequest = z.infer<typeof directUploadRequestSchema>

export const blobSchema = z.object({
	id: z.string(),
	filename: z.string(),
	contentType: z.string(),
	byteSize: z.number().int(),
	checksum: z.string(),
	status: z.enum(['pending', 'uploaded']),
	createdAt: z.iso.datetime(),
})
export type Blob = z.infer<typeof blobSchema>

export const directUploadResponseSchema = blobSchema.extend({
	directUpload: z.object({
		url: z.string(),
		method: z.literal('PUT'),
		headers: z.record(z.string(), z.string()),
		expiresAt: z.iso.datetime(),
	}),
})
export type DirectUploadResponse = z.infer<typeof directUploadResponseSchema>

export const blobWithUrlSchema = blobSchema.extend({ url: z.string().nullable() })
export type BlobWithUrl = z.infer<typeof blobWithUrlSchema>
