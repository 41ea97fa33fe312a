import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import {
	type Check,
	type Database,
	idOf,
	mappedSample as mapped,
	sample as newSample,
	timeDatabase as readTimeDatabase,
	storedRow,
	type TimeDatabase,
	until,
} from '#src/test/time.ts'

// Time tracking on the built-in database, end to end: the suggested mapping of the sample's
// Time entries, mappings checked against the database, a new time database, the timer through
// the write queue (start, a new request reads it running, stop, the row has start and end),
// one timer per person, who may stop it, and tenancy. Manual entries: time.entries.int.test.ts.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const sample = (token: string) => newSample(t, token)
const timeDatabase = (token: string, id: string): Promise<TimeDatabase> => readTimeDatabase(t, token, id)
const mappedSample = (token: string) => mapped(t, token)
const row = (_token: string, databaseId: string, rowId: string) => storedRow(t, databaseId, rowId)

describe('time databases', () => {
	test("the sample's Time entries get a complete suggested mapping; databases without a date or number are not offered", async () => {
		const owner = await t.signUp()
		const { byName } = await sample(owner.token)
		const entries = byName['Time entries'] as Database
		const projects = byName.Projects as Database
		const list = await t.request('GET', '/dashboard/local_time/databases', { token: owner.token })
		expect(list.status).toBe(200)
		const names = (list.body as TimeDatabase[]).map((database) => database.name)
		expect(names).toContain('Time entries')
		expect(names).not.toContain('Clients')
		const found = (list.body as TimeDatabase[]).find((database) => database.id === entries.id) as TimeDatabase
		expect(found.saved).toBeNull()
		expect(found.suggested.isComplete).toBe(true)
		expect(found.suggested.mapping).toEqual({
			start: idOf(entries, 'When'),
			end: idOf(entries, 'When'),
			duration: idOf(entries, 'Hours'),
			durationUnit: 'hours',
			person: idOf(entries, 'Person'),
			project: idOf(entries, 'Project'),
			client: { propertyId: idOf(projects, 'Client'), through: 'project' },
			task: idOf(entries, 'Task'),
			tags: idOf(entries, 'Tags'),
			billable: idOf(entries, 'Billable'),
			description: idOf(entries, 'Task'),
		})
		expect(found.suggested.fields.every((check) => check.isMapped)).toBe(true)
		expect(found.suggested.fields.find((check) => check.field === 'client')?.propertyName).toBe('Project → Client')
	})

	test('a database without a time says what is missing', async () => {
		const owner = await t.signUp()
		const { byName } = await sample(owner.token)
		const invoices = byName.Invoices as Database
		const review = (await timeDatabase(owner.token, invoices.id)).suggested
		const missing = review.fields.filter((check) => !check.isMapped).map((check) => check.field)
		expect(missing).toEqual(expect.arrayContaining(['person', 'project', 'tags', 'billable']))
		expect(review.fields.find((check) => check.field === 'person')).toMatchObject({
			isMapped: false,
			message: expect.stringMatching(/people property/),
		})
	})

	test('bad mappings are 400s naming the field', async () => {
		const owner = await t.signUp()
		const { byName } = await sample(owner.token)
		const entries = byName['Time entries'] as Database
		const base = (await timeDatabase(owner.token, entries.id)).suggested.mapping
		const put = (mapping: unknown) =>
			t.request('PUT', `/dashboard/local_time/databases/${entries.id}`, { token: owner.token, json: { mapping } })
		const cases: [Record<string, unknown>, string][] = [
			[{ start: 'nope' }, 'mapping.start'],
			[{ start: idOf(entries, 'Hours') }, 'mapping.start'],
			[{ person: idOf(entries, 'Billable') }, 'mapping.person'],
			[{ tags: idOf(entries, 'Project') }, 'mapping.tags'],
			[{ billable: 'missing-property' }, 'mapping.billable'],
			[{ client: { propertyId: 'nope', through: 'project' } }, 'mapping.client.propertyId'],
			[{ end: null, duration: null }, 'mapping.end'],
			[{ start: null }, 'mapping.start'],
			[{ duration: idOf(entries, 'When'), end: null }, 'mapping.duration'],
			[{ durationUnit: 'weeks' }, 'mapping.durationUnit'],
		]
		for (const [change, field] of cases) {
			const response = await put({ ...base, ...change })
			expect(response.status, JSON.stringify(change)).toBe(400)
			expect(response.body.code).toBe('VALIDATION_FAILED')
			expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field)
		}
		const saved = await put(base)
		expect(saved.status).toBe(200)
		expect(saved.body.saved).toMatchObject({ isComplete: true, mapping: base })
	})

	test('a new time entries database in a built-in workspace is well formed and mapped', async () => {
		const owner = await t.signUp()
		const { workspaceId, byName } = await sample(owner.token)
		const created = await t.request('POST', '/dashboard/local_time/databases', {
			token: owner.token,
			json: { workspaceId, name: 'My time' },
		})
		expect(created.status).toBe(201)
		expect(created.body.name).toBe('My time')
		expect(created.body.saved.isComplete).toBe(true)
		expect(created.body.saved.fields.every((check: Check) => check.isMapped)).toBe(true)
		const database = await t.request('GET', `/dashboard/local/databases/${created.body.id}`, { token: owner.token })
		const project = (database.body as Database).properties.find((p) => p.name === 'Project')
		expect(project).toMatchObject({ type: 'relation', relationDatabaseId: byName.Projects?.id })
		const bad = await t.request('POST', '/dashboard/local_time/databases', {
			token: owner.token,
			json: { workspaceId: 'not-a-workspace' },
		})
		expect(bad.status).toBe(400)
		expect(bad.body.errors[0].field).toBe('workspaceId')
	})
})

