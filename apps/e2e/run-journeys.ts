import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { globSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { findChromium } from './chromium.ts'

// Runs the browser journeys against the real thing: the built web app served by the real
// server on a fresh embedded database, driven by headless Chromium. Usage:
//   npm run -w @blocksmith/e2e test [-- <journey files or globs, relative to apps/e2e>]

const e2eDir = import.meta.dirname
const repoDir = path.resolve(e2eDir, '../..')
const isRequired = process.env.E2E_REQUIRED === '1' || process.env.E2E_REQUIRED === 'true'
const readyTimeoutMs = 60_000
// Longer than the server's own shutdown deadline (SHUTDOWN_TIMEOUT_MS below), so a server
// that hangs is reported as such rather than cut off by us.
const stopTimeoutMs = 15_000

const chromium = findChromium()
if (chromium.problem) {
	if (isRequired) {
		console.error(`Browser journeys are required (E2E_REQUIRED=1) but there is ${chromium.problem}.`)
		process.exit(1)
	}
	console.log(`Browser journeys skipped: ${chromium.problem}.`)
	process.exit(0)
}

const patterns = process.argv.length > 2 ? process.argv.slice(2) : ['tests/**/*.journey.ts']
const journeys = [...new Set(patterns.flatMap((pattern) => globSync(pattern, { cwd: e2eDir })))].sort()
if (journeys.length === 0) {
	console.error(`No journeys match ${patterns.join(' ')} in ${e2eDir}.`)
	process.exit(1)
}

const children = new Set<ChildProcess>()
// Ctrl-C or a CI cancel: let the children wind down and fall through to the clean-up below.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		for (const child of children) {
			child.kill('SIGTERM')
		}
	})
}

/** Runs a Node script to completion with inherited output; resolves to its exit code. */
async function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
	const child = spawn(process.execPath, args, { cwd, env, stdio: 'inherit' })
	children.add(child)
	const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
	children.delete(child)
	return code ?? (signal ? 128 : 1)
}

/** A port nothing listens on right now; the server binds it a moment later. */
async function freePort(): Promise<number> {
	const probe = createServer()
	probe.listen(0, '127.0.0.1')
	await once(probe, 'listening')
	const address = probe.address()
	probe.close()
	if (address === null || typeof address === 'string') {
		throw new Error('could not find a free port')
	}
	return address.port
}

function hasExited(child: ChildProcess): boolean {
	return child.exitCode !== null || child.signalCode !== null
}

async function waitUntilReady(server: ChildProcess, baseUrl: string): Promise<void> {
	const deadline = Date.now() + readyTimeoutMs
	while (Date.now() < deadline) {
		if (hasExited(server)) {
			throw new Error(`the server exited (code ${server.exitCode}, signal ${server.signalCode}) before it was ready`)
		}
		try {
			const response = await fetch(`${baseUrl}/readyz`)
			if (response.status === 200) {
				return
			}
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	throw new Error(`the server was not ready within ${readyTimeoutMs / 1000} s`)
}

/** Stops the server the way an orchestrator does and checks that it shut down cleanly. */
async function stopServer(server: ChildProcess): Promise<string | undefined> {
	if (!hasExited(server)) {
		const exited = once(server, 'exit')
		server.kill('SIGTERM')
		const timer = setTimeout(() => server.kill('SIGKILL'), stopTimeoutMs)
		await exited
		clearTimeout(timer)
	}
	if (server.exitCode === 0) {
		return undefined
	}
	return server.signalCode === 'SIGKILL'
		? `the server did not stop within ${stopTimeoutMs / 1000} s of SIGTERM`
		: `the server exited with code ${server.exitCode} (signal ${server.signalCode}) instead of 0`
}

const failures: string[] = []
if ((await run([path.join(repoDir, 'apps/web/scripts/build-if-stale.ts')], path.join(repoDir, 'apps/web'))) !== 0) {
	console.error('Browser journeys not run: the web app did not build.')
	process.exit(1)
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'blocksmith-e2e-'))
const port = await freePort()
const baseUrl = `http://localhost:${port}`
const serverEnv: NodeJS.ProcessEnv = {
	...process.env,
	NODE_ENV: 'production',
	HOST: '127.0.0.1',
	PORT: String(port),
	PUBLIC_URL: baseUrl,
	DATA_DIR: dataDir,
	LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
	AUTH_SECRET: randomBytes(32).toString('base64url'),
	SHUTDOWN_TIMEOUT_MS: '10000',
	WEB_DIST_DIR: path.join(repoDir, 'apps/web/dist'),
}
// Journeys always run on their own fresh embedded database and write mail to DATA_DIR/mail.
delete serverEnv.DATABASE_URL
delete serverEnv.SMTP_URL

const server = spawn(process.execPath, ['apps/server/src/main.ts'], {
	cwd: repoDir,
	env: serverEnv,
	stdio: ['ignore', 'inherit', 'inherit'],
})
children.add(server)
try {
	await waitUntilReady(server, baseUrl)
	const code = await run(['--test', '--test-reporter=spec', '--test-timeout=120000', ...journeys], e2eDir, {
		...process.env,
		BASE_URL: baseUrl,
		DATA_DIR: dataDir,
		CHROMIUM_PATH: chromium.path,
	})
	if (code !== 0) {
		failures.push('some journeys failed')
	}
} catch (error) {
	failures.push(error instanceof Error ? error.message : String(error))
} finally {
	const problem = await stopServer(server)
	children.delete(server)
	if (problem) {
		failures.push(problem)
	}
	rmSync(dataDir, { recursive: true, force: true })
}

if (failures.length > 0) {
	console.error(`Browser journeys failed: ${failures.join('; ')}.`)
	process.exit(1)
}
