import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectRefusedByRole, type Team, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Roles on workspaces: members connect workspaces, create databases and edit rows; removing a
// workspace (disconnecting Notion, deleting a built-in one) or deleting a database loses the
// whole team's data, so it is for owners and admins. Another organization's workspace or
// database reads as 404 whatever the caller's role.

let t: TestApp
let team: Team

beforeAll(async () => {
	// One team makes more workspaces here than a trial's plan holds: the plan's limits have their own tests.
	t = await createTestApp({ BILLING_LOCAL_PLAN: 'business' })
	team = await teamWithEveryRole(t)
})
afterAll(async () => {
	await t?.close()
})

async function localWorkspace(token: string, name = 'Team data') {
	const response = await t.request('POST', '/dashboard/workspaces', { token, json: { tool: 'local', name } })
	expect(response.status).toBe(201)
	return response.body.workspace as { id: string }
}

async function database(token: string, workspaceId: string) {
	const response = await t.request('POST', '/dashboard/local/databases', {
		token,
		json: { workspaceId, name: 'Leads', properties: [{ name: 'Name', type: 'title' }] },
	})
	expect(response.status).toBe(201)
	return response.body as { id: string }
}

const workspaceIds = async (token: string) =>
	((await t.request('GET', '/dashboard/workspaces', { token })).body as { id: string }[]).map((w) => w.id)

describe('members build and edit', () => {
	test('a member connects a workspace, creates and changes a database, and adds, edits and deletes rows', async () => {
		const token = team.member.token
		const workspace = await localWorkspace(token)
		const made = await database(token, workspace.id)
		const renamed = await t.request('PATCH', `/dashboard/local/databases/${made.id}`, {
			token,
			json: { name: 'Prospects' },
		})
		expect(renamed.status).toBe(200)
		const row = await t.request('POST', `/dashboard/local/databases/${made.id}/rows`, {
			token,
			json: { values: { [renamed.body.properties[0].id]: 'Acme' } },
		})
		expect(row.status).toBe(201)
		const removed = await t.request('DELETE', `/dashboard/local/databases/${made.id}/rows/${row.body.id}`, { token })
		expect(removed.status).toBe(200)
	})
})

describe('removing a workspace', () => {
	test('a member is refused with 403 and a clear problem; the workspace stays', async () => {
		const workspace = await localWorkspace(team.owner.token)
		const sample = await t.request('POST', '/dashboard/workspaces/sample', { token: team.member.token })
		expect(sample.status).toBe(201)
		for (const id of [workspace.id, sample.body.workspace.id]) {
			expectRefusedByRole(await t.request('DELETE', `/dashboard/workspaces/${id}`, { token: team.member.token }))
		}
		expect(await workspaceIds(team.owner.token)).toEqual(
			expect.arrayContaining([workspace.id, sample.body.workspace.id]),
		)
	})

	test.each(['admin', 'owner'] as const)('an %s removes a workspace, even one a member made', async (role) => {
		const workspace = await localWorkspace(team.member.token)
		await database(team.member.token, workspace.id)
		const removed = await t.request('DELETE', `/dashboard/workspaces/${workspace.id}`, { token: team[role].token })
		expect(removed.status).toBe(200)
		expect(await workspaceIds(team.owner.token)).not.toContain(workspace.id)
	})
})

describe('deleting a database', () => {
	test('a member is refused with 403 and a clear problem; the database and its rows stay', async () => {
		const workspace = await localWorkspace(team.owner.token)
		const made = await database(team.owner.token, workspace.id)
		expectRefusedByRole(
			await t.request('DELETE', `/dashboard/local/databases/${made.id}`, { token: team.member.token }),
		)
		expect((await t.request('GET', `/dashboard/local/databases/${made.id}`, { token: team.owner.token })).status).toBe(
			200,
		)
	})

	test.each(['admin', 'owner'] as const)('an %s deletes a database, even one a member made', async (role) => {
		const workspace = await localWorkspace(team.member.token)
		const made = await database(team.member.token, workspace.id)
		const deleted = await t.request('DELETE', `/dashboard/local/databases/${made.id}`, { token: team[role].token })
		expect(deleted.status).toBe(200)
		expect((await t.request('GET', `/dashboard/local/databases/${made.id}`, { token: team.owner.token })).status).toBe(
			404,
		)
	})
})

describe('tenancy comes before the role', () => {
	test("another organization's workspace and database read as 404 to a member, never 403", async () => {
		const outsider = await t.signUp()
		const workspace = await localWorkspace(outsider.token, 'Theirs')
		const made = await database(outsider.token, workspace.id)
		const token = team.member.token
		for (const answer of [
			await t.request('DELETE', `/dashboard/workspaces/${workspace.id}`, { token }),
			await t.request('DELETE', `/dashboard/local/databases/${made.id}`, { token }),
			await t.request('DELETE', `/dashboard/workspaces/${randomUUID()}`, { token }),
			await t.request('DELETE', `/dashboard/local/databases/${randomUUID()}`, { token }),
		]) {
			expect(answer.status).toBe(404)
			expect(answer.body.code).toBe('NOT_FOUND')
		}
		expect(await workspaceIds(outsider.token)).toEqual([workspace.id])
	})
})
