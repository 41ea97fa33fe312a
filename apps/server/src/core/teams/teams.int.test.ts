import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { organizations } from '#src/core/auth/auth.schema.ts'
import { createTestApp, randomIp, type TestApp } from '#src/test/test-app.ts'

let t: TestApp
beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

async function invite(ownerToken: string, email: string, role: 'owner' | 'admin' | 'member' = 'member') {
	const response = await t.request('POST', '/dashboard/team_invites', { token: ownerToken, json: { email, role } })
	expect(response.status).toBe(201)
	const mail = await t.waitForMail(email, /invited you to/)
	const link = new URL(mail.links[0] ?? '')
	expect(link.pathname).toBe(`/invite/${encodeURIComponent(response.body.id)}`)
	return {
		invitationId: decodeURIComponent(link.pathname.split('/').pop() ?? ''),
		linkToken: link.searchParams.get('token') ?? '',
		invitation: response.body,
	}
}

async function members(token: string) {
	const response = await t.request('GET', '/dashboard/team_invites/all_members', { token })
	expect(response.status).toBe(200)
	return response.body as { id: string; email: string; role: string; userId: string }[]
}

/** An owner with a teammate of the given role, both signed in, working in the owner's organization. */
async function team(role: 'admin' | 'member' = 'member') {
	const owner = await t.signUp({ name: 'Olive Owner' })
	const mate = await t.signUp({ name: 'Max Mate' })
	const { invitationId, linkToken } = await invite(owner.token, mate.email, role)
	const accepted = await t.request('POST', `/dashboard/invitations/${invitationId}/accept`, {
		token: mate.token,
		json: { token: linkToken },
	})
	expect(accepted.body).toMatchObject({ organizationId: expect.any(String) })
	const list = await members(owner.token)
	const mateMember = list.find((m) => m.email === mate.email)
	const ownerMember = list.find((m) => m.email === owner.email)
	if (!mateMember || !ownerMember) {
		throw new Error('team not formed')
	}
	return {
		owner,
		mate,
		mateMemberId: mateMember.id,
		ownerMemberId: ownerMember.id,
		orgId: accepted.body.organizationId,
	}
}

