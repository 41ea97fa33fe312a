// What every benchmark in this folder needs around its own measurement: clean-up that also runs
// on Ctrl-C, settings from the environment, progress on stderr, the machine and commit a figure
// was taken on, a throw-away PostgreSQL database, an aligned table on stdout and the report in
// bench/results/; and for the HTTP benchmarks, the real and the bare server in their own
// processes and the load run against them. One copy here, so the benchmarks report alike and a
// fix reaches all of them.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createHistogram, performance, type RecordableHistogram } from 'node:perf_hooks'
import autocannon from 'autocannon'
import pg from 'pg'
import { type Database, openDatabase } from '../apps/server/src/db/client.ts'

/** The repository's root: where git is asked about the commit and report paths are printed from. */
const repoRoot = path.resolve(import.meta.dirname, '..')

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

/** A measured call's median, fastest and slowest time, in milliseconds. */
export type Timing = { medianMs: number; minMs: number; maxMs: number }

/**
 * Warm-up, then rounds of every call in turn, so drift on a shared machine hits them alike: what
 * the ratio benchmarks (a query against its typed-table baseline) time their calls with.
 */
export async function timeInterleaved(
	calls: (() => Promise<unknown>)[],
	options: { warmupRuns: number; runs: number; digits?: number },
): Promise<Timing[]> {
	const digits = options.digits ?? 2
	for (let run = 0; run < options.warmupRuns; run++) {
		for (const call of calls) {
			await call()
		}
	}
	const samples = calls.map((): number[] => [])
	for (let run = 0; run < options.runs; run++) {
		for (const [index, call] of calls.entries()) {
			const started = performance.now()
			await call()
			samples[index]?.push(performance.now() - started)
		}
	}
	return samples.map((values) => {
		const sorted = [...values].sort((a, b) => a - b)
		const middle = Math.floor(sorted.length / 2)
		const median = sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
		return {
			medianMs: round(median, digits),
			minMs: round(sorted[0] ?? 0, digits),
			maxMs: round(sorted.at(-1) ?? 0, digits),
		}
	})
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

// ---- HTTP servers under load -----------------------------------------------------------------

const serverMain = path.join(repoRoot, 'apps/server/src/main.ts')
const bareServer = path.join(import.meta.dirname, 'bare-hono.server.ts')

/** A server in its own process: its origin, its last lines of output, and how to stop it (once). */
export type RunningServer = { url: string; outputTail: () => string; stop: () => Promise<void> }

const liveChildren = new Set<ChildProcess>()
// Last resort if the process dies some other way: a server left behind would hold its port.
process.on('exit', () => {
	for (const child of liveChildren) {
		child.kill('SIGKILL')
	}
})

/**
 * The real server as `npm start` runs it (apps/server/src/main.ts in its own process) on a fresh
 * data folder, and on a throw-away database when given a PostgreSQL server. `env` comes on top
 * of what every run needs (port, secret, data folder); stopping it removes the folder and database.
 */
export async function startBlocksmithServer(options: {
	postgresUrl: string | undefined
	env: Record<string, string>
}): Promise<RunningServer> {
	const dataDir = scratchFolder()
	const database = options.postgresUrl ? await createThrowAwayDatabase(options.postgresUrl) : undefined
	const port = await freePort()
	const server = await startServer({
		name: 'Blocksmith server',
		script: serverMain,
		cwd: path.dirname(path.dirname(serverMain)),
		env: {
			...options.env,
			PORT: String(port),
			HOST: '127.0.0.1',
			PUBLIC_URL: `http://127.0.0.1:${port}`,
			DATA_DIR: dataDir.dir,
			AUTH_SECRET: randomBytes(32).toString('hex'),
			SHUTDOWN_TIMEOUT_MS: '10000',
			...(database ? { DATABASE_URL: database.url } : {}),
		},
		readyUrl: `http://127.0.0.1:${port}/readyz`,
	})
	return {
		...server,
		stop: async () => {
			await server.stop()
			// The server is gone: its folder and database can go now rather than at exit.
			await database?.drop()
			await dataDir.remove()
		},
	}
}

/** `bare-hono.server.ts`: Hono on @hono/node-server with nothing in front, the baseline. */
export async function startBareHono(): Promise<RunningServer> {
	const port = await freePort()
	return startServer({
		name: 'bare Hono',
		script: bareServer,
		cwd: import.meta.dirname,
		env: { PORT: String(port) },
		readyUrl: `http://127.0.0.1:${port}/readyz`,
	})
}

async function startServer(options: {
	name: string
	script: string
	cwd: string
	env: Record<string, string>
	readyUrl: string
}): Promise<RunningServer> {
	if (wasInterrupted()) {
		// The main flow keeps going for a moment after Ctrl-C; start nothing the cleanups would miss.
		throw new Error('interrupted')
	}
	progress(`starting ${options.name}`)
	// Only what the server needs: an inherited DATABASE_URL must not reach the PGlite run.
	const child = spawn(process.execPath, [options.script], {
		cwd: options.cwd,
		env: {
			PATH: process.env.PATH ?? '',
			// e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: where each server's time goes under the same load.
			...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
			...options.env,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	liveChildren.add(child)
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
	void exited.then(() => liveChildren.delete(child))

	const lines: string[] = []
	const keep = (chunk: Buffer) => {
		lines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
		lines.splice(0, Math.max(0, lines.length - 40))
	}
	child.stdout.on('data', keep)
	child.stderr.on('data', keep)

	const stop = onCleanup(async () => {
		if (child.exitCode !== null || child.signalCode !== null) {
			return
		}
		child.kill('SIGTERM')
		const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
		await exited
		clearTimeout(timer)
	})

	const url = new URL(options.readyUrl).origin
	const deadline = Date.now() + 60_000
	for (;;) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`${options.name} exited before it was ready:\n${lines.join('\n')}`)
		}
		try {
			const response = await fetch(options.readyUrl, { signal: AbortSignal.timeout(2000) })
			await response.body?.cancel()
			if (response.ok) {
				break
			}
		} catch {
			// Not listening yet.
		}
		if (Date.now() > deadline) {
			await stop()
			throw new Error(`${options.name} was not ready within 60 s:\n${lines.join('\n')}`)
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	return { url, outputTail: () => lines.join('\n'), stop }
}

/** A port nothing listens on now, for the next server. */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer()
		probe.once('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address()
			probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
		})
	})
}

