// GET /auth/validate_token under load, on PGlite and on PostgreSQL, each next to its ceiling
// (Hono doing only the endpoint's one indexed SELECT on the same kind of database) and a bare
// Hono handler, all measured in the same run. Each server runs in its own process, as in
// production; only the load generator runs here. Figures go to stdout and to bench/results/.
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import {
	aboutRun,
	createThrowAwayDatabase,
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
	startCeilingServer,
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
	const pairs = [await measurePair('PGlite', undefined)]
	if (postgres.url) {
		pairs.push(await measurePair('PostgreSQL', postgres.url))
	}
	const bareAfter = await measureBare('bare Hono (after)')

	const baselineRequestsPerSecond = (bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2
	const runs = pairs.map((pair) => ({
		...pair.real,
		ratioToBare: round(pair.real.requestsPerSecond / baselineRequestsPerSecond, 3),
		ratioToCeiling: round(pair.real.requestsPerSecond / ceilingMean(pair), 3),
		ceiling: { before: pair.ceilingBefore, after: pair.ceilingAfter },
	}))
	const failed = [
		bareBefore,
		...pairs.flatMap((pair) => [pair.ceilingBefore, pair.real, pair.ceilingAfter]),
		bareAfter,
	].filter(hasFailures)

	printLoadTable([
		{ run: bareBefore },
		...pairs.flatMap((pair) => [
			{ run: pair.ceilingBefore },
			{ run: pair.real, vsBare: pair.real.requestsPerSecond / baselineRequestsPerSecond },
			{ run: pair.ceilingAfter },
		]),
		{ run: bareAfter },
	])
	for (const pair of pairs) {
		console.log(
			`${pair.real.name}: ${(pair.real.requestsPerSecond / ceilingMean(pair)).toFixed(2)} of its ceiling ` +
				`(ceiling drift after/before ${(pair.ceilingAfter.requestsPerSecond / pair.ceilingBefore.requestsPerSecond).toFixed(2)})`,
		)
	}
	console.log(
		`baseline drift: after/before = ${(bareAfter.requestsPerSecond / bareBefore.requestsPerSecond).toFixed(2)}; ` +
			`load average at start ${start.loadAverageAtStart.toFixed(2)}`,
	)

	const report = {
		benchmark: 'validate-token',
		description: `GET ${targetPath} with a bearer token, against its ceiling (one indexed SELECT behind Hono, same database kind) and a bare Hono handler at the same path`,
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
		runs,
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

type Pair = { real: LoadMeasurement; ceilingBefore: LoadMeasurement; ceilingAfter: LoadMeasurement }

function ceilingMean(pair: Pair): number {
	return (pair.ceilingBefore.requestsPerSecond + pair.ceilingAfter.requestsPerSecond) / 2
}

/**
 * The real server on one kind of database between two runs of its ceiling on the same kind,
 * so the ratio is taken from runs minutes apart at most, with the drift shown.
 */
async function measurePair(kind: string, postgresUrl: string | undefined): Promise<Pair> {
	// The ceiling stores this token for one of its sessions; same size as a real one.
	const token = `${randomBytes(24).toString('base64url')}.${randomBytes(33).toString('base64')}`
	const ceilingBefore = await measureCeiling(`ceiling · ${kind} (before)`, postgresUrl, token)
	const real = await measureBlocksmith(`validate_token · ${kind}`, postgresUrl)
	const ceilingAfter = await measureCeiling(`ceiling · ${kind} (after)`, postgresUrl, token)
	return { real, ceilingBefore, ceilingAfter }
}

async function measureCeiling(name: string, postgresUrl: string | undefined, token: string): Promise<LoadMeasurement> {
	const database = postgresUrl ? await createThrowAwayDatabase(postgresUrl) : undefined
	const server = await startCeilingServer(name, 'ceiling-validate-token.server.ts', {
		BENCH_TOKEN: token,
		...(database ? { DATABASE_URL: database.url } : {}),
	})
	try {
		return await measure(name, server, token)
	} finally {
		await server.stop()
		await database?.drop()
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
