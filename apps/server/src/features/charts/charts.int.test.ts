import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { chartFigures } from './charts.schema.ts'

// The charts module end to end on the real database: building on the sample workspace,
// settings checked against the database, publishing, the public API, page and files, the
// figures cache and its invalidation by row changes, roles and tenancy.

const dist = mkdtempSync(path.join(os.tmpdir(), 'bs-charts-dist-'))
let t: TestApp

beforeAll(async () => {
	mkdirSync(dist, { recursive: true })
	const head = '<meta charset="utf-8" /><title>Default title</title>'
	writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><head>${head}</head><body></body></html>`)
	writeFileSync(
		path.join(dist, 'chart.html'),
		`<!doctype html><html><head>${head}</head><body><div id="root"></div></body></html>`,
	)
	t = await createTestApp({ WEB_DIST_DIR: dist })
})
afterAll(async () => {
	await t.close()
	rmSync(dist, { recursive: true, force: true })
})

type Property = { id: string; name: string; type: string }
type Database = { id: string; name: string; properties: Property[] }
type Figures = {
	categories: { key: string; label: string }[]
	series: { key: string; name: string; group: string | null; values: (number | null)[] }[]
	problems: { field: string; message: string }[]
	rowCount: number
	computedAt: string
}

async function sampleDatabases(token: string): Promise<Record<string, Database>> {
	const created = await t.request('POST', '/dashboard/workspaces/sample', { token })
	expect(created.status).toBe(201)
	const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${created.body.workspace.id}`, { token })
	return Object.fromEntries((list.body as Database[]).map((database) => [database.name, database]))
}

const propertyId = (database: Database, name: string) => {
	const property = database.properties.find((candidate) => candidate.name === name)
	if (!property) {
		throw new Error(`no property ${name}`)
	}
	return property.id
}

/** Sum of invoice amounts by month of issue, stacked by status: the chart of the journey. */
function amountsByMonth(invoices: Database) {
	return {
		type: 'bar',
		x: { property: propertyId(invoices, 'Issued'), bucket: 'month' },
		series: [{ id: 'amount', aggregation: 'sum', property: propertyId(invoices, 'Amount') }],
		breakdown: { property: propertyId(invoices, 'Status') },
		display: { stacking: 'stacked' },
	}
}

