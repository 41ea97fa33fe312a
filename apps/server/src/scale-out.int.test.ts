import type { ChildProcess } from 'node:child_process'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { authRateLimitRules } from '#src/core/auth/auth.ts'
import { createFakeNotion, type FakeNotion, type RequestLogEntry } from '#src/test/fake-notion/fake-notion.ts'
import { adminQuery, withDatabase } from '#src/test/global-setup.ts'
import { startS3Server, type TestS3Server } from '#src/test/s3-server.ts'
import { freePort, type ServerProcess, startServerProcess, waitUntilReady } from '#src/test/server-process.ts'
import { until } from '#src/test/until.ts'

// The multi-instance layout of the README (decision 027): two web processes (ROLE=web) and one
// worker (ROLE=worker), real processes started as `npm start` starts them, on one PostgreSQL
// database, one S3-compatible bucket and one (fake) Notion. Each process has its own PORT and its
// own DATA_DIR, so nothing can pass through a local disk. Nothing but PostgreSQL can hold the
// three together, so on the embedded database the file is skipped, saying why.

// biome-ignore lint/style/noProcessEnv: the test harness chooses the database the same way the app does.
const postgresUrl = process.env.DATABASE_URL
if (!postgresUrl) {
	console.info(
		'scale-out.int.test.ts skipped: web and worker processes apart need PostgreSQL (set DATABASE_URL); the embedded database is one process',
	)
}

/** The per-workspace Notion rate the three processes share (the product's default). */
const notionRate = 3
/** The shared limiter's burst (decision 025: one less than the rate). */
const notionBurst = notionRate - 1
/** What a proxy in front of the web instances would send: one public address for both. */
const publicUrl = 'http://blocksmith.test'

type Role = 'web' | 'worker'
type Instance = { name: string; role: Role; port: number; process: ServerProcess }
type TapEntry = { via: string; method: string; path: string }

const children: ChildProcess[] = []
const dataDirs: string[] = []
const taps: Server[] = []
/** Every Notion request of each process, by the process that made it (each has its own NOTION_API_BASE_URL). */
const tapLog: TapEntry[] = []
let database: string | undefined
let s3: TestS3Server
let fake: FakeNotion
let demo: ReturnType<FakeNotion['seed']>
let webA: Instance
let webB: Instance
let worker: Instance

/**
 * A pass-through in front of the fake Notion that notes which process sent each request: the
 * proof that page creates and syncs come from the worker only, and what the web instances call.
 */
