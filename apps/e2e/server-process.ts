import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { createServer } from 'node:net'
import path from 'node:path'

// The real server as a child process, the way it runs in production: used by the journey
// runner and by the screenshot script.

export const repoDir = path.resolve(import.meta.dirname, '../..')
const readyTimeoutMs = 60_000
// Longer than the server's own shutdown deadline (SHUTDOWN_TIMEOUT_MS below), so a server
// that hangs is reported as such rather than cut off by us.
const stopTimeoutMs = 15_000

/** Runs a Node script to completion with inherited output; resolves to its exit code. */
export async function runNode(
	args: string[],
	cwd: string,
	env: NodeJS.ProcessEnv = process.env,
	children?: Set<ChildProcess>,
): Promise<number> {
	const child = spawn(process.execPath, args, { cwd, env, stdio: 'inherit' })
	children?.add(child)
	const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
	children?.delete(child)
	return code ?? (signal ? 128 : 1)
}

/** Builds the web app unless its build is current; false when the build failed. */
export async function buildWebIfStale(children?: Set<ChildProcess>): Promise<boolean> {
	const webDir = path.join(repoDir, 'apps/web')
	return (await runNode([path.join(webDir, 'scripts/build-if-stale.ts')], webDir, process.env, children)) === 0
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

export type ServerUnderTest = {
	/** e.g. http://localhost:41234 (no trailing slash) */
	baseUrl: string
	process: ChildProcess
	/** SIGTERM, as an orchestrator does; resolves to a problem, or undefined for a clean exit 0. */
	stop: () => Promise<string | undefined>
}

/**
 * Starts `node apps/server/src/main.ts` on a free port with the given data folder, and waits
 * until /readyz says it is ready.
 */
export async function startServer(options: {
	dataDir: string
	analyticsScriptUrl?: string
	/** A Notion-compatible API (the fake server) and the OAuth client the server should use there. */
	notion?: { apiBaseUrl: string; clientId: string; clientSecret: string }
	/** The caller's running children, so a Ctrl-C can stop the server while it starts. */
	children?: Set<ChildProcess>
	/** More settings, over the ones above (e.g. a short TRIAL_DAYS, or Stripe's), for a journey's own server. */
	env?: Record<string, string>
}): Promise<ServerUnderTest> {
	const port = await freePort()
	const baseUrl = `http://localhost:${port}`
	const env: NodeJS.ProcessEnv = {
		...process.env,
		NODE_ENV: 'production',
		HOST: '127.0.0.1',
		PORT: String(port),
		PUBLIC_URL: baseUrl,
		DATA_DIR: options.dataDir,
		LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
		AUTH_SECRET: randomBytes(32).toString('base64url'),
		SHUTDOWN_TIMEOUT_MS: '10000',
		// E2E_WEB_DIST_DIR: a copy of the build, for a run that must not see the shared one rebuilt under it.
		WEB_DIST_DIR: process.env.E2E_WEB_DIST_DIR ?? path.join(repoDir, 'apps/web/dist'),
		// Every browser context (and every direct API call) of the journeys sends its own
		// X-Forwarded-For, so each looks like a visitor of its own: the sign-in and sign-up rate
		// limits stay on, as in production, without dozens of journeys sharing one address's budget.
		TRUST_PROXY: 'true',
		RATE_LIMITS: 'true',
	}
	if (options.analyticsScriptUrl) {
		env.ANALYTICS_SCRIPT_URL = options.analyticsScriptUrl
	} else {
		delete env.ANALYTICS_SCRIPT_URL
	}
	if (options.notion) {
		env.NOTION_API_BASE_URL = options.notion.apiBaseUrl
		env.NOTION_CLIENT_ID = options.notion.clientId
		env.NOTION_CLIENT_SECRET = options.notion.clientSecret
	}
	Object.assign(env, options.env)
	// Always a fresh embedded database, and mail written to DATA_DIR/mail where journeys read it.
	delete env.DATABASE_URL
	delete env.SMTP_URL

	const child = spawn(process.execPath, ['apps/server/src/main.ts'], {
		cwd: repoDir,
		env,
		stdio: ['ignore', 'inherit', 'inherit'],
	})
	options.children?.add(child)
	const stop = async (): Promise<string | undefined> => {
		if (!hasExited(child)) {
			const exited = once(child, 'exit')
			child.kill('SIGTERM')
			const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs)
			await exited
			clearTimeout(timer)
		}
		options.children?.delete(child)
		if (child.exitCode === 0) {
			return undefined
		}
		return child.signalCode === 'SIGKILL'
			? `the server did not stop within ${stopTimeoutMs / 1000} s of SIGTERM`
			: `the server exited with code ${child.exitCode} (signal ${child.signalCode}) instead of 0`
	}
	try {
		await waitUntilReady(child, baseUrl)
	} catch (error) {
		await stop()
		throw error
	}
	return { baseUrl, process: child, stop }
}
