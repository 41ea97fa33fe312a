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
	await invitee.page.getByLabel('Password').fill('glad to be on board')
	await invitee.page.getByRole('button', { name: 'Create account' }).click()

	// Signed up, the page offers to join. (Waited for on its own, so a slow sign-up is told apart
	// from a slow join.)
	const join = invitee.page.getByRole('button', { name: `Join ${organization}` })
	await join.waitFor()
	// The welcome toast shows for a few seconds while home loads: watch for both at once, so a
	// slow machine cannot miss the toast while it waits for the page.
	const joined = toast(invitee.page, `You joined ${organization}`).waitFor()
	await join.click()
	try {
		await Promise.all([joined, waitForHome(invitee.page, 'Ivan Invitee')])
	} catch (error) {
		// What the visitor saw, for a failure that only shows on a busy machine.
		console.error(`invitee at ${invitee.page.url()}:\n${await invitee.page.locator('body').textContent()}`)
		console.error(`problems: ${JSON.stringify(invitee.problems)}`)
		throw error
	}
	// The organization switcher names the organization the session now works in.
	await invitee.page.getByRole('button', { name: 'Switch organization' }).filter({ hasText: organization }).waitFor()
	// Joining from the mailed link proves the address: no unconfirmed notice.
	assert.equal(await invitee.page.getByText('Confirm your e-mail address').count(), 0)

	await inviter.page.reload()
	const member = inviter.page.getByRole('row').filter({ hasText: inviteeEmail })
	await member.filter({ hasText: 'Ivan Invitee' }).waitFor()
	// Accepted, so no longer pending: the one row left is the member's.
	assert.equal(await member.count(), 1)
	assert.match((await member.textContent()) ?? '', /member/i)
	assertNoProblems(inviter.problems)
	assertNoProblems(invitee.problems)
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
