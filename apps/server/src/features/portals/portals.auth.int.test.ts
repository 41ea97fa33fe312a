import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { newPortalLink, portalLinksTo, tokenOf } from '#src/test/portal-mail.ts'
import {
	insertSamplePortal,
	propertyId,
	rowIdByTitle,
	type SampleDatabase,
	sampleDatabases,
} from '#src/test/portals.ts'
import { createTestApp, randomIp, type TestApp } from '#src/test/test-app.ts'
import { portalSignInLimits } from './portals.auth.ts'
import { portalMembers, portals } from './portals.schema.ts'

// A visitor signing in to a portal (/api/portal/{slug}/auth/…): magic links (the same answer
// for members and strangers, single use, bound to their portal, 30 minutes), passwords, the
// end of sessions, and the rate limits on both ways in. Rate limits are on (the app's default):
// every request comes from an address of its own unless a test is about the address.

let t: TestApp
let orgId: string
let ownerToken: string
let databases: Record<string, SampleDatabase>
const realNow = () => new Date()

beforeAll(async () => {
	t = await createTestApp()
	const owner = await t.signUp({ name: 'Olive Owner' })
	ownerToken = owner.token
	orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
	databases = await sampleDatabases(t, owner.token)
})
afterEach(() => {
	t.services.portals.deps.now = realNow
})
afterAll(async () => {
	await t?.close()
})

function unique(name: string): string {
	return `${name}-${randomUUID().slice(0, 8)}@client.example`
}

async function portalWith(overrides: Parameters<typeof insertSamplePortal>[3] = {}) {
	return insertSamplePortal(t, orgId, databases, overrides)
}

async function addMember(portal: { id: string }, email: string) {
	const response = await t.request('POST', '/dashboard/local_portal/invitations/bulk_invite', {
		token: ownerToken,
		json: { portalId: portal.id, members: [{ email, company: 'Acme Ltd' }], sendEmails: false },
	})
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body.invited[0].id as string
}

function auth(slug: string, action: string, options: { json?: unknown; token?: string; ip?: string } = {}) {
	return t.request('POST', `/api/portal/${slug}/auth/${action}`, { ip: randomIp(), ...options })
}

/** Asks for a link on the portal and returns the one mailed. */
async function askLink(slug: string, email: string): Promise<string> {
	const known = await portalLinksTo(t, email)
	const asked = await auth(slug, 'magic_link', { json: { email } })
	expect(asked.status).toBe(202)
	return newPortalLink(t, email, known)
}

async function signIn(slug: string, email: string): Promise<string> {
	const session = await auth(slug, 'verify', { json: { token: tokenOf(await askLink(slug, email)) } })
	expect(session.status, JSON.stringify(session.body)).toBe(200)
	return session.body.token as string
}

