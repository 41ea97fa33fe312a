import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaces } from './workspaces.schema.ts'

// 403 is not 401: Notion's `restricted_resource` means the token works but lacks a capability,
// or the page is not shared with the connection. That database says so; the workspace is not
// marked for reconnecting and no OAuth token is refreshed.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>

beforeAll(async () => {
	fake = await createFakeNotion({ oauth: { clientId: 'client-403', clientSecret: 'secret-403' } })
	fake.seed()
	t = await createTestApp({
		LOG_LEVEL: 'silent',
		NOTION_API_BASE_URL: fake.url,
		NOTION_CLIENT_ID: 'client-403',
		NOTION_CLIENT_SECRET: 'secret-403',
		NOTION_REQUESTS_PER_SECOND: '40',
		SYNC_INTERVAL_SECONDS: '3600',
		WRITE_RETRY_DELAY_SECONDS: '0.2',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Database = {
	id: string
	name: string
	sync: { state: string; lastSyncedAt: string | null; lastError: string | null }
}

const databases = async (token: string, workspaceId: string): Promise<Database[]> =>
	(await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token })).body

const refused = {
	status: 403,
	code: 'restricted_resource',
	message: 'Insufficient permissions for this endpoint.',
} as const

/** An account with the fake Notion connected through OAuth (a token that could be refreshed), synced. */
async function connectedWithOAuth() {
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
	return { token: account.token, workspaceId, clients: synced.find((d) => d.name === 'Clients') as Database }
}

const tokenRefreshes = () => fake.requests().filter((r) => r.route === 'POST /v1/oauth/token').length

async function statusOf(workspaceId: string) {
	const [record] = await t.db.select().from(workspaces).where(eq(workspaces.id, workspaceId))
	return record?.status
}

describe('Notion refusing access (403 restricted_resource)', () => {
	test('a sync refused says so on that database; the workspace stays connected, no token refreshed', async () => {
		const { token, workspaceId, clients } = await connectedWithOAuth()
		const refreshes = tokenRefreshes()
		fake.failNext(1, refused)
		await t.request('POST', `/dashboard/notion/databases/${clients.id}/sync`, { token })
		const after = await until(
			'the refused sync',
			() => databases(token, workspaceId),
			(list) => list.find((d) => d.id === clients.id)?.sync.lastError !== null,
		)
		expect(after.find((d) => d.id === clients.id)?.sync.lastError).toMatch(/share this database with the connection/)
		expect(await statusOf(workspaceId)).toBe('connected')
		expect(tokenRefreshes()).toBe(refreshes)
		// The other databases are untouched.
		expect(after.filter((d) => d.id !== clients.id).every((d) => d.sync.lastError === null)).toBe(true)
	})

	test('a write refused is retried, not dead, and arrives once access is given', async () => {
		const { token, workspaceId, clients } = await connectedWithOAuth()
		const refreshes = tokenRefreshes()
		fake.failNext(1, refused)
		const queued = await t.request('POST', `/dashboard/notion/databases/${clients.id}/rows`, {
			token,
			json: { values: { title: 'Shared later' } },
		})
		expect(queued.status).toBe(202)
		const [delivered] = await until(
			'the write delivered on its retry',
			async () => (await t.request('GET', `/dashboard/workspaces/${workspaceId}/writes`, { token })).body,
			(list: { state: string; attempts: number }[]) => list[0]?.state === 'delivered',
		)
		expect(delivered?.attempts).toBe(2)
		expect(await statusOf(workspaceId)).toBe('connected')
		expect(tokenRefreshes()).toBe(refreshes)
	})
})
