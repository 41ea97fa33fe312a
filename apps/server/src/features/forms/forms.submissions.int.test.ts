import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import {
	fieldOf,
	localPath,
	publishedEnquiryForm,
	submitAnswers,
	type TestField,
	type TestForm,
	uploadFile,
} from '#src/test/forms.ts'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import { formSubmissions } from './forms.schema.ts'

// Submissions one can work with (issue 19): searched and filtered in SQL, opened in full (files,
// every delivery attempt, webhook deliveries), and deleted with their files, the row staying
// unless asked. On a built-in database and on the fake Notion, for failures and slow deliveries.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>

beforeAll(async () => {
	fake = await createFakeNotion()
	fake.seed()
	t = await createTestApp({
		LOG_LEVEL: 'error',
		NOTION_API_BASE_URL: fake.url,
		NOTION_REQUESTS_PER_SECOND: '40',
		WRITE_RETRY_DELAY_SECONDS: '1',
		WRITE_MAX_ATTEMPTS: '5',
		FORM_MIN_FILL_SECONDS: '0',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Submission = {
	id: string
	answers: Record<string, unknown>
	delivery: { state: string; rowId: string | null; rowUrl: string | null }
}

async function list(token: string, formId: string, query: Record<string, string> = {}) {
	const search = new URLSearchParams(query)
	return t.request('GET', `/dashboard/forms/${formId}/submissions?${search}`, { token })
}

async function delivered(token: string, formId: string, count: number): Promise<Submission[]> {
	const page = await until(
		'the deliveries',
		() => list(token, formId),
		(r) =>
			r.body.submissions?.length === count &&
			r.body.submissions.every((s: Submission) => s.delivery.state === 'delivered'),
		20_000,
	)
	return page.body.submissions
}

async function rowsOf(token: string, form: TestForm) {
	const response = await t.request('GET', `/dashboard/local/databases/${form.databaseId}/rows?limit=100`, { token })
	return response.body.rows as { id: string; title: string; values: Record<string, unknown> }[]
}

/** A published Enquiries form with three answers, all delivered into the built-in database. */
async function formWithAnswers() {
	const account = await t.signUp()
	const { form } = await publishedEnquiryForm(t, account.token)
	const [name, message, budget, service, interests, email] = [
		'Name',
		'Message',
		'Budget',
		'Service',
		'Interests',
		'Email',
	].map((label) => fieldOf(form, label)) as [TestField, TestField, TestField, TestField, TestField, TestField]
	const answers = [
		{
			[name.id]: 'Ada Lovelace',
			[message.id]: 'We need a new WEBSITE by spring',
			[budget.id]: 1200,
			[service.id]: 'Design',
			[interests.id]: ['Website', 'SEO'],
			[email.id]: 'ada@analytical.example',
		},
		{
			[name.id]: 'Grace Hopper',
			[message.id]: 'Compilers, mostly',
			[budget.id]: 800.5,
			[service.id]: 'Development',
			[interests.id]: ['Branding'],
			[email.id]: 'grace@navy.example',
		},
		{
			[name.id]: 'Alan Turing',
			[message.id]: 'A question about 100% of it_all',
			[service.id]: 'Consulting',
			[email.id]: 'alan@bletchley.example',
		},
	]
	for (const answer of answers) {
		const sent = await submitAnswers(t, form, answer)
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)
	}
	const submissions = await delivered(account.token, form.id, 3)
	return { token: account.token, form, submissions, fields: { name, message, budget, service, interests, email } }
}

const names = (response: { body: { submissions: Submission[] } }, nameId: string) =>
	response.body.submissions.map((s) => s.answers[nameId]).sort()

describe('search and filters', () => {
	test('q finds an answer by the text of any field, case-insensitive, and never by field ids or keys', async () => {
		const { token, form, fields } = await formWithAnswers()
		expect(names(await list(token, form.id, { q: 'website' }), fields.name.id)).toEqual(['Ada Lovelace'])
		expect(names(await list(token, form.id, { q: 'NAVY.example' }), fields.name.id)).toEqual(['Grace Hopper'])
		// Inside a multi-select's list, and a number's digits.
		expect(names(await list(token, form.id, { q: 'brand' }), fields.name.id)).toEqual(['Grace Hopper'])
		expect(names(await list(token, form.id, { q: '800.5' }), fields.name.id)).toEqual(['Grace Hopper'])
		// % and _ are the text's own, not wildcards.
		expect(names(await list(token, form.id, { q: '100% of it_' }), fields.name.id)).toEqual(['Alan Turing'])
		expect((await list(token, form.id, { q: '1_0' })).body.total).toBe(0)
		// A field's id is in every answer's JSON, never in its values.
		const byId = await list(token, form.id, { q: fields.message.id.slice(0, 12) })
		expect(byId.status).toBe(200)
		expect(byId.body.total).toBe(0)
		const page = await list(token, form.id, { q: 'a', limit: '2' })
		expect(page.body.submissions).toHaveLength(2)
		expect(page.body.total).toBe(3)
		expect(page.body.counts).toEqual({ delivered: 3 })
	})

	test('field and value: a choice among a list, a number equal, text within text; CSV honours them', async () => {
		const { token, form, fields } = await formWithAnswers()
		const filter = (field: { id: string }, value: string) => list(token, form.id, { field: field.id, value })
		expect(names(await filter(fields.interests, 'seo'), fields.name.id)).toEqual(['Ada Lovelace'])
		expect((await filter(fields.interests, 'Web')).body.total).toBe(0)
		expect(names(await filter(fields.service, 'development'), fields.name.id)).toEqual(['Grace Hopper'])
		expect(names(await filter(fields.budget, '800.50'), fields.name.id)).toEqual(['Grace Hopper'])
		expect((await filter(fields.budget, '800')).body.total).toBe(0)
		expect(names(await filter(fields.message, 'SPRING'), fields.name.id)).toEqual(['Ada Lovelace'])
		// Both at once: a search within a filter.
		const both = await list(token, form.id, { field: fields.service.id, value: 'Design', q: 'grace' })
		expect(both.body.total).toBe(0)

		const csv = await t.request(
			'GET',
			`/dashboard/forms/${form.id}/submissions/export.csv?${new URLSearchParams({ field: fields.interests.id, value: 'Branding' })}`,
			{ token },
		)
		expect(csv.status).toBe(200)
		const lines = String(csv.body).trim().split('\r\n')
		expect(lines).toHaveLength(2)
		expect(lines[1]).toContain('Grace Hopper')
		const searched = await t.request('GET', `/dashboard/forms/${form.id}/submissions/export.csv?q=turing`, { token })
		expect(String(searched.body)).toContain('Alan Turing')
		expect(String(searched.body)).not.toContain('Ada Lovelace')
	})

	test('a field not in the form, a half filter or a value of the wrong kind is a 400 naming it', async () => {
		const { token, form, fields } = await formWithAnswers()
		const unknown = await list(token, form.id, { field: 'no-such-field', value: 'x' })
		expect(unknown.status).toBe(400)
		expect(unknown.body.errors).toEqual([{ field: 'field', message: expect.any(String) }])
		const noValue = await list(token, form.id, { field: fields.name.id })
		expect(noValue.status).toBe(400)
		expect(noValue.body.errors[0].field).toBe('value')
		const noField = await list(token, form.id, { value: 'x' })
		expect(noField.body.errors[0].field).toBe('field')
		const notNumber = await list(token, form.id, { field: fields.budget.id, value: 'lots' })
		expect(notNumber.status).toBe(400)
		expect(notNumber.body.errors[0].field).toBe('value')
		const tooLong = await list(token, form.id, { q: 'x'.repeat(201) })
		expect(tooLong.status).toBe(400)
		expect(tooLong.body.errors[0].field).toBe('q')
		const csv = await t.request('GET', `/dashboard/forms/${form.id}/submissions/export.csv?field=nope&value=1`, {
			token,
		})
		expect(csv.status).toBe(400)
	})
})

describe('one answer in full, and deleting it', () => {
	const pdf = { name: 'brief.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.7 a brief') }

	async function answerWithFile() {
		const account = await t.signUp()
		const { form } = await publishedEnquiryForm(t, account.token)
		const name = fieldOf(form, 'Name')
		const attachments = fieldOf(form, 'Attachments')
		const file = await uploadFile(t, form.id, attachments.id, pdf)
		const sent = await submitAnswers(t, form, { [name.id]: 'Filed Ltd', [attachments.id]: [file] })
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)
		const [submission] = await delivered(account.token, form.id, 1)
		return { token: account.token, form, file, submission: submission as Submission, attachments }
	}

	const detailPath = (formId: string, submissionId: string) => `/dashboard/forms/${formId}/submissions/${submissionId}`

	test('the detail has the answers, the file with a working link, and the delivery attempt', async () => {
		const { token, form, file, submission, attachments } = await answerWithFile()
		const detail = await t.request('GET', detailPath(form.id, submission.id), { token })
		expect(detail.status, JSON.stringify(detail.body)).toBe(200)
		expect(detail.body.delivery.state).toBe('delivered')
		expect(detail.body.delivery.rowUrl).toBe(`/workspaces/${form.workspaceId}/databases/${form.databaseId}`)
		expect(detail.body.attempts).toEqual([{ at: expect.any(String), ms: expect.any(Number), error: null }])
		expect(detail.body.files).toEqual([
			{
				fieldId: attachments.id,
				name: 'brief.pdf',
				contentType: 'application/pdf',
				byteSize: 16,
				url: expect.any(String),
			},
		])
		const download = await t.request('GET', localPath(detail.body.files[0].url))
		expect(download.status).toBe(200)
		expect(download.body).toBe('%PDF-1.7 a brief')
		expect(file.blobId).toBeTruthy()
		expect(detail.body.webhooks).toEqual([])
	})

	test('deleting keeps the built-in row, and the file the row shows; the answer is gone', async () => {
		const { token, form, file, submission } = await answerWithFile()
		const deleted = await t.request('DELETE', detailPath(form.id, submission.id), { token })
		expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
		expect((await t.request('GET', detailPath(form.id, submission.id), { token })).status).toBe(404)
		expect((await list(token, form.id)).body.total).toBe(0)
		const rows = await rowsOf(token, form)
		expect(rows.map((row) => row.title)).toContain('Filed Ltd')
		// The built-in row opens its file from here: it stays with the row.
		const [blob] = await t.db.select().from(blobs).where(eq(blobs.id, file.blobId))
		expect(blob).toBeDefined()
		expect(await t.services.storage.get(blob?.key ?? '')).not.toBeNull()
		// Deleting it again: nothing there.
		expect((await t.request('DELETE', detailPath(form.id, submission.id), { token })).status).toBe(404)
	})

	test('deleteRow=true queues the row delete, and the files go from the store', async () => {
		const { token, form, file, submission } = await answerWithFile()
		const [before] = await t.db.select().from(blobs).where(eq(blobs.id, file.blobId))
		const deleted = await t.request('DELETE', `${detailPath(form.id, submission.id)}?deleteRow=true`, { token })
		expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
		expect(await t.db.select().from(blobs).where(eq(blobs.id, file.blobId))).toEqual([])
		expect(await t.services.storage.get(before?.key ?? '')).toBeNull()
		await until(
			'the row deleted',
			() => rowsOf(token, form),
			(rows) => !rows.some((row) => row.title === 'Filed Ltd'),
			20_000,
		)
		const removals = await t.db.select().from(workspaceWrites).where(eq(workspaceWrites.kind, 'delete'))
		const removal = removals.find((write) => write.source === `form:${form.id}`)
		expect(removal?.state).toBe('delivered')
		expect(removal?.afterWriteId).not.toBeNull()
	})

	test('a file kept with the answer only (no property) goes from the store; the row stays', async () => {
		const account = await t.signUp()
		const { form } = await publishedEnquiryForm(t, account.token)
		const extra = { id: randomUUID(), propertyId: null, kind: 'files', label: 'Extra document', required: false }
		const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: { fields: [...form.fields, extra] },
		})
		expect(saved.status, JSON.stringify(saved.body)).toBe(200)
		const file = await uploadFile(t, form.id, extra.id, pdf)
		const sent = await submitAnswers(t, form, { [fieldOf(form, 'Name').id]: 'Unbound Ltd', [extra.id]: [file] })
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)
		const [submission] = await delivered(account.token, form.id, 1)
		const path = detailPath(form.id, submission?.id ?? '')
		const detail = await t.request('GET', path, { token: account.token })
		expect(detail.body.files).toEqual([expect.objectContaining({ fieldId: extra.id, name: 'brief.pdf' })])
		const [blob] = await t.db.select().from(blobs).where(eq(blobs.id, file.blobId))
		expect(await t.services.storage.get(blob?.key ?? '')).not.toBeNull()

		expect((await t.request('DELETE', path, { token: account.token })).status).toBe(200)
		expect(await t.db.select().from(blobs).where(eq(blobs.id, file.blobId))).toEqual([])
		expect(await t.services.storage.get(blob?.key ?? '')).toBeNull()
		expect((await rowsOf(account.token, form)).map((row) => row.title)).toContain('Unbound Ltd')
	})

	test('bad parameters are 400s; a spam answer has no row to delete (409)', async () => {
		const { token, form, submission } = await answerWithFile()
		const bad = await t.request('DELETE', `${detailPath(form.id, submission.id)}?deleteRow=maybe`, { token })
		expect(bad.status).toBe(400)
		expect(bad.body.errors[0].field).toBe('deleteRow')
		const tooLong = await t.request('GET', detailPath(form.id, 'x'.repeat(65)), { token })
		expect(tooLong.status).toBe(400)

		const page = await t.request('GET', `/api/forms/${form.id}`)
		const spam = await t.request('POST', '/api/submissions', {
			json: {
				formId: form.id,
				answers: { [fieldOf(form, 'Name').id]: 'Bot' },
				idempotencyKey: randomUUID(),
				renderToken: page.body.renderToken,
				website: 'https://spam.example',
			},
		})
		expect(spam.status).toBe(201)
		const refused = await t.request('DELETE', `${detailPath(form.id, spam.body.id)}?deleteRow=true`, { token })
		expect(refused.status).toBe(409)
		expect(refused.body.detail).toMatch(/no row/)
		expect((await t.request('DELETE', detailPath(form.id, spam.body.id), { token })).status).toBe(200)
	})

	test('another organization’s submission reads as 404, to open and to delete', async () => {
		const { form, submission } = await answerWithFile()
		const stranger = await t.signUp()
		expect((await t.request('GET', detailPath(form.id, submission.id), { token: stranger.token })).status).toBe(404)
		const refused = await t.request('DELETE', `${detailPath(form.id, submission.id)}?deleteRow=true`, {
			token: stranger.token,
		})
		expect(refused.status).toBe(404)
		// Its own form with another organization's submission id: 404 too.
		const own = await publishedEnquiryForm(t, stranger.token)
		expect((await t.request('GET', detailPath(own.form.id, submission.id), { token: stranger.token })).status).toBe(404)
	})

	test('members open and delete answers as the other submission routes allow; webhook URLs are for owners and admins', async () => {
		const team = await teamWithEveryRole(t)
		const { form } = await publishedEnquiryForm(t, team.owner.token)
		const hook = await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, {
			token: team.owner.token,
			json: { url: 'http://127.0.0.1:9/hook' },
		})
		expect(hook.status).toBe(201)
		const sent = await submitAnswers(t, form, { [fieldOf(form, 'Name').id]: 'Hooked' })
		const path = detailPath(form.id, sent.body.id)
		const forOwner = await until(
			'the webhook attempt',
			() => t.request('GET', path, { token: team.owner.token }),
			(r) => r.body.webhooks?.[0]?.attempts.length > 0,
			20_000,
		)
		expect(forOwner.body.webhooks[0]).toMatchObject({ url: 'http://127.0.0.1:9/hook', state: expect.any(String) })
		const forMember = await t.request('GET', path, { token: team.member.token })
		expect(forMember.status).toBe(200)
		expect(forMember.body.webhooks).toEqual([])
		const deleted = await t.request('DELETE', path, { token: team.member.token })
		expect(deleted.status).toBe(200)
		const deliveries = await t.request('GET', `/dashboard/forms/${form.id}/webhooks/${hook.body.id}/deliveries`, {
			token: team.owner.token,
		})
		expect(deliveries.body).toEqual([])
	})
})