describe('magic links', () => {
	test('the same 202 for a member and a stranger; only the member is mailed; the link signs in once, marks them active and finds their own row', async () => {
		const clients = databases.Clients as SampleDatabase
		const portal = await portalWith({
			access: { membersDatabaseId: clients.id, membersEmailProperty: propertyId(clients, 'Email') },
		})
		// Invited before their row's e-mail was known to match: no own row yet.
		const email = 'billing@globexcorporation.example'
		const memberId = await addMember(portal, email)
		await t.db.update(portalMembers).set({ memberRowId: null }).where(eq(portalMembers.id, memberId))
		const stranger = unique('stranger')

		const forStranger = await auth(portal.slug, 'magic_link', { json: { email: stranger } })
		const forMember = await auth(portal.slug, 'magic_link', { json: { email: 'Billing@GlobexCorporation.example' } })
		expect(forStranger.status).toBe(202)
		expect(forMember.status).toBe(202)
		expect(forMember.body).toEqual(forStranger.body)

		const mail = await t.waitForMail(email, /Your sign-in link for Client portal/)
		expect(mail.text).toMatch(/30 minutes/)
		const link = mail.links.find((candidate) => candidate.includes('sign-in?token=')) ?? ''
		expect(link.startsWith(`http://localhost:3000/p/${portal.slug}/sign-in?token=`)).toBe(true)
		expect(await portalLinksTo(t, stranger)).toEqual([])

		const session = await auth(portal.slug, 'verify', { json: { token: tokenOf(link) } })
		expect(session.status, JSON.stringify(session.body)).toBe(200)
		expect(Date.parse(session.body.expiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000)
		const [member] = await t.db.select().from(portalMembers).where(eq(portalMembers.id, memberId))
		expect(member).toMatchObject({
			status: 'active',
			memberRowId: await rowIdByTitle(t, clients.id, 'Globex Corporation'),
		})
		expect(member?.lastSeenAt).not.toBeNull()

		const replay = await auth(portal.slug, 'verify', { json: { token: tokenOf(link) } })
		expect(replay.status).toBe(400)
		expect(replay.body.code).toBe('INVALID_TOKEN')
		// The session works on a member's route.
		expect((await auth(portal.slug, 'sign_out', { token: session.body.token })).status).toBe(204)
	})

	test('a link works on its own portal only; unknown, expired and used links are the same 400', async () => {
		const portalA = await portalWith()
		const portalB = await portalWith()
		const email = unique('two-portals')
		await addMember(portalA, email)
		await addMember(portalB, email)
		const link = await askLink(portalA.slug, email)

		const onB = await auth(portalB.slug, 'verify', { json: { token: tokenOf(link) } })
		expect(onB.status).toBe(400)
		expect(onB.body.code).toBe('INVALID_TOKEN')
		const unknown = await auth(portalA.slug, 'verify', { json: { token: 'x'.repeat(43) } })
		expect(unknown.status).toBe(400)
		expect(unknown.body.detail).toBe(onB.body.detail)

		// 31 minutes later the link has expired; the same link at the right time still works, once.
		t.services.portals.deps.now = () => new Date(Date.now() + 31 * 60_000)
		const expired = await auth(portalA.slug, 'verify', { json: { token: tokenOf(link) } })
		expect(expired.status).toBe(400)
		expect(expired.body.detail).toBe(onB.body.detail)
		t.services.portals.deps.now = realNow
		const onA = await auth(portalA.slug, 'verify', { json: { token: tokenOf(link) } })
		expect(onA.status).toBe(200)
		// A session of portal A is unknown to portal B.
		expect((await auth(portalB.slug, 'sign_out', { token: onA.body.token })).status).toBe(401)
		expect((await auth(portalA.slug, 'sign_out', { token: onA.body.token })).status).toBe(204)
	})

	test('an invitation link works for 7 days', async () => {
		const portal = await portalWith()
		const email = unique('invited')
		const invited = await t.request('POST', '/dashboard/local_portal/invitations/bulk_invite', {
			token: ownerToken,
			json: { portalId: portal.id, members: [{ email }], sendEmails: true },
		})
		expect(invited.status).toBe(200)
		const token = tokenOf(await newPortalLink(t, email))
		t.services.portals.deps.now = () => new Date(Date.now() + 7 * 86_400_000 + 60_000)
		expect((await auth(portal.slug, 'verify', { json: { token } })).status).toBe(400)
		t.services.portals.deps.now = () => new Date(Date.now() + 7 * 86_400_000 - 60_000)
		expect((await auth(portal.slug, 'verify', { json: { token } })).status).toBe(200)
	})

	test('two requests racing with one link: exactly one session', async () => {
		const portal = await portalWith()
		const email = unique('race')
		await addMember(portal, email)
		const token = tokenOf(await askLink(portal.slug, email))
		const answers = await Promise.all([1, 2, 3].map(() => auth(portal.slug, 'verify', { json: { token } })))
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400])
	})

	test('a portal with a custom domain mails links to that domain', async () => {
		const domain = `p${randomUUID().slice(0, 8)}.clients.example`
		const portal = await portalWith({ customDomain: domain })
		const email = unique('domain')
		await addMember(portal, email)
		const link = await askLink(portal.slug, email)
		expect(link.startsWith(`https://${domain}/sign-in?token=`)).toBe(true)
		expect((await auth(portal.slug, 'verify', { json: { token: tokenOf(link) } })).status).toBe(200)
	})

	test('an unknown or turned-off portal is a 404; a bad e-mail a 400 naming it', async () => {
		expect((await auth('no-such-portal-here', 'magic_link', { json: { email: unique('x') } })).status).toBe(404)
		const portal = await portalWith()
		await t.db.update(portals).set({ isEnabled: false }).where(eq(portals.id, portal.id))
		expect((await auth(portal.slug, 'magic_link', { json: { email: unique('x') } })).status).toBe(404)
		const bad = await auth(portal.slug, 'magic_link', { json: { email: 'nope' } })
		expect(bad.status).toBe(400)
		expect(bad.body.errors.map((error: { field: string }) => error.field)).toEqual(['email'])
	})

	test(`at most ${portalSignInLimits.perEmail.limit} links per e-mail and ${portalSignInLimits.perIp.limit} requests per address in 15 minutes (429)`, async () => {
		const portal = await portalWith()
		const email = unique('limited')
		await addMember(portal, email)
		for (let index = 0; index < portalSignInLimits.perEmail.limit; index++) {
			expect((await auth(portal.slug, 'magic_link', { json: { email } })).status).toBe(202)
		}
		const perEmail = await auth(portal.slug, 'magic_link', { json: { email } })
		expect(perEmail.status).toBe(429)
		expect(Number(perEmail.headers.get('retry-after'))).toBeGreaterThan(0)
		// Strangers' addresses count the same, so the limit says nothing about membership.
		const stranger = unique('limited-stranger')
		for (let index = 0; index < portalSignInLimits.perEmail.limit; index++) {
			await auth(portal.slug, 'magic_link', { json: { email: stranger } })
		}
		expect((await auth(portal.slug, 'magic_link', { json: { email: stranger } })).status).toBe(429)

		const ip = randomIp()
		for (let index = 0; index < portalSignInLimits.perIp.limit; index++) {
			expect((await auth(portal.slug, 'magic_link', { json: { email: unique(`ip${index}`) }, ip })).status).toBe(202)
		}
		expect((await auth(portal.slug, 'magic_link', { json: { email: unique('one-more') }, ip })).status).toBe(429)
		// Another address is not held back.
		expect((await auth(portal.slug, 'magic_link', { json: { email: unique('elsewhere') } })).status).toBe(202)
	})
})

