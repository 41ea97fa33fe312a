import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { BrowserContext } from 'playwright-core'
import { assertNoProblems, failedRequest, newPage, useBrowser, waitForHome, waitForPath } from '../../fixtures.ts'
import {
	eventually,
	joinedMember,
	orgDetails,
	planHeading,
	publishedForm,
	startOwnServer,
	toast,
} from './billing-steps.ts'

// A trial that ends with no plan chosen (local provider): the organization is paused by time
// alone. Its members are sent to /paused, told why and whom to ask; its published form shows
// visitors a neutral message; the owner chooses a plan and everything is back, nothing lost.
// Its own server, with a trial of about 52 seconds (the shared one's trials last 14 days).

const browser = useBrowser()
const trialDays = '0.0006'

test('a trial that ends pauses the organization until the owner chooses a plan; its published form waits meanwhile', async () => {
	const server = await startOwnServer({ TRIAL_DAYS: trialDays })
	// Closed before the server stops, so it stops with no page still talking to it.
	const contexts: BrowserContext[] = []
	try {
		const { api, baseUrl } = server
		const owner = await api.signUp({ name: 'Tilda Trial' })
		const organization = "Tilda Trial's workspace"
		const formId = await publishedForm(api, owner.token, 'Trial enquiries')
		const member = await joinedMember(server, owner, 'Milo Member')
		assert.equal((await orgDetails(api, member.token)).name, organization)

		const visitor = await newPage(browser(), { baseUrl })
		contexts.push(visitor.context)
		await visitor.page.goto(`/forms/${formId}`)
		await visitor.page.getByRole('button', { name: 'Submit' }).waitFor()

		// Time alone ends the trial: no job, the next read of the subscription moves it on.
		await eventually(
			'the trial ended',
			async () => (await orgDetails(api, owner.token)).subscriptionState === 'paused',
			90_000,
		)
		assert.equal((await orgDetails(api, owner.token)).pauseReason, 'trial_ended')

		// A member is sent to /paused: why, that nothing is lost, and whom to ask; no button of an owner's.
		const memberTab = await newPage(browser(), { account: member, baseUrl })
		contexts.push(memberTab.context)
		await memberTab.page.goto('/forms')
		await waitForPath(memberTab.page, '/paused')
		await memberTab.page.getByRole('heading', { level: 1, name: 'Your trial has ended' }).waitFor()
		await memberTab.page.getByText(`The free trial of ${organization} ended before a plan was chosen.`).waitFor()
		await memberTab.page.getByText(/Nothing was deleted/).waitFor()
		await memberTab.page.getByText(`Ask an owner or admin of ${organization} to choose a plan.`).waitFor()
		const managers = memberTab.page.getByRole('list', { name: `Owners and admins of ${organization}` })
		await managers.getByText(owner.name).waitFor()
		assert.match((await managers.textContent()) ?? '', new RegExp(`${owner.name} \\(owner\\) · ${owner.email}`))
		assert.equal(await managers.getByRole('listitem').count(), 1, 'only the owner manages billing')
		for (const action of ['Resume subscription', 'Choose a plan', 'Billing settings']) {
			assert.equal(await memberTab.page.getByRole('button', { name: action }).count(), 0, action)
			assert.equal(await memberTab.page.getByRole('link', { name: action }).count(), 0, action)
		}

		// The visitor, back on the form: a neutral message, nothing about the owner's billing.
		await visitor.page.reload()
		await visitor.page.getByRole('heading', { name: 'This form is unavailable right now.' }).waitFor()
		assert.equal(await visitor.page.getByRole('button', { name: 'Submit' }).count(), 0)
		assert.doesNotMatch((await visitor.page.locator('body').textContent()) ?? '', /trial|subscription|billing|plan/i)

		// The owner chooses a plan from /paused; the organization is active at once.
		const ownerTab = await newPage(browser(), { account: owner, baseUrl })
		contexts.push(ownerTab.context)
		await ownerTab.page.goto('/')
		await waitForPath(ownerTab.page, '/paused')
		await ownerTab.page.getByRole('heading', { level: 1, name: 'Your trial has ended' }).waitFor()
		assert.equal(await ownerTab.page.getByRole('button', { name: 'Resume subscription' }).count(), 0)
		await ownerTab.page.getByRole('link', { name: 'Choose a plan' }).click()
		const changePlan = ownerTab.page.getByRole('dialog', { name: 'Change plan' })
		await changePlan.getByText('Your subscription starts now on Pro, billed monthly.').waitFor()
		await changePlan.getByRole('button', { name: 'Choose Pro' }).click()
		await toast(ownerTab.page, 'Your subscription has started.').waitFor()
		await changePlan.waitFor({ state: 'detached' })
		await planHeading(ownerTab.page, 'Pro').filter({ hasText: 'Active' }).waitFor()
		assert.equal((await orgDetails(api, owner.token)).subscriptionState, 'active')
		await ownerTab.page.goto('/')
		await waitForHome(ownerTab.page, owner.name)

		// Everything is back as it was: the member's dashboard, the visitor's form.
		await memberTab.page.goto('/')
		await waitForHome(memberTab.page, member.name)
		await visitor.page.reload()
		await visitor.page.getByRole('button', { name: 'Submit' }).waitFor()
		assert.equal(await visitor.page.getByText('This form is unavailable right now.').count(), 0)

		assertNoProblems(ownerTab.problems)
		assertNoProblems(memberTab.problems)
		// The form's page and its data answer 409 UNAVAILABLE while the organization is paused.
		assertNoProblems(visitor.problems, [failedRequest(409)])
	} finally {
		await Promise.all(contexts.map((context) => context.close()))
		await server.stop()
	}
})
