// Uploads: /dashboard/active_storage/* (signed-in members, scoped to their organization) and
// /api/uploads/{id} (public, but only with a short-lived signature issued to a member).

import { idSchema } from '@blocksmith/contracts/common.ts'
import {
	blobWithUrlSchema,
	directUploadRequestSchema,
	directUploadResponseSchema,
} from '@blocksmith/contracts/uploads.ts'
import { createRoute, z } from '@hono/zod-openapi'
import { type MemberEnv, requireMember, requireSession } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import { commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import { isInlineSafe } from './uploads.policy.ts'
import {
	createDirectUpload,
	getBlob,
	measureStoredBytes,
	openDownload,
	receiveUpload,
	type UploadsDeps,
	verifySignedUrl,
} from './uploads.service.ts'

const tags = ['Uploads']
const signedQuery = z.object({
	expires: z.coerce.number().int().positive(),
	signature: z.string().min(10).max(200),
})

const routes = {
	directUpload: createRoute({
		method: 'post',
		path: '/dashboard/active_storage/direct_uploads',
		tags,
		security: [{ bearer: [] }],
		summary: 'Announce a file and get a signed, short-lived URL to PUT it to',
		request: { body: jsonBody(directUploadRequestSchema) },
		responses: {
			200: jsonResponse(directUploadResponseSchema, 'Upload URL'),
			400: commonProblems[400],
			402: problemResponse("The plan's storage would be passed, or the subscription is not active"),
			413: problemResponse('Larger than the upload limit'),
			415: problemResponse('File type not accepted'),
		},
	}),
	blob: createRoute({
		method: 'get',
		path: '/dashboard/active_storage/blobs/{id}',
		tags,
		security: [{ bearer: [] }],
		summary: 'A file of your organization, with a download URL once uploaded',
		request: { params: z.object({ id: idSchema }) },
		responses: { 200: jsonResponse(blobWithUrlSchema, 'File'), 404: commonProblems[404] },
	}),
	upload: createRoute({
		method: 'put',
		path: '/api/uploads/{id}',
		tags,
		summary: 'Upload the announced file (raw body, with the announced Content-Type)',
		request: { params: z.object({ id: idSchema }), query: signedQuery },
		responses: {
			200: jsonResponse(blobWithUrlSchema, 'Stored'),
			400: problemResponse('Link invalid or expired'),
			409: problemResponse('Already uploaded'),
			413: problemResponse('Larger than the upload limit'),
			422: problemResponse('Does not match the announced size, type or checksum'),
		},
	}),
	download: createRoute({
		method: 'get',
		path: '/api/uploads/{id}',
		tags,
		summary: 'Download a file through a signed URL',
		request: { params: z.object({ id: idSchema }), query: signedQuery },
		responses: {
			200: { description: 'The file', content: { 'application/octet-stream': { schema: z.any() } } },
			400: problemResponse('Link invalid or expired'),
		},
	}),
}

export function createUploadRoutes(deps: UploadsDeps & { auth: Auth; subscriptions: Subscriptions }) {
	// Registered here, as the module has no create function of its own: built once per app.
	deps.subscriptions.registerMeter('fileStorageBytes', measureStoredBytes)
	const router = createRouter<MemberEnv>()
	router.use('/dashboard/active_storage/*', requireSession(deps.auth), requireMember(deps.db))

	router.openapi(routes.directUpload, async (c) =>
		c.json(await createDirectUpload(deps, c.var.member, c.req.valid('json')), 200),
	)
	router.openapi(routes.blob, async (c) => c.json(await getBlob(deps, c.var.member, c.req.valid('param').id), 200))
	router.openapi(routes.upload, async (c) => {
		const { id } = c.req.valid('param')
		verifySignedUrl(deps, 'upload', id, c.req.valid('query'))
		const length = c.req.header('content-length')
		const blob = await receiveUpload(deps, id, {
			contentType: c.req.header('content-type'),
			contentLength: length === undefined ? undefined : Number.parseInt(length, 10),
			body: c.req.raw.body,
		})
		return c.json(blob, 200)
	})
	router.openapi(routes.download, async (c) => {
		const { id } = c.req.valid('param')
		verifySignedUrl(deps, 'download', id, c.req.valid('query'))
		const { blob, file } = await openDownload(deps, id)
		const disposition = isInlineSafe(blob.contentType) ? 'inline' : 'attachment'
		return new Response(file.body, {
			headers: {
				'content-type': blob.contentType,
				'content-length': String(file.byteSize),
				'content-disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(blob.filename)}`,
				'cache-control': 'private, max-age=3600',
			},
		}) as never
	})
	return router
}
