import { randomUUID } from 'node:crypto'
import { and, eq, ne, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { accounts, invitations, members, organizations, sessions, users } from '#src/core/auth/auth.schema.ts'
import { formSubmissions, forms } from '#src/features/forms/forms.schema.ts'
import { timeEntries } from '#src/features/time/time.schema.ts'
import { fieldOf, publishedEnquiryForm, submitAnswers } from '#src/test/forms.ts'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { mappedSample, until } from '#src/test/time.ts'
import { organizationDeletions } from './deletion.schema.ts'

// Deleting one's own account, per role: the only owner of a team is refused (SOLE_OWNER) and
// nothing changes; an owner with a co-owner, an admin and a member leave (the team and its data
// stay); the only member takes the organization with them (purged at once). Confirmed by the
// password (a wrong one is a 400 naming it, limited as sign-in) or, without one, by a sign-in of
// the last 10 minutes. Every session ends at once and the address can sign up again. What the
// team keeps of a person: their time entries (stopped when running) and their pending invitations.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
	await t.close()
})

const path = '/dashboard/users/delete_account'
type Account = Awaited<ReturnType<TestApp['signUp']>>

const preview = async (token: string) => {
	const response = await t.request('GET', path, { token })
	expect(response.status).toBe(200)
	return response.body
}
/** Asks to delete the account: with its own password unless another (or none: null) is given. */
const deleteWith = (account: Account, password: string | null = account.password) =>
	t.request('POST', path, { token: account.token, json: password === null ? {} : { password } })

async function expectGone(account: Account) {
	expect(await t.db.select().from(users).where(eq(users.id, account.userId))).toEqual([])
	expect(await t.db.select().from(sessions).where(eq(sessions.userId, account.userId))).toEqual([])
	expect(await t.db.select().from(members).where(eq(members.userId, account.userId))).toEqual([])
	expect(await t.db.select().from(accounts).where(eq(accounts.userId, account.userId))).toEqual([])
	// The old token is refused at once, by the token check and by the dashboard.
	expect((await t.request('GET', '/auth/validate_token', { token: account.token })).status).toBe(401)
	expect((await t.request('GET', '/dashboard/users/get_org_details', { token: account.token })).status).toBe(401)
}

async function memberIds(orgId: string) {
	const rows = await t.db.select({ userId: members.userId }).from(members).where(eq(members.organizationId, orgId))
	return rows.map((row) => row.userId).sort()
}