/** A new account's bearer token on the real server, checked once before the load starts. */
export async function signUp(baseUrl: string): Promise<string> {
	const response = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
		method: 'POST',
		// better-auth refuses a sign-up without an Origin outside tests, as a browser would send it.
		headers: { 'content-type': 'application/json', origin: baseUrl },
		body: JSON.stringify({
			email: `bench-${randomBytes(5).toString('hex')}@bench.test`,
			password: 'correct horse battery staple',
			name: 'Bench User',
		}),
	})
	const token = response.headers.get('set-auth-token')
	if (response.status !== 200 || !token) {
		throw new Error(`sign-up failed: ${response.status} ${await response.text()}`)
	}
	await response.body?.cancel()
	const check = await fetch(`${baseUrl}/auth/validate_token`, { headers: { authorization: `Bearer ${token}` } })
	if (check.status !== 200) {
		throw new Error(`/auth/validate_token refused the new token: ${check.status} ${await check.text()}`)
	}
	await check.body?.cancel()
	return token
}

/** How hard and how long each load run is; the warm-up's figures are discarded. */
export type LoadSettings = { connections: number; durationSeconds: number; warmupSeconds: number; pipelining: number }

/** One endpoint's figures under load, as every HTTP benchmark reports them. */
export type LoadMeasurement = {
	name: string
	requestsPerSecond: number
	latencyMs: { mean: number; p50: number; p99: number; max: number }
	requests: number
	errors: number
	timeouts: number
	non2xx: number
	/** The warm-up's figures are discarded, but a failure in it still fails the run. */
	warmup: { errors: number; non2xx: number }
}

/**
 * A warm-up, then the measured run, against `options` (url, method, headers, requests…).
 * `statusCounts` counts the answers of both by status code, for benchmarks that check what
 * the server stored against what it acknowledged.
 */
