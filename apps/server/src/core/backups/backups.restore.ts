import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import * as tar from 'tar'
import { z } from 'zod'
import { lockDataDir } from '#src/db/lock.ts'
import {
	type BackupManifest,
	backupFormat,
	filesUnder,
	pgliteVersion,
	sha256Of,
	type TableManifest,
	tableManifest,
} from './backups.ts'

/** A restore that was refused: the message says why and what to do, for the command line. */
class RestoreError extends Error {}

export type RestoreResult = {
	manifest: BackupManifest
	tables: number
	files: number
	/** What became of secrets.json: restored, already the same, kept (AUTH_SECRET set and it differs), or none in the archive. */
	secrets: 'restored' | 'same' | 'kept' | 'none'
	warnings: string[]
}

// Upload paths are storage keys (lib/storage.ts): no dots, so none climbs out of the folder.
const uploadPath = z
	.string()
	.regex(/^[a-zA-Z0-9_-][a-zA-Z0-9/_-]*$/)
	.refine((value) => !value.includes('//'))

const manifestSchema = z.object({
	format: z.literal(backupFormat),
	createdAt: z.string(),
	migration: z.string(),
	pgliteVersion: z.string(),
	tables: z.record(z.string(), z.object({ rows: z.number().int().min(0), md5: z.string() })),
	uploads: z.object({
		storage: z.enum(['local', 's3']),
		files: z.array(z.object({ path: uploadPath, byteSize: z.number().int().min(0), sha256: z.string() })),
	}),
	secrets: z.boolean(),
})

const secretsSchema = z.object({ authSecret: z.string().min(32) })

const topLevel = new Set(['manifest.json', 'database.tar.gz', 'secrets.json', 'uploads'])

