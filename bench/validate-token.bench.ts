// GET /auth/validate_token under load, on PGlite and on PostgreSQL, next to a bare Hono
// handler measured in the same run. Each server runs in its own process, as in production;
// only the load generator runs here. Figures go to stdout and to bench/results/.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks'
import autocannon from 'autocannon'
import {
	aboutRun,
	createThrowAwayDatabase,
	findPostgres,
	onCleanup,
	positiveIntegerFromEnv,
	printAligned,
	progress,
	type RunStart,
	repoRoot,
	round,
	runBenchmark,
	scratchFolder,
	wasInterrupted,
	writeResults,
} from './bench-kit.ts'

const serverMain = path.join(repoRoot, 'apps/server/src/main.ts')
const bareServer = path.join(import.meta.dirname, 'bare-hono.server.ts')
const targetPath = '/auth/validate_token'

const settings = {
	connections: positiveIntegerFromEnv('BENCH_CONNECTIONS', 10),
	durationSeconds: positiveIntegerFromEnv('BENCH_SECONDS', 10),
	warmupSeconds: 2,
	pipelining: 1,
	// Request logging is at info; at warn the figures show the request path, not pino's I/O.
	// Rate limits off because one client hammering one endpoint is exactly what they stop.
	serverEnv: { NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMITS: 'false' },
}

