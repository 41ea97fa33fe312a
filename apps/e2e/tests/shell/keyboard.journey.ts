import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, newPage, useBrowser, waitForHome } from '../../fixtures.ts'

// Everything can be done without a mouse: forms in tab order with visible focus, dialogs that
// keep the focus inside and close on Escape.

const browser = useBrowser()

/** What has the focus, e.g. `input[name=email]`, `a "Forgot password?"`, `button "Sign in"`. */
function focused(page: Page): Promise<string> {
	return page.evaluate(() => {
		const element = document.activeElement
		if (!element || element === document.body) {
			return 'nothing'
		}
		const tag = element.tagName.toLowerCase()
		const name = element.getAttribute('name')
		return name ? `${tag}[name=${name}]` : `${tag} "${element.textContent?.trim()}"`
	})
}

/** True when the focused element draws a focus indicator (Tailwind rings are box-shadows). */
function showsFocus(page: Page): Promise<boolean> {
	return page.evaluate(() => {
		const element = document.activeElement
		if (!element) {
			return false
		}
		const style = getComputedStyle(element)
		return (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none'
	})
}

test('the sign-in form is filled and sent with the keyboard alone', async (t) => {
	const account = await api.signUp({ name: 'Keyboard Kim' })
	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())
	await page.goto('/login')
	await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()

	// The e-mail field has the focus from the start.
	await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'email')
	await page.keyboard.type(account.email)
	await page.keyboard.press('Tab')
	assert.equal(await focused(page), 'a "Forgot password?"')
	assert.ok(await showsFocus(page), 'the focused link shows no focus indicator')
	await page.keyboard.press('Tab')
	assert.equal(await focused(page), 'input[name=password]')
	assert.ok(await showsFocus(page), 'the focused field shows no focus indicator')
	await page.keyboard.type(account.password)
	await page.keyboard.press('Tab')
	assert.equal(await focused(page), 'button "Sign in"')
	assert.ok(await showsFocus(page), 'the focused button shows no focus indicator')
	await page.keyboard.press('Enter')

	await waitForHome(page, account.name)
	assertNoProblems(problems)
})

test('the invite dialog keeps the focus inside, closes on Escape and gives the focus back', async (t) => {
	const account = await api.signUp({ name: 'Dialog Dana' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())
	await page.goto('/settings?tab=members')
	const invite = page.getByRole('button', { name: 'Invite' })
	await invite.focus()
	await page.keyboard.press('Enter')

	const dialog = page.getByRole('dialog', { name: 'Invite a teammate' })
	await dialog.waitFor()
	await page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]') !== null)
	const isFocusInDialog = () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)
	const seen = new Set<string>()
	// More presses than the dialog has controls, both ways: the focus must wrap, never leave.
	for (const key of [...Array(8).fill('Tab'), ...Array(8).fill('Shift+Tab')] as string[]) {
		await page.keyboard.press(key)
		assert.ok(await isFocusInDialog(), `after ${key} the focus left the dialog (on ${await focused(page)})`)
		seen.add(await focused(page))
	}
	for (const control of ['input[name=email]', 'button "Cancel"', 'button "Send invitation"']) {
		assert.ok(seen.has(control), `${control} was never reached with Tab; reached ${[...seen].join(', ')}`)
	}

	await page.keyboard.press('Escape')
	await dialog.waitFor({ state: 'detached' })
	assert.equal(await focused(page), 'button "Invite"')
	assertNoProblems(problems)
})
