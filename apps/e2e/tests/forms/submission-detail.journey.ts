import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'

// Submissions you can work with (issue 19): among several answers the owner finds one by search,
// opens it in full (every question, the delivery attempt), follows "Open row" to the row's table,
// comes back and deletes the answer alone. It leaves the list; its row stays in the database.

const browser = useBrowser()

type Database = { id: string; name: string }
type Form = { id: string; fields: { id: string; label: string; kind: string }[] }
type Submission = { id: string; delivery: { state: string } }
type Row = { title: string }

async function until<T>(what: string, read: () => Promise<T>, isDone: (value: T) => boolean): Promise<T> {
	const deadline = Date.now() + 30_000
	for (let value = await read(); ; value = await read()) {
		if (isDone(value)) {
			return value
		}
		assert.ok(Date.now() < deadline, `timed out waiting for ${what}`)
		await new Promise((resolve) => setTimeout(resolve, 300))
	}
}

/** Sends an answer as the public page does; the server asks for a few seconds of filling in first (422 until then). */
async function submit(form: Form, answers: Record<string, unknown>): Promise<void> {
	const page = await api.callOk<{ renderToken: string }>(`/api/forms/${form.id}`)
	const json = { formId: form.id, answers, idempotencyKey: randomUUID(), renderToken: page.renderToken }
	const response = await until(
		'the answer accepted',
		() => api.call('/api/submissions', { json }),
		(r) => r.status !== 422,
	)
	assert.equal(response.status, 201, await response.text())
}

const people = [
	{ Name: 'Ada Lovelace', Email: 'ada@example.com', Service: 'Consulting', Message: 'Notes on the engine' },
	{ Name: 'Katherine Johnson', Email: 'katherine@example.com', Service: 'Design', Message: 'Orbital trajectories' },
	{ Name: 'Grace Hopper', Email: 'grace@example.com', Service: 'Development', Message: 'A compiler, please' },
]

test('an answer found by search is opened in full, its row opened, and the answer deleted with its row kept', async (t) => {
	const account = await api.signUp({ name: 'Dana Detail' })
	const token = account.token
	await api.callOk('/dashboard/workspaces/sample', { token, method: 'POST' })
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	assert.ok(enquiries)
	const form = await api.callOk<Form>('/dashboard/forms', {
		token,
		json: { name: 'Enquiry', databaseId: enquiries.id },
	})
	await api.callOk(`/dashboard/forms/${form.id}`, { token, method: 'PATCH', json: { published: true } })
	const fieldId = (label: string) => form.fields.find((field) => field.label === label)?.id ?? ''
	for (const person of people) {
		await submit(form, Object.fromEntries(Object.entries(person).map(([label, value]) => [fieldId(label), value])))
	}
	await until(
		'all delivered',
		() => api.callOk<{ submissions: Submission[] }>(`/dashboard/forms/${form.id}/submissions`, { token }),
		(page) => page.submissions.length === 3 && page.submissions.every((s) => s.delivery.state === 'delivered'),
	)

	const owner = await newPage(browser(), { account })
	t.after(() => owner.context.close())
	const { page } = owner
	await page.goto(`/forms/${form.id}/submissions`)
	const table = page.getByRole('table', { name: 'Submissions to Enquiry' })
	await table.getByRole('row').filter({ hasText: 'Grace Hopper' }).waitFor()
	await page.getByRole('searchbox', { name: 'Search answers' }).fill('trajector')
	await table.getByRole('row').filter({ hasText: 'Ada Lovelace' }).waitFor({ state: 'detached' })
	await table.getByRole('row').filter({ hasText: 'Grace Hopper' }).waitFor({ state: 'detached' })
	const katherine = table.getByRole('row').filter({ hasText: 'Katherine Johnson' })
	await katherine.getByRole('link', { name: /^Open the answer of/ }).click()

	// Every question of the form, each with its answer or "No answer".
	await page.waitForURL(/\/forms\/[^/]+\/submissions\/[^/?]+\?q=trajector$/)
	const answers = page.getByRole('region', { name: 'Answers' })
	await answers.getByText('Orbital trajectories').waitFor()
	const questions = form.fields.filter(
		(field) => !['heading', 'paragraph', 'image', 'divider', 'page_break'].includes(field.kind),
	)
	assert.deepEqual(
		await answers.locator('dt').allTextContents(),
		questions.map((field) => field.label),
		'every question is listed',
	)
	for (const [label, value] of Object.entries(people[1] ?? {})) {
		const answer = answers
			.locator('dt', { hasText: new RegExp(`^${label}$`) })
			.locator('xpath=following-sibling::dd[1]')
		assert.equal((await answer.textContent())?.trim(), value, `${label} shows its answer`)
	}
	assert.equal(
		await answers.getByText('No answer').count(),
		// A checkbox left unticked reads "No".
		questions.filter((field) => field.kind !== 'checkbox').length - Object.keys(people[1] ?? {}).length,
		'the others say so',
	)
	const attempts = page.getByRole('list', { name: 'Attempts at writing the row' })
	assert.equal(await attempts.getByRole('listitem').count(), 1, 'one attempt')
	await attempts.getByText('OK').waitFor()

	// Open row: the built-in row's table, where it is.
	const detailUrl = page.url()
	await page.getByRole('link', { name: 'Open row in its table' }).click()
	await page.waitForURL(new RegExp(`/workspaces/[^/]+/databases/${enquiries.id}$`))
	await page.getByRole('heading', { level: 1, name: 'Enquiries' }).waitFor()
	await page.getByRole('searchbox', { name: 'Search titles' }).fill('Katherine')
	await page.getByRole('cell', { name: 'Katherine Johnson' }).first().waitFor()
	await page.goBack()
	await page.waitForURL(detailUrl)
	await answers.getByText('Orbital trajectories').waitFor()

	// Delete the answer alone: the box for the row stays unticked.
	await page.getByRole('button', { name: 'Delete' }).click()
	const dialog = page.getByRole('alertdialog', { name: 'Delete this answer?' })
	const alsoRow = dialog.getByRole('checkbox', { name: 'Also delete the row in Enquiries' })
	assert.equal(await alsoRow.getAttribute('aria-checked'), 'false', 'the row stays unless asked')
	await dialog.getByRole('button', { name: 'Delete answer' }).click()
	await page.waitForURL(/\/forms\/[^/]+\/submissions\?q=trajector$/)
	await page.getByRole('heading', { name: 'No answers match “trajector”' }).waitFor()
	await page.getByRole('button', { name: 'Clear search and filter' }).click()
	await table.getByRole('row').filter({ hasText: 'Grace Hopper' }).waitFor()
	await table.getByRole('row').filter({ hasText: 'Ada Lovelace' }).waitFor()
	// Gone once the list is read again (the list cached before the search may show it for a moment).
	await table.getByRole('row').filter({ hasText: 'Katherine Johnson' }).waitFor({ state: 'detached' })

	const left = await api.callOk<{ submissions: Submission[]; total: number }>(
		`/dashboard/forms/${form.id}/submissions`,
		{ token },
	)
	assert.equal(left.total, 2, 'two answers left')
	const rows = await api.callOk<{ rows: Row[] }>(
		`/dashboard/local/databases/${enquiries.id}/rows?search=${encodeURIComponent('Katherine Johnson')}`,
		{ token },
	)
	assert.deepEqual(
		rows.rows.map((row) => row.title),
		['Katherine Johnson'],
		'the row stays in Enquiries',
	)
	assertNoProblems(owner.problems)
})
