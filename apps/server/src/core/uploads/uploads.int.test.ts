import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startS3Server, type TestS3Server } from '#src/test/s3-server.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

const maxBytes = 64 * 1024
const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('base64')
const file = new TextEncoder().encode('name,amount\nAcme,1200\n')

/** The upload URL's path and query, for app.request(). */
const local = (url: string) => {
	const parsed = new URL(url)
	return `${parsed.pathname}${parsed.search}`
}

// Every test once with files on the local disk (the default) and once in an S3-compatible bucket.
describe.each(['local disk', 'S3'] as const)('files on %s', (storage) => {
	let t: TestApp
	let s3: TestS3Server | undefined
	beforeAll(async () => {
		s3 = storage === 'S3' ? await startS3Server() : undefined
		t = await createTestApp({ UPLOAD_MAX_BYTES: String(maxBytes), ...s3?.env })
	})
	afterAll(async () => {
		await t.close()
		await s3?.close()
	})

	async function announce(token: string, overrides: Record<string, unknown> = {}) {
		return t.request('POST', '/dashboard/active_storage/direct_uploads', {
			token,
			json: {
				filename: 'clients.csv',
				byteSize: file.length,
				checksum: md5(file),
				contentType: 'text/csv',
				...overrides,
			},
		})
	}

	/** Where the blob's bytes are: the object's key in the bucket, or its file under DATA_DIR/uploads. */
	const isStored = (blobId: string) => {
		const keys = s3
			? s3.keys()
			: readdirSync(path.join(t.dataDir, 'uploads'), { recursive: true, encoding: 'utf8' }).map((name) =>
					name.split(path.sep).join('/'),
				)
		return keys.some((key) => key.endsWith(`/${blobId}`))
	}

	describe('direct uploads', () => {
		test('announce → PUT to the signed URL → download the same bytes', async () => {
			const { token } = await t.signUp()
			const announced = await announce(token)
			expect(announced.status).toBe(200)
			expect(announced.body).toMatchObject({
				status: 'pending',
				byteSize: file.length,
				directUpload: { method: 'PUT' },
			})
			const upload = await t.request('PUT', local(announced.body.directUpload.url), {
				body: file,
				headers: announced.body.directUpload.headers,
			})
			expect(upload.status).toBe(200)
			expect(upload.body.status).toBe('uploaded')
			expect(isStored(announced.body.id)).toBe(true)

			const blob = await t.request('GET', `/dashboard/active_storage/blobs/${announced.body.id}`, { token })
			expect(blob.body.url).toEqual(expect.any(String))
			const download = await t.app.request(local(blob.body.url))
			expect(download.status).toBe(200)
			expect(download.headers.get('content-disposition')).toMatch(/^attachment/)
			expect(download.headers.get('content-security-policy')).toContain('sandbox')
			expect(new Uint8Array(await download.arrayBuffer())).toEqual(file)
		})

		test('a body that does not match the checksum is refused and nothing is kept', async () => {
			const { token } = await t.signUp()
			const announced = await announce(token)
			const tampered = new TextEncoder().encode('name,amount\nAcme,9999\n')
			const upload = await t.request('PUT', local(announced.body.directUpload.url), {
				body: tampered,
				headers: announced.body.directUpload.headers,
			})
			expect(upload.status).toBe(422)
			expect(upload.body.code).toBe('UPLOAD_MISMATCH')
			expect(isStored(announced.body.id)).toBe(false)
			const blob = await t.request('GET', `/dashboard/active_storage/blobs/${announced.body.id}`, { token })
			expect(blob.body).toMatchObject({ status: 'pending', url: null })
		})

		test('a body longer than announced is refused', async () => {
			const { token } = await t.signUp()
			const announced = await announce(token)
			const longer = new Uint8Array([...file, 65, 66])
			const upload = await t.request('PUT', local(announced.body.directUpload.url), {
				body: longer,
				headers: { 'content-type': 'text/csv' },
			})
			expect(upload.status).toBe(422)
		})

		test('a content type other than the announced one is refused', async () => {
			const { token } = await t.signUp()
			const announced = await announce(token)
			const upload = await t.request('PUT', local(announced.body.directUpload.url), {
				body: file,
				headers: { 'content-type': 'image/png' },
			})
			expect(upload.status).toBe(422)
		})

		test('a tampered or expired signature is refused', async () => {
			const { token } = await t.signUp()
			const announced = await announce(token)
			const url = new URL(announced.body.directUpload.url)
			url.searchParams.set('signature', `${url.searchParams.get('signature')?.slice(0, -2)}xx`)
			const tampered = await t.request('PUT', local(url.toString()), {
				body: file,
				headers: { 'content-type': 'text/csv' },
			})
			expect(tampered.status).toBe(400)
			expect(tampered.body.code).toBe('INVALID_TOKEN')
			const expired = new URL(announced.body.directUpload.url)
			expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10))
			const late = await t.request('PUT', local(expired.toString()), {
				body: file,
				headers: { 'content-type': 'text/csv' },
			})
			expect(late.status).toBe(400)
		})

		test('a file can be uploaded only once', async () => {
			const { token } = await t.signUp()
			const announced = await announce(token)
			const first = await t.request('PUT', local(announced.body.directUpload.url), {
				body: file,
				headers: { 'content-type': 'text/csv' },
			})
			expect(first.status).toBe(200)
			const second = await t.request('PUT', local(announced.body.directUpload.url), {
				body: file,
				headers: { 'content-type': 'text/csv' },
			})
			expect(second.status).toBe(409)
		})
	})

	describe('upload limits', () => {
		test('announcing a file over the size limit is 413 with the field named', async () => {
			const { token } = await t.signUp()
			const response = await announce(token, { byteSize: maxBytes + 1 })
			expect(response.status).toBe(413)
			expect(response.body.errors).toEqual([expect.objectContaining({ field: 'byteSize' })])
		})

		test('a body over the upload limit is cut off with 413', async () => {
			const { token } = await t.signUp()
			const announced = await announce(token)
			const huge = new Uint8Array(maxBytes + 10)
			const response = await t.request('PUT', local(announced.body.directUpload.url), {
				body: huge,
				headers: { 'content-type': 'text/csv' },
			})
			expect(response.status).toBe(413)
		})

		test('executable and unknown types are refused with 415', async () => {
			const { token } = await t.signUp()
			const response = await announce(token, { contentType: 'application/x-msdownload', filename: 'setup.exe' })
			expect(response.status).toBe(415)
		})

		test('a malformed checksum is a field error', async () => {
			const { token } = await t.signUp()
			const response = await announce(token, { checksum: 'abc' })
			expect(response.status).toBe(400)
			expect(response.body.errors).toEqual([expect.objectContaining({ field: 'checksum' })])
		})

		test('announcing needs a signed-in member', async () => {
			const response = await t.request('POST', '/dashboard/active_storage/direct_uploads', {
				json: { filename: 'a.csv', byteSize: 1, checksum: md5(file), contentType: 'text/csv' },
			})
			expect(response.status).toBe(401)
		})
	})

	describe('tenancy', () => {
		test("another organization's file reads as not found", async () => {
			const owner = await t.signUp()
			const announced = await announce(owner.token)
			const stranger = await t.signUp()
			const response = await t.request('GET', `/dashboard/active_storage/blobs/${announced.body.id}`, {
				token: stranger.token,
			})
			expect(response.status).toBe(404)
			expect(response.body.code).toBe('NOT_FOUND')
		})
	})
})
