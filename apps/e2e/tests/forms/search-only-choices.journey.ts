import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// Choices visitors may see (issue 19): the owner of a form on the sample Projects adds its Client
// relation and sets it to search only in the builder; a visitor is offered no client (and the
// server sends none) until two letters are typed, then picks the match, and the row's Client
// relation holds that client.

const browser = useBrowser()

type Database = { id: string; name: string; properties: { id: string; name: string }[] }
type Row = { id: string; title: string; values: Record<string, unknown> }

test('a search-only Client question lists no client until two letters are typed, and the pick lands in the row', async (t) => {
	const account = await api.signUp({ name: 'Sasha Search' })
	const token = account.token
	await api.callOk('/dashboard/workspaces/sample', { token, method: 'POST' })
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const projects = databases.find((database) => database.name === 'Projects')
	const clients = databases.find((database) => database.name === 'Clients')
	assert.ok(projects && clients)
	const clientRows = await api.callOk<{ rows: Row[] }>(`/dashboard/local/databases/${clients.id}/rows?limit=100`, {
		token,
	})
	const globex = clientRows.rows.find((row) => row.title === 'Globex Corporation')
	assert.ok(globex, 'the sample has Globex Corporation')
	const form = await api.callOk<{ id: string }>('/dashboard/forms', {
		token,
		json: { name: 'Project intake', databaseId: projects.id },
	})

	// The owner adds the Client relation and sets what visitors may see to search only.
	const owner = await newPage(browser(), { account })
	t.after(() => owner.context.close())
	const builder = owner.page
	await builder.goto(`/forms/${form.id}/edit`)
	const fieldList = builder.getByRole('list', { name: 'Fields' })
	await fieldList.getByRole('button', { name: 'Edit Name', exact: true }).waitFor()
	await builder.getByRole('button', { name: 'Add', exact: true }).click()
	await builder.getByRole('menuitem', { name: /^Client/ }).click()
	const scope = builder.getByRole('group', { name: 'Choices visitors may see' })
	await scope.getByRole('radio', { name: /^All rows/ }).waitFor()
	assert.ok(await scope.getByRole('radio', { name: /^All rows/ }).isChecked(), 'a new relation lists every row')
	await scope.getByRole('radio', { name: /^Search only/ }).check()
	await builder.getByRole('button', { name: 'Publish', exact: true }).click()
	await builder.getByRole('button', { name: 'Unpublish', exact: true }).waitFor()
	const saved = await api.callOk<{ fields: { label: string; kind: string; choiceScope: { mode: string } }[] }>(
		`/dashboard/forms/${form.id}`,
		{ token },
	)
	assert.deepEqual(
		saved.fields.filter((field) => field.kind === 'relation').map((field) => [field.label, field.choiceScope.mode]),
		[['Client', 'search']],
		'the builder saved the Client question as search only',
	)

	// The visitor: every choices read the page makes is watched, with the rows it returned.
	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const page = visitor.page
	const reads: { search: string; titles: string[] }[] = []
	page.on('response', async (response) => {
		const url = new URL(response.url())
		if (url.pathname === '/api/local/databases' && response.ok()) {
			const body = (await response.json()) as { rows?: { title: string }[] }[]
			reads.push({
				search: url.searchParams.get('search') ?? '',
				titles: body.flatMap((database) => (database.rows ?? []).map((row) => row.title)),
			})
		}
	})
	await page.goto(`/forms/${form.id}`)
	await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Globex rebrand')
	const client = page.getByRole('combobox', { name: 'Client' })
	const matches = page.getByRole('listbox', { name: 'Client' })
	const status = page.getByRole('status').filter({ hasText: /letters to search|match|Searching/ })
	await client.click()
	await status.filter({ hasText: 'Type at least 2 letters to search.' }).waitFor()
	assert.equal(await page.getByRole('option').count(), 0, 'nothing is listed before typing')
	await client.pressSequentially('G')
	// Longer than the field's pause before searching: a search would have gone out by now.
	await page.waitForTimeout(800)
	await status.filter({ hasText: 'Type at least 2 letters to search.' }).waitFor()
	assert.equal(await page.getByRole('option').count(), 0, 'one letter lists nothing')
	assert.ok(
		reads.every((read) => read.titles.length === 0),
		`no read returned a client before two letters: ${JSON.stringify(reads)}`,
	)
	await client.pressSequentially('l')
	const option = matches.getByRole('option', { name: 'Globex Corporation' })
	await option.waitFor()
	assert.deepEqual(
		await matches.getByRole('option').allTextContents(),
		['Globex Corporation'],
		'only the matching client',
	)
	assert.ok(
		reads.some((read) => read.search === 'Gl' && read.titles.includes('Globex Corporation')),
		`the server was asked for "Gl": ${JSON.stringify(reads)}`,
	)
	assert.ok(
		reads.every((read) => read.search.length >= 2 || read.titles.length === 0),
		`no read under two letters returned rows: ${JSON.stringify(reads)}`,
	)
	await option.click()
	await page
		.getByRole('list', { name: 'Chosen for Client' })
		.getByRole('button', { name: 'Remove Globex Corporation' })
		.waitFor()
	await page.getByRole('button', { name: 'Submit' }).click()
	await page.getByText('Thank you! Your answer has been recorded.').waitFor()

	const clientProperty = projects.properties.find((property) => property.name === 'Client')?.id ?? ''
	let row: Row | undefined
	for (let attempt = 0; attempt < 60 && !row; attempt++) {
		const rows = await api.callOk<{ rows: Row[] }>(
			`/dashboard/local/databases/${projects.id}/rows?search=${encodeURIComponent('Globex rebrand')}`,
			{ token },
		)
		row = rows.rows[0]
		if (!row) {
			await new Promise((resolve) => setTimeout(resolve, 500))
		}
	}
	assert.ok(row, 'the answer became a row')
	assert.deepEqual(row.values[clientProperty], [globex.id], 'the row’s Client relation holds Globex')
	// The page waits a few seconds of filling in before the server takes an answer (a 422 retried).
	assertNoProblems(visitor.problems, [failedRequest(422)])
	assertNoProblems(owner.problems)
})
