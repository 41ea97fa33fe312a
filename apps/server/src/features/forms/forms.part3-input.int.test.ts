import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fieldOf, publishedEnquiryForm } from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Bad input on the routes issue 19 added or widened: a NUL byte, a wrong type or an unknown name
// is a 4xx that names what is wrong, never a 500 (PostgreSQL refuses NUL bytes in text, so one
// that reached a query would come back as a server error).

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
	await t.close()
})

describe('issue 19 routes refuse bad input with a 4xx', () => {
	test('submissions search, filters, detail and delete', async () => {
		const owner = await t.signUp()
		const { form } = await publishedEnquiryForm(t, owner.token)
		const name = fieldOf(form, 'Name')
		const base = `/dashboard/forms/${form.id}/submissions`
		for (const query of [
			'q=%00',
			`field=${name.id}&value=%00`,
			'field=%00&value=x',
			`field=${name.id}`,
			`q=${'x'.repeat(201)}`,
		]) {
			const response = await t.request('GET', `${base}?${query}`, { token: owner.token })
			expect(response.status, query).toBe(400)
			expect(response.body.errors?.length, query).toBeGreaterThan(0)
		}
		for (const id of ['%00', 'not-a-submission', '00000000-0000-4000-8000-000000000000']) {
			expect((await t.request('GET', `${base}/${id}`, { token: owner.token })).status, id).toBeLessThan(500)
			expect((await t.request('GET', `${base}/${id}`, { token: owner.token })).status, id).toBeGreaterThanOrEqual(400)
			expect((await t.request('DELETE', `${base}/${id}`, { token: owner.token })).status, id).toBeGreaterThanOrEqual(
				400,
			)
			expect((await t.request('DELETE', `${base}/${id}`, { token: owner.token })).status, id).toBeLessThan(500)
		}
		const badDelete = await t.request('DELETE', `${base}/00000000-0000-4000-8000-000000000000?deleteRow=yes`, {
			token: owner.token,
		})
		expect(badDelete.status).toBe(400)
		expect(badDelete.body.errors).toEqual([expect.objectContaining({ field: 'deleteRow' })])
	})

	test('creating from a template, and the public reads of a question', async () => {
		const owner = await t.signUp()
		const template = await t.request('POST', '/dashboard/forms', {
			token: owner.token,
			json: { name: 'x', newDatabase: {}, template: 'nope\u0000' },
		})
		expect(template.status).toBe(400)
		expect(template.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'template' })]))
		const workspace = await t.request('POST', '/dashboard/forms', {
			token: owner.token,
			json: { name: 'x', newDatabase: { workspaceId: 'w\u0000' } },
		})
		expect(workspace.status).toBe(400)
		const { form } = await publishedEnquiryForm(t, owner.token)
		for (const field of ['%00', 'no-such-question', fieldOf(form, 'Name').id]) {
			const response = await t.request('GET', `/api/local/databases?scope=form:${form.id}&field=${field}`)
			expect(response.status, field).toBeGreaterThanOrEqual(400)
			expect(response.status, field).toBeLessThan(500)
		}
		const asset = await t.request('GET', `/api/forms/${form.id}/assets/fields/%00`)
		expect(asset.status).toBeGreaterThanOrEqual(400)
		expect(asset.status).toBeLessThan(500)
	})

	test('a views beacon with a NUL byte or an overlong step is refused, naming the step', async () => {
		const owner = await t.signUp()
		const { form } = await publishedEnquiryForm(t, owner.token)
		const nul = await t.request('POST', '/api/views', {
			json: { events: [{ formId: form.id, kind: 'reach', step: 'a\u0000b' }] },
		})
		expect(nul.status).toBe(400)
		expect(nul.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'events.0.step' })]))
		const long = await t.request('POST', '/api/views', {
			json: { events: [{ formId: form.id, kind: 'reach', step: 'x'.repeat(65) }] },
		})
		expect(long.status).toBe(400)
		expect(long.body.errors).toEqual([expect.objectContaining({ field: 'events.0.step' })])
	})
})
