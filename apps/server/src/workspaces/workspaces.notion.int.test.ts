import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaces } from './workspaces.schema.ts'

// The Notion side of the workspace layer, end to end: the app talks to the fake Notion server
// through the official SDK, as it would to Notion.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>
let demo: ReturnType<typeof fake.seed>

beforeAll(async () => {
	fake = await createFakeNotion({ oauth: { clientId: 'client-123', clientSecret: 'secret-456' } })
	demo = fake.seed()
	t = await createTestApp({
		LOG_LEVEL: 'error',
		NOTION_API_BASE_URL: fake.url,
		NOTION_CLIENT_ID: 'client-123',
		NOTION_CLIENT_SECRET: 'secret-456',
		NOTION_WEBHOOK_VERIFICATION_TOKEN: 'whsec-test-token',
		NOTION_REQUESTS_PER_SECOND: '40',
		WRITE_RETRY_DELAY_SECONDS: '0.2',
		WRITE_MAX_ATTEMPTS: '12',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Database = {
	id: string
	name: string
	externalId: string
	properties: { id: string; name: string; type: string }[]
	sync: { state: string; lastSyncedAt: string | null; rowCount: number; lastError: string | null }
}
type Write = { id: string; state: string; attempts: number; lastError: string | null; rowId: string | null }

async function databases(token: string, workspaceId: string): Promise<Database[]> {
	const response = await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token })
	expect(response.status).toBe(200)
	return response.body
}

/** A new account with the fake Notion connected by token, its four databases synced. */
async function connected() {
	const account = await t.signUp()
	const response = await t.request('POST', '/dashboard/workspaces', {
		token: account.token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	expect(response.status).toBe(201)
	const workspaceId = response.body.workspace.id as string
	const synced = await until(
		'the first sync',
		() => databases(account.token, workspaceId),
		(list) => list.length >= 4 && list.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt !== null),
	)
	const byName = Object.fromEntries(synced.map((d) => [d.name, d]))
	return { token: account.token, workspaceId, byName }
}

async function rows(token: string, databaseId: string) {
	const response = await t.request('GET', `/dashboard/notion/databases/${databaseId}/rows?limit=200`, { token })
	expect(response.status).toBe(200)
	return response.body as {
		total: number
		rows: { id: string; externalId: string; title: string; values: Record<string, unknown> }[]
	}
}

async function pagesTitled(dataSourceId: string, title: string): Promise<number> {
	const response = await fetch(`${fake.url}/v1/data_sources/${dataSourceId}/query`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${fake.token}`,
			'notion-version': '2025-09-03',
			'content-type': 'application/json',
		},
		body: JSON.stringify({ filter: { property: 'Name', title: { equals: title } }, page_size: 100 }),
	})
	const body = (await response.json()) as { results: unknown[] }
	return body.results.length
}

async function writes(token: string, workspaceId: string): Promise<Write[]> {
	const response = await t.request('GET', `/dashboard/workspaces/${workspaceId}/writes?limit=200`, { token })
	expect(response.status).toBe(200)
	return response.body
}

describe('connecting Notion', () => {
	test('an integration token connects, and every database is mirrored with its rows', async () => {
		const { token, workspaceId, byName } = await connected()
		expect(Object.keys(byName)).toEqual(expect.arrayContaining(['Clients', 'Projects', 'Time entries', 'Invoices']))
		const clients = byName.Clients as Database
		expect(clients.sync.rowCount).toBe(demo.pages.clients.length)
		const mirrored = await rows(token, clients.id)
		expect(mirrored.total).toBe(demo.pages.clients.length)
		expect(mirrored.rows.map((r) => r.externalId).sort()).toEqual([...demo.pages.clients].sort())
		const list = await t.request('GET', '/dashboard/workspaces', { token })
		expect(list.body).toEqual([expect.objectContaining({ id: workspaceId, tool: 'notion', status: 'connected' })])
		const people = await t.request('GET', `/dashboard/notion/users?workspaceId=${workspaceId}`, { token })
		expect(people.body.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([demo.users.ada]))
	})

	test('a token Notion refuses is a 400 on the token field', async () => {
		const account = await t.signUp()
		const response = await t.request('POST', '/dashboard/workspaces', {
			token: account.token,
			json: { tool: 'notion', method: 'token', token: 'ntn_this_token_does_not_exist_anywhere' },
		})
		expect(response.status).toBe(400)
		expect(response.body.errors[0].field).toBe('token')
	})

	test('OAuth: authorize on Notion, come back through the callback, workspace connected', async () => {
		const account = await t.signUp()
		const started = await t.request('POST', '/dashboard/workspaces', {
			token: account.token,
			json: { tool: 'notion', method: 'oauth' },
		})
		expect(started.status).toBe(201)
		const authorize = new URL(started.body.authorizeUrl)
		expect(authorize.origin).toBe(new URL(fake.url).origin)
		expect(authorize.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/notion/oauth/callback')
		const approved = await fetch(authorize, { redirect: 'manual' })
		expect(approved.status).toBe(302)
		const callback = new URL(approved.headers.get('location') ?? '')
		const back = await t.request('GET', `${callback.pathname}${callback.search}`)
		expect(back.status).toBe(302)
		const landing = new URL(back.headers.get('location') ?? '', 'http://localhost:3000')
		expect(landing.pathname).toBe('/workspaces')
		const workspaceId = landing.searchParams.get('connected')
		expect(workspaceId).toBeTruthy()
		const list = await t.request('GET', '/dashboard/workspaces', { token: account.token })
		expect(list.body.map((w: { id: string }) => w.id)).toEqual([workspaceId])

		const tampered = new URL(callback)
		tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`)
		const refused = await t.request('GET', `${tampered.pathname}${tampered.search}`)
		expect(new URL(refused.headers.get('location') ?? '', 'http://localhost:3000').searchParams.get('error')).toMatch(
			/invalid/,
		)
	})
})

