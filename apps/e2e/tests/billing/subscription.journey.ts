import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
	api,
	assertNoProblems,
	failedRequest,
	newPage,
	pathOf,
	useBrowser,
	waitForHome,
	waitForPath,
} from '../../fixtures.ts'
import { uniqueEmail } from '../../http-api.ts'
import { assertMeter, billingPath, confirmAction, meter, orgDetails, planHeading, toast } from './billing-steps.ts'

// A new organization's subscription from its first day, with the local provider (no payments,
// every action at once): the trial and its banner, a plan's limit met while working and the
// way past it, then every action an owner has: end the trial, cancel and undo, pause, resume.

const browser = useBrowser()

test('an owner on a trial meets the members limit, upgrades, starts billing, cancels and undoes it, pauses and resumes', async (t) => {
	const owner = await api.signUp({ name: 'Sam Subscriber' })
	const organization = "Sam Subscriber's workspace"
	const { page, context, problems } = await newPage(browser(), { account: owner })
	t.after(() => context.close())

	// A fresh organization is on the Pro trial, and the shell says how long is left.
	await page.goto('/')
	await waitForHome(page, owner.name)
	await page.getByText('Trial: 14 days left').waitFor()
	await page.getByRole('link', { name: 'Choose a plan' }).click()
	await waitForPath(page, billingPath)
	await planHeading(page, 'Pro').waitFor()
	assert.match((await planHeading(page, 'Pro').textContent()) ?? '', /Trial — 14 days left/)
	await assertMeter(page, 'Team members', '1 of 5')
	await assertMeter(page, 'Forms', '0 of 50')
	await assertMeter(page, 'Workspaces', '0 of 5')
	await page.getByRole('heading', { level: 3, name: 'No invoices yet' }).waitFor()

	// Invitations hold seats: with four pending, the team is full (the owner is the fifth).
	for (let index = 0; index < 4; index++) {
		await api.callOk('/dashboard/team_invites', {
			token: owner.token,
			json: { email: uniqueEmail(`seat-${index}`), role: 'member' },
		})
	}
	await page.goto('/settings?tab=members')
	await page.getByRole('button', { name: 'Invite' }).click()
	const invite = page.getByRole('dialog', { name: 'Invite a teammate' })
	await invite.getByLabel('E-mail').fill(uniqueEmail('one-too-many'))
	await invite.getByRole('button', { name: 'Send invitation' }).click()
	const refusal = toast(page, 'Team members: 5 of 5 on the Pro plan')
	await refusal.waitFor()
	await refusal.getByText('A larger plan raises this limit.').waitFor()
	// Nothing was sent: the dialog keeps the address for after the upgrade.
	assert.ok(await invite.isVisible(), 'the invite dialog closed on the refusal')
	await page.keyboard.press('Escape')
	await invite.waitFor({ state: 'detached' })

	// The toast's way forward: the change-plan dialog, on the next plan up.
	await refusal.getByRole('link', { name: 'Upgrade' }).click()
	const changePlan = page.getByRole('dialog', { name: 'Change plan' })
	await changePlan.waitFor()
	assert.match(pathOf(page), /^\/settings\?tab=billing&dialog=change-plan&plan=business$/)
	const business = changePlan.getByRole('radio', { name: 'Business' })
	await business.check()
	assert.ok(await business.isChecked())
	await changePlan
		.getByText(/Your trial continues on Business, with its limits\. Nothing is charged until the trial ends/)
		.waitFor()
	await changePlan.getByRole('button', { name: 'Choose Business' }).click()
	await toast(page, 'Your trial continues on the new plan.').waitFor()
	await changePlan.waitFor({ state: 'detached' })
	await planHeading(page, 'Business').waitFor()
	await page.getByText('Trial: 14 days left').waitFor()
	await assertMeter(page, 'Team members', '5 of 25')
	assert.equal(await meter(page, 'Forms').count(), 0, 'Business has no forms limit: no bar')
	await page
		.getByText(/^0 · Unlimited$/)
		.first()
		.waitFor()

	// Billing starts now: the trial's banner goes, the state is Active.
	await confirmAction(
		page,
		'End trial and start billing now',
		'End the trial and start billing now?',
		'Start billing now',
	)
	await toast(page, 'Your trial has ended and your subscription has started.').waitFor()
	await planHeading(page, 'Business').filter({ hasText: 'Active' }).waitFor()
	await page.getByText(/^Trial: \d+ days? left$/).waitFor({ state: 'detached' })
	assert.equal((await orgDetails(api, owner.token)).subscriptionState, 'active')

	// A cancellation waits for the period's end, and can be taken back until then.
	await confirmAction(page, 'Cancel subscription', 'Cancel the subscription?', 'Cancel subscription')
	await page.getByText(/^Cancels on /).waitFor()
	assert.equal(await page.getByRole('button', { name: 'Cancel subscription', exact: true }).count(), 0)
	await page.getByRole('button', { name: "Don't cancel" }).click()
	await toast(page, 'Your subscription continues.').waitFor()
	await page.getByRole('button', { name: 'Cancel subscription', exact: true }).waitFor()
	assert.equal(await page.getByText(/^Cancels on /).count(), 0)

	// Paused with no date: the dashboard closes (Settings stays open) until someone resumes it.
	await page.getByRole('button', { name: 'Pause', exact: true }).click()
	const pause = page.getByRole('dialog', { name: 'Pause the subscription' })
	await pause.getByRole('button', { name: 'Pause subscription' }).click()
	await toast(page, 'Paused until you resume it.').waitFor()
	await pause.waitFor({ state: 'detached' })
	await planHeading(page, 'Business').filter({ hasText: 'Paused' }).waitFor()
	await page.getByText('Paused until someone resumes it.', { exact: false }).waitFor()

	await page.goto('/forms')
	await waitForPath(page, '/paused')
	await page.getByRole('heading', { level: 1, name: `${organization} is paused` }).waitFor()
	await page.getByText('Your team paused the subscription until someone resumes it.').waitFor()
	await page.getByText(/Nothing was deleted/).waitFor()
	await page.getByRole('button', { name: 'Resume subscription' }).click()
	await toast(page, 'Your subscription is active again.').waitFor()
	await page.getByRole('heading', { level: 1, name: 'Nothing to resume' }).waitFor()
	await page.getByText(`${organization}'s subscription is active and everything works.`).waitFor()
	await page.getByRole('link', { name: 'Go to the dashboard' }).click()
	await waitForHome(page, owner.name)
	await page.goto('/forms')
	await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor()
	assert.equal(pathOf(page), '/forms')
	assert.equal((await orgDetails(api, owner.token)).subscriptionState, 'active')

	// The refused invitation is the one 402 the browser logged.
	assertNoProblems(problems, [failedRequest(402)])
})
