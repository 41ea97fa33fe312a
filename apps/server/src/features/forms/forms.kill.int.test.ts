import type { ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { adminQuery, withDatabase } from '#src/test/global-setup.ts'
import { freePort, startServerProcess, waitUntilReady } from '#src/test/server-process.ts'

// The promise of a submission: once acknowledged, it is kept and delivered, even when the
// server is killed hard (SIGKILL, no shutdown) while answers are arriving. The real entry
// point as `npm start` runs it: on the embedded database, or on a database of its own on the
// PostgreSQL server of DATABASE_URL when that is set (CI's PostgreSQL pass).

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-kill-'))
const children: ChildProcess[] = []
// biome-ignore lint/style/noProcessEnv: the test harness chooses the database the same way the app does.
const postgresUrl = process.env.DATABASE_URL
const postgresDatabase = postgresUrl ? `bs_kill_${randomBytes(6).toString('hex')}` : undefined

beforeAll(async () => {
	if (postgresUrl && postgresDatabase) {
		await adminQuery(postgresUrl, `create database "${postgresDatabase}"`)
	}
})

afterAll(async () => {
	for (const child of children) {
		child.kill('SIGKILL')
	}
	rmSync(dataDir, { recursive: true, force: true })
	if (postgresUrl && postgresDatabase) {
		await adminQuery(postgresUrl, `drop database if exists "${postgresDatabase}" with (force)`)
	}
})

function start(port: number) {
	return startServerProcess(
		{
			PORT: String(port),
			DATA_DIR: dataDir,
			PUBLIC_URL: `http://localhost:${port}`,
			AUTH_SECRET: 'kill-test-secret-kill-test-secret-0123456789',
			LOG_LEVEL: 'warn',
			RATE_LIMITS: 'false',
			FORM_MIN_FILL_SECONDS: '0',
			WRITE_RETRY_DELAY_SECONDS: '1',
			// A delivery the kill interrupted holds its write this long before it is taken over
			// (a lease must outlast NOTION_TIMEOUT_MS by 5 s; the local database never waits that long).
			WRITE_LEASE_SECONDS: '15',
			NOTION_TIMEOUT_MS: '5000',
			...(postgresUrl && postgresDatabase ? { DATABASE_URL: withDatabase(postgresUrl, postgresDatabase) } : {}),
		},
		children,
	)
}

function api(port: number, token?: string) {
	return async (method: string, pathname: string, json?: unknown) => {
		const response = await fetch(`http://127.0.0.1:${port}${pathname}`, {
			method,
			headers: {
				origin: `http://localhost:${port}`,
				...(json === undefined ? {} : { 'content-type': 'application/json' }),
				...(token ? { authorization: `Bearer ${token}` } : {}),
			},
			...(json === undefined ? {} : { body: JSON.stringify(json) }),
		})
		const text = await response.text()
		return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
	}
}

describe('killing the server while answers arrive', () => {
	test('loses no acknowledged submission, and each is delivered after the restart', async () => {
		const port = await freePort()
		const first = start(port)
		await waitUntilReady(port, first.exited)
		const signUp = await api(port)('POST', '/api/auth/sign-up/email', {
			email: 'kill@example.com',
			password: 'kill test password',
			name: 'Kill',
		})
		expect(signUp.status).toBe(200)
		const call = api(port, signUp.headers.get('set-auth-token') ?? '')
		const sample = await call('POST', '/dashboard/workspaces/sample')
		const databases = await call('GET', `/dashboard/local/databases?workspaceId=${sample.body.workspace.id}`)
		const enquiries = databases.body.find((d: { name: string }) => d.name === 'Enquiries')
		const form = (await call('POST', '/dashboard/forms', { name: 'Kill', databaseId: enquiries.id })).body
		await call('PATCH', `/dashboard/forms/${form.id}`, { published: true })
		const renderToken = (await call('GET', `/api/forms/${form.id}`)).body.renderToken
		const titleField = form.fields[0].id as string

		// Eight clients submit as fast as they can; the server is killed while they do.
		const acknowledged = new Map<string, string>()
		let isKilled = false
		const client = async (n: number) => {
			for (let index = 0; !isKilled; index++) {
				const title = `Kill ${n}-${index}`
				try {
					const response = await api(port)('POST', '/api/submissions', {
						formId: form.id,
						answers: { [titleField]: title },
						idempotencyKey: randomUUID(),
						renderToken,
					})
					if (response.status === 201) {
						acknowledged.set(response.body.id, title)
					}
				} catch {
					// The connection died with the server: not acknowledged, so not promised.
				}
			}
		}
		const clients = Array.from({ length: 8 }, (_, n) => client(n))
		const deadline = Date.now() + 30_000
		while (acknowledged.size < 40 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 20))
		}
		first.child.kill('SIGKILL')
		isKilled = true
		await first.exited
		await Promise.all(clients)
		expect(acknowledged.size).toBeGreaterThanOrEqual(40)

		const second = start(port)
		await waitUntilReady(port, second.exited)
		const signIn = await api(port)('POST', '/api/auth/sign-in/email', {
			email: 'kill@example.com',
			password: 'kill test password',
		})
		const again = api(port, signIn.headers.get('set-auth-token') ?? '')
		const stored = await again('GET', `/dashboard/forms/${form.id}/submissions?limit=500`)
		const storedIds = new Set(stored.body.submissions.map((s: { id: string }) => s.id))
		for (const id of acknowledged.keys()) {
			expect(storedIds.has(id), `acknowledged submission ${id} kept`).toBe(true)
		}
		// Deliveries interrupted by the kill are picked up again (their jobs, or the sweeper).
		const until = Date.now() + 200_000
		let list = stored
		while (Date.now() < until) {
			list = await again('GET', `/dashboard/forms/${form.id}/submissions?limit=500`)
			if (list.body.counts.delivered === list.body.total) {
				break
			}
			await new Promise((resolve) => setTimeout(resolve, 1000))
		}
		expect(list.body.counts.delivered).toBe(list.body.total)
		const titles: string[] = []
		for (let offset = 0; ; offset += 200) {
			const page = await again(
				'GET',
				`/dashboard/local/databases/${enquiries.id}/rows?search=Kill&limit=200&offset=${offset}`,
			)
			titles.push(...page.body.rows.map((row: { title: string }) => row.title))
			if (page.body.rows.length < 200) {
				break
			}
		}
		for (const title of acknowledged.values()) {
			expect(
				titles.filter((t: string) => t === title),
				title,
			).toHaveLength(1)
		}
	}, 420_000)
})
