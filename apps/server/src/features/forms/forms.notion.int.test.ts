import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { submitAnswers, uploadFile } from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'

// A form on a Notion database: answers are accepted while Notion is down, show as pending or
// failed, and reach Notion exactly once when it is back (by itself, or by "Retry").

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>
let demo: ReturnType<typeof fake.seed>

beforeAll(async () => {
	fake = await createFakeNotion()
	demo = fake.seed()
	t = await createTestApp({
		LOG_LEVEL: 'error',
		NOTION_API_BASE_URL: fake.url,
		NOTION_REQUESTS_PER_SECOND: '40',
		WRITE_RETRY_DELAY_SECONDS: '1',
		WRITE_MAX_ATTEMPTS: '3',
		FORM_MIN_FILL_SECONDS: '0',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

type Submission = { id: string; delivery: { state: string; error: string | null; rowUrl: string | null } }

/** A published form on the fake's Clients database. */
async function notionForm() {
	const account = await t.signUp()
	const connected = await t.request('POST', '/dashboard/workspaces', {
		token: account.token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	const workspaceId = connected.body.workspace.id as string
	const list = await until(
		'the first sync',
		() => t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token: account.token }),
		(r) => r.body.length >= 4 && r.body.every((d: { sync: { lastSyncedAt: string | null } }) => d.sync.lastSyncedAt),
	)
	const clients = list.body.find((d: { name: string }) => d.name === 'Clients')
	const created = await t.request('POST', '/dashboard/forms', {
		token: account.token,
		json: { name: 'New client', databaseId: clients.id },
	})
	expect(created.status).toBe(201)
	expect(created.body.tool).toBe('notion')
	await t.request('PATCH', `/dashboard/forms/${created.body.id}`, { token: account.token, json: { published: true } })
	return {
		token: account.token,
		form: created.body as { id: string; fields: { id: string; kind: string; label: string }[] },
	}
}

async function submitTitle(form: { id: string; fields: { id: string }[] }, title: string) {
	const page = await t.request('GET', `/api/forms/${form.id}`)
	return t.request('POST', '/api/submissions', {
		json: {
			formId: form.id,
			answers: { [form.fields[0]?.id ?? '']: title },
			idempotencyKey: randomUUID(),
			renderToken: page.body.renderToken,
		},
	})
}

async function submissions(token: string, formId: string): Promise<Submission[]> {
	return (await t.request('GET', `/dashboard/forms/${formId}/submissions`, { token })).body.submissions
}

/** Pages of the fake's Clients database with this title, read as any Notion client would. */
async function pagesWithTitle(title: string): Promise<{ properties: Record<string, unknown> }[]> {
	const response = await fetch(`${fake.url}/v1/data_sources/${demo.dataSources.clients}/query`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${fake.token}`,
			'notion-version': '2025-09-03',
			'content-type': 'application/json',
		},
		body: JSON.stringify({ filter: { property: 'Name', title: { equals: title } }, page_size: 100 }),
	})
	const body = (await response.json()) as { results: { properties: Record<string, unknown> }[] }
	return body.results
}

async function pagesTitled(title: string): Promise<number> {
	return (await pagesWithTitle(title)).length
}

async function pageTitled(title: string) {
	const [page, ...others] = await pagesWithTitle(title)
	expect(others).toHaveLength(0)
	if (!page) {
		throw new Error(`no page ${title}`)
	}
	return page
}

describe('forms on Notion', () => {
	test('an answer sent during an outage is accepted, shows pending, and is delivered once Notion recovers', async () => {
		const { token, form } = await notionForm()
		fake.setOutage(true)
		try {
			const accepted = await submitTitle(form, 'Outage Ltd')
			expect(accepted.status).toBe(201)
			const failing = await until(
				'a failed attempt',
				() => submissions(token, form.id),
				(list) => list[0]?.delivery.state === 'failed',
			)
			expect(failing[0]?.delivery.error, JSON.stringify(failing)).toMatch(/not answering/)
		} finally {
			fake.setOutage(false)
		}
		// The link to the row comes with the mirror's copy of it, just after the delivery.
		const delivered = await until(
			'delivery after recovery',
			() => submissions(token, form.id),
			(list) => list[0]?.delivery.state === 'delivered' && list[0].delivery.rowUrl !== null,
		)
		expect(delivered[0]?.delivery.rowUrl).toMatch(/^https?:\/\//)
		expect(await pagesTitled('Outage Ltd')).toBe(1)
	})

	test('a delivery given up on is delivered by "Retry all failed", once', async () => {
		const { token, form } = await notionForm()
		fake.setOutage(true)
		try {
			expect((await submitTitle(form, 'Given up GmbH')).status).toBe(201)
			await until(
				'the delivery given up',
				() => submissions(token, form.id),
				(l) => l[0]?.delivery.state === 'dead',
			)
		} finally {
			fake.setOutage(false)
		}
		const retried = await t.request('POST', `/dashboard/forms/${form.id}/submissions/retry_failed`, { token })
		expect(retried.body).toEqual({ retried: 1 })
		await until(
			'delivery after retry',
			() => submissions(token, form.id),
			(l) => l[0]?.delivery.state === 'delivered',
		)
		expect(await pagesTitled('Given up GmbH')).toBe(1)
		const again = await t.request(
			'POST',
			`/dashboard/forms/${form.id}/submissions/${(await submissions(token, form.id))[0]?.id}/retry`,
			{
				token,
			},
		)
		expect(again.status).toBe(409)
	})

	test('a file answer reaches Notion through its file-upload API', async () => {
		const { token, form } = await notionForm()
		const logo = form.fields.find((field) => field.label === 'Logo')
		const name = form.fields[0]
		expect(logo?.kind).toBe('files')
		const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 42, 42])
		const file = await uploadFile(t, form.id, logo?.id ?? '', { name: 'mark.png', type: 'image/png', bytes })
		const sent = await submitAnswers(t, form, { [name?.id ?? '']: 'Filed Ltd', [logo?.id ?? '']: [file] })
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)
		await until(
			'the delivery',
			() => submissions(token, form.id),
			(list) => list[0]?.delivery.state === 'delivered',
		)
		const page = await pageTitled('Filed Ltd')
		const files = page.properties.Logo as { files: { name: string; type: string; file?: { url: string } }[] }
		expect(files.files).toHaveLength(1)
		expect(files.files[0]).toMatchObject({ name: 'mark.png', type: 'file' })
		const stored = await fetch(files.files[0]?.file?.url ?? '')
		expect(new Uint8Array(await stored.arrayBuffer())).toEqual(bytes)
	})
})
