import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { withEveryProperty } from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Forms private by default: a new form asks the plain inputs of its database. Relation, people
// and status properties get a field only when the owner adds one, since a relation or people
// field shows every visitor the related rows' titles or the team's names.

let t: TestApp
beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t?.close()
})

type Database = { id: string; name: string; properties: { id: string; name: string; type: string }[] }
type Form = { id: string; fields: { id: string; propertyId: string; kind: string; label: string; required: boolean }[] }

async function sample(token: string): Promise<Record<string, Database>> {
	const created = await t.request('POST', '/dashboard/workspaces/sample', { token })
	expect(created.status).toBe(201)
	const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${created.body.workspace.id}`, { token })
	return Object.fromEntries((list.body as Database[]).map((database) => [database.name, database]))
}

async function newForm(token: string, database: Database): Promise<Form> {
	const created = await t.request('POST', '/dashboard/forms', {
		token,
		json: { name: 'Brief', databaseId: database.id },
	})
	expect(created.status).toBe(201)
	return created.body
}

/** Everything an anonymous visitor can read about a published form, as one string. */
async function whatVisitorsSee(form: Form, databases: Record<string, Database>): Promise<string> {
	const reads = [
		await t.request('GET', `/api/forms/${form.id}`),
		await t.request('GET', `/api/local/databases?scope=form:${form.id}`),
		await t.request('GET', `/api/local/users?scope=form:${form.id}`),
		...Object.values(databases).map((database) =>
			t.request('GET', `/api/local/databases?scope=form:${form.id}&database=${database.id}`),
		),
	]
	const answers = await Promise.all(reads)
	return JSON.stringify(answers.map((answer) => answer.body))
}

describe('a new form is private by default', () => {
	test('on the sample Projects database it asks the plain inputs: no relation, people or status field', async () => {
		const owner = await t.signUp({ name: 'Olive Owner' })
		const databases = await sample(owner.token)
		const form = await newForm(owner.token, databases.Projects as Database)
		expect(form.fields.map((field) => [field.label, field.kind])).toEqual([
			['Name', 'short_text'],
			['Budget', 'number'],
			['Timeline', 'date'],
			['Tags', 'multi_select'],
			['Brief', 'short_text'],
		])
		expect(form.fields.map((field) => field.kind)).not.toEqual(
			expect.arrayContaining([expect.stringMatching(/^(relation|people|status)$/)]),
		)
	})

	test('on Enquiries (every writable type) the plain inputs only, files included', async () => {
		const owner = await t.signUp()
		const databases = await sample(owner.token)
		const form = await newForm(owner.token, databases.Enquiries as Database)
		expect(form.fields.map((field) => field.label)).toEqual([
			'Name',
			'Message',
			'Budget',
			'Service',
			'Interests',
			'Preferred start',
			'Newsletter',
			'Website',
			'Email',
			'Phone',
			'Attachments',
		])
	})

	test('its public data shows visitors no client and no one of the team, until the owner adds such a field', async () => {
		const owner = await t.signUp({ name: 'Olive Owner' })
		const databases = await sample(owner.token)
		const projects = databases.Projects as Database
		const form = await newForm(owner.token, projects)
		const published = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: owner.token,
			json: { published: true },
		})
		expect(published.status).toBe(200)
		const page = await t.request('GET', `/api/forms/${form.id}`)
		expect(page.status).toBe(200)
		expect(page.body.fields.map((field: { kind: string }) => field.kind)).not.toEqual(
			expect.arrayContaining(['relation', 'people', 'status']),
		)
		const people = await t.request('GET', `/api/local/users?scope=form:${form.id}`)
		expect(people.status).toBe(404)
		const clients = databases.Clients as Database
		const choices = await t.request('GET', `/api/local/databases?scope=form:${form.id}&database=${clients.id}`)
		expect(choices.status).toBe(404)
		const seen = await whatVisitorsSee(form, databases)
		for (const secret of ['Acme Ltd', 'Globex Corporation', 'Olive Owner', 'In progress']) {
			expect(seen).not.toContain(secret)
		}

		// The owner adds the Client relation: now visitors see the clients. The check above is not empty.
		const withClient = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: owner.token,
			json: { fields: withEveryProperty(form, projects).filter((field) => field.kind !== 'status') },
		})
		expect(withClient.status).toBe(200)
		expect(await whatVisitorsSee(form, databases)).toContain('Acme Ltd')
	})
})
