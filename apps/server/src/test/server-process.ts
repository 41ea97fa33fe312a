import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import path from 'node:path'

// The real entry point in a process of its own, as `npm start` runs it, for the tests that
// need a whole server: start-up and shutdown, a hard kill.

const mainFile = path.join(import.meta.dirname, '../main.ts')

export async function freePort(): Promise<number> {
	return new Promise((resolve) => {
		const server = createServer()
		server.listen(0, '127.0.0.1', () => {
			const address = server.address()
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
		})
	})
}

export type ServerProcess = { child: ChildProcess; exited: Promise<number | null>; output: () => string }

/** Starts the server with only `env` (and PATH): nothing of the test process's environment leaks in. */
export function startServerProcess(env: Record<string, string>, children: ChildProcess[]): ServerProcess {
	const child = spawn(process.execPath, [mainFile], {
		// biome-ignore lint/style/noProcessEnv: the child needs the PATH to find what it runs.
		env: { PATH: process.env.PATH ?? '', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	children.push(child)
	let output = ''
	child.stdout?.on('data', (chunk) => {
		output += chunk
	})
	child.stderr?.on('data', (chunk) => {
		output += chunk
	})
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
	return { child, exited, output: () => output }
}

/** Waits for /readyz to answer 200; fails at once if the process exits first. */
export async function waitUntilReady(port: number, exited: Promise<number | null>): Promise<void> {
	const deadline = Date.now() + 120_000
	let hasExited = false
	void exited.then(() => {
		hasExited = true
	})
	while (Date.now() < deadline && !hasExited) {
		try {
			if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) {
				return
			}
		} catch {
			// Not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
	throw new Error(hasExited ? 'the server exited before it was ready' : 'server did not become ready')
}