async function revoke(token: string) {
	const response = await fetch(`${fake.url}/v1/oauth/revoke`, {
		method: 'POST',
		headers: {
			authorization: `Basic ${Buffer.from('client-123:secret-456').toString('base64')}`,
			'notion-version': '2025-09-03',
			'content-type': 'application/json',
		},
		body: JSON.stringify({ token }),
	})
	expect(response.status).toBe(200)
}

async function workspaceRecord(id: string) {
	const [record] = await t.db.select().from(workspaces).where(eq(workspaces.id, id))
	if (!record) {
		throw new Error('no workspace')
	}
	return record
}

describe('tokens', () => {
	test('an OAuth token Notion stops accepting is refreshed, stored sealed, and the sync goes on', async () => {
		const account = await t.signUp()
		const started = await t.request('POST', '/dashboard/workspaces', {
			token: account.token,
			json: { tool: 'notion', method: 'oauth' },
		})
		const approved = await fetch(started.body.authorizeUrl, { redirect: 'manual' })
		const callback = new URL(approved.headers.get('location') ?? '')
		const back = await t.request('GET', `${callback.pathname}${callback.search}`)
		const workspaceId =
			new URL(back.headers.get('location') ?? '', 'http://localhost:3000').searchParams.get('connected') ?? ''
		const synced = await until(
			'the first sync',
			() => databases(account.token, workspaceId),
			(list) => list.length >= 4 && list.every((d) => d.sync.lastSyncedAt !== null && d.sync.state === 'idle'),
		)
		const before = t.services.workspaces.deps.connectors.credentialsOf(await workspaceRecord(workspaceId))
		expect((await workspaceRecord(workspaceId)).credentials).not.toContain(before.accessToken)
		await revoke(before.accessToken)
		const clients = synced.find((d) => d.name === 'Clients') as Database
		const lastSyncedAt = clients.sync.lastSyncedAt
		await t.request('POST', `/dashboard/notion/databases/${clients.id}/sync`, { token: account.token })
		const after = await until(
			'a sync with the refreshed token',
			() => databases(account.token, workspaceId),
			(list) => {
				const database = list.find((d) => d.id === clients.id)
				return database?.sync.state === 'idle' && database.sync.lastSyncedAt !== lastSyncedAt
			},
		)
		expect(after.find((d) => d.id === clients.id)?.sync.lastError).toBeNull()
		const renewed = t.services.workspaces.deps.connectors.credentialsOf(await workspaceRecord(workspaceId))
		expect(renewed.accessToken).not.toBe(before.accessToken)
		expect(renewed.refreshToken).not.toBe(before.refreshToken)
		expect((await workspaceRecord(workspaceId)).status).toBe('connected')
	})

	test('a revoked integration token marks the workspace for reconnecting, with the reason on its databases', async () => {
		const extra = fake.issueToken()
		const account = await t.signUp()
		const response = await t.request('POST', '/dashboard/workspaces', {
			token: account.token,
			json: { tool: 'notion', method: 'token', token: extra },
		})
		const workspaceId = response.body.workspace.id as string
		const synced = await until(
			'the first sync',
			() => databases(account.token, workspaceId),
			(list) => list.length >= 4 && list.every((d) => d.sync.lastSyncedAt !== null && d.sync.state === 'idle'),
		)
		await revoke(extra)
		const clients = synced.find((d) => d.name === 'Clients') as Database
		await t.request('POST', `/dashboard/notion/databases/${clients.id}/sync`, { token: account.token })
		const after = await until(
			'the failed sync',
			() => databases(account.token, workspaceId),
			(list) => list.find((d) => d.id === clients.id)?.sync.lastError !== null,
		)
		expect(after.find((d) => d.id === clients.id)?.sync.lastError).toMatch(/reconnect/)
		const list = await t.request('GET', '/dashboard/workspaces', { token: account.token })
		expect(list.body[0].status).toBe('needs_reauth')
	})
})