describe('organizations', () => {
	test('a new account gets its own organization and is its owner', async () => {
		const account = await t.signUp({ name: 'Nina' })
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: account.token })
		expect(details.status).toBe(200)
		expect(details.body).toMatchObject({ name: "Nina's workspace", role: 'owner', membersCount: 1, plan: 'pro' })
		expect(await members(account.token)).toEqual([expect.objectContaining({ email: account.email, role: 'owner' })])
	})

	test('a user in several organizations can list them and switch between them', async () => {
		const account = await t.signUp()
		const first = await t.request('GET', '/dashboard/users/get_org_details', { token: account.token })
		const created = await t.request('POST', '/dashboard/organizations', {
			token: account.token,
			json: { name: 'Side project' },
		})
		expect(created.status).toBe(201)
		const now = await t.request('GET', '/dashboard/users/get_org_details', { token: account.token })
		expect(now.body.name).toBe('Side project')
		const list = await t.request('GET', '/dashboard/organizations', { token: account.token })
		expect(list.body.map((o: { name: string }) => o.name).sort()).toEqual(['Side project', first.body.name].sort())
		const back = await t.request('POST', `/dashboard/organizations/${first.body.id}/switch`, { token: account.token })
		expect(back.status).toBe(200)
		const after = await t.request('GET', '/dashboard/users/get_org_details', { token: account.token })
		expect(after.body.id).toBe(first.body.id)
	})

	test("switching to someone else's organization reads as not found", async () => {
		const stranger = await t.signUp()
		const theirs = await t.request('GET', '/dashboard/users/get_org_details', { token: stranger.token })
		const account = await t.signUp()
		const response = await t.request('POST', `/dashboard/organizations/${theirs.body.id}/switch`, {
			token: account.token,
		})
		expect(response.status).toBe(404)
	})

	test('someone removed from their only organization lists none, creates one and works in it', async () => {
		const owner = await t.signUp({ name: 'Ona Owner' })
		const ownerOrg = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body
		// Signed up from the invitation: the team is their only organization.
		const email = `only-team-${Date.now()}@example.com`
		const { invitationId, linkToken } = await invite(owner.token, email)
		const signedUp = await t.request('POST', `/api/invitations/${invitationId}/sign_up`, {
			json: { token: linkToken, name: 'Lone Member', password: 'long enough password' },
		})
		expect(signedUp.status).toBe(201)
		const token = signedUp.body.token as string
		const memberId = (await members(owner.token)).find((m) => m.email === email)?.id
		const removed = await t.request('POST', '/dashboard/team_invites/remove_team_member', {
			token: owner.token,
			json: { memberId },
		})
		expect(removed.status).toBe(200)

		// The organization's own pages say there is none (the web shows its page for that)…
		const none = await t.request('GET', '/dashboard/users/get_org_details', { token })
		expect(none.status).toBe(403)
		expect(none.body.code).toBe('NO_ORGANIZATION')
		// …but listing is a true answer, and creating one is the way forward.
		const list = await t.request('GET', '/dashboard/organizations', { token })
		expect(list.status).toBe(200)
		expect(list.body).toEqual([])
		const switchBack = await t.request('POST', `/dashboard/organizations/${ownerOrg.id}/switch`, { token })
		expect(switchBack.status).toBe(403)
		expect(switchBack.body.code).toBe('NO_ORGANIZATION')
		const created = await t.request('POST', '/dashboard/organizations', { token, json: { name: 'Fresh Start' } })
		expect(created.status).toBe(201)
		expect(created.body).toMatchObject({ name: 'Fresh Start', role: 'owner', isActive: true })

		const details = await t.request('GET', '/dashboard/users/get_org_details', { token })
		expect(details.status).toBe(200)
		expect(details.body).toMatchObject({ id: created.body.id, name: 'Fresh Start', role: 'owner', membersCount: 1 })
		// It starts as any new organization does (the trial, on this install).
		expect(details.body).toMatchObject({ plan: ownerOrg.plan, subscriptionState: ownerOrg.subscriptionState })
		expect(details.body.subscriptionState).toBe('trialing')
		expect((await members(token)).map((m) => [m.email, m.role])).toEqual([[email, 'owner']])
		const after = await t.request('GET', '/dashboard/organizations', { token })
		expect(after.body).toEqual([expect.objectContaining({ id: created.body.id, isActive: true })])
	})

	test('the organization list marks the one the next call works in when the session lost its own', async () => {
		const { owner, mate, mateMemberId, orgId } = await team()
		const own = (await t.request('GET', '/dashboard/organizations', { token: mate.token })).body.find(
			(o: { id: string }) => o.id !== orgId,
		)
		await t.request('POST', '/dashboard/team_invites/remove_team_member', {
			token: owner.token,
			json: { memberId: mateMemberId },
		})
		const list = await t.request('GET', '/dashboard/organizations', { token: mate.token })
		expect(list.body).toEqual([expect.objectContaining({ id: own.id, isActive: true })])
	})

	test('dashboard calls need a token', async () => {
		expect((await t.request('GET', '/dashboard/team_invites/all_members')).status).toBe(401)
		expect((await t.request('GET', '/dashboard/users/get_org_details')).status).toBe(401)
	})
})