describe('who may delete their account', () => {
	test('the only owner of an organization with other members is refused, and nothing changes', async () => {
		const team = await teamWithEveryRole(t)
		const [org] = await t.db.select().from(organizations).where(eq(organizations.id, team.orgId))
		const shown = await preview(team.owner.token)
		expect(shown.blockedBy).toEqual([{ id: team.orgId, name: org?.name }])
		expect(shown.leavesOrganizations).toEqual([])
		expect(shown.deletesOrganizations).toEqual([])
		expect(shown.hasPassword).toBe(true)

		const refused = await deleteWith(team.owner)
		expect(refused.status).toBe(409)
		expect(refused.body.code).toBe('SOLE_OWNER')
		expect(refused.body.detail).toContain(`“${org?.name}”`)
		expect(await t.db.select().from(users).where(eq(users.id, team.owner.userId))).toHaveLength(1)
		expect(await memberIds(team.orgId)).toEqual([team.owner.userId, team.admin.userId, team.member.userId].sort())
		expect((await t.request('GET', '/auth/validate_token', { token: team.owner.token })).status).toBe(200)
		expect(
			await t.db.select().from(organizationDeletions).where(eq(organizationDeletions.organizationId, team.orgId)),
		).toEqual([])
	})

	test('an owner with a co-owner leaves; the organization, its data and the co-owner carry on', async () => {
		const team = await teamWithEveryRole(t)
		await t.db
			.update(members)
			.set({ role: 'owner' })
			.where(and(eq(members.organizationId, team.orgId), eq(members.userId, team.admin.userId)))
		const { form } = await publishedEnquiryForm(t, team.owner.token)
		expect((await submitAnswers(t, form, { [fieldOf(form, 'Name').id]: 'Kept' })).status).toBe(201)
		// A second session of the leaving owner (another device) ends too.
		const other = await t.signIn(team.owner.email, team.owner.password)
		expect(other.status).toBe(200)
		const otherToken = other.headers.get('set-auth-token') as string

		const shown = await preview(team.owner.token)
		expect(shown.blockedBy).toEqual([])
		expect(shown.leavesOrganizations.map((o: { id: string }) => o.id)).toEqual([team.orgId])
		expect(shown.deletesOrganizations).toEqual([])

		const deleted = await deleteWith(team.owner)
		expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
		expect(deleted.body).toEqual({ success: true })
		await expectGone(team.owner)
		expect((await t.request('GET', '/auth/validate_token', { token: otherToken })).status).toBe(401)

		expect(await t.db.select().from(organizations).where(eq(organizations.id, team.orgId))).toHaveLength(1)
		expect(await memberIds(team.orgId)).toEqual([team.admin.userId, team.member.userId].sort())
		const [kept] = await t.db.select().from(forms).where(eq(forms.id, form.id))
		expect(kept?.createdBy).toBeNull()
		expect(await t.db.select().from(formSubmissions).where(eq(formSubmissions.formId, form.id))).toHaveLength(1)
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: team.admin.token })
		expect(details.body).toMatchObject({ id: team.orgId, role: 'owner' })
		const read = await t.request('GET', `/dashboard/forms/${form.id}`, { token: team.admin.token })
		expect(read.status).toBe(200)
	})

	test('an admin and a member leave; the owner and the rest of the team are untouched', async () => {
		const team = await teamWithEveryRole(t)
		for (const leaving of [team.admin, team.member]) {
			const shown = await preview(leaving.token)
			expect(shown.leavesOrganizations.map((o: { id: string }) => o.id)).toEqual([team.orgId])
			expect(shown.blockedBy).toEqual([])
			// Their own first organization (from sign-up) has nobody else: it goes with them.
			const [own] = await t.db
				.select({ id: members.organizationId })
				.from(members)
				.where(and(eq(members.userId, leaving.userId), ne(members.organizationId, team.orgId)))
			expect(shown.deletesOrganizations.map((o: { id: string }) => o.id)).toEqual([own?.id])
			expect((await deleteWith(leaving)).status).toBe(200)
			await expectGone(leaving)
		}
		expect(await memberIds(team.orgId)).toEqual([team.owner.userId])
		expect((await t.request('GET', '/dashboard/users/get_org_details', { token: team.owner.token })).status).toBe(200)
		const list = await t.request('GET', '/dashboard/team_invites/all_members', { token: team.owner.token })
		expect(list.body).toHaveLength(1)
		// Now alone, the owner is no longer blocked: the team goes with their account.
		expect((await preview(team.owner.token)).deletesOrganizations.map((o: { id: string }) => o.id)).toContain(
			team.orgId,
		)
	})

	test('the only member takes the organization with them: scheduled and purged at once', async () => {
		const alone = await t.signUp({ name: 'Sole Sam' })
		const neighbour = await t.signUp({ name: 'Next Door' })
		const orgOf = async (token: string) =>
			(await t.request('GET', '/dashboard/users/get_org_details', { token })).body.id as string
		const orgId = await orgOf(alone.token)
		const neighbourOrgId = await orgOf(neighbour.token)
		const mine = await publishedEnquiryForm(t, alone.token)
		const theirs = await publishedEnquiryForm(t, neighbour.token)
		for (const form of [mine.form, theirs.form]) {
			expect((await submitAnswers(t, form, { [fieldOf(form, 'Name').id]: 'An answer' })).status).toBe(201)
		}
		const shown = await preview(alone.token)
		expect(shown.deletesOrganizations.map((o: { id: string }) => o.id)).toEqual([orgId])
		expect(shown.leavesOrganizations).toEqual([])

		expect((await deleteWith(alone)).status).toBe(200)
		await expectGone(alone)
		await until(
			'the organization purged',
			() => t.db.select().from(organizations).where(eq(organizations.id, orgId)),
			(rows) => rows.length === 0,
		)
		expect(await t.db.select().from(forms).where(eq(forms.id, mine.form.id))).toEqual([])
		expect(await t.db.select().from(formSubmissions).where(eq(formSubmissions.formId, mine.form.id))).toEqual([])
		// Another person's organization and answers are untouched.
		expect(await t.db.select().from(organizations).where(eq(organizations.id, neighbourOrgId))).toHaveLength(1)
		expect(await t.db.select().from(formSubmissions).where(eq(formSubmissions.formId, theirs.form.id))).toHaveLength(1)
		expect((await t.request('GET', '/auth/validate_token', { token: neighbour.token })).status).toBe(200)
	})

	test('an organization already scheduled for deletion does not block its only owner, who leaves it', async () => {
		const team = await teamWithEveryRole(t)
		const [org] = await t.db.select().from(organizations).where(eq(organizations.id, team.orgId))
		const scheduled = await t.request('POST', '/dashboard/organization/delete', {
			token: team.owner.token,
			json: { name: org?.name },
		})
		expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200)
		const shown = await preview(team.owner.token)
		expect(shown.blockedBy).toEqual([])
		expect(shown.leavesOrganizations.map((o: { id: string }) => o.id)).toEqual([team.orgId])

		expect((await deleteWith(team.owner)).status).toBe(200)
		await expectGone(team.owner)
		// It keeps its own schedule: purged when its grace period ends, not now.
		expect(await memberIds(team.orgId)).toEqual([team.admin.userId, team.member.userId].sort())
		const [deletion] = await t.db
			.select()
			.from(organizationDeletions)
			.where(eq(organizationDeletions.organizationId, team.orgId))
		expect(deletion?.reason).toBe('requested')
		expect(deletion?.requestedBy).toBeNull()
	})

	test('the address can sign up again afterwards, as a new account', async () => {
		const first = await t.signUp()
		expect((await deleteWith(first)).status).toBe(200)
		const again = await t.signUp({ email: first.email })
		expect(again.userId).not.toBe(first.userId)
		expect((await t.request('GET', '/auth/validate_token', { token: again.token })).status).toBe(200)
	})
})

