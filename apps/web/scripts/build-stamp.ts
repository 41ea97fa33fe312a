import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

// Whether the web app's build still matches its sources, for build-if-stale.ts.
//
// The build is stamped with a hash of the *contents* of everything it is made of, not mtimes: a
// checkout, `git stash` or copy resets mtimes without changing a byte, and a mtime can also move
// backwards (switching branches), which a "newer than" test misses. Hashing every input on every
// start costs a walk and a megabyte of reading, so the stamp also keeps a snapshot of the inputs'
// file system records (size, mtime, ctime, inode of each file and folder). When not one of them
// changed, no byte did: a write changes the file's ctime, which no tool can set back, and adding,
// removing or renaming a file changes its folder's. Anything else falls back to the hash.

/** What the build is made of: files and folders relative to `repoDir`, and the VITE_* variables baked into the bundle. */
export type BuildInputs = { repoDir: string; inputs: string[]; env: Record<string, string | undefined> }

type Snapshot = {
	/** Each input as `f:path`, `d:path` (a folder) or `-:path` (an input that does not exist). */
	entries: string[]
	/** A hash of the entries' records and of the VITE_* variables. */
	records: string
}

export type Stamp = { fingerprint: string; builtAt: string; snapshot?: Snapshot | undefined }

/**
 * A record changed less than this long before the snapshot was taken is not trusted: a second
 * write within the file system's timestamp granularity could leave the same ctime behind.
 */
const settleNs = 2_000_000_000n

function viteVariables(env: BuildInputs['env']): string {
	return JSON.stringify(
		Object.entries(env)
			.filter(([name]) => name.startsWith('VITE_'))
			.sort(([a], [b]) => a.localeCompare(b)),
	)
}

/** Every input's entries, found by walking the folders. */
function walk({ repoDir, inputs }: BuildInputs): string[] {
	const entries: string[] = []
	for (const input of inputs) {
		const absolute = path.join(repoDir, input)
		if (!existsSync(absolute)) {
			entries.push(`-:${input}`)
		} else if (!statSync(absolute).isDirectory()) {
			entries.push(`f:${input}`)
		} else {
			entries.push(`d:${input}`)
			for (const entry of readdirSync(absolute, { recursive: true, withFileTypes: true })) {
				const relative = path.relative(repoDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')
				if (entry.isFile()) {
					entries.push(`f:${relative}`)
				} else if (entry.isDirectory()) {
					entries.push(`d:${relative}`)
				}
			}
		}
	}
	return entries.sort()
}

/**
 * The entries' records as one hash, and the newest change among them; undefined when an entry
 * is no longer what it was (a file became a folder, an input appeared or went away).
 */
function readRecords(build: BuildInputs, entries: string[]): { records: string; newestChangeNs: bigint } | undefined {
	const hash = createHash('sha256')
	let newestChangeNs = 0n
	for (const entry of entries) {
		const kind = entry.slice(0, 1)
		const stats = statSync(path.join(build.repoDir, entry.slice(2)), { bigint: true, throwIfNoEntry: false })
		if (kind === '-' ? stats !== undefined : stats === undefined || stats.isDirectory() !== (kind === 'd')) {
			return undefined
		}
		if (stats) {
			hash.update(`${entry}\0${stats.size}\0${stats.mtimeNs}\0${stats.ctimeNs}\0${stats.ino}\0${stats.dev}\n`)
			for (const changedNs of [stats.mtimeNs, stats.ctimeNs]) {
				if (changedNs > newestChangeNs) {
					newestChangeNs = changedNs
				}
			}
		} else {
			hash.update(`${entry}\n`)
		}
	}
	hash.update(viteVariables(build.env))
	return { records: hash.digest('hex'), newestChangeNs }
}

/** A hash of every input file's path and contents, and of the VITE_* variables. */
function contentFingerprint(build: BuildInputs, entries: string[]): string {
	const hash = createHash('sha256')
	for (const entry of entries) {
		if (!entry.startsWith('f:')) {
			continue
		}
		const file = entry.slice(2)
		hash.update(`${file}\0`)
		hash.update(
			createHash('sha256')
				.update(readFileSync(path.join(build.repoDir, file)))
				.digest('hex'),
		)
		hash.update('\0')
	}
	hash.update(viteVariables(build.env))
	return hash.digest('hex')
}

/** The sources as they are now: their content fingerprint, and the snapshot to stamp with it (when it can be trusted). */
export function readSources(
	build: BuildInputs,
	nowMs = Date.now(),
): { fingerprint: string; snapshot: Snapshot | undefined } {
	// Records before contents: a file written in between then has records newer than the snapshot,
	// so the next start does not trust the snapshot and hashes again.
	const startedNs = BigInt(nowMs) * 1_000_000n
	const entries = walk(build)
	const records = readRecords(build, entries)
	const fingerprint = contentFingerprint(build, entries)
	const isSettled = records !== undefined && records.newestChangeNs < startedNs - settleNs
	return { fingerprint, snapshot: isSettled ? { entries, records: records.records } : undefined }
}

/** Whether not one input changed since `stamp` was written: its snapshot's records are all still the same. */
export function isUnchangedSince(build: BuildInputs, stamp: Stamp): boolean {
	if (!stamp.snapshot) {
		return false
	}
	return readRecords(build, stamp.snapshot.entries)?.records === stamp.snapshot.records
}

export function readStamp(stampFile: string): Stamp | undefined {
	try {
		const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as Partial<Stamp>
		if (typeof stamp.fingerprint !== 'string' || typeof stamp.builtAt !== 'string') {
			return undefined
		}
		const snapshot = stamp.snapshot
		const isSnapshot =
			typeof snapshot === 'object' &&
			snapshot !== null &&
			Array.isArray(snapshot.entries) &&
			snapshot.entries.every((entry) => typeof entry === 'string') &&
			typeof snapshot.records === 'string'
		return { fingerprint: stamp.fingerprint, builtAt: stamp.builtAt, snapshot: isSnapshot ? snapshot : undefined }
	} catch {
		return undefined
	}
}

/** Written atomically, so a build that failed or was interrupted has no stamp and a reader never sees half of one. */
export function writeStamp(stampFile: string, stamp: Stamp): void {
	const temporary = `${stampFile}.${process.pid}`
	writeFileSync(temporary, `${JSON.stringify(stamp)}\n`)
	renameSync(temporary, stampFile)
}
