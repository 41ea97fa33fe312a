import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'

// Forms private by default: a new form on the sample Projects database asks its plain inputs.
// The Client relation (every client's name, to anonymous visitors) and the Status are left out
// until the owner adds them; adding the relation shows what visitors will see.

const browser = useBrowser()

type Form = { id: string; fields: { kind: string; label: string }[] }

test('a new form on the sample Projects has no relation or people field until the owner adds one, with a notice', async (t) => {
	const account = await api.signUp({ name: 'Priya Private' })
	await api.callOk('/dashboard/workspaces/sample', { token: account.token, method: 'POST' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())

	await page.goto('/forms')
	await page.getByRole('button', { name: 'New form' }).first().click()
	const dialog = page.getByRole('dialog', { name: 'New form' })
	await dialog.getByRole('radio', { name: /Use an existing database/ }).check()
	await dialog.getByRole('combobox', { name: 'Database' }).click()
	await page.getByRole('option', { name: /^Projects/ }).click()
	await dialog.getByRole('textbox', { name: 'Name' }).fill('Project brief')
	await dialog.getByRole('button', { name: /^Start from scratch/ }).click()
	await page.waitForURL(/\/forms\/[^/]+\/edit$/)
	const formId = /\/forms\/([^/]+)\/edit$/.exec(new URL(page.url()).pathname)?.[1] ?? ''

	const fields = page.getByRole('list', { name: 'Fields' })
	for (const label of ['Name', 'Budget', 'Timeline', 'Tags', 'Brief']) {
		await fields.getByRole('button', { name: `Edit ${label}`, exact: true }).waitFor()
	}
	for (const label of ['Client', 'Status']) {
		assert.equal(await fields.getByRole('button', { name: `Edit ${label}`, exact: true }).count(), 0, label)
	}
	assert.equal(await page.getByText(/Visitors will see/).count(), 0, 'no notice without such a field')
	const created = await api.callOk<Form>(`/dashboard/forms/${formId}`, { token: account.token })
	assert.deepEqual(
		created.fields.filter((field) => ['relation', 'people', 'status'].includes(field.kind)),
		[],
		'the saved form has none either',
	)

	// The owner adds the Client relation: the builder says what every visitor will see.
	await page.getByRole('button', { name: 'Add', exact: true }).click()
	await page.getByRole('menuitem', { name: /^Client/ }).click()
	const client = fields.getByRole('button', { name: 'Edit Client', exact: true })
	await client.waitFor()
	const notice = fields.getByText('Visitors will see the names of every row in Clients.')
	await notice.waitFor()
	assert.ok(await notice.isVisible())
	assert.equal(
		await client.evaluate(
			(button) => document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent,
		),
		'Visitors will see the names of every row in Clients.',
	)
	await page.getByRole('button', { name: 'Save', exact: true }).click()
	await page.getByText('All changes saved').waitFor()
	const saved = await api.callOk<Form>(`/dashboard/forms/${formId}`, { token: account.token })
	assert.ok(saved.fields.some((field) => field.kind === 'relation' && field.label === 'Client'))

	assertNoProblems(problems)
})
