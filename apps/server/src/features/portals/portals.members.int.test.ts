import { randomUUID } from 'node:crypto'
import { portalAccessSchema, portalBrandingSchema } from '@blocksmith/contracts/portals.ts'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { newPortalLink, portalLinksTo, tokenOf } from '#src/test/portal-mail.ts'
import {
	insertSamplePortal,
	memberWithSession,
	propertyId,
	rowIdByTitle,
	type SampleDatabase,
	sampleDatabases,
} from '#src/test/portals.ts'
import { expectRefusedByRole, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, randomIp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { portalMagicLinks, portalMembers, portals } from './portals.schema.ts'

// The team's side of portal members (/dashboard/{tool}_portal/invitations): bulk invitations
// matched against the sample's Clients in the mirror, the plan's member limit, resend, change,
// remove; tenancy (another organization's portal or member is a 404 on every route), roles, and
// the wall between the two kinds of session. On the Starter plan (25 portal members).

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>
let demo: ReturnType<typeof fake.seed>

beforeAll(async () => {
	fake = await createFakeNotion()
	demo = fake.seed()
	t = await createTestApp({ BILLING_TRIAL_PLAN: 'starter', NOTION_API_BASE_URL: fake.url })
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Setup = Awaited<ReturnType<typeof setUp>>

async function setUp(access: Record<string, unknown> = {}) {
	const team = await teamWithEveryRole(t)
	const databases = await sampleDatabases(t, team.owner.token)
	const portal = await insertSamplePortal(t, team.orgId, databases, { access })
	const clients = databases.Clients as SampleDatabase
	const acme = await rowIdByTitle(t, clients.id, 'Acme Ltd')
	const globex = await rowIdByTitle(t, clients.id, 'Globex Corporation')
	return { team, databases, portal, clients, acme, globex }
}

const base = '/dashboard/local_portal/invitations'

function invite(token: string, portalId: string, members: unknown[], sendEmails = false) {
	return t.request('POST', `${base}/bulk_invite`, { token, json: { portalId, members, sendEmails } })
}

function unique(name: string): string {
	return `${name}-${randomUUID().slice(0, 8)}@client.example`
}

describe('bulk_invite', () => {
	test('three members of two companies (by title without case, or by row id); an unknown company is refused alone; duplicates merged; the mailed link signs in', async () => {
		const { team, portal, acme, globex } = await setUp()
		const [ann, bob, cid, dan] = [unique('ann'), unique('bob'), unique('cid'), unique('dan')]
		const response = await invite(
			team.owner.token,
			portal.id,
			[
				{ email: ann, company: 'acme ltd' },
				{ email: bob.toUpperCase(), company: acme },
				{ email: cid, name: null, company: 'Globex Corporation' },
				{ email: dan, company: 'Nobody Inc' },
				{ email: cid, name: 'Cid Client', company: 'Globex Corporation' },
			],
			true,
		)
		expect(response.status, JSON.stringify(response.body)).toBe(200)
		expect(response.body.existing).toEqual([])
		expect(response.body.refused).toEqual([{ index: 3, email: dan, reason: expect.stringMatching(/Nobody Inc/) }])
		expect(response.body.invited).toEqual([
			expect.objectContaining({ email: ann, companyRowId: acme, companyName: 'Acme Ltd', status: 'invited' }),
			expect.objectContaining({ email: bob, companyRowId: acme, companyName: 'Acme Ltd' }),
			expect.objectContaining({
				email: cid,
				name: 'Cid Client',
				companyRowId: globex,
				companyName: 'Globex Corporation',
			}),
		])
		expect(response.body.invited[0]).toMatchObject({ hasPassword: false, lastSeenAt: null, name: null })

		// The invitation names the portal and who invited, with a link to /p/{slug}/sign-in.
		const mail = await t.waitForMail(cid, /Olive Owner invited you to Client portal/)
		const link = mail.links.find((candidate) => candidate.includes('sign-in?token=')) ?? ''
		expect(link.startsWith(`http://localhost:3000/p/${portal.slug}/sign-in?token=`)).toBe(true)
		const verified = await t.request('POST', `/api/portal/${portal.slug}/auth/verify`, {
			json: { token: tokenOf(link) },
			ip: randomIp(),
		})
		expect(verified.status, JSON.stringify(verified.body)).toBe(200)
		const signedOut = await t.request('POST', `/api/portal/${portal.slug}/auth/sign_out`, {
			token: verified.body.token,
			ip: randomIp(),
		})
		expect(signedOut.status).toBe(204)
		// Nobody was mailed for the refused line.
		expect(await portalLinksTo(t, dan)).toEqual([])

		// Inviting again: members already there are listed as existing and left as they were.
		const again = await invite(team.owner.token, portal.id, [
			{ email: ann, company: 'Globex Corporation' },
			{ email: unique('eve'), company: null },
		])
		expect(again.status).toBe(200)
		expect(again.body.existing).toEqual([ann])
		expect(again.body.invited).toHaveLength(1)
		expect(again.body.invited[0]).toMatchObject({ companyRowId: null, companyName: null })

		// The list: newest invitations first, then by e-mail; the member who signed in is active.
		const list = await t.request('GET', `${base}?portalId=${portal.id}`, { token: team.member.token })
		expect(list.status).toBe(200)
		expect(list.body.map((member: { email: string }) => member.email)).toEqual([
			again.body.invited[0].email,
			...[ann, bob, cid].sort(),
		])
		const listedCid = list.body.find((member: { email: string }) => member.email === cid)
		expect(listedCid).toMatchObject({ status: 'active', companyName: 'Globex Corporation' })
		expect(listedCid.lastSeenAt).not.toBeNull()
		expect(list.body.find((member: { email: string }) => member.email === ann)).toMatchObject({ companyRowId: acme })
	})

	test('finds the member’s own row in the members database and their workspace person, by e-mail', async () => {
		const databases = {} as Record<string, SampleDatabase>
		const team = await teamWithEveryRole(t)
		Object.assign(databases, await sampleDatabases(t, team.owner.token))
		const clients = databases.Clients as SampleDatabase
		// The sample's Clients double as the members database: Acme's e-mail is billing@acmeltd.example.
		const portal = await insertSamplePortal(t, team.orgId, databases, {
			access: { membersDatabaseId: clients.id, membersEmailProperty: propertyId(clients, 'Email') },
		})
		const response = await invite(team.owner.token, portal.id, [
			{ email: 'Billing@AcmeLtd.example', company: 'Acme Ltd' },
			{ email: team.admin.email, company: null },
		])
		expect(response.status, JSON.stringify(response.body)).toBe(200)
		const stored = await t.db.select().from(portalMembers).where(eq(portalMembers.portalId, portal.id))
		const acmeContact = stored.find((member) => member.email === 'billing@acmeltd.example')
		expect(acmeContact?.memberRowId).toBe(await rowIdByTitle(t, clients.id, 'Acme Ltd'))
		expect(acmeContact?.personRef).toBeNull()
		const teammate = stored.find((member) => member.email === team.admin.email.toLowerCase())
		expect(teammate?.personRef).toBe(team.admin.userId)
		expect(teammate?.memberRowId).toBeNull()
	})

	test('the plan’s member limit: lines past it are refused with the reason; with no room left the batch is a 402', async () => {
		const { team, portal } = await setUp()
		// 23 of the Starter plan's 25 taken already.
		await t.db.insert(portalMembers).values(
			Array.from({ length: 23 }, (_, index) => ({
				id: randomUUID(),
				organizationId: team.orgId,
				portalId: portal.id,
				email: `filler-${index}@client.example`,
			})),
		)
		const emails = [unique('one'), unique('two'), unique('three')]
		const response = await invite(
			team.admin.token,
			portal.id,
			emails.map((email) => ({ email, company: 'Acme Ltd' })),
		)
		expect(response.status, JSON.stringify(response.body)).toBe(200)
		expect(response.body.invited.map((member: { email: string }) => member.email)).toEqual(emails.slice(0, 2))
		expect(response.body.refused).toEqual([
			{ index: 2, email: emails[2], reason: expect.stringMatching(/Portal members: 23 of 25 .*Starter plan/) },
		])
		const full = await invite(team.admin.token, portal.id, [{ email: unique('four') }])
		expect(full.status).toBe(402)
		expect(full.body).toMatchObject({
			code: 'PLAN_LIMIT_REACHED',
			limit: { key: 'portalMembers', used: 25, allowed: 25 },
		})
		// A batch of members who are all there already needs no room.
		const existing = await invite(team.admin.token, portal.id, [{ email: emails[0] }])
		expect(existing.status).toBe(200)
		expect(existing.body.existing).toEqual([emails[0]])
	})

	test('bad lines are a 400 naming the field; more than 500 lines are refused', async () => {
		const { team, portal } = await setUp()
		const bad = await invite(team.owner.token, portal.id, [
			{ email: unique('ok') },
			{ email: unique('fine') },
			{ email: 'not an e-mail' },
		])
		expect(bad.status).toBe(400)
		expect(bad.body.code).toBe('VALIDATION_FAILED')
		expect(bad.body.errors.map((error: { field: string }) => error.field)).toEqual(['members.2.email'])
		const tooMany = await invite(
			team.owner.token,
			portal.id,
			Array.from({ length: 501 }, (_, index) => ({ email: `m${index}@client.example` })),
		)
		expect(tooMany.status).toBe(400)
		expect(tooMany.body.errors.map((error: { field: string }) => error.field)).toEqual(['members'])
		const none = await t.db.select().from(portalMembers).where(eq(portalMembers.portalId, portal.id))
		expect(none).toEqual([])
	})
})

async function invitedMember(setup: Setup, email: string, company: string | null = 'Acme Ltd') {
	const response = await invite(setup.team.owner.token, setup.portal.id, [{ email, company }], true)
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	const link = await newPortalLink(t, email)
	return { id: response.body.invited[0].id as string, link }
}

function verify(slug: string, link: string) {
	return t.request('POST', `/api/portal/${slug}/auth/verify`, { json: { token: tokenOf(link) }, ip: randomIp() })
}

describe('one member', () => {
	test('resend mails a fresh 7-day link; the older unused one stops working', async () => {
		const setup = await setUp()
		const email = unique('resend')
		const first = await invitedMember(setup, email)
		const resent = await t.request('POST', `${base}/${first.id}/resend`, { token: setup.team.admin.token })
		expect(resent.status, JSON.stringify(resent.body)).toBe(200)
		expect(resent.body).toMatchObject({ id: first.id, email, companyName: 'Acme Ltd' })
		const second = await newPortalLink(t, email, [first.link])
		expect((await verify(setup.portal.slug, first.link)).body.code).toBe('INVALID_TOKEN')
		const session = await verify(setup.portal.slug, second)
		expect(session.status).toBe(200)
		// Good for 7 days, not 8.
		const [link] = await t.db.select().from(portalMagicLinks).where(eq(portalMagicLinks.memberId, first.id))
		const days = ((link?.expiresAt.getTime() ?? 0) - (link?.createdAt.getTime() ?? 0)) / 86_400_000
		expect(days).toBeGreaterThan(6.99)
		expect(days).toBeLessThan(7.01)
	})

	test('change the name and the company (matched as in bulk_invite; unknown is a 400 naming company; null removes it)', async () => {
		const setup = await setUp()
		const { id } = (
			await invite(setup.team.owner.token, setup.portal.id, [{ email: unique('move'), company: 'Acme Ltd' }])
		).body.invited[0]
		const path = `${base}/${id}`
		const moved = await t.request('PATCH', path, { token: setup.team.owner.token, json: { company: 'INITECH' } })
		expect(moved.status, JSON.stringify(moved.body)).toBe(200)
		expect(moved.body).toMatchObject({
			companyRowId: await rowIdByTitle(t, setup.clients.id, 'Initech'),
			companyName: 'Initech',
			name: null,
		})
		const named = await t.request('PATCH', path, { token: setup.team.owner.token, json: { name: 'Ivy Initech' } })
		expect(named.body).toMatchObject({ name: 'Ivy Initech', companyName: 'Initech' })
		const unknown = await t.request('PATCH', path, { token: setup.team.owner.token, json: { company: 'Nobody Inc' } })
		expect(unknown.status).toBe(400)
		expect(unknown.body.errors).toEqual([{ field: 'company', message: expect.stringMatching(/Nobody Inc/) }])
		const cleared = await t.request('PATCH', path, { token: setup.team.owner.token, json: { company: null } })
		expect(cleared.body).toMatchObject({ name: 'Ivy Initech', companyRowId: null, companyName: null })
	})

	test('remove: the member’s session and unused links stop working at once', async () => {
		const setup = await setUp()
		const email = unique('gone')
		const { id, link } = await invitedMember(setup, email)
		const session = await verify(setup.portal.slug, link)
		expect(session.status).toBe(200)
		// A second link, asked for on the portal and not used yet.
		const asked = await t.request('POST', `/api/portal/${setup.portal.slug}/auth/magic_link`, {
			json: { email },
			ip: randomIp(),
		})
		expect(asked.status).toBe(202)
		const unused = await newPortalLink(t, email, [link])

		const removed = await t.request('DELETE', `${base}/${id}`, { token: setup.team.owner.token })
		expect(removed.status).toBe(204)
		const signOut = await t.request('POST', `/api/portal/${setup.portal.slug}/auth/sign_out`, {
			token: session.body.token,
			ip: randomIp(),
		})
		expect(signOut.status).toBe(401)
		const replay = await verify(setup.portal.slug, unused)
		expect(replay.status).toBe(400)
		expect(replay.body.code).toBe('INVALID_TOKEN')
		const list = await t.request('GET', `${base}?portalId=${setup.portal.id}`, { token: setup.team.owner.token })
		expect(list.body).toEqual([])
		expect((await t.request('DELETE', `${base}/${id}`, { token: setup.team.owner.token })).status).toBe(404)
	})
})

describe('who may', () => {
	let setup: Setup
	let memberId: string
	let other: { token: string; portalId: string; memberId: string }

	beforeAll(async () => {
		setup = await setUp()
		memberId = (await invite(setup.team.owner.token, setup.portal.id, [{ email: unique('mine') }])).body.invited[0].id
		// Another organization's portal and member.
		const stranger = await t.signUp()
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: stranger.token })
		const strangerPortal = await insertSamplePortal(t, details.body.id, await sampleDatabases(t, stranger.token))
		const theirs = await invite(stranger.token, strangerPortal.id, [{ email: unique('theirs') }])
		other = { token: stranger.token, portalId: strangerPortal.id, memberId: theirs.body.invited[0].id }
	})

	function everyRoute(portalId: string, id: string): [string, string, unknown?][] {
		return [
			['GET', `${base}?portalId=${portalId}`],
			['POST', `${base}/bulk_invite`, { portalId, members: [{ email: unique('probe') }], sendEmails: false }],
			['POST', `${base}/${id}/resend`],
			['PATCH', `${base}/${id}`, { name: 'Probe' }],
			['DELETE', `${base}/${id}`],
		]
	}

	test("another organization's portal and members are a 404 on every route, as is a portal of the other tool", async () => {
		for (const [method, path, json] of everyRoute(other.portalId, other.memberId)) {
			const response = await t.request(method, path, { token: setup.team.owner.token, json })
			expect(response.status, `${method} ${path}`).toBe(404)
		}
		for (const [method, path, json] of everyRoute(setup.portal.id, memberId)) {
			const notion = path.replace('/local_portal/', '/notion_portal/')
			const response = await t.request(method, notion, { token: setup.team.owner.token, json })
			expect(response.status, `${method} ${notion}`).toBe(404)
		}
		// Nothing of theirs changed.
		const [theirs] = await t.db.select().from(portalMembers).where(eq(portalMembers.id, other.memberId))
		expect(theirs?.name).toBeNull()
		const count = await t.db.select().from(portalMembers).where(eq(portalMembers.portalId, other.portalId))
		expect(count).toHaveLength(1)
	})

	test('a member of the team reads the list; changes are for owners and admins (403)', async () => {
		const list = await t.request('GET', `${base}?portalId=${setup.portal.id}`, { token: setup.team.member.token })
		expect(list.status).toBe(200)
		expect(list.body).toHaveLength(1)
		for (const [method, path, json] of everyRoute(setup.portal.id, memberId).slice(1)) {
			expectRefusedByRole(await t.request(method, path, { token: setup.team.member.token, json }))
		}
		const [mine] = await t.db
			.select()
			.from(portalMembers)
			.where(and(eq(portalMembers.id, memberId), eq(portalMembers.portalId, setup.portal.id)))
		expect(mine?.name).toBeNull()
	})

	test("a portal member's session is a 401 on the dashboard; a team member's token is a 401 on the portal", async () => {
		const { token } = await memberWithSession(t, setup.portal, { email: unique('visitor') })
		for (const [method, path, json] of [
			...everyRoute(setup.portal.id, memberId),
			['GET', '/dashboard/users/get_org_details'] as [string, string],
			['GET', '/dashboard/local/databases'] as [string, string],
		]) {
			const response = await t.request(method, path, { token, json })
			expect(response.status, `${method} ${path}`).toBe(401)
		}
		const signOut = await t.request('POST', `/api/portal/${setup.portal.slug}/auth/sign_out`, {
			token: setup.team.owner.token,
			ip: randomIp(),
		})
		expect(signOut.status).toBe(401)
		const setPassword = await t.request('POST', `/api/portal/${setup.portal.slug}/auth/set_password`, {
			token: setup.team.owner.token,
			json: { password: 'a long enough password' },
			ip: randomIp(),
		})
		expect(setPassword.status).toBe(401)
	})
})

describe('on a Notion workspace', () => {
	test('companies matched in the mirrored Clients, the own row by e-mail, the person among Notion’s users', async () => {
		const owner = await t.signUp()
		const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
		const connected = await t.request('POST', '/dashboard/workspaces', {
			token: owner.token,
			json: { tool: 'notion', method: 'token', token: fake.token },
		})
		expect(connected.status).toBe(201)
		const workspaceId = connected.body.workspace.id as string
		type Synced = SampleDatabase & { sync: { state: string; lastSyncedAt: string | null } }
		const synced = await until(
			'the first sync',
			async () =>
				(await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token: owner.token }))
					.body as Synced[],
			(list) => list.length >= 4 && list.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt !== null),
		)
		const clients = synced.find((database) => database.name === 'Clients') as Synced
		const [portal] = await t.db
			.insert(portals)
			.values({
				id: randomUUID(),
				organizationId: orgId,
				tool: 'notion',
				name: 'Notion portal',
				slug: `notion-${randomUUID().slice(0, 8)}`,
				branding: portalBrandingSchema.parse({}),
				access: portalAccessSchema.parse({
					companiesDatabaseId: clients.id,
					membersDatabaseId: clients.id,
					membersEmailProperty: propertyId(clients, 'Email'),
				}),
			})
			.returning()
		const portalId = portal?.id as string
		const response = await t.request('POST', '/dashboard/notion_portal/invitations/bulk_invite', {
			token: owner.token,
			json: {
				portalId,
				members: [
					{ email: 'billing@acme.example', company: 'ACME LTD' },
					{ email: 'Grace@Example.com', company: null },
				],
				sendEmails: false,
			},
		})
		expect(response.status, JSON.stringify(response.body)).toBe(200)
		const acme = await rowIdByTitle(t, clients.id, 'Acme Ltd')
		expect(demo.pages.clients).toContain(acme)
		expect(response.body.invited[0]).toMatchObject({ companyRowId: acme, companyName: 'Acme Ltd' })
		const stored = await t.db.select().from(portalMembers).where(eq(portalMembers.portalId, portalId))
		expect(stored.find((member) => member.email === 'billing@acme.example')?.memberRowId).toBe(acme)
		expect(stored.find((member) => member.email === 'grace@example.com')?.personRef).toBe(demo.users.grace)

		const list = await t.request('GET', `/dashboard/notion_portal/invitations?portalId=${portalId}`, {
			token: owner.token,
		})
		expect(list.body.map((member: { email: string }) => member.email)).toEqual([
			'billing@acme.example',
			'grace@example.com',
		])
		const local = await t.request('GET', `/dashboard/local_portal/invitations?portalId=${portalId}`, {
			token: owner.token,
		})
		expect(local.status).toBe(404)
	})
})