describe('building charts', () => {
	test('a new chart counts rows by the first select, and settings are checked against the database', async () => {
		const owner = await t.signUp()
		const { Invoices: invoices } = (await sampleDatabases(owner.token)) as { Invoices: Database }

		const created = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: { name: 'Invoices', databaseId: invoices.id },
		})
		expect(created.status).toBe(201)
		expect(created.body).toMatchObject({ name: 'Invoices', tool: 'local', databaseId: invoices.id, published: false })
		expect(created.body.config.x.property).toBe(propertyId(invoices, 'Status'))
		expect(created.body.config.series).toEqual([expect.objectContaining({ aggregation: 'count' })])

		const saved = await t.request('PATCH', `/dashboard/local_charts/charts/${created.body.id}`, {
			token: owner.token,
			json: { config: amountsByMonth(invoices) },
		})
		expect(saved.status).toBe(200)
		const rendered = await t.request('GET', `/dashboard/local_charts/charts/${created.body.id}/render?width=640`, {
			token: owner.token,
		})
		expect(rendered.status).toBe(200)
		const figures = rendered.body.figures as Figures
		expect(figures.problems).toEqual([])
		expect(figures.categories.length).toBeGreaterThan(0)
		expect(figures.series.length).toBeGreaterThan(1)
		expect(rendered.body.svg).toMatch(/^<svg/)

		// The figures add up to the rows: every invoice's amount lands in exactly one bar.
		const rows = await t.request('GET', `/dashboard/local/databases/${invoices.id}/rows?limit=200`, {
			token: owner.token,
		})
		const amountId = propertyId(invoices, 'Amount')
		const total = (rows.body.rows as { values: Record<string, unknown> }[]).reduce(
			(sum, row) => sum + (typeof row.values[amountId] === 'number' ? (row.values[amountId] as number) : 0),
			0,
		)
		const charted = figures.series.flatMap((series) => series.values).reduce<number>((sum, v) => sum + (v ?? 0), 0)
		expect(charted).toBeCloseTo(total, 6)

		const list = await t.request('GET', '/dashboard/local_charts/charts', { token: owner.token })
		expect(list.body.map((chart: { id: string }) => chart.id)).toEqual([created.body.id])
		const notion = await t.request('GET', '/dashboard/notion_charts/charts', { token: owner.token })
		expect(notion.body).toEqual([])
		// A chart is reached only through its own tool's path.
		const wrongTool = await t.request('GET', `/dashboard/notion_charts/charts/${created.body.id}`, {
			token: owner.token,
		})
		expect(wrongTool.status).toBe(404)
	})

	test('bad settings are 400s that name the field', async () => {
		const owner = await t.signUp()
		const { Invoices: invoices } = (await sampleDatabases(owner.token)) as { Invoices: Database }
		const created = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: { name: 'Invoices', databaseId: invoices.id },
		})
		const patch = (config: unknown) =>
			t.request('PATCH', `/dashboard/local_charts/charts/${created.body.id}`, { token: owner.token, json: { config } })
		const fieldsOf = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((error) => error.field)

		const missing = await patch({ x: { property: 'no-such-property' } })
		expect(missing.status).toBe(400)
		expect(fieldsOf(missing.body)).toContain('config.x.property')

		const sumOfText = await patch({
			x: { property: propertyId(invoices, 'Status') },
			series: [{ id: 's', aggregation: 'sum', property: propertyId(invoices, 'Number') }],
		})
		expect(sumOfText.status).toBe(400)
		expect(fieldsOf(sumOfText.body)).toContain('config.series.0.property')

		const badType = await patch({ type: 'radar' })
		expect(badType.status).toBe(400)
		expect(fieldsOf(badType.body)).toContain('config.type')

		const badZone = await patch({ x: { property: propertyId(invoices, 'Status') }, timeZone: 'Mars/Olympus' })
		expect(badZone.status).toBe(400)
		expect(fieldsOf(badZone.body)).toContain('config.timeZone')

		const noDatabase = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: { name: 'Nothing', databaseId: 'no-such-database' },
		})
		expect(noDatabase.status).toBe(400)
		expect(fieldsOf(noDatabase.body)).toContain('databaseId')

		const preview = await t.request('POST', '/dashboard/local_charts/preview', {
			token: owner.token,
			json: { databaseId: invoices.id, config: { x: { property: propertyId(invoices, 'Status') }, series: [] } },
		})
		expect(preview.status).toBe(400)
		expect(fieldsOf(preview.body)).toContain('config.series')
	})

	test('a property removed after saving is named in the figures, never a blank or a 500', async () => {
		const owner = await t.signUp()
		const workspace = await t.request('POST', '/dashboard/workspaces', {
			token: owner.token,
			json: { tool: 'local', name: 'Mine' },
		})
		const database = await t.request('POST', '/dashboard/local/databases', {
			token: owner.token,
			json: {
				workspaceId: workspace.body.workspace.id,
				name: 'Deals',
				properties: [
					{ name: 'Name', type: 'title' },
					{ name: 'Stage', type: 'select', options: [{ name: 'Won' }, { name: 'Lost' }] },
				],
			},
		})
		expect(database.status).toBe(201)
		const stage = propertyId(database.body, 'Stage')
		const chart = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: { name: 'Deals by stage', databaseId: database.body.id, config: { x: { property: stage } } },
		})
		expect(chart.status).toBe(201)
		const removed = await t.request('PATCH', `/dashboard/local/databases/${database.body.id}`, {
			token: owner.token,
			json: { properties: [{ id: propertyId(database.body, 'Name'), name: 'Name', type: 'title' }] },
		})
		expect(removed.status).toBe(200)
		const rendered = await t.request('GET', `/dashboard/local_charts/charts/${chart.body.id}/render`, {
			token: owner.token,
		})
		expect(rendered.status).toBe(200)
		expect(rendered.body.svg).toBe('')
		expect(rendered.body.figures.problems).toEqual([expect.objectContaining({ field: 'x.property' })])
		expect(rendered.body.figures.problems[0].message.length).toBeGreaterThan(20)
		// The list flags it too, so it is found before a reader of its embed finds it.
		const listed = await t.request('GET', '/dashboard/local_charts/charts', { token: owner.token })
		expect(listed.body[0].problems).toEqual([expect.objectContaining({ field: 'x.property' })])
	})
})

