import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'

// Submissions one can work with (issue 19): the owner finds an answer by searching, opens it on
// its own page (every answer, each delivery attempt), and deletes it with its row; the other
// answer and its row stay.

const browser = useBrowser()

type Database = { id: string; name: string }
type Form = { id: string; fields: { id: string; label: string }[] }
type Submission = { id: string; delivery: { state: string } }

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

test('an answer is found by search, opened on its own page, and deleted with its row', async (t) => {
	const account = await api.signUp({ name: 'Sam Submissions' })
	const token = account.token
	await api.callOk('/dashboard/workspaces/sample', { token, method: 'POST' })
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	assert.ok(enquiries)
	const form = await api.callOk<Form>('/dashboard/forms', {
		token,
		json: { name: 'Requests', databaseId: enquiries.id },
	})
	await api.callOk(`/dashboard/forms/${form.id}`, { token, method: 'PATCH', json: { published: true } })
	const fieldId = (label: string) => form.fields.find((field) => field.label === label)?.id ?? ''
	await submit(form, { [fieldId('Name')]: 'Ada Search', [fieldId('Message')]: 'We need a new website' })
	await submit(form, { [fieldId('Name')]: 'Grace Other', [fieldId('Message')]: 'Compilers' })
	await until(
		'both delivered',
		() => api.callOk<{ submissions: Submission[] }>(`/dashboard/forms/${form.id}/submissions`, { token }),
		(page) => page.submissions.length === 2 && page.submissions.every((s) => s.delivery.state === 'delivered'),
	)

	const owner = await newPage(browser(), { account })
	t.after(() => owner.context.close())
	const { page } = owner
	await page.goto(`/forms/${form.id}/submissions`)
	const table = page.getByRole('table', { name: 'Submissions to Requests' })
	await table.getByRole('row').filter({ hasText: 'Grace Other' }).waitFor()
	await page.getByRole('searchbox', { name: 'Search answers' }).fill('WEBSITE')
	await table.getByRole('row').filter({ hasText: 'Grace Other' }).waitFor({ state: 'detached' })
	const ada = table.getByRole('row').filter({ hasText: 'Ada Search' })
	await ada.getByRole('link', { name: /^Open the answer of/ }).click()

	await page.waitForURL(/\/forms\/[^/]+\/submissions\/[^/?]+\?q=WEBSITE$/)
	const answers = page.getByRole('region', { name: 'Answers' })
	await answers.getByText('We need a new website').waitFor()
	await page.getByRole('list', { name: 'Attempts at writing the row' }).getByText('OK').waitFor()
	// The answer has an address of its own: a reload opens it again.
	await page.reload()
	await answers.getByText('Ada Search').waitFor()

	await page.getByRole('button', { name: 'Delete' }).click()
	const dialog = page.getByRole('alertdialog', { name: 'Delete this answer?' })
	const alsoRow = dialog.getByRole('checkbox', { name: 'Also delete the row in Enquiries' })
	assert.equal(await alsoRow.getAttribute('aria-checked'), 'false', 'the row stays unless asked')
	await alsoRow.click()
	await dialog.getByRole('button', { name: 'Delete answer' }).click()
	await page.waitForURL(/\/forms\/[^/]+\/submissions\?q=WEBSITE$/)
	await page.getByRole('heading', { name: 'No answers match “WEBSITE”' }).waitFor()
	await page.getByRole('button', { name: 'Clear search and filter' }).click()
	await table.getByRole('row').filter({ hasText: 'Grace Other' }).waitFor()

	const rows = await until(
		'the row deleted',
		() =>
			api.callOk<{ rows: { title: string }[] }>(`/dashboard/local/databases/${enquiries.id}/rows?limit=100`, { token }),
		(page) => !page.rows.some((row) => row.title === 'Ada Search'),
	)
	assert.ok(
		rows.rows.some((row) => row.title === 'Grace Other'),
		'the other answer’s row stays',
	)
	assertNoProblems(owner.problems)
})