describe('the timer', () => {
	test('start → a new request reads it running → stop → the row has start and end', async () => {
		const owner = await t.signUp()
		const { byName, entries } = await mappedSample(owner.token)
		const project = await t.request('GET', `/dashboard/local/databases/${byName.Projects?.id}/rows?limit=1`, {
			token: owner.token,
		})
		const projectId = project.body.rows[0].id as string
		const started = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: owner.token,
			json: {
				databaseId: entries.id,
				description: 'Wireframes',
				project: projectId,
				tags: ['Deep work'],
				billable: true,
			},
		})
		expect(started.status).toBe(201)
		expect(started.body).toMatchObject({ isRunning: true, endedAt: null, description: 'Wireframes' })

		// Another tab, another device: the timer is the server's.
		const current = await t.request('GET', '/dashboard/local_time/timer', { token: owner.token })
		expect(current.body.entry).toMatchObject({
			id: started.body.id,
			isRunning: true,
			startedAt: started.body.startedAt,
		})
		const again = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: owner.token,
			json: { databaseId: entries.id },
		})
		expect(again.status).toBe(409)

		const delivered = await until(
			'the start delivered',
			async () => (await t.request('GET', '/dashboard/local_time/timer', { token: owner.token })).body.entry,
			(entry) => entry?.rowId !== null && entry?.delivery === 'delivered',
		)
		const running = await row(owner.token, entries.id, delivered.rowId)
		expect(running.values[idOf(entries, 'When') as string]).toMatchObject({ start: started.body.startedAt, end: null })
		expect(running.values[idOf(entries, 'Person') as string]).toEqual([owner.userId])
		expect(running.values[idOf(entries, 'Project') as string]).toEqual([projectId])
		expect(running.values[idOf(entries, 'Tags') as string]).toEqual(['Deep work'])
		expect(running.values[idOf(entries, 'Billable') as string]).toBe(true)
		expect(running.title).toBe('Wireframes')

		const stopped = await t.request('POST', '/dashboard/local_time/timer/stop', { token: owner.token })
		expect(stopped.status).toBe(200)
		expect(stopped.body).toMatchObject({ id: started.body.id, isRunning: false })
		await until(
			'the stop delivered',
			async () => (await t.request('GET', `/dashboard/local_time/timer`, { token: owner.token })).body,
			(body) => body.entry === null,
		)
		const done = await until(
			'the row to have its end',
			() => row(owner.token, entries.id, delivered.rowId),
			(current) => (current.values[idOf(entries, 'When') as string] as { end: string | null }).end !== null,
		)
		const when = done.values[idOf(entries, 'When') as string] as { start: string; end: string }
		expect(when).toMatchObject({ start: started.body.startedAt, end: stopped.body.endedAt })
		const hours = (Date.parse(when.end) - Date.parse(when.start)) / 3_600_000
		expect(done.values[idOf(entries, 'Hours') as string]).toBeCloseTo(hours, 3)
		const none = await t.request('POST', '/dashboard/local_time/timer/stop', { token: owner.token })
		expect(none.status).toBe(404)

		// Continue: a new running entry with the same details, a new row.
		const continued = await t.request('POST', `/dashboard/local_time/entries/${started.body.id}/continue`, {
			token: owner.token,
		})
		expect(continued.status).toBe(201)
		expect(continued.body).toMatchObject({
			isRunning: true,
			description: 'Wireframes',
			project: projectId,
			tags: ['Deep work'],
			billable: true,
		})
		expect(continued.body.id).not.toBe(started.body.id)
		const twice = await t.request('POST', `/dashboard/local_time/entries/${started.body.id}/continue`, {
			token: owner.token,
		})
		expect(twice.status).toBe(409)
	})

	test('a stop stored before its start was delivered lands on the row the start creates', async () => {
		const owner = await t.signUp()
		const { entries } = await mappedSample(owner.token)
		// Stopped at once: the stop is stored while the start may still be waiting for its job.
		const started = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: owner.token,
			json: { databaseId: entries.id, description: 'Quick one' },
		})
		const stopped = await t.request('POST', '/dashboard/local_time/timer/stop', { token: owner.token })
		expect(stopped.status).toBe(200)
		const list = await until(
			'both writes delivered',
			async () =>
				(
					await t.request('GET', `/dashboard/workspaces/${(await workspaceOf(owner.token, entries.id)) ?? ''}/writes`, {
						token: owner.token,
					})
				).body as { kind: string; state: string; rowId: string | null; source: string }[],
			(writes) => writes.filter((w) => w.source === `time:${started.body.id}`).every((w) => w.state === 'delivered'),
		)
		const mine = list.filter((w) => w.source === `time:${started.body.id}`)
		expect(mine.map((w) => w.kind).sort()).toEqual(['create', 'update'])
		expect(new Set(mine.map((w) => w.rowId)).size).toBe(1)
		const done = await row(owner.token, entries.id, mine[0]?.rowId as string)
		expect(done.values[idOf(entries, 'When') as string]).toMatchObject({ end: stopped.body.endedAt })
	})

	test('bad entries are 400s naming the field', async () => {
		const owner = await t.signUp()
		const { byName, entries } = await mappedSample(owner.token)
		const start = (json: unknown) =>
			t.request('POST', '/dashboard/local_time/timer/start', { token: owner.token, json })
		const cases: [unknown, string][] = [
			[{ databaseId: entries.id, tags: ['Not a tag'] }, 'tags'],
			[{ databaseId: entries.id, project: 'not-a-row' }, 'project'],
			[{ databaseId: entries.id, billable: 'yes' }, 'billable'],
			[{ databaseId: entries.id, description: 'x'.repeat(2001) }, 'description'],
			[{ databaseId: byName.Clients?.id }, 'databaseId'],
			[{}, 'databaseId'],
		]
		for (const [json, field] of cases) {
			const response = await start(json)
			expect(response.status, JSON.stringify(json)).toBe(400)
			expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field)
		}
		const current = await t.request('GET', '/dashboard/local_time/timer', { token: owner.token })
		expect(current.body.entry).toBeNull()
	})

	test("a member cannot stop another member's timer; another organization's timers and databases read as 404", async () => {
		const team = await teamWithEveryRole(t)
		const { entries } = await mappedSample(team.owner.token)
		const started = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: team.member.token,
			json: { databaseId: entries.id, description: 'Member work' },
		})
		expect(started.status).toBe(201)
		// One timer per person: the owner has their own.
		const ownerStarted = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: team.owner.token,
			json: { databaseId: entries.id },
		})
		expect(ownerStarted.status).toBe(201)
		for (const account of [team.owner, team.admin]) {
			const refused = await t.request('POST', `/dashboard/local_time/entries/${started.body.id}/stop`, {
				token: account.token,
			})
			expect(refused.status).toBe(403)
			expect(refused.body.code).toBe('FORBIDDEN')
		}
		const ownerTimer = await t.request('GET', '/dashboard/local_time/timer', { token: team.owner.token })
		expect(ownerTimer.body.entry.id).toBe(ownerStarted.body.id)

		const stranger = await t.signUp()
		const paths: [string, string, unknown?][] = [
			['GET', `/dashboard/local_time/databases/${entries.id}`],
			['PUT', `/dashboard/local_time/databases/${entries.id}`, { mapping: {} }],
			['DELETE', `/dashboard/local_time/databases/${entries.id}`],
			['POST', `/dashboard/local_time/entries/${started.body.id}/stop`],
			// The other tool's paths do not reach a local database or entry either.
			['GET', `/dashboard/notion_time/databases/${entries.id}`],
		]
		for (const [method, path, json] of paths) {
			const response = await t.request(method, path, { token: stranger.token, ...(json ? { json } : {}) })
			expect(response.status, `${method} ${path}`).toBe(404)
		}
		const notion = await t.request('POST', `/dashboard/notion_time/entries/${started.body.id}/stop`, {
			token: team.member.token,
		})
		expect(notion.status).toBe(404)
		const strangerStart = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: stranger.token,
			json: { databaseId: entries.id },
		})
		expect(strangerStart.status).toBe(400)
		expect(strangerStart.body.errors[0].field).toBe('databaseId')
		const strangerList = await t.request('GET', '/dashboard/local_time/databases', { token: stranger.token })
		expect(strangerList.body).toEqual([])

		const ownStop = await t.request('POST', `/dashboard/local_time/entries/${started.body.id}/stop`, {
			token: team.member.token,
		})
		expect(ownStop.status).toBe(200)
	})
})

async function workspaceOf(token: string, databaseId: string): Promise<string | undefined> {
	const response = await t.request('GET', `/dashboard/local/databases/${databaseId}`, { token })
	return response.body.workspaceId
}