async function startNotionTap(via: string): Promise<string> {
	const server = createServer(async (request, response) => {
		const chunks: Buffer[] = []
		for await (const chunk of request) {
			chunks.push(chunk as Buffer)
		}
		tapLog.push({ via, method: request.method ?? 'GET', path: new URL(request.url ?? '/', 'http://x').pathname })
		const headers = new Headers()
		for (const [name, value] of Object.entries(request.headers)) {
			if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
				headers.set(name, value)
			}
		}
		try {
			const answer = await fetch(`${fake.url}${request.url}`, {
				method: request.method ?? 'GET',
				headers,
				...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
				redirect: 'manual',
			})
			const body = Buffer.from(await answer.arrayBuffer())
			const answerHeaders = Object.fromEntries(
				[...answer.headers].filter(
					([name]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(name),
				),
			)
			response.writeHead(answer.status, answerHeaders).end(body)
		} catch {
			response.destroy()
		}
	})
	taps.push(server)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function startInstance(name: string, role: Role, databaseUrl: string): Promise<Instance> {
	const port = await freePort()
	const dataDir = mkdtempSync(path.join(os.tmpdir(), `bs-scale-${name}-`))
	dataDirs.push(dataDir)
	const process = startServerProcess(
		{
			ROLE: role,
			PORT: String(port),
			DATA_DIR: dataDir,
			DATABASE_URL: databaseUrl,
			PUBLIC_URL: publicUrl,
			AUTH_SECRET: 'scale-out-test-secret-shared-by-every-instance',
			TRUST_PROXY: 'true',
			LOG_LEVEL: 'warn',
			FORM_MIN_FILL_SECONDS: '0',
			WRITE_RETRY_DELAY_SECONDS: '1',
			NOTION_API_BASE_URL: await startNotionTap(name),
			NOTION_REQUESTS_PER_SECOND: String(notionRate),
			...s3.env,
		},
		children,
	)
	return { name, role, port, process }
}

beforeAll(async () => {
	if (!postgresUrl) {
		return
	}
	database = `bs_scale_${randomBytes(6).toString('hex')}`
	await adminQuery(postgresUrl, `create database "${database}"`)
	s3 = await startS3Server()
	fake = await createFakeNotion()
	demo = fake.seed()
	// Notion's own limit, as Notion applies it: a bucket of `rate` requests refilled at `rate` a second.
	fake.setRateLimit({ requestsPerSecond: notionRate, burst: notionRate })
	const databaseUrl = withDatabase(postgresUrl, database)
	// All three at once on an empty database: one migrates, the others wait for it.
	;[webA, webB, worker] = await Promise.all([
		startInstance('web-a', 'web', databaseUrl),
		startInstance('web-b', 'web', databaseUrl),
		startInstance('worker', 'worker', databaseUrl),
	])
	await Promise.all(
		[webA, webB, worker].map(async (instance) => {
			try {
				await waitUntilReady(instance.port, instance.process.exited)
			} catch (error) {
				throw new Error(`${instance.name}: ${String(error)}\n${instance.process.output()}`)
			}
		}),
	)
}, 180_000)

afterAll(async () => {
	for (const child of children) {
		child.kill('SIGKILL')
	}
	await Promise.all(
		children.map(
			(child) =>
				new Promise((resolve) =>
					child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(null),
				),
		),
	)
	for (const tap of taps) {
		tap.closeAllConnections()
		tap.close()
	}
	await fake?.close()
	await s3?.close()
	for (const dir of dataDirs) {
		rmSync(dir, { recursive: true, force: true })
	}
	if (postgresUrl && database) {
		await adminQuery(postgresUrl, `drop database if exists "${database}" with (force)`)
	}
})

/** A request to one instance as the proxy would pass it on: the client's address in X-Forwarded-For. */
async function call(
	instance: Instance,
	method: string,
	pathname: string,
	options: { token?: string; json?: unknown; body?: Uint8Array; headers?: Record<string, string>; ip?: string } = {},
) {
	const headers = new Headers(options.headers)
	headers.set('origin', publicUrl)
	headers.set('x-forwarded-for', options.ip ?? '198.51.100.20')
	if (options.token) {
		headers.set('authorization', `Bearer ${options.token}`)
	}
	let body: string | Uint8Array | undefined = options.body
	if (options.json !== undefined) {
		headers.set('content-type', 'application/json')
		body = JSON.stringify(options.json)
	}
	const response = await fetch(`http://127.0.0.1:${instance.port}${pathname}`, {
		method,
		headers,
		...(body === undefined ? {} : { body }),
	})
	const bytes = new Uint8Array(await response.arrayBuffer())
	const text = new TextDecoder().decode(bytes)
	let parsed: unknown = text
	try {
		parsed = text ? JSON.parse(text) : null
	} catch {
		// Not JSON: keep the text.
	}
	// biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape the route answers with.
	return { status: response.status, headers: response.headers, body: parsed as any, bytes }
}

function randomIp(): string {
	return `10.${randomBytes(3).join('.')}`
}

async function signUp(instance: Instance) {
	const email = `scale-${randomBytes(5).toString('hex')}@example.com`
	const password = 'scale out password'
	const response = await call(instance, 'POST', '/api/auth/sign-up/email', {
		json: { email, password, name: 'Scale' },
		ip: randomIp(),
	})
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return {
		email,
		password,
		token: response.headers.get('set-auth-token') ?? '',
		userId: response.body.user.id as string,
	}
}

/** The most requests in any window of `ms` (each request opening one), and when. */
function busiestWindow(entries: RequestLogEntry[], ms: number): { count: number; from: string | undefined } {
	const times = entries.map((entry) => Date.parse(entry.at)).sort((a, b) => a - b)
	let best = { count: 0, from: undefined as string | undefined }
	let end = 0
	for (let start = 0; start < times.length; start++) {
		while (end < times.length && (times[end] as number) < (times[start] as number) + ms) {
			end++
		}
		if (end - start > best.count) {
			best = { count: end - start, from: new Date(times[start] as number).toISOString() }
		}
	}
	return best
}

const local = (url: string) => {
	const parsed = new URL(url)
	return `${parsed.pathname}${parsed.search}`
}

describe.skipIf(!postgresUrl)('two web instances and one worker on one PostgreSQL', () => {
	test('the worker serves only its health checks; the web instances serve the app', async () => {
		expect((await call(worker, 'GET', '/healthz')).status).toBe(200)
		expect((await call(worker, 'GET', '/readyz')).body).toEqual({ status: 'ready' })
		const api = await call(worker, 'POST', '/api/auth/sign-up/email', {
			json: { email: 'nobody@example.com', password: 'not served here', name: 'No' },
		})
		expect(api.status).toBe(404)
		expect(api.headers.get('content-type')).toBe('application/problem+json')
		expect((await call(worker, 'GET', '/')).status).toBe(404)
		for (const web of [webA, webB]) {
			expect((await call(web, 'GET', '/readyz')).body).toEqual({ status: 'ready' })
			expect((await call(web, 'GET', '/api/openapi.json')).status).toBe(200)
		}
	})

	test('a session made on one web instance is valid on the other, and signing out on it ends it on both', async () => {
		const account = await signUp(webA)
		const onB = await call(webB, 'GET', '/auth/validate_token', { token: account.token })
		expect(onB.status).toBe(200)
		expect(onB.body.data).toMatchObject({ id: account.userId, email: account.email })

		const signIn = await call(webB, 'POST', '/api/auth/sign-in/email', {
			json: { email: account.email, password: account.password },
			ip: randomIp(),
		})
		expect(signIn.status).toBe(200)
		const second = signIn.headers.get('set-auth-token') ?? ''
		expect((await call(webA, 'GET', '/auth/validate_token', { token: second })).status).toBe(200)
		expect((await call(webA, 'POST', '/api/auth/sign-out', { token: second, json: {} })).status).toBe(200)
		expect((await call(webB, 'GET', '/auth/validate_token', { token: second })).status).toBe(401)
		// The first session is another one: still valid on both.
		expect((await call(webA, 'GET', '/auth/validate_token', { token: account.token })).status).toBe(200)
	})

	test('sign-in attempts count across both web instances: the limit reached through both refuses the next on either', async () => {
		const account = await signUp(webA)
		const attacker = randomIp()
		const limit = authRateLimitRules.signIn.max
		const statuses: number[] = []
		for (let attempt = 0; attempt < limit; attempt++) {
			const instance = attempt % 2 === 0 ? webA : webB
			const response = await call(instance, 'POST', '/api/auth/sign-in/email', {
				json: { email: account.email, password: 'wrong password!' },
				ip: attacker,
			})
			statuses.push(response.status)
		}
		expect(statuses).toEqual(Array(limit).fill(401))
		for (const instance of [webA, webB]) {
			const refused = await call(instance, 'POST', '/api/auth/sign-in/email', {
				json: { email: account.email, password: account.password },
				ip: attacker,
			})
			expect(refused.status, instance.name).toBe(429)
			expect(refused.body.code).toBe('RATE_LIMITED')
			expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
		}
		// Another address is not affected.
		const other = await call(webB, 'POST', '/api/auth/sign-in/email', {
			json: { email: account.email, password: account.password },
			ip: randomIp(),
		})
		expect(other.status).toBe(200)
	})

	test('a file uploaded through one web instance is downloaded through the other, from the shared bucket', async () => {
		const { token } = await signUp(webA)
		const bytes = new TextEncoder().encode(`name,amount\nScale ${randomUUID()},1200\n`)
		const announced = await call(webA, 'POST', '/dashboard/active_storage/direct_uploads', {
			token,
			json: {
				filename: 'clients.csv',
				byteSize: bytes.byteLength,
				checksum: createHash('md5').update(bytes).digest('base64'),
				contentType: 'text/csv',
			},
		})
		expect(announced.status, JSON.stringify(announced.body)).toBe(200)
		const put = await call(webA, 'PUT', local(announced.body.directUpload.url), {
			body: bytes,
			headers: announced.body.directUpload.headers,
		})
		expect(put.status, JSON.stringify(put.body)).toBe(200)
		expect(s3.keys().some((key) => key.endsWith(`/${announced.body.id}`))).toBe(true)

		const blob = await call(webB, 'GET', `/dashboard/active_storage/blobs/${announced.body.id}`, { token })
		expect(blob.status).toBe(200)
		const download = await call(webB, 'GET', local(blob.body.url))
		expect(download.status).toBe(200)
		expect(download.bytes).toEqual(bytes)
	})

	test('answers to a Notion form through both web instances reach Notion once each, delivered by the worker alone, within the one per-workspace rate', async () => {
		const started = Date.now()
		const { token } = await signUp(webA)
		const connected = await call(webA, 'POST', '/dashboard/workspaces', {
			token,
			json: { tool: 'notion', method: 'token', token: fake.token },
		})
		expect(connected.status, JSON.stringify(connected.body)).toBe(201)
		const workspaceId = connected.body.workspace.id as string
		const databases = await until(
			'the first sync, by the worker',
			() => call(webB, 'GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token }),
			(r) => r.body.length >= 4 && r.body.every((d: { sync: { lastSyncedAt: string | null } }) => d.sync.lastSyncedAt),
		)
		const clients = databases.body.find((d: { name: string }) => d.name === 'Clients')
		const created = await call(webB, 'POST', '/dashboard/forms', {
			token,
			json: { name: 'New client', databaseId: clients.id },
		})
		expect(created.status, JSON.stringify(created.body)).toBe(201)
		const form = created.body as { id: string; fields: { id: string; kind: string; label: string }[] }
		expect(
			(await call(webA, 'PATCH', `/dashboard/forms/${form.id}`, { token, json: { published: true } })).status,
		).toBe(200)
		const nameField = form.fields[0]?.id ?? ''
		const logoField = form.fields.find((field) => field.label === 'Logo')?.id ?? ''

		// Visitors on both instances: the page served by one, the answer sent through either.
		const prefix = `Scale ${randomBytes(3).toString('hex')}`
		const titles = Array.from({ length: 16 }, (_, index) => `${prefix} ${index + 1}`)
		const submit = async (index: number, answers: Record<string, unknown>) => {
			const page = await call(index % 2 === 0 ? webA : webB, 'GET', `/api/forms/${form.id}`)
			const sent = await call(index % 2 === 0 ? webB : webA, 'POST', '/api/submissions', {
				ip: randomIp(),
				json: { formId: form.id, answers, idempotencyKey: randomUUID(), renderToken: page.body.renderToken },
			})
			expect(sent.status, JSON.stringify(sent.body)).toBe(201)
		}
		// One answer carries a file, uploaded through web A and delivered to Notion by the worker from the bucket.
		const logo = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, ...randomBytes(16)])
		const announced = await call(webA, 'POST', `/api/forms/${form.id}/uploads`, {
			ip: randomIp(),
			json: {
				fieldId: logoField,
				filename: 'mark.png',
				byteSize: logo.byteLength,
				checksum: createHash('md5').update(logo).digest('base64'),
				contentType: 'image/png',
			},
		})
		expect(announced.status, JSON.stringify(announced.body)).toBe(201)
		const uploaded = await call(webA, 'PUT', local(announced.body.directUpload.url), {
			body: logo,
			headers: announced.body.directUpload.headers,
		})
		expect(uploaded.status).toBe(200)

		// Meanwhile both web instances call Notion on the request path (the people of the
		// workspace), so all three processes draw on the one workspace's pace at once.
		let isDelivering = true
		const webCalls: number[] = []
		const readPeople = async (instance: Instance) => {
			while (isDelivering) {
				const people = await call(instance, 'GET', `/dashboard/notion/users?workspaceId=${workspaceId}`, { token })
				webCalls.push(people.status)
			}
		}
		const readers = [readPeople(webA), readPeople(webB)]
		try {
			await Promise.all(
				titles.map((title, index) =>
					submit(
						index,
						index === 0
							? { [nameField]: title, [logoField]: [{ blobId: announced.body.id, name: 'mark.png' }] }
							: { [nameField]: title },
					),
				),
			)
			await until(
				'every answer delivered',
				() => call(webB, 'GET', `/dashboard/forms/${form.id}/submissions?limit=100`, { token }),
				(r) => r.body.counts?.delivered === titles.length,
				240_000,
			)
		} finally {
			isDelivering = false
			await Promise.all(readers)
		}
		const requests = fake.requests()
		const seconds = (Date.now() - started) / 1000

		// Each answer is one row in Notion, created once.
		fake.setRateLimit(null)
		const rows = await pagesStartingWith(prefix)
		expect(rows.map((row) => row.title).sort()).toEqual([...titles].sort())
		const creates = requests.filter((entry) => entry.route === 'POST /v1/pages' && entry.status === 200)
		expect(creates).toHaveLength(titles.length)
		const withLogo = rows.find((row) => row.title === titles[0])
		expect(withLogo?.files).toEqual(['mark.png'])

		// Page creates and syncs come from the worker; the web instances only read people on requests.
		const byProcess = (via: string) => tapLog.filter((entry) => entry.via === via)
		const webRoutes = new Set(
			[...byProcess('web-a'), ...byProcess('web-b')].map((entry) => `${entry.method} ${entry.path.split('/')[2]}`),
		)
		expect([...webRoutes].sort()).toEqual(['GET users'])
		expect(byProcess('worker').some((entry) => entry.method === 'POST' && entry.path === '/v1/pages')).toBe(true)
		expect(webCalls.length).toBeGreaterThan(0)
		expect(webCalls.filter((status) => status !== 200)).toEqual([])

		// The three together keep to the one pace: no window of 1 s holds more than the rate plus
		// the limiter's burst (what a token bucket allows), none of 5 s more than 5 × rate plus the
		// burst, each with one request of tolerance for the varying time a request takes to arrive
		// after its slot; and Notion (the fake, limiting as Notion does) never refused one.
		const oneSecond = busiestWindow(requests, 1000)
		const fiveSeconds = busiestWindow(requests, 5000)
		const refused = requests.filter((entry) => entry.fault === 'rate_limited')
		console.info(
			`scale-out: ${requests.length} Notion requests in ${seconds.toFixed(1)} s (${byProcess('worker').length} from the worker, ${byProcess('web-a').length + byProcess('web-b').length} from the web instances); busiest 1 s: ${oneSecond.count}, busiest 5 s: ${fiveSeconds.count}; refused by the rate limit: ${refused.length}`,
		)
		expect(oneSecond.count, `busiest 1 s window from ${oneSecond.from}`).toBeLessThanOrEqual(
			notionRate + notionBurst + 1,
		)
		expect(fiveSeconds.count, `busiest 5 s window from ${fiveSeconds.from}`).toBeLessThanOrEqual(
			5 * notionRate + notionBurst + 1,
		)
		expect(refused).toEqual([])
	}, 360_000)
})

/** Rows of the fake's Clients database whose title starts with `prefix`, read as any Notion client would. */
async function pagesStartingWith(prefix: string): Promise<{ title: string; files: string[] }[]> {
	const found: { title: string; files: string[] }[] = []
	let cursor: string | null = null
	do {
		const response = await fetch(`${fake.url}/v1/data_sources/${demo.dataSources.clients}/query`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${fake.token}`,
				'notion-version': '2025-09-03',
				'content-type': 'application/json',
			},
			body: JSON.stringify({
				filter: { property: 'Name', title: { starts_with: prefix } },
				page_size: 100,
				...(cursor ? { start_cursor: cursor } : {}),
			}),
		})
		const body = (await response.json()) as {
			results: { properties: Record<string, unknown> }[]
			next_cursor: string | null
			has_more: boolean
		}
		for (const page of body.results) {
			const name = page.properties.Name as { title: { plain_text: string }[] }
			const logo = page.properties.Logo as { files: { name: string }[] }
			found.push({
				title: name.title.map((part) => part.plain_text).join(''),
				files: logo.files.map((file) => file.name),
			})
		}
		cursor = body.has_more ? body.next_cursor : null
	} while (cursor)
	return found
}
