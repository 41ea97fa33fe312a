import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { idOf, mappedSample as mapped, storedRow, until } from '#src/test/time.ts'
import { workspaceDatabases, workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import { queueDelivery, storeWrite } from '#src/workspaces/workspaces.writes.ts'

// Manual entries and edits on the built-in database, each change delivered after the one
// before; and the write queue's order when the write before was given up on.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const mappedSample = (token: string) => mapped(t, token)
const row = (_token: string, databaseId: string, rowId: string) => storedRow(t, databaseId, rowId)

describe('ordered writes', () => {
	test('a write after one that was given up on with no row is given up on too, never sent as a create', async () => {
		const owner = await t.signUp()
		const { entries } = await mappedSample(owner.token)
		const [database] = await t.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, entries.id))
		const deps = t.services.workspaces.deps
		const ctx = { ...deps, orgId: database?.organizationId as string, userId: owner.userId }
		const deadId = randomUUID()
		await t.db.insert(workspaceWrites).values({
			id: deadId,
			organizationId: ctx.orgId,
			workspaceId: database?.workspaceId as string,
			databaseId: entries.id,
			kind: 'create',
			values: {},
			state: 'dead',
			source: 'test',
		})
		const after = await storeWrite(ctx, { databaseId: entries.id, after: deadId, values: {}, source: 'test' })
		expect(after.kind).toBe('update')
		const rowsBefore = await t.db.select().from(workspaceRows).where(eq(workspaceRows.databaseId, entries.id))
		await queueDelivery(deps, after.id)
		const [given] = await until(
			'the write after it given up on',
			() => t.db.select().from(workspaceWrites).where(eq(workspaceWrites.id, after.id)),
			([write]) => write?.state === 'dead',
		)
		expect(given?.lastError).toMatch(/no row to update/)
		const rowsAfter = await t.db.select().from(workspaceRows).where(eq(workspaceRows.databaseId, entries.id))
		expect(rowsAfter).toHaveLength(rowsBefore.length)
	})
})

describe('manual entries', () => {
	test('an entry typed in by hand, then changed twice: the row ends with the last change, in order', async () => {
		const owner = await t.signUp()
		const { byName, entries } = await mappedSample(owner.token)
		const projects = await t.request('GET', `/dashboard/local/databases/${byName.Projects?.id}/rows?limit=2`, {
			token: owner.token,
		})
		const [first, second] = projects.body.rows.map((r: { id: string }) => r.id) as [string, string]
		const created = await t.request('POST', '/dashboard/local_time/entries', {
			token: owner.token,
			json: {
				databaseId: entries.id,
				startedAt: '2026-03-02T09:00:00.000Z',
				durationSeconds: 5400,
				description: 'Typed in',
				project: first,
				tags: ['Meeting'],
			},
		})
		expect(created.status).toBe(201)
		expect(created.body).toMatchObject({ isRunning: false, endedAt: '2026-03-02T10:30:00.000Z' })
		const id = created.body.id as string
		const edits = [
			{ description: 'Typed in, renamed', project: second },
			{ tags: [], billable: true, endedAt: '2026-03-02T11:00:00.000Z' },
		]
		for (const edit of edits) {
			const changed = await t.request('PATCH', `/dashboard/local_time/entries/${id}`, {
				token: owner.token,
				json: edit,
			})
			expect(changed.status).toBe(200)
		}
		const entry = await until(
			'every change delivered',
			async () =>
				(
					(await t.request('GET', '/dashboard/local_time/entries', { token: owner.token })).body as {
						id: string
						delivery: string
						rowId: string | null
					}[]
				).find((e) => e.id === id),
			(e) => e?.delivery === 'delivered' && e.rowId !== null,
		)
		const done = await row(owner.token, entries.id, entry?.rowId as string)
		expect(done.title).toBe('Typed in, renamed')
		expect(done.values[idOf(entries, 'When') as string]).toMatchObject({
			start: '2026-03-02T09:00:00.000Z',
			end: '2026-03-02T11:00:00.000Z',
		})
		expect(done.values[idOf(entries, 'Hours') as string]).toBe(2)
		expect(done.values[idOf(entries, 'Project') as string]).toEqual([second])
		expect(done.values[idOf(entries, 'Tags') as string]).toEqual([])
		expect(done.values[idOf(entries, 'Billable') as string]).toBe(true)
	})

	test('bad entries and edits are 400s naming the field; only the person changes their entry', async () => {
		const team = await teamWithEveryRole(t)
		const { entries } = await mappedSample(team.owner.token)
		const create = (json: Record<string, unknown>) =>
			t.request('POST', '/dashboard/local_time/entries', {
				token: team.member.token,
				json: { databaseId: entries.id, startedAt: '2026-03-02T09:00:00Z', ...json },
			})
		const cases: [Record<string, unknown>, string][] = [
			[{}, 'endedAt'],
			[{ endedAt: '2026-03-02T08:00:00Z' }, 'endedAt'],
			[{ durationSeconds: -5 }, 'durationSeconds'],
			[{ endedAt: '2026-03-20T08:00:00Z' }, 'endedAt'],
			[{ startedAt: 'yesterday', durationSeconds: 60 }, 'startedAt'],
			[{ durationSeconds: 60, tags: ['Nope'] }, 'tags'],
			[{ duration: '3 days' }, 'duration'],
			[{ duration: 'soon' }, 'duration'],
		]
		for (const [json, field] of cases) {
			const response = await create(json)
			expect(response.status, JSON.stringify(json)).toBe(400)
			expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field)
		}
		const typed = await create({ duration: '1:30', description: 'Typed duration' })
		expect(typed.status).toBe(201)
		expect(typed.body.endedAt).toBe('2026-03-02T10:30:00.000Z')
		const created = await create({ durationSeconds: 600, description: 'Mine' })
		expect(created.status).toBe(201)
		const path = `/dashboard/local_time/entries/${created.body.id}`
		const badEdit = await t.request('PATCH', path, {
			token: team.member.token,
			json: { endedAt: '2026-03-01T00:00:00Z' },
		})
		expect(badEdit.status).toBe(400)
		expect(badEdit.body.errors[0].field).toBe('endedAt')
		const refused = await t.request('PATCH', path, { token: team.owner.token, json: { description: 'Not yours' } })
		expect(refused.status).toBe(403)
		const stranger = await t.signUp()
		const hidden = await t.request('PATCH', path, { token: stranger.token, json: { description: 'Nope' } })
		expect(hidden.status).toBe(404)
		const strangerList = await t.request('GET', '/dashboard/local_time/entries', { token: stranger.token })
		expect(strangerList.body).toEqual([])
		const running = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: team.member.token,
			json: { databaseId: entries.id },
		})
		const endRunning = await t.request('PATCH', `/dashboard/local_time/entries/${running.body.id}`, {
			token: team.member.token,
			json: { endedAt: '2030-01-01T00:00:00Z' },
		})
		expect(endRunning.status).toBe(400)
		expect(endRunning.body.errors[0].field).toBe('endedAt')
	})
})
