import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { analyticsLoadedFlag } from '../../analytics-stub.ts'
import { analyticsUrl, api, assertNoProblems, failedRequest, newPage, useBrowser, waitForPath } from '../../fixtures.ts'

// The operator's page-view analytics (here the runner's stub) loads on every page except those
// starting with /login, /register, /charts, /forms and /paused (product §1, a prefix match).

const browser = useBrowser()

const script = '#blocksmith-analytics'

async function assertLoaded(page: Page): Promise<void> {
	assert.equal(await page.locator(script).getAttribute('src'), analyticsUrl)
	// It passed the CSP and ran.
	await page.waitForFunction(
		(flag) => (window as unknown as Record<string, unknown>)[flag] === true,
		analyticsLoadedFlag,
	)
}

async function assertAbsent(page: Page): Promise<void> {
	assert.equal(await page.locator(script).count(), 0, `the analytics script is on ${page.url()}`)
	const ran = await page.evaluate((flag) => (window as unknown as Record<string, unknown>)[flag], analyticsLoadedFlag)
	assert.equal(ran, undefined, `the analytics script ran on ${page.url()}`)
}

/** A full page load of `path`, ready once its main heading shows (the rule has been applied by then). */
async function load(page: Page, path: string, heading: string): Promise<void> {
	await page.goto(path)
	await page.getByRole('heading', { name: heading }).first().waitFor()
	await waitForPath(page, path)
}

test('signed in: loaded on / and /settings, not on /charts or /forms', async (t) => {
	const account = await api.signUp({ name: 'Ana Lytics' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())

	for (const [path, heading] of [
		['/', 'Welcome, Ana'],
		['/settings', 'Settings'],
	] as const) {
		await load(page, path, heading)
		await page.locator(script).waitFor({ state: 'attached' })
		await assertLoaded(page)
	}
	for (const [path, heading] of [
		['/charts', 'Charts'],
		['/forms', 'Forms'],
	] as const) {
		await load(page, path, heading)
		await assertAbsent(page)
	}
	assertNoProblems(problems)
})

test('signed out: not loaded on /login, /register, /forms/abc or /paused', async (t) => {
	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())

	for (const [path, heading] of [
		['/login', 'Sign in'],
		['/register', 'Create your account'],
		['/forms/abc', "This form isn't available"],
		// Signed out, /paused asks to sign in before it says anything about a subscription.
		['/paused', 'Subscription'],
	] as const) {
		await load(page, path, heading)
		await assertAbsent(page)
	}
	// A form that does not exist is served with a 404 status, which the browser logs.
	assertNoProblems(problems, [failedRequest(404)])
})

test('moving within the app adds the script on allowed pages and removes it on the others', async (t) => {
	const account = await api.signUp({ name: 'Ana Lytics' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())
	await load(page, '/forms', 'Forms')
	await assertAbsent(page)

	const nav = page.getByRole('navigation', { name: 'Main' })
	await nav.getByRole('link', { name: 'Home' }).click()
	await page.getByRole('heading', { level: 1, name: 'Welcome, Ana' }).waitFor()
	await page.locator(script).waitFor({ state: 'attached' })
	await assertLoaded(page)

	await nav.getByRole('link', { name: 'Charts' }).click()
	await page.getByRole('heading', { level: 1, name: 'Charts' }).waitFor()
	await page.locator(script).waitFor({ state: 'detached' })
	assertNoProblems(problems)
})
