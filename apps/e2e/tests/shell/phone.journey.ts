import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, newPage, useBrowser, waitForHome, waitForPath } from '../../fixtures.ts'

// On a phone the dashboard's navigation hides behind a menu button.

const browser = useBrowser()

const phone = { width: 390, height: 844 }

/** Nothing may be wider than the screen: sideways scrolling on a phone is a broken layout. */
async function assertNoSidewaysScroll(page: Page): Promise<void> {
	const width = await page.evaluate(() => document.documentElement.scrollWidth)
	assert.ok(width <= phone.width, `${new URL(page.url()).pathname} is ${width} px wide on a ${phone.width} px screen`)
}

test('on a phone, the menu button opens the navigation, which navigates and closes', async (t) => {
	const account = await api.signUp({ name: 'Phoebe Phone' })
	const { page, context, problems } = await newPage(browser(), { account, viewport: phone })
	t.after(() => context.close())
	await page.goto('/')
	await waitForHome(page, account.name)
	await assertNoSidewaysScroll(page)
	// The sidebar is not shown at this width.
	assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0)

	await page.getByRole('button', { name: 'Open navigation' }).click()
	const menu = page.getByRole('dialog', { name: 'Navigation' })
	await menu.getByRole('link', { name: 'Forms' }).click()

	await waitForPath(page, '/forms')
	await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor()
	await menu.waitFor({ state: 'detached' })
	await assertNoSidewaysScroll(page)

	await page.getByRole('button', { name: 'Open navigation' }).click()
	await menu.getByRole('link', { name: 'Settings' }).click()
	await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()
	await assertNoSidewaysScroll(page)
	assertNoProblems(problems)
})
