import type { RowValues } from '@blocksmith/contracts/workspaces.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { ConnectorError, type ExternalDatabase, type ExternalRow } from '#src/workspaces/connector.ts'
import { createNotionClient, createNotionConnector, exchangeOAuthCode } from './notion.connector.ts'
import { createNotionQueue } from './notion.queue.ts'

// The connector through the real SDK against the fake Notion server.

type Fake = Awaited<ReturnType<typeof createFakeNotion>>
type Demo = ReturnType<Fake['seed']>

let fake: Fake
let demo: Demo
const blobs = new Map<string, { name: string; contentType: string; bytes: Uint8Array }>()

function connectorFor(options: { requestsPerSecond?: number; maxWaitMs?: number } = {}) {
	const client = createNotionClient({ token: fake.token, baseUrl: fake.url, timeoutMs: 10_000 })
	// Fast by default so tests do not wait on our own limiter; the storm test lowers the fake's.
	const queue = createNotionQueue({
		requestsPerSecond: options.requestsPerSecond ?? 1000,
		burst: options.requestsPerSecond ?? 1000,
		maxWaitMs: options.maxWaitMs ?? 30_000,
		retryDelayMs: 20,
	})
	return createNotionConnector({
		client,
		queue,
		workspaceKey: fake.workspace.id,
		readBlob: async (blobId) => blobs.get(blobId) ?? null,
	})
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
	const all: T[] = []
	for await (const page of pages) {
		all.push(...page)
	}
	return all
}

function propertyId(database: ExternalDatabase, name: string): string {
	const property = database.properties.find((candidate) => candidate.name === name)
	if (!property) {
		throw new Error(`no property ${name} in ${database.name}`)
	}
	return property.id
}

beforeAll(async () => {
	fake = await createFakeNotion()
	demo = fake.seed()
})

afterAll(async () => {
	await fake?.close()
})

