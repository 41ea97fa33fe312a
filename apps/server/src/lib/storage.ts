import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { AppError } from './errors.ts'

type PutExpectation = {
	byteSize: number
	/** Base64 MD5 of the content. */
	checksum: string
}

/**
 * Where files live. The local implementation keeps them under DATA_DIR/uploads; an
 * S3-compatible implementation maps `put` to PutObject with Content-Length and Content-MD5,
 * which makes the store itself refuse a body that does not match.
 */
export type Storage = {
	/** Stores `body` under `key` only if it matches `expected`; otherwise throws and keeps nothing. */
	put: (key: string, body: ReadableStream<Uint8Array>, expected: PutExpectation) => Promise<void>
	/** The file's content, or null when there is no such file. */
	get: (key: string) => Promise<{ body: ReadableStream<Uint8Array>; byteSize: number } | null>
	delete: (key: string) => Promise<void>
}

export function createLocalStorage(root: string): Storage {
	const pathOf = (key: string) => {
		// Keys are ids joined by slashes; ids (better-auth's, base64url) may start with '_' or '-'.
		// No dots and no leading slash, so a key never leaves the root.
		if (!/^[a-zA-Z0-9_-][a-zA-Z0-9/_-]*$/.test(key) || key.includes('..') || key.includes('//')) {
			throw new Error(`invalid storage key ${key}`)
		}
		return path.join(root, key)
	}

	return {
		put: async (key, body, expected) => {
			const target = pathOf(key)
			await mkdir(path.dirname(target), { recursive: true })
			const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`
			const md5 = createHash('md5')
			let byteSize = 0
			const meter = new Transform({
				transform(chunk: Buffer, _encoding, callback) {
					byteSize += chunk.length
					if (byteSize > expected.byteSize) {
						callback(
							new AppError('UPLOAD_MISMATCH', {
								detail: `The file is larger than the announced ${expected.byteSize} bytes.`,
							}),
						)
						return
					}
					md5.update(chunk)
					callback(null, chunk)
				},
			})
			try {
				await pipeline(
					Readable.fromWeb(body as import('node:stream/web').ReadableStream),
					meter,
					createWriteStream(temporary),
				)
				if (byteSize !== expected.byteSize) {
					throw new AppError('UPLOAD_MISMATCH', {
						detail: `Received ${byteSize} bytes; ${expected.byteSize} were announced.`,
					})
				}
				if (md5.digest('base64') !== expected.checksum) {
					throw new AppError('UPLOAD_MISMATCH', { detail: 'The file does not match the announced checksum.' })
				}
				await rename(temporary, target)
			} catch (error) {
				await rm(temporary, { force: true })
				throw error
			}
		},
		get: async (key) => {
			const file = pathOf(key)
			try {
				const info = await stat(file)
				return { body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, byteSize: info.size }
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
					return null
				}
				throw error
			}
		},
		delete: async (key) => {
			await rm(pathOf(key), { force: true })
		},
	}
}
