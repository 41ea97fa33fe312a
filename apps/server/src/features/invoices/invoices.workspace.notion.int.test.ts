import { decimalToMinor } from '@blocksmith/contracts/invoice-currencies.ts'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { deliveredRow, invoiceProfile, mapInvoices } from '#src/test/invoices-workspace.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'

// Invoices ↔ Notion, through the official SDK pointed at the fake Notion: the seeded Invoices
// data source mapped as suggested, finalization creating a page with the properties as Notion
// holds them (title, relation, number, dates, status), the rounding table's totals read back
// from the pages, payments writing "Paid", and a status changed in Notion put back by the sync.

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
		// Three attempts: a create during an outage is given up on within a second.
		WRITE_MAX_ATTEMPTS: '3',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Database = { id: string; name: string; sync: { state: string; lastSyncedAt: string | null } }
type NotionProperty = {
	title?: { plain_text: string }[]
	number?: number | null
	relation?: { id: string }[]
	date?: { start: string } | null
	status?: { name: string } | null
	checkbox?: boolean
}

async function notion(method: string, path: string, body?: unknown) {
	const response = await fetch(`${fake.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${fake.token}`,
			'notion-version': '2025-09-03',
			'content-type': 'application/json',
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	})
	expect(response.status).toBe(200)
	return (await response.json()) as { properties: Record<string, NotionProperty> }
}

const page = async (id: string) => (await notion('GET', `/v1/pages/${id}`)).properties

/** A new account with the fake Notion connected and synced, a profile, and the Invoices mapped as suggested. */
async function connected() {
	const { token } = await t.signUp()
	const added = await t.request('POST', '/dashboard/workspaces', {
		token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	expect(added.status).toBe(201)
	const workspaceId = added.body.workspace.id as string
	const databases = await until(
		'the first sync',
		async () =>
			(await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token })).body as Database[],
		(list) => list.length >= 4 && list.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt !== null),
	)
	const profile = await invoiceProfile(t, token, {
		rates: [
			{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true },
			{ name: 'VAT 7 %', categoryCode: 'S', rate: '7' },
			{ name: 'Exempt', categoryCode: 'E', rate: '0', exemptionReason: 'Exempt' },
			{ name: 'VAT 10 %', categoryCode: 'S', rate: '10' },
		],
	})
	const { mapping } = await mapInvoices(t, token, 'notion')
	const clients = databases.find((database) => database.name === 'Clients') as Database
	const invoices = databases.find((database) => database.name === 'Invoices') as Database
	const [client] = await t.db
		.select()
		.from(workspaceRows)
		.where(and(eq(workspaceRows.databaseId, clients.id), eq(workspaceRows.externalId, demo.pages.clients[0] as string)))
	return { token, ...profile, mapping, clients, invoices, client: client as { id: string; externalId: string } }
}

type Account = Awaited<ReturnType<typeof connected>>

async function finalized(a: Account, json: Record<string, unknown>) {
	const draft = await t.request('POST', '/dashboard/notion_invoice/invoices', {
		token: a.token,
		json: {
			clientRow: { databaseId: a.clients.id, rowId: a.client.id, mapping: a.mapping.clientMapping },
			...json,
		},
	})
	expect(draft.status, JSON.stringify(draft.body)).toBe(201)
	const done = await t.request('POST', `/dashboard/notion_invoice/invoices/${draft.body.id}/finalize`, {
		token: a.token,
	})
	expect(done.status, JSON.stringify(done.body)).toBe(200)
	return done.body as { id: string; number: string; total: { minor: number; decimal: string }; currency: string }
}

const line = (taxRateId: string, quantity: string, unitPrice: string, extra: Record<string, unknown> = {}) => ({
	description: 'Work',
	quantity,
	unitPrice,
	taxRateId,
	...extra,
})