describe('Notion connector (fake server)', () => {
	let invoices: ExternalDatabase

	it('lists the data sources with their schemas', async () => {
		const connector = connectorFor()
		const databases = await connector.listDatabases()
		const byName = new Map(databases.map((database) => [database.name, database]))
		expect([...byName.keys()].sort()).toEqual(['Clients', 'Invoices', 'Projects', 'Time entries'])
		const found = byName.get('Invoices')
		if (!found) {
			throw new Error('no invoices')
		}
		invoices = found
		expect(invoices.externalId).toBe(demo.dataSources.invoices)
		expect(invoices.icon).toBe('🧾')
		expect(invoices.properties[0]?.type).toBe('title')
		const client = invoices.properties.find((property) => property.name === 'Client')
		expect(client).toMatchObject({ type: 'relation', relationDatabaseId: demo.dataSources.clients })
		expect(invoices.properties.find((property) => property.name === 'Status')?.options?.map((o) => o.name)).toEqual([
			'Draft',
			'Sent',
			'Paid',
		])
		expect(invoices.properties.find((property) => property.name === 'Invoice #')).toMatchObject({
			type: 'unique_id',
			prefix: 'INV',
		})
		expect(await connector.getDatabase(demo.dataSources.invoices)).toEqual(invoices)
		await expect(connector.getDatabase('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
			kind: 'not_found',
		})
	})

	it('lists users', async () => {
		const users = await connectorFor().listUsers()
		expect(users.find((user) => user.id === demo.users.ada)).toMatchObject({
			name: 'Ada Lovelace',
			email: 'ada@example.com',
			type: 'person',
		})
		expect(users.some((user) => user.type === 'bot')).toBe(true)
	})

	it('reads every row of a data source past the per-query cap, and lists the ids', async () => {
		const big = fake.addDataSource({ title: 'Big', properties: { Name: { title: {} }, Count: { number: {} } } })
		const bigId = String(big.id)
		// A minute apart: Notion keeps created times to the minute, and this walk windows by them.
		const ids = fake.addPages(bigId, 130, {
			properties: (index) => ({ Name: { title: [{ text: { content: `Row ${index}` } }] }, Count: { number: index } }),
			spacingMs: 60_000,
		})
		fake.setQueryResultLimit(50)
		fake.resetRequests()
		try {
			const connector = connectorFor()
			const database = await connector.getDatabase(bigId)
			const rows = await collect(connector.queryRows(database, {}))
			expect(rows).toHaveLength(130)
			// 50 rows per window: at least three windows were needed.
			expect(fake.requestCount('POST', '/v1/data_sources/:id/query')).toBeGreaterThanOrEqual(3)
			expect(new Set(rows.map((row) => row.externalId))).toEqual(new Set(ids))
			expect(rows.map((row) => row.values[propertyId(database, 'Count')])).toEqual(
				Array.from({ length: 130 }, (_, index) => index),
			)
			const listed = await collect(connector.listRowIds(database))
			expect(new Set(listed)).toEqual(new Set(ids))
			expect(listed).toHaveLength(130)
		} finally {
			fake.setQueryResultLimit(10_000)
		}
	})

	it('reads only rows edited since an instant, oldest edit first, past the cap', async () => {
		const connector = connectorFor()
		const entries = await connector.getDatabase(demo.dataSources.timeEntries)
		// Every earlier write is now more than a minute old (Notion filters to the minute).
		fake.advanceClock(5 * 60_000)
		const since = fake.now()
		const edited = demo.pages.timeEntries.slice(0, 30).reverse()
		for (const [index, pageId] of edited.entries()) {
			// A minute apart, so the order of the edits shows in Notion's minute-precise times.
			fake.advanceClock(60_000)
			fake.editPage(pageId, { Hours: { number: 100 + index } })
		}
		fake.setQueryResultLimit(12)
		try {
			const rows = await collect(connector.queryRows(entries, { editedSince: since }))
			expect(rows.map((row) => row.externalId)).toEqual(edited)
			expect(rows.map((row) => row.values[propertyId(entries, 'Hours')])).toEqual(
				Array.from({ length: 30 }, (_, index) => 100 + index),
			)
			const times = rows.map((row) => Date.parse(row.lastEditedTime))
			expect([...times].sort((a, b) => a - b)).toEqual(times)
		} finally {
			fake.setQueryResultLimit(10_000)
		}
	})

	it('creates, updates and reads a row; a trashed or deleted row reads as null', async () => {
		const connector = connectorFor()
		const id = (name: string) => propertyId(invoices, name)
		const clientId = demo.pages.clients[0] ?? ''
		const values: RowValues = {
			[id('Name')]: 'INV-TEST-1',
			[id('Client')]: [clientId],
			[id('Amount')]: 1000,
			[id('Status')]: 'Draft',
			[id('Issued')]: { start: '2026-03-01', end: null, timeZone: null },
			[id('Paid')]: false,
			[id('Contact email')]: 'billing@acme.example',
		}
		const created = await connector.createRow(invoices, values)
		expect(created.title).toBe('INV-TEST-1')
		expect(created.values).toMatchObject({
			...values,
			[id('Total')]: 1210,
			[id('Invoice #')]: { prefix: 'INV', number: expect.any(Number) },
		})
		expect(created.url).toMatch(/^https:\/\//)

		const updated = await connector.updateRow(invoices, created.externalId, {
			[id('Status')]: 'Paid',
			[id('Paid')]: true,
			[id('Amount')]: null,
		})
		expect(updated.values).toMatchObject({ [id('Status')]: 'Paid', [id('Paid')]: true, [id('Amount')]: null })
		expect(updated.values[id('Name')]).toBe('INV-TEST-1')

		const read = await connector.getRow(invoices, created.externalId)
		expect(read?.values).toEqual(updated.values)

		fake.trashPage(created.externalId)
		expect(await connector.getRow(invoices, created.externalId)).toBeNull()
		fake.restorePage(created.externalId)
		expect(await connector.getRow(invoices, created.externalId)).not.toBeNull()
		fake.deletePage(created.externalId)
		expect(await connector.getRow(invoices, created.externalId)).toBeNull()
		// A page of another data source is not a row of this one.
		expect(await connector.getRow(invoices, demo.pages.clients[1] ?? '')).toBeNull()
	})

	it('reads relations of more than 25 rows in full', async () => {
		const connector = connectorFor()
		const id = (name: string) => propertyId(invoices, name)
		const entries = demo.pages.timeEntries.slice(0, 32)
		fake.resetRequests()
		const created = await connector.createRow(invoices, { [id('Name')]: 'Many hours', [id('Time entries')]: entries })
		expect(created.values[id('Time entries')]).toEqual(entries)
		// The page object stops at 25: the rest came from the property item endpoint.
		expect(fake.requestCount('GET', '/v1/pages/:id/properties/:id')).toBeGreaterThanOrEqual(1)
		const row = await connector.getRow(invoices, created.externalId)
		expect(row?.values[id('Time entries')]).toEqual(entries)
		const all = await collect(connector.queryRows(invoices, {}))
		expect(all.find((candidate) => candidate.externalId === created.externalId)?.values[id('Time entries')]).toEqual(
			entries,
		)
	})

	it('uploads a stored file and attaches it', async () => {
		const connector = connectorFor()
		const id = (name: string) => propertyId(invoices, name)
		const bytes = new TextEncoder().encode('%PDF-1.4 fake receipt')
		blobs.set('blob-receipt', { name: 'receipt.pdf', contentType: 'application/pdf', bytes })
		const created = await connector.createRow(invoices, {
			[id('Name')]: 'With receipt',
			[id('Attachments')]: [
				{ name: 'receipt.pdf', url: null, blobId: 'blob-receipt' },
				{ name: 'terms', url: 'https://example.com/terms', blobId: null },
			],
		})
		const files = created.values[id('Attachments')] as Array<{ name: string; url: string | null; blobId: null }>
		expect(files.map((file) => file.name)).toEqual(['receipt.pdf', 'terms'])
		expect(files[1]?.url).toBe('https://example.com/terms')
		const served = await fetch(files[0]?.url ?? '')
		expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes)
		expect(fake.requestCount('POST', '/v1/file_uploads')).toBeGreaterThanOrEqual(1)

		await expect(
			connector.createRow(invoices, { [id('Attachments')]: [{ name: 'gone.pdf', url: null, blobId: 'missing' }] }),
		).rejects.toMatchObject({ kind: 'invalid', property: 'Attachments' })
	})

	it("turns Notion's validation errors into invalid, naming the property", async () => {
		const connector = connectorFor()
		const id = (name: string) => propertyId(invoices, name)
		const unknownStatus = await connector
			.createRow(invoices, { [id('Name')]: 'Bad', [id('Status')]: 'Cancelled' })
			.catch((error: unknown) => error)
		expect(unknownStatus).toBeInstanceOf(ConnectorError)
		expect(unknownStatus).toMatchObject({ kind: 'invalid', property: 'Status' })
		const missingClient = await connector
			.createRow(invoices, { [id('Client')]: ['00000000-0000-4000-8000-000000000001'] })
			.catch((error: unknown) => error)
		expect(missingClient).toMatchObject({ kind: 'invalid', property: 'Client' })
	})

	it('rides out a 429 storm without losing anything', async () => {
		// Our queue asks for 20/s; the fake allows 4/s and answers 429 with Retry-After: 1.
		const connector = connectorFor({ requestsPerSecond: 20, maxWaitMs: 60_000 })
		const clients = await connector.getDatabase(demo.dataSources.clients)
		fake.resetRequests()
		fake.setRateLimit({ requestsPerSecond: 4, burst: 4, retryAfterSeconds: 1 })
		try {
			const names = Array.from({ length: 8 }, (_, index) => `Storm client ${index}`)
			const nameId = propertyId(clients, 'Name')
			const [created, before] = await Promise.all([
				Promise.all(names.map((name) => connector.createRow(clients, { [nameId]: name }))),
				collect(connector.queryRows(clients, {})),
			])
			expect(created.map((row) => row.title)).toEqual(names)
			expect(before.length).toBeGreaterThanOrEqual(6)
			const after = await collect(connector.queryRows(clients, {}))
			const titles = after.map((row) => row.title)
			for (const name of names) {
				expect(titles.filter((title) => title === name)).toHaveLength(1)
			}
			expect(fake.requests().some((entry) => entry.fault === 'rate_limited')).toBe(true)
		} finally {
			fake.clearFaults()
		}
	})

	it('finds the row a create made when its response was lost', async () => {
		const connector = connectorFor()
		const id = (name: string) => propertyId(invoices, name)
		fake.advanceClock(2 * 60_000)
		const since = fake.now()
		const values: RowValues = {
			[id('Name')]: 'Lost response',
			[id('Amount')]: 77.5,
			[id('Client')]: [demo.pages.clients[2] ?? ''],
			[id('Time entries')]: demo.pages.timeEntries.slice(0, 30),
		}
		fake.dropResponseNext(1, { mode: 'reset' })
		const lost = await connector.createRow(invoices, values).catch((error: unknown) => error)
		expect(lost).toMatchObject({ kind: 'unavailable' })
		const found: ExternalRow | null = await connector.findCreatedRow(invoices, since, values)
		expect(found?.title).toBe('Lost response')
		expect(found?.values[id('Amount')]).toBe(77.5)
		expect(await connector.findCreatedRow(invoices, since, { ...values, [id('Amount')]: 78 })).toBeNull()
		// A twin made by another delivery is passed over once that delivery claimed its row.
		const twin = await connector.createRow(invoices, values)
		const first = found?.externalId ?? ''
		expect((await connector.findCreatedRow(invoices, since, values, new Set([first])))?.externalId).toBe(
			twin.externalId,
		)
		expect(await connector.findCreatedRow(invoices, since, values, new Set([first, twin.externalId]))).toBeNull()
	})

	it('exchanges an OAuth code for a token', async () => {
		const redirectUri = 'http://localhost:3000/api/notion/oauth/callback'
		const authorize = new URL('/v1/oauth/authorize', fake.url)
		authorize.search = new URLSearchParams({
			client_id: fake.oauthClient.clientId,
			response_type: 'code',
			owner: 'user',
			redirect_uri: redirectUri,
			state: 'xyz',
		}).toString()
		const redirect = await fetch(authorize, { redirect: 'manual' })
		const code = new URL(redirect.headers.get('location') ?? '').searchParams.get('code') ?? ''
		expect(code).not.toBe('')
		const token = await exchangeOAuthCode({
			baseUrl: fake.url,
			clientId: fake.oauthClient.clientId,
			clientSecret: fake.oauthClient.clientSecret,
			code,
			redirectUri,
		})
		expect(token).toMatchObject({ workspaceId: fake.workspace.id, botId: expect.any(String) })
		expect(token.accessToken).not.toBe('')
		await expect(
			exchangeOAuthCode({
				baseUrl: fake.url,
				clientId: fake.oauthClient.clientId,
				clientSecret: 'wrong',
				code,
				redirectUri,
			}),
		).rejects.toBeInstanceOf(ConnectorError)
	})
})

