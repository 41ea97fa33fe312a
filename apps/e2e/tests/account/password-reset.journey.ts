import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
	api,
	assertNoProblems,
	linkIn,
	newPage,
	signInWithForm,
	useBrowser,
	waitForHome,
	waitForMail,
	waitForPath,
} from '../../fixtures.ts'

const browser = useBrowser()

test('a forgotten password is reset through the mailed link, and the new one signs in', async (t) => {
	const account = await api.signUp({ name: 'Ada Lovelace' })
	const newPassword = 'the analytical engine weaves'
	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())

	await page.goto('/login')
	await page.getByRole('link', { name: 'Forgot password?' }).click()
	await waitForPath(page, '/forgot-password')
	await page.getByLabel('E-mail').fill(account.email)
	await page.getByRole('button', { name: 'Send reset link' }).click()
	await page.getByText('Check your inbox').waitFor()

	const mail = await waitForMail(account.email, (candidate) => candidate.subject === 'Reset your password')
	await page.goto(linkIn(mail, '/reset-password'))
	await page.getByLabel('New password').fill(newPassword)
	await page.getByLabel('Repeat the password').fill(newPassword)
	await page.getByRole('button', { name: 'Change password' }).click()
	await page.getByRole('heading', { level: 1, name: 'Password changed' }).waitFor()

	await page.getByRole('link', { name: 'Sign in with your new password' }).click()
	await waitForPath(page, '/login')
	await signInWithForm(page, account.email, newPassword)
	await waitForHome(page, account.name)

	// The old password is gone, and so is the session it had opened.
	const oldSignIn = await api.call('/api/auth/sign-in/email', {
		json: { email: account.email, password: account.password },
	})
	assert.equal(oldSignIn.status, 401)
	assert.equal((await api.call('/auth/validate_token', { token: account.token })).status, 401)
	assertNoProblems(problems)
})
