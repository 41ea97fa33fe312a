import type { FileValue } from '@blocksmith/contracts/workspaces.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import type { ExternalDatabase } from '#src/workspaces/connector.ts'
import { createNotionClient, createNotionConnector } from './notion.connector.ts'
import { createNotionQueue } from './notion.queue.ts'

// Files Notion hosts, through the real SDK against the fake Notion: their URLs expire after an
// hour, so a row read from Notion keeps each with its expiry, and writing the row back keeps the
// file Notion's own (never an external link to a URL that stops working), renewing a URL that
// has expired from the page itself.

type Fake = Awaited<ReturnType<typeof createFakeNotion>>

let fake: Fake
let invoices: ExternalDatabase
const blobs = new Map<string, { name: string; contentType: string; bytes: Uint8Array }>()
const HOUR = 3_600_000

function connector() {
	return createNotionConnector({
		client: createNotionClient({ token: fake.token, baseUrl: fake.url, timeoutMs: 10_000 }),
		queue: createNotionQueue({ requestsPerSecond: 1000, burst: 1000, retryDelayMs: 20 }),
		workspaceKey: fake.workspace.id,
		readBlob: async (blobId) => blobs.get(blobId) ?? null,
	})
}

const idOf = (name: string) => invoices.properties.find((property) => property.name === name)?.id ?? ''

/** The files of a page as the fake stores them: Notion-hosted (`file`) or `external`. */
function storedFiles(pageId: string): { name: string; type: string }[] {
	const page = fake.getPage(pageId) as { properties: Record<string, { files?: { name: string; type: string }[] }> }
	return page.properties.Attachments?.files ?? []
}

beforeAll(async () => {
	fake = await createFakeNotion()
	const demo = fake.seed()
	const databases = await connector().listDatabases()
	invoices = databases.find((database) => database.externalId === demo.dataSources.invoices) as ExternalDatabase
	blobs.set('blob-receipt', {
		name: 'receipt.pdf',
		contentType: 'application/pdf',
		bytes: new TextEncoder().encode('%PDF-1.4 receipt'),
	})
})

afterAll(async () => {
	fake.useRealClock()
	await fake?.close()
})

describe('Notion-hosted files', () => {
	it('are read with their expiry, and stay Notion’s when the row is written back, even after the URL expired', async () => {
		const notion = connector()
		// Read two hours ago: the URL the mirror holds expired an hour ago.
		fake.setClock(Date.now() - 2 * HOUR)
		const created = await notion.createRow(invoices, {
			[idOf('Name')]: 'Hosted receipt',
			[idOf('Attachments')]: [{ name: 'receipt.pdf', url: null, blobId: 'blob-receipt' }],
		})
		fake.useRealClock()
		const [hosted] = created.values[idOf('Attachments')] as FileValue[]
		expect(hosted?.expiresAt).toBeDefined()
		expect(Date.parse(hosted?.expiresAt ?? '')).toBeLessThan(Date.now())

		// Someone adds a link on our side and the row goes back with the file it was read with.
		fake.resetRequests()
		const updated = await notion.updateRow(invoices, created.externalId, {
			[idOf('Attachments')]: [hosted as FileValue, { name: 'terms', url: 'https://example.com/terms', blobId: null }],
		})
		expect(storedFiles(created.externalId).map((file) => [file.name, file.type])).toEqual([
			['receipt.pdf', 'file'],
			['terms', 'external'],
		])
		// The expired URL was renewed from the page before the write.
		expect(fake.requestCount('GET', '/v1/pages/:id')).toBeGreaterThanOrEqual(1)
		const [again] = updated.values[idOf('Attachments')] as FileValue[]
		expect(Date.parse(again?.expiresAt ?? '')).toBeGreaterThan(Date.now())
		const served = await fetch(again?.url ?? '')
		expect(served.status).toBe(200)
		expect(await served.text()).toBe('%PDF-1.4 receipt')
	})

	it('a URL still current is written back as it is, without reading the page first', async () => {
		const notion = connector()
		const created = await notion.createRow(invoices, {
			[idOf('Name')]: 'Fresh receipt',
			[idOf('Attachments')]: [{ name: 'receipt.pdf', url: null, blobId: 'blob-receipt' }],
		})
		const files = created.values[idOf('Attachments')] as FileValue[]
		fake.resetRequests()
		await notion.updateRow(invoices, created.externalId, {
			[idOf('Name')]: 'Fresh receipt, renamed',
			[idOf('Attachments')]: files,
		})
		expect(fake.requestCount('GET', '/v1/pages/:id')).toBe(0)
		expect(storedFiles(created.externalId).map((file) => file.type)).toEqual(['file'])
	})
})