describe('on Notion', () => {
	async function notionForm() {
		const account = await t.signUp()
		const connected = await t.request('POST', '/dashboard/workspaces', {
			token: account.token,
			json: { tool: 'notion', method: 'token', token: fake.token },
		})
		const workspaceId = connected.body.workspace.id as string
		const databases = await until(
			'the first sync',
			() => t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token: account.token }),
			(r) => r.body.length >= 4 && r.body.every((d: { sync: { lastSyncedAt: string | null } }) => d.sync.lastSyncedAt),
		)
		const clients = databases.body.find((d: { name: string }) => d.name === 'Clients')
		const created = await t.request('POST', '/dashboard/forms', {
			token: account.token,
			json: { name: 'New client', databaseId: clients.id },
		})
		await t.request('PATCH', `/dashboard/forms/${created.body.id}`, { token: account.token, json: { published: true } })
		return { token: account.token, form: created.body as TestForm }
	}

	async function submitDuringOutage(form: TestForm, token: string, title: string) {
		fake.setOutage(true)
		try {
			const sent = await submitAnswers(t, form, { [form.fields[0]?.id ?? '']: title })
			expect(sent.status).toBe(201)
			await until(
				'a failed attempt',
				() => t.request('GET', `/dashboard/forms/${form.id}/submissions/${sent.body.id}`, { token }),
				(r) => r.body.delivery?.state === 'failed',
				20_000,
			)
			return sent.body.id as string
		} catch (error) {
			fake.setOutage(false)
			throw error
		}
	}

	test('a failed-then-delivered write shows each attempt, the failure with its error', async () => {
		const { token, form } = await notionForm()
		const id = await submitDuringOutage(form, token, 'Attempts Ltd')
		fake.setOutage(false)
		const detail = await until(
			'the delivery',
			() => t.request('GET', `/dashboard/forms/${form.id}/submissions/${id}`, { token }),
			(r) => r.body.delivery?.state === 'delivered',
			20_000,
		)
		const attempts = detail.body.attempts as { at: string; ms: number; error: string | null }[]
		expect(attempts.length).toBeGreaterThanOrEqual(2)
		expect(attempts[0]?.error).toMatch(/not answering/)
		expect(attempts.at(-1)?.error).toBeNull()
		expect(attempts.every((attempt) => typeof attempt.ms === 'number' && attempt.ms >= 0)).toBe(true)
		expect([...attempts].map((a) => a.at).sort()).toEqual(attempts.map((a) => a.at))
		expect(detail.body.delivery.rowUrl).toMatch(/^https?:\/\//)
	})

	test('the attempt log keeps the last 20 attempts, the oldest dropped first', async () => {
		const { token, form } = await notionForm()
		const id = await submitDuringOutage(form, token, 'Many tries Ltd')
		try {
			const [submission] = await t.db.select().from(formSubmissions).where(eq(formSubmissions.id, id))
			const writeId = submission?.writeId ?? ''
			const old = Array.from({ length: 20 }, (_, index) => ({
				at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
				ms: 1,
				error: `old-${index}`,
			}))
			await t.db.update(workspaceWrites).set({ attemptLog: old }).where(eq(workspaceWrites.id, writeId))
			const write = await until(
				'another attempt',
				async () => (await t.db.select().from(workspaceWrites).where(eq(workspaceWrites.id, writeId)))[0],
				(record) => !record?.attemptLog.at(-1)?.error?.startsWith('old-'),
				20_000,
			)
			expect(write?.attemptLog).toHaveLength(20)
			expect(write?.attemptLog[0]?.error).toBe('old-1')
			expect(write?.attemptLog.at(-1)?.error).toMatch(/not answering/)
		} finally {
			fake.setOutage(false)
		}
	})

	test('a delivered Notion row has its own copy of a file: deleting the answer removes ours, the page stays', async () => {
		const { token, form } = await notionForm()
		const logo = form.fields.find((field) => field.label === 'Logo') as TestForm['fields'][number]
		const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 7, 7])
		const file = await uploadFile(t, form.id, logo.id, { name: 'mark.png', type: 'image/png', bytes })
		const sent = await submitAnswers(t, form, { [form.fields[0]?.id ?? '']: 'Logo Ltd', [logo.id]: [file] })
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)
		const path = `/dashboard/forms/${form.id}/submissions/${sent.body.id}`
		await until(
			'the delivery',
			() => t.request('GET', path, { token }),
			(r) => r.body.delivery?.state === 'delivered' && r.body.delivery.rowUrl !== null,
			20_000,
		)
		const [blob] = await t.db.select().from(blobs).where(eq(blobs.id, file.blobId))
		expect((await t.request('DELETE', path, { token })).status).toBe(200)
		expect(await t.services.storage.get(blob?.key ?? '')).toBeNull()
		const [create] = await t.db
			.select()
			.from(workspaceWrites)
			.where(eq(workspaceWrites.source, `form:${form.id}`))
		const page = await fetch(`${fake.url}/v1/pages/${create?.externalRowId}`, {
			headers: { authorization: `Bearer ${fake.token}`, 'notion-version': '2025-09-03' },
		})
		expect(page.status).toBe(200)
		expect(((await page.json()) as { in_trash: boolean }).in_trash).toBe(false)
	})

	test('deleteRow while the create is still failing: the delete follows it, and the page ends in the trash', async () => {
		const { token, form } = await notionForm()
		const id = await submitDuringOutage(form, token, 'Short-lived Ltd')
		const deleted = await t.request('DELETE', `/dashboard/forms/${form.id}/submissions/${id}?deleteRow=true`, {
			token,
		})
		fake.setOutage(false)
		expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
		const removal = await until(
			'the row delete',
			async () => {
				const writes = await t.db.select().from(workspaceWrites).where(eq(workspaceWrites.kind, 'delete'))
				return writes.find((write) => write.afterWriteId !== null && write.source === `form:${form.id}`)
			},
			(write) => write?.state === 'delivered',
			30_000,
		)
		const [create] = await t.db
			.select()
			.from(workspaceWrites)
			.where(eq(workspaceWrites.id, removal?.afterWriteId ?? ''))
		expect(create?.state).toBe('delivered')
		expect(removal?.externalRowId).toBe(create?.externalRowId)
		// Read as any Notion client would.
		const page = await fetch(`${fake.url}/v1/pages/${create?.externalRowId}`, {
			headers: { authorization: `Bearer ${fake.token}`, 'notion-version': '2025-09-03' },
		})
		expect(((await page.json()) as { in_trash: boolean }).in_trash).toBe(true)
	})
})
