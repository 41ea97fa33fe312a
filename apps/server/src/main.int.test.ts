import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { freePort, startServerProcess, waitUntilReady } from './test/server-process.ts'

// The real entry point, as `npm start` runs it: its own process, the embedded database,
// a data folder. Slow (PGlite starts in each process), so one file covers the lifecycle.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-main-'))
const children: ChildProcess[] = []

afterAll(() => {
	for (const child of children) {
		child.kill('SIGKILL')
	}
	rmSync(dataDir, { recursive: true, force: true })
})

function start(port: number, env: Record<string, string> = {}) {
	return startServerProcess(
		{ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '10000', ...env },
		children,
	)
}

describe('the server process', () => {
	test('starts on the embedded database, refuses a second process on the same folder, drains on SIGTERM, keeps data across restarts', async () => {
		const port = await freePort()
		const first = start(port)
		await waitUntilReady(port, first.exited)

		const signUp = await fetch(`http://127.0.0.1:${port}/api/auth/sign-up/email`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', origin: `http://localhost:${port}` },
			body: JSON.stringify({ email: 'keeper@example.com', password: 'kept across restarts', name: 'Keeper' }),
		})
		expect(signUp.status).toBe(200)

		const second = start(await freePort())
		expect(await second.exited).toBe(1)
		expect(second.output()).toMatch(/is in use by another process/)

		first.child.kill('SIGTERM')
		expect(await first.exited).toBe(0)
		expect(first.output()).toContain('stopped')

		const again = start(port)
		await waitUntilReady(port, again.exited)
		const signIn = await fetch(`http://127.0.0.1:${port}/api/auth/sign-in/email`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', origin: `http://localhost:${port}` },
			body: JSON.stringify({ email: 'keeper@example.com', password: 'kept across restarts' }),
		})
		expect(signIn.status).toBe(200)
		again.child.kill('SIGTERM')
		expect(await again.exited).toBe(0)
		// Three PGlite start-ups in a row: on a busy two-core machine each can take tens of seconds.
	}, 240_000)

	test('a wrong setting stops start-up with one clear line', async () => {
		const bad = start(await freePort(), { SMTP_URL: 'not-a-url' })
		expect(await bad.exited).toBe(1)
		expect(bad.output().trim()).toMatch(/^Invalid configuration: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/)
		expect(bad.output().trim().split('\n')).toHaveLength(1)
	})

	test('a web or worker process alone is refused on the embedded database, in one line', async () => {
		const worker = start(await freePort(), { ROLE: 'worker' })
		expect(await worker.exited).toBe(1)
		expect(worker.output().trim()).toMatch(/^Invalid configuration: ROLE=worker needs DATABASE_URL \(PostgreSQL\)/)
		expect(worker.output().trim().split('\n')).toHaveLength(1)
	})
})
