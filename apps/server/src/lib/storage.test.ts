import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { createLocalStorage } from './storage.ts'

const root = mkdtempSync(path.join(os.tmpdir(), 'bs-storage-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const body = (text: string) => new Response(text).body as ReadableStream<Uint8Array>
// Base64 of the MD5 digest of "hello".
const hello = { byteSize: 5, checksum: 'XUFAKrxLKna5cZ2REBfFkg==' }

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
