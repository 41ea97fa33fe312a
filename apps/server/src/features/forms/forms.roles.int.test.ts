import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectRefusedByRole, type Team, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Roles on forms: members build and edit; deleting a form and everything about webhooks
// (listing too: they carry signing secrets) is for owners and admins. Another organization's
// form reads as 404 whatever the caller's role, so ids cannot be probed.

let t: TestApp
let team: Team
let enquiriesId = ''

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
	team = await teamWithEveryRole(t)
	const sample = await t.request('POST', '/dashboard/workspaces/sample', { token: team.owner.token })
	expect(sample.status).toBe(201)
	const databases = await t.request('GET', `/dashboard/local/databases?workspaceId=${sample.body.workspace.id}`, {
		token: team.owner.token,
	})
	enquiriesId = databases.body.find((d: { name: string }) => d.name === 'Enquiries').id
})
afterAll(async () => {
	await t?.close()
})

type Form = { id: string; fields: { id: string; label: string }[] }

async function newForm(token: string, name = 'Contact'): Promise<Form> {
	const created = await t.request('POST', '/dashboard/forms', { token, json: { name, databaseId: enquiriesId } })
	expect(created.status).toBe(201)
	return created.body
}

/** A published form with a webhook to a loopback address, which the server refuses to reach: the delivery fails. */
async function formWithFailedDelivery() {
	const form = await newForm(team.owner.token, 'Hooked')
	await t.request('PATCH', `/dashboard/forms/${form.id}`, { token: team.owner.token, json: { published: true } })
	const webhook = await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, {
		token: team.owner.token,
		json: { url: 'http://127.0.0.1:9/hook' },
	})
	expect(webhook.status).toBe(201)
	const page = await t.request('GET', `/api/forms/${form.id}`)
	const submitted = await t.request('POST', '/api/submissions', {
		json: {
			formId: form.id,
			answers: { [form.fields[0]?.id ?? '']: 'Role test' },
			idempotencyKey: randomUUID(),
			renderToken: page.body.renderToken,
		},
	})
	expect(submitted.status).toBe(201)
	const deliveriesPath = `/dashboard/forms/${form.id}/webhooks/${webhook.body.id}/deliveries`
	const delivery = await waitForFailure(deliveriesPath)
	return { form, webhookId: webhook.body.id as string, deliveriesPath, deliveryId: delivery.id }
}

async function waitForFailure(deliveriesPath: string): Promise<{ id: string; state: string }> {
	const deadline = Date.now() + 20_000
	for (;;) {
		const list = await t.request('GET', deliveriesPath, { token: team.owner.token })
		const [delivery] = list.body as { id: string; state: string }[]
		if (delivery?.state === 'failed' || Date.now() > deadline) {
			expect(delivery?.state).toBe('failed')
			return delivery as { id: string; state: string }
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
}

describe('members build and edit', () => {
	test('a member creates, edits, duplicates and publishes forms', async () => {
		const form = await newForm(team.member.token)
		const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: team.member.token,
			json: { name: 'Renamed by a member', published: true },
		})
		expect(saved.status).toBe(200)
		const copy = await t.request('POST', `/dashboard/forms/${form.id}/duplicate`, { token: team.member.token })
		expect(copy.status).toBe(201)
	})
})

describe('deleting a form', () => {
	test('a member is refused with 403 and a clear problem; the form stays', async () => {
		const form = await newForm(team.owner.token)
		expectRefusedByRole(await t.request('DELETE', `/dashboard/forms/${form.id}`, { token: team.member.token }))
		expect((await t.request('GET', `/dashboard/forms/${form.id}`, { token: team.owner.token })).status).toBe(200)
	})

	test.each(['admin', 'owner'] as const)('an %s deletes a form, even one a member made', async (role) => {
		const form = await newForm(team.member.token)
		const deleted = await t.request('DELETE', `/dashboard/forms/${form.id}`, { token: team[role].token })
		expect(deleted.status).toBe(200)
		expect((await t.request('GET', `/dashboard/forms/${form.id}`, { token: team.owner.token })).status).toBe(404)
	})
})