export async function measureLoad(
	name: string,
	settings: LoadSettings,
	options: autocannon.Options,
): Promise<{ measurement: LoadMeasurement; statusCounts: Record<string, number> }> {
	const load = { ...options, connections: settings.connections, pipelining: settings.pipelining }
	progress(`${name}: warming up`)
	const warmup = await runLoad({ ...load, duration: settings.warmupSeconds })
	progress(`${name}: measuring`)
	const { result, latency } = await runLoad({ ...load, duration: settings.durationSeconds })
	const statusCounts: Record<string, number> = {}
	for (const stats of [warmup.result.statusCodeStats, result.statusCodeStats]) {
		for (const [code, { count }] of Object.entries(stats ?? {})) {
			statusCounts[code] = (statusCounts[code] ?? 0) + (count ?? 0)
		}
	}
	const measurement = {
		name,
		requestsPerSecond: round(result.requests.mean, 1),
		latencyMs: {
			mean: round(latency.mean / 1000, 3),
			p50: round(latency.percentile(50) / 1000, 3),
			p99: round(latency.percentile(99) / 1000, 3),
			max: round(latency.max / 1000, 3),
		},
		requests: result.requests.total,
		errors: result.errors,
		timeouts: result.timeouts,
		non2xx: result.non2xx,
		warmup: { errors: warmup.result.errors, non2xx: warmup.result.non2xx },
	}
	return { measurement, statusCounts }
}

/** Whether a run (or its warm-up) saw a connection error or a non-2xx answer. */
export function hasFailures(run: LoadMeasurement): boolean {
	return run.errors + run.non2xx + run.warmup.errors + run.warmup.non2xx > 0
}

/**
 * One autocannon run. Latency is kept in our own histogram in microseconds: autocannon's
 * rounds to whole milliseconds, which reads as 0 ms for the bare handler.
 */
function runLoad(options: autocannon.Options): Promise<{ result: autocannon.Result; latency: RecordableHistogram }> {
	const latency = createHistogram()
	return new Promise((resolve, reject) => {
		const instance = autocannon(options, (error: unknown, result) =>
			error ? reject(error) : resolve({ result, latency }),
		)
		instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
			if (statusCode >= 200 && statusCode < 300) {
				latency.record(Math.max(1, Math.round(responseTimeMs * 1000)))
			}
		})
	})
}

/** The load runs as a table; `vsBare` is the run's requests/s over its baseline's (none for the baseline). */
export function printLoadTable(rows: Array<{ run: LoadMeasurement; vsBare?: number | undefined }>): void {
	const header = ['', 'req/s', 'mean ms', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'non-2xx', 'vs bare']
	const body = rows.map(({ run, vsBare }) => [
		run.name,
		Math.round(run.requestsPerSecond).toLocaleString('en-US'),
		run.latencyMs.mean.toFixed(2),
		run.latencyMs.p50.toFixed(2),
		run.latencyMs.p99.toFixed(2),
		run.latencyMs.max.toFixed(1),
		String(run.errors + run.warmup.errors),
		String(run.non2xx + run.warmup.non2xx),
		vsBare === undefined ? '—' : vsBare.toFixed(3),
	])
	printAligned(header, body)
}

/** A ceiling server of one benchmark (`ceiling-*.server.ts` here), on a port of its own. */
export async function startCeilingServer(
	name: string,
	script: string,
	env: Record<string, string>,
): Promise<RunningServer> {
	const port = await freePort()
	return startServer({
		name,
		script: path.join(import.meta.dirname, script),
		cwd: import.meta.dirname,
		env: { ...env, PORT: String(port) },
		readyUrl: `http://127.0.0.1:${port}/readyz`,
	})
}

/** `measure` on a fresh PGlite data folder, removed afterwards (also on Ctrl-C). */
export async function onScratchPglite<T>(measure: (database: Database) => Promise<T>): Promise<T> {
	const dataDir = scratchFolder()
	const database = await openDatabase({ dataDir: dataDir.dir })
	const close = onCleanup(() => database.close())
	try {
		return await measure(database)
	} finally {
		await close()
		await dataDir.remove()
	}
}

/** `measure` on a throw-away PostgreSQL database, dropped afterwards (also on Ctrl-C). */
export async function onScratchPostgres<T>(adminUrl: string, measure: (database: Database) => Promise<T>): Promise<T> {
	const scratch = await createThrowAwayDatabase(adminUrl)
	const database = await openDatabase({ dataDir: os.tmpdir(), databaseUrl: scratch.url })
	const close = onCleanup(() => database.close())
	try {
		return await measure(database)
	} finally {
		await close()
		await scratch.drop()
	}
}
