// Start-up time of `npm start`: from spawning it to the first 200 from /readyz, on a new data
// folder (fresh start) and again on the same folder (second start), on PGlite and on PostgreSQL,
// next to a bare Hono server's start measured in the same run. Figures go to stdout and to
// bench/results/startup.json.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
	aboutRun,
	createThrowAwayDatabase,
	findPostgres,
	freePort,
	onCleanup,
	positiveIntegerFromEnv,
	printAligned,
	progress,
	type RunStart,
	round,
	runBenchmark,
	scratchFolder,
	wasInterrupted,
	writeResults,
} from './bench-kit.ts'

const repoRoot = path.resolve(import.meta.dirname, '..')
const bareServer = path.join(import.meta.dirname, 'bare-hono.server.ts')
/** What `npm start` runs (package.json), with this Node and without npm. */
const stepsOfNpmStart = `"${process.execPath}" apps/server/src/start.js --build-web`

const settings = {
	/** New data folders per database: each gets one fresh start and `secondStarts` more. */
	rounds: positiveIntegerFromEnv('BENCH_ROUNDS', 3),
	secondStarts: positiveIntegerFromEnv('BENCH_SECOND_STARTS', 2),
	goalSeconds: 3,
}

/** One start: when each milestone came, in seconds after spawning. */
type Start = {
	/** `web app: reusing the build …`: npm, and the web build's check, are done. */
	webCheckedS: number | undefined
	/** Whether the check rebuilt the web app (sources edited meanwhile): such a start is not counted. */
	isWebRebuilt: boolean
	/** The server's `Blocksmith is listening` line. */
	listeningS: number | undefined
	/** The first 200 from /readyz: what a load balancer or a person waits for. */
	readyS: number
	/** CPU time of the whole process tree until then (Linux only), on a machine shared with others. */
	cpuS: number | undefined
}

type Series = { name: string; starts: Start[] }

async function main(start: RunStart): Promise<number> {
	const postgres = await findPostgres()
	progress(`${settings.rounds} rounds, each a fresh start and ${settings.secondStarts} second starts`)
	// The measured starts find the web build current, as every start but the first after a change does.
	execFileSync(process.execPath, [path.join(repoRoot, 'apps/web/scripts/build-if-stale.ts')], { stdio: 'inherit' })

	const bare: Series = { name: 'bare Hono (node + hono, no app)', starts: [] }
	const series = new Map<string, Series>()
	const add = (name: string, measured: Start) => {
		const entry = series.get(name) ?? { name, starts: [] }
		entry.starts.push(measured)
		series.set(name, entry)
	}
	for (let round = 1; round <= settings.rounds && !wasInterrupted(); round++) {
		// Interleaved, so that a busy spell on the machine falls on all of them alike.
		bare.starts.push(await measureStart('bare Hono', [process.execPath, bareServer], {}))
		for (const database of ['PGlite', ...(postgres.url ? ['PostgreSQL'] : [])]) {
			const dataDir = scratchFolder()
			// Node's compile cache lives in the temp folder: a folder of the round's own makes its
			// fresh start a first start in every way, and its second starts find what the first wrote.
			const temp = scratchFolder()
			const throwAway =
				database === 'PostgreSQL' && postgres.url ? await createThrowAwayDatabase(postgres.url) : undefined
			const env = {
				DATA_DIR: dataDir.dir,
				TMPDIR: temp.dir,
				AUTH_SECRET: randomBytes(32).toString('hex'),
				...(throwAway ? { DATABASE_URL: throwAway.url } : {}),
			}
			add(`fresh start · ${database}`, await measureStart(`fresh start · ${database}`, ['npm', 'start'], env))
			for (let again = 0; again < settings.secondStarts && !wasInterrupted(); again++) {
				add(`second start · ${database}`, await measureStart(`second start · ${database}`, ['npm', 'start'], env))
			}
			// The same two steps as the start script, without npm's own processes: what npm adds.
			const withoutNpm = `second start · ${database} · without npm`
			add(withoutNpm, await measureStart(withoutNpm, ['sh', '-c', stepsOfNpmStart], env))
			await throwAway?.drop()
			await temp.remove()
			await dataDir.remove()
		}
	}

	const baseline = median(bare.starts.map((run) => run.readyS))
	const rows = [bare, ...series.values()].map((entry) => summarize(entry, baseline))
	printAligned(
		['', 'runs', 'web check s', 'listening s', 'ready s', 'min s', 'max s', 'CPU s', 'vs bare'],
		rows.map((row) => [
			row.name,
			String(row.runs),
			formatSeconds(row.medianWebCheckedS),
			formatSeconds(row.medianListeningS),
			row.medianReadyS.toFixed(2),
			row.minReadyS.toFixed(2),
			row.maxReadyS.toFixed(2),
			formatSeconds(row.medianCpuS),
			row === rows[0] ? '—' : `${row.readyVsBare.toFixed(1)}×`,
		]),
	)
	const secondPglite = rows.find((row) => row.name === 'second start · PGlite')
	console.log(
		`medians; second start on PGlite ${secondPglite?.medianReadyS.toFixed(2) ?? '—'} s against a goal of ${settings.goalSeconds} s; ` +
			`load average at start ${start.loadAverageAtStart.toFixed(2)}`,
	)

	const report = {
		benchmark: 'startup',
		description:
			'npm start, from spawning it to the first 200 from /readyz: on a new data folder (fresh) and on the same folder again (second), against a bare Hono server started the same way',
		passed: secondPglite !== undefined && secondPglite.medianReadyS <= settings.goalSeconds,
		...aboutRun(start, ['apps/', 'packages/', 'package.json', 'package-lock.json']),
		settings: {
			rounds: settings.rounds,
			secondStartsPerRound: settings.secondStarts,
			goalSeconds: settings.goalSeconds,
			command:
				'npm start (web build current), LOG_LEVEL info, each round with its own data folder, temp folder (so Node’s compile cache) and database',
		},
		baseline: { medianReadyS: round(baseline, 3), starts: bare.starts },
		runs: rows.slice(1),
		...(postgres.url ? {} : { postgresSkipped: postgres.reason }),
	}
	writeResults(report)
	return 0
}

