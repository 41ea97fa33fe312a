// What every benchmark in this folder needs around its own measurement: clean-up that also runs
// on Ctrl-C, settings from the environment, progress on stderr, the machine and commit a figure
// was taken on, a throw-away PostgreSQL database, an aligned table on stdout and the report in
// bench/results/. One copy here, so the benchmarks report alike and a fix reaches all of them.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

/** The repository's root: where git is asked about the commit and report paths are printed from. */
export const repoRoot = path.resolve(import.meta.dirname, '..')

const defaultPostgresUrl = 'postgres://postgres@127.0.0.1:5432/test'

// Everything started is undone here, newest first, on success, on failure and on Ctrl-C.
const cleanups: Array<() => Promise<void> | void> = []
let interrupted = false

/**
 * Registers `undo` for exit; the returned function runs it early, once. So a server, a data
 * folder or a database goes away when its measurement is done, and still goes on a throw or Ctrl-C.
 */
export function onCleanup(undo: () => Promise<void> | void): () => Promise<void> {
	let isDone = false
	const run = async () => {
		if (isDone) {
			return
		}
		isDone = true
		const index = cleanups.indexOf(run)
		if (index >= 0) {
			cleanups.splice(index, 1)
		}
		await undo()
	}
	cleanups.push(run)
	return run
}

async function runCleanups(): Promise<void> {
	for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) {
		try {
			await cleanup()
		} catch (error) {
			console.error('cleanup failed:', error)
		}
	}
}

/**
 * Whether Ctrl-C (or SIGTERM) arrived. The main flow keeps going for a moment after it: loops
 * check this to stop, and to start nothing the clean-ups would miss or report errors it caused.
 */
export function wasInterrupted(): boolean {
	return interrupted
}

/** When a run started and how busy the machine was then, for its report. */
export type RunStart = { startedAt: Date; loadAverageAtStart: number }

/**
 * Runs a benchmark's `main` and exits with its code (1 if it throws), after the clean-ups. On
 * SIGINT or SIGTERM the clean-ups run at once and the process exits with 130. Every benchmark
 * ends with this, so none can leave a server, folder or database behind. On a Node older than
 * 22 it says that `nodeFor` (the server, or its code loaded here) needs a newer one and exits
 * with 1; `npm run bench` brings the project's own Node.
 */
export async function runBenchmark(nodeFor: string, main: (start: RunStart) => Promise<number>): Promise<never> {
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => {
			interrupted = true
			void runCleanups().finally(() => process.exit(130))
		})
	}
	const exitCode = await runMain(nodeFor, main).catch((error: unknown) => {
		if (!interrupted) {
			console.error('benchmark failed:', error)
		}
		return 1
	})
	await runCleanups()
	process.exit(exitCode)
}

function runMain(nodeFor: string, main: (start: RunStart) => Promise<number>): Promise<number> {
	const nodeMajor = Number(process.versions.node.split('.')[0])
	if (nodeMajor < 22) {
		console.error(`Node ${process.versions.node} is too old for ${nodeFor}; run it with \`npm run bench\`.`)
		return Promise.resolve(1)
	}
	return main({ startedAt: new Date(), loadAverageAtStart: os.loadavg()[0] ?? 0 })
}

/** A setting such as BENCH_ROWS: the fallback when unset or empty; anything but a positive integer fails the run. */
export function positiveIntegerFromEnv(name: string, fallback: number): number {
	const value = process.env[name]
	if (value === undefined || value === '') {
		return fallback
	}
	const parsed = Number(value)
	if (!Number.isInteger(parsed) || parsed < 1) {
		throw new Error(`${name} must be a positive whole number (got "${value}")`)
	}
	return parsed
}

/** Rounds to `digits` decimals, so reports carry figures, not float noise. */
export function round(value: number, digits: number): number {
	const factor = 10 ** digits
	return Math.round(value * factor) / factor
}

/** A progress line. It goes to stderr so that stdout carries only the figures. */
export function progress(message: string): void {
	console.error(`· ${message}`)
}

