import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
	announceFile,
	fieldOf,
	localPath,
	publishedEnquiryForm,
	submitAnswers,
	type TestForm,
	uploadFile,
} from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { formUploadLimits, sweepUnclaimedUploads } from './forms.files.ts'

// File-upload fields end to end on the real database: a visitor's direct upload scoped to one
// published form's field, the field's limits enforced by the server, the file delivered into the
// row of a local database, and uploads no answer took swept away.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
	await t.close()
})

const pdf = { name: 'brief.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.7 a short brief') }
const png = { name: 'logo.png', type: 'image/png', bytes: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]) }

/** A published Enquiries form whose Attachments field has these rules. */
async function formWithFiles(rules: Record<string, unknown> | null = null, extra: Record<string, unknown> = {}) {
	const account = await t.signUp()
	const { form } = await publishedEnquiryForm(t, account.token)
	const fields = form.fields.map((field) => (field.label === 'Attachments' ? { ...field, fileRules: rules } : field))
	const updated = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
		token: account.token,
		json: { fields, ...extra },
	})
	expect(updated.status, JSON.stringify(updated.body)).toBe(200)
	const saved = updated.body as TestForm
	return { token: account.token, form: saved, files: fieldOf(saved, 'Attachments'), name: fieldOf(saved, 'Name') }
}

async function rowsOf(token: string, form: TestForm) {
	const response = await t.request('GET', `/dashboard/local/databases/${form.databaseId}/rows?limit=100`, { token })
	return response.body.rows as { id: string; title: string; values: Record<string, unknown> }[]
}

async function waitFor<T>(read: () => Promise<T>, isDone: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
	const deadline = Date.now() + timeoutMs
	let value = await read()
	while (!isDone(value) && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 100))
		value = await read()
	}
	return value
}

