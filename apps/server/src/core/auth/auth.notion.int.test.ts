import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, randomIp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaces } from '#src/workspaces/workspaces.schema.ts'
import { accounts, members, users } from './auth.schema.ts'

// "Continue with Notion" end to end: the app, better-auth's OAuth callback, and the fake Notion's
// own sign-in and consent pages, driven as a browser would (cookies kept per site, forms posted).

const origin = 'http://localhost:3000'
let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>

beforeAll(async () => {
	fake = await createFakeNotion({ oauth: { clientId: 'client-123', clientSecret: 'secret-456' } })
	fake.seed()
	t = await createTestApp({
		LOG_LEVEL: 'silent',
		NOTION_API_BASE_URL: fake.url,
		NOTION_CLIENT_ID: 'client-123',
		NOTION_CLIENT_SECRET: 'secret-456',
		NOTION_REQUESTS_PER_SECOND: '40',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

/** A browser's cookies for one site. */
class CookieJar {
	readonly cookies = new Map<string, string>()
	take(response: { headers: Headers }) {
		for (const line of response.headers.getSetCookie()) {
			const [pair = '', ...attributes] = line.split(';')
			const separator = pair.indexOf('=')
			const name = pair.slice(0, separator).trim()
			const value = pair.slice(separator + 1).trim()
			const isExpired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === ''
			if (isExpired) {
				this.cookies.delete(name)
			} else {
				this.cookies.set(name, value)
			}
		}
	}
	header(): string {
		return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
	}
}

type Person = { email: string; name: string }

function newPerson(): Person {
	const id = randomBytes(4).toString('hex')
	return { email: `notion-${id}@example.com`, name: `Notion Person ${id}` }
}

/** One browser: its cookies for our app and for Notion, and its own address. */
function newBrowser() {
	return { app: new CookieJar(), notion: new CookieJar(), ip: randomIp() }
}
type Browser = ReturnType<typeof newBrowser>

async function appGet(browser: Browser, pathAndQuery: string) {
	const response = await t.request('GET', pathAndQuery, {
		headers: browser.app.cookies.size ? { cookie: browser.app.header() } : {},
		ip: browser.ip,
	})
	browser.app.take(response)
	return response
}

async function appPost(browser: Browser, path: string, json: unknown) {
	const response = await t.request('POST', path, {
		json,
		headers: { origin, ...(browser.app.cookies.size ? { cookie: browser.app.header() } : {}) },
		ip: browser.ip,
	})
	browser.app.take(response)
	return response
}

/** The person signs in to Notion in this browser (as they would be already, on notion.so). */
async function signInToNotion(browser: Browser, person: Person) {
	const response = await fetch(`${fake.url}/__sign-in?${new URLSearchParams({ ...person })}`)
	expect(response.status).toBe(200)
	browser.notion.take(response)
}

/** Presses "Continue with Notion": better-auth hands back Notion's authorize address. */
async function startNotionSignIn(browser: Browser) {
	const started = await appPost(browser, '/api/auth/sign-in/social', {
		provider: 'notion',
		callbackURL: '/auth/notion/finish?next=%2Fworkspaces',
		errorCallbackURL: '/login',
	})
	expect(started.status).toBe(200)
	const authorize = new URL(started.body.url)
	expect(`${authorize.origin}${authorize.pathname}`).toBe(`${fake.url}/v1/oauth/authorize`)
	expect(authorize.searchParams.get('redirect_uri')).toBe(`${origin}/api/auth/callback/notion`)
	expect(authorize.searchParams.get('owner')).toBe('user')
	return authorize
}

/** Notion's consent page, answered; returns where Notion sends the browser back to. */
async function answerConsent(browser: Browser, authorize: URL, decision: 'allow' | 'deny', person?: Person) {
	const page = await fetch(authorize, { headers: { cookie: browser.notion.header() }, redirect: 'manual' })
	expect(page.status).toBe(200)
	const html = await page.text()
	expect(html).toContain('Allow access')
	if (person) {
		expect(html).toContain(`Signed in as ${person.name}`)
	}
	const form = new URLSearchParams()
	for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
		form.set(name ?? '', (value ?? '').replaceAll('&amp;', '&').replaceAll('&quot;', '"'))
	}
	form.set('decision', decision)
	const answered = await fetch(`${fake.url}/v1/oauth/authorize`, {
		method: 'POST',
		headers: { cookie: browser.notion.header(), 'content-type': 'application/x-www-form-urlencoded' },
		body: form,
		redirect: 'manual',
	})
	expect(answered.status).toBe(302)
	const back = new URL(answered.headers.get('location') ?? '')
	expect(`${back.origin}${back.pathname}`).toBe(`${origin}/api/auth/callback/notion`)
	return back
}

/** Follows our redirects from the callback to where the browser lands (the web app's page). */
async function followBack(browser: Browser, back: URL) {
	let location = `${back.pathname}${back.search}`
	for (let hop = 0; hop < 5; hop++) {
		const response = await appGet(browser, location)
		expect(response.status).toBe(302)
		const next = new URL(response.headers.get('location') ?? '', origin)
		expect(next.origin).toBe(origin)
		if (!next.pathname.startsWith('/api/') && !next.pathname.startsWith('/auth/')) {
			return next
		}
		location = `${next.pathname}${next.search}`
	}
	throw new Error('too many redirects')
}

/** The web page's part: trade the one-time token for the bearer token, as after a password sign-in. */
async function tradeOneTimeToken(browser: Browser, landing: URL) {
	expect(landing.pathname).toBe('/login/notion')
	const oneTimeToken = new URLSearchParams(landing.hash.slice(1)).get('token') ?? ''
	expect(oneTimeToken).not.toBe('')
	const verified = await appPost(browser, '/api/auth/one-time-token/verify', { token: oneTimeToken })
	expect(verified.status).toBe(200)
	const bearer = verified.headers.get('set-auth-token') ?? ''
	expect(bearer).not.toBe('')
	return { bearer, oneTimeToken }
}

async function continueWithNotion(person: Person, browser = newBrowser()) {
	await signInToNotion(browser, person)
	const authorize = await startNotionSignIn(browser)
	const back = await answerConsent(browser, authorize, 'allow', person)
	const landing = await followBack(browser, back)
	const { bearer, oneTimeToken } = await tradeOneTimeToken(browser, landing)
	const me = await t.request('GET', '/auth/validate_token', { token: bearer })
	expect(me.status).toBe(200)
	return { bearer, oneTimeToken, browser, landing, user: me.body.data as { id: string; email: string } }
}

async function notionWorkspacesOf(organizationId: string) {
	return t.db
		.select()
		.from(workspaces)
		.where(and(eq(workspaces.organizationId, organizationId), eq(workspaces.tool, 'notion')))
}

async function organizationOf(bearer: string): Promise<{ id: string; role: string }> {
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token: bearer })
	expect(details.status).toBe(200)
	return details.body
}

describe('Continue with Notion', () => {
	test('a new person gets an account, an organization and their Notion workspace connected and syncing, in one consent', async () => {
		const person = newPerson()
		const { bearer, landing, user } = await continueWithNotion(person)
		expect(landing.searchParams.get('next')).toBe('/workspaces')
		expect(user.email).toBe(person.email)

		const [record] = await t.db.select().from(users).where(eq(users.id, user.id))
		expect(record?.name).toBe(person.name)
		// Notion confirmed the address: no confirmation e-mail to wait for.
		expect(record?.emailVerified).toBe(true)

		const org = await organizationOf(bearer)
		expect(org.role).toBe('owner')
		const list = await t.request('GET', '/dashboard/workspaces', { token: bearer })
		expect(list.status).toBe(200)
		expect(list.body).toHaveLength(1)
		expect(list.body[0]).toMatchObject({ tool: 'notion', name: fake.workspace.name, status: 'connected' })

		// The token is kept once, sealed, in the workspace; the sign-in account holds none.
		const [account] = await t.db
			.select()
			.from(accounts)
			.where(and(eq(accounts.userId, user.id), eq(accounts.providerId, 'notion')))
		expect(account?.accessToken).toBeNull()
		expect(account?.refreshToken).toBeNull()
		const [workspace] = await notionWorkspacesOf(org.id)
		expect(workspace?.credentials).toBeTruthy()
		expect(workspace?.credentials).not.toContain('ntn_fake_oauth_')

		// Its databases are discovered and synced, as after "Connect with Notion".
		const databases = await until(
			'the first sync',
			async () =>
				(await t.request('GET', `/dashboard/notion/databases?workspaceId=${list.body[0].id}`, { token: bearer }))
					.body as { name: string; sync: { lastSyncedAt: string | null } }[],
			(found) => found.length >= 4 && found.every((d) => d.sync.lastSyncedAt !== null),
		)
		expect(databases.map((d) => d.name)).toEqual(expect.arrayContaining(['Clients', 'Projects']))
	})

	test('the same person signing in again gets the same account, organization and workspace, with a fresh token', async () => {
		const person = newPerson()
		const first = await continueWithNotion(person)
		const org = await organizationOf(first.bearer)
		const [before] = await notionWorkspacesOf(org.id)

		const again = await continueWithNotion(person)
		expect(again.user.id).toBe(first.user.id)
		expect((await organizationOf(again.bearer)).id).toBe(org.id)
		const after = await notionWorkspacesOf(org.id)
		expect(after).toHaveLength(1)
		expect(after[0]?.id).toBe(before?.id)
		expect(after[0]?.credentials).not.toBe(before?.credentials)
		expect(await t.db.select().from(users).where(eq(users.email, person.email))).toHaveLength(1)
		expect(await t.db.select().from(members).where(eq(members.userId, first.user.id))).toHaveLength(1)
	})

	test('an account with the same confirmed e-mail is linked, not duplicated; its password still works', async () => {
		const person = newPerson()
		const existing = await t.signUp({ email: person.email, name: 'Has A Password' })
		const mail = await t.waitForMail(person.email, /confirm/i)
		const confirmToken = new URL(mail.links.find((link) => link.includes('/confirm')) ?? '').searchParams.get('token')
		expect((await t.request('POST', '/api/confirm_user', { json: { token: confirmToken } })).status).toBe(200)
		const orgBefore = await organizationOf(existing.token)

		const { bearer, user } = await continueWithNotion(person)
		expect(user.id).toBe(existing.userId)
		expect((await organizationOf(bearer)).id).toBe(orgBefore.id)
		expect(await notionWorkspacesOf(orgBefore.id)).toHaveLength(1)
		const providers = await t.db
			.select({ providerId: accounts.providerId })
			.from(accounts)
			.where(eq(accounts.userId, user.id))
		expect(providers.map((p) => p.providerId).sort()).toEqual(['credential', 'notion'])
		expect((await t.signIn(person.email, existing.password)).status).toBe(200)
	})

	test('an unconfirmed account with that e-mail is not taken over: the sign-in is refused with a reason', async () => {
		const person = newPerson()
		const existing = await t.signUp({ email: person.email })
		const browser = newBrowser()
		await signInToNotion(browser, person)
		const back = await answerConsent(browser, await startNotionSignIn(browser), 'allow', person)
		const landing = await followBack(browser, back)
		expect(landing.pathname).toBe('/login')
		expect(landing.searchParams.get('error')).toBe('account_not_linked')
		const providers = await t.db
			.select({ providerId: accounts.providerId })
			.from(accounts)
			.where(eq(accounts.userId, existing.userId))
		expect(providers.map((p) => p.providerId)).toEqual(['credential'])
		expect(await notionWorkspacesOf((await organizationOf(existing.token)).id)).toHaveLength(0)
	})

	test('consent refused on Notion: back on /login with the reason, and nothing created', async () => {
		const person = newPerson()
		const browser = newBrowser()
		await signInToNotion(browser, person)
		const back = await answerConsent(browser, await startNotionSignIn(browser), 'deny', person)
		expect(back.searchParams.get('error')).toBe('access_denied')
		const landing = await followBack(browser, back)
		expect(landing.pathname).toBe('/login')
		expect(landing.searchParams.get('error')).toBe('access_denied')
		expect(await t.db.select().from(users).where(eq(users.email, person.email))).toHaveLength(0)
	})

	test('a callback whose state was changed, or that comes back to another browser, is refused', async () => {
		const person = newPerson()
		const browser = newBrowser()
		await signInToNotion(browser, person)
		const back = await answerConsent(browser, await startNotionSignIn(browser), 'allow', person)

		const tampered = new URL(back)
		tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`)
		const refused = await followBack(browser, tampered)
		expect(refused.pathname).toBe('/login')
		expect(refused.searchParams.get('error')).toMatch(/state/)

		// The right state, in a browser that did not start the sign-in (no state cookie): refused too.
		const elsewhere = await followBack(newBrowser(), back)
		expect(elsewhere.pathname).toBe('/login')
		expect(elsewhere.searchParams.get('error')).toMatch(/state/)
		expect(await t.db.select().from(users).where(eq(users.email, person.email))).toHaveLength(0)
	})

	test('Notion down at the token exchange: back on /login with the reason, never a 500', async () => {
		const person = newPerson()
		const browser = newBrowser()
		await signInToNotion(browser, person)
		const back = await answerConsent(browser, await startNotionSignIn(browser), 'allow', person)
		fake.setOutage(true)
		try {
			const landing = await followBack(browser, back)
			expect(landing.pathname).toBe('/login')
			expect(landing.searchParams.get('error')).toBe('invalid_code')
		} finally {
			fake.setOutage(false)
		}
		expect(await t.db.select().from(users).where(eq(users.email, person.email))).toHaveLength(0)
	})

	test('a cookie never authenticates the API: only the bearer token does; the one-time token works once', async () => {
		const { bearer, browser, oneTimeToken } = await continueWithNotion(newPerson())
		expect(browser.app.cookies.size).toBeGreaterThan(0)
		const cookie = browser.app.header()
		for (const path of ['/auth/validate_token', '/dashboard/workspaces', '/dashboard/users/get_org_details']) {
			const withCookie = await t.request('GET', path, { headers: { cookie, origin } })
			expect(withCookie.status, path).toBe(401)
			expect((await t.request('GET', path, { token: bearer })).status, path).toBe(200)
		}
		// Used once already by the web page; a second use is refused.
		const reused = await appPost(browser, '/api/auth/one-time-token/verify', { token: oneTimeToken })
		expect(reused.status).toBe(400)
		// No client can make one-time tokens from a cookie; only the finish route does.
		const minted = await t.request('GET', '/api/auth/one-time-token/generate', { headers: { cookie } })
		expect(minted.status).toBe(400)
	})

	test('the finish route without a sign-in to finish sends the browser to /login with a reason', async () => {
		const landing = await followBack(newBrowser(), new URL(`${origin}/auth/notion/finish`))
		expect(landing.pathname).toBe('/login')
		expect(landing.searchParams.get('error')).toBe('session_not_found')
		const offsite = await appGet(newBrowser(), '/auth/notion/finish?next=//evil.example/')
		expect(offsite.headers.get('location')).toBe('/login?error=session_not_found')
	})
})
