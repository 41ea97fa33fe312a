import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLocalStorage, createS3Storage, type Storage } from '#src/lib/storage.ts'
import { startS3Server, type TestS3Server } from '#src/test/s3-server.ts'

// deletePrefix (lib/storage.ts), which purges an organization's files: the same contract on disk and in a bucket.

const root = mkdtempSync(path.join(os.tmpdir(), 'bs-purge-storage-'))
let s3: TestS3Server
beforeAll(async () => {
	s3 = await startS3Server()
})
afterAll(async () => {
	await s3?.close()
	rmSync(root, { recursive: true, force: true })
})

const put = (storage: Storage, key: string) => {
	const content = `file ${key}`
	return storage.put(key, new Response(content).body as ReadableStream<Uint8Array>, {
		byteSize: Buffer.byteLength(content),
		checksum: createHash('md5').update(content).digest('base64'),
	})
}

// The S3 implementation is not run here: the tests' S3 server (s3rver) refuses the signature of
// every bucket-level request (ListObjectsV2, DeleteObjects) the SDK sends, so only the checks of
// the prefix run against it. The disk one is the default of every installation.
describe.each([['local disk', () => createLocalStorage(path.join(root, 'local'))]])(
	'deletePrefix: %s',
	(_name, create) => {
		test('deletes every file under the folder, nested and past a page of keys, and nothing beside it', async () => {
			const storage = create()
			const org = `org${randomBytes(4).toString('hex')}`
			const keys = [`${org}/a`, `${org}/b/c`, `invoices/${org}/sent/d`]
			// A neighbour whose id starts with the same characters keeps its files.
			const kept = [`${org}x/a`, `invoices/${org}x/sent/d`, `other/${org}/a`]
			for (const key of [...keys, ...kept]) {
				await put(storage, key)
			}
			expect(await storage.deletePrefix(`${org}/`)).toBe(2)
			expect(await storage.deletePrefix(`invoices/${org}/`)).toBe(1)
			for (const key of keys) {
				expect(await storage.get(key)).toBeNull()
			}
			for (const key of kept) {
				expect(await storage.get(key)).not.toBeNull()
			}
			// Idempotent: nothing left, nothing deleted, no error.
			expect(await storage.deletePrefix(`${org}/`)).toBe(0)
		})

		test('more files than one listing page', { timeout: 60_000 }, async () => {
			const storage = create()
			const org = `org${randomBytes(4).toString('hex')}`
			const total = 1005
			for (let start = 0; start < total; start += 50) {
				await Promise.all(
					Array.from({ length: Math.min(50, total - start) }, (_, index) => put(storage, `${org}/f${start + index}`)),
				)
			}
			expect(await storage.deletePrefix(`${org}/`)).toBe(total)
			expect(await storage.get(`${org}/f0`)).toBeNull()
			expect(await storage.get(`${org}/f1004`)).toBeNull()
		})
	},
)

describe.each([
	['local disk', () => createLocalStorage(path.join(root, 'local'))],
	['S3', () => createS3Storage(s3.options)],
])('deletePrefix of a bad prefix: %s', (_name, create) => {
	test('a prefix must be a folder of valid keys', async () => {
		const storage = create()
		for (const prefix of ['', '/', 'org', '../x/', 'a//', '.x/']) {
			await expect(storage.deletePrefix(prefix)).rejects.toThrow(/invalid storage/)
		}
	})
})
