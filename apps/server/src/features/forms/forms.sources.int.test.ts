import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { labelUsers } from '#src/workspaces/workspaces.sources.ts'

// The workspace's deliveries list names who asked for each write: a form by its name (forms
// registers how, workspaces do not import forms), a table edit by the member's name.

let t: TestApp
beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
	await t?.close()
})

type Write = { source: string; sourceLabel: string | null; kind: string }

test('deliveries name their form (and members their edits), not form:<id> or user:<id>', async () => {
	const owner = await t.signUp({ name: 'Della Delivery' })
	const sample = await t.request('POST', '/dashboard/workspaces/sample', { token: owner.token })
	const workspaceId = sample.body.workspace.id as string
	const databases = await t.request('GET', `/dashboard/local/databases?workspaceId=${workspaceId}`, {
		token: owner.token,
	})
	const enquiriesId = databases.body.find((d: { name: string }) => d.name === 'Enquiries').id as string

	const created = await t.request('POST', '/dashboard/forms', {
		token: owner.token,
		json: { name: 'Contact us', databaseId: enquiriesId },
	})
	const form = created.body as { id: string; fields: { id: string }[] }
	await t.request('PATCH', `/dashboard/forms/${form.id}`, { token: owner.token, json: { published: true } })
	const page = await t.request('GET', `/api/forms/${form.id}`)
	const submitted = await t.request('POST', '/api/submissions', {
		json: {
			formId: form.id,
			answers: { [form.fields[0]?.id ?? '']: 'Named delivery' },
			idempotencyKey: randomUUID(),
			renderToken: page.body.renderToken,
		},
	})
	expect(submitted.status).toBe(201)

	const writes = await t.request('GET', `/dashboard/workspaces/${workspaceId}/writes`, { token: owner.token })
	expect(writes.status).toBe(200)
	const list = writes.body as Write[]
	expect(list.find((write) => write.source === `form:${form.id}`)?.sourceLabel).toBe('Contact us')
	// A table edit of a Notion database is a write by `user:<id>`: named by the member's name, in
	// their organization only.
	const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
	const stranger = await t.signUp({ name: 'Stan Stranger' })
	const users = await labelUsers(t.db, orgId, [owner.userId, stranger.userId])
	expect([...users]).toEqual([[owner.userId, 'Della Delivery']])

	// A deleted form is still named, and said to be deleted.
	await t.request('DELETE', `/dashboard/forms/${form.id}`, { token: owner.token })
	const after = await t.request('GET', `/dashboard/workspaces/${workspaceId}/writes`, { token: owner.token })
	expect((after.body as Write[]).find((write) => write.source === `form:${form.id}`)?.sourceLabel).toBe(
		'Contact us (deleted)',
	)
})
