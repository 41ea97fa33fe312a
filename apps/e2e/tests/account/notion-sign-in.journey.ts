import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, newPage, useBrowser, waitForHome, waitForPath } from '../../fixtures.ts'

// "Continue with Notion" from a fresh browser: the person is signed in to Notion (the runner's
// fake Notion, through its own sign-in page), answers its consent page, and lands in the
// dashboard signed in, with the Notion workspace connected and its databases syncing.

const browser = useBrowser()
const fakeNotionUrl = process.env.FAKE_NOTION_URL ?? ''
const demoDatabases = ['Clients', 'Projects', 'Time entries', 'Invoices'] as const

/** The fake Notion's pages have no favicon; Chromium asks for one all the same. */
const fakeNotionFavicon = /^console error on http:\/\/127\.0\.0\.1:\d+\/favicon\.ico: /

function storedToken(page: Page): Promise<string | null> {
	return page.evaluate(() => localStorage.getItem('blocksmith.token'))
}

/** From /login: Continue with Notion, Notion's consent page, Allow access, and back. */
async function continueWithNotion(page: Page, person: { name: string }) {
	await page.goto('/login')
	await page.getByRole('button', { name: 'Continue with Notion' }).click()
	await page.waitForURL((url) => url.href.startsWith(`${fakeNotionUrl}/v1/oauth/authorize?`))
	await page.getByText(`Signed in as ${person.name}`).waitFor()
	await page.getByRole('button', { name: 'Allow access' }).click()
	await waitForHome(page, person.name)
}

test('Continue with Notion: one consent signs a new person up, connects their workspace and syncs it; again, the same account', async (t) => {
	assert.ok(fakeNotionUrl, 'FAKE_NOTION_URL is not set: run the journeys with `npm run -w @blocksmith/e2e test`')
	const id = randomBytes(4).toString('hex')
	const person = { name: `Noor Notion${id}`, email: `noor-${id}@example.com` }
	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())

	// Signed in to Notion in this browser, as a person is before they try us.
	await page.goto(`${fakeNotionUrl}/__sign-in?${new URLSearchParams(person)}`)
	await page.getByText(`Signed in as ${person.name}`).waitFor()

	await continueWithNotion(page, person)
	const token = await storedToken(page)
	assert.ok(token, 'the bearer token is stored, as after a password sign-in')
	// Out of the address bar: the one-time token is never left in the history.
	assert.ok(!page.url().includes('token='), page.url())
	const me = await api.callOk<{ data: { id: string; email: string; emailVerified: boolean } }>('/auth/validate_token', {
		token,
	})
	assert.equal(me.data.email, person.email)
	assert.equal(me.data.emailVerified, true)

	// The workspace is there, its databases found and synced, without a second step.
	await page.getByRole('link', { name: 'Workspaces' }).first().click()
	await page.getByRole('heading', { level: 2, name: 'Fake Workspace' }).waitFor()
	for (const name of demoDatabases) {
		await page
			.getByRole('table', { name: 'Databases of Fake Workspace' })
			.getByRole('row')
			.filter({ has: page.getByRole('link', { name, exact: true }) })
			.getByText(/^Synced /)
			.waitFor()
	}
	const workspaces = await api.callOk<{ id: string; tool: string }[]>('/dashboard/workspaces', { token })
	assert.deepEqual(
		workspaces.map((w) => w.tool),
		['notion'],
	)

	// Signed out, and in again with Notion: the same account, the same one workspace.
	await page.getByRole('button', { name: 'Account menu' }).click()
	await page.getByRole('menuitem', { name: 'Sign out' }).click()
	await waitForPath(page, '/login?next=%2Fworkspaces')
	await continueWithNotion(page, person)
	const again = await storedToken(page)
	assert.ok(again && again !== token)
	const meAgain = await api.callOk<{ data: { id: string } }>('/auth/validate_token', { token: again })
	assert.equal(meAgain.data.id, me.data.id)
	const workspacesAgain = await api.callOk<{ id: string }[]>('/dashboard/workspaces', { token: again })
	assert.deepEqual(
		workspacesAgain.map((w) => w.id),
		workspaces.map((w) => w.id),
	)
	assertNoProblems(problems, [fakeNotionFavicon])
})

test('Cancel on Notion’s consent page comes back to /login, which says nothing was granted', async (t) => {
	const id = randomBytes(4).toString('hex')
	const person = { name: `Cass Cancel${id}`, email: `cass-${id}@example.com` }
	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())
	await page.goto(`${fakeNotionUrl}/__sign-in?${new URLSearchParams(person)}`)
	await page.goto('/login')
	await page.getByRole('button', { name: 'Continue with Notion' }).click()
	await page.getByRole('button', { name: 'Cancel' }).click()
	await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'access_denied')
	await page.getByRole('alert').filter({ hasText: 'Notion access was not granted' }).waitFor()
	assert.equal(await storedToken(page), null)
	assertNoProblems(problems, [fakeNotionFavicon])
})
