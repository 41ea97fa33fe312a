import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createLocalStorage, type Storage } from '#src/lib/storage.ts'
import { readArchive } from '#src/test/exports.ts'
import { createZipArchive, removeLeftovers } from './exports.archive.ts'

// The export's ZIP writer: files in the order added (streams read through), paths refused when
// unsafe or taken twice, the manifest last with the recorded ids and every path, stored with its
// size and MD5, and the temporary file gone whether the archive is stored or discarded.

let root: string
let storage: Storage
const head = { organization: { id: 'org-1', name: 'Acme', slug: 'acme' }, createdAt: '2026-11-26T12:00:00.000Z' }

beforeEach(() => {
	root = mkdtempSync(path.join(os.tmpdir(), 'bs-export-archive-'))
	storage = createLocalStorage(path.join(root, 'files'))
})
afterEach(() => {
	rmSync(root, { recursive: true, force: true })
})

const tempDir = () => path.join(root, 'tmp')
const open = () => createZipArchive({ tempDir: tempDir(), exportId: randomUUID(), storage })

async function storedBytes(key: string): Promise<Uint8Array> {
	const stored = await storage.get(key)
	if (!stored) {
		throw new Error(`nothing stored at ${key}`)
	}
	return new Uint8Array(await new Response(stored.body).arrayBuffer())
}

async function put(key: string, bytes: Uint8Array) {
	await storage.put(key, new Response(bytes).body as ReadableStream<Uint8Array>, {
		byteSize: bytes.byteLength,
		checksum: createHash('md5').update(bytes).digest('base64'),
	})
}

describe('the export archive', () => {
	test('holds every file as added, the manifest last, and is stored with its size', async () => {
		const archive = await open()
		const large = randomBytes(300_000)
		await put('org-1/upload-1', new Uint8Array([1, 2, 3]))
		await archive.addJson('organization.json', { name: 'Acme' })
		await archive.addFile('databases/Clients-1.csv', 'Name\r\nGlobex\r\n')
		await archive.addFile('files/large.bin', Readable.from([large.subarray(0, 100_000), large.subarray(100_000)]))
		await archive.addFile('files/bytes.bin', new Uint8Array([9, 8, 7]))
		expect(await archive.addStored('files/upload.bin', 'org-1/upload-1')).toBe(true)
		expect(await archive.addStored('files/missing.bin', 'org-1/missing')).toBe(false)
		archive.record('databases', ['1'])
		archive.record('rows', ['a', 'b'])
		archive.record('rows', ['b', 'c'])
		expect(readdirSync(tempDir())).toEqual([path.basename(archive.file)])

		const { byteSize } = await archive.store(head, 'exports/org-1/export-1')
		expect(readdirSync(tempDir())).toEqual([])
		const bytes = await storedBytes('exports/org-1/export-1')
		expect(bytes.byteLength).toBe(byteSize)
		const { files, manifest } = await readArchive(bytes)
		expect([...files.keys()]).toEqual([
			'organization.json',
			'databases/Clients-1.csv',
			'files/large.bin',
			'files/bytes.bin',
			'files/upload.bin',
			'manifest.json',
		])
		expect(JSON.parse(String(files.get('organization.json')))).toEqual({ name: 'Acme' })
		expect(String(files.get('databases/Clients-1.csv'))).toBe('Name\r\nGlobex\r\n')
		expect(Buffer.compare(files.get('files/large.bin') as Buffer, large)).toBe(0)
		expect([...(files.get('files/bytes.bin') as Buffer)]).toEqual([9, 8, 7])
		expect([...(files.get('files/upload.bin') as Buffer)]).toEqual([1, 2, 3])
		expect(manifest).toEqual({
			format: 'blocksmith-export/1',
			...head,
			objects: { databases: ['1'], rows: ['a', 'b', 'c'] },
			files: [...files.keys()].filter((name) => name !== 'manifest.json'),
		})
	})

	test('refuses unsafe paths and a path twice, and keeps working after a refusal', async () => {
		const archive = await open()
		await archive.addFile('forms/Contact/answers.csv', 'a')
		for (const bad of [
			'',
			'/etc/passwd',
			'../outside.txt',
			'forms/../../outside.txt',
			'forms//answers.csv',
			'forms/./answers.csv',
			'forms\\answers.csv',
			'forms/an\u0000swer.csv',
			'forms/ Contact/answers.csv',
			'forms/',
			'manifest.json',
			'forms/Contact/answers.csv',
			// A file where a folder is, and a folder where a file is.
			'forms/Contact',
			'forms/Contact/answers.csv/more.csv',
			'x'.repeat(401),
		]) {
			await expect(archive.addFile(bad, 'b'), JSON.stringify(bad)).rejects.toThrow(/export archive path/)
		}
		await archive.addFile('forms/Contact/answers.json', '[]')
		await archive.store(head, 'exports/org-1/export-2')
		const { files } = await readArchive(await storedBytes('exports/org-1/export-2'))
		expect([...files.keys()]).toEqual(['forms/Contact/answers.csv', 'forms/Contact/answers.json', 'manifest.json'])
	})

	test('a failing stream fails its add; discarding removes the temporary file and stores nothing', async () => {
		const archive = await open()
		await archive.addFile('a.txt', 'a')
		const broken = new Readable({
			read() {
				this.destroy(new Error('read failed'))
			},
		})
		await expect(archive.addFile('b.txt', broken)).rejects.toThrow('read failed')
		// yazl would wait for the broken file's end forever: nothing may follow it.
		await expect(archive.addFile('c.txt', 'c')).rejects.toThrow(/no more files after one failed/)
		await archive.discard()
		await archive.discard()
		expect(readdirSync(tempDir())).toEqual([])
		await expect(archive.addFile('d.txt', 'd')).rejects.toThrow(/closed/)
		expect(await storage.get('exports/org-1/export-3')).toBeNull()
	})

	test("an earlier try's leftovers are removed, and only this export's", async () => {
		const exportId = randomUUID()
		mkdirSync(tempDir())
		for (const name of [
			`export-${exportId}-0a1b2c3d.zip`,
			`export-${exportId}-4e5f6a7b.zip`,
			'export-other-1234.zip',
		]) {
			writeFileSync(path.join(tempDir(), name), 'left over')
		}
		await removeLeftovers(tempDir(), exportId)
		expect(readdirSync(tempDir())).toEqual(['export-other-1234.zip'])
		await removeLeftovers(path.join(root, 'no-such-folder'), exportId)
	})
})