function summarize(entry: Series, baseline: number) {
	const counted = entry.starts.filter((run) => !run.isWebRebuilt)
	const ready = counted.map((run) => run.readyS)
	const optionalMedian = (values: Array<number | undefined>) => {
		const known = values.filter((value) => value !== undefined)
		return known.length > 0 ? round(median(known), 3) : undefined
	}
	const medianReadyS = round(median(ready), 3)
	return {
		name: entry.name,
		runs: counted.length,
		notCounted: entry.starts.length - counted.length,
		medianReadyS,
		minReadyS: round(Math.min(...ready), 3),
		maxReadyS: round(Math.max(...ready), 3),
		medianWebCheckedS: optionalMedian(counted.map((run) => run.webCheckedS)),
		medianListeningS: optionalMedian(counted.map((run) => run.listeningS)),
		medianCpuS: optionalMedian(counted.map((run) => run.cpuS)),
		readyVsBare: round(medianReadyS / baseline, 2),
		starts: entry.starts,
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b)
	const middle = Math.floor(sorted.length / 2)
	return sorted.length % 2 === 1
		? (sorted[middle] ?? Number.NaN)
		: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

function formatSeconds(value: number | undefined): string {
	return value === undefined ? '—' : value.toFixed(2)
}

/**
 * Spawns `command` in a process group of its own, polls /readyz every 20 ms until it answers 200,
 * then stops the whole group and waits until the server has let go of its data folder.
 */
async function measureStart(name: string, command: string[], env: Record<string, string>): Promise<Start> {
	if (wasInterrupted()) {
		throw new Error('interrupted')
	}
	const port = await freePort()
	const [file = '', ...args] = command
	const started = performance.now()
	const child = spawn(file, args, {
		cwd: repoRoot,
		// Only what a start needs: an inherited DATABASE_URL must not reach the PGlite runs.
		env: {
			PATH: process.env.PATH ?? '',
			HOME: process.env.HOME ?? '',
			PORT: String(port),
			HOST: '127.0.0.1',
			PUBLIC_URL: `http://127.0.0.1:${port}`,
			...env,
		},
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	})
	const stop = onCleanup(() => stopGroup(child, env.DATA_DIR))
	const seconds = () => round((performance.now() - started) / 1000, 3)
	const lines: string[] = []
	let webCheckedS: number | undefined
	let isWebRebuilt = false
	let listeningS: number | undefined
	const read = (chunk: Buffer) => {
		for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
			lines.push(line)
			if (webCheckedS === undefined && line.startsWith('web app:')) {
				webCheckedS = seconds()
				isWebRebuilt = !line.startsWith('web app: reusing')
			}
			if (listeningS === undefined && line.includes('Blocksmith is listening')) {
				listeningS = seconds()
			}
		}
	}
	child.stdout.on('data', read)
	child.stderr.on('data', read)
	try {
		for (;;) {
			if (child.exitCode !== null || child.signalCode !== null) {
				throw new Error(`${name} exited before it was ready:\n${lines.slice(-20).join('\n')}`)
			}
			if (performance.now() - started > 120_000) {
				throw new Error(`${name} was not ready within 120 s:\n${lines.slice(-20).join('\n')}`)
			}
			const isReady = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1000) })
				.then(async (response) => {
					await response.body?.cancel()
					return response.status === 200
				})
				.catch(() => false)
			if (isReady) {
				const readyS = seconds()
				const measured = { webCheckedS, isWebRebuilt, listeningS, readyS, cpuS: groupCpuSeconds(child.pid) }
				progress(`${name}: ready in ${readyS.toFixed(2)} s${isWebRebuilt ? ' (web app rebuilt: not counted)' : ''}`)
				return measured
			}
			await new Promise((resolve) => setTimeout(resolve, 20))
		}
	} finally {
		await stop()
	}
}

/** SIGTERM to the group, as Ctrl-C in a terminal; then waits for the group to exit and the data folder's lock to go. */
async function stopGroup(child: ChildProcess, dataDir: string | undefined): Promise<void> {
	const pid = child.pid
	if (pid === undefined) {
		return
	}
	const isGroupAlive = () => {
		try {
			process.kill(-pid, 0)
			return true
		} catch {
			return false
		}
	}
	if (isGroupAlive()) {
		process.kill(-pid, 'SIGTERM')
	}
	const deadline = Date.now() + 30_000
	const lock = dataDir ? path.join(dataDir, 'db.lock') : undefined
	while (isGroupAlive() || (lock && existsSync(lock))) {
		if (Date.now() > deadline) {
			if (isGroupAlive()) {
				process.kill(-pid, 'SIGKILL')
			}
			break
		}
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
}

/** User and system time of every process in the group, and of the children they have reaped; Linux only. */
function groupCpuSeconds(groupId: number | undefined): number | undefined {
	if (groupId === undefined || !existsSync('/proc/self/stat')) {
		return undefined
	}
	const ticksPerSecond = 100
	let ticks = 0
	for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
		try {
			const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
			// Fields after the command name: state ppid pgrp … utime(12) stime(13) cutime(14) cstime(15).
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
			if (Number(fields[2]) === groupId) {
				ticks += [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0)
			}
		} catch {
			// The process ended while the list was read.
		}
	}
	return round(ticks / ticksPerSecond, 2)
}

await runBenchmark('the server', main)