/**
 * The fields every report carries, in this order: when, on what machine, which Node, and which
 * commit, marked when `watched` (the code the benchmark measures) had uncommitted changes.
 */
export function aboutRun(start: RunStart, watched: string[]) {
	return {
		date: start.startedAt.toISOString(),
		machine: {
			cpus: os.cpus().length,
			cpuModel: os.cpus()[0]?.model ?? 'unknown',
			memoryGiB: round(os.totalmem() / 2 ** 30, 1),
			platform: `${os.platform()} ${os.release()} ${os.arch()}`,
			loadAverageAtStart: round(start.loadAverageAtStart, 2),
		},
		node: process.versions.node,
		commit: gitCommit(watched),
	}
}

/** `watched` as git pathspecs and as the report names them, e.g. `['apps/server', 'packages/']`. */
function gitCommit(watched: string[]): string | undefined {
	try {
		const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim()
		const isDirty = execFileSync('git', ['status', '--porcelain', '--', ...watched], {
			cwd: repoRoot,
			encoding: 'utf8',
		}).trim()
		return isDirty ? `${commit} (with uncommitted changes in ${watched.join(' or ')})` : commit
	} catch {
		return undefined
	}
}

/** A fresh folder in the temp dir (a server's or PGlite's data), removed by the clean-ups or by `remove`. */
export function scratchFolder(): { dir: string; remove: () => Promise<void> } {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'bs-bench-'))
	return { dir, remove: onCleanup(() => rmSync(dir, { recursive: true, force: true })) }
}

/**
 * The PostgreSQL server to measure on: DATABASE_URL, or the local default. When it cannot be
 * reached this says so in one line and gives the reason, and the benchmark measures PGlite only.
 */
export async function findPostgres(): Promise<
	{ url: string; reason?: undefined } | { url?: undefined; reason: string }
> {
	const url = process.env.DATABASE_URL || defaultPostgresUrl
	const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
	try {
		await client.connect()
		await client.query('select 1')
		return { url }
	} catch (error) {
		const reason = `${redact(url)}: ${error instanceof Error ? error.message : String(error)}`
		console.log(`PostgreSQL not reachable (${reason}); measuring PGlite only.`)
		return { reason }
	} finally {
		await client.end().catch(() => {})
	}
}

/** A database of this run's own on the given server, dropped again by the cleanups. */
export async function createThrowAwayDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
	const name = `bench_${randomBytes(6).toString('hex')}`
	await adminQuery(adminUrl, `create database "${name}"`)
	// `with (force)` because a server killed mid-run may still hold connections.
	const drop = onCleanup(() => adminQuery(adminUrl, `drop database if exists "${name}" with (force)`))
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	return { url: url.toString(), drop }
}

async function adminQuery(url: string, sql: string): Promise<void> {
	const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
	await client.connect()
	try {
		await client.query(sql)
	} finally {
		await client.end()
	}
}

/** A connection URL fit to print: the password masked, or a stand-in if it does not parse. */
function redact(url: string): string {
	try {
		const parsed = new URL(url)
		if (parsed.password) {
			parsed.password = '***'
		}
		return parsed.toString()
	} catch {
		return 'DATABASE_URL'
	}
}

/** A table on stdout between blank lines: the first column left-aligned, the figures right-aligned. */
export function printAligned(header: string[], body: string[][]): void {
	const widths = header.map((_, column) => Math.max(...[header, ...body].map((cells) => (cells[column] ?? '').length)))
	const format = (cells: string[]) =>
		cells
			.map((cell, column) => (column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0)))
			.join('  ')
	console.log('')
	console.log(format(header))
	for (const cells of body) {
		console.log(format(cells))
	}
	console.log('')
}

/** Writes the report to bench/results/<its benchmark>.json, tab-indented as committed, and says where. */
export function writeResults(report: { benchmark: string }): void {
	const resultsFile = path.join(import.meta.dirname, 'results', `${report.benchmark}.json`)
	mkdirSync(path.dirname(resultsFile), { recursive: true })
	writeFileSync(resultsFile, `${JSON.stringify(report, null, '\t')}\n`)
	console.log(`written to ${path.relative(repoRoot, resultsFile)}`)
}
