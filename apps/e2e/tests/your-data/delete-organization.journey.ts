import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { api, assertNoProblems, failedRequest, newPage, useBrowser, waitForHome, waitForPath } from '../../fixtures.ts'
import { startOwnServer } from '../billing/billing-steps.ts'
import { dataTab, publishedForm, toast, until } from './data-steps.ts'

// Deleting an organization (issue 20): an owner types its name in Settings → Data; the dashboard
// becomes the page of an organization scheduled for deletion (the date, Restore), its public form
// stops at once, and Restore brings it back. On a server whose grace period is zero the purge
// runs at once and the organization is gone: its owner, in no organization now, makes a new one.

const browser = useBrowser()

type OrgDetails = { name: string; subscriptionState: string; deletion: { purgeAfter: string } | null }

/** The date as the page writes it (en-US, the browser's UTC). */
const dayOf = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' })

/** Settings → Data → Delete organization: the dialog refuses until the exact name is typed, then deletes. */
async function deleteThroughDialog(page: Page, organization: string): Promise<void> {
	await page.goto(dataTab)
	await page.getByRole('button', { name: 'Delete organization' }).click()
	const dialog = page.getByRole('dialog', { name: `Delete ${organization}?` })
	const confirm = dialog.getByRole('button', { name: 'Delete organization' })
	const name = dialog.getByRole('textbox', { name: `Type ${organization} to confirm` })
	assert.equal(await confirm.isDisabled(), true, 'the confirm button before anything is typed')
	await name.fill(organization.slice(0, -3))
	assert.equal(await confirm.isDisabled(), true, 'the confirm button with half the name')
	await name.fill(organization.toLowerCase())
	assert.equal(await confirm.isDisabled(), true, 'the confirm button with the name in other letters')
	await name.fill(organization)
	await confirm.click()
}

test('an owner deletes the organization by its name, its form stops, and Restore brings it back', async (t) => {
	const owner = await api.signUp({ name: 'Dora Delete' })
	const organization = "Dora Delete's workspace"
	const { form } = await publishedForm(api, owner.token, 'Orders')

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	await visitor.page.goto(`/forms/${form.id}`)
	await visitor.page.getByRole('button', { name: 'Submit' }).waitFor()

	const tab = await newPage(browser(), { account: owner })
	t.after(() => tab.context.close())
	const { page } = tab
	await deleteThroughDialog(page, organization)

	const details = await until(
		'the deletion scheduled',
		() => api.callOk<OrgDetails>('/dashboard/users/get_org_details', { token: owner.token }),
		(org) => org.deletion !== null,
	)
	const when = dayOf(details.deletion?.purgeAfter ?? '')
	await toast(page, `${organization} will be deleted for good on ${when}.`).waitFor()
	await page.getByRole('heading', { level: 1, name: `${organization} is scheduled for deletion on ${when}` }).waitFor()
	// Thirty days of grace on the shared server.
	const days = (Date.parse(details.deletion?.purgeAfter ?? '') - Date.now()) / 86_400_000
	assert.ok(days > 29 && days <= 30, `purged in ${days} days`)
	// The dashboard is closed: a module's page is the same page.
	await page.goto('/forms')
	await page.getByRole('heading', { level: 1, name: `${organization} is scheduled for deletion on ${when}` }).waitFor()
	assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0, 'the modules are offered')

	// A visitor, in a browser of their own: the form is off at once, saying nothing about why.
	const stranger = await newPage(browser())
	t.after(() => stranger.context.close())
	await stranger.page.goto(`/forms/${form.id}`)
	await stranger.page.getByRole('heading', { name: 'This form is unavailable right now.' }).waitFor()
	assert.equal(await stranger.page.getByRole('button', { name: 'Submit' }).count(), 0)
	assert.doesNotMatch((await stranger.page.locator('body').textContent()) ?? '', /delet/i)
	// The visitor who had it open cannot send it either.
	await visitor.page.reload()
	await visitor.page.getByRole('heading', { name: 'This form is unavailable right now.' }).waitFor()

	await page.getByRole('button', { name: 'Restore organization' }).click()
	await toast(page, `${organization} was restored.`).waitFor()
	// Restored, but the subscription the deletion ended stays ended (decision 040): the owner is
	// back in the organization, on /paused, and a plan brings everything back as it was.
	await waitForPath(page, '/paused')
	await page.getByRole('heading', { level: 1, name: 'The subscription was canceled' }).waitFor()
	const restored = await api.callOk<OrgDetails>('/dashboard/users/get_org_details', { token: owner.token })
	assert.deepEqual(
		{ deletion: restored.deletion, state: restored.subscriptionState },
		{ deletion: null, state: 'canceled' },
	)
	await page.getByRole('link', { name: 'Choose a plan' }).click()
	const changePlan = page.getByRole('dialog', { name: 'Change plan' })
	await changePlan.getByRole('button', { name: 'Choose Pro' }).click()
	await toast(page, 'Your subscription has started again.').waitFor()
	await changePlan.waitFor({ state: 'detached' })
	await page.goto('/')
	await waitForHome(page, owner.name)
	assert.equal(await page.getByText('is scheduled for deletion').count(), 0)
	await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Forms' }).click()
	await page.getByRole('link', { name: 'Orders', exact: true }).first().waitFor()
	await visitor.page.reload()
	await visitor.page.getByRole('button', { name: 'Submit' }).waitFor()
	assertNoProblems(tab.problems, [failedRequest(409)])
	assertNoProblems(stranger.problems, [failedRequest(404), failedRequest(409)])
})

