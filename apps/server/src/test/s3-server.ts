// An S3-compatible server for the tests: @20minutes/s3rver (the S3 wire format, SigV4 signatures,
// XML errors) on a free port, with its files in a temporary folder. Two things real S3 does and
// s3rver does not are added, so the tests hold our code to S3's behaviour: an upload is kept only
// once it arrived whole (an aborted PUT leaves nothing), and one whose Content-Length or
// Content-MD5 does not match what arrived is refused (IncompleteBody, BadDigest).

import { AsyncLocalStorage } from 'node:async_hooks'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import S3rver from '@20minutes/s3rver'
import S3Error from '@20minutes/s3rver/lib/models/error.js'

const bucket = 'blocksmith-test'
const accessKey = 'S3RVER'
const objectSuffix = '._S3rver_object'

export type TestS3Server = Awaited<ReturnType<typeof startS3Server>>

export async function startS3Server() {
	const directory = mkdtempSync(path.join(os.tmpdir(), 'bs-s3-'))
	const server = new S3rver({
		address: '127.0.0.1',
		port: 0,
		silent: true,
		directory,
		configureBuckets: [{ name: bucket }],
	})
	const requestHeaders = new AsyncLocalStorage<Context['headers']>()
	const puts: Array<{ path: string; contentMd5: string | undefined }> = []
	type Context = Parameters<(typeof server.middleware)[number]>[0]
	// First in the chain (Koa composes it when the server starts), so the store below can read the headers.
	server.middleware.unshift((ctx, next) => {
		if (ctx.method === 'PUT') {
			const contentMd5 = ctx.headers['content-md5']
			puts.push({ path: ctx.path, contentMd5: typeof contentMd5 === 'string' ? contentMd5 : undefined })
		}
		return requestHeaders.run(ctx.headers, next)
	})
	const putContent = server.store.putContent.bind(server.store)
	server.store.putContent = async (objectPath, content) => {
		const headers = requestHeaders.getStore() ?? {}
		const partial = `${objectPath}.${randomBytes(4).toString('hex')}.partial`
		try {
			const [size, md5Hex] = await putContent(partial, content)
			const declaredLength = headers['content-length']
			if (typeof declaredLength === 'string' && Number(declaredLength) !== size) {
				throw new S3Error(
					'IncompleteBody',
					'You did not provide the number of bytes specified by the Content-Length HTTP header.',
				)
			}
			const contentMd5 = headers['content-md5']
			if (typeof contentMd5 === 'string' && Buffer.from(md5Hex, 'hex').toString('base64') !== contentMd5) {
				throw new S3Error('BadDigest', 'The Content-MD5 you specified did not match what we received.')
			}
			await rename(partial, objectPath)
			return [size, md5Hex]
		} catch (error) {
			await rm(partial, { force: true })
			throw error
		}
	}
	const { port } = await server.run()
	const endpoint = `http://127.0.0.1:${port}`

	return {
		/** Settings that make the app keep its files here. */
		env: {
			S3_BUCKET: bucket,
			S3_REGION: 'us-east-1',
			S3_ENDPOINT: endpoint,
			S3_ACCESS_KEY_ID: accessKey,
			S3_SECRET_ACCESS_KEY: accessKey,
		},
		/** The same, as createS3Storage takes them. */
		options: {
			bucket,
			region: 'us-east-1',
			endpoint,
			forcePathStyle: true,
			credentials: { accessKeyId: accessKey, secretAccessKey: accessKey },
		},
		/** Every PUT the server received, in order, with its Content-MD5 header. */
		puts,
		/** The keys of the objects in the bucket. */
		keys: () =>
			readdirSync(path.join(directory, bucket), { recursive: true, encoding: 'utf8' })
				.filter((file) => file.endsWith(objectSuffix))
				.map((file) => file.slice(0, -objectSuffix.length).split(path.sep).join('/')),
		close: async () => {
			await server.close()
			rmSync(directory, { recursive: true, force: true })
		},
	}
}
