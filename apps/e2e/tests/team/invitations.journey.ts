import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import {
	api,
	assertNoProblems,
	failedRequest,
	linkIn,
	newPage,
	useBrowser,
	waitForHome,
	waitForMail,
} from '../../fixtures.ts'
import { uniqueEmail } from '../../http-api.ts'

// Teams grow by invitation: an owner invites by e-mail from Settings → Members, and the link
// in the mail lets the invited person in, with or without an account.

const browser = useBrowser()

async function openInviteDialog(page: Page) {
	await page.goto('/settings?tab=members')
	await page.getByRole('button', { name: 'Invite' }).click()
	const dialog = page.getByRole('dialog', { name: 'Invite a teammate' })
	await dialog.waitFor()
	return dialog
}

function toast(page: Page, text: string) {
	return page.locator('[data-sonner-toast]').filter({ hasText: text })
}

test('someone without an account accepts an invitation from the mailed link and joins the team', async (t) => {
	const owner = await api.signUp({ name: 'Olivia Owner' })
	const organization = "Olivia Owner's workspace"
	const inviteeEmail = uniqueEmail('invitee')
	const inviter = await newPage(browser(), { account: owner })
	t.after(() => inviter.context.close())

	const dialog = await openInviteDialog(inviter.page)
	await dialog.getByLabel('E-mail').fill(inviteeEmail)
	await dialog.getByRole('button', { name: 'Send invitation' }).click()
	await toast(inviter.page, `Invitation sent to ${inviteeEmail}`).waitFor()
	await dialog.waitFor({ state: 'detached' })
	const pending = inviter.page.getByRole('row').filter({ hasText: inviteeEmail })
	await pending.waitFor()

	const mail = await waitForMail(inviteeEmail, (candidate) =>
		candidate.subject.includes(`invited you to ${organization}`),
	)
	const link = linkIn(mail, '/invite/')
	assert.match(link, /^\/invite\/[^/?]+\?token=[^&]+$/, 'the link does not carry the mailbox token')

	// A visitor who is not signed in and has no account.
	const invitee = await newPage(browser())
	t.after(() => invitee.context.close())
	await invitee.page.goto(link)
	await invitee.page.getByRole('heading', { level: 1, name: `Join ${organization}` }).waitFor()
	await invitee.page.getByText('Olivia Owner invited you').waitFor()
	const email = invitee.page.getByLabel('E-mail')
	assert.equal(await email.inputValue(), inviteeEmail)
	assert.equal(await email.getAttribute('readonly'), '', 'the invited address can be changed')
	await invitee.page.getByLabel('Name').fill('Ivan Invitee')
	// One hint under the password, not the hint and an error saying the same.
	await invitee.page.getByLabel('Password').fill('short')
	await invitee.page.getByRole('button', { name: 'Create account' }).click()
	await invitee.page
		.getByText('Use at least 8 characters.')
		.waitFor()
		.catch(async (error: unknown) => {
			console.error(`invitee at ${invitee.page.url()}:\n${await invitee.page.locator('body').textContent()}`)
			throw error
		})
	assert.equal(await invitee.page.getByText('At least 8 characters.', { exact: true }).count(), 0)
	await invitee.page.getByLabel('Password').fill('glad to be on board')

	// Creating the account is joining: the welcome toast and home, with no "Join" step between.
	// (The toast shows for a few seconds while home loads: both are watched for at once, so a
	// slow machine cannot miss the toast while it waits for the page.)
	const joined = toast(invitee.page, `You joined ${organization}`).waitFor()
	await invitee.page.getByRole('button', { name: 'Create account' }).click()
	try {
		await Promise.all([joined, waitForHome(invitee.page, 'Ivan Invitee')])
	} catch (error) {
		// What the visitor saw, for a failure that only shows on a busy machine.
		console.error(`invitee at ${invitee.page.url()}:\n${await invitee.page.locator('body').textContent()}`)
		console.error(`problems: ${JSON.stringify(invitee.problems)}`)
		throw error
	}
	// The organization switcher names the organization the session works in.
	await invitee.page
		.getByRole('button', { name: /switch organization/i })
		.filter({ hasText: organization })
		.waitFor()
	// The link proved the address: no unconfirmed notice, and no confirmation mail.
	assert.equal(await invitee.page.getByText('Confirm your e-mail address').count(), 0)
	// The team is the newcomer's only organization: none of their own was made on the way.
	const token = await invitee.page.evaluate(() => localStorage.getItem('blocksmith.token'))
	assert.ok(token, 'no session token after signing up')
	const organizations = await api.callOk<{ name: string; role: string }[]>('/dashboard/organizations', { token })
	assert.deepEqual(
		organizations.map(({ name, role }) => ({ name, role })),
		[{ name: organization, role: 'member' }],
	)
	const me = await api.callOk<{ data: { emailVerified: boolean } }>('/auth/validate_token', { token })
	assert.equal(me.data.emailVerified, true)
	await assert.rejects(
		waitForMail(inviteeEmail, (candidate) => /confirm/i.test(candidate.subject), 1500),
		/no matching mail/,
	)

	// The used link says so, once, and offers the way in.
	await invitee.page.goto(link)
	await invitee.page.getByText('This invitation link can no longer be used').waitFor()
	assert.equal(await invitee.page.locator('[data-sonner-toast]').count(), 0, 'the used link is also toasted')
	await invitee.page.getByRole('link', { name: 'Go to Blocksmith' }).click()
	await waitForHome(invitee.page, 'Ivan Invitee')

	await inviter.page.reload()
	const member = inviter.page.getByRole('row').filter({ hasText: inviteeEmail })
	await member.filter({ hasText: 'Ivan Invitee' }).waitFor()
	// Accepted, so no longer pending: the one row left is the member's.
	assert.equal(await member.count(), 1)
	assert.match((await member.textContent()) ?? '', /member/i)
	assertNoProblems(inviter.problems)
	// The used link's preview answers 410, which the page explains.
	assertNoProblems(invitee.problems, [failedRequest(410)])
})

test("inviting someone who is already a member shows the server's reason in a toast", async (t) => {
	const owner = await api.signUp({ name: 'Tara Toast' })
	const { page, context, problems } = await newPage(browser(), { account: owner })
	t.after(() => context.close())

	const dialog = await openInviteDialog(page)
	await dialog.getByLabel('E-mail').fill(owner.email)
	await dialog.getByRole('button', { name: 'Send invitation' }).click()
	await toast(page, `${owner.email} is already a member.`).waitFor()
	// Nothing was sent, so the dialog stays for a correction.
	assert.ok(await dialog.isVisible())
	assertNoProblems(problems, [failedRequest(409)])
})