describe('file-upload fields', () => {
	test('a visitor uploads two files; they land in the row and download as sent', async () => {
		const { token, form, files, name } = await formWithFiles({ maxFiles: 2, maxFileBytes: 1024 * 1024, accept: [] })
		const first = await uploadFile(t, form.id, files.id, pdf)
		const second = await uploadFile(t, form.id, files.id, png)
		const sent = await submitAnswers(t, form, { [name.id]: 'With files', [files.id]: [first, second] })
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)

		const rows = await waitFor(
			() => rowsOf(token, form),
			(list) => list.some((row) => row.title === 'With files'),
		)
		const row = rows.find((candidate) => candidate.title === 'With files')
		expect(row?.values[files.propertyId]).toEqual([
			{ name: 'brief.pdf', url: null, blobId: first.blobId },
			{ name: 'logo.png', url: null, blobId: second.blobId },
		])
		// A member of the organization downloads it through the usual signed link.
		const blob = await t.request('GET', `/dashboard/active_storage/blobs/${first.blobId}`, { token })
		expect(blob.status).toBe(200)
		const download = await t.request('GET', localPath(blob.body.url))
		expect(download.status).toBe(200)
		expect(download.body).toBe('%PDF-1.7 a short brief')

		// The submission keeps the files by name, for the submissions screen and the CSV.
		const list = await t.request('GET', `/dashboard/forms/${form.id}/submissions`, { token })
		expect(list.body.submissions[0].answers[files.id]).toEqual([
			{ name: 'brief.pdf', url: null, blobId: first.blobId },
			{ name: 'logo.png', url: null, blobId: second.blobId },
		])
	})

	test("the field's size and type limits refuse a file before it is uploaded", async () => {
		const { form, files, name } = await formWithFiles({ maxFiles: 1, maxFileBytes: 2048, accept: ['.pdf', 'image/*'] })
		const tooLarge = await announceFile(t, form.id, files.id, pdf, { byteSize: 4096 })
		expect(tooLarge.status).toBe(413)
		expect(tooLarge.body.detail).toBe('"Attachments" takes files of up to 2 KB.')
		const wrongType = await announceFile(t, form.id, files.id, {
			name: 'notes.txt',
			type: 'text/plain',
			bytes: new TextEncoder().encode('hi'),
		})
		expect(wrongType.status).toBe(415)
		expect(wrongType.body.detail).toMatch(/\.pdf, image\/\*/)
		// An image by its type, a PDF by its extension.
		expect((await announceFile(t, form.id, files.id, png)).status).toBe(201)
		expect((await announceFile(t, form.id, files.id, { ...pdf, type: 'application/octet-stream' })).status).toBe(415)
		// Not a file field, or no such field.
		const notFiles = await announceFile(t, form.id, name.id, pdf)
		expect(notFiles.status).toBe(400)
		expect(notFiles.body.errors[0].field).toBe('fieldId')
		expect((await announceFile(t, form.id, 'no-such-field', pdf)).status).toBe(400)
		// Types the server never stores stay refused, whatever a field accepts.
		const { form: anyForm, files: anyFiles } = await formWithFiles(null)
		const executable = await announceFile(t, anyForm.id, anyFiles.id, {
			name: 'setup.exe',
			type: 'application/x-msdownload',
			bytes: new Uint8Array([77, 90]),
		})
		expect(executable.status).toBe(415)
	})

	test('an answer with more files than the field takes, or files it does not own, is refused naming the field', async () => {
		const { token, form, files, name } = await formWithFiles({ maxFiles: 1, maxFileBytes: 1024 * 1024, accept: [] })
		const first = await uploadFile(t, form.id, files.id, pdf)
		const second = await uploadFile(t, form.id, files.id, png)
		const tooMany = await submitAnswers(t, form, { [name.id]: 'Two', [files.id]: [first, second] })
		expect(tooMany.status).toBe(400)
		expect(tooMany.body.errors).toEqual([
			{ field: `answers.${files.id}`, message: '"Attachments" takes at most 1 file.' },
		])

		// A link instead of an upload, an unknown blob, a blob announced but never uploaded.
		for (const wrong of [
			[{ name: 'x.pdf', url: 'https://example.com/x.pdf' }],
			[{ blobId: 'nonexistent', name: 'x.pdf' }],
			'brief.pdf',
		]) {
			const refused = await submitAnswers(t, form, { [name.id]: 'Wrong', [files.id]: wrong })
			expect(refused.status, JSON.stringify(wrong)).toBe(400)
			expect(refused.body.errors[0].field).toBe(`answers.${files.id}`)
		}
		const pending = await announceFile(t, form.id, files.id, pdf)
		const notUploaded = await submitAnswers(t, form, {
			[name.id]: 'Pending',
			[files.id]: [{ blobId: pending.body.id, name: 'brief.pdf' }],
		})
		expect(notUploaded.status).toBe(400)
		expect(notUploaded.body.errors[0].message).toBe('A file of "Attachments" was not uploaded. Add it again.')

		// A file uploaded to another form (of another organization) cannot be attached here.
		const other = await formWithFiles(null)
		const foreign = await uploadFile(t, other.form.id, other.files.id, pdf)
		const stolen = await submitAnswers(t, form, { [name.id]: 'Foreign', [files.id]: [foreign] })
		expect(stolen.status).toBe(400)

		// Nothing was stored for any of them.
		const list = await t.request('GET', `/dashboard/forms/${form.id}/submissions`, { token })
		expect(list.body.total).toBe(0)
	})

	test('a file goes with one answer only; a retry of that answer still counts once', async () => {
		const { token, form, files, name } = await formWithFiles(null)
		const file = await uploadFile(t, form.id, files.id, pdf)
		const answers = { [name.id]: 'Once', [files.id]: [file] }
		const first = await submitAnswers(t, form, answers, { key: 'retry-key-0001' })
		expect(first.status).toBe(201)
		const retried = await submitAnswers(t, form, answers, { key: 'retry-key-0001' })
		expect(retried.status).toBe(200)
		expect(retried.body).toMatchObject({ id: first.body.id, duplicate: true })
		const reused = await submitAnswers(t, form, { [name.id]: 'Again', [files.id]: [file] })
		expect(reused.status).toBe(400)
		expect(reused.body.errors[0].message).toBe(
			'A file of "Attachments" was already sent with another answer. Add it again.',
		)
		const list = await t.request('GET', `/dashboard/forms/${form.id}/submissions`, { token })
		expect(list.body.total).toBe(1)
	})

	test('limits narrowed after an upload apply when the answer arrives', async () => {
		const { token, form, files, name } = await formWithFiles({ maxFiles: 1, maxFileBytes: 1024 * 1024, accept: [] })
		const file = await uploadFile(t, form.id, files.id, pdf)
		const fields = form.fields.map((field) =>
			field.id === files.id
				? { ...field, fileRules: { maxFiles: 1, maxFileBytes: 1024 * 1024, accept: ['image/*'] } }
				: field,
		)
		expect((await t.request('PATCH', `/dashboard/forms/${form.id}`, { token, json: { fields } })).status).toBe(200)
		const refused = await submitAnswers(t, form, { [name.id]: 'Late', [files.id]: [file] })
		expect(refused.status).toBe(400)
		expect(refused.body.errors[0].message).toBe('"Attachments" does not take files like "brief.pdf".')
	})

	test('a required file field demands a file; a hidden one takes no uploads', async () => {
		const account = await t.signUp()
		const { form } = await publishedEnquiryForm(t, account.token)
		const files = fieldOf(form, 'Attachments')
		const name = fieldOf(form, 'Name')
		const required = form.fields.map((field) => (field.id === files.id ? { ...field, required: true } : field))
		await t.request('PATCH', `/dashboard/forms/${form.id}`, { token: account.token, json: { fields: required } })
		const missing = await submitAnswers(t, form, { [name.id]: 'No file' })
		expect(missing.status).toBe(400)
		expect(missing.body.errors).toEqual([{ field: `answers.${files.id}`, message: '"Attachments" is required.' }])

		const hidden = form.fields.map((field) => (field.id === files.id ? { ...field, hidden: true } : field))
		await t.request('PATCH', `/dashboard/forms/${form.id}`, { token: account.token, json: { fields: hidden } })
		expect((await announceFile(t, form.id, files.id, pdf)).status).toBe(400)
	})

	test('unpublished, closed and password-protected forms take no uploads without their conditions', async () => {
		const { token, form, files } = await formWithFiles(null, { password: 'open sesame' })
		const locked = await announceFile(t, form.id, files.id, pdf)
		expect(locked.status).toBe(403)
		const unlocked = await t.request('POST', `/api/forms/${form.id}/unlock_form`, { json: { password: 'open sesame' } })
		const withToken = await announceFile(t, form.id, files.id, pdf, { unlockToken: unlocked.body.unlockToken })
		expect(withToken.status).toBe(201)

		await t.request('PATCH', `/dashboard/forms/${form.id}`, { token, json: { acceptingResponses: false } })
		const closed = await announceFile(t, form.id, files.id, pdf, { unlockToken: unlocked.body.unlockToken })
		expect(closed.status).toBe(409)
		await t.request('PATCH', `/dashboard/forms/${form.id}`, { token, json: { published: false } })
		expect((await announceFile(t, form.id, files.id, pdf)).status).toBe(404)
	})

	test('one address announcing too many files is slowed down', async () => {
		const { form, files } = await formWithFiles(null)
		const ip = '192.0.2.77'
		let last = 0
		for (let i = 0; i <= formUploadLimits.perIp.limit; i++) {
			last = (await announceFile(t, form.id, files.id, pdf, { ip })).status
		}
		expect(last).toBe(429)
		expect((await announceFile(t, form.id, files.id, pdf, { ip: '192.0.2.78' })).status).toBe(201)
	})

	test('uploads no answer took are deleted after a day; attached ones stay', async () => {
		const { token, form, files, name } = await formWithFiles({ maxFiles: 2, maxFileBytes: 1024 * 1024, accept: [] })
		const kept = await uploadFile(t, form.id, files.id, pdf)
		const abandoned = await uploadFile(t, form.id, files.id, png)
		expect((await submitAnswers(t, form, { [name.id]: 'Kept', [files.id]: [kept] })).status).toBe(201)

		const tomorrow = new Date(Date.now() + (formUploadLimits.unclaimedHours + 1) * 60 * 60 * 1000)
		expect(await sweepUnclaimedUploads(t.services.forms.deps, tomorrow)).toBeGreaterThanOrEqual(1)
		expect((await t.request('GET', `/dashboard/active_storage/blobs/${abandoned.blobId}`, { token })).status).toBe(404)
		const stays = await t.request('GET', `/dashboard/active_storage/blobs/${kept.blobId}`, { token })
		expect(stays.status).toBe(200)
		expect((await t.request('GET', localPath(stays.body.url))).body).toBe('%PDF-1.7 a short brief')
	})
})
