import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import PostalMime from 'postal-mime'
import { inject } from 'vitest'
import { createApp, createServices } from '#src/app.ts'
import { loadConfig } from '#src/config.ts'
import { type Database, openPostgres, wrapPglite } from '#src/db/client.ts'
import { createLogger } from '#src/lib/logger.ts'
import { adminQuery, withDatabase } from './global-setup.ts'

export type TestApp = Awaited<ReturnType<typeof createTestApp>>

/** A database of this test file's own, copied from the migrated snapshot. */
async function openTestDatabase(): Promise<Database> {
	const snapshot = inject('dbSnapshot')
	if (snapshot.kind === 'pglite') {
		const pglite = await PGlite.create({ loadDataDir: new Blob([readFileSync(snapshot.file)]) })
		return wrapPglite(pglite)
	}
	const name = `bs_test_${randomBytes(6).toString('hex')}`
	// Copies from one template can collide while another copy is being made; try again.
	for (let attempt = 0; ; attempt++) {
		try {
			await adminQuery(snapshot.url, `create database "${name}" template "${snapshot.template}"`)
			break
		} catch (error) {
			if (attempt >= 20 || !/being accessed by other users/.test(String(error))) {
				throw error
			}
			await new Promise((resolve) => setTimeout(resolve, 100 + attempt * 50))
		}
	}
	const database = openPostgres(withDatabase(snapshot.url, name))
	return {
		...database,
		close: async () => {
			await database.close()
			await adminQuery(snapshot.url, `drop database if exists "${name}" with (force)`)
		},
	}
}

/**
 * The whole app on a fresh database and data folder, with jobs running, as `npm start` builds
 * it. Requests go through `app.request()`, in process.
 */
export async function createTestApp(env: Record<string, string> = {}) {
	const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-test-'))
	const config = loadConfig({
		NODE_ENV: 'test',
		DATA_DIR: dataDir,
		AUTH_SECRET: randomBytes(32).toString('hex'),
		PUBLIC_URL: 'http://localhost:3000',
		TRUST_PROXY: 'true',
		LOG_LEVEL: 'silent',
		...env,
	})
	const database = await openTestDatabase()
	const services = createServices({
		config,
		database,
		log: createLogger(config.logLevel),
		pollingIntervalSeconds: 0.5,
		mailRetryDelaySeconds: 1,
	})
	const app = createApp(services)
	await services.jobs.start()

	async function request(
		method: string,
		pathname: string,
		options: {
			token?: string
			json?: unknown
			body?: string | Uint8Array
			headers?: Record<string, string>
			ip?: string
		} = {},
	) {
		const headers = new Headers(options.headers)
		headers.set('x-forwarded-for', options.ip ?? '203.0.113.1')
		if (options.token) {
			headers.set('authorization', `Bearer ${options.token}`)
		}
		let body = options.body
		if (options.json !== undefined) {
			headers.set('content-type', 'application/json')
			body = JSON.stringify(options.json)
		}
		const response = await app.request(pathname, { method, headers, ...(body === undefined ? {} : { body }) })
		const text = await response.text()
		let parsed: unknown = text
		try {
			parsed = text ? JSON.parse(text) : null
		} catch {
			// Not JSON: keep the text.
		}
		// biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape the route answers with.
		return { status: response.status, headers: response.headers, body: parsed as any }
	}

	/** Signs up a new account from its own address (so rate limits of other tests don't apply). */
	async function signUp(options: { email?: string; name?: string; password?: string } = {}) {
		const email = options.email ?? `user-${randomBytes(5).toString('hex')}@example.com`
		const password = options.password ?? 'correct horse battery'
		const response = await request('POST', '/api/auth/sign-up/email', {
			json: { email, password, name: options.name ?? 'Test User' },
			ip: randomIp(),
		})
		if (response.status !== 200) {
			throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`)
		}
		const token = response.headers.get('set-auth-token')
		if (!token) {
			throw new Error('sign-up returned no token')
		}
		return { token, email, password, userId: response.body.user.id as string }
	}

	async function signIn(email: string, password: string, ip = randomIp()) {
		return request('POST', '/api/auth/sign-in/email', { json: { email, password }, ip })
	}

	/** Waits for the mail sent to `to` whose subject matches, as the job wrote it to DATA_DIR/mail. */
	async function waitForMail(to: string, subject: RegExp, timeoutMs = 15_000) {
		const mailDir = path.join(dataDir, 'mail')
		const deadline = Date.now() + timeoutMs
		while (Date.now() < deadline) {
			const files = safeReaddir(mailDir)
			for (const file of files.sort().reverse()) {
				const email = await PostalMime.parse(readFileSync(path.join(mailDir, file)))
				const isForRecipient = email.to?.some((address) => address.address === to)
				if (isForRecipient && subject.test(email.subject ?? '')) {
					const text = email.text ?? ''
					return { subject: email.subject ?? '', text, links: text.match(/https?:\/\/\S+/g) ?? [] }
				}
			}
			await new Promise((resolve) => setTimeout(resolve, 100))
		}
		throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`)
	}

	async function close() {
		await services.jobs.stop(2000)
		await database.close()
		rmSync(dataDir, { recursive: true, force: true })
	}

	return { app, services, config, db: database.db, dataDir, request, signUp, signIn, waitForMail, close }
}

function safeReaddir(dir: string): string[] {
	try {
		return readdirSync(dir).filter((file) => file.endsWith('.eml'))
	} catch {
		return []
	}
}

export function randomIp(): string {
	const bytes = randomBytes(3)
	return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`
}