describe('confirming it is the person', () => {
	test('a wrong or missing password is a 400 naming password, and nothing is deleted', async () => {
		const account = await t.signUp()
		for (const password of ['not the password', null]) {
			const refused = await deleteWith(account, password)
			expect(refused.status).toBe(400)
			expect(refused.body.code).toBe('VALIDATION_FAILED')
			expect(refused.body.errors).toEqual([{ field: 'password', message: expect.any(String) }])
		}
		expect(await t.db.select().from(users).where(eq(users.id, account.userId))).toHaveLength(1)
		expect((await t.request('GET', '/auth/validate_token', { token: account.token })).status).toBe(200)
	})

	test('password guesses are limited as sign-in is (5 a minute)', async () => {
		const account = await t.signUp()
		for (let attempt = 0; attempt < 5; attempt++) {
			expect((await deleteWith(account, 'guess')).status).toBe(400)
		}
		const limited = await deleteWith(account, 'guess')
		expect(limited.status).toBe(429)
		expect(limited.body.code).toBe('RATE_LIMITED')
		// Even the right password waits out the window: a guesser learns nothing from it.
		expect((await deleteWith(account)).status).toBe(429)
		expect(await t.db.select().from(users).where(eq(users.id, account.userId))).toHaveLength(1)
	})

	test('without a password (Notion sign-in only) an old session must sign in again; a fresh one deletes', async () => {
		const account = await t.signUp()
		await t.db.delete(accounts).where(eq(accounts.userId, account.userId))
		await t.db.insert(accounts).values({
			id: randomUUID(),
			accountId: `notion-${account.userId}`,
			providerId: 'notion',
			userId: account.userId,
		})
		await t.db
			.update(sessions)
			.set({ createdAt: sql`now() - interval '11 minutes'` })
			.where(eq(sessions.userId, account.userId))
		const old = await preview(account.token)
		expect(old).toMatchObject({ hasPassword: false, isRecentSignIn: false })
		const refused = await deleteWith(account, null)
		expect(refused.status).toBe(403)
		expect(refused.body.code).toBe('REAUTHENTICATE')
		expect(await t.db.select().from(users).where(eq(users.id, account.userId))).toHaveLength(1)

		// As a sign-in a moment ago leaves it.
		await t.db.update(sessions).set({ createdAt: sql`now()` }).where(eq(sessions.userId, account.userId))
		expect(await preview(account.token)).toMatchObject({ hasPassword: false, isRecentSignIn: true })
		expect((await deleteWith(account, null)).status).toBe(200)
		await expectGone(account)
	})
})

describe('what the team keeps of a person who leaves', () => {
	test('their time entries stay (a running timer stopped) and their pending invitations keep working', async () => {
		const team = await teamWithEveryRole(t)
		const { entries } = await mappedSample(t, team.owner.token)
		const started = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: team.member.token,
			json: { databaseId: entries.id, description: 'Left running' },
		})
		expect(started.status, JSON.stringify(started.body)).toBe(201)
		const invited = await t.request('POST', '/dashboard/team_invites', {
			token: team.admin.token,
			json: { email: `later-${randomUUID()}@example.com`, role: 'member' },
		})
		expect(invited.status, JSON.stringify(invited.body)).toBe(201)

		expect((await deleteWith(team.member)).status).toBe(200)
		expect((await deleteWith(team.admin)).status).toBe(200)

		const [entry] = await t.db.select().from(timeEntries).where(eq(timeEntries.id, started.body.id))
		expect(entry?.userId).toBeNull()
		expect(entry?.endedAt).not.toBeNull()
		// Stopped as any stop is: its row's end queued after the start.
		expect(entry?.lastWriteId).not.toBe(entry?.createWriteId)
		// Its person stays the one who tracked it (not "No person") in the built-in database.
		expect(entry?.personRef).toBe(team.member.userId)
		const [invitation] = await t.db.select().from(invitations).where(eq(invitations.id, invited.body.id))
		expect(invitation).toMatchObject({ status: 'pending', inviterId: null })
		const pending = await t.request('GET', '/dashboard/team_invites', { token: team.owner.token })
		expect(pending.body.map((i: { id: string }) => i.id)).toContain(invited.body.id)
	})
})
