import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, readFileSync } from 'node:fs'
import { chmod, copyFile, link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { createGzip } from 'node:zlib'
import * as tar from 'tar'
import { type AloneClient, type Database, runAlone } from '#src/db/client.ts'

// A backup of the embedded database and the uploaded files (decision 040): PGlite's own
// physical copy of its folder, and hard links to the files, both taken while no statement of
// the app runs; then one .tar.gz written at leisure from the staging folder.

export const backupFormat = 'blocksmith-backup/1'

export type TableManifest = Record<string, { rows: number; md5: string }>

export type BackupManifest = {
	format: typeof backupFormat
	createdAt: string
	/** The newest migration the database had: a newer server migrates it on start. */
	migration: string
	/** The copy is PGlite's own format: restoring needs this PGlite version (or one that reads it). */
	pgliteVersion: string
	tables: TableManifest
	/** `s3`: the files are in the bucket, not in the archive (back the bucket up with its own tools). */
	uploads: { storage: 'local' | 's3'; files: { path: string; byteSize: number; sha256: string }[] }
	secrets: boolean
}

export type BackupResult = { file: string; byteSize: number; tables: number; files: number }

export type BackupOptions = {
	database: Database
	dataDir: string
	/** Files are in a bucket (S3_BUCKET): the archive holds the database and secrets only. */
	isS3: boolean
	/** The default folder (config.backups.dir). */
	dir: string
	/** Instead of `dir`: a file when it ends in .tar.gz, else a folder (made if missing). */
	out?: string | undefined
	now?: Date
}

const migrationsFolder = fileURLToPath(new URL('../../db/migrations', import.meta.url))

export const backupFilePattern = /^blocksmith-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ(-\d+)?\.tar\.gz$/

/** `blocksmith-backup-2026-11-26T23-05-00Z.tar.gz`: UTC, sortable, no colons (Windows, scp). */
function backupFileName(at: Date): string {
	return `blocksmith-backup-${at
		.toISOString()
		.replace(/\.\d+Z$/, 'Z')
		.replaceAll(':', '-')}.tar.gz`
}

function latestMigration(): string {
	const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
		entries: { tag: string; when: number }[]
	}
	return journal.entries.reduce((newest, entry) => (entry.when > newest.when ? entry : newest)).tag
}

export function pgliteVersion(): string {
	// The package's exports leave out its package.json: found from its entry point instead.
	let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')))
	for (let depth = 0; depth < 4; depth++, dir = path.dirname(dir)) {
		try {
			const found = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
				name?: string
				version?: string
			}
			if (found.name === '@electric-sql/pglite' && found.version) {
				return found.version
			}
		} catch {
			// Not this folder.
		}
	}
	return 'unknown'
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * Every table's row count and an md5 over its rows, in every schema but PostgreSQL's own
 * (the app's, pg-boss's, Drizzle's migrations). The md5 is over the rows' own md5s in sorted
 * order: stable, and 32 bytes a row in memory rather than the rows themselves. Unlogged and
 * temporary tables are left out: a physical copy does not keep their rows.
 */
export async function tableManifest(client: Pick<AloneClient, 'query'>): Promise<TableManifest> {
	const { rows: tables } = await client.query<{ schema: string; name: string }>(
		`select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
		 where c.relkind = 'r' and c.relpersistence = 'p'
		   and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg\\_%'
		 order by 1, 2`,
	)
	const manifest: TableManifest = {}
	for (const table of tables) {
		const name = `${quote(table.schema)}.${quote(table.name)}`
		const { rows } = await client.query<{ rows: string; md5: string }>(
			`select count(*)::text as rows, md5(coalesce(string_agg(md5(t::text), '' order by md5(t::text)), '')) as md5 from ${name} t`,
		)
		const [row] = rows
		manifest[`${table.schema}.${table.name}`] = { rows: Number(row?.rows ?? 0), md5: row?.md5 ?? '' }
	}
	return manifest
}

/** The files under `root`, as paths relative to it with forward slashes; uploads still arriving left out. */
export async function filesUnder(root: string): Promise<string[]> {
	let entries: import('node:fs').Dirent[]
	try {
		entries = await readdir(root, { recursive: true, withFileTypes: true })
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return []
		}
		throw error
	}
	return entries
		.filter((entry) => entry.isFile() && !entry.name.endsWith('.partial'))
		.map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
		.sort()
}

export async function sha256Of(file: string): Promise<string> {
	const hash = createHash('sha256')
	await pipeline(createReadStream(file), hash)
	return hash.digest('hex')
}

/** Where the archive goes: `out` when it names a .tar.gz file, else a new name in the folder `out` or `dir`. */
async function targetOf(options: BackupOptions, at: Date): Promise<string> {
	const out = options.out ? path.resolve(options.out) : undefined
	if (out?.endsWith('.tar.gz')) {
		await mkdir(path.dirname(out), { recursive: true })
		return out
	}
	const dir = out ?? options.dir
	await mkdir(dir, { recursive: true, mode: 0o700 })
	const name = backupFileName(at)
	for (let n = 1; ; n++) {
		const candidate = path.join(dir, n === 1 ? name : name.replace(/\.tar\.gz$/, `-${n}.tar.gz`))
		if (!(await stat(candidate).catch(() => null))) {
			return candidate
		}
	}
}

