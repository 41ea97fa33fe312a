import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formTemplate, templateQuestions } from '@blocksmith/contracts/form-templates.ts'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'

// The quick start (issue 19): a new user with no workspace at all picks a template on the empty
// forms page and lands in the builder of a form whose own built-in database was made in the same
// step, with a property for each question.

const browser = useBrowser()

type Form = {
	id: string
	name: string
	databaseId: string
	fields: { kind: string; label: string; propertyId: string | null }[]
}
type Database = { name: string; properties: { name: string; type: string }[] }

test('a template creates a form and its database in one step', async (t) => {
	const account = await api.signUp({ name: 'Tess Template' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())

	await page.goto('/forms')
	await page.getByRole('heading', { name: 'No forms yet' }).waitFor()
	const gallery = page.getByRole('list', { name: 'Templates' })
	const card = gallery.getByRole('button', { name: /^Job application/ })
	assert.match((await card.textContent()) ?? '', /3 pages.*Asks: Full name · Email · Phone/)
	assert.ok(await page.getByRole('radio', { name: /Create a new database for it/ }).isChecked())
	await card.click()
	await page.waitForURL(/\/forms\/[^/]+\/edit$/)
	const formId = /\/forms\/([^/]+)\/edit$/.exec(new URL(page.url()).pathname)?.[1] ?? ''
	await page
		.getByRole('list', { name: 'Fields' })
		.getByRole('button', { name: 'Edit Full name', exact: true })
		.waitFor()

	const template = formTemplate('job_application')
	const form = await api.callOk<Form>(`/dashboard/forms/${formId}`, { token: account.token })
	assert.equal(form.name, 'Job application')
	assert.deepEqual(
		form.fields.map((field) => field.label),
		template.items.map((item) => item.label),
	)
	const database = await api.callOk<Database>(`/dashboard/local/databases/${form.databaseId}`, {
		token: account.token,
	})
	assert.equal(database.name, 'Job application')
	assert.deepEqual(
		database.properties.map((property) => property.name).sort(),
		templateQuestions(template)
			.map((question) => question.property.name)
			.sort(),
	)
	assert.ok(
		form.fields
			.filter((field) => field.kind !== 'page_break' && field.kind !== 'heading' && field.kind !== 'paragraph')
			.every((field) => field.propertyId !== null),
	)

	assertNoProblems(problems)
})
