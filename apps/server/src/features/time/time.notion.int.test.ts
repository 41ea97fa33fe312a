import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'

// The timer against the fake Notion, through the official SDK: the start creates the page, the
// stop completes it, and an outage while stopping (or before the start was even delivered)
// only delays the stop: it is delivered afterwards, once, onto the page the start created.

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
		WRITE_RETRY_DELAY_SECONDS: '0.2',
		WRITE_MAX_ATTEMPTS: '12',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Database = { id: string; name: string; sync: { state: string; lastSyncedAt: string | null } }
type Write = { id: string; kind: string; state: string; attempts: number; source: string; rowId: string | null }

/** A new account with the fake Notion connected, its Time entries mapped as suggested. */
async function mappedTimeEntries() {
	const account = await t.signUp()
	const { token } = account
	const connected = await t.request('POST', '/dashboard/workspaces', {
		token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	expect(connected.status).toBe(201)
	const workspaceId = connected.body.workspace.id as string
	const synced = await until(
		'the first sync',
		async () =>
			(await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token })).body as Database[],
		(list) => list.length >= 4 && list.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt !== null),
	)
	const entries = synced.find((database) => database.name === 'Time entries') as Database
	const review = await t.request('GET', `/dashboard/notion_time/databases/${entries.id}`, { token })
	expect(review.status).toBe(200)
	expect(review.body.suggested.isComplete).toBe(true)
	const saved = await t.request('PUT', `/dashboard/notion_time/databases/${entries.id}`, {
		token,
		json: { mapping: review.body.suggested.mapping },
	})
	expect(saved.status).toBe(200)
	return { token, workspaceId, entries }
}

async function writesOf(token: string, workspaceId: string, entryId: string): Promise<Write[]> {
	const response = await t.request('GET', `/dashboard/workspaces/${workspaceId}/writes?limit=200`, { token })
	expect(response.status).toBe(200)
	return (response.body as Write[]).filter((write) => write.source === `time:${entryId}`)
}

async function notionPage(pageId: string) {
	const response = await fetch(`${fake.url}/v1/pages/${pageId}`, {
		headers: { authorization: `Bearer ${fake.token}`, 'notion-version': '2025-09-03' },
	})
	expect(response.status).toBe(200)
	return (await response.json()) as { properties: Record<string, { date?: { start: string; end: string | null } }> }
}

async function pagesTitled(title: string): Promise<string[]> {
	const response = await fetch(`${fake.url}/v1/data_sources/${demo.dataSources.timeEntries}/query`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${fake.token}`,
			'notion-version': '2025-09-03',
			'content-type': 'application/json',
		},
		body: JSON.stringify({ filter: { property: 'Name', title: { equals: title } }, page_size: 100 }),
	})
	const body = (await response.json()) as { results: { id: string }[] }
	return body.results.map((page) => page.id)
}

/** Successful page updates Notion received for one page. */
function updatesOf(pageId: string): number {
	return fake
		.requests()
		.filter(
			(request) => request.route === 'PATCH /v1/pages/:id' && request.path.includes(pageId) && request.status === 200,
		).length
}

describe('the timer on Notion', () => {
	test('start → running after a reload → an outage while stopping → the stop is delivered afterwards, once', async () => {
		const { token, workspaceId, entries } = await mappedTimeEntries()
		const started = await t.request('POST', '/dashboard/notion_time/timer/start', {
			token,
			json: { databaseId: entries.id, description: 'Notion timer', billable: true },
		})
		expect(started.status).toBe(201)
		const delivered = await until(
			'the start delivered',
			async () => (await t.request('GET', '/dashboard/notion_time/timer', { token })).body.entry,
			(entry) => entry?.delivery === 'delivered' && entry.rowId !== null,
		)
		expect(delivered).toMatchObject({ id: started.body.id, isRunning: true })
		const [pageId] = await pagesTitled('Notion timer')
		expect(pageId).toBeDefined()
		expect((await notionPage(pageId as string)).properties.Date?.date).toMatchObject({
			start: expect.stringMatching(/^\d{4}-/),
			end: null,
		})

		fake.setOutage(true)
		let stopped: { endedAt: string }
		try {
			const response = await t.request('POST', '/dashboard/notion_time/timer/stop', { token })
			expect(response.status).toBe(200)
			stopped = response.body
			// The timer is stopped for the person at once, whatever Notion does.
			expect((await t.request('GET', '/dashboard/notion_time/timer', { token })).body.entry).toBeNull()
			await until(
				'the stop to fail during the outage',
				() => writesOf(token, workspaceId, started.body.id),
				(writes) => writes.some((write) => write.kind === 'update' && write.state === 'failed' && write.attempts >= 2),
			)
		} finally {
			fake.setOutage(false)
		}
		await until(
			'the stop delivered after the outage',
			() => writesOf(token, workspaceId, started.body.id),
			(writes) => writes.length === 2 && writes.every((write) => write.state === 'delivered'),
		)
		const page = await notionPage(pageId as string)
		expect(Date.parse(page.properties.Date?.date?.end ?? '')).toBe(Date.parse(stopped.endedAt))
		expect(updatesOf(pageId as string)).toBe(1)
		expect(await pagesTitled('Notion timer')).toHaveLength(1)
	}, 120_000)

	test('a stop made before the start was delivered (Notion down for both) lands on the page the start creates', async () => {
		const { token, workspaceId, entries } = await mappedTimeEntries()
		fake.setOutage(true)
		let entryId = ''
		try {
			const started = await t.request('POST', '/dashboard/notion_time/timer/start', {
				token,
				json: { databaseId: entries.id, description: 'Started while down' },
			})
			expect(started.status).toBe(201)
			entryId = started.body.id
			const stopped = await t.request('POST', '/dashboard/notion_time/timer/stop', { token })
			expect(stopped.status).toBe(200)
			await until(
				'the start to fail during the outage',
				() => writesOf(token, workspaceId, entryId),
				(writes) => writes.some((write) => write.kind === 'create' && write.state === 'failed' && write.attempts >= 2),
			)
			// The stop waits for the start: it is never sent to Notion without its page.
			const [update] = (await writesOf(token, workspaceId, entryId)).filter((write) => write.kind === 'update')
			expect(update?.state).toBe('pending')
		} finally {
			fake.setOutage(false)
		}
		const writes = await until(
			'both delivered after the outage',
			() => writesOf(token, workspaceId, entryId),
			(list) => list.length === 2 && list.every((write) => write.state === 'delivered'),
		)
		expect(new Set(writes.map((write) => write.rowId)).size).toBe(1)
		const pages = await pagesTitled('Started while down')
		expect(pages).toHaveLength(1)
		const page = await notionPage(pages[0] as string)
		expect(page.properties.Date?.date?.end).toBeTruthy()
		expect(updatesOf(pages[0] as string)).toBe(1)
	}, 120_000)
})
