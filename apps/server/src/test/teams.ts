import { randomUUID } from 'node:crypto'
import type { Role } from '@blocksmith/contracts/teams.ts'
import { expect } from 'vitest'
import { members } from '#src/core/auth/auth.schema.ts'
import type { TestApp } from '#src/test/test-app.ts'

// A team for role tests: one organization with an owner, an admin and a member, each signed in
// and working in it. The teammates' memberships are written as an accepted invitation leaves
// them (the invitation flow has its own tests in core/teams).

type Account = Awaited<ReturnType<TestApp['signUp']>>

export type Team = { orgId: string; owner: Account; admin: Account; member: Account }

export async function teamWithEveryRole(t: TestApp): Promise<Team> {
	const owner = await t.signUp({ name: 'Olive Owner' })
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
	expect(details.status).toBe(200)
	const orgId = details.body.id as string
	const join = async (role: Role, name: string) => {
		const account = await t.signUp({ name })
		await t.db.insert(members).values({ id: randomUUID(), organizationId: orgId, userId: account.userId, role })
		const switched = await t.request('POST', `/dashboard/organizations/${orgId}/switch`, { token: account.token })
		expect(switched.status).toBe(200)
		const now = await t.request('GET', '/dashboard/users/get_org_details', { token: account.token })
		expect(now.body).toMatchObject({ id: orgId, role })
		return account
	}
	return { orgId, owner, admin: await join('admin', 'Ada Admin'), member: await join('member', 'Max Member') }
}

/** A 403 a member meets: the closed code and a sentence naming who can do it. */
export function expectRefusedByRole(response: { status: number; body: { code?: string; detail?: string } }) {
	expect(response.status).toBe(403)
	expect(response.body.code).toBe('FORBIDDEN')
	expect(response.body.detail).toMatch(/owner or admin/)
}
