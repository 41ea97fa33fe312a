import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Charts of a Notion database, as mirrored from the fake Notion server through the official
// SDK: a multi-select counted once per tag, a relation past Notion's 25 references per page
// counted once per related row, and sums, all compared with the fake's own pages.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>
let demo: ReturnType<typeof fake.seed>
/** Time entries one invoice links to: more than the 25 a page object carries. */
const linkedEntries = 30

beforeAll(async () => {
	fake = await createFakeNotion()
	demo = fake.seed()
	const invoices = fake.state.getDataSource(demo.dataSources.invoices)
	fake.state.createPage({
		dataSource: invoices,
		properties: {
			Name: { title: [{ text: { content: 'INV-2026-BIG' } }] },
			'Time entries': { relation: demo.pages.timeEntries.slice(0, linkedEntries).map((id) => ({ id })) },
			Amount: { number: 99.95 },
			Status: { status: { name: 'Sent' } },
		},
	})
	t = await createTestApp({ LOG_LEVEL: 'error', NOTION_API_BASE_URL: fake.url, NOTION_REQUESTS_PER_SECOND: '40' })
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Database = {
	id: string
	name: string
	properties: { id: string; name: string; type: string }[]
	sync: { state: string; lastSyncedAt: string | null }
}
type Figures = {
	categories: { key: string; label: string }[]
	series: { name: string; values: (number | null)[] }[]
	problems: unknown[]
}

async function connected() {
	const account = await t.signUp()
	const response = await t.request('POST', '/dashboard/workspaces', {
		token: account.token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	expect(response.status).toBe(201)
	const workspaceId = response.body.workspace.id as string
	const deadline = Date.now() + 90_000
	for (;;) {
		const list = await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, {
			token: account.token,
		})
		const databases = list.body as Database[]
		if (databases.length >= 4 && databases.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt)) {
			return { token: account.token, byName: Object.fromEntries(databases.map((d) => [d.name, d])) }
		}
		if (Date.now() > deadline) {
			throw new Error('the first sync did not finish')
		}
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
}

/** The fake's own values of a property over a data source's pages, in the API's response shape. */
function fakeValues(dataSourceId: string, propertyName: string): unknown[] {
	const dataSource = fake.state.getDataSource(dataSourceId)
	const property = fake.state.findProperty(dataSource, propertyName)
	if (!property) {
		throw new Error(`no property ${propertyName}`)
	}
	return [...fake.state.pages.values()]
		.filter((page) => page.dataSourceId === dataSourceId && !page.inTrash)
		.map((page) => fake.state.propertyValue(page, property, 0))
}

function countsBy(values: string[][]): Map<string, number> {
	const counts = new Map<string, number>()
	for (const keys of values) {
		for (const key of keys) {
			counts.set(key, (counts.get(key) ?? 0) + 1)
		}
	}
	return counts
}

async function figuresOf(token: string, database: Database, config: unknown): Promise<Figures> {
	const response = await t.request('POST', '/dashboard/notion_charts/preview', {
		token,
		json: { databaseId: database.id, config },
	})
	expect(response.status).toBe(200)
	expect(response.body.figures.problems).toEqual([])
	return response.body.figures
}

const idOf = (database: Database, name: string) => database.properties.find((p) => p.name === name)?.id ?? ''

describe('charts of a Notion database', () => {
	test('a multi-select counts each row once per tag, as the fake holds them', async () => {
		const { token, byName } = await connected()
		const clients = byName.Clients as Database
		const figures = await figuresOf(token, clients, {
			x: { property: idOf(clients, 'Tags'), hideEmpty: true },
			series: [{ id: 'n', aggregation: 'count' }],
		})
		const expected = countsBy(
			fakeValues(demo.dataSources.clients, 'Tags').map((tags) => (tags as { name: string }[]).map((tag) => tag.name)),
		)
		const charted = new Map(
			figures.categories.map((category, index) => [category.label, figures.series[0]?.values[index]]),
		)
		expect(charted).toEqual(expected)
	})

	test('a relation past 25 references counts every related row, labelled by its title', async () => {
		const { token, byName } = await connected()
		const invoices = byName.Invoices as Database
		const entries = byName['Time entries'] as Database
		const figures = await figuresOf(token, invoices, {
			x: { property: idOf(invoices, 'Time entries'), hideEmpty: true, limit: 1000 },
			series: [{ id: 'n', aggregation: 'count' }],
		})
		const relations = fakeValues(demo.dataSources.invoices, 'Time entries') as { id: string }[][]
		expect(Math.max(...relations.map((related) => related.length))).toBe(linkedEntries)
		const expected = countsBy(relations.map((related) => related.map((entry) => entry.id)))
		// Keys are the related pages' ids; labels their titles, read from the mirror of Time entries.
		const charted = new Map(
			figures.categories.map((category, index) => [category.key.replaceAll('-', ''), figures.series[0]?.values[index]]),
		)
		expect(charted).toEqual(new Map([...expected].map(([id, count]) => [id.replaceAll('-', ''), count])))
		const rows = await t.request('GET', `/dashboard/notion/databases/${entries.id}/rows?limit=200`, { token })
		const titles = new Set((rows.body.rows as { title: string }[]).map((row) => row.title))
		expect(figures.categories.every((category) => titles.has(category.label))).toBe(true)
	})

	test('sums of a number by status match the fake to the cent', async () => {
		const { token, byName } = await connected()
		const invoices = byName.Invoices as Database
		const figures = await figuresOf(token, invoices, {
			x: { property: idOf(invoices, 'Status') },
			series: [{ id: 'total', aggregation: 'sum', property: idOf(invoices, 'Amount') }],
		})
		const statuses = fakeValues(demo.dataSources.invoices, 'Status') as ({ name: string } | null)[]
		const amounts = fakeValues(demo.dataSources.invoices, 'Amount') as (number | null)[]
		const expected = new Map<string, number>()
		statuses.forEach((status, index) => {
			const key = status?.name ?? '(Empty)'
			expected.set(key, Math.round(((expected.get(key) ?? 0) + (amounts[index] ?? 0)) * 100) / 100)
		})
		const charted = new Map(
			figures.categories
				.map((category, index) => [category.label, figures.series[0]?.values[index] ?? 0] as const)
				.filter(([, value]) => value !== 0),
		)
		expect(charted).toEqual(new Map([...expected].filter(([, value]) => value !== 0)))
	})
})