describe('invitations', () => {
	test('an organization scheduled for deletion takes no one in; restored, its invitation works again', async () => {
		const owner = await t.signUp({ name: 'Dora Deleting' })
		const invited = await t.signUp({ name: 'Ivan Invited' })
		const { invitationId, linkToken } = await invite(owner.token, invited.email)
		const { body: details } = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
		const deleted = await t.request('POST', '/dashboard/organization/delete', {
			token: owner.token,
			json: { name: details.name },
		})
		expect(deleted.status).toBe(200)
		const preview = await t.request('GET', `/api/invitations/${invitationId}`)
		expect(preview.status).toBe(410)
		expect(preview.body.detail).toMatch(/being deleted/)
		const refused = await t.request('POST', `/dashboard/invitations/${invitationId}/accept`, {
			token: invited.token,
			json: { token: linkToken },
		})
		expect(refused.status).toBe(410)
		expect((await members(invited.token)).map((member) => member.email)).toEqual([invited.email])

		expect((await t.request('POST', '/dashboard/organization/restore', { token: owner.token })).status).toBe(200)
		const accepted = await t.request('POST', `/dashboard/invitations/${invitationId}/accept`, {
			token: invited.token,
			json: { token: linkToken },
		})
		expect(accepted.status).toBe(200)
		expect(accepted.body.organizationId).toBe(details.id)
	})

	test('invite → accept → listed → removed → the removed token no longer reaches the organization', async () => {
		const { owner, mate, mateMemberId, orgId } = await team()
		expect((await members(owner.token)).map((m) => m.email)).toContain(mate.email)
		const mateView = await t.request('GET', '/dashboard/users/get_org_details', { token: mate.token })
		expect(mateView.body).toMatchObject({ id: orgId, role: 'member', membersCount: 2 })

		const removed = await t.request('POST', '/dashboard/team_invites/remove_team_member', {
			token: owner.token,
			json: { memberId: mateMemberId },
		})
		expect(removed.status).toBe(200)
		expect((await members(owner.token)).map((m) => m.email)).not.toContain(mate.email)

		// The same token still works, but only in the member's own organization.
		const after = await t.request('GET', '/dashboard/users/get_org_details', { token: mate.token })
		expect(after.status).toBe(200)
		expect(after.body.id).not.toBe(orgId)
		expect((await members(mate.token)).map((m) => m.email)).toEqual([mate.email])
		const switchBack = await t.request('POST', `/dashboard/organizations/${orgId}/switch`, { token: mate.token })
		expect(switchBack.status).toBe(404)
	})

	test('someone without an account accepts by signing up with the invited address', async () => {
		const owner = await t.signUp()
		const email = `newcomer-${Date.now()}@example.com`
		const { invitationId, linkToken } = await invite(owner.token, email, 'admin')

		const preview = await t.request('GET', `/api/invitations/${invitationId}`)
		expect(preview.status).toBe(200)
		expect(preview.body).toMatchObject({ email, role: 'admin', hasAccount: false })

		const newcomer = await t.signUp({ email, name: 'New Comer' })
		// Without the link's token, an unconfirmed address cannot join: an admin who saw the
		// invitation id must not be able to sign up as the invitee and walk in.
		const withoutToken = await t.request('POST', `/dashboard/invitations/${invitationId}/accept`, {
			token: newcomer.token,
			json: {},
		})
		expect(withoutToken.status).toBe(403)
		expect(withoutToken.body.code).toBe('EMAIL_NOT_VERIFIED')
		const forged = await t.request('POST', `/dashboard/invitations/${invitationId}/accept`, {
			token: newcomer.token,
			json: { token: 'forged-token-value' },
		})
		expect(forged.status).toBe(403)
		const accepted = await t.request('POST', `/dashboard/invitations/${invitationId}/accept`, {
			token: newcomer.token,
			json: { token: linkToken },
		})
		expect(accepted.status).toBe(200)
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: newcomer.token })
		expect(details.body).toMatchObject({ id: accepted.body.organizationId, role: 'admin' })
		// Accepting from the mailed link proves the address.
		const me = await t.request('GET', '/auth/validate_token', { token: newcomer.token })
		expect(me.body.data.emailVerified).toBe(true)
		// The link works once.
		expect((await t.request('GET', `/api/invitations/${invitationId}`)).status).toBe(410)
	})

	test('a newcomer signs up from the link and is in the team in one step: confirmed, no organization of their own, no confirmation mail', async () => {
		const owner = await t.signUp({ name: 'Oona Owner' })
		const ownerOrg = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body
		const email = `one-step-${Date.now()}@example.com`
		const { invitationId, linkToken } = await invite(owner.token, email, 'admin')
		const organizationsBefore = (await t.db.select({ id: organizations.id }).from(organizations)).length

		// Without the mailbox's token (an admin who saw the id), nobody signs up as the invitee.
		const forged = await t.request('POST', `/api/invitations/${invitationId}/sign_up`, {
			json: { token: 'forged-token-value', name: 'Mallory', password: 'long enough password' },
		})
		expect(forged.status).toBe(403)
		const tooShort = await t.request('POST', `/api/invitations/${invitationId}/sign_up`, {
			json: { token: linkToken, name: 'Nell Newcomer', password: 'short' },
		})
		expect(tooShort.status).toBe(400)

		const signedUp = await t.request('POST', `/api/invitations/${invitationId}/sign_up`, {
			json: { token: linkToken, name: 'Nell Newcomer', password: 'long enough password' },
		})
		expect(signedUp.status).toBe(201)
		expect(signedUp.body.organizationId).toBe(ownerOrg.id)
		const token = signedUp.body.token as string

		// In the team, with the invited role, in the very first session.
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token })
		expect(details.body).toMatchObject({ id: ownerOrg.id, role: 'admin', membersCount: 2 })
		const me = await t.request('GET', '/auth/validate_token', { token })
		expect(me.body.data).toMatchObject({ email, name: 'Nell Newcomer', emailVerified: true })
		// No organization of their own: the team is the only one, and none was made.
		const theirs = await t.request('GET', '/dashboard/organizations', { token })
		expect(theirs.body.map((o: { id: string }) => o.id)).toEqual([ownerOrg.id])
		expect((await t.db.select({ id: organizations.id }).from(organizations)).length).toBe(organizationsBefore)
		expect((await members(owner.token)).find((m) => m.email === email)?.role).toBe('admin')

		// The password works for the next sign-in, which also lands in the team.
		const again = await t.signIn(email, 'long enough password')
		expect(again.status).toBe(200)
		const againToken = again.headers.get('set-auth-token') ?? ''
		expect((await t.request('GET', '/dashboard/users/get_org_details', { token: againToken })).body.id).toBe(
			ownerOrg.id,
		)

		// The link is used up, and the address now has an account.
		expect((await t.request('GET', `/api/invitations/${invitationId}`)).status).toBe(410)
		const twice = await t.request('POST', `/api/invitations/${invitationId}/sign_up`, {
			json: { token: linkToken, name: 'Nell Again', password: 'long enough password' },
		})
		expect(twice.status).toBe(410)
		// The link proved the address: no confirmation mail was sent.
		await expect(t.waitForMail(email, /confirm/i, 1500)).rejects.toThrow(/no mail/)
	})

	test('an invited address that already has an account signs in to accept instead', async () => {
		const owner = await t.signUp()
		const existing = await t.signUp()
		const { invitationId, linkToken } = await invite(owner.token, existing.email)
		const response = await t.request('POST', `/api/invitations/${invitationId}/sign_up`, {
			json: { token: linkToken, name: 'Second Account', password: 'long enough password' },
		})
		expect(response.status).toBe(409)
		expect(response.body.code).toBe('EMAIL_TAKEN')
		// The invitation is still there to accept after signing in.
		expect((await t.request('GET', `/api/invitations/${invitationId}`)).status).toBe(200)
	})

	test('an invitation cannot be accepted by another account', async () => {
		const owner = await t.signUp()
		const { invitationId, linkToken } = await invite(owner.token, `target-${Date.now()}@example.com`)
		const intruder = await t.signUp()
		const response = await t.request('POST', `/dashboard/invitations/${invitationId}/accept`, {
			token: intruder.token,
			json: { token: linkToken },
		})
		expect(response.status).toBe(403)
	})

	test('pending invitations are listed and can be revoked; a revoked link is gone', async () => {
		const owner = await t.signUp()
		const { invitationId } = await invite(owner.token, `pending-${Date.now()}@example.com`)
		const list = await t.request('GET', '/dashboard/team_invites', { token: owner.token })
		expect(list.body.map((i: { id: string }) => i.id)).toEqual([invitationId])
		const revoked = await t.request('DELETE', `/dashboard/team_invites/${invitationId}`, { token: owner.token })
		expect(revoked.status).toBe(200)
		expect((await t.request('GET', '/dashboard/team_invites', { token: owner.token })).body).toEqual([])
		expect((await t.request('GET', `/api/invitations/${invitationId}`)).status).toBe(410)
	})

	test('members cannot invite; admins cannot invite owners', async () => {
		const { mate } = await team('member')
		const byMember = await t.request('POST', '/dashboard/team_invites', {
			token: mate.token,
			json: { email: 'x@example.com', role: 'member' },
		})
		expect(byMember.status).toBe(403)
		const { mate: admin } = await team('admin')
		const ownerInvite = await t.request('POST', '/dashboard/team_invites', {
			token: admin.token,
			json: { email: 'y@example.com', role: 'owner' },
		})
		expect(ownerInvite.status).toBe(403)
	})

	test('inviting an existing member is a conflict; a bad address is a field error', async () => {
		const { owner, mate } = await team()
		const again = await t.request('POST', '/dashboard/team_invites', {
			token: owner.token,
			json: { email: mate.email },
		})
		expect(again.status).toBe(409)
		const bad = await t.request('POST', '/dashboard/team_invites', {
			token: owner.token,
			json: { email: 'not-an-address' },
		})
		expect(bad.status).toBe(400)
		expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'email' })])
	})
})