/** A staging folder this old was left by a backup that never finished (the process died): hours, never minutes. */
const staleStagingMs = 6 * 60 * 60 * 1000

/**
 * Removes staging folders left by backups whose process died halfway (they hold hard links,
 * so a deleted upload's bytes would stay on disk). Young ones may be another backup's, running.
 */
async function removeStaleStaging(dataDir: string): Promise<void> {
	const entries = await readdir(dataDir, { withFileTypes: true }).catch(() => [])
	for (const entry of entries) {
		if (!entry.isDirectory() || !entry.name.startsWith('.backup-staging-')) {
			continue
		}
		const folder = path.join(dataDir, entry.name)
		const info = await stat(folder).catch(() => null)
		if (info && Date.now() - info.mtimeMs > staleStagingMs) {
			await rm(folder, { recursive: true, force: true })
		}
	}
}

/**
 * Takes a backup. The exclusive part (the manifest's counts and hashes, the copy of the
 * database, the links to the files) holds every statement of the app back for its duration;
 * hashing the files and writing the archive happen after, while the app runs.
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
	const { database, dataDir } = options
	if (database.kind !== 'pglite') {
		throw new Error('backups are of the embedded database (PGlite); back PostgreSQL up with pg_dump')
	}
	const at = options.now ?? new Date()
	await removeStaleStaging(dataDir)
	const staging = path.join(dataDir, `.backup-staging-${randomBytes(6).toString('hex')}`)
	const uploadsRoot = path.join(dataDir, 'uploads')
	await mkdir(path.join(staging, 'uploads'), { recursive: true, mode: 0o700 })
	try {
		const { tables, files, takenAt, dump } = await runAlone(database, async (client) => {
			const takenAt = new Date()
			const tables = await tableManifest(client)
			// The folder as a plain tar, in memory: compressing it here held every statement back for
			// most of the backup (4-6 s of a 285 MiB folder, bench/your-data.bench.ts), so it is
			// compressed below, once the app runs again.
			const dump = await database.pglite.dumpDataDir('none')
			const files = options.isS3 ? [] : await linkFiles(uploadsRoot, path.join(staging, 'uploads'))
			return { tables, files, takenAt, dump }
		})
		await pipeline(
			Readable.fromWeb(dump.stream() as import('node:stream/web').ReadableStream),
			createGzip(),
			createWriteStream(path.join(staging, 'database.tar.gz'), { mode: 0o600 }),
		)
		const hasSecrets = await copyFile(path.join(dataDir, 'secrets.json'), path.join(staging, 'secrets.json')).then(
			() => true,
			(error: NodeJS.ErrnoException) => {
				if (error.code === 'ENOENT') {
					return false
				}
				throw error
			},
		)
		const manifest: BackupManifest = {
			format: backupFormat,
			// The moment the copy is of: when the app's statements stopped for it.
			createdAt: takenAt.toISOString(),
			migration: latestMigration(),
			pgliteVersion: pgliteVersion(),
			tables,
			uploads: {
				storage: options.isS3 ? 's3' : 'local',
				files: await describeFiles(path.join(staging, 'uploads'), files),
			},
			secrets: hasSecrets,
		}
		await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 })
		const target = await targetOf(options, at)
		const partial = `${target}.partial`
		const entries = ['manifest.json', 'database.tar.gz', ...(hasSecrets ? ['secrets.json'] : []), 'uploads']
		try {
			// The archive holds the secret AUTH_SECRET: readable by its owner only, from its first byte.
			await pipeline(
				tar.create({ gzip: true, cwd: staging, portable: true }, entries),
				createWriteStream(partial, { mode: 0o600, flags: 'wx' }),
			)
			await chmod(partial, 0o600)
			await rename(partial, target)
		} catch (error) {
			await rm(partial, { force: true })
			throw error
		}
		return {
			file: target,
			byteSize: (await stat(target)).size,
			tables: Object.keys(tables).length,
			files: files.length,
		}
	} finally {
		await rm(staging, { recursive: true, force: true })
	}
}

/** Each file's size and sha256, one file at a time (thousands of uploads must not open thousands of files). */
async function describeFiles(root: string, files: string[]): Promise<BackupManifest['uploads']['files']> {
	const described: BackupManifest['uploads']['files'] = []
	for (const file of files) {
		const absolute = path.join(root, ...file.split('/'))
		described.push({ path: file, byteSize: (await stat(absolute)).size, sha256: await sha256Of(absolute) })
	}
	return described
}

/**
 * Hard-links every uploaded file into the staging folder: instant, and a file the app deletes
 * right after still has its content here. A file gone between the listing and its link was
 * deleted before the copy (its row too): it is left out.
 */
async function linkFiles(root: string, into: string): Promise<string[]> {
	const linked: string[] = []
	for (const file of await filesUnder(root)) {
		const target = path.join(into, ...file.split('/'))
		await mkdir(path.dirname(target), { recursive: true })
		const source = path.join(root, ...file.split('/'))
		try {
			await link(source, target).catch(async (error: NodeJS.ErrnoException) => {
				// The uploads folder mounted from another file system: a copy, slower but as consistent.
				if (error.code !== 'EXDEV') {
					throw error
				}
				await copyFile(source, target)
			})
			linked.push(file)
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
				throw error
			}
		}
	}
	return linked
}
