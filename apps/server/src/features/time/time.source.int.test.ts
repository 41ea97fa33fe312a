import type { PropertyInput, RowValues } from '@blocksmith/contracts/workspaces.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { AppError } from '#src/lib/errors.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { type Database, sample } from '#src/test/time.ts'
import { until } from '#src/test/until.ts'
import { insertLocalRows } from '#src/workspaces/local/local.connector.ts'
import { workspaceDatabases, workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import { createLocalDatabase } from '#src/workspaces/workspaces.service.ts'
import type { TimeCtx } from './time.deps.ts'
import { timeEntries } from './time.schema.ts'
import { readSourceEntries, type SourceEntry, sourceTargetOf } from './time.source.ts'

// The entry source: rows read through the mapping (a range, two dates, a start and a duration;
// bare dates at the report zone's midnight; rows that say no end are not counted), relations
// named by the related row, and our own entries standing in for their row while it is running,
// not delivered, or deleted.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

async function orgOf(databaseId: string) {
	const [record] = await t.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, databaseId))
	return record as typeof workspaceDatabases.$inferSelect
}

async function setup() {
	const owner = await t.signUp({ name: 'Sam Source' })
	const { workspaceId, byName } = await sample(t, owner.token)
	const projects = byName.Projects as Database
	const created = await t.request('POST', '/dashboard/local_time/databases', {
		token: owner.token,
		json: { workspaceId, name: 'Tracked', projectsDatabaseId: projects.id },
	})
	expect(created.status).toBe(201)
	const databaseId = created.body.id as string
	const record = await orgOf(databaseId)
	const ctx: TimeCtx = { ...t.services.time.deps, orgId: record.organizationId, userId: owner.userId, role: 'owner' }
	const prop = (name: string) => record.properties.find((p) => p.name === name)?.id as string
	const [project] = await t.db.select().from(workspaceRows).where(eq(workspaceRows.databaseId, projects.id)).limit(1)
	return { owner, workspaceId, databaseId, record, ctx, prop, project: project as typeof workspaceRows.$inferSelect }
}

const iso = (date: Date | null) => date?.toISOString() ?? null
const byDescription = (entries: SourceEntry[]) => new Map(entries.map((entry) => [entry.description, entry]))

