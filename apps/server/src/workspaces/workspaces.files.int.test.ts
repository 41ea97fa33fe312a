import type { FileValue } from '@blocksmith/contracts/workspaces.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { createNotionClient, createNotionConnector } from './notion/notion.connector.ts'
import { createNotionQueue } from './notion/notion.queue.ts'

// Opening a file of a mirrored Notion row: the mirror keeps a Notion-hosted URL with its expiry;
// once it has expired, the server reads the row again from Notion and hands out (and keeps) the
// fresh URL. Another organization's rows read as 404.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>
const HOUR = 3_600_000

beforeAll(async () => {
	fake = await createFakeNotion()
	fake.seed()
	t = await createTestApp({
		LOG_LEVEL: 'silent',
		NOTION_API_BASE_URL: fake.url,
		NOTION_REQUESTS_PER_SECOND: '40',
		SYNC_INTERVAL_SECONDS: '3600',
	})
})
afterAll(async () => {
	fake.useRealClock()
	await t?.close()
	await fake?.close()
})

type Row = { id: string; title: string; values: Record<string, unknown> }

describe('files of mirrored rows', () => {
	test('an expired Notion-hosted URL is renewed from Notion when the file is opened, and the mirror keeps the new one', async () => {
		// The row was mirrored two hours ago: its file's URL expired an hour ago.
		fake.setClock(Date.now() - 2 * HOUR)
		const elsewhere = createNotionConnector({
			client: createNotionClient({ token: fake.token, baseUrl: fake.url, timeoutMs: 10_000 }),
			queue: createNotionQueue({ requestsPerSecond: 1000, burst: 1000 }),
			workspaceKey: fake.workspace.id,
			readBlob: async () => ({
				name: 'scan.pdf',
				contentType: 'application/pdf',
				bytes: new TextEncoder().encode('scan'),
			}),
		})
		const invoicesExternal = (await elsewhere.listDatabases()).find((database) => database.name === 'Invoices')
		const attachments = invoicesExternal?.properties.find((property) => property.name === 'Attachments')?.id ?? ''
		const titleId = invoicesExternal?.properties.find((property) => property.type === 'title')?.id ?? ''
		await elsewhere.createRow(invoicesExternal as NonNullable<typeof invoicesExternal>, {
			[titleId]: 'Scanned invoice',
			[attachments]: [{ name: 'scan.pdf', url: null, blobId: 'blob-scan' }],
		})

		const owner = await t.signUp()
		const connected = await t.request('POST', '/dashboard/workspaces', {
			token: owner.token,
			json: { tool: 'notion', method: 'token', token: fake.token },
		})
		const workspaceId = connected.body.workspace.id as string
		const list = await until(
			'the first sync',
			async () =>
				(await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token: owner.token }))
					.body as { id: string; name: string; sync: { lastSyncedAt: string | null } }[],
			(databases) => databases.length >= 4 && databases.every((d) => d.sync.lastSyncedAt !== null),
		)
		fake.useRealClock()
		const invoices = list.find((database) => database.name === 'Invoices')
		const rowsPath = `/dashboard/notion/databases/${invoices?.id}/rows?limit=200`
		const mirrored = ((await t.request('GET', rowsPath, { token: owner.token })).body.rows as Row[]).find(
			(row) => row.title === 'Scanned invoice',
		)
		const [stored] = (mirrored?.values[attachments] ?? []) as FileValue[]
		expect(Date.parse(stored?.expiresAt ?? '')).toBeLessThan(Date.now())

		const filePath = `/dashboard/notion/databases/${invoices?.id}/rows/${mirrored?.id}/files/${encodeURIComponent(attachments)}/0`
		const opened = await t.request('GET', filePath, { token: owner.token })
		expect(opened.status, JSON.stringify(opened.body)).toBe(200)
		expect(opened.body).toMatchObject({ name: 'scan.pdf', url: expect.stringMatching(/^http/) })
		expect(opened.body.url).not.toBe(stored?.url)
		expect(Date.parse(opened.body.expiresAt)).toBeGreaterThan(Date.now() + 30 * 60_000)
		expect(await (await fetch(opened.body.url)).text()).toBe('scan')
		// Kept: the next visitor gets it from the mirror.
		const again = ((await t.request('GET', rowsPath, { token: owner.token })).body.rows as Row[]).find(
			(row) => row.id === mirrored?.id,
		)
		expect(((again?.values[attachments] ?? []) as FileValue[])[0]?.url).toBe(opened.body.url)
		fake.resetRequests()
		expect((await t.request('GET', filePath, { token: owner.token })).body.url).toBe(opened.body.url)
		expect(fake.requests()).toHaveLength(0)

		// Out of range, not a files property, bad index, another organization: never a 500.
		expect((await t.request('GET', filePath.replace(/\/0$/, '/5'), { token: owner.token })).status).toBe(404)
		expect(
			(
				await t.request('GET', filePath.replace(encodeURIComponent(attachments), encodeURIComponent(titleId)), {
					token: owner.token,
				})
			).status,
		).toBe(404)
		const badIndex = await t.request('GET', filePath.replace(/\/0$/, '/first'), { token: owner.token })
		expect(badIndex.status).toBe(400)
		expect(badIndex.body.errors[0].field).toBe('index')
		const stranger = await t.signUp()
		expect((await t.request('GET', filePath, { token: stranger.token })).status).toBe(404)
	})
})