test('with no grace period the purge runs at once: the organization and its form are gone; the owner makes a new one', async () => {
	const server = await startOwnServer({ DELETION_GRACE_DAYS: '0' })
	// Closed before the server stops, so it stops with no page still talking to it.
	const contexts: BrowserContext[] = []
	try {
		const owner = await server.api.signUp({ name: 'Pia Purge' })
		const organization = "Pia Purge's workspace"
		const { form } = await publishedForm(server.api, owner.token, 'Orders')

		const tab = await newPage(browser(), { account: owner, baseUrl: server.baseUrl })
		contexts.push(tab.context)
		const { page } = tab
		await page.goto('/')
		await waitForHome(page, owner.name)
		await deleteThroughDialog(page, organization)

		// The purge job takes everything: the owner belongs to no organization any more.
		await until(
			'the organization purged',
			() => server.api.call('/dashboard/users/get_org_details', { token: owner.token }),
			(response) => response.status === 403,
		)
		const gone = await server.api.call('/dashboard/users/get_org_details', { token: owner.token })
		assert.equal(((await gone.json()) as { code: string }).code, 'NO_ORGANIZATION')
		// The dashboard no longer knows it: nothing of it is named anywhere. Instead of the modules, a
		// page says why and offers the way on, with no toast for each read the server refused.
		await page.goto('/forms')
		await page.getByRole('heading', { level: 1, name: "You're not in an organization any more" }).waitFor()
		assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0, 'the modules are offered')
		assert.equal(await page.getByText(organization).count(), 0, 'the purged organization is still shown')
		assert.equal(await toast(page, 'does not belong to an organization').count(), 0, 'a refusal was toasted')
		await page.getByText('Open the invitation from its e-mail to join it').waitFor()

		// A new organization: the dashboard of it, on its trial as any new one.
		await page.getByRole('textbox', { name: 'Organization name' }).fill('Second Co')
		await page.getByRole('button', { name: 'Create an organization' }).click()
		await toast(page, 'Created Second Co.').waitFor()
		await waitForHome(page, owner.name)
		await page.getByRole('button', { name: 'Second Co, switch organization' }).waitFor()
		await page.getByText(/^Trial: /).waitFor()
		const second = await server.api.callOk<OrgDetails>('/dashboard/users/get_org_details', { token: owner.token })
		assert.deepEqual(
			{ name: second.name, state: second.subscriptionState, deletion: second.deletion },
			{ name: 'Second Co', state: 'trialing', deletion: null },
		)
		assert.equal(await page.getByText(organization).count(), 0, 'the purged organization is still shown')
		assertNoProblems(tab.problems, [failedRequest(403), failedRequest(409)])

		// The form's page: no such form.
		const stranger = await newPage(browser(), { baseUrl: server.baseUrl })
		contexts.push(stranger.context)
		await stranger.page.goto(`/forms/${form.id}`)
		await stranger.page.getByRole('heading', { name: "This form isn't available" }).waitFor()
		const page404 = await server.api.call(`/api/forms/${form.id}`)
		assert.equal(page404.status, 404)
		assertNoProblems(stranger.problems, [failedRequest(404)])
	} finally {
		for (const context of contexts) {
			await context.close()
		}
		await server.stop()
	}
})