type Measurement = {
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

type RunningServer = { url: string; outputTail: () => string; stop: () => Promise<void> }

const liveChildren = new Set<ChildProcess>()
// Last resort if the process dies some other way: a server left behind would hold its port.
process.on('exit', () => {
	for (const child of liveChildren) {
		child.kill('SIGKILL')
	}
})

async function main(start: RunStart): Promise<number> {
	const postgres = await findPostgres()
	progress(
		`${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s per run, ${os.cpus().length} CPUs`,
	)

	// The baseline is measured before and after the real server, so drift on a busy machine
	// shows up instead of silently skewing the ratio.
	const bareBefore = await measureBare('bare Hono (before)')
	const pglite = await measureBlocksmith('validate_token · PGlite', undefined)
	const postgresRun = postgres.url ? await measureBlocksmith('validate_token · PostgreSQL', postgres.url) : undefined
	const bareAfter = await measureBare('bare Hono (after)')

	const baselineRequestsPerSecond = (bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2
	const runs = [pglite, postgresRun].filter((run) => run !== undefined)
	const failed = [bareBefore, ...runs, bareAfter].filter(hasFailures)

	printTable([bareBefore, ...runs, bareAfter], baselineRequestsPerSecond)
	console.log(
		`baseline drift: after/before = ${(bareAfter.requestsPerSecond / bareBefore.requestsPerSecond).toFixed(2)}; ` +
			`load average at start ${start.loadAverageAtStart.toFixed(2)}`,
	)

	const report = {
		benchmark: 'validate-token',
		description: `GET ${targetPath} with a bearer token, against a bare Hono handler at the same path`,
		passed: failed.length === 0,
		...aboutRun(start, ['apps/', 'packages/']),
		settings: {
			connections: settings.connections,
			durationSeconds: settings.durationSeconds,
			warmupSeconds: settings.warmupSeconds,
			pipelining: settings.pipelining,
			server: { LOG_LEVEL: settings.serverEnv.LOG_LEVEL, RATE_LIMITS: settings.serverEnv.RATE_LIMITS },
			loadGenerator: `autocannon in the benchmark process; each server in its own process on 127.0.0.1`,
		},
		baseline: {
			requestsPerSecond: round(baselineRequestsPerSecond, 1),
			before: bareBefore,
			after: bareAfter,
		},
		runs: runs.map((run) => ({ ...run, ratioToBare: round(run.requestsPerSecond / baselineRequestsPerSecond, 3) })),
		...(postgres.url ? {} : { postgresSkipped: postgres.reason }),
	}
	writeResults(report)

	if (failed.length > 0) {
		console.error(`FAILED: errors or non-2xx answers in ${failed.map((run) => run.name).join(', ')}`)
		return 1
	}
	return 0
}

async function measureBare(name: string): Promise<Measurement> {
	const port = await freePort()
	const server = await startServer({
		name: 'bare Hono',
		script: bareServer,
		cwd: import.meta.dirname,
		env: { PORT: String(port) },
		readyUrl: `http://127.0.0.1:${port}${targetPath}`,
	})
	try {
		// A made-up token of a real one's size, so both runs send requests of the same size.
		const token = `${randomBytes(24).toString('base64url')}.${randomBytes(33).toString('base64')}`
		return await measure(name, server, token)
	} finally {
		await server.stop()
	}
}

/** The real server on a fresh data folder, and on a throw-away PostgreSQL database when given one. */
async function measureBlocksmith(name: string, postgresUrl: string | undefined): Promise<Measurement> {
	const dataDir = scratchFolder()
	const database = postgresUrl ? await createThrowAwayDatabase(postgresUrl) : undefined
	const databaseUrl = database?.url
	const port = await freePort()
	const server = await startServer({
		name: 'Blocksmith server',
		script: serverMain,
		cwd: path.dirname(path.dirname(serverMain)),
		env: {
			...settings.serverEnv,
			PORT: String(port),
			HOST: '127.0.0.1',
			PUBLIC_URL: `http://127.0.0.1:${port}`,
			DATA_DIR: dataDir.dir,
			AUTH_SECRET: randomBytes(32).toString('hex'),
			SHUTDOWN_TIMEOUT_MS: '10000',
			...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
		},
		readyUrl: `http://127.0.0.1:${port}/readyz`,
	})
	try {
		const token = await signUp(server.url)
		const measurement = await measure(name, server, token)
		if (hasFailures(measurement) && !wasInterrupted()) {
			console.error(`${name}: the server's last output:\n${server.outputTail()}`)
		}
		return measurement
	} finally {
		await server.stop()
		// The server is gone: its folder and database can go now rather than at exit.
		await database?.drop()
		await dataDir.remove()
	}
}

async function measure(name: string, server: RunningServer, token: string): Promise<Measurement> {
	const options = {
		url: `${server.url}${targetPath}`,
		connections: settings.connections,
		pipelining: settings.pipelining,
		headers: { authorization: `Bearer ${token}` },
	}
	progress(`${name}: warming up`)
	const warmup = await runLoad({ ...options, duration: settings.warmupSeconds })
	progress(`${name}: measuring`)
	const { result, latency } = await runLoad({ ...options, duration: settings.durationSeconds })
	return {
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
}

function hasFailures(run: Measurement): boolean {
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

/** A new account's bearer token, checked once before the load starts. */
async function signUp(baseUrl: string): Promise<string> {
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
	const check = await fetch(`${baseUrl}${targetPath}`, { headers: { authorization: `Bearer ${token}` } })
	if (check.status !== 200) {
		throw new Error(`${targetPath} refused the new token: ${check.status} ${await check.text()}`)
	}
	await check.body?.cancel()
	return token
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
		env: { PATH: process.env.PATH ?? '', ...options.env },
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

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer()
		probe.once('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address()
			probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
		})
	})
}

function printTable(rows: Measurement[], baselineRequestsPerSecond: number): void {
	const header = ['', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'vs bare']
	const body = rows.map((row) => [
		row.name,
		Math.round(row.requestsPerSecond).toLocaleString('en-US'),
		row.latencyMs.p50.toFixed(2),
		row.latencyMs.p99.toFixed(2),
		String(row.errors + row.warmup.errors),
		String(row.non2xx + row.warmup.non2xx),
		row.name.startsWith('bare') ? '—' : (row.requestsPerSecond / baselineRequestsPerSecond).toFixed(3),
	])
	printAligned(header, body)
}

await runBenchmark('the server', main)
