import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Locator, Page } from 'playwright-core'
import { api, assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// Pages, a jump and the new question kinds (issue 19): a three-page review form whose first page
// jumps over the second for visitors who did not come in person. The visitor first goes to page 2
// and types there, comes back, changes the answer and takes the jump; rates with stars, gives an
// NPS and draws a signature with the mouse. The row holds both numbers and the signature as a PNG
// file; the skipped page's answer went nowhere.

const browser = useBrowser()

type Property = { id: string; name: string; type: string }
type Database = { id: string; name: string; properties: Property[] }
type Field = { id: string; kind: string; label: string; propertyId: string | null; required: boolean }
type Form = { id: string; name: string; fields: Field[] }
type Row = { title: string; values: Record<string, unknown> }
type FileValue = { name: string; blobId: string | null }

const pngSignature = Buffer.from('89504e470d0a1a0a', 'hex')

/** Clicks the box or star a visitor sees (the radio's label; the radio itself is visually hidden). */
async function clickBox(radio: Locator): Promise<void> {
	await radio.locator('xpath=..').click()
	assert.ok(await radio.isChecked())
}

/** Draws a looping stroke across the middle of the signature pad, as a hand with a mouse would. */
async function sign(page: Page, pad: Locator): Promise<void> {
	const box = await pad.boundingBox()
	assert.ok(box, 'the signature pad is on screen')
	const y = box.y + box.height / 2
	await page.mouse.move(box.x + 30, y)
	await page.mouse.down()
	for (let step = 1; step <= 24; step++) {
		await page.mouse.move(box.x + 30 + step * 12, y + Math.sin(step / 2) * 30, { steps: 2 })
	}
	await page.mouse.up()
}

/** A built-in database for the reviews, and a form on it whose fields and rule are set through the API. */
async function reviewForm(token: string) {
	const { workspace } = await api.callOk<{ workspace: { id: string } }>('/dashboard/workspaces', {
		token,
		json: { tool: 'local', name: 'Venue' },
	})
	const database = await api.callOk<Database>('/dashboard/local/databases', {
		token,
		json: {
			workspaceId: workspace.id,
			name: 'Reviews',
			properties: [
				{ name: 'Name', type: 'title' },
				{ name: 'Rating', type: 'number', format: 'number' },
				{ name: 'NPS', type: 'number', format: 'number' },
				{ name: 'Signature', type: 'files' },
				{ name: 'Venue notes', type: 'rich_text' },
			],
		},
	})
	const created = await api.callOk<Form>('/dashboard/forms', {
		token,
		json: { name: 'Event review', databaseId: database.id },
	})
	const property = (name: string) => database.properties.find((one) => one.name === name)?.id ?? ''
	const bound = (name: string) => {
		const field = created.fields.find((one) => one.propertyId === property(name))
		assert.ok(field, `the new form asks ${name}`)
		return field
	}
	const fields = [
		{ ...bound('Name'), label: 'Your name', required: true },
		{ id: 'came', kind: 'select', label: 'Did you come in person?', propertyId: null, choices: ['Yes', 'No'] },
		{ ...bound('Rating'), kind: 'rating', label: 'How was the talk?', scale: { min: 1, max: 5 } },
		{ id: 'page-venue', kind: 'page_break', label: 'The venue', propertyId: null },
		{ ...bound('Venue notes'), kind: 'long_text', label: 'What did you think of the venue?' },
		{ id: 'page-wrap', kind: 'page_break', label: 'Wrap up', propertyId: null },
		{ ...bound('NPS'), kind: 'nps', label: 'Would you recommend the event?', required: true },
		{ ...bound('Signature'), kind: 'signature', label: 'Sign here', required: true },
	]
	const form = await api.callOk<Form>(`/dashboard/forms/${created.id}`, {
		token,
		method: 'PATCH',
		json: {
			fields,
			layout: { display: 'classic', showProgress: true },
			logic: [
				{
					id: 'skip-venue',
					match: 'all',
					conditions: [{ fieldId: 'came', operator: 'equals', value: 'No' }],
					action: 'jump',
					toPageId: 'page-wrap',
				},
			],
		},
	})
	const fieldId = (label: string) => form.fields.find((one) => one.label === label)?.id ?? ''
	return { database, form, property, fieldId }
}

test('a three-page form jumps over page 2; rating, NPS and a drawn signature land in the row', async (t) => {
	const account = await api.signUp({ name: 'Petra Pages' })
	const token = account.token
	const { database, form, property, fieldId } = await reviewForm(token)

	// Published by its owner in the builder.
	const owner = await newPage(browser(), { account })
	t.after(() => owner.context.close())
	await owner.page.goto(`/forms/${form.id}/edit`)
	await owner.page.getByRole('list', { name: 'Fields' }).getByRole('button', { name: 'Edit Sign here' }).waitFor()
	await owner.page.getByRole('button', { name: 'Publish', exact: true }).click()
	await owner.page.getByRole('button', { name: 'Unpublish', exact: true }).waitFor()

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const { page } = visitor
	await page.goto(`/forms/${form.id}`)
	const progress = page.getByRole('progressbar', { name: 'Progress' })
	await page.getByRole('textbox', { name: 'Your name' }).fill('Rhea Reviewer')
	await page.getByRole('radiogroup', { name: 'Did you come in person?' }).getByRole('radio', { name: 'Yes' }).check()
	await clickBox(page.getByRole('radiogroup', { name: 'How was the talk?' }).getByRole('radio', { name: '4 stars' }))
	assert.equal(await progress.getAttribute('aria-valuetext'), 'Page 1 of 3')
	await page.getByRole('button', { name: 'Next' }).click()

	// Page 2, then back: the visitor changes their mind and takes the jump.
	const venue = page.getByRole('textbox', { name: 'What did you think of the venue?' })
	await venue.fill('Too cold in the main hall.')
	assert.equal(await progress.getAttribute('aria-valuetext'), 'Page 2 of 3')
	await page.getByRole('button', { name: 'Back' }).click()
	await page.getByRole('radiogroup', { name: 'Did you come in person?' }).getByRole('radio', { name: 'No' }).check()
	// The path now skips page 2: two pages in all.
	await page.waitForFunction(
		() => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuetext') === 'Page 1 of 2',
	)
	await page.getByRole('button', { name: 'Next' }).click()
	const nps = page.getByRole('radiogroup', { name: 'Would you recommend the event?' })
	await nps.waitFor()
	assert.equal(await venue.count(), 0, 'page 2 was jumped over')
	assert.equal(await progress.getAttribute('aria-valuetext'), 'Page 2 of 2')
	await clickBox(nps.getByRole('radio', { name: /^8$/ }))

	const signature = page.getByRole('group', { name: 'Sign here' })
	await sign(page, signature.getByRole('img', { name: /^Signature pad/ }))
	await signature.getByText('Signature saved.').waitFor()
	await page.getByRole('button', { name: 'Submit' }).click()
	await page.getByText('Thank you! Your answer has been recorded.').waitFor()

	let row: Row | undefined
	for (let attempt = 0; attempt < 60 && !row; attempt++) {
		const rows = await api.callOk<{ rows: Row[] }>(`/dashboard/local/databases/${database.id}/rows`, { token })
		row = rows.rows[0]
		if (!row) {
			await new Promise((resolve) => setTimeout(resolve, 500))
		}
	}
	assert.ok(row, 'the answer became a row')
	assert.equal(row.title, 'Rhea Reviewer')
	assert.equal(row.values[property('Rating')], 4)
	assert.equal(row.values[property('NPS')], 8)
	assert.ok(!row.values[property('Venue notes')], 'the skipped page wrote nothing')
	const files = row.values[property('Signature')] as FileValue[]
	assert.equal(files.length, 1, 'the signature is one file')
	const blob = await api.callOk<{ url: string; contentType?: string }>(
		`/dashboard/active_storage/blobs/${files[0]?.blobId}`,
		{ token },
	)
	const bytes = Buffer.from(await (await fetch(blob.url)).arrayBuffer())
	assert.deepEqual(bytes.subarray(0, 8), pngSignature, 'the signature is a PNG')
	assert.ok(bytes.length > 1000, `a drawing, not an empty picture (${bytes.length} bytes)`)

	const { submissions } = await api.callOk<{ submissions: { answers: Record<string, unknown> }[] }>(
		`/dashboard/forms/${form.id}/submissions`,
		{ token },
	)
	assert.equal(submissions.length, 1)
	const answers = submissions[0]?.answers ?? {}
	assert.ok(!(fieldId('What did you think of the venue?') in answers), 'page 2’s answer was not sent')
	assert.equal(answers.came, 'No')
	assertNoProblems(visitor.problems, [failedRequest(422)])
	assertNoProblems(owner.problems)
})