describe('passwords and sessions', () => {
	test('set a password (other sessions end), then sign in with it; a wrong one and an unknown address are the same 401', async () => {
		const portal = await portalWith()
		const email = unique('pw')
		const memberId = await addMember(portal, email)
		const earlier = await signIn(portal.slug, email)
		const current = await signIn(portal.slug, email)

		const short = await auth(portal.slug, 'set_password', { token: current, json: { password: 'short' } })
		expect(short.status).toBe(400)
		expect(short.body.errors.map((error: { field: string }) => error.field)).toEqual(['password'])
		const set = await auth(portal.slug, 'set_password', { token: current, json: { password: 'a portal password' } })
		expect(set.status).toBe(200)
		const [member] = await t.db.select().from(portalMembers).where(eq(portalMembers.id, memberId))
		expect(member?.passwordHash).toMatch(/\S{20,}/)
		expect(member?.passwordHash).not.toContain('a portal password')
		expect((await auth(portal.slug, 'sign_out', { token: earlier })).status).toBe(401)

		const signedIn = await auth(portal.slug, 'password', {
			json: { email: email.toUpperCase(), password: 'a portal password' },
		})
		expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
		expect(signedIn.body.token).not.toBe(current)
		const wrong = await auth(portal.slug, 'password', { json: { email, password: 'not the password' } })
		expect(wrong.status).toBe(401)
		expect(wrong.body.code).toBe('INVALID_CREDENTIALS')
		const stranger = await auth(portal.slug, 'password', {
			json: { email: unique('nobody'), password: 'a portal password' },
		})
		expect(stranger.status).toBe(401)
		expect(stranger.body).toMatchObject({ code: wrong.body.code, detail: wrong.body.detail })
		// A member who never set one cannot sign in by password either.
		const noPassword = unique('no-pw')
		await addMember(portal, noPassword)
		expect(
			(await auth(portal.slug, 'password', { json: { email: noPassword, password: 'anything at all' } })).status,
		).toBe(401)
		// The password works on its own portal only.
		const otherPortal = await portalWith()
		await addMember(otherPortal, email)
		expect((await auth(otherPortal.slug, 'password', { json: { email, password: 'a portal password' } })).status).toBe(
			401,
		)

		// Both sessions still work; signing out ends only the one it names.
		expect((await auth(portal.slug, 'sign_out', { token: current })).status).toBe(204)
		expect((await auth(portal.slug, 'sign_out', { token: current })).status).toBe(401)
		expect((await auth(portal.slug, 'sign_out', { token: signedIn.body.token })).status).toBe(204)
	})

	test('a portal that signs in by link only refuses passwords (403)', async () => {
		const portal = await portalWith({ access: { allowPasswords: false } })
		const response = await auth(portal.slug, 'password', { json: { email: unique('x'), password: 'whatever it is' } })
		expect(response.status).toBe(403)
	})

	test(`at most ${portalSignInLimits.perEmail.limit} password tries per e-mail in 15 minutes (429), even with the right one after`, async () => {
		const portal = await portalWith()
		const email = unique('guess')
		await addMember(portal, email)
		const session = await signIn(portal.slug, email)
		expect(
			(await auth(portal.slug, 'set_password', { token: session, json: { password: 'the right one!' } })).status,
		).toBe(200)
		for (let index = 0; index < portalSignInLimits.perEmail.limit; index++) {
			expect((await auth(portal.slug, 'password', { json: { email, password: `guess ${index}` } })).status).toBe(401)
		}
		expect((await auth(portal.slug, 'password', { json: { email, password: 'the right one!' } })).status).toBe(429)
	})

	test('an expired session is a 401', async () => {
		const portal = await portalWith()
		const email = unique('old')
		await addMember(portal, email)
		const session = await signIn(portal.slug, email)
		t.services.portals.deps.now = () => new Date(Date.now() + 31 * 86_400_000)
		expect((await auth(portal.slug, 'sign_out', { token: session })).status).toBe(401)
	})
})

test('the OpenAPI document describes the sign-in routes, the member ones with the portal’s own bearer scheme', async () => {
	const document = (await t.request('GET', '/api/openapi.json')).body
	for (const action of ['magic_link', 'verify', 'password']) {
		expect(document.paths[`/api/portal/{slug}/auth/${action}`]?.post?.security).toBeUndefined()
	}
	for (const action of ['set_password', 'sign_out']) {
		expect(document.paths[`/api/portal/{slug}/auth/${action}`]?.post?.security).toEqual([{ portalBearer: [] }])
	}
	expect(document.components.securitySchemes.portalBearer).toMatchObject({ type: 'http', scheme: 'bearer' })
	expect(Object.keys(document.paths)).toEqual(
		expect.arrayContaining([
			'/dashboard/local_portal/invitations',
			'/dashboard/notion_portal/invitations/bulk_invite',
			'/dashboard/local_portal/invitations/{id}',
			'/dashboard/local_portal/invitations/{id}/resend',
		]),
	)
})
