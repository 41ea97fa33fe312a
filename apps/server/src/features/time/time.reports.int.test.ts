import type { Property, RowValues } from '@blocksmith/contracts/workspaces.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { type Database, sample } from '#src/test/time.ts'
import { insertLocalRows } from '#src/workspaces/local/local.connector.ts'
import { workspaceDatabases, workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import type { TimeCtx } from './time.deps.ts'
import { viewEntryLines } from './time.reports.ts'
import { findView } from './time.views.ts'

// Rates, saved views and a view's analytics and series over a few hand-made entries whose
// figures are worked out below (a midnight and DST crossing in Berlin, an overlap, rates by
// project and by default, rounding); tenancy and 400s naming the field. The random comparison
// with an independent computation is time.reports.proof.int.test.ts.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

type Token = { token: string; userId: string }

/** A team's Tracked database (projects from the sample's Projects) holding the rows given. */
async function tracked(owner: Token) {
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
	const insert = (rows: RowValues[]) => insertLocalRows(t.db, database.organizationId, database, rows)
	return { workspaceId, databaseId, database, prop, projectRows, projects, insert, byName }
}

const when = (start: string, end: string) => ({ start, end, timeZone: null })
const fields = (response: { body: { errors?: { field: string }[] } }) =>
	(response.body.errors ?? []).map((error) => error.field)

describe('a view over hand-made entries', () => {
	test('analytics and series: days in Berlin across midnight and DST, an overlap, rates, rounding', async () => {
		const team = await teamWithEveryRole(t)
		const { owner } = team
		const { databaseId, prop, projectRows, insert } = await tracked(owner)
		const [p1] = projectRows as [(typeof projectRows)[number]]
		await insert([
			{
				[prop('Description')]: 'A',
				[prop('When')]: when('2026-03-28T23:30:00+01:00', '2026-03-29T03:10:00+02:00'),
				[prop('Person')]: [owner.userId],
				[prop('Project')]: [p1.externalId],
				[prop('Tags')]: ['Meeting', 'Admin'],
				[prop('Billable')]: true,
			},
			{
				[prop('Description')]: 'B',
				[prop('When')]: when('2026-03-30T09:00:00Z', '2026-03-30T10:00:00Z'),
				[prop('Person')]: [team.member.userId],
				[prop('Billable')]: false,
			},
			{
				[prop('Description')]: 'C',
				[prop('When')]: when('2026-03-29T00:00:00Z', '2026-03-29T00:30:00Z'),
				[prop('Person')]: [owner.userId],
				[prop('Project')]: [p1.externalId],
				[prop('Billable')]: true,
			},
			// Outside the range.
			{ [prop('Description')]: 'D', [prop('When')]: when('2026-03-31T09:00:00Z', '2026-03-31T10:00:00Z') },
		])
		const rates = await t.request('PUT', `/dashboard/local_time/databases/${databaseId}/rates`, {
			token: owner.token,
			json: { currency: 'eur', defaultRate: 10000, projects: [{ project: p1.id, rate: 12050 }] },
		})
		expect(rates.status).toBe(200)
		expect(rates.body).toMatchObject({ currency: 'EUR', defaultRate: 10000 })
		const created = await t.request('POST', '/dashboard/local_time/views', {
			token: owner.token,
			json: {
				databaseId,
				name: 'End of March',
				settings: { range: { kind: 'fixed', from: '2026-03-28', to: '2026-03-30' }, timeZone: 'Europe/Berlin' },
			},
		})
		expect(created.status).toBe(201)
		const viewId = created.body.id as string
		const analytics = await t.request('GET', `/dashboard/local_time/views/${viewId}/analytics`, { token: owner.token })
		expect(analytics.status).toBe(200)
		// A: 1800 s on the 28th, 7800 s on the 29th (two hours, then 03:00 to 03:10 CEST); B 3600; C 1800.
		// Amounts at 120.50/h: 1800 s → 6025, 7800 s → 26108.33 → 26108, 1800 s → 6025.
		expect(analytics.body.totals).toEqual({ seconds: 15000, billableSeconds: 11400, amount: 38158, entries: 3 })
		expect(analytics.body).toMatchObject({
			from: '2026-03-28',
			to: '2026-03-30',
			currency: 'EUR',
			running: 0,
			overlaps: 1,
		})
		expect(analytics.body.groups.project).toEqual([
			{ key: p1.id, label: p1.title, seconds: 11400, billableSeconds: 11400, amount: 38158, entries: 2 },
			{ key: 'none', label: 'No project', seconds: 3600, billableSeconds: 0, amount: null, entries: 1 },
		])
		expect(analytics.body.groups.person).toEqual([
			{ key: owner.userId, label: 'Olive Owner', seconds: 11400, billableSeconds: 11400, amount: 38158, entries: 2 },
			{ key: team.member.userId, label: 'Max Member', seconds: 3600, billableSeconds: 0, amount: null, entries: 1 },
		])
		expect(
			analytics.body.groups.tag.map((group: { key: string; label: string; seconds: number }) => [
				group.key,
				group.label,
				group.seconds,
			]),
		).toEqual([
			['Admin', 'Admin', 9600],
			['Meeting', 'Meeting', 9600],
			['none', 'No tag', 5400],
		])
		const daily = await t.request('GET', `/dashboard/local_time/views/${viewId}/daily_time_series?breakdown=person`, {
			token: owner.token,
		})
		expect(daily.status).toBe(200)
		expect(daily.body.buckets.map((bucket: { key: string; seconds: number }) => [bucket.key, bucket.seconds])).toEqual([
			['2026-03-28', 1800],
			['2026-03-29', 9600],
			['2026-03-30', 3600],
		])
		expect(daily.body.breakdown).toEqual([
			{ key: owner.userId, label: 'Olive Owner', seconds: [1800, 9600, 0] },
			{ key: team.member.userId, label: 'Max Member', seconds: [0, 0, 3600] },
		])
		const weekly = await t.request('GET', `/dashboard/local_time/views/${viewId}/weekly_time_series`, {
			token: owner.token,
		})
		expect(weekly.body.buckets.map((bucket: { key: string; seconds: number }) => [bucket.key, bucket.seconds])).toEqual(
			[
				['2026-W13', 11400],
				['2026-W14', 3600],
			],
		)
		expect(weekly.body.breakdown).toBeNull()

		// One line per entry and local day, for exports and invoices.
		const ctx: TimeCtx = { ...t.services.time.deps, orgId: team.orgId, userId: owner.userId, role: 'owner' }
		const view = await findView(ctx, 'local', viewId)
		const lines = await viewEntryLines(t.services.time.deps, team.orgId, view, new Date(), { limit: 3 })
		expect(
			lines.map((line) => [line.date, line.start, line.end, line.seconds, line.rate, line.amount, line.description]),
		).toEqual([
			['2026-03-28', '2026-03-28T22:30:00.000Z', '2026-03-28T23:00:00.000Z', 1800, 12050, 6025, 'A'],
			['2026-03-29', '2026-03-28T23:00:00.000Z', '2026-03-29T01:10:00.000Z', 7800, 12050, 26108, 'A'],
			['2026-03-29', '2026-03-29T00:00:00.000Z', '2026-03-29T00:30:00.000Z', 1800, 12050, 6025, 'C'],
		])
		expect(lines[0]).toMatchObject({
			personLabel: 'Olive Owner',
			project: p1.id,
			projectLabel: p1.title,
			tags: ['Meeting', 'Admin'],
			billable: true,
			entryId: null,
			isRunning: false,
		})
		expect(lines[0]?.key).toBe(`row:${lines[0]?.rowId}`)

		// Rounded up to 15 minutes per entry and day: A's 7800 s on the 29th count 8100.
		const rounded = await t.request('PATCH', `/dashboard/local_time/views/${viewId}`, {
			token: owner.token,
			json: {
				settings: {
					range: { kind: 'fixed', from: '2026-03-28', to: '2026-03-30' },
					timeZone: 'Europe/Berlin',
					weekStart: 0,
					rounding: { mode: 'up', minutes: 15, scope: 'entry' },
				},
			},
		})
		expect(rounded.status).toBe(200)
		const roundedAnalytics = await t.request('GET', `/dashboard/local_time/views/${viewId}/analytics`, {
			token: owner.token,
		})
		// 8100 s at 120.50/h is 27112.5 → 27113.
		expect(roundedAnalytics.body.totals).toEqual({ seconds: 15300, billableSeconds: 11700, amount: 39163, entries: 3 })
		const sundayWeeks = await t.request('GET', `/dashboard/local_time/views/${viewId}/weekly_time_series`, {
			token: owner.token,
		})
		expect(
			sundayWeeks.body.buckets.map((bucket: { key: string; seconds: number }) => [bucket.key, bucket.seconds]),
		).toEqual([
			['2026-03-22', 1800],
			['2026-03-29', 13500],
		])
	})
})

describe('views', () => {
	test('saved, listed by database, changed and deleted; another organization or tool reads 404', async () => {
		const owner = await t.signUp()
		const { databaseId } = await tracked(owner)
		const created = await t.request('POST', '/dashboard/local_time/views', {
			token: owner.token,
			json: { databaseId, name: 'This week' },
		})
		expect(created.status).toBe(201)
		expect(created.body).toMatchObject({
			databaseId,
			databaseName: 'Tracked',
			name: 'This week',
			settings: { range: { kind: 'relative', preset: 'this_week' }, timeZone: 'UTC', weekStart: 1, groupBy: 'project' },
		})
		const id = created.body.id as string
		const list = await t.request('GET', `/dashboard/local_time/views?databaseId=${databaseId}`, { token: owner.token })
		expect(list.body.map((view: { id: string }) => view.id)).toEqual([id])
		const none = await t.request('GET', '/dashboard/local_time/views?databaseId=other', { token: owner.token })
		expect(none.body).toEqual([])
		const renamed = await t.request('PATCH', `/dashboard/local_time/views/${id}`, {
			token: owner.token,
			json: { name: 'Weekly' },
		})
		expect(renamed.body).toMatchObject({ name: 'Weekly', settings: created.body.settings })

		const stranger = await t.signUp()
		await tracked(stranger)
		for (const [method, path] of [
			['GET', `/dashboard/local_time/views/${id}`],
			['PATCH', `/dashboard/local_time/views/${id}`],
			['DELETE', `/dashboard/local_time/views/${id}`],
			['GET', `/dashboard/local_time/views/${id}/analytics`],
			['GET', `/dashboard/local_time/views/${id}/monthly_time_series`],
			['GET', `/dashboard/local_time/databases/${databaseId}/rates`],
			['PUT', `/dashboard/local_time/databases/${databaseId}/rates`],
		] as const) {
			const response = await t.request(method, path, {
				token: stranger.token,
				json: method === 'PATCH' ? {} : undefined,
			})
			expect(response.status, `${method} ${path}`).toBe(404)
		}
		const otherTool = await t.request('GET', `/dashboard/notion_time/views/${id}`, { token: owner.token })
		expect(otherTool.status).toBe(404)
		const strangers = await t.request('GET', '/dashboard/local_time/views', { token: stranger.token })
		expect(strangers.body).toEqual([])
		const intoTheirs = await t.request('POST', '/dashboard/local_time/views', {
			token: stranger.token,
			json: { databaseId, name: 'Theirs' },
		})
		expect(intoTheirs.status).toBe(400)
		expect(fields(intoTheirs)).toEqual(['databaseId'])

		const deleted = await t.request('DELETE', `/dashboard/local_time/views/${id}`, { token: owner.token })
		expect(deleted.status).toBe(200)
		const gone = await t.request('GET', `/dashboard/local_time/views/${id}`, { token: owner.token })
		expect(gone.status).toBe(404)
	})

	test('bad settings are 400s naming the field', async () => {
		const owner = await t.signUp()
		const { databaseId, byName } = await tracked(owner)
		const cases: [Record<string, unknown>, string][] = [
			[{ range: { kind: 'fixed', from: '2026-03-02', to: '2026-03-01' } }, 'settings.range.to'],
			[{ range: { kind: 'relative', preset: 'next_week' } }, 'settings.range.preset'],
			[{ timeZone: 'Mars/Olympus' }, 'settings.timeZone'],
			[{ rounding: { mode: 'up', minutes: 7 } }, 'settings.rounding.minutes'],
			[{ weekStart: 7 }, 'settings.weekStart'],
			[{ groupBy: 'colour' }, 'settings.groupBy'],
		]
		for (const [settings, field] of cases) {
			const response = await t.request('POST', '/dashboard/local_time/views', {
				token: owner.token,
				json: { databaseId, name: 'Bad', settings },
			})
			expect(response.status, field).toBe(400)
			expect(fields(response), field).toContain(field)
		}
		const unmapped = await t.request('POST', '/dashboard/local_time/views', {
			token: owner.token,
			json: { databaseId: (byName.Clients as Database).id, name: 'Clients' },
		})
		expect(unmapped.status).toBe(400)
		expect(fields(unmapped)).toEqual(['databaseId'])
		const badBreakdown = await t.request('POST', '/dashboard/local_time/views', {
			token: owner.token,
			json: { databaseId, name: 'Fine' },
		})
		const series = await t.request(
			'GET',
			`/dashboard/local_time/views/${badBreakdown.body.id}/daily_time_series?breakdown=colour`,
			{ token: owner.token },
		)
		expect(series.status).toBe(400)
		expect(fields(series)).toContain('breakdown')
	})
})

describe('rates', () => {
	test('checked against the database and the team; only owners and admins change them; a project rate read from a number property', async () => {
		const team = await teamWithEveryRole(t)
		const { owner } = team
		const { databaseId, projects, projectRows, prop, insert } = await tracked(owner)
		const empty = await t.request('GET', `/dashboard/local_time/databases/${databaseId}/rates`, { token: owner.token })
		expect(empty.body).toEqual({
			currency: 'EUR',
			defaultRate: null,
			projectRateProperty: null,
			projects: [],
			members: [],
		})
		const projectName = projects.properties.find((p) => p.type === 'title')?.id as string
		const stranger = await t.signUp()
		const cases: [Record<string, unknown>, string][] = [
			[{ currency: 'XYZ1' }, 'currency'],
			[{ defaultRate: -1 }, 'defaultRate'],
			[{ defaultRate: 1.5 }, 'defaultRate'],
			[{ projectRateProperty: projectName }, 'projectRateProperty'],
			[{ projects: [{ project: 'nope', rate: 100 }] }, 'projects.0.project'],
			[{ members: [{ userId: stranger.userId, rate: 100 }] }, 'members.0.userId'],
		]
		for (const [rates, field] of cases) {
			const response = await t.request('PUT', `/dashboard/local_time/databases/${databaseId}/rates`, {
				token: owner.token,
				json: rates,
			})
			expect(response.status, field).toBe(400)
			expect(fields(response), field).toContain(field)
		}
		const byMember = await t.request('PUT', `/dashboard/local_time/databases/${databaseId}/rates`, {
			token: team.member.token,
			json: { defaultRate: 1 },
		})
		expect(byMember.status).toBe(403)

		// A Rate number on the projects database, in major units of JPY (no minor unit) and of BHD (three).
		const [projectsRecord] = await t.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, projects.id))
		const rateProperty = 'rate-property'
		await t.db
			.update(workspaceDatabases)
			.set({
				properties: [
					...(projectsRecord?.properties ?? []),
					{ id: rateProperty, name: 'Rate', type: 'number', format: 'number' } as Property,
				],
			})
			.where(eq(workspaceDatabases.id, projects.id))
		const [p1, p2, p3] = projectRows as [
			(typeof projectRows)[number],
			(typeof projectRows)[number],
			(typeof projectRows)[number],
		]
		for (const [row, rate] of [
			[p1, 0.1 + 0.2],
			[p2, 80.0005],
		] as const) {
			await t.db
				.update(workspaceRows)
				.set({ values: { ...row.values, [rateProperty]: rate } })
				.where(eq(workspaceRows.id, row.id))
		}
		const entry = (project: typeof p1, person: string) => ({
			[prop('When')]: when('2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z'),
			[prop('Person')]: [person],
			[prop('Project')]: [project.externalId],
			[prop('Billable')]: true,
		})
		await insert([
			entry(p1, owner.userId),
			entry(p2, owner.userId),
			entry(p3, team.admin.userId),
			entry(p3, owner.userId),
		])
		const saved = await t.request('PUT', `/dashboard/local_time/databases/${databaseId}/rates`, {
			token: team.admin.token,
			json: {
				currency: 'BHD',
				defaultRate: 1000,
				projectRateProperty: rateProperty,
				members: [{ userId: team.admin.userId, rate: 5000 }],
			},
		})
		expect(saved.status).toBe(200)
		const view = await t.request('POST', '/dashboard/local_time/views', {
			token: owner.token,
			json: {
				databaseId,
				name: 'January',
				settings: { range: { kind: 'fixed', from: '2026-01-05', to: '2026-01-05' } },
			},
		})
		const analytics = await t.request('GET', `/dashboard/local_time/views/${view.body.id}/analytics`, {
			token: owner.token,
		})
		const amountOf = (key: string) =>
			analytics.body.groups.project.find((group: { key: string }) => group.key === key)?.amount
		// 0.30000000000000004 BHD is 300 fils (three digits, half-up); 80.0005 is 80001; p3 has no rate: the person's, else the default.
		expect(amountOf(p1.id)).toBe(300)
		expect(amountOf(p2.id)).toBe(80001)
		expect(amountOf(p3.id)).toBe(5000 + 1000)
		expect(analytics.body.currency).toBe('BHD')
	})
})