describe('roles and removal', () => {
	test('a member cannot remove an owner, nor anyone else', async () => {
		const { owner, mate, ownerMemberId } = await team('member')
		const response = await t.request('POST', '/dashboard/team_invites/remove_team_member', {
			token: mate.token,
			json: { memberId: ownerMemberId },
		})
		expect(response.status).toBe(403)
		expect((await members(owner.token)).length).toBe(2)
	})

	test('an admin cannot remove an owner', async () => {
		const { mate: admin, ownerMemberId } = await team('admin')
		const response = await t.request('POST', '/dashboard/team_invites/remove_team_member', {
			token: admin.token,
			json: { memberId: ownerMemberId },
		})
		expect(response.status).toBe(403)
	})

	test('the last owner can be neither removed nor leave, until there is another owner', async () => {
		const { owner, mate, ownerMemberId, mateMemberId } = await team('member')
		const removeSelf = await t.request('POST', '/dashboard/team_invites/remove_team_member', {
			token: owner.token,
			json: { memberId: ownerMemberId },
		})
		expect(removeSelf.status).toBe(409)
		expect(removeSelf.body.code).toBe('LAST_OWNER')
		const leave = await t.request('POST', '/dashboard/organizations/leave', { token: owner.token })
		expect(leave.status).toBe(409)

		const promote = await t.request('POST', '/dashboard/team_invites/update_member_role', {
			token: owner.token,
			json: { memberId: mateMemberId, role: 'owner' },
		})
		expect(promote.status).toBe(200)
		const leaveNow = await t.request('POST', '/dashboard/organizations/leave', { token: owner.token })
		expect(leaveNow.status).toBe(200)
		expect((await members(mate.token)).map((m) => [m.email, m.role])).toEqual([[mate.email, 'owner']])
	})
})

