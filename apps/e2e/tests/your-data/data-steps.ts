import assert from 'node:assert/strict'
import { createHash, randomUUID } from 'node:crypto'
import type { Locator, Page } from 'playwright-core'
import type { Account, createHttpApi } from '../../http-api.ts'
import { uniqueEmail } from '../../http-api.ts'
import type { Mail } from '../../mail.ts'

// What the "Your data" journeys share (issue 20): the setup they are not about, made through the
// API as another device would (a published form with an answer and its file, a member who
// joined), and reading the export's ZIP. The folder is your-data/, not data/: git ignores data/.

type HttpApi = ReturnType<typeof createHttpApi>
type MailWaiter = (to: string, matches?: (mail: Mail) => boolean) => Promise<Mail>

export const dataTab = '/settings?tab=data'

export function toast(page: Page, text: string | RegExp): Locator {
	return page.locator('[data-sonner-toast]').filter({ hasText: text })
}

/** Reads `read` until `isDone` says so: for what the server's jobs do in their own time. */
export async function until<T>(
	what: string,
	read: () => Promise<T>,
	isDone: (value: T) => boolean,
	timeoutMs = 30_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs
	for (let value = await read(); ; value = await read()) {
		if (isDone(value)) {
			return value
		}
		assert.ok(Date.now() < deadline, `timed out waiting for ${what}`)
		await new Promise((resolve) => setTimeout(resolve, 300))
	}
}

type Form = { id: string; fields: { id: string; label: string }[] }
type Database = { id: string; name: string }

export type SeededForm = {
	form: Form
	database: Database
	submissionId: string
	file: { name: string; bytes: Buffer }
}

/** A published form on the sample workspace's Enquiries database; its fields and that database. */
export async function publishedForm(
	api: HttpApi,
	token: string,
	name: string,
): Promise<{ form: Form; database: Database }> {
	await api.callOk('/dashboard/workspaces/sample', { token, method: 'POST' })
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const database = databases.find((candidate) => candidate.name === 'Enquiries')
	assert.ok(database, 'the sample workspace has no Enquiries database')
	const form = await api.callOk<Form>('/dashboard/forms', { token, json: { name, databaseId: database.id } })
	await api.callOk(`/dashboard/forms/${form.id}`, { token, method: 'PATCH', json: { published: true } })
	return { form, database }
}

/**
 * A published form answered once, with a PDF in its Attachments field, as a visitor's page sends
 * it (announce, PUT, then the answer); waits until the answer is a row of Enquiries.
 */
export async function answeredFormWithFile(api: HttpApi, baseUrl: string, token: string): Promise<SeededForm> {
	const { form, database } = await publishedForm(api, token, 'Briefs')
	const fieldId = (label: string) => {
		const field = form.fields.find((candidate) => candidate.label === label)
		assert.ok(field, `the form has no ${label} field`)
		return field.id
	}
	const file = { name: 'site-plan.pdf', bytes: Buffer.from(`%PDF-1.4\n% a site plan ${randomUUID()}\n`) }
	const announced = await api.callOk<{ id: string; directUpload: { url: string; headers: Record<string, string> } }>(
		`/api/forms/${form.id}/uploads`,
		{
			json: {
				fieldId: fieldId('Attachments'),
				filename: file.name,
				byteSize: file.bytes.byteLength,
				checksum: createHash('md5').update(file.bytes).digest('base64'),
				contentType: 'application/pdf',
			},
		},
	)
	const target = new URL(announced.directUpload.url)
	const put = await fetch(`${baseUrl}${target.pathname}${target.search}`, {
		method: 'PUT',
		headers: announced.directUpload.headers,
		body: new Uint8Array(file.bytes),
	})
	assert.equal(put.status, 200, await put.text())
	const answers = {
		[fieldId('Name')]: 'Ada Export',
		[fieldId('Attachments')]: [{ blobId: announced.id, name: file.name }],
	}
	const page = await api.callOk<{ renderToken: string }>(`/api/forms/${form.id}`)
	const json = { formId: form.id, answers, idempotencyKey: randomUUID(), renderToken: page.renderToken }
	// The server asks for a few seconds of filling in first (422 until then).
	const sent = await until(
		'the answer accepted',
		() => api.call('/api/submissions', { json }),
		(response) => response.status !== 422,
	)
	assert.equal(sent.status, 201, await sent.text())
	const { submissions } = await until(
		'the answer delivered',
		() =>
			api.callOk<{ submissions: { id: string; delivery: { state: string } }[] }>(
				`/dashboard/forms/${form.id}/submissions`,
				{ token },
			),
		(list) => list.submissions.length === 1 && list.submissions[0]?.delivery.state === 'delivered',
	)
	return { form, database, submissionId: submissions[0]?.id ?? '', file }
}

/** Every row id of a built-in database, read in pages. */
export async function rowIdsOf(api: HttpApi, token: string, databaseId: string): Promise<string[]> {
	const ids: string[] = []
	for (let offset = 0; ; offset += 200) {
		const page = await api.callOk<{ rows: { id: string }[]; total: number }>(
			`/dashboard/local/databases/${databaseId}/rows?limit=200&offset=${offset}`,
			{ token },
		)
		ids.push(...page.rows.map((row) => row.id))
		if (ids.length >= page.total || page.rows.length === 0) {
			return ids
		}
	}
}

/** Someone with an account of their own who accepts the owner's invitation with `role`. */
export async function joinedMember(
	api: HttpApi,
	waitForMail: MailWaiter,
	owner: Account,
	name: string,
	role: 'member' | 'admin' = 'member',
): Promise<Account> {
	const member = await api.signUp({ name, email: uniqueEmail('member') })
	const invitation = await api.callOk<{ id: string }>('/dashboard/team_invites', {
		token: owner.token,
		json: { email: member.email, role },
	})
	const mail = await waitForMail(member.email, (candidate) => candidate.subject.includes('invited you'))
	const link = new URL(mail.links.find((href) => href.includes('/invite/')) ?? '')
	await api.callOk(`/dashboard/invitations/${invitation.id}/accept`, {
		token: member.token,
		json: { token: link.searchParams.get('token') },
	})
	return member
}

export type Manifest = {
	format: string
	organization: { id: string; name: string }
	objects: Record<string, string[]>
	files: string[]
}

export function manifestOf(files: Map<string, Buffer>): Manifest {
	const manifest = files.get('manifest.json')
	assert.ok(manifest, `no manifest.json in the archive: ${[...files.keys()].join(', ')}`)
	return JSON.parse(manifest.toString('utf8')) as Manifest
}
