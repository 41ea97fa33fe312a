import { count, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { propertyId, type SampleDatabase } from '#src/test/portals.ts'
import { accountWithSample, sampleSetup, saveSetup, uniqueSlug } from '#src/test/portals-setup.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaceDatabases, workspaceRowContent, workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { portalLastSyncedAt } from './portals.freshness.ts'
import { portals } from './portals.schema.ts'

// Freshness of a portal's data: its databases' sync state as get_job_timer reports it, "refresh
// now" queuing their sync, on the built-in sample (no sync: nothing to report or queue) and on
// the fake Notion (where the people's names come from too).

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>

beforeAll(async () => {
	fake = await createFakeNotion()
	fake.seed()
	t = await createTestApp({ LOG_LEVEL: 'silent', NOTION_API_BASE_URL: fake.url, NOTION_REQUESTS_PER_SECOND: '40' })
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Timer = {
	databases: { id: string; name: string; state: string; lastSyncedAt: string | null; nextSyncAt: string | null }[]
	lastSyncedAt: string | null
	nextSyncAt: string | null
	isRunning: boolean
}

async function timerOf(token: string, tool: 'local' | 'notion', portalId: string): Promise<Timer> {
	const response = await t.request('GET', `/dashboard/${tool}_portal/databases/get_job_timer?portalId=${portalId}`, {
		token,
	})
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body
}

type NotionDatabase = SampleDatabase & { sync: { state: string; lastSyncedAt: string | null } }

/** A new account with the fake Notion connected and its databases synced once. */
async function notionAccount() {
	const account = await t.signUp()
	const connected = await t.request('POST', '/dashboard/workspaces', {
		token: account.token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	expect(connected.status).toBe(201)
	const workspaceId = connected.body.workspace.id as string
	const list = await until(
		'the first sync',
		async () =>
			(await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token: account.token }))
				.body as NotionDatabase[],
		(databases) => databases.length >= 4 && databases.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt),
	)
	return { token: account.token, byName: Object.fromEntries(list.map((database) => [database.name, database])) }
}

function notionSetup(byName: Record<string, NotionDatabase>, overrides: Record<string, unknown> = {}) {
	const projects = byName.Projects as NotionDatabase
	const clients = byName.Clients as NotionDatabase
	return {
		name: 'Client portal',
		slug: uniqueSlug(),
		access: { companiesDatabaseId: clients.id },
		pages: [
			{
				id: 'projects',
				title: 'Projects',
				databaseId: projects.id,
				properties: [propertyId(projects, 'Client')],
				rule: { kind: 'company', property: propertyId(projects, 'Client') },
			},
			{
				id: 'clients',
				title: 'Clients',
				databaseId: clients.id,
				properties: [propertyId(clients, 'Account manager'), propertyId(clients, 'Email')],
				rule: { kind: 'company_row' },
			},
		],
		...overrides,
	}
}

describe('built-in workspace', () => {
	test('its databases report no sync and nothing running; refresh queues nothing', async () => {
		const account = await accountWithSample(t)
		const saved = await saveSetup(t, account.token, sampleSetup(account.databases))
		expect(saved.status).toBe(201)
		const timer = await timerOf(account.token, 'local', saved.body.id)
		const names = timer.databases.map((database) => database.name).sort()
		// The pages' databases and the companies database.
		expect(names).toEqual(['Clients', 'Invoices', 'Projects'])
		expect(timer).toMatchObject({ lastSyncedAt: null, nextSyncAt: null, isRunning: false })
		for (const database of timer.databases) {
			expect(database).toMatchObject({ state: 'idle', lastSyncedAt: null, nextSyncAt: null })
		}
		const refreshed = await t.request('POST', '/dashboard/local_portal/databases/refresh', {
			token: account.token,
			json: { portalId: saved.body.id },
		})
		expect(refreshed.status).toBe(202)
		expect(refreshed.body).toEqual(timer)
		const states = await t.db
			.select({ state: workspaceDatabases.syncState })
			.from(workspaceDatabases)
			.where(eq(workspaceDatabases.id, (account.databases.Projects as SampleDatabase).id))
		expect(states).toEqual([{ state: 'idle' }])
		const [record] = await t.db.select().from(portals).where(eq(portals.id, saved.body.id))
		expect(await portalLastSyncedAt(t.services.portals.deps, record as NonNullable<typeof record>)).toBeNull()
	})
})

describe('Notion workspace', () => {
	test('the job timer reports the databases’ syncs; refresh queues a sync of each and they run again', async () => {
		const { token, byName } = await notionAccount()
		const saved = await saveSetup(t, token, notionSetup(byName), 'notion')
		expect(saved.status, JSON.stringify(saved.body)).toBe(201)
		const id = saved.body.id as string
		// A local path never reaches a Notion portal.
		expect(
			(await t.request('GET', `/dashboard/local_portal/databases/get_job_timer?portalId=${id}`, { token })).status,
		).toBe(404)

		const before = await timerOf(token, 'notion', id)
		expect(before.databases.map((database) => database.name).sort()).toEqual(['Clients', 'Projects'])
		expect(before.isRunning).toBe(false)
		const synced = before.databases.map((database) => database.lastSyncedAt as string)
		expect(synced.every(Boolean)).toBe(true)
		const oldest = [...synced].sort()[0] as string
		expect(before.lastSyncedAt).toBe(oldest)
		const [record] = await t.db.select().from(portals).where(eq(portals.id, id))
		const last = await portalLastSyncedAt(t.services.portals.deps, record as NonNullable<typeof record>)
		expect(last?.toISOString()).toBe(oldest)

		const queries = fake.requestCount('POST', '/v1/data_sources/:id/query')
		const refreshed = await t.request('POST', '/dashboard/notion_portal/databases/refresh', {
			token,
			json: { portalId: id },
		})
		expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(202)
		// Queued (or already running) when it answers.
		expect(refreshed.body.isRunning).toBe(true)
		expect(refreshed.body.databases.every((database: { state: string }) => database.state !== 'idle')).toBe(true)
		const after = await until(
			'both databases synced again',
			() => timerOf(token, 'notion', id),
			(timer) =>
				!timer.isRunning &&
				timer.databases.every((database, i) => (database.lastSyncedAt ?? '') > (synced[i] as string)),
		)
		expect(after.lastSyncedAt && after.lastSyncedAt > oldest).toBe(true)
		expect(fake.requestCount('POST', '/v1/data_sources/:id/query')).toBeGreaterThan(queries)
	})

	test('databases whose content a page shows are flagged and their rows’ content read at once, not after the next sync', async () => {
		const { token, byName } = await notionAccount()
		const projects = byName.Projects as NotionDatabase
		const setup = notionSetup(byName)
		setup.pages = setup.pages.map((page) => ({ ...page, showContent: page.id === 'projects' }))
		const syncsBefore = fake.requestCount('POST', '/v1/data_sources/:id/query')
		const saved = await saveSetup(t, token, setup, 'notion')
		expect(saved.status, JSON.stringify(saved.body)).toBe(201)
		const flags = await t.db
			.select({ name: workspaceDatabases.name, on: workspaceDatabases.mirrorContent })
			.from(workspaceDatabases)
			.where(inArray(workspaceDatabases.id, [projects.id, (byName.Clients as NotionDatabase).id]))
		expect(Object.fromEntries(flags.map((flag) => [flag.name, flag.on]))).toEqual({ Projects: true, Clients: false })
		const contentRows = () =>
			t.db
				.select({ n: count() })
				.from(workspaceRowContent)
				.innerJoin(workspaceRows, eq(workspaceRows.id, workspaceRowContent.rowId))
				.where(eq(workspaceRows.databaseId, projects.id))
		await until('the content of Projects rows', contentRows, ([row]) => (row?.n ?? 0) > 0)
		// Read by the content job the save queued, with no sync of the database in between.
		expect(fake.requestCount('POST', '/v1/data_sources/:id/query')).toBe(syncsBefore)
	})

	test('the people snapshot has the workspace people’s names; Notion not answering keeps the previous names', async () => {
		const { token, byName } = await notionAccount()
		const saved = await saveSetup(t, token, notionSetup(byName), 'notion')
		expect(saved.status, JSON.stringify(saved.body)).toBe(201)
		const peopleOf = async () => {
			const [row] = await t.db.select({ people: portals.people }).from(portals).where(eq(portals.id, saved.body.id))
			return row?.people ?? {}
		}
		const people = await peopleOf()
		expect(Object.values(people)).toEqual(expect.arrayContaining(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']))
		expect(JSON.stringify(people)).not.toContain('@')

		fake.setOutage(true)
		try {
			const again = await saveSetup(t, token, { ...notionSetup(byName), id: saved.body.id, name: 'Renamed' }, 'notion')
			expect(again.status, JSON.stringify(again.body)).toBe(200)
			expect(again.body.name).toBe('Renamed')
		} finally {
			fake.setOutage(false)
		}
		expect(await peopleOf()).toEqual(people)
	})
})
