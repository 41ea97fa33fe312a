import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFakeNotion, type FakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import type { DemoWorkspace } from '#src/test/fake-notion/seed.ts'
import { ConnectorError, type ExternalDatabase, type ExternalRow } from '#src/workspaces/connector.ts'
import { createNotionClient, createNotionConnector } from './notion.connector.ts'
import { createNotionQueue } from './notion.queue.ts'

// Two places where a page object is not the whole truth, through the real SDK against the fake:
// rollups over more than 25 relations (Notion computes them from the first 25, silently), and
// the workspace's upload limit (`users/me` → bot.workspace_limits).

let fake: FakeNotion
let demo: DemoWorkspace
const blobs = new Map<string, { name: string; contentType: string; bytes: Uint8Array }>()

function connectorFor() {
	return createNotionConnector({
		client: createNotionClient({ token: fake.token, baseUrl: fake.url, timeoutMs: 10_000 }),
		queue: createNotionQueue({ requestsPerSecond: 1000, burst: 1000, maxWaitMs: 30_000, retryDelayMs: 20 }),
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

const title = (content: string) => ({ title: [{ text: { content } }] })

beforeAll(async () => {
	fake = await createFakeNotion()
	demo = fake.seed()
})

afterAll(async () => {
	await fake?.close()
})

describe('rollups over more than 25 relations', () => {
	let entries: string[]
	let invoiceId: string
	let originalsId: string

	beforeAll(() => {
		entries = fake.addPages(demo.dataSources.timeEntries, 30, {
			properties: (index) => ({
				Name: title(`Bulk ${index}`),
				Hours: { number: index + 1 },
				Date: { date: { start: `2026-01-${String(index + 1).padStart(2, '0')}` } },
			}),
			spacingMs: 60_000,
		})
		const relation = { relation: entries.map((id) => ({ id })) }
		invoiceId = String(
			fake.addPage(demo.dataSources.invoices, { Name: title('Big invoice'), 'Time entries': relation }).id,
		)
		const originals = fake.addDataSource({
			title: 'Original rollups',
			properties: {
				Entries: {
					relation: { data_source_id: demo.dataSources.timeEntries, type: 'single_property', single_property: {} },
				},
				Hours: {
					rollup: { relation_property_name: 'Entries', rollup_property_name: 'Hours', function: 'show_original' },
				},
				Latest: {
					rollup: { relation_property_name: 'Entries', rollup_property_name: 'Date', function: 'latest_date' },
				},
			},
		})
		originalsId = String(originals.id)
		fake.addPage(originalsId, { Name: title('Holder'), Entries: relation })
	})

	it('reads a sum over 30 related rows whole, never the 25 of the page object', async () => {
		const connector = connectorFor()
		const invoices = await connector.getDatabase(demo.dataSources.invoices)
		// 1 + 2 + … + 30; the page object says 1 + … + 25 = 325 and nothing else.
		const whole = 465
		expect(fake.getPage(invoiceId)).toMatchObject({ properties: { Hours: { rollup: { number: 325 } } } })
		const row = await connector.getRow(invoices, invoiceId)
		expect(row?.values[propertyId(invoices, 'Hours')]).toBe(whole)
		const synced = (await collect(connector.queryRows(invoices, {}))).find(
			(candidate) => candidate.externalId === invoiceId,
		)
		expect(synced?.values[propertyId(invoices, 'Hours')]).toBe(whole)
		// Rows with at most 25 relations keep the page object's value, with no extra calls.
		const small = (await collect(connector.queryRows(invoices, {}))).filter(
			(candidate) => candidate.externalId !== invoiceId,
		)
		expect(small.every((candidate) => typeof candidate.values[propertyId(invoices, 'Hours')] === 'number')).toBe(true)
		fake.resetRequests()
		await connector.getRow(invoices, demo.pages.invoices[0] ?? '')
		expect(fake.requestCount('GET', '/v1/pages/:id/properties/:id')).toBe(0)
	})

	it('reads "show original" and date rollups over every relation', async () => {
		const connector = connectorFor()
		const database = await connector.getDatabase(originalsId)
		const [row] = (await collect(connector.queryRows(database, {}))) as ExternalRow[]
		expect(row?.values[propertyId(database, 'Hours')]).toEqual(Array.from({ length: 30 }, (_, index) => index + 1))
		// The page object's latest date is that of the 25th entry.
		expect(row?.values[propertyId(database, 'Latest')]).toEqual({ start: '2026-01-30', end: null, timeZone: null })
	})
})

describe('the workspace upload limit', () => {
	it('refuses a file larger than workspace_limits allows before uploading anything, and takes one that fits', async () => {
		const connector = connectorFor()
		const invoices = await connector.getDatabase(demo.dataSources.invoices)
		const attachments = propertyId(invoices, 'Attachments')
		fake.setMaxFileUploadBytes(1024 * 1024)
		try {
			blobs.set('blob-big', {
				name: 'scan.pdf',
				contentType: 'application/pdf',
				bytes: new Uint8Array(1024 * 1024 + 1),
			})
			blobs.set('blob-small', { name: 'note.txt', contentType: 'text/plain', bytes: new TextEncoder().encode('fits') })
			fake.resetRequests()
			const refused = await connector
				.createRow(invoices, {
					title: 'Too big',
					[attachments]: [{ name: 'scan.pdf', url: null, blobId: 'blob-big' }],
				})
				.catch((error: unknown) => error)
			expect(refused).toBeInstanceOf(ConnectorError)
			expect(refused).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/1 MB/) })
			expect(fake.requestCount('POST', '/v1/file_uploads')).toBe(0)
			const created = await connector.createRow(invoices, {
				title: 'Fits',
				[attachments]: [{ name: 'note.txt', url: null, blobId: 'blob-small' }],
			})
			expect(created.values[attachments]).toMatchObject([{ name: 'note.txt' }])
		} finally {
			fake.setMaxFileUploadBytes(5 * 1024 * 1024)
		}
	})
})
