import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { type Database, idOf, mappedSample as mapped } from '#src/test/time.ts'
import { until } from '#src/test/until.ts'
import { workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import { queueDelivery } from '#src/workspaces/workspaces.writes.ts'
import { timeEntries } from './time.schema.ts'

// Delete with undo on the built-in database: the entry is hidden at once and its row deleted
// through the write queue after the entry's earlier writes; undo restores the same row (same id,
// same values) after the delete, whether the delete was delivered yet or not. A running entry
// deleted frees the timer. Also the header's timer (any tool) and the person kept on the entry.
// The same against the fake Notion: time.delete.notion.int.test.ts.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

type Entry = { id: string; rowId: string | null; delivery: string; isRunning: boolean; endedAt: string | null }
type Write = { id: string; kind: string; state: string; source: string; rowId: string | null; values: unknown }

const mappedSample = (token: string) => mapped(t, token)

async function listed(token: string): Promise<Entry[]> {
	const response = await t.request('GET', '/dashboard/local_time/entries', { token })
	expect(response.status).toBe(200)
	return response.body
}

async function writesOf(token: string, workspaceId: string, entryId: string): Promise<Write[]> {
	const response = await t.request('GET', `/dashboard/workspaces/${workspaceId}/writes?limit=200`, { token })
	expect(response.status).toBe(200)
	return (response.body as Write[]).filter((write) => write.source === `time:${entryId}`).reverse()
}

async function rowOf(databaseId: string, rowId: string) {
	const [row] = await t.db
		.select()
		.from(workspaceRows)
		.where(and(eq(workspaceRows.id, rowId), eq(workspaceRows.databaseId, databaseId)))
	return row ?? null
}

/** A finished entry typed in by hand, with a project and a tag, its row delivered. */
async function deliveredEntry(token: string, entries: Database, projectId: string) {
	const created = await t.request('POST', '/dashboard/local_time/entries', {
		token,
		json: {
			databaseId: entries.id,
			startedAt: '2026-03-02T09:00:00Z',
			durationSeconds: 3600,
			description: 'To be deleted',
			project: projectId,
			tags: ['Meeting'],
		},
	})
	expect(created.status).toBe(201)
	const [entry] = await until(
		'the entry delivered',
		async () => (await listed(token)).filter((e) => e.id === created.body.id),
		([e]) => e?.delivery === 'delivered' && e.rowId !== null,
	)
	const row = await rowOf(entries.id, entry?.rowId as string)
	expect(row?.values[idOf(entries, 'Project') as string]).toEqual([projectId])
	return { entry: entry as Entry, row: row as NonNullable<typeof row> }
}

async function firstProject(token: string, byName: Record<string, Database>): Promise<string> {
	const projects = await t.request('GET', `/dashboard/local/databases/${byName.Projects?.id}/rows?limit=1`, { token })
	return projects.body.rows[0].id
}

describe('delete with undo', () => {
	test('deleted after delivery: hidden at once, the row deleted once; undo after delivery brings the same row back', async () => {
		const owner = await t.signUp()
		const { workspaceId, byName, entries } = await mappedSample(owner.token)
		const { entry, row } = await deliveredEntry(owner.token, entries, await firstProject(owner.token, byName))

		const deleted = await t.request('DELETE', `/dashboard/local_time/entries/${entry.id}`, { token: owner.token })
		expect(deleted.status).toBe(200)
		expect(deleted.body.id).toBe(entry.id)
		expect((await listed(owner.token)).map((e) => e.id)).not.toContain(entry.id)
		await until(
			'the delete delivered',
			() => writesOf(owner.token, workspaceId, entry.id),
			(writes) => writes.some((w) => w.kind === 'delete' && w.state === 'delivered'),
		)
		expect(await rowOf(entries.id, row.id)).toBeNull()
		// Deleting again changes nothing: no second delete is queued.
		const again = await t.request('DELETE', `/dashboard/local_time/entries/${entry.id}`, { token: owner.token })
		expect(again.status).toBe(200)
		expect((await writesOf(owner.token, workspaceId, entry.id)).map((w) => w.kind)).toEqual(['create', 'delete'])

		const restored = await t.request('POST', `/dashboard/local_time/entries/${entry.id}/restore`, {
			token: owner.token,
		})
		expect(restored.status).toBe(200)
		expect(restored.body).toMatchObject({ id: entry.id, isRunning: false, endedAt: '2026-03-02T10:00:00.000Z' })
		expect((await listed(owner.token)).map((e) => e.id)).toContain(entry.id)
		const writes = await until(
			'the restore delivered',
			() => writesOf(owner.token, workspaceId, entry.id),
			(list) => list.length === 3 && list.every((w) => w.state === 'delivered'),
		)
		expect(writes.map((w) => w.kind)).toEqual(['create', 'delete', 'restore'])
		const back = await rowOf(entries.id, row.id)
		expect(back?.values).toEqual(row.values)
		expect(back?.title).toBe('To be deleted')
		const [listedBack] = (await listed(owner.token)).filter((e) => e.id === entry.id)
		expect(listedBack).toMatchObject({ rowId: row.id, delivery: 'delivered' })
	})

	test('undone before the delete was delivered: the delete and the restore go in order, the row ends as it was', async () => {
		const owner = await t.signUp()
		const { workspaceId, byName, entries } = await mappedSample(owner.token)
		const { entry, row } = await deliveredEntry(owner.token, entries, await firstProject(owner.token, byName))
		// A write of the row that is held (taken by a delivery that never ends): everything after it waits.
		const [record] = await t.db.select().from(timeEntries).where(eq(timeEntries.id, entry.id))
		const heldId = randomUUID()
		await t.db.insert(workspaceWrites).values({
			id: heldId,
			organizationId: record?.organizationId as string,
			workspaceId,
			databaseId: entries.id,
			kind: 'update',
			externalRowId: row.externalId,
			afterWriteId: record?.lastWriteId as string,
			values: {},
			state: 'failed',
			source: `time:${entry.id}`,
			lockedUntil: new Date(Date.now() + 3_600_000),
		})
		await t.db.update(timeEntries).set({ lastWriteId: heldId }).where(eq(timeEntries.id, entry.id))

		expect(
			(await t.request('DELETE', `/dashboard/local_time/entries/${entry.id}`, { token: owner.token })).status,
		).toBe(200)
		expect((await listed(owner.token)).map((e) => e.id)).not.toContain(entry.id)
		const undo = await t.request('POST', `/dashboard/local_time/entries/${entry.id}/restore`, { token: owner.token })
		expect(undo.status).toBe(200)
		expect((await listed(owner.token)).map((e) => e.id)).toContain(entry.id)
		const pending = await writesOf(owner.token, workspaceId, entry.id)
		expect(pending.map((w) => [w.kind, w.state])).toEqual([
			['create', 'delivered'],
			['update', 'failed'],
			['delete', 'pending'],
			['restore', 'pending'],
		])
		expect(await rowOf(entries.id, row.id)).not.toBeNull()

		await t.db
			.update(workspaceWrites)
			.set({ state: 'delivered', lockedUntil: null })
			.where(eq(workspaceWrites.id, heldId))
		const deleteId = pending[2]?.id as string
		await queueDelivery(t.services.workspaces.deps, deleteId)
		await until(
			'the delete and the restore delivered',
			() => writesOf(owner.token, workspaceId, entry.id),
			(list) => list.every((w) => w.state === 'delivered'),
		)
		const [removal, restore] = await t.db
			.select()
			.from(workspaceWrites)
			.where(and(eq(workspaceWrites.source, `time:${entry.id}`), eq(workspaceWrites.databaseId, entries.id)))
			.then((list) => [list.find((w) => w.kind === 'delete'), list.find((w) => w.kind === 'restore')])
		expect(restore?.afterWriteId).toBe(removal?.id)
		expect((restore?.deliveredAt?.getTime() ?? 0) >= (removal?.deliveredAt?.getTime() ?? Infinity)).toBe(true)
		// The delete kept the values it removed: what the restore put back.
		expect(removal?.values).toEqual(row.values)
		expect((await rowOf(entries.id, row.id))?.values).toEqual(row.values)
	})

	test('a running entry deleted frees the timer (a new one starts); undone, it is back stopped, its row complete', async () => {
		const owner = await t.signUp()
		const { workspaceId, byName, entries } = await mappedSample(owner.token)
		const projectId = await firstProject(owner.token, byName)
		const started = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: owner.token,
			json: { databaseId: entries.id, description: 'Oops, started', project: projectId },
		})
		expect(started.status).toBe(201)
		const [record] = await t.db.select().from(timeEntries).where(eq(timeEntries.id, started.body.id))
		expect(record?.personRef).toBe(owner.userId)
		const header = await t.request('GET', '/dashboard/time/timer', { token: owner.token })
		expect(header.status).toBe(200)
		const [project] = await t.db.select().from(workspaceRows).where(eq(workspaceRows.id, projectId))
		expect(header.body).toMatchObject({
			entry: { id: started.body.id, isRunning: true },
			tool: 'local',
			databaseName: 'Time entries',
			projectName: project?.title,
		})

		const deleted = await t.request('DELETE', `/dashboard/local_time/entries/${started.body.id}`, {
			token: owner.token,
		})
		expect(deleted.status).toBe(200)
		expect(deleted.body).toMatchObject({ isRunning: false })
		expect((await t.request('GET', '/dashboard/time/timer', { token: owner.token })).body).toEqual({
			entry: null,
			tool: null,
			databaseName: null,
			projectName: null,
		})
		expect((await t.request('GET', '/dashboard/local_time/timer', { token: owner.token })).body.entry).toBeNull()
		const next = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: owner.token,
			json: { databaseId: entries.id, description: 'The real one' },
		})
		expect(next.status).toBe(201)
		const writes = await until(
			'the stop and the delete delivered',
			() => writesOf(owner.token, workspaceId, started.body.id),
			(list) => list.length === 3 && list.every((w) => w.state === 'delivered'),
		)
		expect(writes.map((w) => w.kind).sort()).toEqual(['create', 'delete', 'update'])
		// Local rows' external ids are their ids; the list names no row once it is gone.
		const [create] = await t.db
			.select()
			.from(workspaceWrites)
			.where(eq(workspaceWrites.id, writes.find((w) => w.kind === 'create')?.id ?? ''))
		const rowId = create?.externalRowId ?? ''
		expect(rowId).not.toBe('')
		expect(await rowOf(entries.id, rowId)).toBeNull()

		const undo = await t.request('POST', `/dashboard/local_time/entries/${started.body.id}/restore`, {
			token: owner.token,
		})
		expect(undo.status).toBe(200)
		expect(undo.body).toMatchObject({ isRunning: false, endedAt: deleted.body.endedAt })
		// The timer running now is still the new one.
		expect((await t.request('GET', '/dashboard/time/timer', { token: owner.token })).body.entry.id).toBe(next.body.id)
		await until(
			'the restore delivered',
			() => writesOf(owner.token, workspaceId, started.body.id),
			(list) => list.length === 4 && list.every((w) => w.state === 'delivered'),
		)
		const back = await rowOf(entries.id, rowId)
		expect(back?.values[idOf(entries, 'When') as string]).toMatchObject({ end: deleted.body.endedAt })
	})

	test("only the entry's person deletes or restores it (403); another organization's or tool's entry reads as 404", async () => {
		const team = await teamWithEveryRole(t)
		const { entries } = await mappedSample(team.owner.token)
		const created = await t.request('POST', '/dashboard/local_time/entries', {
			token: team.member.token,
			json: { databaseId: entries.id, startedAt: '2026-03-02T09:00:00Z', durationSeconds: 600 },
		})
		expect(created.status).toBe(201)
		const path = `/dashboard/local_time/entries/${created.body.id}`
		for (const account of [team.owner, team.admin]) {
			expect((await t.request('DELETE', path, { token: account.token })).status).toBe(403)
		}
		const stranger = await t.signUp()
		expect((await t.request('DELETE', path, { token: stranger.token })).status).toBe(404)
		expect(
			(await t.request('DELETE', `/dashboard/notion_time/entries/${created.body.id}`, { token: team.member.token }))
				.status,
		).toBe(404)
		expect((await t.request('DELETE', path, { token: team.member.token })).status).toBe(200)
		expect((await t.request('POST', `${path}/restore`, { token: team.owner.token })).status).toBe(403)
		expect((await t.request('POST', `${path}/restore`, { token: stranger.token })).status).toBe(404)
		expect((await t.request('GET', '/dashboard/time/timer', { token: stranger.token })).body.entry).toBeNull()
		// A deleted entry is out of reach of every other change until it is restored.
		expect((await t.request('PATCH', path, { token: team.member.token, json: { description: 'x' } })).status).toBe(404)
		expect((await t.request('POST', `${path}/continue`, { token: team.member.token })).status).toBe(404)
		const restored = await t.request('POST', `${path}/restore`, { token: team.member.token })
		expect(restored.status).toBe(200)
		expect((await t.request('PATCH', path, { token: team.member.token, json: { description: 'x' } })).status).toBe(200)
	})
})
