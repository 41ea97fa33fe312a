import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectAbsent, recorded, runContributor } from '#src/test/export-archive.ts'
import { orgIdOf } from '#src/test/portals-setup.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { createChartsExport } from './charts.public.ts'
import { charts } from './charts.schema.ts'

// The charts part of an organization's export: every chart's definition, its figures as the
// chart's own CSV download has them, every dashboard; nothing of another organization's.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

type Database = { id: string; name: string }

async function sampleCharts(token: string): Promise<string[]> {
	const created = await t.request('POST', '/dashboard/workspaces/sample', { token })
	const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${created.body.workspace.id}`, { token })
	const ids: string[] = []
	for (const database of (list.body as Database[]).slice(0, 2)) {
		const chart = await t.request('POST', '/dashboard/local_charts/charts', {
			token,
			json: { name: `${database.name} chart`, databaseId: database.id },
		})
		expect(chart.status).toBe(201)
		ids.push(chart.body.id)
	}
	return ids
}

describe('charts export', () => {
	test('definitions, figures as CSV and dashboards of the organization only', async () => {
		const owner = await t.signUp()
		const orgId = await orgIdOf(t, owner.token)
		const [first, second] = (await sampleCharts(owner.token)) as [string, string]
		const dashboard = await t.request('POST', '/dashboard/charts/dashboards', {
			token: owner.token,
			json: { name: 'Overview', chartIds: [first, second] },
		})
		expect(dashboard.status).toBe(201)
		const other = await t.signUp()
		const [otherChart] = await sampleCharts(other.token)
		const otherDashboard = await t.request('POST', '/dashboard/charts/dashboards', {
			token: other.token,
			json: { name: 'Theirs', chartIds: [otherChart] },
		})
		expect(otherDashboard.status).toBe(201)

		const archive = await runContributor(t, createChartsExport(t.services.charts.deps), orgId)

		expect(recorded(archive, 'charts')).toEqual([first, second].sort())
		expect(recorded(archive, 'dashboards')).toEqual([dashboard.body.id])
		const definitions = archive.json('charts/charts.json') as { id: string; config: unknown; hasData: boolean }[]
		const [stored] = await t.db.select().from(charts).where(eq(charts.id, first))
		expect(definitions.find((chart) => chart.id === first)).toMatchObject({
			name: stored?.name,
			config: stored?.config,
			hasData: true,
		})
		for (const id of [first, second]) {
			const download = await t.request('GET', `/dashboard/local_charts/charts/${id}/export.csv`, {
				token: owner.token,
			})
			expect(download.status).toBe(200)
			expect(archive.text(`charts/data/${id}.csv`)).toBe(download.body)
			expect(archive.text(`charts/data/${id}.csv`).split('\r\n').length).toBeGreaterThan(2)
		}
		expect(archive.json('charts/dashboards.json')).toEqual([
			expect.objectContaining({ id: dashboard.body.id, name: 'Overview', tiles: dashboard.body.tiles }),
		])
		expectAbsent(archive, otherChart as string)
		expectAbsent(archive, otherDashboard.body.id)
	})
})
