import { formTemplate, formTemplates, templateQuestions } from '@blocksmith/contracts/form-templates.ts'
import { and, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { putOnPlan } from '#src/test/portals-setup.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { workspaceDatabases, workspaces } from '#src/workspaces/workspaces.schema.ts'
import { forms } from './forms.schema.ts'

// The quick start (issue 19): a form made from a template or from scratch, on a built-in database
// made for it in the same step, or on an existing database whose properties the questions take by
// name and kind. Everything in one transaction: a refused create leaves nothing behind.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
	await t?.close()
})

type Field = { id: string; propertyId: string | null; kind: string; label: string; choices: string[] | null }
type Form = { id: string; name: string; fields: Field[]; databaseId: string; workspaceId: string; layout: unknown }
type Database = {
	id: string
	name: string
	workspaceId: string
	properties: { id: string; name: string; type: string }[]
}

async function account() {
	const user = await t.signUp()
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token: user.token })
	return { ...user, orgId: details.body.id as string }
}

async function databaseOf(token: string, form: Form): Promise<Database> {
	const response = await t.request('GET', `/dashboard/local/databases/${form.databaseId}`, { token })
	expect(response.status).toBe(200)
	return response.body
}

async function databasesIn(orgId: string): Promise<number> {
	const [row] = await t.db
		.select({ n: count() })
		.from(workspaceDatabases)
		.where(eq(workspaceDatabases.organizationId, orgId))
	return row?.n ?? 0
}

function create(token: string, json: Record<string, unknown>) {
	return t.request('POST', '/dashboard/forms', { token, json })
}

describe('start from scratch', () => {
	test('without a built-in workspace, one is made, with a database named after the form asking its Name', async () => {
		const user = await account()
		const created = await create(user.token, { name: 'Waiting list', newDatabase: {} })
		expect(created.status, JSON.stringify(created.body)).toBe(201)
		const form = created.body as Form
		expect(form.layout).toEqual({ display: 'classic', showProgress: true })
		const layout = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: user.token,
			json: { layout: { display: 'one_at_a_time', showProgress: false } },
		})
		expect(layout.body.layout).toEqual({ display: 'one_at_a_time', showProgress: false })
		const read = await t.request('GET', `/dashboard/forms/${form.id}`, { token: user.token })
		expect(read.body.layout).toEqual({ display: 'one_at_a_time', showProgress: false })
		const database = await databaseOf(user.token, form)
		expect(database.name).toBe('Waiting list')
		expect(database.properties.map((p) => [p.name, p.type])).toEqual([['Name', 'title']])
		expect(form.fields).toMatchObject([{ kind: 'short_text', label: 'Name', propertyId: 'title', required: true }])
		const [workspace] = await t.db.select().from(workspaces).where(eq(workspaces.organizationId, user.orgId))
		expect(workspace).toMatchObject({ id: database.workspaceId, tool: 'local', name: 'Forms' })

		// The next one goes into that workspace, under a name no database there has.
		const again = await create(user.token, { name: 'waiting list', newDatabase: {} })
		expect(again.status).toBe(201)
		const second = await databaseOf(user.token, again.body)
		expect(second).toMatchObject({ name: 'waiting list 2', workspaceId: database.workspaceId })
		const third = await databaseOf(
			user.token,
			(await create(user.token, { name: 'Waiting list', newDatabase: {} })).body,
		)
		expect(third.name).toBe('Waiting list 3')
		expect(await t.db.select().from(workspaces).where(eq(workspaces.organizationId, user.orgId))).toHaveLength(1)
	})

	test('a new database goes into the built-in workspace asked for, and only one of the organization', async () => {
		const user = await account()
		const other = await account()
		const mine = await t.request('POST', '/dashboard/workspaces', {
			token: user.token,
			json: { tool: 'local', name: 'Second' },
		})
		expect(mine.status, JSON.stringify(mine.body)).toBe(201)
		const created = await create(user.token, { name: 'Signups', newDatabase: { workspaceId: mine.body.workspace.id } })
		expect(created.status).toBe(201)
		expect(created.body.workspaceId).toBe(mine.body.workspace.id)

		const theirs = await t.request('POST', '/dashboard/workspaces', {
			token: other.token,
			json: { tool: 'local', name: 'Theirs' },
		})
		const before = await databasesIn(user.orgId)
		for (const workspaceId of [theirs.body.workspace.id, 'no-such-workspace']) {
			const refused = await create(user.token, { name: 'Signups', newDatabase: { workspaceId } })
			expect(refused.status).toBe(400)
			expect(refused.body.errors).toEqual([
				{ field: 'newDatabase.workspaceId', message: 'No such built-in workspace.' },
			])
		}
		expect(await databasesIn(user.orgId)).toBe(before)
		expect(await databasesIn(other.orgId)).toBe(0)
	})
})