describe('webhooks', () => {
	test('a member can neither list, add, change, remove nor retry webhooks: each is 403, and no secret shows', async () => {
		const { form, webhookId, deliveriesPath, deliveryId } = await formWithFailedDelivery()
		const token = team.member.token
		const base = `/dashboard/forms/${form.id}/webhooks`
		const answers = [
			await t.request('GET', base, { token }),
			await t.request('POST', base, { token, json: { url: 'https://example.com/member' } }),
			await t.request('PATCH', `${base}/${webhookId}`, { token, json: { enabled: false } }),
			await t.request('DELETE', `${base}/${webhookId}`, { token }),
			await t.request('GET', deliveriesPath, { token }),
			await t.request('POST', `${deliveriesPath}/${deliveryId}/retry`, { token }),
		]
		for (const answer of answers) {
			expectRefusedByRole(answer)
			expect(JSON.stringify(answer.body)).not.toContain('whsec_')
		}
		// Nothing changed.
		const list = await t.request('GET', base, { token: team.owner.token })
		expect(list.body).toEqual([expect.objectContaining({ id: webhookId, enabled: true })])
	})

	test.each(['admin', 'owner'] as const)('an %s lists, adds, changes, retries and removes webhooks', async (role) => {
		const { form, webhookId, deliveriesPath, deliveryId } = await formWithFailedDelivery()
		const token = team[role].token
		const base = `/dashboard/forms/${form.id}/webhooks`
		const list = await t.request('GET', base, { token })
		expect(list.status).toBe(200)
		expect(list.body[0].secret).toMatch(/^whsec_/)
		const added = await t.request('POST', base, { token, json: { url: 'https://example.com/hook' } })
		expect(added.status).toBe(201)
		const changed = await t.request('PATCH', `${base}/${added.body.id}`, { token, json: { enabled: false } })
		expect(changed.status).toBe(200)
		expect((await t.request('GET', deliveriesPath, { token })).status).toBe(200)
		const retried = await t.request('POST', `${deliveriesPath}/${deliveryId}/retry`, { token })
		expect(retried.status).toBe(200)
		expect(retried.body.state).toBe('pending')
		expect((await t.request('DELETE', `${base}/${webhookId}`, { token })).status).toBe(200)
		expect((await t.request('DELETE', `${base}/${added.body.id}`, { token })).status).toBe(200)
	})
})

describe('tenancy comes before the role', () => {
	test("another organization's form reads as 404 to a member, never 403", async () => {
		const outsider = await t.signUp()
		const theirs = await t.request('POST', '/dashboard/workspaces/sample', { token: outsider.token })
		const databases = await t.request('GET', `/dashboard/local/databases?workspaceId=${theirs.body.workspace.id}`, {
			token: outsider.token,
		})
		const enquiries = databases.body.find((d: { name: string }) => d.name === 'Enquiries')
		const form = await t.request('POST', '/dashboard/forms', {
			token: outsider.token,
			json: { name: 'Not yours', databaseId: enquiries.id },
		})
		const hook = await t.request('POST', `/dashboard/forms/${form.body.id}/webhooks`, {
			token: outsider.token,
			json: { url: 'https://example.com/theirs' },
		})
		expect(hook.status).toBe(201)
		const token = team.member.token
		const base = `/dashboard/forms/${form.body.id}`
		for (const answer of [
			await t.request('DELETE', base, { token }),
			await t.request('GET', `${base}/webhooks`, { token }),
			await t.request('POST', `${base}/webhooks`, { token, json: { url: 'https://example.com/x' } }),
			await t.request('DELETE', `${base}/webhooks/${hook.body.id}`, { token }),
			await t.request('GET', `${base}/webhooks/${hook.body.id}/deliveries`, { token }),
		]) {
			expect(answer.status).toBe(404)
			expect(answer.body.code).toBe('NOT_FOUND')
		}
		// An id that exists nowhere reads the same.
		expect((await t.request('DELETE', `/dashboard/forms/${randomUUID()}`, { token })).status).toBe(404)
		expect((await t.request('GET', `/dashboard/forms/${randomUUID()}/webhooks`, { token })).status).toBe(404)
	})
})
