import type { RowValues } from '@blocksmith/contracts/workspaces.ts'
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { Team } from '#src/test/teams.ts'
import type { TestApp } from '#src/test/test-app.ts'
import { type Database, sample } from '#src/test/time.ts'
import { insertLocalRows } from '#src/workspaces/local/local.connector.ts'
import { workspaceDatabases, workspaceRows } from '#src/workspaces/workspaces.schema.ts'

// Time reports' outputs (exports, shared links, unbilled time) over one hand-made week whose
// figures are worked out here: a Tracked database (projects from the sample's Projects) with
// rates, four entries and a view rounding each entry up to 15 minutes, in Berlin.
//
// Rounded portions (each a multiple of 900 s, so hours are exact to two decimals):
//   A  p1  owner   billable  task Design  28th 23:30 → 24:00 = 1800; 29th 00:00 → 03:10 CEST = 7800 → 8100
//   C  p1  owner   billable  task Build   29th 01:00 → 01:30 CET = 1800
//   B  —   member  not       —            30th 11:00 → 12:00 CEST = 3600
//   E  p2  member  billable  task Design  30th 14:00 → 15:15 CEST = 4500
// Totals 19800 s (5.50 h), billable 16200 s. Rates: p1 120.50/h, otherwise 100.00/h:
//   A 6025 + 27113 (8100 s × 12050 / 3600 = 27112.5, half-up), C 6025, E 12500 → 51663 (516.63 EUR).

export const expected = {
	seconds: 19800,
	billableSeconds: 16200,
	amount: 51663,
	p1: { seconds: 11700, amount: 39163 },
	p2: { seconds: 4500, amount: 12500 },
}

const when = (start: string, end: string) => ({ start, end, timeZone: null })

export async function trackedWeek(t: TestApp, team: Pick<Team, 'owner' | 'member'>) {
	const { owner, member } = team
	const { workspaceId, byName } = await sample(t, owner.token)
	const projects = byName.Projects as Database
	const created = await t.request('POST', '/dashboard/local_time/databases', {
		token: owner.token,
		json: { workspaceId, name: 'Tracked', projectsDatabaseId: projects.id },
	})
	expect(created.status).toBe(201)
	const databaseId = created.body.id as string
	const [record] = await t.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, databaseId))
	const database = record as typeof workspaceDatabases.$inferSelect
	const prop = (name: string) => database.properties.find((p) => p.name === name)?.id as string
	const projectRows = await t.db.select().from(workspaceRows).where(eq(workspaceRows.databaseId, projects.id))
	const [p1, p2] = projectRows as [(typeof projectRows)[number], (typeof projectRows)[number]]
	const insert = (rows: RowValues[]) => insertLocalRows(t.db, database.organizationId, database, rows)
	const [a, c, b, e] = await insert([
		{
			[prop('Description')]: '=HYPERLINK("http://example.com","A")',
			[prop('When')]: when('2026-03-28T23:30:00+01:00', '2026-03-29T03:10:00+02:00'),
			[prop('Person')]: [owner.userId],
			[prop('Project')]: [p1.externalId],
			[prop('Task')]: 'Design',
			[prop('Tags')]: ['Meeting'],
			[prop('Billable')]: true,
		},
		{
			[prop('Description')]: 'C',
			[prop('When')]: when('2026-03-29T00:00:00Z', '2026-03-29T00:30:00Z'),
			[prop('Person')]: [owner.userId],
			[prop('Project')]: [p1.externalId],
			[prop('Task')]: 'Build',
			[prop('Billable')]: true,
		},
		{
			[prop('Description')]: 'B',
			[prop('When')]: when('2026-03-30T09:00:00Z', '2026-03-30T10:00:00Z'),
			[prop('Person')]: [member.userId],
			[prop('Billable')]: false,
		},
		{
			[prop('Description')]: 'E',
			[prop('When')]: when('2026-03-30T12:00:00Z', '2026-03-30T13:15:00Z'),
			[prop('Person')]: [member.userId],
			[prop('Project')]: [p2.externalId],
			[prop('Task')]: 'Design',
			[prop('Billable')]: true,
		},
	])
	const rates = await t.request('PUT', `/dashboard/local_time/databases/${databaseId}/rates`, {
		token: owner.token,
		json: { currency: 'EUR', defaultRate: 10000, projects: [{ project: p1.id, rate: 12050 }] },
	})
	expect(rates.status).toBe(200)
	const view = await t.request('POST', '/dashboard/local_time/views', {
		token: owner.token,
		json: {
			databaseId,
			name: 'End of March',
			settings: {
				range: { kind: 'fixed', from: '2026-03-28', to: '2026-03-30' },
				timeZone: 'Europe/Berlin',
				rounding: { mode: 'up', minutes: 15, scope: 'entry' },
				groupBy: 'project',
			},
		},
	})
	expect(view.status).toBe(201)
	const rows = { a, b, c, e } as Record<'a' | 'b' | 'c' | 'e', typeof workspaceRows.$inferSelect>
	return { databaseId, database, prop, insert, p1, p2, rows, viewId: view.body.id as string }
}

/** A download's bytes, headers and status (the test app's request reads bodies as text). */
export async function download(t: TestApp, pathname: string, token?: string) {
	const headers = new Headers({ 'x-forwarded-for': '203.0.113.7' })
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const response = await t.app.request(pathname, { headers })
	return {
		status: response.status,
		headers: response.headers,
		bytes: new Uint8Array(await response.arrayBuffer()),
	}
}