describe('rows read through the mapping', () => {
	test('a range, a bare date with hours (midnight in the zone read in), a start alone (not counted), relations named', async () => {
		const { databaseId, record, ctx, prop, project } = await setup()
		const rows: RowValues[] = [
			{
				[prop('Description')]: 'range',
				[prop('When')]: { start: '2026-03-28T23:30:00.250+01:00', end: '2026-03-29T03:15:00+02:00', timeZone: null },
				[prop('Hours')]: 9,
				[prop('Person')]: [ctx.userId],
				[prop('Project')]: [project.externalId],
				[prop('Task')]: 'Design',
				[prop('Tags')]: ['Meeting', 'Admin'],
				[prop('Billable')]: true,
			},
			{
				[prop('Description')]: 'day and hours',
				[prop('When')]: { start: '2026-03-02', end: null, timeZone: null },
				[prop('Hours')]: 1.5,
			},
			{
				[prop('Description')]: 'start only',
				[prop('When')]: { start: '2026-03-02T10:00:00Z', end: null, timeZone: null },
			},
			{ [prop('Description')]: 'days', [prop('When')]: { start: '2026-03-03', end: '2026-03-04', timeZone: null } },
			{
				[prop('Description')]: 'backwards',
				[prop('When')]: { start: '2026-03-05T10:00:00Z', end: '2026-03-05T09:00:00Z', timeZone: null },
			},
		]
		await insertLocalRows(t.db, ctx.orgId, record, rows)
		const target = await sourceTargetOf(ctx, 'local', databaseId)
		const utc = byDescription(await readSourceEntries(ctx, target, { from: null, to: null }, new Date()))
		expect([...utc.keys()].sort()).toEqual(['day and hours', 'days', 'range'])
		const range = utc.get('range') as SourceEntry
		expect(range).toMatchObject({
			start: new Date('2026-03-28T22:30:00Z'),
			end: new Date('2026-03-29T01:15:00Z'),
			person: ctx.userId,
			project: project.id,
			projectName: project.title,
			task: 'Design',
			tags: ['Meeting', 'Admin'],
			billable: true,
			entryId: null,
		})
		expect(range.key).toBe(`row:${range.rowId}`)
		// The client is read through the project's Client relation, named by the client's row.
		const clientProperty = (await orgOf(project.databaseId)).properties.find((p) => p.name === 'Client')?.id as string
		const clientExternal = (project.values[clientProperty] as string[])[0]
		const [client] = await t.db
			.select()
			.from(workspaceRows)
			.where(eq(workspaceRows.externalId, clientExternal as string))
		expect(range).toMatchObject({ client: client?.id, clientName: client?.title })
		expect(iso(utc.get('day and hours')?.start ?? null)).toBe('2026-03-02T00:00:00.000Z')
		expect(iso(utc.get('day and hours')?.end ?? null)).toBe('2026-03-02T01:30:00.000Z')
		// A range of bare dates covers both days whole.
		expect(iso(utc.get('days')?.end ?? null)).toBe('2026-03-05T00:00:00.000Z')
		const berlin = byDescription(
			await readSourceEntries(ctx, { ...target, timeZone: 'Europe/Berlin' }, { from: null, to: null }, new Date()),
		)
		expect(iso(berlin.get('day and hours')?.start ?? null)).toBe('2026-03-01T23:00:00.000Z')
		expect(iso(berlin.get('range')?.start ?? null)).toBe('2026-03-28T22:30:00.000Z')
		// The window keeps entries touching [from, to); people keep those people's.
		const window = await readSourceEntries(
			ctx,
			target,
			{ from: new Date('2026-03-29T01:15:00Z'), to: new Date('2026-04-01T00:00:00Z') },
			new Date(),
		)
		expect(window).toEqual([])
		const touching = await readSourceEntries(
			ctx,
			target,
			{ from: new Date('2026-03-29T01:14:59Z'), to: null, people: [ctx.userId] },
			new Date(),
		)
		expect(touching.map((entry) => entry.description)).toEqual(['range'])
	})

	test('two date properties, or a start and minutes; select project and client on the entry', async () => {
		const { workspaceId, ctx, owner } = await setup()
		const properties: PropertyInput[] = [
			{ name: 'Name', type: 'title' },
			{ name: 'Started', type: 'date' },
			{ name: 'Stopped', type: 'date' },
			{ name: 'Minutes', type: 'number', format: 'number' },
			{ name: 'Project', type: 'select', options: [{ name: 'Apollo', color: 'blue' }] },
			{ name: 'Client', type: 'select', options: [{ name: 'ACME', color: 'red' }] },
		]
		const created = await createLocalDatabase(
			{ ...t.services.workspaces.deps, db: t.db, orgId: ctx.orgId, userId: owner.userId },
			{ workspaceId, name: 'Two dates', properties },
		)
		const record = await orgOf(created.id)
		const prop = (name: string) => record.properties.find((p) => p.name === name)?.id as string
		const mapping = {
			start: prop('Started'),
			end: prop('Stopped'),
			duration: prop('Minutes'),
			durationUnit: 'minutes',
			project: prop('Project'),
			client: { propertyId: prop('Client'), through: 'entry' },
			description: prop('Name'),
		}
		const saved = await t.request('PUT', `/dashboard/local_time/databases/${created.id}`, {
			token: owner.token,
			json: { mapping },
		})
		expect(saved.status).toBe(200)
		await insertLocalRows(t.db, ctx.orgId, record, [
			{
				[prop('Name')]: 'two dates',
				[prop('Started')]: { start: '2026-10-24T22:00:00Z', end: null, timeZone: null },
				[prop('Stopped')]: { start: '2026-10-25T02:00:00Z', end: null, timeZone: null },
				[prop('Minutes')]: 5,
				[prop('Project')]: 'Apollo',
				[prop('Client')]: 'ACME',
			},
			{
				[prop('Name')]: 'minutes',
				[prop('Started')]: { start: '2026-10-24T22:00:00Z', end: null, timeZone: null },
				[prop('Minutes')]: 90.5,
			},
			{ [prop('Name')]: 'nothing', [prop('Started')]: { start: '2026-10-24T22:00:00Z', end: null, timeZone: null } },
		])
		const target = await sourceTargetOf(ctx, 'local', created.id)
		const entries = byDescription(await readSourceEntries(ctx, target, { from: null, to: null }, new Date()))
		expect([...entries.keys()].sort()).toEqual(['minutes', 'two dates'])
		expect(entries.get('two dates')).toMatchObject({
			end: new Date('2026-10-25T02:00:00Z'),
			project: 'Apollo',
			projectName: 'Apollo',
			client: 'ACME',
			clientName: 'ACME',
			person: null,
		})
		// 90.5 minutes is 5430 seconds.
		expect(iso(entries.get('minutes')?.end ?? null)).toBe('2026-10-24T23:30:30.000Z')
	})
})

