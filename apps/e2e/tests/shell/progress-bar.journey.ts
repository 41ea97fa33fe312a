import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, assertNoProblems, newPage, useBrowser, waitForHome, waitForPath } from '../../fixtures.ts'

// The thin bar at the top while a route change loads (product §1: starts at 30 %, 3 px high,
// gone 200 ms after the change ends).

const browser = useBrowser()

test('the progress bar shows while the next page loads and goes away after', async (t) => {
	const account = await api.signUp({ name: 'Pat Progress' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())
	await page.goto('/')
	await waitForHome(page, account.name)

	// Hold the Charts page's code until the bar has been seen: a local server answers too fast to
	// watch. (Charts has its own chunk since it was built; holding the placeholder pages' chunk, as
	// this did before, held nothing and left the test to timing.)
	let release = () => {}
	const released = new Promise<void>((resolve) => {
		release = resolve
	})
	await page.route(/\/assets\/charts-page-[\w-]+\.js$/, async (route) => {
		await released
		await route.continue()
	})
	const bar = page.getByRole('progressbar', { name: 'Loading page' })
	assert.equal(await bar.count(), 0, 'the bar shows before any navigation')

	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Charts' }).click()
	await bar.waitFor()
	const box = await bar.boundingBox()
	assert.equal(box?.y, 0)
	assert.equal(box?.height, 3)
	const value = Number(await bar.getAttribute('aria-valuenow'))
	assert.ok(value >= 30 && value < 100, `the bar starts at ${value} %`)

	release()
	await page.getByRole('heading', { level: 1, name: 'Charts' }).waitFor()
	await waitForPath(page, '/charts')
	await bar.waitFor({ state: 'detached' })
	assertNoProblems(problems)
})
