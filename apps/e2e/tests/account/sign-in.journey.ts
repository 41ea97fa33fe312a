import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import {
	api,
	assertNoProblems,
	failedRequest,
	newPage,
	pathOf,
	signInWithForm,
	useBrowser,
	waitForHome,
	waitForPath,
} from '../../fixtures.ts'

// Signing in and out, and where the app sends you when it needs you signed in.

const browser = useBrowser()

function storedToken(page: Page): Promise<string | null> {
	return page.evaluate(() => localStorage.getItem('blocksmith.token'))
}

test('signing out from the account menu leads to /login and ends the session; signing in again leads home', async (t) => {
	const account = await api.signUp({ name: 'Alan Turing' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())

	await page.goto('/')
	await waitForHome(page, account.name)
	await page.getByRole('button', { name: 'Account menu' }).click()
	await page.getByRole('menuitem', { name: 'Sign out' }).click()

	await waitForPath(page, '/login')
	await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
	assert.equal(await storedToken(page), null)
	// Signed out on the server too, not only forgotten by the browser.
	assert.equal((await api.call('/auth/validate_token', { token: account.token })).status, 401)

	await signInWithForm(page, account.email, account.password)
	await waitForHome(page, account.name)
	assert.ok(await storedToken(page), 'no token stored after signing in')
	assertNoProblems(problems)
})

test('a wrong password is said in the form, and the page stays /login', async (t) => {
	const account = await api.signUp({ name: 'Mary Jackson' })
	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())

	await page.goto('/login')
	await signInWithForm(page, account.email, `${account.password}-wrong`)

	const alert = page.getByRole('alert')
	await alert.waitFor()
	assert.match((await alert.textContent()) ?? '', /password/i)
	assert.equal(pathOf(page), '/login')
	assert.equal(await storedToken(page), null)
	// The e-mail is kept, so only the password needs typing again.
	assert.equal(await page.getByLabel('E-mail').inputValue(), account.email)
	// The browser logs the 401 of the sign-in request; the app handles it.
	assertNoProblems(problems, [failedRequest(401)])
})

test('a page opened with an expired session goes to /login?next=… and back to that page after signing in', async (t) => {
	const account = await api.signUp({ name: 'Katherine Johnson' })
	// The session this browser holds ends elsewhere (the account signed out everywhere).
	await api.callOk('/api/auth/revoke-sessions', { token: account.token, json: {} })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())

	await page.goto('/settings?tab=members')
	await waitForPath(page, `/login?next=${encodeURIComponent('/settings?tab=members')}`)
	assert.equal(await storedToken(page), null, 'the rejected token was kept')

	await signInWithForm(page, account.email, account.password)
	await waitForPath(page, '/settings?tab=members')
	await page.getByRole('tab', { name: 'Members', selected: true }).waitFor()
	await page.getByRole('cell').filter({ hasText: account.email }).waitFor()
	assertNoProblems(problems, [failedRequest(401)])
})