describe('the mirror', () => {
	test('edits, trashed rows and deleted rows in Notion reach the mirror on sync', async () => {
		const [edited, trashed, deleted] = ['Edit me', 'Trash me', 'Delete me'].map(
			(name) =>
				fake.addPage(demo.dataSources.projects, { Name: { title: [{ text: { content: name } }] } }).id as string,
		)
		const { token, byName } = await connected()
		const projects = byName.Projects as Database
		const before = await rows(token, projects.id)
		expect(before.rows.map((r) => r.externalId)).toEqual(expect.arrayContaining([edited, trashed, deleted]))
		fake.advanceClock(60_000)
		fake.editPage(edited ?? '', { Name: { title: [{ text: { content: 'Renamed in Notion' } }] } })
		fake.trashPage(trashed ?? '')
		fake.deletePage(deleted ?? '')
		const sync = await t.request('POST', `/dashboard/notion/databases/${projects.id}/sync`, { token })
		expect(sync.status).toBe(202)
		const after = await until(
			'the sync to drop the trashed and deleted rows',
			() => rows(token, projects.id),
			(page) => !page.rows.some((r) => r.externalId === trashed || r.externalId === deleted),
		)
		expect(after.rows.find((r) => r.externalId === edited)?.title).toBe('Renamed in Notion')
		expect(after.total).toBe(before.total - 2)
		const state = await t.request('GET', `/dashboard/notion/databases/${projects.id}`, { token })
		expect(state.body.sync).toMatchObject({ state: 'idle', lastError: null, rowCount: before.total - 2 })
		expect(Date.parse(state.body.sync.nextSyncAt)).toBeGreaterThan(Date.now())
	})

	test('a signed webhook makes the mirror follow; an unsigned one is refused', async () => {
		const page = fake.addPage(demo.dataSources.clients, { Name: { title: [{ text: { content: 'Hooked' } }] } })
			.id as string
		const { token, byName } = await connected()
		const clients = byName.Clients as Database
		fake.deletePage(page)
		const body = JSON.stringify({
			id: 'evt-1',
			type: 'page.deleted',
			workspace_id: fake.workspace.id,
			entity: { id: page, type: 'page' },
			data: { parent: { id: clients.externalId, type: 'data_source' } },
		})
		const unsigned = await t.request('POST', '/api/notion/webhooks', {
			body,
			headers: { 'content-type': 'application/json' },
		})
		expect(unsigned.status).toBe(401)
		const signature = await fake.signWebhook(body, 'whsec-test-token')
		const signed = await t.request('POST', '/api/notion/webhooks', {
			body,
			headers: { 'content-type': 'application/json', 'x-notion-signature': signature },
		})
		expect(signed.status).toBe(200)
		await until(
			'the deleted page to leave the mirror',
			() => rows(token, clients.id),
			(list) => !list.rows.some((r) => r.externalId === page),
		)
	})
})

