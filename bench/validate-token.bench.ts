// GET /auth/validate_token under load, on PGlite and on PostgreSQL, next to a bare Hono
// handler measured in the same run. Each server runs in its own process, as in production;
// only the load generator runs here. Figures go to stdout and to bench/results/.
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import {
	aboutRun,
	findPostgres,
	hasFailures,
	type LoadMeasurement,
	measureLoad,
	positiveIntegerFromEnv,
	printLoadTable,
	progress,
	type RunningServer,
	type RunStart,
	round,
	runBenchmark,
	signUp,
	startBareHono,
	startBlocksmithServer,
	wasInterrupted,
	writeResults,
} from './bench-kit.ts'

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

	printLoadTable([
		{ run: bareBefore },
		...runs.map((run) => ({ run, vsBare: run.requestsPerSecond / baselineRequestsPerSecond })),
		{ run: bareAfter },
	])
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

async function measureBare(name: string): Promise<LoadMeasurement> {
	const server = await startBareHono()
	try {
		// A made-up token of a real one's size, so both runs send requests of the same size.
		const token = `${randomBytes(24).toString('base64url')}.${randomBytes(33).toString('base64')}`
		return await measure(name, server, token)
	} finally {
		await server.stop()
	}
}

/** The real server on a fresh data folder, and on a throw-away PostgreSQL database when given one. */
async function measureBlocksmith(name: string, postgresUrl: string | undefined): Promise<LoadMeasurement> {
	const server = await startBlocksmithServer({ postgresUrl, env: settings.serverEnv })
	try {
		const token = await signUp(server.url)
		const measurement = await measure(name, server, token)
		if (hasFailures(measurement) && !wasInterrupted()) {
			console.error(`${name}: the server's last output:\n${server.outputTail()}`)
		}
		return measurement
	} finally {
		await server.stop()
	}
}

async function measure(name: string, server: RunningServer, token: string): Promise<LoadMeasurement> {
	const options = { url: `${server.url}${targetPath}`, headers: { authorization: `Bearer ${token}` } }
	return (await measureLoad(name, settings, options)).measurement
}

await runBenchmark('the server', main)