describe('tenancy', () => {
	test("another organization's invitations and members read as not found", async () => {
		const a = await team()
		const b = await t.signUp()
		const { invitationId } = await invite(a.owner.token, `other-${Date.now()}@example.com`)

		const revoke = await t.request('DELETE', `/dashboard/team_invites/${invitationId}`, { token: b.token })
		expect(revoke.status).toBe(404)
		const remove = await t.request('POST', '/dashboard/team_invites/remove_team_member', {
			token: b.token,
			json: { memberId: a.mateMemberId },
		})
		expect(remove.status).toBe(404)
		const role = await t.request('POST', '/dashboard/team_invites/update_member_role', {
			token: b.token,
			json: { memberId: a.mateMemberId, role: 'admin' },
		})
		expect(role.status).toBe(404)
		expect((await members(b.token)).map((m) => m.email)).toEqual([b.email])
		const pending = await t.request('GET', '/dashboard/team_invites', { token: b.token })
		expect(pending.body).toEqual([])
		// Nothing changed in organization A.
		expect((await members(a.owner.token)).length).toBe(2)
	})

	test('the invitation preview needs the exact id', async () => {
		const response = await t.request('GET', '/api/invitations/does-not-exist', { ip: randomIp() })
		expect(response.status).toBe(410)
	})
})