describe('our entries stand in for their row', () => {
	test('running, not delivered, delivered, deleted', async () => {
		const { owner, databaseId, ctx, project } = await setup()
		const target = await sourceTargetOf(ctx, 'local', databaseId)
		const read = () => readSourceEntries(ctx, target, { from: null, to: null }, new Date(Date.now() + 3_600_000))
		const manual = await t.request('POST', '/dashboard/local_time/entries', {
			token: owner.token,
			json: {
				databaseId,
				startedAt: '2026-05-04T08:00:00Z',
				endedAt: '2026-05-04T09:00:00Z',
				description: 'Ours',
				project: project.id,
				tags: ['Admin'],
				billable: true,
			},
		})
		expect(manual.status).toBe(201)
		const entryId = manual.body.id as string
		// Delivered: the row counts, tied to the entry.
		const delivered = await until('the entry as its delivered row', read, (entries) =>
			entries.some((entry) => entry.key.startsWith('row:') && entry.entryId === entryId),
		)
		const asRow = delivered.find((entry) => entry.entryId === entryId) as SourceEntry
		expect(asRow).toMatchObject({
			start: new Date('2026-05-04T08:00:00Z'),
			end: new Date('2026-05-04T09:00:00Z'),
			person: ctx.userId,
			project: project.id,
			projectName: project.title,
			tags: ['Admin'],
			billable: true,
			description: 'Ours',
		})
		expect(delivered).toHaveLength(1)

		// Its last write not delivered yet (an edit queued): our record counts, not what the row says.
		const [stored] = await t.db.select().from(timeEntries).where(eq(timeEntries.id, entryId))
		await t.db
			.update(workspaceWrites)
			.set({ state: 'pending' })
			.where(eq(workspaceWrites.id, stored?.lastWriteId as string))
		await t.db
			.update(timeEntries)
			.set({ endedAt: new Date('2026-05-04T10:00:00Z') })
			.where(eq(timeEntries.id, entryId))
		const pending = await read()
		expect(pending).toHaveLength(1)
		expect(pending[0]).toMatchObject({
			key: `entry:${entryId}`,
			entryId,
			rowId: asRow.rowId,
			externalRowId: asRow.externalRowId,
			end: new Date('2026-05-04T10:00:00Z'),
			project: project.id,
			projectName: project.title,
			client: asRow.client,
			description: 'Ours',
		})

		// Deleted: neither the entry nor its row.
		await t.db.update(timeEntries).set({ deletedAt: new Date() }).where(eq(timeEntries.id, entryId))
		expect(await read()).toEqual([])
		await t.db.update(timeEntries).set({ deletedAt: null }).where(eq(timeEntries.id, entryId))
		await t.db
			.update(workspaceWrites)
			.set({ state: 'delivered' })
			.where(eq(workspaceWrites.id, stored?.lastWriteId as string))

		// Running: the entry counts up to now, whatever its row says.
		const started = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: owner.token,
			json: { databaseId, description: 'Running' },
		})
		expect(started.status).toBe(201)
		const running = await until(
			'the running entry delivered',
			read,
			(entries) => entries.length === 2 && entries.some((entry) => entry.rowId && entry.entryId === started.body.id),
		)
		const timer = running.find((entry) => entry.entryId === started.body.id) as SourceEntry
		expect(timer).toMatchObject({ key: `entry:${started.body.id}`, end: null, description: 'Running' })
		expect(timer.start.getTime()).toBe(Math.floor(Date.parse(started.body.startedAt) / 1000) * 1000)
	})
})

describe('targets', () => {
	test("another organization's database is not found; a database without a mapping is a 400 naming databaseId", async () => {
		const { ctx, databaseId, workspaceId } = await setup()
		const other = await setup()
		await expect(sourceTargetOf(other.ctx, 'local', databaseId)).rejects.toMatchObject({ code: 'NOT_FOUND' })
		await expect(sourceTargetOf(ctx, 'notion', databaseId)).rejects.toMatchObject({ code: 'NOT_FOUND' })
		const [unmapped] = await t.db
			.select()
			.from(workspaceDatabases)
			.where(eq(workspaceDatabases.workspaceId, workspaceId))
			.then((records) => records.filter((record) => record.name === 'Clients'))
		const error = await sourceTargetOf(ctx, 'local', unmapped?.id as string).catch((caught: unknown) => caught)
		expect(error).toBeInstanceOf(AppError)
		expect((error as AppError).code).toBe('VALIDATION_FAILED')
		expect(JSON.stringify(error)).toContain('databaseId')
	})
})