describe('templates', () => {
	test.each(formTemplates.map((template) => [template.id]))(
		'%s on a new database: every question writes a property of its own, made for it',
		async (id) => {
			const template = formTemplate(id)
			const user = await account()
			const created = await create(user.token, { name: template.name, newDatabase: {}, template: id })
			expect(created.status, JSON.stringify(created.body)).toBe(201)
			const form = created.body as Form
			const database = await databaseOf(user.token, form)
			const questions = templateQuestions(template)
			// The title first, as databases show it; then the others in the form's order.
			const title = questions.filter((q) => q.property.type === 'title')
			const others = questions.filter((q) => q.property.type !== 'title')
			expect(database.properties.map((p) => [p.name, p.type])).toEqual(
				[...title, ...others].map((q) => [q.property.name, q.property.type]),
			)
			expect(form.fields.map((field) => [field.kind, field.label])).toEqual(
				template.items.map((item) => [item.kind, item.label]),
			)
			const byName = new Map(database.properties.map((p) => [p.name, p.id]))
			for (const [index, item] of template.items.entries()) {
				const field = form.fields[index] as Field
				expect(field.propertyId).toBe('property' in item ? byName.get(item.property.name) : null)
			}
			// The fields are what the builder saves back unchanged.
			const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
				token: user.token,
				json: { fields: form.fields, published: true },
			})
			expect(saved.status, JSON.stringify(saved.body)).toBe(200)
		},
	)

	test('on an existing database, questions take the properties of their name and a fitting type; the rest keep their answers', async () => {
		const user = await account()
		const sample = await t.request('POST', '/dashboard/workspaces/sample', { token: user.token })
		const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${sample.body.workspace.id}`, {
			token: user.token,
		})
		const enquiries = (list.body as Database[]).find((database) => database.name === 'Enquiries') as Database
		const property = (name: string) => enquiries.properties.find((p) => p.name === name)?.id
		const before = await databasesIn(user.orgId)
		const created = await create(user.token, {
			name: 'Onboarding',
			databaseId: enquiries.id,
			template: 'client_onboarding',
		})
		expect(created.status, JSON.stringify(created.body)).toBe(201)
		const fields = new Map((created.body as Form).fields.map((field) => [field.label, field]))
		expect(fields.get('Contact email')?.propertyId).toBe(property('Email'))
		expect(fields.get('Phone')?.propertyId).toBe(property('Phone'))
		expect(fields.get('Website')?.propertyId).toBe(property('Website'))
		// "Company" is no property of Enquiries; "Budget" is a number there, not a select.
		expect(fields.get('Company name')?.propertyId).toBeNull()
		expect(fields.get('Budget')).toMatchObject({ propertyId: null, choices: expect.arrayContaining(['Over 50,000']) })
		expect(await databasesIn(user.orgId)).toBe(before)

		const lead = await create(user.token, { name: 'Leads', databaseId: enquiries.id, template: 'lead_capture' })
		const leadFields = new Map((lead.body as Form).fields.map((field) => [field.label, field]))
		// Bound to the multi-select, its choices are the property's options.
		expect(leadFields.get('What are you interested in?')).toMatchObject({
			propertyId: property('Interests'),
			choices: null,
		})
		expect(leadFields.get('Full name')?.propertyId).toBe('title')
		const saved = await t.request('PATCH', `/dashboard/forms/${lead.body.id}`, {
			token: user.token,
			json: { fields: lead.body.fields },
		})
		expect(saved.status, JSON.stringify(saved.body)).toBe(200)
	})

	test('a template that is not one, or a database and a new one at once, is a 400 naming the field', async () => {
		const user = await account()
		const bad = await create(user.token, { name: 'X', newDatabase: {}, template: 'survey' })
		expect(bad.status).toBe(400)
		expect(bad.body.errors).toEqual([{ field: 'template', message: 'Pick one of the templates.' }])
		const both = await create(user.token, { name: 'X', newDatabase: {}, databaseId: 'abc' })
		expect(both.status).toBe(400)
		expect(both.body.errors.map((error: { field: string }) => error.field)).toEqual(['databaseId'])
		const neither = await create(user.token, { name: 'X' })
		expect(neither.status).toBe(400)
		expect(await databasesIn(user.orgId)).toBe(0)
	})
})

describe('one transaction', () => {
	test('past the plan’s forms, the create is refused (402) and leaves no database, workspace or form', async () => {
		const user = await account()
		await putOnPlan(t, user.token, user.orgId, 'starter')
		for (let index = 0; index < 5; index += 1) {
			const made = await create(user.token, { name: `Form ${index}`, newDatabase: {}, template: 'contact' })
			expect(made.status).toBe(201)
		}
		// With no built-in workspace left, the refused create would first make one, then the database.
		await t.db.update(workspaces).set({ tool: 'notion' }).where(eq(workspaces.organizationId, user.orgId))
		const databases = await databasesIn(user.orgId)
		const refused = await create(user.token, { name: 'One too many', newDatabase: {}, template: 'bug_report' })
		expect(refused.status).toBe(402)
		expect(refused.body).toMatchObject({ code: 'PLAN_LIMIT_REACHED', limit: { key: 'forms', allowed: 5 } })
		expect(await databasesIn(user.orgId)).toBe(databases)
		const [named] = await t.db
			.select({ n: count() })
			.from(workspaceDatabases)
			.where(and(eq(workspaceDatabases.organizationId, user.orgId), eq(workspaceDatabases.name, 'One too many')))
		expect(named?.n).toBe(0)
		const [formCount] = await t.db.select({ n: count() }).from(forms).where(eq(forms.organizationId, user.orgId))
		expect(formCount?.n).toBe(5)
		expect(await t.db.select().from(workspaces).where(eq(workspaces.organizationId, user.orgId))).toHaveLength(1)
	})
})