describe('discovery', () => {
	test('a database shared after connecting appears after the data_source.created webhook', async () => {
		const { token, workspaceId } = await connected()
		const shared = fake.addDataSource({ title: 'Leads', properties: { Name: { title: {} }, Score: { number: {} } } })
		fake.addPage(String(shared.id), { Name: { title: [{ text: { content: 'First lead' } }] } })
		const body = JSON.stringify({
			id: 'evt-2',
			type: 'data_source.created',
			workspace_id: fake.workspace.id,
			entity: { id: shared.id, type: 'data_source' },
			data: {},
		})
		const signed = await t.request('POST', '/api/notion/webhooks', {
			body,
			headers: {
				'content-type': 'application/json',
				'x-notion-signature': await fake.signWebhook(body, 'whsec-test-token'),
			},
		})
		expect(signed.status).toBe(200)
		const list = await until(
			'the new database mirrored',
			() => databases(token, workspaceId),
			(found) => found.some((d) => d.name === 'Leads' && d.sync.rowCount === 1),
		)
		expect(list.find((d) => d.name === 'Leads')?.properties.map((p) => p.type)).toEqual(['title', 'number'])
	})
})

describe('writes to Notion', () => {
	test('bad values are refused with a 400 naming the property, before anything is queued', async () => {
		const { token, workspaceId, byName } = await connected()
		const invoices = byName.Invoices as Database
		const amount = invoices.properties.find((p) => p.type === 'number')
		const response = await t.request('POST', `/dashboard/notion/databases/${invoices.id}/rows`, {
			token,
			json: { values: { [amount?.id ?? '']: 'a lot' } },
		})
		expect(response.status).toBe(400)
		expect(response.body.errors[0].field).toBe(`values.${amount?.id}`)
		expect(response.body.detail).toContain(amount?.name)
		expect(await writes(token, workspaceId)).toEqual([])
	})

	test('a 429 storm delays writes but loses none and duplicates none', async () => {
		const { token, workspaceId, byName } = await connected()
		const clients = byName.Clients as Database
		fake.setRateLimit({ requestsPerSecond: 2, burst: 1, retryAfterSeconds: 1 })
		try {
			const titles = Array.from({ length: 10 }, (_, i) => `Storm client ${i}`)
			for (const title of titles) {
				const queued = await t.request('POST', `/dashboard/notion/databases/${clients.id}/rows`, {
					token,
					json: { values: { title } },
				})
				expect(queued.status).toBe(202)
				expect(queued.body.state).toBe('pending')
			}
			await until(
				'every write delivered',
				() => writes(token, workspaceId),
				(list) => list.length === 10 && list.every((w) => w.state === 'delivered'),
			)
			expect(fake.requests().some((r) => r.fault === 'rate_limited')).toBe(true)
		} finally {
			fake.setRateLimit(null)
		}
		for (let i = 0; i < 10; i++) {
			expect(await pagesTitled(demo.dataSources.clients, `Storm client ${i}`)).toBe(1)
		}
		const mirrored = await rows(token, clients.id)
		expect(mirrored.rows.filter((r) => r.title.startsWith('Storm client'))).toHaveLength(10)
	})

	test('an outage spanning several retries, then recovery: every write delivered once', async () => {
		const { token, workspaceId, byName } = await connected()
		const clients = byName.Clients as Database
		fake.setOutage(true)
		const titles = Array.from({ length: 6 }, (_, i) => `Outage client ${i}`)
		try {
			for (const title of titles) {
				const queued = await t.request('POST', `/dashboard/notion/databases/${clients.id}/rows`, {
					token,
					json: { values: { title } },
				})
				expect(queued.status).toBe(202)
			}
			// Six failed attempts in a row: with production's backoff (30 s doubling) the sixth
			// comes 15.5 minutes after the first, so this is an outage of more than 10 minutes.
			const failing = await until(
				'every write to have failed six times',
				() => writes(token, workspaceId),
				(list) => list.length === 6 && list.every((w) => w.state === 'failed' && w.attempts >= 6),
			)
			expect(failing[0]?.lastError).toMatch(/not answering/)
		} finally {
			fake.setOutage(false)
		}
		await until(
			'every write delivered after the outage',
			() => writes(token, workspaceId),
			(list) => list.every((w) => w.state === 'delivered'),
		)
		for (const title of titles) {
			expect(await pagesTitled(demo.dataSources.clients, title)).toBe(1)
		}
		// 36 failed attempts and their backoff take about 40 s alone; a busy CI machine needs more.
	}, 180_000)

	test('a create whose response was lost is not created twice', async () => {
		const { token, workspaceId, byName } = await connected()
		const clients = byName.Clients as Database
		fake.dropResponseNext(1, { mode: 'reset' })
		const queued = await t.request('POST', `/dashboard/notion/databases/${clients.id}/rows`, {
			token,
			json: { values: { title: 'Lost answer client' } },
		})
		expect(queued.status).toBe(202)
		const [write] = await until(
			'the write delivered',
			() => writes(token, workspaceId),
			(list) => list[0]?.state === 'delivered',
		)
		expect(write?.attempts).toBeGreaterThanOrEqual(2)
		expect(await pagesTitled(demo.dataSources.clients, 'Lost answer client')).toBe(1)
		const mirrored = await rows(token, clients.id)
		expect(mirrored.rows.find((r) => r.title === 'Lost answer client')?.id).toBe(write?.rowId)
	})

	test("Notion's refusal makes a write dead with the reason; retry queues it again", async () => {
		const { token, workspaceId, byName } = await connected()
		const clients = byName.Clients as Database
		fake.failNext(1, { status: 400, code: 'validation_error', message: 'Name is expected to be title.' })
		await t.request('POST', `/dashboard/notion/databases/${clients.id}/rows`, {
			token,
			json: { values: { title: 'Refused once' } },
		})
		const [dead] = await until(
			'the write to die',
			() => writes(token, workspaceId),
			(list) => list[0]?.state === 'dead',
		)
		expect(dead?.lastError).toMatch(/Refused by the workspace: .*Name is expected to be title/)
		const retried = await t.request('POST', `/dashboard/workspaces/${workspaceId}/writes/${dead?.id}/retry`, { token })
		expect(retried.status).toBe(200)
		await until(
			'the retried write delivered',
			() => writes(token, workspaceId),
			(list) => list[0]?.state === 'delivered',
		)
		const again = await t.request('POST', `/dashboard/workspaces/${workspaceId}/writes/${dead?.id}/retry`, { token })
		expect(again.status).toBe(409)
	})
})

describe('tenancy', () => {
	test("another organization's Notion workspace, databases, rows and deliveries read as 404", async () => {
		const { workspaceId, byName } = await connected()
		const stranger = await t.signUp()
		const clients = byName.Clients as Database
		const token = stranger.token
		for (const [method, path] of [
			['GET', `/dashboard/notion/databases/${clients.id}`],
			['GET', `/dashboard/notion/databases/${clients.id}/rows`],
			['POST', `/dashboard/notion/databases/${clients.id}/sync`],
			['GET', `/dashboard/notion/databases/${clients.id}/export.csv`],
			['GET', `/dashboard/notion/users?workspaceId=${workspaceId}`],
			['GET', `/dashboard/workspaces/${workspaceId}/writes`],
		] as const) {
			const response = await t.request(method, path, { token })
			expect(response.status, path).toBe(404)
		}
		const write = await t.request('POST', `/dashboard/notion/databases/${clients.id}/rows`, {
			token,
			json: { values: { title: 'x' } },
		})
		expect(write.status).toBe(404)
		const listed = await t.request('GET', '/dashboard/notion/databases', { token })
		expect(listed.body).toEqual([])
	})
})