describe('invoices on Notion', () => {
	test('finalize creates the page; payments write "Paid"; a status changed in Notion is put back by the sync', async () => {
		const a = await connected()
		expect(a.mapping).toMatchObject({
			statusOptions: { draft: 'Draft', finalized: 'Sent', sent: 'Sent', paid: 'Paid', overdue: null },
		})
		const invoice = await finalized(a, {
			issueDate: '2026-11-02',
			dueDate: '2026-12-02',
			lines: [line(a.rateIds[0] as string, '1', '1000.00')],
		})
		const created = await deliveredRow(t, invoice.id, 1)
		const properties = await page(created.externalId)
		expect(properties.Name?.title?.map((part) => part.plain_text).join('')).toBe(invoice.number)
		expect(properties.Client?.relation).toEqual([{ id: a.client.externalId }])
		expect(properties.Amount?.number).toBe(1190)
		expect(properties.Issued?.date?.start).toBe('2026-11-02')
		expect(properties.Due?.date?.start).toBe('2026-12-02')
		expect(properties.Status?.status?.name).toBe('Sent')
		expect(properties.Paid?.checkbox).toBe(false)
		// The mirror holds the page as delivered.
		expect(created.row?.title).toBe(invoice.number)

		const paid = await t.request('POST', `/dashboard/notion_invoice/invoices/${invoice.id}/payments`, {
			token: a.token,
			json: { date: '2026-11-20', amount: '1190.00', method: 'bank_transfer' },
		})
		expect(paid.status).toBe(201)
		await deliveredRow(t, invoice.id, 2)
		const settled = await page(created.externalId)
		expect(settled.Status?.status?.name).toBe('Paid')
		expect(settled.Paid?.checkbox).toBe(true)

		// Someone sets it back to "Sent" in Notion; once mirrored, the sync writes "Paid" again.
		await notion('PATCH', `/v1/pages/${created.externalId}`, {
			properties: { Status: { status: { name: 'Sent' } }, Paid: { checkbox: false } },
		})
		const synced = await t.request('POST', `/dashboard/notion/databases/${a.invoices.id}/sync`, { token: a.token })
		expect(synced.status).toBeLessThan(300)
		await until(
			'the change mirrored',
			async () =>
				(
					await t.db
						.select()
						.from(workspaceRows)
						.where(and(eq(workspaceRows.databaseId, a.invoices.id), eq(workspaceRows.externalId, created.externalId)))
				)[0]?.values,
			(values) => Object.values(values ?? {}).includes('Sent'),
		)
		const sync = await t.request('POST', '/dashboard/notion/sync_invoices', { token: a.token })
		expect(sync.status, JSON.stringify(sync.body)).toBe(200)
		expect(sync.body).toMatchObject({ pushed: 1, failed: 0 })
		expect(sync.body.pushes).toEqual([{ number: invoice.number, from: 'Sent', to: 'Paid', error: null }])
		await deliveredRow(t, invoice.id, 3)
		const restored = await page(created.externalId)
		expect(restored.Status?.status?.name).toBe('Paid')
		expect(restored.Paid?.checkbox).toBe(true)
	}, 120_000)

	test('the rounding table: each page’s Amount is the stored total', async () => {
		const a = await connected()
		const [standard, reduced, exempt, ten] = a.rateIds as [string, string, string, string]
		const cases = [
			{ currency: 'EUR', lines: [line(standard, '1', '1000.00')], total: '1190.00' },
			{ currency: 'EUR', lines: Array.from({ length: 100 }, () => line(standard, '1', '0.01')), total: '1.19' },
			{
				currency: 'EUR',
				lines: [line(standard, '3', '33.33'), line(reduced, '1.5', '19.99'), line(exempt, '1', '10')],
				total: '161.08',
			},
			{
				currency: 'EUR',
				lines: [line(standard, '2', '49.99', { discount: { kind: 'percent', percent: '100' } })],
				total: '0.00',
			},
			{ currency: 'JPY', lines: [line(ten, '3', '333')], total: '1099' },
			{ currency: 'BHD', lines: [line(ten, '1', '1.255')], total: '1.381' },
		]
		for (const one of cases) {
			const invoice = await finalized(a, { currency: one.currency, lines: one.lines })
			expect(invoice.total.decimal).toBe(one.total)
			const { externalId } = await deliveredRow(t, invoice.id, 1)
			const amount = (await page(externalId)).Amount?.number
			const parsed = decimalToMinor(String(amount), one.currency)
			expect(parsed.ok && parsed.minor, `${one.currency} ${one.total}`).toBe(BigInt(invoice.total.minor))
		}
	}, 120_000)

	test('a page Notion never got (its create given up on) is created by the next change, with every value', async () => {
		const a = await connected()
		const writesOf = (id: string) =>
			t.db
				.select()
				.from(workspaceWrites)
				.where(eq(workspaceWrites.source, `invoice:${id}`))
				.orderBy(workspaceWrites.createdAt)
		fake.setOutage(true)
		let invoice: Awaited<ReturnType<typeof finalized>>
		try {
			invoice = await finalized(a, { issueDate: '2026-11-03', lines: [line(a.rateIds[0] as string, '1', '100')] })
			await until(
				'the create given up on',
				() => writesOf(invoice.id),
				(list) => list.length === 1 && list[0]?.state === 'dead',
			)
		} finally {
			fake.setOutage(false)
		}
		const paid = await t.request('POST', `/dashboard/notion_invoice/invoices/${invoice.id}/payments`, {
			token: a.token,
			json: { date: '2026-11-21', amount: '119.00', method: 'card' },
		})
		expect(paid.status).toBe(201)
		const writes = await until(
			'a new create delivered',
			() => writesOf(invoice.id),
			(list) => list.length === 2 && list[1]?.state === 'delivered',
		)
		expect(writes.map((write) => [write.kind, write.afterWriteId])).toEqual([
			['create', null],
			['create', null],
		])
		const properties = await page(writes[1]?.externalRowId as string)
		expect(properties.Name?.title?.map((part) => part.plain_text).join('')).toBe(invoice.number)
		expect(properties.Amount?.number).toBe(119)
		expect(properties.Issued?.date?.start).toBe('2026-11-03')
		expect(properties.Status?.status?.name).toBe('Paid')
		expect(properties.Paid?.checkbox).toBe(true)
	}, 120_000)
})
