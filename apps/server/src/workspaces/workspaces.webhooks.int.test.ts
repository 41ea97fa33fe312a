import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaceSettings } from './workspaces.schema.ts'

// Notion's webhooks as Notion (API 2025-09-03) sends them: a page event names its database and,
// beside it, its data source, and only that database syncs; bodies that are not events are 400s;
// a recreated subscription's new token is kept aside until the operator accepts it.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>
let demo: ReturnType<typeof fake.seed>

beforeAll(async () => {
	fake = await createFakeNotion()
	demo = fake.seed()
	t = await createTestApp({
		LOG_LEVEL: 'silent',
		NOTION_API_BASE_URL: fake.url,
		NOTION_REQUESTS_PER_SECOND: '40',
		// No timed syncs during these tests: every query after a webhook is the webhook's.
		SYNC_INTERVAL_SECONDS: '3600',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

function post(body: string, signature?: string) {
	return t.request('POST', '/api/notion/webhooks', {
		body,
		headers: { 'content-type': 'application/json', ...(signature ? { 'x-notion-signature': signature } : {}) },
	})
}

/** Queries of one data source the fake has answered so far. */
const queriesOf = (dataSourceId: string) =>
	fake.requests().filter((r) => r.route === 'POST /v1/data_sources/:id/query' && r.path.includes(dataSourceId)).length

describe('Notion webhooks', () => {
	let token: string

	test('the first handshake keeps its token; a page event syncs only the data source it names', async () => {
		expect((await post(JSON.stringify({ verification_token: 'first-token' }))).status).toBe(200)
		token = 'first-token'

		const account = await t.signUp()
		const connected = await t.request('POST', '/dashboard/workspaces', {
			token: account.token,
			json: { tool: 'notion', method: 'token', token: fake.token },
		})
		expect(connected.status).toBe(201)
		const workspaceId = connected.body.workspace.id as string
		await until(
			'the first sync',
			async () =>
				(await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token: account.token }))
					.body as { sync: { lastSyncedAt: string | null } }[],
			(list) => list.length >= 4 && list.every((d) => d.sync.lastSyncedAt !== null),
		)
		await new Promise((resolve) => setTimeout(resolve, 500))
		const before = Object.fromEntries(
			Object.entries(demo.dataSources).map(([name, id]) => [name, queriesOf(id)] as const),
		)

		const page = fake.addPage(demo.dataSources.projects, { Name: { title: [{ text: { content: 'Hooked project' } }] } })
		const body = JSON.stringify({
			id: 'evt-page-created',
			timestamp: new Date().toISOString(),
			type: 'page.created',
			workspace_id: fake.workspace.id,
			entity: { id: page.id, type: 'page' },
			data: { parent: { id: demo.databases.projects, type: 'database', data_source_id: demo.dataSources.projects } },
		})
		expect((await post(body, await fake.signWebhook(body, token))).status).toBe(200)
		await until(
			'the projects data source synced',
			() => queriesOf(demo.dataSources.projects),
			(count) => count > (before.projects ?? 0),
		)
		// Time for any other sync the event might have queued to have started.
		await new Promise((resolve) => setTimeout(resolve, 1500))
		expect(queriesOf(demo.dataSources.clients)).toBe(before.clients)
		expect(queriesOf(demo.dataSources.timeEntries)).toBe(before.timeEntries)
		expect(queriesOf(demo.dataSources.invoices)).toBe(before.invoices)
	})

	test('a body that is not an event is a 400 naming what is wrong, never a 500', async () => {
		for (const body of ['null', '[]', '"page.created"', '42', '{"type": 7}', '{"data": {"parent": "x"}}']) {
			const response = await post(body, await fake.signWebhook(body, token))
			expect(response.status, body).toBe(400)
			expect(response.body.errors[0].field, body).toEqual(expect.any(String))
		}
		const notJson = await post('{"type": ', 'v1=00')
		expect(notJson.status).toBe(400)
	})

	test('a recreated subscription’s new token is kept aside: deliveries signed with it are refused meanwhile', async () => {
		expect((await post(JSON.stringify({ verification_token: 'second-token' }))).status).toBe(200)
		// Kept for the operator to read (and logged), not used.
		const pending = await t.db
			.select()
			.from(workspaceSettings)
			.where(eq(workspaceSettings.key, 'notion_webhook_verification_token_pending'))
		expect(pending.map((row) => row.value)).toEqual(['second-token'])
		const body = JSON.stringify({ id: 'evt-2', type: 'page.updated', workspace_id: fake.workspace.id })
		expect((await post(body, await fake.signWebhook(body, 'second-token'))).status).toBe(401)
		expect((await post(body, await fake.signWebhook(body, token))).status).toBe(200)

		// The operator accepts it by setting it: another instance started with the setting takes it.
		const accepted = await createTestApp({
			LOG_LEVEL: 'silent',
			NOTION_API_BASE_URL: fake.url,
			NOTION_WEBHOOK_VERIFICATION_TOKEN: 'second-token',
		})
		try {
			const response = await accepted.request('POST', '/api/notion/webhooks', {
				body,
				headers: {
					'content-type': 'application/json',
					'x-notion-signature': await fake.signWebhook(body, 'second-token'),
				},
			})
			expect(response.status).toBe(200)
		} finally {
			await accepted.close()
		}
	})
})
