import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// Partial answers and drop-off (issue 19): on a three-page form, one visitor stops on page 2 and
// closes the tab, another goes through and sends. Once the server has written its counts (every
// FORM_VIEW_FLUSH_MS, 5 s by default), the analytics page's drop-off shows page 2 reached by both
// visits, and half of them lost there.

const browser = useBrowser()

type Property = { id: string; name: string }
type Database = { id: string; properties: Property[] }
type Form = { id: string; fields: { id: string; label: string; propertyId: string | null }[] }
type Step = { id: string; kind: string; label: string; page: number; reached: number; dropOff: number | null }
type Analytics = { views: number; submissions: number; steps: Step[] }

/** Opens the form and answers page 1, which leaves the visitor on page 2. */
async function toPageTwo(page: Page, formId: string, name: string): Promise<void> {
	await page.goto(`/forms/${formId}`)
	await page.getByRole('textbox', { name: 'Your name' }).fill(name)
	await page.getByRole('textbox', { name: 'Email' }).fill(`${name.toLowerCase().replace(/\W+/g, '.')}@example.com`)
	await page.getByRole('button', { name: 'Next' }).click()
	await page.getByRole('textbox', { name: 'Company' }).waitFor()
}

test('a visitor who stops on page 2 shows in the drop-off beside one who sent the form', async (t) => {
	const account = await api.signUp({ name: 'Dora Dropoff' })
	const token = account.token
	const { workspace } = await api.callOk<{ workspace: { id: string } }>('/dashboard/workspaces', {
		token,
		json: { tool: 'local', name: 'Sales' },
	})
	const database = await api.callOk<Database>('/dashboard/local/databases', {
		token,
		json: {
			workspaceId: workspace.id,
			name: 'Leads',
			properties: [
				{ name: 'Name', type: 'title' },
				{ name: 'Email', type: 'email' },
				{ name: 'Company', type: 'rich_text' },
				{ name: 'Role', type: 'rich_text' },
				{ name: 'Comments', type: 'rich_text' },
			],
		},
	})
	const created = await api.callOk<Form>('/dashboard/forms', {
		token,
		json: { name: 'Leads', databaseId: database.id },
	})
	const bound = (name: string) => {
		const id = database.properties.find((property) => property.name === name)?.id
		const field = created.fields.find((one) => one.propertyId === id)
		assert.ok(field, `the new form asks ${name}`)
		return field
	}
	await api.callOk(`/dashboard/forms/${created.id}`, {
		token,
		method: 'PATCH',
		json: {
			fields: [
				{ ...bound('Name'), label: 'Your name', required: true },
				bound('Email'),
				{ id: 'page-work', kind: 'page_break', label: 'Your work', propertyId: null },
				bound('Company'),
				bound('Role'),
				{ id: 'page-last', kind: 'page_break', label: 'Last words', propertyId: null },
				{ ...bound('Comments'), kind: 'long_text' },
			],
			published: true,
		},
	})

	// One visitor stops on page 2 and closes the tab.
	const leaver = await newPage(browser())
	t.after(() => leaver.context.close())
	await toPageTwo(leaver.page, created.id, 'Lea Leaver')
	await leaver.page.close({ runBeforeUnload: true })

	// Another goes through to the end.
	const sender = await newPage(browser())
	t.after(() => sender.context.close())
	await toPageTwo(sender.page, created.id, 'Sid Sender')
	await sender.page.getByRole('textbox', { name: 'Company' }).fill('Analytical Engines')
	await sender.page.getByRole('textbox', { name: 'Role' }).fill('Engineer')
	await sender.page.getByRole('button', { name: 'Next' }).click()
	await sender.page.getByRole('textbox', { name: 'Comments' }).fill('Call me on Monday.')
	await sender.page.getByRole('button', { name: 'Submit' }).click()
	await sender.page.getByText('Thank you! Your answer has been recorded.').waitFor()

	// The server writes the counts it gathers every few seconds.
	const stepOf = (analytics: Analytics, id: string) => analytics.steps.find((step) => step.id === id)
	const deadline = Date.now() + 40_000
	let analytics = await api.callOk<Analytics>(`/dashboard/forms/${created.id}/analytics`, { token })
	while (
		!(analytics.views === 2 && analytics.submissions === 1 && stepOf(analytics, 'page-work')?.reached === 2) &&
		Date.now() < deadline
	) {
		await new Promise((resolve) => setTimeout(resolve, 1000))
		analytics = await api.callOk<Analytics>(`/dashboard/forms/${created.id}/analytics`, { token })
	}
	const pageTwo = stepOf(analytics, 'page-work')
	assert.equal(pageTwo?.reached, 2, `both visits reached page 2: ${JSON.stringify(analytics.steps)}`)
	assert.equal(stepOf(analytics, 'page-last')?.reached, 1, 'one visit reached page 3')
	// Where on page 2 the leaver stopped: the page itself, or its first question if the page focused it.
	const pageTwoSteps = analytics.steps.filter((step) => step.page === 2)
	const lostOnPageTwo = pageTwoSteps.find((step) => step.dropOff === 0.5)
	assert.ok(lostOnPageTwo, `half the visits went no further on page 2: ${JSON.stringify(pageTwoSteps)}`)
	assert.ok(
		analytics.steps.filter((step) => step.page === 1).every((step) => step.reached === 2 && step.dropOff === 0),
		`nobody was lost on page 1: ${JSON.stringify(analytics.steps)}`,
	)

	const owner = await newPage(browser(), { account })
	t.after(() => owner.context.close())
	const { page } = owner
	await page.goto(`/forms/${created.id}/analytics`)
	const dropOff = page.getByRole('region', { name: 'Drop-off' })
	const pageTwoSection = dropOff.getByRole('region', { name: 'Page 2: Your work' })
	await pageTwoSection.getByText('Page 2 · Your work').waitFor()
	const pageRow = pageTwoSection.locator('div').filter({ hasText: /^Page 2 · Your work/ })
	assert.match((await pageRow.first().textContent()) ?? '', /2 reached/)
	await dropOff.getByText(`${lostOnPageTwo.label} — 1 of 2 visits (50%) went no further.`).waitFor()
	await pageTwoSection.getByText('Biggest drop').waitFor()
	assert.match(
		(await dropOff.getByRole('region', { name: 'Page 3: Last words' }).textContent()) ?? '',
		/1 reached/,
		'page 3 reached by one visit',
	)
	assertNoProblems(owner.problems)
	assertNoProblems(leaver.problems)
	assertNoProblems(sender.problems, [failedRequest(422)])
})