describe('publishing', () => {
	test('a published chart shows its figures and drawing to anyone, and nothing once unpublished or deleted', async () => {
		const owner = await t.signUp()
		const { Invoices: invoices } = (await sampleDatabases(owner.token)) as { Invoices: Database }
		const created = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: { name: 'Revenue <b>by</b> month', databaseId: invoices.id, config: amountsByMonth(invoices) },
		})
		const id = created.body.id as string
		// Private by default: nothing of it is public.
		for (const url of [`/api/local_charts/charts/${id}`, `/api/local_charts/charts/${id}/image.png`]) {
			expect((await t.request('GET', url)).status).toBe(404)
		}
		const page = await t.request('GET', `/charts/${id}`)
		expect(page.status).toBe(404)
		expect(page.body as string).not.toContain('<svg')

		await t.request('PATCH', `/dashboard/local_charts/charts/${id}`, { token: owner.token, json: { published: true } })
		const visible = await t.request('GET', `/api/local_charts/charts/${id}?theme=dark&width=500`)
		expect(visible.status).toBe(200)
		expect(Object.keys(visible.body).sort()).toEqual(
			['dataUpdatedAt', 'display', 'embed', 'figures', 'id', 'name', 'svg', 'type'].sort(),
		)
		expect(visible.body.svg).toMatch(/^<svg[^>]*width="500"/)
		expect(JSON.stringify(visible.body)).not.toContain('"values":{')
		// Only through its own tool.
		expect((await t.request('GET', `/api/notion_charts/charts/${id}`)).status).toBe(404)

		const png = await t.request('GET', `/api/local_charts/charts/${id}/image.png`)
		expect(png.status).toBe(200)
		expect(png.headers.get('content-type')).toBe('image/png')
		// Downloads of figures are the owner's choice, off by default.
		expect((await t.request('GET', `/api/local_charts/charts/${id}/figures.csv`)).status).toBe(404)
		await t.request('PATCH', `/dashboard/local_charts/charts/${id}`, {
			token: owner.token,
			json: { embed: { allowDownloads: true } },
		})
		const csv = await t.request('GET', `/api/local_charts/charts/${id}/figures.csv`)
		expect(csv.status).toBe(200)
		expect((csv.body as string).split('\n')[0]).toContain(',')

		const html = await t.request('GET', `/charts/${id}`)
		expect(html.status).toBe(200)
		expect(html.body as string).toContain('<svg')
		expect(html.body as string).not.toContain('Revenue <b>by</b> month')
		// Made for Notion's /embed block: it may be framed, unlike the rest of the app.
		expect(html.headers.get('content-security-policy')).toContain('frame-ancestors *')
		expect(html.headers.get('x-frame-options')).toBeNull()

		await t.request('PATCH', `/dashboard/local_charts/charts/${id}`, { token: owner.token, json: { published: false } })
		expect((await t.request('GET', `/api/local_charts/charts/${id}`)).status).toBe(404)
		const gone = await t.request('GET', `/charts/${id}`)
		expect(gone.status).toBe(404)
		expect(gone.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
		expect(gone.headers.get('x-frame-options')).not.toBeNull()

		await t.request('PATCH', `/dashboard/local_charts/charts/${id}`, { token: owner.token, json: { published: true } })
		expect((await t.request('DELETE', `/dashboard/local_charts/charts/${id}`, { token: owner.token })).status).toBe(200)
		expect((await t.request('GET', `/api/local_charts/charts/${id}`)).status).toBe(404)
	})
})

