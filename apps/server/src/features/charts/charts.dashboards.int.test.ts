import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Dashboards: charts of either tool on one grid, checked to be the organization's own,
// published as one page of figures (never rows), and invisible to other organizations.

let t: TestApp
const dist = mkdtempSync(path.join(os.tmpdir(), 'bs-dashboards-dist-'))

beforeAll(async () => {
	writeFileSync(
		path.join(dist, 'chart.html'),
		'<!doctype html><html><head><title>Chart</title></head><body><div id="root"></div></body></html>',
	)
	t = await createTestApp({ WEB_DIST_DIR: dist })
})
afterAll(async () => {
	await t.close()
	rmSync(dist, { recursive: true, force: true })
})

type Database = { id: string; name: string; properties: { id: string; name: string; type: string }[] }

async function chartsOfSample(token: string, count: number): Promise<string[]> {
	const created = await t.request('POST', '/dashboard/workspaces/sample', { token })
	const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${created.body.workspace.id}`, { token })
	const databases = list.body as Database[]
	const ids: string[] = []
	for (let index = 0; index < count; index++) {
		const database = databases[index % databases.length] as Database
		const chart = await t.request('POST', '/dashboard/local_charts/charts', {
			token,
			json: { name: `${database.name} chart`, databaseId: database.id },
		})
		expect(chart.status).toBe(201)
		ids.push(chart.body.id)
	}
	return ids
}

describe('dashboards', () => {
	test('charts placed two to a row, moved and resized, published as one page of figures', async () => {
		const owner = await t.signUp()
		const [first, second, third] = (await chartsOfSample(owner.token, 3)) as [string, string, string]
		const created = await t.request('POST', '/dashboard/charts/dashboards', {
			token: owner.token,
			json: { name: 'Overview', chartIds: [first, second, third] },
		})
		expect(created.status).toBe(201)
		expect(created.body.tiles).toEqual([
			{ chartId: first, x: 0, y: 0, w: 6, h: 8 },
			{ chartId: second, x: 6, y: 0, w: 6, h: 8 },
			{ chartId: third, x: 0, y: 8, w: 6, h: 8 },
		])
		expect(created.body.published).toBe(false)
		const id = created.body.id as string
		expect((await t.request('GET', `/api/charts/dashboards/${id}`)).status).toBe(404)

		const tiles = [
			{ chartId: first, x: 0, y: 0, w: 12, h: 10 },
			{ chartId: third, x: 0, y: 10, w: 4, h: 6 },
		]
		const saved = await t.request('PATCH', `/dashboard/charts/dashboards/${id}`, {
			token: owner.token,
			json: { tiles, published: true, embed: { theme: 'dark' } },
		})
		expect(saved.status).toBe(200)
		expect(saved.body.tiles).toEqual(tiles)

		const page = await t.request('GET', `/api/charts/dashboards/${id}`)
		expect(page.status).toBe(200)
		expect(page.body.tiles).toHaveLength(2)
		const [wide, narrow] = page.body.tiles as { chart: { svg: string; figures: unknown; id: string } }[]
		// Each chart drawn at its tile's width on the 1200-pixel grid, in the dashboard's theme.
		expect(wide?.chart.svg).toMatch(/^<svg[^>]*width="1200"/)
		expect(narrow?.chart.svg).toMatch(/^<svg[^>]*width="400"/)
		expect(wide?.chart.id).toBe(first)
		expect(JSON.stringify(page.body)).not.toContain('"values":{')

		// One tile redrawn at a phone's width, as the page's script asks when a tile is far narrower.
		const phone = await t.request('GET', `/api/charts/dashboards/${id}/tiles/0?width=360&theme=light`)
		expect(phone.status).toBe(200)
		expect(phone.body.id).toBe(first)
		expect(phone.body.svg).toMatch(/^<svg[^>]*width="360"/)
		expect(JSON.stringify(phone.body)).not.toContain('"values":{')
		expect((await t.request('GET', `/api/charts/dashboards/${id}/tiles/2`)).status).toBe(404)
		const badIndex = await t.request('GET', `/api/charts/dashboards/${id}/tiles/first`)
		expect(badIndex.status).toBe(400)
		expect(JSON.stringify(badIndex.body)).toContain('index')
		const badWidth = await t.request('GET', `/api/charts/dashboards/${id}/tiles/0?width=5`)
		expect(badWidth.status).toBe(400)
		expect(JSON.stringify(badWidth.body)).toContain('width')

		// Its page has every tile drawn in the HTML, placed on the grid, and may be framed by Notion.
		const html = await t.request('GET', `/charts/dashboards/${id}?theme=auto`)
		expect(html.status).toBe(200)
		const markup = (html.body as string).slice((html.body as string).indexOf('<body'))
		expect(markup.match(/<section class="bs-tile"/g)).toHaveLength(2)
		expect(markup).toContain('grid-column:1 / span 12;grid-row:1 / span 10')
		// auto: a light and a dark drawing of each tile, ids kept apart per tile.
		expect(markup.match(/data-variant="dark"/g)).toHaveLength(2)
		expect(markup).toContain('t1bsd-')
		expect(html.headers.get('content-security-policy')).toContain('frame-ancestors *')

		// A chart deleted since it was placed reads as a removed tile, not an error.
		await t.request('DELETE', `/dashboard/local_charts/charts/${third}`, { token: owner.token })
		const after = await t.request('GET', `/api/charts/dashboards/${id}`)
		expect(after.status).toBe(200)
		expect(after.body.tiles[1].chart).toBeNull()

		await t.request('PATCH', `/dashboard/charts/dashboards/${id}`, { token: owner.token, json: { published: false } })
		expect((await t.request('GET', `/api/charts/dashboards/${id}`)).status).toBe(404)
		expect((await t.request('GET', `/api/charts/dashboards/${id}/tiles/0`)).status).toBe(404)
		const gone = await t.request('GET', `/charts/dashboards/${id}`)
		expect(gone.status).toBe(404)
		expect(gone.body as string).not.toContain('<svg')
		expect(gone.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
	})

	test('bad layouts are 400s naming the field', async () => {
		const owner = await t.signUp()
		const [chart] = (await chartsOfSample(owner.token, 1)) as [string]
		const created = await t.request('POST', '/dashboard/charts/dashboards', {
			token: owner.token,
			json: { name: 'Board' },
		})
		const patch = (json: unknown) =>
			t.request('PATCH', `/dashboard/charts/dashboards/${created.body.id}`, { token: owner.token, json })
		const fields = (response: { body: { errors?: { field: string }[] } }) =>
			(response.body.errors ?? []).map((error) => error.field)

		const unknown = await patch({ tiles: [{ chartId: 'nope', x: 0, y: 0, w: 6, h: 8 }] })
		expect(unknown.status).toBe(400)
		expect(fields(unknown)).toEqual(['tiles.0.chartId'])
		const overflowing = await patch({ tiles: [{ chartId: chart, x: 8, y: 0, w: 6, h: 8 }] })
		expect(overflowing.status).toBe(400)
		expect(fields(overflowing)).toEqual(['tiles'])
		const tiny = await patch({ tiles: [{ chartId: chart, x: 0, y: 0, w: 6, h: 1 }] })
		expect(tiny.status).toBe(400)
		expect(fields(tiny)).toEqual(['tiles.0.h'])
		const startUnknown = await t.request('POST', '/dashboard/charts/dashboards', {
			token: owner.token,
			json: { name: 'Board', chartIds: [chart, 'nope'] },
		})
		expect(startUnknown.status).toBe(400)
		expect(fields(startUnknown)).toEqual(['chartIds.1'])
	})

	test("another organization's dashboards read as 404, and ours cannot hold their charts", async () => {
		const team = await teamWithEveryRole(t)
		const stranger = await t.signUp()
		const [ours] = (await chartsOfSample(team.owner.token, 1)) as [string]
		const [theirs] = (await chartsOfSample(stranger.token, 1)) as [string]
		const created = await t.request('POST', '/dashboard/charts/dashboards', {
			token: team.member.token,
			json: { name: 'Ours', chartIds: [ours] },
		})
		expect(created.status).toBe(201)
		const base = `/dashboard/charts/dashboards/${created.body.id}`
		for (const [method, json] of [['GET'], ['PATCH', { name: 'Taken' }], ['DELETE']] as const) {
			const response = await t.request(method, base, { token: stranger.token, ...(json ? { json } : {}) })
			expect(response.status, method).toBe(404)
		}
		expect((await t.request('GET', '/dashboard/charts/dashboards', { token: stranger.token })).body).toEqual([])
		// Their chart's id cannot be placed on our dashboard (its figures would be published with ours).
		const borrowed = await t.request('PATCH', base, {
			token: team.owner.token,
			json: { tiles: [{ chartId: theirs, x: 0, y: 0, w: 6, h: 8 }] },
		})
		expect(borrowed.status).toBe(400)
		// Members build dashboards; deleting one is for owners and admins.
		expect((await t.request('DELETE', base, { token: team.member.token })).status).toBe(403)
		expect((await t.request('DELETE', base, { token: team.admin.token })).status).toBe(200)
	})
})
