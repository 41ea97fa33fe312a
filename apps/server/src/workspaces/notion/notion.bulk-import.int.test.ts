import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import type { ReadGap } from '#src/workspaces/connector.ts'
import { createNotionClient, createNotionConnector } from './notion.connector.ts'
import { createNotionQueue } from './notion.queue.ts'

// A bulk import puts more rows in one minute than one Notion query returns (10,000; 50 here),
// and Notion keeps created and edited times to the minute: no created_time window can hold
// that minute. The connector, through the real SDK against the fake, must still read it all.

type Fake = Awaited<ReturnType<typeof createFakeNotion>>

let fake: Fake
const minute = '2026-04-01T10:00:00.000Z'

beforeAll(async () => {
	fake = await createFakeNotion({ queryResultLimit: 50, timestampPrecisionMs: 60_000 })
})

afterAll(async () => {
	await fake?.close()
})

afterEach(() => {
	fake.useRealClock()
})

function connector() {
	return createNotionConnector({
		client: createNotionClient({ token: fake.token, baseUrl: fake.url, timeoutMs: 10_000 }),
		queue: createNotionQueue({ requestsPerSecond: 10_000, burst: 10_000, retryDelayMs: 20 }),
		workspaceKey: fake.workspace.id,
		readBlob: async () => null,
	})
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
	const all: T[] = []
	for await (const page of pages) {
		all.push(...page)
	}
	return all
}

/** `count` rows created (as Notion stamps them) at `minute`, with `title(index)` as their titles. */
function importRows(dataSourceId: string, count: number, title: (index: number) => string, at = minute): string[] {
	fake.setClock(Date.parse(at) + 30_000)
	return fake.addPages(dataSourceId, count, {
		spacingMs: 0,
		properties: (index) => ({ Name: { title: [{ text: { content: title(index) } }] } }),
	})
}

describe('more rows created in one minute than one query returns', () => {
	it('reads them all, with the rows around that minute, and lists every id once', async () => {
		const source = String(fake.addDataSource({ title: 'Imported leads', properties: { Name: { title: {} } } }).id)
		const before = importRows(source, 30, (index) => `Earlier ${index}`, '2026-04-01T09:59:00.000Z')
		const bulk = importRows(source, 200, (index) => `Lead ${index + 1}`)
		const after = importRows(source, 30, (index) => `Later ${index}`, '2026-04-01T10:01:00.000Z')
		const gaps: ReadGap[] = []
		const notion = connector()
		const database = await notion.getDatabase(source)
		fake.resetRequests()

		const rows = await collect(notion.queryRows(database, { onGap: (gap) => gaps.push(gap) }))
		expect(rows.map((row) => row.externalId).sort()).toEqual([...before, ...bulk, ...after].sort())
		expect(rows.filter((row) => row.createdTime === minute)).toHaveLength(200)
		// Oldest first: the walk went on past the over-full minute.
		expect(rows.slice(0, 30).map((row) => row.externalId)).toEqual(before)
		expect(new Set(rows.slice(-30).map((row) => row.externalId))).toEqual(new Set(after))

		const ids = await collect(notion.listRowIds(database, { onGap: (gap) => gaps.push(gap) }))
		expect(ids.sort()).toEqual([...before, ...bulk, ...after].sort())

		const edited = await collect(notion.queryRows(database, { editedSince: '2026-04-01T10:00:20.000Z' }))
		expect(edited.map((row) => row.externalId).sort()).toEqual([...bulk, ...after].sort())

		expect(gaps).toEqual([])
		// Cut by their titles, never through search; a bounded number of queries.
		expect(fake.requestCount('POST', '/v1/search')).toBe(0)
		expect(fake.requestCount('POST', '/v1/data_sources/:id/query')).toBeLessThan(150)
	})

	it('cuts a minute of identical rows by their unique id', async () => {
		const source = String(
			fake.addDataSource({ title: 'Tickets', properties: { Name: { title: {} }, ID: { unique_id: { prefix: 'T' } } } })
				.id,
		)
		const bulk = importRows(source, 160, () => 'Imported')
		const gaps: ReadGap[] = []
		const notion = connector()
		const database = await notion.getDatabase(source)
		fake.resetRequests()

		const rows = await collect(notion.queryRows(database, { onGap: (gap) => gaps.push(gap) }))
		expect(rows.map((row) => row.externalId).sort()).toEqual([...bulk].sort())
		const ids = await collect(notion.listRowIds(database, { onGap: (gap) => gaps.push(gap) }))
		expect(ids.sort()).toEqual([...bulk].sort())
		expect(gaps).toEqual([])
		expect(fake.requestCount('POST', '/v1/search')).toBe(0)
	})

	it('rows nothing a query filters on tells apart: the walk ends, says so, and finds them through search', async () => {
		const source = String(fake.addDataSource({ title: 'Blank import', properties: { Name: { title: {} } } }).id)
		const bulk = importRows(source, 120, () => 'Untitled import')
		const gaps: ReadGap[] = []
		const notion = connector()
		const database = await notion.getDatabase(source)
		fake.resetRequests()

		const rows = await collect(notion.queryRows(database, { onGap: (gap) => gaps.push(gap) }))
		expect(rows.map((row) => row.externalId).sort()).toEqual([...bulk].sort())
		expect(gaps).toHaveLength(1)
		expect(gaps[0]).toMatchObject({ createdTime: minute, message: expect.stringContaining('Untitled import') })
		expect(fake.requestCount('POST', '/v1/data_sources/:id/query')).toBeLessThan(30)

		const ids = await collect(notion.listRowIds(database))
		expect(ids.sort()).toEqual([...bulk].sort())
	})

	it("at Notion's own cap: 10,050 rows created in one minute are all listed", async () => {
		const source = String(fake.addDataSource({ title: 'CSV import', properties: { Name: { title: {} } } }).id)
		const bulk = importRows(source, 10_050, (index) => `Contact ${index + 1}`)
		const notion = connector()
		const database = await notion.getDatabase(source)
		fake.setQueryResultLimit(10_000)
		fake.resetRequests()
		try {
			const gaps: ReadGap[] = []
			const ids = await collect(notion.listRowIds(database, { onGap: (gap) => gaps.push(gap) }))
			expect(ids).toHaveLength(10_050)
			expect(new Set(ids)).toEqual(new Set(bulk))
			expect(gaps).toEqual([])
			// 101 requests would do without the cap; cutting the minute costs about as many again.
			expect(fake.requestCount('POST', '/v1/data_sources/:id/query')).toBeLessThan(250)
		} finally {
			fake.setQueryResultLimit(50)
		}
	}, 60_000)
})
