import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
	api,
	assertNoProblems,
	failedRequest,
	newContext,
	newPage,
	signInWithForm,
	useBrowser,
	waitForHome,
	waitForPath,
	watchedPage,
} from '../../fixtures.ts'

// A session is the server's to end: from another device, or from another tab of this browser.

const browser = useBrowser()

const membersPath = '/settings?tab=members'

test('a token revoked elsewhere sends the next request to /login?next=…; signing in returns there', async (t) => {
	const account = await api.signUp({ name: 'Margaret Hamilton' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())
	await page.goto('/settings')
	await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()
	// The profile tab's own reads are done (its last part, deleting the account, loads after it):
	// only the Members tab's read is left to meet the revoked token.
	await page.getByRole('button', { name: 'Delete account' }).waitFor()

	// Another device signs in and signs the account out everywhere.
	const otherDevice = await api.signIn(account.email, account.password)
	await api.callOk('/api/auth/revoke-sessions', { token: otherDevice, json: {} })

	// Members reads data the profile tab did not: that request meets the 401.
	await page.getByRole('tab', { name: 'Members' }).click()
	await waitForPath(page, `/login?next=${encodeURIComponent(membersPath)}`)

	await signInWithForm(page, account.email, account.password)
	await waitForPath(page, membersPath)
	await page.getByRole('tab', { name: 'Members', selected: true }).waitFor()
	await page.getByRole('cell').filter({ hasText: account.email }).waitFor()
	assertNoProblems(problems, [failedRequest(401)])
})

test('a token revoked elsewhere is noticed when the window gains focus', async (t) => {
	const account = await api.signUp({ name: 'Dorothy Vaughan' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())
	await page.goto('/forms')
	await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor()

	await api.callOk('/api/auth/revoke-sessions', { token: await api.signIn(account.email, account.password), json: {} })
	// What the browser fires when the user comes back to the tab (headless windows never lose focus).
	await page.evaluate(() => window.dispatchEvent(new Event('focus')))

	await waitForPath(page, `/login?next=${encodeURIComponent('/forms')}`)
	assertNoProblems(problems, [failedRequest(401)])
})

test('signing out in one tab signs out the other; signing in in one signs in the other', async (t) => {
	const account = await api.signUp({ name: 'Hedy Lamarr' })
	const context = await newContext(browser(), { account })
	t.after(() => context.close())
	const first = await watchedPage(context)
	const second = await watchedPage(context)
	await first.page.goto('/')
	await waitForHome(first.page, account.name)
	await second.page.goto('/settings')
	await second.page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()

	await first.page.getByRole('button', { name: 'Account menu' }).click()
	await first.page.getByRole('menuitem', { name: 'Sign out' }).click()
	await waitForPath(first.page, '/login')
	await waitForPath(second.page, `/login?next=${encodeURIComponent('/settings')}`)

	await signInWithForm(second.page, account.email, account.password)
	await waitForPath(second.page, '/settings')
	// The first tab, left on /login, follows and goes on home.
	await waitForHome(first.page, account.name)
	assert.ok(await first.page.evaluate(() => localStorage.getItem('blocksmith.token')))
	assertNoProblems(first.problems)
	assertNoProblems(second.problems)
})
