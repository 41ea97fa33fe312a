import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { PassThrough, Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ExportManifest } from '@blocksmith/contracts/data.ts'
import { ZipFile } from 'yazl'
import type { Storage } from '#src/lib/storage.ts'
import type { ExportArchive } from './exports.contributor.ts'

/** The manifest's own path: written last, and no part may take it. */
const manifestPath = 'manifest.json'

/** What the manifest says besides what the archive collected (objects and files). */
type ManifestHead = Pick<ExportManifest, 'organization' | 'createdAt'>

export type ZipArchive = ExportArchive & {
	/** The temporary file being written, for logs and tests. */
	file: string
	/** Writes the manifest, closes the ZIP and moves it into storage under `key`; the temporary file goes. */
	store: (head: ManifestHead, key: string) => Promise<{ byteSize: number }>
	/** Stops writing and removes the temporary file (after a failure). Safe to call more than once. */
	discard: () => Promise<void>
}

/**
 * Why a path is refused, or null: relative, slash-separated, no empty, `.` or `..` segment, no
 * backslash or control character (a ZIP is unpacked on every system; each of these can land a
 * file outside the folder it is unpacked into or fail there).
 */
function pathProblem(name: string): string | null {
	if (name.length === 0 || name.length > 400) {
		return 'must be 1 to 400 characters'
	}
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
	if (/[\\\u0000-\u001f\u007f:*?"<>|]/.test(name)) {
		return 'has a backslash, a control character or a character Windows refuses'
	}
	if (name.split('/').some((part) => part === '' || part === '.' || part === '..' || part !== part.trim())) {
		return 'has an empty, "." or ".." segment, or one with spaces around it'
	}
	return null
}

const tempName = (exportId: string) => `export-${exportId}-`

/** Removes what an earlier try of this export left (a process that died mid-build) before it is built again. */
export async function removeLeftovers(tempDir: string, exportId: string): Promise<void> {
	const names = await readdir(tempDir).catch(() => [])
	for (const name of names.filter((found) => found.startsWith(tempName(exportId)))) {
		await rm(path.join(tempDir, name), { force: true })
	}
}

/**
 * The export's ZIP, streamed to a temporary file under `tempDir` as parts add files (yazl), so an
 * organization's archive never sits in memory; its size and MD5 are counted on the way, for
 * storage to check what it receives.
 */
export async function createZipArchive(options: {
	tempDir: string
	exportId: string
	/** Where `addStored` reads from and `store` puts the archive. */
	storage: Storage
}): Promise<ZipArchive> {
	const { tempDir, exportId, storage } = options
	await mkdir(tempDir, { recursive: true })
	const file = path.join(tempDir, `${tempName(exportId)}${randomBytes(4).toString('hex')}.zip`)
	const zip = new ZipFile()
	const md5 = createHash('md5')
	let byteSize = 0
	const meter = new Transform({
		transform(chunk: Buffer, _encoding, callback) {
			md5.update(chunk)
			byteSize += chunk.length
			callback(null, chunk)
		},
	})
	const output = createWriteStream(file, { mode: 0o600 })
	const written = pipeline(zip.outputStream, meter, output)
	// A failed write (a full disk) fails the add waiting on it, which would otherwise wait forever
	// for yazl to read on; and it must not go unhandled while no add waits.
	const writeFailed = new Promise<never>((_resolve, reject) => {
		written.catch(reject)
	})
	writeFailed.catch(() => undefined)
	const files: string[] = []
	/** Every path, and every folder a path makes, so that a file never takes a folder's name or the reverse. */
	const taken = new Set<string>([manifestPath])
	const folders = new Set<string>()
	const objects = new Map<string, Set<string>>()
	let isClosed = false
	/** Set when a file failed half-way: yazl waits for its end forever, so nothing more can follow it. */
	let failure: unknown = null

	function claim(name: string): void {
		const problem = pathProblem(name)
		if (problem) {
			throw new Error(`export archive path ${JSON.stringify(name)} ${problem}`)
		}
		if (taken.has(name) || folders.has(name)) {
			throw new Error(`export archive path ${name} is added twice`)
		}
		const parts = name.split('/')
		for (let end = 1; end < parts.length; end++) {
			const folder = parts.slice(0, end).join('/')
			if (taken.has(folder)) {
				throw new Error(`export archive path ${name} is inside the file ${folder}`)
			}
			folders.add(folder)
		}
		taken.add(name)
	}

	async function add(name: string, content: string | Uint8Array | Readable, isManifest = false): Promise<void> {
		if (isClosed) {
			throw new Error('the export archive is closed')
		}
		if (failure) {
			throw new Error('the export archive takes no more files after one failed', { cause: failure })
		}
		if (!isManifest) {
			claim(name)
			files.push(name)
		}
		// Every file goes through a stream that yazl reads when its turn comes: the add resolves once
		// the content is read to its end, so a part's next query waits for the disk, not for memory.
		const entry = new PassThrough()
		zip.addReadStream(entry, name)
		const source = typeof content === 'string' || content instanceof Uint8Array ? Readable.from([content]) : content
		try {
			await Promise.race([pipeline(source, entry), writeFailed])
		} catch (error) {
			failure = error
			throw error
		}
	}

	const discard = async () => {
		isClosed = true
		;(zip.outputStream as Readable).destroy()
		output.destroy()
		await written.catch(() => undefined)
		await rm(file, { force: true })
	}

	return {
		file,
		addFile: (name, content) => add(name, content),
		addJson: (name, value) => add(name, `${JSON.stringify(value, null, 2)}\n`),
		addStored: async (name, storageKey) => {
			const stored = await storage.get(storageKey)
			if (!stored) {
				return false
			}
			await add(name, Readable.fromWeb(stored.body as import('node:stream/web').ReadableStream))
			return true
		},
		record: (kind, ids) => {
			let set = objects.get(kind)
			if (!set) {
				set = new Set()
				objects.set(kind, set)
			}
			for (const id of ids) {
				set.add(id)
			}
		},
		store: async (head, key) => {
			const manifest: ExportManifest = {
				format: 'blocksmith-export/1',
				...head,
				objects: Object.fromEntries([...objects].map(([kind, ids]) => [kind, [...ids]])),
				files: [...files],
			}
			await add(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, true)
			isClosed = true
			zip.end()
			await written
			const checksum = md5.digest('base64')
			try {
				await storage.put(key, Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, {
					byteSize,
					checksum,
				})
			} finally {
				await rm(file, { force: true })
			}
			return { byteSize }
		},
		discard,
	}
}
