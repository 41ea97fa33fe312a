import { eq } from 'drizzle-orm'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectAbsent, recorded, runContributor } from '#src/test/export-archive.ts'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { download, trackedWeek } from '#src/test/time-reports.ts'
import { createTimeExport } from './time.public.ts'
import { timeDatabases, timeShares } from './time.schema.ts'

// The time part of an organization's export: time databases with mapping and rates, our entries
// as CSV, saved views with their shared links (never the token's hash), and each view's report
// as its own CSV download has it; nothing of another organization's.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

describe('time export', () => {
	test('databases, entries, views and their reports', async () => {
		const team = await teamWithEveryRole(t)
		const { owner } = team
		const { databaseId, viewId } = await trackedWeek(t, team)
		const entry = await t.request('POST', '/dashboard/local_time/entries', {
			token: owner.token,
			json: {
				databaseId,
				startedAt: '2026-03-29T10:00:00.000Z',
				durationSeconds: 5400,
				description: '@SUM(A1)',
				tags: ['Meeting'],
			},
		})
		expect(entry.status, JSON.stringify(entry.body)).toBe(201)
		const share = await t.request('POST', `/dashboard/local_time/views/${viewId}/shares`, {
			token: owner.token,
			json: {},
		})
		expect(share.status).toBe(201)
		const other = await teamWithEveryRole(t)
		const { viewId: otherView, databaseId: otherDatabase } = await trackedWeek(t, other)

		const archive = await runContributor(t, createTimeExport(t.services.time.deps), team.orgId)

		const [timeDatabase] = await t.db.select().from(timeDatabases).where(eq(timeDatabases.databaseId, databaseId))
		expect(recorded(archive, 'timeDatabases')).toEqual([timeDatabase?.id])
		expect(recorded(archive, 'timeEntries')).toEqual([entry.body.id])
		expect(recorded(archive, 'timeViews')).toEqual([viewId])
		expect(archive.json('time/databases.json')).toEqual([
			expect.objectContaining({
				databaseId,
				mapping: timeDatabase?.mapping,
				rates: expect.objectContaining({ currency: 'EUR', defaultRate: 10000 }),
			}),
		])

		const entries = Papa.parse<Record<string, string>>(archive.text('time/entries.csv'), {
			header: true,
			skipEmptyLines: true,
		}).data
		expect(entries).toEqual([
			expect.objectContaining({
				id: entry.body.id,
				startedAt: '2026-03-29T10:00:00.000Z',
				endedAt: '2026-03-29T11:30:00.000Z',
				description: "'@SUM(A1)",
				tags: 'Meeting',
			}),
		])

		const views = archive.json('time/views.json') as { id: string; name: string; shares: { id: string }[] }[]
		expect(views).toEqual([
			expect.objectContaining({
				id: viewId,
				name: 'End of March',
				shares: [expect.objectContaining({ id: share.body.id })],
			}),
		])
		const own = await download(t, `/dashboard/local_time/views/${viewId}/export?format=csv&detail=entries`, owner.token)
		expect(own.status).toBe(200)
		expect(Buffer.from(archive.files.get(`time/reports/${viewId}.csv`) ?? [])).toEqual(Buffer.from(own.bytes))

		const [stored] = await t.db.select().from(timeShares).where(eq(timeShares.viewId, viewId))
		expectAbsent(archive, stored?.tokenHash as string)
		expectAbsent(archive, share.body.url.split('/time/shared/')[1])
		expectAbsent(archive, otherView)
		expectAbsent(archive, otherDatabase)
	})
})
