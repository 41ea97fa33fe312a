import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chartProjections } from '#src/features/charts/charts.schema.ts'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { notionRateLimits } from '#src/workspaces/notion/notion.schema.ts'
import {
	workspaceDatabases,
	workspaceRowContent,
	workspaceRows,
	workspaces,
} from '#src/workspaces/workspaces.schema.ts'

// A disconnected Notion workspace leaves nothing (decision 040): its mirrored rows and their
// content, its databases and tokens (they cascade), the typed chart projections of its
// databases, jobs naming it, and its Notion pace once no other organization connects the same
// Notion workspace.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>

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
	await t?.close()
	await fake?.close()
})

type Database = {
	id: string
	name: string
	properties: { id: string; name: string }[]
	sync: { state: string; lastSyncedAt: string | null }
}

async function connected() {
	const account = await t.signUp()
	const response = await t.request('POST', '/dashboard/workspaces', {
		token: account.token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	expect(response.status).toBe(201)
	const workspaceId = response.body.workspace.id as string
	const list = await until(
		'the first sync',
		async () =>
			(await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token: account.token }))
				.body as Database[],
		(found) => found.length >= 4 && found.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt !== null),
	)
	return { token: account.token, workspaceId, databases: list }
}

const projectionTables = async () =>
	(
		(await t.db.execute(
			sql`select tablename from pg_tables where starts_with(tablename, 'chart_proj_')`,
		)) as unknown as {
			rows: { tablename: string }[]
		}
	).rows.map((row) => row.tablename)

const jobsNaming = async (ids: string[]) =>
	(
		(await t.db.execute(sql`
			select count(*)::int as n from pgboss.job j where j.state <> 'active' and exists (
				select 1 from unnest(${sql`array[${sql.join(
					ids.map((id) => sql`${id}`),
					sql`, `,
				)}]::text[]`}) as id where j.data::text like '%' || id || '%')`)) as unknown as { rows: { n: number }[] }
	).rows[0]?.n

describe('disconnecting a Notion workspace', () => {
	test('leaves no mirrored row, content, projection table, token, job or Notion pace', {
		timeout: 120_000,
	}, async () => {
		const first = await connected()
		const second = await connected()
		const databaseIds = first.databases.map((database) => database.id)
		const projects = first.databases.find((database) => database.name === 'Projects') as Database
		// Page content mirrored for one database.
		await t.db.update(workspaceDatabases).set({ mirrorContent: true }).where(eq(workspaceDatabases.id, projects.id))
		const synced = await t.request('POST', `/dashboard/notion/databases/${projects.id}/sync`, { token: first.token })
		expect(synced.status).toBe(202)
		await until(
			'mirrored content',
			() =>
				t.db
					.select({ id: workspaceRowContent.rowId })
					.from(workspaceRowContent)
					.innerJoin(workspaceRows, eq(workspaceRows.id, workspaceRowContent.rowId))
					.where(eq(workspaceRows.databaseId, projects.id)),
			(rows) => rows.length > 0,
		)
		// A chart on it, with its typed projection built.
		const chart = await t.request('POST', '/dashboard/notion_charts/charts', {
			token: first.token,
			json: {
				databaseId: projects.id,
				name: 'Count',
				config: { type: 'number', series: [{ id: 's', aggregation: 'count' }] },
			},
		})
		expect(chart.status, JSON.stringify(chart.body)).toBe(201)
		await t.request('GET', `/dashboard/notion_charts/charts/${chart.body.id}/render`, { token: first.token })
		const built = await until(
			'the projection',
			() => t.db.select().from(chartProjections).where(eq(chartProjections.databaseId, projects.id)),
			(rows) => rows.length === 1,
		)
		const table = built[0]?.tableName as string
		expect(await projectionTables()).toContain(table)
		// A sync queued for later names its database.
		await t.services.jobs.send(
			t.services.workspaces.deps.queues.sync,
			{ databaseId: projects.id, mode: 'incremental' as never },
			{ startAfterSeconds: 3600 },
		)
		expect(await jobsNaming([projects.id])).toBeGreaterThan(0)
		const [external] = await t.db
			.select({ externalId: workspaces.externalId })
			.from(workspaces)
			.where(eq(workspaces.id, first.workspaceId))
		const notionKey = external?.externalId as string
		expect(await t.db.select().from(notionRateLimits).where(eq(notionRateLimits.workspaceKey, notionKey))).toHaveLength(
			1,
		)

		// A job running at that moment is left to finish (it then finds its database gone): wait for
		// the content mirroring to be done, so what is asserted below is what the disconnect did.
		await until(
			'no running job of the workspace',
			async () =>
				(
					(await t.db.execute(
						sql`select count(*)::int as n from pgboss.job where state = 'active' and data::text like ${`%${projects.id}%`}`,
					)) as unknown as { rows: { n: number }[] }
				).rows[0]?.n,
			(n) => n === 0,
		)
		const removed = await t.request('DELETE', `/dashboard/workspaces/${first.workspaceId}`, { token: first.token })
		expect(removed.status).toBeLessThan(300)

		expect(await t.db.select().from(workspaces).where(eq(workspaces.id, first.workspaceId))).toEqual([])
		expect(await t.db.select().from(workspaceDatabases).where(inArray(workspaceDatabases.id, databaseIds))).toEqual([])
		expect(
			await t.db
				.select({ id: workspaceRows.id })
				.from(workspaceRows)
				.where(inArray(workspaceRows.databaseId, databaseIds)),
		).toEqual([])
		const content = (await t.db.execute(
			sql`select count(*)::int as n from ${workspaceRowContent} c where not exists (select 1 from ${workspaceRows} r where r.id = c.row_id)`,
		)) as unknown as { rows: { n: number }[] }
		expect(content.rows[0]?.n).toBe(0)
		expect(await projectionTables()).not.toContain(table)
		expect(await jobsNaming([first.workspaceId, ...databaseIds])).toBe(0)
		// The same Notion workspace is still connected by the second organization: its pace stays.
		expect(await t.db.select().from(notionRateLimits).where(eq(notionRateLimits.workspaceKey, notionKey))).toHaveLength(
			1,
		)
		const secondRows = await t.db
			.select({ id: workspaceRows.id })
			.from(workspaceRows)
			.innerJoin(workspaceDatabases, eq(workspaceDatabases.id, workspaceRows.databaseId))
			.where(eq(workspaceDatabases.workspaceId, second.workspaceId))
		expect(secondRows.length).toBeGreaterThan(0)

		const removedToo = await t.request('DELETE', `/dashboard/workspaces/${second.workspaceId}`, { token: second.token })
		expect(removedToo.status).toBeLessThan(300)
		expect(await t.db.select().from(notionRateLimits).where(eq(notionRateLimits.workspaceKey, notionKey))).toEqual([])
	})
})
