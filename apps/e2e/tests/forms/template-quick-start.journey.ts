import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Locator } from 'playwright-core'
import { api, assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// Templates and a quick start (issue 19): a new user opens Forms, picks "Feedback with NPS" with a
// new database, and lands in the builder; the form and its own built-in database, with a property
// per question, were made in that one step. Published from the builder and answered once, the
// answer is a row of that database.

const browser = useBrowser()

type Property = { id: string; name: string; type: string }
type Database = { id: string; name: string; properties: Property[] }
type Form = { id: string; name: string; databaseId: string; databaseName: string; fields: { label: string }[] }
type Row = { title: string; values: Record<string, unknown> }

/** Clicks the box or star a visitor sees (the radio's label; the radio itself is visually hidden) and checks it took. */
async function clickBox(radio: Locator): Promise<void> {
	await radio.locator('xpath=..').click()
	assert.ok(await radio.isChecked())
}

test('a template with a new database makes the form and its database in one step, ready to publish and answer', async (t) => {
	const account = await api.signUp({ name: 'Tess Templates' })
	const token = account.token
	const before = await api.callOk<Database[]>('/dashboard/local/databases', { token })

	const owner = await newPage(browser(), { account })
	t.after(() => owner.context.close())
	const { page } = owner
	await page.goto('/forms')
	// No form yet: the gallery is on the page itself.
	const target = page.getByRole('group', { name: 'Where do the answers go?' })
	const newDatabase = target.getByRole('radio', { name: /^Create a new database for it/ })
	assert.ok(await newDatabase.isChecked(), 'a new database is the default')
	const templates = page.getByRole('list', { name: 'Templates' })
	const card = templates.getByRole('button', { name: /^Feedback with NPS/ })
	assert.match((await card.textContent()) ?? '', /Asks: How likely are you to recommend us/)
	await card.click()

	await page.waitForURL(/\/forms\/[^/]+\/edit$/)
	const formId = new URL(page.url()).pathname.split('/')[2] ?? ''
	await page.getByRole('heading', { level: 1, name: 'Feedback with NPS' }).waitFor()
	const fieldList = page.getByRole('list', { name: 'Fields' })
	await fieldList
		.getByRole('button', { name: 'Edit How likely are you to recommend us to a friend or colleague?', exact: true })
		.waitFor()

	// One step made both: the form, and a built-in database with the template's properties.
	const form = await api.callOk<Form>(`/dashboard/forms/${formId}`, { token })
	const after = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const made = after.filter((database) => !before.some((old) => old.id === database.id))
	assert.deepEqual(
		made.map((database) => database.id),
		[form.databaseId],
		'exactly one new database, the form’s',
	)
	const database = made[0]
	assert.ok(database)
	assert.equal(form.databaseName, database.name)
	assert.deepEqual(
		database.properties.map((property) => [property.name, property.type]).sort(),
		[
			['Email', 'email'],
			['Most used', 'multi_select'],
			['NPS', 'number'],
			['Name', 'title'],
			['Satisfaction', 'number'],
			['To improve', 'rich_text'],
		],
		'a property per question of the template',
	)

	await page.getByRole('button', { name: 'Publish', exact: true }).click()
	await page.getByRole('button', { name: 'Unpublish', exact: true }).waitFor()
	// The share panel opens by itself after the first publish.
	const share = page.getByRole('dialog', { name: 'Share Feedback with NPS' })
	await share.getByRole('button', { name: 'Copy link' }).waitFor()
	await page.keyboard.press('Escape')
	await share.waitFor({ state: 'detached' })

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const form2 = visitor.page
	await form2.goto(`/forms/${formId}`)
	await form2.getByRole('heading', { name: 'How are we doing?' }).waitFor()
	await clickBox(
		form2
			.getByRole('radiogroup', { name: 'How likely are you to recommend us to a friend or colleague?' })
			.getByRole('radio', { name: '9', exact: true }),
	)
	await clickBox(
		form2
			.getByRole('radiogroup', { name: 'How satisfied are you with the product overall?' })
			.getByRole('radio', { name: '4 stars' }),
	)
	await form2.getByRole('checkbox', { name: 'Integrations' }).check()
	await form2.getByRole('textbox', { name: 'Your name' }).fill('Nina Promoter')
	await form2.getByRole('button', { name: 'Submit' }).click()
	await form2.getByText('Thank you! Your answer has been recorded.').waitFor()

	const propertyId = (name: string) => database.properties.find((property) => property.name === name)?.id ?? ''
	let row: Row | undefined
	for (let attempt = 0; attempt < 60 && !row; attempt++) {
		const rows = await api.callOk<{ rows: Row[] }>(`/dashboard/local/databases/${database.id}/rows`, { token })
		row = rows.rows[0]
		if (!row) {
			await new Promise((resolve) => setTimeout(resolve, 500))
		}
	}
	assert.ok(row, 'the answer became a row of the new database')
	assert.equal(row.title, 'Nina Promoter')
	assert.equal(row.values[propertyId('NPS')], 9)
	assert.equal(row.values[propertyId('Satisfaction')], 4)
	assert.deepEqual(row.values[propertyId('Most used')], ['Integrations'])
	assertNoProblems(visitor.problems, [failedRequest(422)])
	assertNoProblems(owner.problems)
})
