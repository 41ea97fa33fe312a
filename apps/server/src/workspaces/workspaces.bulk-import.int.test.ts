import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaceRows } from './workspaces.schema.ts'

// A bulk import in Notion (more rows created in one minute than one query returns) reaches the
// mirror in full, and a reconcile reads the rows the mirror lacks. The fake caps a query at 50
// rows here, as Notion caps one at 10,000, and keeps times to the minute, as Notion does.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>
const minute = '2026-04-01T10:00:00.000Z'

beforeAll(async () => {
	fake = await createFakeNotion({ queryResultLimit: 50, timestampPrecisionMs: 60_000 })
	t = await createTestApp({ LOG_LEVEL: 'silent', NOTION_API_BASE_URL: fake.url, NOTION_REQUESTS_PER_SECOND: '100' })
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Database = {
	id: string
	name: string
	sync: { state: string; lastSyncedAt: string | null; rowCount: number; lastError: string | null }
}

async function databases(token: string, workspaceId: string): Promise<Database[]> {
	const response = await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token })
	expect(response.status).toBe(200)
	return response.body
}

/** A data source holding `count` rows Notion stamps with one creation minute. */
function importRows(name: string, count: number, title: (index: number) => string): { id: string; rows: string[] } {
	const id = String(fake.addDataSource({ title: name, properties: { Name: { title: {} } } }).id)
	fake.setClock(Date.parse(minute) + 30_000)
	try {
		const rows = fake.addPages(id, count, {
			spacingMs: 0,
			properties: (index) => ({ Name: { title: [{ text: { content: title(index) } }] } }),
		})
		return { id, rows }
	} finally {
		fake.useRealClock()
	}
}

/** A new account with the fake Notion connected by token, all of its databases synced once. */
async function connected(expected: number) {
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
		(list) =>
			list.length >= expected &&
			list.every((d) => d.sync.state === 'idle' && (d.sync.lastSyncedAt !== null || d.sync.lastError !== null)),
	)
	return { token: account.token, workspaceId, byName: Object.fromEntries(synced.map((d) => [d.name, d])) }
}

async function mirrored(databaseId: string): Promise<string[]> {
	const rows = await t.db
		.select({ externalId: workspaceRows.externalId })
		.from(workspaceRows)
		.where(eq(workspaceRows.databaseId, databaseId))
	return rows.map((row) => row.externalId).sort()
}

/** "Sync now" (a reconcile once a database has synced), waited for. */
async function reconcile(token: string, workspaceId: string, database: Database): Promise<Database> {
	const before = database.sync.lastSyncedAt
	const response = await t.request('POST', `/dashboard/notion/databases/${database.id}/sync`, { token })
	expect(response.status).toBe(202)
	const list = await until(
		'the reconcile',
		() => databases(token, workspaceId),
		(found) => {
			const sync = found.find((d) => d.id === database.id)?.sync
			return sync?.state === 'idle' && sync.lastSyncedAt !== before
		},
	)
	return list.find((d) => d.id === database.id) as Database
}

describe('a bulk import in Notion', () => {
	test('more rows created in one minute than a query returns all reach the mirror, and a reconcile keeps them', async () => {
		const leads = importRows('Imported leads', 200, (index) => `Lead ${index + 1}`)
		const { token, workspaceId, byName } = await connected(1)
		const database = byName['Imported leads'] as Database
		expect(database.sync).toMatchObject({ rowCount: 200, lastError: null })
		expect(await mirrored(database.id)).toEqual([...leads.rows].sort())

		const after = await reconcile(token, workspaceId, database)
		expect(after.sync).toMatchObject({ rowCount: 200, lastError: null })
		expect(await mirrored(database.id)).toEqual([...leads.rows].sort())
	})

	test('a reconcile reads the live rows the mirror lacks, one by one', async () => {
		const notes = importRows('Notes', 20, (index) => `Note ${index + 1}`)
		// A later edit moves the sync's cursor past the minute the others were written in.
		fake.setClock(Date.parse(minute) + 5 * 60_000)
		fake.editPage(notes.rows[19] ?? '', { Name: { title: [{ text: { content: 'Edited later' } }] } })
		fake.useRealClock()
		const { token, workspaceId, byName } = await connected(2)
		const database = byName.Notes as Database
		const lost = notes.rows.slice(0, 5)
		// As if an incremental sync had missed them (Notion's edit times are minutes; a late write).
		await t.db
			.delete(workspaceRows)
			.where(and(eq(workspaceRows.databaseId, database.id), inArray(workspaceRows.externalId, lost)))
		fake.resetRequests()

		const after = await reconcile(token, workspaceId, database)
		expect(after.sync).toMatchObject({ rowCount: 20, lastError: null })
		expect(await mirrored(database.id)).toEqual([...notes.rows].sort())
		expect(fake.requestCount('GET', '/v1/pages/:id')).toBe(lost.length)
	})

	test('rows no query can tell apart: found through search, the sync says some may be missing, and no reconcile drops them', async () => {
		const blank = importRows('Blank import', 120, () => 'Untitled import')
		const { token, workspaceId, byName } = await connected(3)
		const database = byName['Blank import'] as Database
		expect(database.sync.rowCount).toBe(120)
		expect(database.sync.lastError).toContain('Some rows may be missing')
		expect(await mirrored(database.id)).toEqual([...blank.rows].sort())

		const after = await reconcile(token, workspaceId, database)
		expect(after.sync.rowCount).toBe(120)
		expect(after.sync.lastError).toContain('Untitled import')
	})
})