/** Only plain files and folders, only under the names a backup writes, never out of the folder. */
function isSafeEntry(entryPath: string, type: string): boolean {
	const clean = path.posix.normalize(entryPath.replace(/^\.\//, '')).replace(/\/$/, '')
	if (clean.startsWith('..') || path.posix.isAbsolute(clean) || entryPath.includes('\\')) {
		return false
	}
	const [first, ...rest] = clean.split('/')
	if (!first || !topLevel.has(first) || (rest.length > 0 && first !== 'uploads')) {
		return false
	}
	return type === 'File' || type === 'OldFile' || type === 'Directory'
}

async function isEmptyFolder(dir: string): Promise<boolean> {
	try {
		return (await readdir(dir)).length === 0
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return true
		}
		throw error
	}
}

function differences(expected: TableManifest, found: TableManifest): string[] {
	const names = [...new Set([...Object.keys(expected), ...Object.keys(found)])].sort()
	return names.flatMap((name) => {
		const want = expected[name]
		const got = found[name]
		if (!want) {
			return [`${name}: in the database, not in the manifest`]
		}
		if (!got) {
			return [`${name}: in the manifest, not in the database`]
		}
		if (want.rows !== got.rows) {
			return [`${name}: ${got.rows} rows, the manifest says ${want.rows}`]
		}
		return want.md5 === got.md5 ? [] : [`${name}: its rows differ from the manifest's (md5)`]
	})
}

/**
 * Restores an archive of `createBackup` into `dataDir`, which must not be in use and must hold
 * no database and no uploaded files. Everything is checked against the manifest before it is
 * kept: a database whose tables differ is removed again, and nothing of a refused restore stays.
 */
export async function restoreBackup(options: {
	archive: string
	dataDir: string
	/** AUTH_SECRET is set: a secrets.json that differs from the archive's is then left as it is. */
	hasAuthSecret: boolean
}): Promise<RestoreResult> {
	const { dataDir } = options
	const archive = path.resolve(options.archive)
	if (!(await stat(archive).catch(() => null))?.isFile()) {
		throw new RestoreError(`No backup file at ${archive}.`)
	}
	await mkdir(dataDir, { recursive: true })
	// Held throughout: no server opens the folder while it is being filled.
	const unlock = lockDataDir(dataDir)
	const dbDir = path.join(dataDir, 'db')
	const uploadsDir = path.join(dataDir, 'uploads')
	const staging = path.join(dataDir, `.restore-staging-${randomBytes(6).toString('hex')}`)
	try {
		if (!(await isEmptyFolder(dbDir))) {
			throw new RestoreError(
				`${dbDir} already holds a database. Restore into a new, empty data folder (set DATA_DIR), or move this one away first.`,
			)
		}
		if ((await filesUnder(uploadsDir)).length > 0) {
			throw new RestoreError(`${uploadsDir} already holds files. Restore into a new, empty data folder (set DATA_DIR).`)
		}
		await mkdir(staging, { recursive: true, mode: 0o700 })
		const refused: string[] = []
		await tar.extract({
			file: archive,
			cwd: staging,
			strict: true,
			filter: (entryPath, entry) => {
				const isSafe = isSafeEntry(entryPath, 'type' in entry ? String(entry.type) : 'File')
				if (!isSafe) {
					refused.push(entryPath)
				}
				return isSafe
			},
		})
		if (refused.length > 0) {
			throw new RestoreError(
				`The archive holds entries a backup never has (${refused.slice(0, 3).join(', ')}): refused.`,
			)
		}
		const manifest = await readManifest(staging)
		const warnings: string[] = []
		if (manifest.pgliteVersion !== pgliteVersion()) {
			warnings.push(
				`The backup was made with PGlite ${manifest.pgliteVersion}; this is PGlite ${pgliteVersion()}. If the database does not open, restore with the version that made it.`,
			)
		}
		const secrets = await checkSecrets(staging, dataDir, manifest, options.hasAuthSecret)
		await verifyFiles(staging, manifest)

		await rm(dbDir, { recursive: true, force: true })
		const dump = await readFile(path.join(staging, 'database.tar.gz')).catch(() => {
			throw new RestoreError('The archive has no database.tar.gz.')
		})
		try {
			const pglite = await PGlite.create({ dataDir: dbDir, loadDataDir: new Blob([new Uint8Array(dump)]) })
			try {
				const found = differences(manifest.tables, await tableManifest(pglite))
				if (found.length > 0) {
					throw new RestoreError(
						`The restored database differs from the backup's manifest; nothing was restored.\n  ${found.slice(0, 10).join('\n  ')}`,
					)
				}
			} finally {
				await pglite.close()
			}
		} catch (error) {
			await rm(dbDir, { recursive: true, force: true })
			throw error
		}

		if (manifest.uploads.files.length > 0) {
			await rm(uploadsDir, { recursive: true, force: true })
			await rename(path.join(staging, 'uploads'), uploadsDir)
		}
		if (secrets.write) {
			await writeFile(path.join(dataDir, 'secrets.json'), secrets.write, { mode: 0o600 })
		}
		return {
			manifest,
			tables: Object.keys(manifest.tables).length,
			files: manifest.uploads.files.length,
			secrets: secrets.outcome,
			warnings,
		}
	} finally {
		await rm(staging, { recursive: true, force: true })
		unlock()
	}
}

async function readManifest(staging: string): Promise<BackupManifest> {
	let raw: unknown
	try {
		raw = JSON.parse(await readFile(path.join(staging, 'manifest.json'), 'utf8'))
	} catch {
		throw new RestoreError('The archive has no readable manifest.json: is it a Blocksmith backup?')
	}
	const parsed = manifestSchema.safeParse(raw)
	if (!parsed.success) {
		throw new RestoreError(`The archive's manifest.json is not a ${backupFormat} manifest.`)
	}
	return parsed.data
}

/**
 * The archive's AUTH_SECRET is part of the data (sessions, signed links, stored Notion tokens):
 * a data folder whose own secrets.json differs would lose them, so that is refused unless
 * AUTH_SECRET is set (then the server uses that one anyway).
 */
async function checkSecrets(
	staging: string,
	dataDir: string,
	manifest: BackupManifest,
	hasAuthSecret: boolean,
): Promise<{ outcome: RestoreResult['secrets']; write: string | null }> {
	if (!manifest.secrets) {
		return { outcome: 'none', write: null }
	}
	const text = await readFile(path.join(staging, 'secrets.json'), 'utf8').catch(() => '')
	const restored = secretsSchema.safeParse(JSON.parse(text || 'null'))
	if (!restored.success) {
		throw new RestoreError("The archive's secrets.json is missing or malformed.")
	}
	const existingText = await readFile(path.join(dataDir, 'secrets.json'), 'utf8').catch(() => null)
	if (existingText === null) {
		return { outcome: 'restored', write: text }
	}
	const existing = secretsSchema.safeParse(JSON.parse(existingText))
	if (existing.success && existing.data.authSecret === restored.data.authSecret) {
		return { outcome: 'same', write: null }
	}
	if (!hasAuthSecret) {
		throw new RestoreError(
			`${path.join(dataDir, 'secrets.json')} holds another AUTH_SECRET than the backup's: sessions, signed links and stored Notion tokens of the backup would not work. Remove that file to use the backup's, or set AUTH_SECRET.`,
		)
	}
	return { outcome: 'kept', write: null }
}

/** Every file the manifest lists, and nothing else, with its size and sha256. */
async function verifyFiles(staging: string, manifest: BackupManifest): Promise<void> {
	const root = path.join(staging, 'uploads')
	const present = new Set(await filesUnder(root))
	for (const file of manifest.uploads.files) {
		const absolute = path.join(root, ...file.path.split('/'))
		if (!present.delete(file.path)) {
			throw new RestoreError(`The archive lacks the file uploads/${file.path} its manifest lists.`)
		}
		if ((await stat(absolute)).size !== file.byteSize || (await sha256Of(absolute)) !== file.sha256) {
			throw new RestoreError(`The file uploads/${file.path} differs from its manifest entry (size or sha256).`)
		}
	}
	if (present.size > 0) {
		throw new RestoreError(`The archive holds files its manifest does not list (uploads/${[...present][0]}).`)
	}
}
