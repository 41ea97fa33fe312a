import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertNoProblems, linkIn, newPage, useBrowser, waitForHome, waitForMail } from '../../fixtures.ts'
import { uniqueEmail } from '../../http-api.ts'

// Signing up: straight into the product, with a notice until the address is confirmed from
// the mailbox.

const browser = useBrowser()

test('a new account lands on home with the unconfirmed-address notice, gone once the mailed link is followed', async (t) => {
	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())
	const email = uniqueEmail('sign-up')

	await page.goto('/register')
	await page.getByLabel('Name').fill('Grace Hopper')
	await page.getByLabel('E-mail').fill(email)
	await page.getByLabel('Password').fill('a compiler, not a bug')
	await page.getByRole('button', { name: 'Create account' }).click()

	await waitForHome(page, 'Grace Hopper')
	const notice = page.getByRole('status').filter({ hasText: 'Confirm your e-mail address' })
	await notice.waitFor()
	assert.match((await notice.textContent()) ?? '', new RegExp(`We sent a link to ${email.replace(/[.+]/g, '\\$&')}`))

	const mail = await waitForMail(email, (candidate) => candidate.subject === 'Confirm your e-mail address')
	await page.goto(linkIn(mail, '/confirm'))
	await page.getByText('Your e-mail address is confirmed.').waitFor()
	await page.getByRole('link', { name: 'Continue' }).click()

	await waitForHome(page, 'Grace Hopper')
	await notice.waitFor({ state: 'detached' })
	// And it stays gone: the server has the address as confirmed.
	await page.reload()
	await waitForHome(page, 'Grace Hopper')
	assert.equal(await notice.count(), 0, 'the unconfirmed-address notice is back after a reload')
	assertNoProblems(problems)
})
