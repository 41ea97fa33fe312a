import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { insertSamplePortal, memberWithSession, propertyId, rowIdByTitle, sampleDatabases } from '#src/test/portals.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { portals } from './portals.schema.ts'

// Published charts in the portal (issue 18 item 5): drawn over only the rows the chart's page
// grants the member, never the chart's cached figures of every row; a chart grouped by linked
// rows (whose labels would be other clients' titles) is not shown.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})

afterAll(async () => {
	await t.close()
})

describe('charts in a portal', () => {
	test('a member’s chart counts their company’s rows only', async () => {
		const owner = await t.signUp()
		const databases = await sampleDatabases(t, owner.token)
		const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
		const projects = databases.Projects as Parameters<typeof propertyId>[0]
		const created = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: { name: 'Projects by status', databaseId: projects.id },
		})
		expect(created.status).toBe(201)
		const chartId = created.body.id as string
		await t.request('PATCH', `/dashboard/local_charts/charts/${chartId}`, {
			token: owner.token,
			json: { published: true },
		})
		const byClient = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: { name: 'Projects by client', databaseId: projects.id },
		})
		const byClientId = byClient.body.id as string
		const grouped = await t.request('PATCH', `/dashboard/local_charts/charts/${byClientId}`, {
			token: owner.token,
			json: {
				published: true,
				config: { ...byClient.body.config, x: { property: propertyId(projects, 'Client') } },
			},
		})
		expect(grouped.status, JSON.stringify(grouped.body)).toBe(200)

		const portal = await insertSamplePortal(t, orgId, databases)
		await t.db
			.update(portals)
			.set({
				charts: [
					{ chartId, pageId: 'projects' },
					{ chartId: byClientId, pageId: 'projects' },
				],
			})
			.where(eq(portals.id, portal.id))
		const acme = await rowIdByTitle(t, (databases.Clients as { id: string }).id, 'Acme Ltd')
		const ada = await memberWithSession(t, portal, { email: 'ada@acme.example', companyRowId: acme })
		const loner = await memberWithSession(t, portal, { email: 'loner@example.com' })

		const clientId = propertyId(projects, 'Client')
		const [{ n: acmeProjects } = { n: 0 }] = await t.db
			.select({ n: sql<number>`count(*)::int` })
			.from(workspaceRows)
			.where(and(eq(workspaceRows.databaseId, projects.id), sql`${workspaceRows.values} -> ${clientId} ? ${acme}`))
		expect(acmeProjects).toBeGreaterThan(0)
		const everyone = await t.request('GET', `/api/local_charts/charts/${chartId}`)
		expect(everyone.status).toBe(200)
		expect(everyone.body.figures.rowCount).toBeGreaterThan(acmeProjects)

		const me = await t.request('GET', `/api/portal/${portal.slug}/me`, { token: ada.token })
		expect(me.body.charts).toEqual([
			{ id: chartId, title: 'Projects by status' },
			{ id: byClientId, title: 'Projects by client' },
		])
		const chart = (token: string, id = chartId) =>
			t.request('GET', `/api/portal/${portal.slug}/charts/${id}?theme=dark`, { token })
		const seen = await chart(ada.token)
		expect(seen.status).toBe(200)
		expect(seen.body).toMatchObject({ id: chartId, name: 'Projects by status', rowCount: acmeProjects })
		expect(seen.body.svg).toMatch(/^<svg/)
		expect((await chart(loner.token)).body.rowCount).toBe(0)
		// The shared figures are untouched by a member's: the public chart still counts every row.
		expect((await t.request('GET', `/api/local_charts/charts/${chartId}`)).body.figures.rowCount).toBe(
			everyone.body.figures.rowCount,
		)

		expect((await chart(ada.token, byClientId)).status).toBe(404)
		expect((await chart(owner.token)).status).toBe(401)
		const unpublished = await t.request('PATCH', `/dashboard/local_charts/charts/${chartId}`, {
			token: owner.token,
			json: { published: false },
		})
		expect(unpublished.status).toBe(200)
		expect((await chart(ada.token)).status).toBe(404)
		expect((await t.request('GET', `/api/portal/${portal.slug}/me`, { token: ada.token })).body.charts).toEqual([
			{ id: byClientId, title: 'Projects by client' },
		])
	})
})
