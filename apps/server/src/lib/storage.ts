import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { S3Client } from '@aws-sdk/client-s3'
import { AppError } from './errors.ts'
import type { Logger } from './logger.ts'

type PutExpectation = {
	byteSize: number
	/** Base64 MD5 of the content. */
	checksum: string
}

/**
 * Where files live. The local implementation keeps them under DATA_DIR/uploads; the S3 one in a
 * bucket, where PutObject with Content-Length and Content-MD5 makes the store itself refuse a
 * body that does not match (decisions 005 and 026).
 */
export type Storage = {
	/** Stores `body` under `key` only if it matches `expected`; otherwise throws and keeps nothing. */
	put: (key: string, body: ReadableStream<Uint8Array>, expected: PutExpectation) => Promise<void>
	/** The file's content, or null when there is no such file. */
	get: (key: string) => Promise<{ body: ReadableStream<Uint8Array>; byteSize: number } | null>
	delete: (key: string) => Promise<void>
	/**
	 * Deletes every file whose key starts with `prefix` (a folder: it ends with '/'), answering how
	 * many were deleted. A purged organization's files go this way (decision 040).
	 */
	deletePrefix: (prefix: string) => Promise<number>
}

/**
 * Keys are ids joined by slashes; ids (better-auth's, base64url) may start with '_' or '-'.
 * No dots and no leading slash, so a key never leaves the local root, and means the same in a bucket.
 */
function assertValidKey(key: string): void {
	if (!/^[a-zA-Z0-9_-][a-zA-Z0-9/_-]*$/.test(key) || key.includes('..') || key.includes('//')) {
		throw new Error(`invalid storage key ${key}`)
	}
}

/** A prefix is a valid key ending with '/': a whole folder, never part of a name or the root. */
function assertValidPrefix(prefix: string): void {
	const folder = prefix.slice(0, -1)
	if (!prefix.endsWith('/') || folder.endsWith('/')) {
		throw new Error(`invalid storage prefix ${prefix}`)
	}
	assertValidKey(folder)
}

/** Counts the files under a folder (a missing folder holds none). */
async function countFiles(folder: string): Promise<number> {
	let entries: import('node:fs').Dirent[]
	try {
		entries = await readdir(folder, { withFileTypes: true, recursive: true })
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return 0
		}
		throw error
	}
	return entries.filter((entry) => entry.isFile()).length
}

const mismatch = (detail: string) => new AppError('UPLOAD_MISMATCH', { detail })

/**
 * Passes a body through while counting and hashing it. It fails as soon as the body is longer
 * than announced, and at its end, before the end is passed on, when it is shorter or altered:
 * what follows the meter never sees a mismatched body end as if it were complete.
 */
function createMeter(expected: PutExpectation): Transform {
	const md5 = createHash('md5')
	let byteSize = 0
	return new Transform({
		transform(chunk: Buffer, _encoding, callback) {
			byteSize += chunk.length
			if (byteSize > expected.byteSize) {
				callback(mismatch(`The file is larger than the announced ${expected.byteSize} bytes.`))
				return
			}
			md5.update(chunk)
			callback(null, chunk)
		},
		flush(callback) {
			if (byteSize !== expected.byteSize) {
				callback(mismatch(`Received ${byteSize} bytes; ${expected.byteSize} were announced.`))
			} else if (md5.digest('base64') !== expected.checksum) {
				callback(mismatch('The file does not match the announced checksum.'))
			} else {
				callback()
			}
		},
	})
}

const fromWeb = (body: ReadableStream<Uint8Array>) => Readable.fromWeb(body as import('node:stream/web').ReadableStream)

