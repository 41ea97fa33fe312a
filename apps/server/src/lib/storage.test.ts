import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startS3Server, type TestS3Server } from '#src/test/s3-server.ts'
import { createLocalStorage, createS3Storage, type Storage } from './storage.ts'

const root = mkdtempSync(path.join(os.tmpdir(), 'bs-storage-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const body = (content: string | Uint8Array) => new Response(content).body as ReadableStream<Uint8Array>
const expectationOf = (content: string | Uint8Array) => ({
	byteSize: typeof content === 'string' ? Buffer.byteLength(content) : content.length,
	checksum: createHash('md5').update(content).digest('base64'),
})
// Base64 of the MD5 digest of "hello".
const hello = { byteSize: 5, checksum: 'XUFAKrxLKna5cZ2REBfFkg==' }
const text = async (storage: Storage, key: string) => {
	const file = await storage.get(key)
	return file ? await new Response(file.body).text() : null
}

describe('local storage keys', () => {
	test('ids that start with "_" or "-" (base64url, as better-auth makes them) are valid keys', async () => {
		const storage = createLocalStorage(root)
		for (const key of ['_IkGA_5biF655S-7Jfad6g/ehWZe', '-abc/def', 'org/blob']) {
			await storage.put(key, body('hello'), hello)
			const file = await storage.get(key)
			expect(file?.byteSize).toBe(5)
			expect(await new Response(file?.body).text()).toBe('hello')
		}
	})

	test('a key never leaves the root', async () => {
		const storage = createLocalStorage(root)
		for (const key of ['../escape', '/etc/passwd', 'a/../../b', 'a//b', '.hidden', 'a/.b']) {
			await expect(storage.put(key, body('hello'), hello)).rejects.toThrow(/invalid storage key/)
		}
	})
})

// The same contract for every implementation: what a caller may rely on, whichever is configured.
let s3: TestS3Server
beforeAll(async () => {
	s3 = await startS3Server()
})
afterAll(async () => {
	await s3?.close()
})

describe.each([
	['local disk', () => createLocalStorage(path.join(root, 'contract'))],
	['S3', () => createS3Storage(s3.options)],
])('storage contract: %s', (_name, create) => {
	const key = () => `org-${randomBytes(4).toString('hex')}/${randomBytes(8).toString('base64url')}`

	test('put, get the same bytes and length, delete', async () => {
		const storage = create()
		const k = key()
		await storage.put(k, body('hello'), hello)
		const file = await storage.get(k)
		expect(file?.byteSize).toBe(5)
		expect(await new Response(file?.body).text()).toBe('hello')
		await storage.delete(k)
		expect(await storage.get(k)).toBeNull()
	})

	test('a file of many chunks streams in and out whole', async () => {
		const storage = create()
		const k = key()
		const content = randomBytes(3 * 1024 * 1024 + 7)
		await storage.put(k, body(content), expectationOf(content))
		const file = await storage.get(k)
		expect(file?.byteSize).toBe(content.length)
		expect(Buffer.from(await new Response(file?.body).arrayBuffer()).equals(content)).toBe(true)
	})

	test('a missing key reads as null, and deleting it is not an error', async () => {
		const storage = create()
		const k = key()
		expect(await storage.get(k)).toBeNull()
		await expect(storage.delete(k)).resolves.toBeUndefined()
	})

	test.each([
		['longer than announced', 'hello!', /larger than the announced 5 bytes/],
		['shorter than announced', 'hell', /Received 4 bytes; 5 were announced/],
		['of the announced length with another checksum', 'hellx', /does not match the announced checksum/],
	])('a body %s is refused and nothing is kept', async (_case, content, detail) => {
		const storage = create()
		const k = key()
		const refusal = storage.put(k, body(content), hello)
		await expect(refusal).rejects.toMatchObject({ code: 'UPLOAD_MISMATCH', detail: expect.stringMatching(detail) })
		expect(await storage.get(k)).toBeNull()
	})

	test('a sender that goes away midway fails the put and nothing is kept', async () => {
		const storage = create()
		const k = key()
		const halfSent = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(new Uint8Array(64 * 1024))
			},
			pull(controller) {
				controller.error(new Error('the sender went away'))
			},
		})
		await expect(storage.put(k, halfSent, { byteSize: 128 * 1024, checksum: hello.checksum })).rejects.toThrow(
			/the sender went away/,
		)
		expect(await storage.get(k)).toBeNull()
	})

	test('a refused put leaves the file already under its key as it was', async () => {
		const storage = create()
		const k = key()
		await storage.put(k, body('hello'), hello)
		await expect(storage.put(k, body('hellx'), hello)).rejects.toMatchObject({ code: 'UPLOAD_MISMATCH' })
		await expect(storage.put(k, body('hello, world'), hello)).rejects.toMatchObject({ code: 'UPLOAD_MISMATCH' })
		expect(await text(storage, k)).toBe('hello')
	})

	test('keys that could leave a folder are refused', async () => {
		const storage = create()
		await expect(storage.put('../escape', body('hello'), hello)).rejects.toThrow(/invalid storage key/)
		await expect(storage.get('a/../b')).rejects.toThrow(/invalid storage key/)
	})
})

describe('S3 storage', () => {
	test('the store itself is asked to check each upload: PutObject carries Content-MD5', async () => {
		const storage = createS3Storage(s3.options)
		const k = `org/${randomBytes(8).toString('base64url')}`
		await storage.put(k, body('hello'), hello)
		expect(s3.puts.find((put) => put.path.endsWith(`/${k}`))?.contentMd5).toBe(hello.checksum)
		expect(s3.keys()).toContain(k)
	})

	test('the test server refuses a body whose Content-MD5 differs, as S3 does (BadDigest)', async () => {
		// What a store answers when the bytes it received are not those we sent (corrupted on the way).
		const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3')
		const client = new S3Client({ ...s3.options, requestChecksumCalculation: 'WHEN_REQUIRED' })
		const refusal = client.send(
			new PutObjectCommand({
				Bucket: s3.options.bucket,
				Key: 'org/corrupted',
				Body: 'hellx',
				ContentLength: 5,
				ContentMD5: hello.checksum,
			}),
		)
		await expect(refusal).rejects.toMatchObject({ name: 'BadDigest' })
		expect(s3.keys()).not.toContain('org/corrupted')
	})

	test('a bucket that does not exist is an error, not a missing file', async () => {
		const storage = createS3Storage({ ...s3.options, bucket: 'no-such-bucket' })
		await expect(storage.get('org/blob')).rejects.toMatchObject({ name: 'NoSuchBucket' })
	})
})
