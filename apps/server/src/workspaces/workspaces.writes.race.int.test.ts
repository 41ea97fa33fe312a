import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { type ConnectorFactory, createConnectorFactory } from './workspaces.connectors.ts'
import type { WorkspaceDeps } from './workspaces.deps.ts'
import { workspaceWrites } from './workspaces.schema.ts'
import { createWriteQueues } from './workspaces.writes.ts'

// A create must never be made twice, nor adopted from someone else: a delivery that waited out
// rate limits past its lease creates and records nothing once another worker has taken the
// write, and recovering a lost response adopts only a row our own integration created.
// The lease is 10 s (the shortest allowed) and Notion's timeout 1 s, so a Retry-After of 12 s
// outlasts a lease.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>
let demo: ReturnType<typeof fake.seed>

beforeAll(async () => {
	fake = await createFakeNotion()
	demo = fake.seed()
	t = await createTestApp({
		LOG_LEVEL: 'silent',
		NOTION_API_BASE_URL: fake.url,
		NOTION_REQUESTS_PER_SECOND: '40',
		NOTION_TIMEOUT_MS: '1000',
		WRITE_LEASE_SECONDS: '10',
		WRITE_RETRY_DELAY_SECONDS: '0.2',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Write = { id: string; state: string; attempts: number; rowId: string | null }

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
				.body as { id: string; name: string; sync: { state: string; lastSyncedAt: string | null } }[],
		(databases) => databases.length >= 4 && databases.every((d) => d.sync.lastSyncedAt !== null),
	)
	const clients = list.find((d) => d.name === 'Clients')
	if (!clients) {
		throw new Error('no Clients database')
	}
	return { token: account.token, workspaceId, clientsId: clients.id }
}

async function writesOf(token: string, workspaceId: string): Promise<Write[]> {
	const response = await t.request('GET', `/dashboard/workspaces/${workspaceId}/writes?limit=200`, { token })
	expect(response.status).toBe(200)
	return response.body
}

/** Rows of the Clients data source whose values hold `title` (as the fake stores them). */
function pagesTitled(title: string) {
	return [...fake.state.pages.values()].filter(
		(page) =>
			page.dataSourceId === demo.dataSources.clients &&
			!page.inTrash &&
			JSON.stringify([...page.values.values()]).includes(`"plain_text":${JSON.stringify(title)}`),
	)
}

const sameId = (a: string | null | undefined, b: string | null | undefined) =>
	Boolean(a && b && a.replaceAll('-', '') === b.replaceAll('-', ''))

/** Records every create a worker's connectors complete: who made the row, and when. */
function recordingCreates(factory: ConnectorFactory, worker: string, log: { worker: string; at: number }[]) {
	return {
		...factory,
		for: (workspace: Parameters<ConnectorFactory['for']>[0]) => {
			const connector = factory.for(workspace)
			return {
				...connector,
				createRow: async (...args: Parameters<typeof connector.createRow>) => {
					const row = await connector.createRow(...args)
					log.push({ worker, at: Date.now() })
					return row
				},
			}
		},
	}
}

describe('a create delivered once', () => {
	test('two workers race on one write under a sustained 429 storm: one row in Notion, one delivery recorded', async () => {
		const { token, workspaceId, clientsId } = await connected()
		const deps = t.services.workspaces.deps
		const appConnectors = deps.connectors
		const creates: { worker: string; at: number }[] = []
		deps.connectors = recordingCreates(appConnectors, 'A', creates)
		// Every call is refused with Retry-After 12 s, longer than the lease.
		fake.setRateLimit({ requestsPerSecond: 1, burst: 0, retryAfterSeconds: 12 })
		try {
			const queued = await t.request('POST', `/dashboard/notion/databases/${clientsId}/rows`, {
				token,
				json: { values: { title: 'Raced client' } },
			})
			expect(queued.status).toBe(202)
			const writeId = queued.body.id as string
			// The app's own worker (A) has claimed it and is waiting out the 429; let its lease pass.
			const [claimed] = await until(
				"worker A's claim",
				() => t.db.select().from(workspaceWrites).where(eq(workspaceWrites.id, writeId)),
				([write]) => write?.attempts === 1 && write.lockedUntil !== null,
			)
			const leaseEnds = claimed?.lockedUntil?.getTime() ?? 0
			await new Promise((resolve) => setTimeout(resolve, leaseEnds - Date.now() + 300))
			fake.setRateLimit(null)

			// Worker B, another process with its own Notion queue, takes the write over and delivers it.
			const workerB: WorkspaceDeps = {
				...deps,
				connectors: recordingCreates(
					createConnectorFactory({ db: deps.db, secrets: deps.secrets, storage: deps.storage, notion: deps.notion }),
					'B',
					creates,
				),
			}
			await createWriteQueues(() => workerB).deliver.handle({ writeId })
			const [delivered] = await writesOf(token, workspaceId)
			expect(delivered).toMatchObject({ id: writeId, state: 'delivered', attempts: 2 })
			const [recordedByB] = await t.db.select().from(workspaceWrites).where(eq(workspaceWrites.id, writeId))

			// Worker A wakes when its Retry-After ends: it must neither create nor record anything.
			await new Promise((resolve) => setTimeout(resolve, Math.max(0, leaseEnds + 2000 + 1000 - Date.now())))
			const rows = pagesTitled('Raced client')
			expect(rows).toHaveLength(1)
			// One delivery recorded: B's, untouched by A (same row, same time, same attempt count).
			const [stored] = await t.db.select().from(workspaceWrites).where(eq(workspaceWrites.id, writeId))
			expect(stored).toMatchObject({ state: 'delivered', attempts: 2, lockedUntil: null })
			expect(sameId(stored?.externalRowId, rows[0]?.id)).toBe(true)
			expect(stored?.deliveredAt?.getTime()).toBe(recordedByB?.deliveredAt?.getTime())
			expect(fake.requests().filter((r) => r.route === 'POST /v1/pages' && r.status === 200)).toHaveLength(1)
			// The row is B's: A, past its lease, created nothing (whichever of them Notion served first).
			expect(creates.map((create) => create.worker)).toEqual(['B'])
		} finally {
			fake.setRateLimit(null)
			deps.connectors = appConnectors
		}
	}, 60_000)

	test('recovering a lost create adopts only a row our integration made, never one a person typed', async () => {
		const { token, workspaceId, clientsId } = await connected()
		const person = fake.addUser({ name: 'Hand Typist' })
		// A person types the same client by hand in Notion, just before the form's answer arrives.
		fake.addPage(
			demo.dataSources.clients,
			{ Name: { title: [{ text: { content: 'Twin client' } }] } },
			{ createdBy: String(person.id) },
		)
		fake.setPageCreateOutage(demo.dataSources.clients, true)
		try {
			const queued = await t.request('POST', `/dashboard/notion/databases/${clientsId}/rows`, {
				token,
				json: { values: { title: 'Twin client' } },
			})
			expect(queued.status).toBe(202)
			await until(
				'a failed first attempt',
				() => writesOf(token, workspaceId),
				(list) => (list[0]?.attempts ?? 0) >= 1 && list[0]?.state === 'failed',
			)
		} finally {
			fake.setPageCreateOutage(demo.dataSources.clients, false)
		}
		const [write] = await until(
			'the write delivered',
			() => writesOf(token, workspaceId),
			(list) => list[0]?.state === 'delivered',
		)
		const twins = pagesTitled('Twin client')
		expect(twins).toHaveLength(2)
		const typed = twins.find((page) => page.createdBy === person.id)
		const ours = twins.find((page) => page.createdBy === fake.botId)
		expect(typed).toBeDefined()
		expect(ours).toBeDefined()
		const [stored] = await t.db
			.select()
			.from(workspaceWrites)
			.where(eq(workspaceWrites.id, write?.id ?? ''))
		expect(sameId(stored?.externalRowId, ours?.id)).toBe(true)
	})
})