export function createLocalStorage(root: string): Storage {
	const pathOf = (key: string) => {
		assertValidKey(key)
		return path.join(root, key)
	}

	return {
		put: async (key, body, expected) => {
			const target = pathOf(key)
			await mkdir(path.dirname(target), { recursive: true })
			const temporary = `${target}.${randomBytes(6).toString('hex')}.partial`
			try {
				await pipeline(fromWeb(body), createMeter(expected), createWriteStream(temporary))
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
		deletePrefix: async (prefix) => {
			assertValidPrefix(prefix)
			const folder = path.join(root, prefix)
			const deleted = await countFiles(folder)
			await rm(folder, { recursive: true, force: true })
			return deleted
		},
	}
}

/** The same shape as the configuration's S3 settings (config.ts). */
type S3StorageOptions = {
	bucket: string
	region: string
	endpoint: string | null
	forcePathStyle: boolean
	credentials: { accessKeyId: string; secretAccessKey: string } | null
}

const isS3Error = (error: unknown, ...names: string[]) =>
	typeof error === 'object' && error !== null && names.includes(String((error as { name?: unknown }).name))

/**
 * Files in an S3-compatible bucket, through the official SDK. The SDK is loaded on first use, so
 * an installation that keeps files on its own disk never pays for loading it.
 */
export function createS3Storage(options: S3StorageOptions, log?: Logger): Storage {
	const Bucket = options.bucket
	let loading: Promise<{ client: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | undefined
	const load = () => {
		loading ??= import('@aws-sdk/client-s3').then((sdk) => ({
			sdk,
			client: new sdk.S3Client({
				region: options.region,
				forcePathStyle: options.forcePathStyle,
				...(options.endpoint ? { endpoint: options.endpoint } : {}),
				...(options.credentials ? { credentials: options.credentials } : {}),
				// By default the SDK adds a CRC32 trailer to every upload (aws-chunked encoding), which
				// not every S3-compatible store accepts; Content-MD5 is the check we ask for.
				requestChecksumCalculation: 'WHEN_REQUIRED',
				responseChecksumValidation: 'WHEN_REQUIRED',
				// Without a logger the SDK writes to the console (a line per refused upload); every failure
				// also surfaces as the error its call throws.
				logger: {
					debug: (...parts: unknown[]) => log?.debug({ parts }, 'S3 SDK'),
					info: (...parts: unknown[]) => log?.debug({ parts }, 'S3 SDK'),
					warn: (...parts: unknown[]) => log?.debug({ parts }, 'S3 SDK'),
					error: (...parts: unknown[]) => log?.debug({ parts }, 'S3 SDK'),
				},
			}),
		}))
		return loading
	}

	return {
		put: async (key, body, expected) => {
			assertValidKey(key)
			const { client, sdk } = await load()
			// The meter is the request's body. When the sender goes away or the bytes differ, the
			// request is aborted before the store has the announced length, and the store keeps
			// nothing; an altered body of the right length is refused by the store (Content-MD5).
			const meter = createMeter(expected)
			const abort = new AbortController()
			let failure: unknown
			pipeline(fromWeb(body), meter).catch((error: unknown) => {
				failure ??= error
				abort.abort()
			})
			try {
				await client.send(
					new sdk.PutObjectCommand({
						Bucket,
						Key: key,
						Body: meter,
						ContentLength: expected.byteSize,
						ContentMD5: expected.checksum,
					}),
					{ abortSignal: abort.signal },
				)
			} catch (error) {
				meter.destroy()
				if (failure) {
					throw failure
				}
				if (isS3Error(error, 'BadDigest', 'InvalidDigest', 'IncompleteBody')) {
					throw mismatch('The file does not match the announced size or checksum.')
				}
				throw error
			}
			if (failure) {
				throw failure
			}
		},
		get: async (key) => {
			assertValidKey(key)
			const { client, sdk } = await load()
			try {
				const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }))
				if (!object.Body || object.ContentLength === undefined) {
					throw new Error(`storage: the object ${key} came without a body or a length`)
				}
				return { body: object.Body.transformToWebStream(), byteSize: object.ContentLength }
			} catch (error) {
				if (isS3Error(error, 'NoSuchKey')) {
					return null
				}
				throw error
			}
		},
		delete: async (key) => {
			assertValidKey(key)
			const { client, sdk } = await load()
			await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }))
		},
		deletePrefix: async (prefix) => {
			assertValidPrefix(prefix)
			const { client, sdk } = await load()
			let deleted = 0
			// A page of at most 1000 keys, the most one DeleteObjects takes; listed again from the
			// start each time, since what was listed is gone.
			for (;;) {
				const listed = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, MaxKeys: 1000 }))
				const keys = (listed.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []))
				if (keys.length === 0) {
					return deleted
				}
				const result = await client.send(
					new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }),
				)
				const failed = result.Errors ?? []
				if (failed.length > 0) {
					throw new Error(`storage: ${failed.length} objects under ${prefix} were not deleted (${failed[0]?.Code})`)
				}
				deleted += keys.length
			}
		},
	}
}
