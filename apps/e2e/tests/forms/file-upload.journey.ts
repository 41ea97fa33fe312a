import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// A file-upload field, as its owner sets it up in the builder and a visitor uses it: the
// field's limits said and enforced on the page, two files uploaded with the answer, and both
// in the row's files property, downloadable by the owner.

const browser = useBrowser()

type Database = { id: string; name: string; properties: { id: string; name: string }[] }
type FileValue = { name: string; url: string | null; blobId: string | null }
type Row = { title: string; values: Record<string, unknown> }

const pdfBytes = Buffer.from('%PDF-1.4\n% a brief for the journey\n')
const pngBytes = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')

test('a visitor uploads two files with an answer; they land in the row and the owner opens them', async (t) => {
	const account = await api.signUp({ name: 'Felix Files' })
	const token = account.token
	await api.callOk('/dashboard/workspaces/sample', { token, method: 'POST' })
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	assert.ok(enquiries)
	const form = await api.callOk<{ id: string }>('/dashboard/forms', {
		token,
		json: { name: 'Briefs', databaseId: enquiries.id },
	})

	// The owner sets the field's limits in the builder: two files, PDFs and images, 1 MB each.
	const owner = await newPage(browser(), { account })
	t.after(() => owner.context.close())
	const builder = owner.page
	await builder.goto(`/forms/${form.id}/edit`)
	await builder
		.getByRole('list', { name: 'Fields' })
		.getByRole('button', { name: 'Edit Attachments', exact: true })
		.click()
	await builder.getByLabel('Most files').fill('2')
	await builder.getByLabel('Largest file (MB)').fill('1')
	await builder.getByRole('button', { name: '+ PDF' }).click()
	await builder.getByRole('button', { name: '+ Images' }).click()
	assert.equal(await builder.getByLabel('Accepted types').inputValue(), '.pdf, image/*')
	await builder.getByRole('button', { name: 'Publish', exact: true }).click()
	await builder.getByRole('button', { name: 'Unpublish', exact: true }).waitFor()

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const page = visitor.page
	await page.goto(`/forms/${form.id}`)
	await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Brief sender')
	const attachments = page.getByRole('group', { name: 'Attachments' })
	await attachments.getByText('Up to 2 files, 1 MB each. Accepted: .pdf, image/*.').waitFor()
	const chooser = attachments.getByLabel('Choose files')
	// A type the field does not take is refused on the page, before any upload.
	await chooser.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain notes') })
	await attachments.getByText('Not a file type this field takes (.pdf, image/*).').waitFor()
	await attachments.getByRole('button', { name: 'Dismiss notes.txt' }).click()
	await chooser.setInputFiles([
		{ name: 'brief.pdf', mimeType: 'application/pdf', buffer: pdfBytes },
		{ name: 'sketch.png', mimeType: 'image/png', buffer: pngBytes },
	])
	await attachments.getByRole('button', { name: 'Remove brief.pdf' }).waitFor()
	await attachments.getByRole('button', { name: 'Remove sketch.png' }).waitFor()
	assert.ok(await chooser.isDisabled(), 'the field is full')
	await page.getByRole('button', { name: 'Submit' }).click()
	await page.getByText('Thank you! Your answer has been recorded.').waitFor()

	// The row holds both files, as uploaded.
	const propertyId = enquiries.properties.find((property) => property.name === 'Attachments')?.id ?? ''
	let row: Row | undefined
	for (let attempt = 0; attempt < 60 && !row; attempt++) {
		const rows = await api.callOk<{ rows: Row[] }>(
			`/dashboard/local/databases/${enquiries.id}/rows?search=${encodeURIComponent('Brief sender')}`,
			{ token },
		)
		row = rows.rows[0]
		if (!row) {
			await new Promise((resolve) => setTimeout(resolve, 500))
		}
	}
	assert.ok(row, 'the answer became a row')
	const files = row.values[propertyId] as FileValue[]
	// In the order the uploads finished.
	assert.deepEqual(files.map((file) => file.name).sort(), ['brief.pdf', 'sketch.png'])
	const brief = files.find((file) => file.name === 'brief.pdf')
	const blob = await api.callOk<{ url: string }>(`/dashboard/active_storage/blobs/${brief?.blobId}`, { token })
	const download = await fetch(blob.url)
	assert.deepEqual(Buffer.from(await download.arrayBuffer()), pdfBytes, 'the file downloads as it was sent')

	// The owner sees the files in the submissions and opens one.
	await builder.goto(`/forms/${form.id}/submissions`)
	const answer = builder.getByRole('row').filter({ hasText: 'Brief sender' })
	await answer.getByText('Delivered').waitFor()
	const [opened] = await Promise.all([
		builder.waitForEvent('popup'),
		answer.getByRole('button', { name: 'sketch.png' }).click(),
	])
	await opened.waitForLoadState()
	assert.match(opened.url(), /\/api\/uploads\/[^/?]+\?expires=\d+&signature=/)
	assertNoProblems(visitor.problems, [failedRequest(422)])
	assertNoProblems(owner.problems)
})