describe('Notion connector with minute timestamps (as Notion keeps them)', () => {
	it('finds a lost create even when `since` falls later in the same minute', async () => {
		const minuteFake = await createFakeNotion({ timestampPrecisionMs: 60_000 })
		try {
			const source = minuteFake.addDataSource({ title: 'Leads', properties: { Name: { title: {} } } })
			const connector = createNotionConnector({
				client: createNotionClient({ token: minuteFake.token, baseUrl: minuteFake.url }),
				queue: createNotionQueue({ requestsPerSecond: 1000, burst: 1000 }),
				workspaceKey: minuteFake.workspace.id,
				readBlob: async () => null,
			})
			const database = await connector.getDatabase(String(source.id))
			const values = { title: 'Jane from the form' }
			minuteFake.setClock('2026-04-01T10:00:30.000Z')
			const created = await connector.createRow(database, values)
			// Notion says 10:00:00; a caller asking from 10:00:20 must still find it.
			expect(created.createdTime).toBe('2026-04-01T10:00:00.000Z')
			const found = await connector.findCreatedRow(database, '2026-04-01T10:00:20.000Z', values)
			expect(found?.externalId).toBe(created.externalId)
			const edited = await collect(connector.queryRows(database, { editedSince: '2026-04-01T10:00:20.000Z' }))
			expect(edited.map((row) => row.externalId)).toEqual([created.externalId])
		} finally {
			await minuteFake.close()
		}
	})
})
