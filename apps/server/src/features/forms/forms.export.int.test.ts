import { eq } from 'drizzle-orm'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectAbsent, recorded, runContributor } from '#src/test/export-archive.ts'
import { fieldOf, publishedEnquiryForm, submitAnswers, uploadFile } from '#src/test/forms.ts'
import { orgIdOf } from '#src/test/portals-setup.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { createFormsExport } from './forms.public.ts'
import { formSubmissions, forms, formWebhooks } from './forms.schema.ts'

// The forms part of an organization's export: every form (a deleted one too) with its settings,
// every answer as CSV and JSON, the answers' files byte for byte, and no password hash or
// webhook secret anywhere; another organization's forms never in it.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
	await t.close()
})

const pdf = { name: 'brief.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.7 a short brief') }
const png = { name: 'brief.pdf', type: 'image/png', bytes: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255]) }

describe('forms export', () => {
	test('settings, answers and files of every form, without secrets', async () => {
		const account = await t.signUp()
		const orgId = await orgIdOf(t, account.token)
		const { form } = await publishedEnquiryForm(t, account.token, {})
		const rules = { maxFiles: 2, maxFileBytes: 1024 * 1024, accept: [] }
		const fields = form.fields.map((field) => (field.label === 'Attachments' ? { ...field, fileRules: rules } : field))
		const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, { token: account.token, json: { fields } })
		expect(saved.status).toBe(200)
		const name = fieldOf(form, 'Name')
		const files = fieldOf(form, 'Attachments')
		// Two files of one answer with the same name: both are kept, under different names.
		const first = await uploadFile(t, form.id, files.id, pdf)
		const second = await uploadFile(t, form.id, files.id, png)
		const withFiles = await submitAnswers(t, form, { [name.id]: 'With files', [files.id]: [first, second] })
		expect(withFiles.status, JSON.stringify(withFiles.body)).toBe(201)
		const plain = await submitAnswers(t, form, { [name.id]: '=cmd|"/c calc"' })
		expect(plain.status).toBe(201)
		const hooked = await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, {
			token: account.token,
			json: { url: 'https://hooks.example.com/in' },
		})
		expect(hooked.status).toBe(201)
		const locked = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: { password: 'open sesame' },
		})
		expect(locked.status).toBe(200)
		const gone = await t.request('POST', '/dashboard/forms', {
			token: account.token,
			json: { name: 'Old form', databaseId: form.databaseId },
		})
		expect((await t.request('DELETE', `/dashboard/forms/${gone.body.id}`, { token: account.token })).status).toBe(200)
		// Another organization's form and answer.
		const other = await t.signUp()
		const { form: otherForm } = await publishedEnquiryForm(t, other.token)
		await submitAnswers(t, otherForm, { [fieldOf(otherForm, 'Name').id]: 'Not theirs' })

		const archive = await runContributor(t, createFormsExport(t.services.forms.deps), orgId)

		expect(recorded(archive, 'forms')).toEqual([form.id, gone.body.id].sort())
		expect(recorded(archive, 'submissions')).toEqual([withFiles.body.id, plain.body.id].sort())
		expect(recorded(archive, 'files')).toEqual([first.blobId, second.blobId].sort())

		const folder = `forms/${form.id}`
		const settings = archive.json(`${folder}/form.json`) as Record<string, unknown>
		expect(settings).toMatchObject({ id: form.id, name: 'Contact', isDeleted: false, hasPassword: true })
		expect(settings.fields).toEqual((await t.db.select().from(forms).where(eq(forms.id, form.id)))[0]?.fields)
		expect(settings).not.toHaveProperty('passwordHash')
		expect(settings.webhooks).toEqual([expect.objectContaining({ url: 'https://hooks.example.com/in', enabled: true })])
		expect(archive.json(`forms/${gone.body.id}/form.json`)).toMatchObject({ name: 'Old form', isDeleted: true })

		// The CSV: a row per answer, formulas defused, the answer's files by name.
		const csv = Papa.parse<string[]>(archive.text(`${folder}/submissions.csv`).replace(/^\uFEFF/, '')).data.filter(
			(row) => row.length > 1,
		)
		const header = csv[0] as string[]
		expect(header.slice(0, 3)).toEqual(['Submission', 'Submitted at', 'Name'])
		const byId = new Map(csv.slice(1).map((row) => [row[0], row]))
		expect(byId.size).toBe(2)
		expect(byId.get(plain.body.id)?.[header.indexOf('Name')]).toBe('\'=cmd|"/c calc"')
		expect(byId.get(withFiles.body.id)?.[header.indexOf('Attachments')]).toContain('brief.pdf')

		// The JSON: every answer as stored.
		const stored = await t.db.select().from(formSubmissions).where(eq(formSubmissions.formId, form.id))
		const json = archive.json(`${folder}/submissions.json`) as { id: string; answers: unknown }[]
		expect(json.map((entry) => entry.id).sort()).toEqual(stored.map((row) => row.id).sort())
		for (const row of stored) {
			expect(json.find((entry) => entry.id === row.id)?.answers).toEqual(row.answers)
		}

		// The files, byte for byte, under the answer's id.
		const fileDir = `${folder}/files/${withFiles.body.id}`
		expect(Buffer.from(archive.files.get(`${fileDir}/brief.pdf`) ?? [])).toEqual(Buffer.from(pdf.bytes))
		expect(Buffer.from(archive.files.get(`${fileDir}/brief-${second.blobId}.pdf`) ?? [])).toEqual(
			Buffer.from(png.bytes),
		)
		expect(archive.json(`${folder}/analytics.json`)).toHaveProperty('steps')

		// No secret anywhere: the password's hash, the webhook's sealed secret.
		const [row] = await t.db.select().from(forms).where(eq(forms.id, form.id))
		expectAbsent(archive, row?.passwordHash as string)
		const [webhook] = await t.db.select().from(formWebhooks).where(eq(formWebhooks.formId, form.id))
		expectAbsent(archive, webhook?.secret as string)
		expectAbsent(archive, hooked.body.secret)
		// Nothing of the other organization.
		expectAbsent(archive, otherForm.id)
		expect(archive.everything()).not.toContain('Not theirs')
	})
})