describe('freshness', () => {
	test('an unchanged chart is read from its cache; a row edit recomputes it', async () => {
		const owner = await t.signUp()
		const { Invoices: invoices } = (await sampleDatabases(owner.token)) as { Invoices: Database }
		const created = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: {
				name: 'Total',
				databaseId: invoices.id,
				config: {
					type: 'number',
					series: [{ id: 'total', aggregation: 'sum', property: propertyId(invoices, 'Amount') }],
				},
			},
		})
		const id = created.body.id as string
		await t.request('PATCH', `/dashboard/local_charts/charts/${id}`, { token: owner.token, json: { published: true } })
		const first = await t.request('GET', `/api/local_charts/charts/${id}`)
		const cached = await t.db.select().from(chartFigures).where(eq(chartFigures.chartId, id))
		expect(cached).toHaveLength(1)

		// A second load finds the same key: the stored figures come back as they were computed.
		const second = await t.request('GET', `/api/local_charts/charts/${id}`)
		expect(second.body.figures.computedAt).toBe(first.body.figures.computedAt)

		const rows = await t.request('GET', `/dashboard/local/databases/${invoices.id}/rows?limit=1`, {
			token: owner.token,
		})
		const row = rows.body.rows[0] as { id: string; values: Record<string, unknown> }
		const amountId = propertyId(invoices, 'Amount')
		const before = typeof row.values[amountId] === 'number' ? (row.values[amountId] as number) : 0
		const edited = await t.request('PATCH', `/dashboard/local/databases/${invoices.id}/rows/${row.id}`, {
			token: owner.token,
			json: { values: { [amountId]: before + 1000 } },
		})
		expect(edited.status).toBe(200)
		const third = await t.request('GET', `/api/local_charts/charts/${id}`)
		expect(third.body.figures.computedAt).not.toBe(first.body.figures.computedAt)
		expect(third.body.figures.kpi.value).toBeCloseTo(first.body.figures.kpi.value + 1000, 6)
	})
})

describe('roles and tenancy', () => {
	test('members build and publish; only owners and admins delete', async () => {
		const team = await teamWithEveryRole(t)
		const { Invoices: invoices } = (await sampleDatabases(team.owner.token)) as { Invoices: Database }
		const created = await t.request('POST', '/dashboard/local_charts/charts', {
			token: team.member.token,
			json: { name: 'Mine', databaseId: invoices.id },
		})
		expect(created.status).toBe(201)
		const published = await t.request('PATCH', `/dashboard/local_charts/charts/${created.body.id}`, {
			token: team.member.token,
			json: { published: true },
		})
		expect(published.status).toBe(200)
		const refused = await t.request('DELETE', `/dashboard/local_charts/charts/${created.body.id}`, {
			token: team.member.token,
		})
		expect(refused.status).toBe(403)
		const deleted = await t.request('DELETE', `/dashboard/local_charts/charts/${created.body.id}`, {
			token: team.admin.token,
		})
		expect(deleted.status).toBe(200)
	})

	test("another organization's charts read as 404 everywhere", async () => {
		const owner = await t.signUp()
		const stranger = await t.signUp()
		const { Invoices: invoices } = (await sampleDatabases(owner.token)) as { Invoices: Database }
		const theirs = await sampleDatabases(stranger.token)
		const created = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: { name: 'Ours', databaseId: invoices.id },
		})
		const id = created.body.id as string
		const base = `/dashboard/local_charts/charts/${id}`
		const attempts: [string, string, unknown?][] = [
			['GET', base],
			['PATCH', base, { name: 'Taken' }],
			['DELETE', base],
			['POST', `${base}/duplicate`],
			['GET', `${base}/render`],
			['GET', `${base}/export.png`],
			['GET', `${base}/export.svg`],
			['GET', `${base}/export.csv`],
		]
		for (const [method, url, json] of attempts) {
			const response = await t.request(method, url, { token: stranger.token, ...(json ? { json } : {}) })
			expect(response.status, `${method} ${url}`).toBe(404)
		}
		const list = await t.request('GET', '/dashboard/local_charts/charts', { token: stranger.token })
		expect(list.body).toEqual([])
		// Nor can our database be charted from their side, by creating or previewing.
		const onOurs = await t.request('POST', '/dashboard/local_charts/charts', {
			token: stranger.token,
			json: { name: 'Peek', databaseId: invoices.id },
		})
		expect(onOurs.status).toBe(400)
		const peek = await t.request('POST', '/dashboard/local_charts/preview', {
			token: stranger.token,
			json: { databaseId: invoices.id, config: {} },
		})
		expect(peek.status).toBe(400)
		// Their own sample is theirs to chart.
		const own = await t.request('POST', '/dashboard/local_charts/charts', {
			token: stranger.token,
			json: { name: 'Theirs', databaseId: (theirs.Invoices as Database).id },
		})
		expect(own.status).toBe(201)
		const still = await t.request('GET', base, { token: owner.token })
		expect(still.body.name).toBe('Ours')
	})
})
