import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import {
	api,
	assertNoProblems,
	failedRequest,
	newPage,
	signInWithForm,
	useBrowser,
	waitForMail,
	waitForPath,
} from '../../fixtures.ts'
import { joinedMember, publishedForm, toast, until } from './data-steps.ts'

// Deleting one's account (issue 20): the only owner of a team is told which organization needs
// another owner first and offered no button; once a teammate is an owner, the password confirms
// it (a wrong one said under the field), the person lands on /login and cannot sign in again.
// Someone alone in their organization takes it with them: its public form stops answering.

const browser = useBrowser()

const profileTab = '/settings?tab=profile'

/** Opens the dialog, refuses a wrong password under the field, then deletes with the right one. */
async function deleteWithPassword(page: Page, password: string): Promise<void> {
	await page.getByRole('button', { name: 'Delete account' }).click()
	const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
	const field = dialog.getByLabel('Password')
	const confirm = dialog.getByRole('button', { name: 'Delete my account' })
	assert.equal(await confirm.isDisabled(), true, 'deleting with no password typed')
	await field.fill(`${password}-not`)
	await confirm.click()
	await dialog.getByText('The password is not right.').waitFor()
	assert.equal(await field.getAttribute('aria-invalid'), 'true')
	assert.match((await field.getAttribute('aria-describedby')) ?? '', /error/)
	assert.ok(await dialog.isVisible(), 'the dialog stays for another try')
	await field.fill(password)
	// The toast shows a few seconds while /login loads: both are watched for at once. (The page
	// left is kept as ?next=, as for any session that ends.)
	await Promise.all([
		toast(page, 'Your account was deleted').waitFor(),
		page.waitForURL((url) => url.pathname === '/login'),
		confirm.click(),
	])
	await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
}

test('the only owner of a team must hand it over first; then the password deletes the account', async (t) => {
	const owner = await api.signUp({ name: 'Sol Sole' })
	const organization = "Sol Sole's workspace"
	const teammate = await joinedMember(api, waitForMail, owner, 'Tess Teammate')

	const tab = await newPage(browser(), { account: owner })
	t.after(() => tab.context.close())
	const { page } = tab
	await page.goto(profileTab)
	const blocked = page.getByRole('alert').filter({ hasText: 'Another owner is needed first' })
	await blocked.waitFor()
	assert.match(
		(await blocked.textContent()) ?? '',
		new RegExp(`You are the only owner of ${organization}, which has other members`),
	)
	assert.equal(await page.getByRole('button', { name: 'Delete account' }).count(), 0, 'a delete button while blocked')
	// The API agrees, naming the organization.
	const refused = await api.call('/dashboard/users/delete_account', {
		token: owner.token,
		json: { password: owner.password },
	})
	assert.equal(refused.status, 409)
	const problem = (await refused.json()) as { code: string; detail: string }
	assert.equal(problem.code, 'SOLE_OWNER')
	assert.match(problem.detail, new RegExp(organization))

	// Members: the teammate becomes an owner too.
	await blocked.getByRole('link', { name: 'Members' }).click()
	await waitForPath(page, '/settings?tab=members')
	await page.getByRole('combobox', { name: `Role of ${teammate.name}` }).click()
	await page.getByRole('option', { name: 'Owner', exact: true }).click()
	await toast(page, 'The role was changed.').waitFor()

	await page.getByRole('tab', { name: 'Profile' }).click()
	await page.getByText(`You leave ${organization}; their data stays with the team.`).waitFor()
	assert.equal(await page.getByText('Another owner is needed first').count(), 0)
	await deleteWithPassword(page, owner.password)
	assert.equal(await page.evaluate(() => localStorage.getItem('blocksmith.token')), null, 'the token is kept')

	// The old password opens nothing, in the form or through the API.
	await signInWithForm(page, owner.email, owner.password)
	await page
		.getByRole('alert')
		.filter({ hasText: /password/i })
		.waitFor()
	assert.equal(new URL(page.url()).pathname, '/login')
	const signIn = await api.call('/api/auth/sign-in/email', { json: { email: owner.email, password: owner.password } })
	assert.equal(signIn.status, 401)
	await signIn.body?.cancel()
	// The old session is over too.
	const old = await api.call('/dashboard/users/get_org_details', { token: owner.token })
	assert.equal(old.status, 401)
	await old.body?.cancel()

	// The team goes on with its new owner.
	const team = await api.callOk<{ name: string; role: string }>('/dashboard/users/get_org_details', {
		token: teammate.token,
	})
	assert.deepEqual({ name: team.name, role: team.role }, { name: organization, role: 'owner' })
	// The refused deletion (409), the wrong password (400) and the sign-in afterwards (401) are logged by the browser.
	assertNoProblems(tab.problems, [failedRequest(400), failedRequest(401)])
})

test('someone alone in their organization deletes their account, and its public form stops answering', async (t) => {
	const owner = await api.signUp({ name: 'Luna Lone' })
	const organization = "Luna Lone's workspace"
	const { form } = await publishedForm(api, owner.token, 'Orders')

	const tab = await newPage(browser(), { account: owner })
	t.after(() => tab.context.close())
	const { page } = tab
	await page.goto(profileTab)
	await page.getByText(`Deleted with it, as you are their only member: ${organization}.`).waitFor()
	await deleteWithPassword(page, owner.password)

	// The organization went with the account: its form is no more, for anyone.
	await until(
		'the form gone',
		() => api.call(`/api/forms/${form.id}`),
		(response) => {
			void response.body?.cancel()
			return response.status === 404
		},
	)
	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	await visitor.page.goto(`/forms/${form.id}`)
	await visitor.page.getByRole('heading', { name: "This form isn't available" }).waitFor()
	assertNoProblems(tab.problems, [failedRequest(400)])
	assertNoProblems(visitor.problems, [failedRequest(404)])
})
