import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'

// Delete with undo against the fake Notion, through the official SDK: the delete moves the page
// to the trash and the mirror drops the row, the restore takes it out again and the mirror has
// it back. An outage while deleting only delays the delete (delivered afterwards, once), and an
// undo made during the outage follows it: the page ends where it started.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>

beforeAll(async () => {
	fake = await createFakeNotion()
	fake.seed()
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
type Write = { id: string; kind: string; state: string; attempts: number; source: string }

/** A new account with the fake Notion connected, its Time entries mapped as suggested. */
async function mappedTimeEntries() {
	const { token } = await t.signUp()
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

async function isTrashed(pageId: string): Promise<boolean> {
	const response = await fetch(`${fake.url}/v1/pages/${pageId}`, {
		headers: { authorization: `Bearer ${fake.token}`, 'notion-version': '2025-09-03' },
	})
	expect(response.status).toBe(200)
	return ((await response.json()) as { in_trash: boolean }).in_trash
}

/** Successful page updates (trash and untrash) Notion received for one page. */
function updatesOf(pageId: string): number {
	return fake
		.requests()
		.filter(
			(request) => request.route === 'PATCH /v1/pages/:id' && request.path.includes(pageId) && request.status === 200,
		).length
}

async function mirrored(databaseId: string, pageId: string): Promise<boolean> {
	const rows = await t.db
		.select({ id: workspaceRows.id })
		.from(workspaceRows)
		.where(and(eq(workspaceRows.databaseId, databaseId), eq(workspaceRows.externalId, pageId)))
	return rows.length > 0
}

/** A finished entry typed in by hand, delivered: its page's id. */
async function deliveredEntry(token: string, databaseId: string, description: string) {
	const created = await t.request('POST', '/dashboard/notion_time/entries', {
		token,
		json: { databaseId, startedAt: '2026-03-02T09:00:00Z', durationSeconds: 1800, description },
	})
	expect(created.status).toBe(201)
	await until(
		'the entry delivered',
		async () =>
			((await t.request('GET', '/dashboard/notion_time/entries', { token })).body as { id: string; delivery: string }[])
				.filter((e) => e.id === created.body.id)
				.map((e) => e.delivery),
		([delivery]) => delivery === 'delivered',
	)
	const [write] = await t.db
		.select({ externalRowId: workspaceWrites.externalRowId })
		.from(workspaceWrites)
		.where(and(eq(workspaceWrites.source, `time:${created.body.id}`), eq(workspaceWrites.kind, 'create')))
	const pageId = write?.externalRowId as string
	expect(await mirrored(databaseId, pageId)).toBe(true)
	return { entryId: created.body.id as string, pageId }
}

describe('delete with undo on Notion', () => {
	test('an outage while deleting: the page is trashed afterwards, once, and leaves the mirror; undo brings both back', async () => {
		const { token, workspaceId, entries } = await mappedTimeEntries()
		const { entryId, pageId } = await deliveredEntry(token, entries.id, 'Deleted during an outage')

		fake.setOutage(true)
		try {
			const deleted = await t.request('DELETE', `/dashboard/notion_time/entries/${entryId}`, { token })
			expect(deleted.status).toBe(200)
			const list = await t.request('GET', '/dashboard/notion_time/entries', { token })
			expect(list.body.map((e: { id: string }) => e.id)).not.toContain(entryId)
			await until(
				'the delete to fail during the outage',
				() => writesOf(token, workspaceId, entryId),
				(writes) => writes.some((w) => w.kind === 'delete' && w.state === 'failed' && w.attempts >= 2),
			)
		} finally {
			fake.setOutage(false)
		}
		await until(
			'the delete delivered after the outage',
			() => writesOf(token, workspaceId, entryId),
			(writes) => writes.some((w) => w.kind === 'delete' && w.state === 'delivered'),
		)
		expect(await isTrashed(pageId)).toBe(true)
		expect(updatesOf(pageId)).toBe(1)
		expect(await mirrored(entries.id, pageId)).toBe(false)

		const restored = await t.request('POST', `/dashboard/notion_time/entries/${entryId}/restore`, { token })
		expect(restored.status).toBe(200)
		await until(
			'the restore delivered',
			() => writesOf(token, workspaceId, entryId),
			(writes) => writes.length === 3 && writes.every((w) => w.state === 'delivered'),
		)
		expect(await isTrashed(pageId)).toBe(false)
		expect(updatesOf(pageId)).toBe(2)
		expect(await mirrored(entries.id, pageId)).toBe(true)
		const [entry] = (
			(await t.request('GET', '/dashboard/notion_time/entries', { token })).body as {
				id: string
				rowId: string | null
			}[]
		).filter((e) => e.id === entryId)
		expect(entry?.rowId).not.toBeNull()
	}, 120_000)

	test('deleted and undone while Notion is down: both delivered afterwards, in order, once each; the page is kept', async () => {
		const { token, workspaceId, entries } = await mappedTimeEntries()
		const { entryId, pageId } = await deliveredEntry(token, entries.id, 'Undone during an outage')

		fake.setOutage(true)
		try {
			expect((await t.request('DELETE', `/dashboard/notion_time/entries/${entryId}`, { token })).status).toBe(200)
			expect((await t.request('POST', `/dashboard/notion_time/entries/${entryId}/restore`, { token })).status).toBe(200)
			const writes = await until(
				'the delete to fail during the outage',
				() => writesOf(token, workspaceId, entryId),
				(list) => list.some((w) => w.kind === 'delete' && w.state === 'failed' && w.attempts >= 2),
			)
			// The restore waits for the delete: never sent before it.
			expect(writes.find((w) => w.kind === 'restore')?.state).toBe('pending')
		} finally {
			fake.setOutage(false)
		}
		await until(
			'both delivered after the outage',
			() => writesOf(token, workspaceId, entryId),
			(list) => list.length === 3 && list.every((w) => w.state === 'delivered'),
		)
		expect(await isTrashed(pageId)).toBe(false)
		expect(updatesOf(pageId)).toBe(2)
		expect(await mirrored(entries.id, pageId)).toBe(true)
	}, 120_000)
})
