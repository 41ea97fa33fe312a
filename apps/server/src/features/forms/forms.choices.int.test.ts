import { randomBytes, randomUUID } from 'node:crypto'
import type { ChoiceScope } from '@blocksmith/contracts/forms.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { members, users } from '#src/core/auth/auth.schema.ts'
import { fieldOf, publishedEnquiryForm, submitAnswers, type TestField, type TestForm } from '#src/test/forms.ts'
import { type Team, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// The probe of issue 19: for every question of a form and every choice setting of its relation
// and people questions, the public reads (`/api/{tool}/databases`, `/api/{tool}/users`) give
// nothing beyond what that question needs, and an answer naming a choice it never offered is
// refused. Runs on PGlite, and on PostgreSQL with DATABASE_URL.

let t: TestApp
let team: Team
let form: TestForm
let databases: Record<string, { id: string; name: string; properties: { id: string; name: string; type: string }[] }>
/** The Clients rows by title: the sample's eight and twelve "Zeta client" rows added here. */
let clientIds: Map<string, string>
/** Twelve more people of the organization, all named "Sam …". */
let samIds: string[]

const sampleClients = [
	'Acme Ltd',
	'Globex Corporation',
	'Initech',
	'Umbrella Studio',
	'Stark Design',
	'Wayne Foundation',
	'Hooli',
	'Soylent Foods',
]
const activeClients = ['Acme Ltd', 'Globex Corporation', 'Initech', 'Soylent Foods', 'Stark Design']
const zetaClients = Array.from({ length: 12 }, (_, index) => `Zeta client ${String(index + 1).padStart(2, '0')}`)

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
	team = await teamWithEveryRole(t)
	const published = await publishedEnquiryForm(t, team.owner.token)
	form = published.form
	databases = published.databases
	const clients = databases.Clients as (typeof databases)[string]
	const added = await t.request('POST', `/dashboard/local/databases/${clients.id}/rows/batch`, {
		token: team.owner.token,
		json: { rows: zetaClients.map((title) => ({ values: { Name: title } })) },
	})
	expect(added.status, JSON.stringify(added.body)).toBeLessThan(300)
	const rows = await t.request('GET', `/dashboard/local/databases/${clients.id}/rows?limit=200`, {
		token: team.owner.token,
	})
	clientIds = new Map(
		(rows.body.rows as { externalId: string; title: string }[]).map((row) => [row.title, row.externalId]),
	)
	expect(clientIds.size).toBe(20)
	samIds = []
	for (let index = 0; index < 12; index++) {
		const id = randomBytes(16).toString('base64url')
		await t.db.insert(users).values({ id, name: `Sam ${index + 1}`, email: `sam-${id}@example.com` })
		await t.db.insert(members).values({ id: randomUUID(), organizationId: team.orgId, userId: id, role: 'member' })
		samIds.push(id)
	}
	// A heading and a question kept with the answers only join the form's relation and people questions.
	const saved = await saveFields([
		...form.fields,
		{ ...contentItem('heading', 'About you') },
		{ ...contentItem('short_text', 'Anything else?') },
	])
	expect(saved.status, JSON.stringify(saved.body)).toBe(200)
	form = saved.body as TestForm
})
afterAll(async () => {
	await t.close()
})

function contentItem(kind: string, label: string): TestField & Record<string, unknown> {
	return { id: randomUUID(), propertyId: null as unknown as string, kind, label, required: false }
}

async function saveFields(fields: unknown[], token = team.owner.token, formId = form.id) {
	return t.request('PATCH', `/dashboard/forms/${formId}`, { token, json: { fields } })
}

/** Saves the form with the Client (relation) and Assignee (people) questions limited as given. */
async function limit(scopes: { client?: ChoiceScope; assignee?: ChoiceScope }) {
	const client = fieldOf(form, 'Client')
	const assignee = fieldOf(form, 'Assignee')
	const fields = form.fields.map((field) => {
		if (field.id === client.id) {
			return { ...field, choiceScope: scopes.client ?? { mode: 'all' } }
		}
		if (field.id === assignee.id) {
			return { ...field, choiceScope: scopes.assignee ?? { mode: 'all' } }
		}
		return field
	})
	const saved = await saveFields(fields)
	expect(saved.status, JSON.stringify(saved.body)).toBe(200)
	form = saved.body as TestForm
}

function choicesRead(options: { field?: string; database?: string; search?: string; scope?: string }) {
	const query = new URLSearchParams({ scope: options.scope ?? `form:${form.id}` })
	for (const key of ['field', 'database', 'search'] as const) {
		const value = options[key]
		if (value !== undefined) {
			query.set(key, value)
		}
	}
	return query
}

async function rowsOf(options: { field?: string; search?: string; scope?: string; database?: string }) {
	const clients = databases.Clients as (typeof databases)[string]
	const response = await t.request('GET', `/api/local/databases?${choicesRead({ database: clients.id, ...options })}`, {
		ip: '198.51.100.20',
	})
	return response
}

async function peopleOf(options: { field?: string; search?: string; scope?: string }) {
	return t.request('GET', `/api/local/users?${choicesRead(options)}`, { ip: '198.51.100.21' })
}

function titles(response: { body: { rows: { title: string }[] }[] }): string[] {
	return (response.body[0]?.rows ?? []).map((row) => row.title)
}

function names(response: { body: { name: string }[] }): string[] {
	return response.body.map((person) => person.name).sort()
}

/** What no read may ever carry: the clients' e-mail addresses (sample data) and the people's. */
function expectNothingPrivate(body: unknown) {
	const text = JSON.stringify(body)
	expect(text).not.toMatch(/@example\.com|@acme|@globex|billing@/i)
	expect(text).not.toContain(team.owner.email)
}

/** Every question but the one named reads as 404 on both endpoints; the one named answers as `expected`. */
async function probeEveryQuestion(expected: { relation: number; people: number }) {
	const projects = databases.Projects as (typeof databases)[string]
	for (const field of form.fields) {
		const rows = await rowsOf({ field: field.id })
		const people = await peopleOf({ field: field.id })
		const wanted = {
			rows: field.kind === 'relation' ? expected.relation : 404,
			people: field.kind === 'people' ? expected.people : 404,
		}
		expect({ kind: field.kind, rows: rows.status, people: people.status }).toEqual({ kind: field.kind, ...wanted })
		// Another database of the workspace is never readable through a question.
		const other = await t.request(
			'GET',
			`/api/local/databases?${choicesRead({ field: field.id, database: projects.id })}`,
			{ ip: '198.51.100.22' },
		)
		expect(other.status).toBe(404)
		if (rows.status === 200) {
			// Titles only: no property of the related database, not even its title's definition beyond it.
			const clients = databases.Clients as (typeof databases)[string]
			const titleIds = clients.properties.filter((p) => p.type === 'title').map((p) => p.id)
			for (const property of rows.body[0].properties as { id: string }[]) {
				expect(titleIds).toContain(property.id)
			}
			expect(Object.keys(rows.body[0].rows[0] ?? { id: '', title: '' }).sort()).toEqual(['id', 'title'])
			expectNothingPrivate(rows.body)
		}
		if (people.status === 200) {
			for (const person of people.body as { email: string | null }[]) {
				expect(person.email).toBeNull()
			}
			expectNothingPrivate(people.body)
		}
	}
}

describe('choices visitors may see, per question', () => {
	test('all: every related row (titles only) and every person, and only through the form’s own questions', async () => {
		await limit({})
		await probeEveryQuestion({ relation: 200, people: 200 })
		const client = fieldOf(form, 'Client')
		expect(titles(await rowsOf({ field: client.id })).sort()).toEqual([...sampleClients, ...zetaClients].sort())
		expect(titles(await rowsOf({ field: client.id, search: 'glob' }))).toEqual(['Globex Corporation'])
		const people = await peopleOf({ field: fieldOf(form, 'Assignee').id })
		expect(names(people)).toEqual(
			['Ada Admin', 'Max Member', 'Olive Owner', ...samIds.map((_, i) => `Sam ${i + 1}`)].sort(),
		)
		// A page served before questions were named reads the same for questions that list everything.
		expect(titles(await rowsOf({})).length).toBe(20)
		expect((await peopleOf({})).status).toBe(200)
	})

	test('filter: only the related rows matching every filter, searched within them', async () => {
		const clients = databases.Clients as (typeof databases)[string]
		const stage = clients.properties.find((p) => p.name === 'Stage') as { id: string }
		await limit({ client: { mode: 'filter', filters: [{ property: stage.id, operator: 'equals', value: 'Active' }] } })
		await probeEveryQuestion({ relation: 200, people: 200 })
		const client = fieldOf(form, 'Client')
		expect(titles(await rowsOf({ field: client.id })).sort()).toEqual(activeClients)
		expect(titles(await rowsOf({ field: client.id, search: 'ho' }))).toEqual([])
		expect(titles(await rowsOf({ field: client.id, search: 'in' }))).toEqual(['Initech'])
		expect(titles(await rowsOf({ field: client.id, search: 'S' })).sort()).toEqual(['Soylent Foods', 'Stark Design'])
		// Without naming the question, a limited relation gives nothing at all; the people still list.
		expect((await rowsOf({})).status).toBe(404)
		expect((await peopleOf({})).status).toBe(200)
	})

	test('subset: only the chosen rows and the chosen people', async () => {
		const chosenRows = [clientIds.get('Acme Ltd') as string, clientIds.get('Hooli') as string]
		await limit({
			client: { mode: 'subset', ids: chosenRows },
			assignee: { mode: 'subset', ids: [team.admin.userId, samIds[0] as string] },
		})
		await probeEveryQuestion({ relation: 200, people: 200 })
		const client = fieldOf(form, 'Client')
		expect(titles(await rowsOf({ field: client.id })).sort()).toEqual(['Acme Ltd', 'Hooli'])
		expect(titles(await rowsOf({ field: client.id, search: 'glob' }))).toEqual([])
		const assignee = fieldOf(form, 'Assignee')
		expect(names(await peopleOf({ field: assignee.id }))).toEqual(['Ada Admin', 'Sam 1'])
		expect(names(await peopleOf({ field: assignee.id, search: 'max' }))).toEqual([])
		expect((await rowsOf({})).status).toBe(404)
		expect((await peopleOf({})).status).toBe(404)
	})

	test('search: nothing under two characters, at most ten matches after', async () => {
		await limit({ client: { mode: 'search' }, assignee: { mode: 'search' } })
		await probeEveryQuestion({ relation: 200, people: 200 })
		const client = fieldOf(form, 'Client')
		const assignee = fieldOf(form, 'Assignee')
		expect(titles(await rowsOf({ field: client.id }))).toEqual([])
		expect(titles(await rowsOf({ field: client.id, search: 'z' }))).toEqual([])
		expect(titles(await rowsOf({ field: client.id, search: ' z ' }))).toEqual([])
		const zeta = titles(await rowsOf({ field: client.id, search: 'zeta' }))
		expect(zeta).toHaveLength(10)
		expect(zeta.every((title) => title.startsWith('Zeta client'))).toBe(true)
		expect(titles(await rowsOf({ field: client.id, search: 'acme' }))).toEqual(['Acme Ltd'])
		expect((await peopleOf({ field: assignee.id })).body).toEqual([])
		expect((await peopleOf({ field: assignee.id, search: 's' })).body).toEqual([])
		const sams = await peopleOf({ field: assignee.id, search: 'sam' })
		expect(sams.body).toHaveLength(10)
		expect(names(sams).every((name) => name.startsWith('Sam '))).toBe(true)
		expect(names(await peopleOf({ field: assignee.id, search: 'ada' }))).toEqual(['Ada Admin'])
		expectNothingPrivate(sams.body)
		expect((await rowsOf({})).status).toBe(404)
		expect((await peopleOf({})).status).toBe(404)
	})

	test('a question of another form or organization, or an unknown one, reads as 404', async () => {
		await limit({})
		const other = await publishedEnquiryForm(t, team.owner.token)
		const otherClient = fieldOf(other.form, 'Client')
		expect((await rowsOf({ field: otherClient.id })).status).toBe(404)
		expect((await peopleOf({ field: fieldOf(other.form, 'Assignee').id })).status).toBe(404)
		expect((await rowsOf({ field: 'no-such-question' })).status).toBe(404)
		const stranger = await t.signUp({ name: 'Stranger' })
		const theirs = await publishedEnquiryForm(t, stranger.token)
		const theirClient = fieldOf(theirs.form, 'Client')
		expect((await rowsOf({ field: theirClient.id })).status).toBe(404)
		// Their own form with our question, and our Clients database through their question.
		const theirScope = `form:${theirs.form.id}`
		expect((await rowsOf({ scope: theirScope, field: fieldOf(form, 'Client').id })).status).toBe(404)
		expect((await rowsOf({ scope: theirScope, field: theirClient.id })).status).toBe(404)
		// A hidden relation takes its value from the link: nothing to list.
		const hidden = form.fields.map((field) => (field.kind === 'relation' ? { ...field, hidden: true } : field))
		expect((await saveFields(hidden)).status).toBe(200)
		expect((await rowsOf({ field: fieldOf(form, 'Client').id })).status).toBe(404)
		await limit({})
	})
})

describe('answers outside a question’s choices', () => {
	async function send(answers: Record<string, unknown>) {
		return submitAnswers(t, form, answers, { ip: `198.51.100.${Math.floor(Math.random() * 200) + 30}` })
	}
	const base = () => ({ [fieldOf(form, 'Name').id]: 'Ada Lovelace' })

	test('a row outside the filter or the chosen ones, or a person outside the chosen, is a 400 naming the question', async () => {
		const clients = databases.Clients as (typeof databases)[string]
		const stage = clients.properties.find((p) => p.name === 'Stage') as { id: string }
		const client = fieldOf(form, 'Client')
		const assignee = fieldOf(form, 'Assignee')
		await limit({ client: { mode: 'filter', filters: [{ property: stage.id, operator: 'equals', value: 'Active' }] } })
		const outside = await send({ ...base(), [client.id]: [clientIds.get('Hooli')] })
		expect(outside.status, JSON.stringify(outside.body)).toBe(400)
		expect(outside.body.errors).toEqual([expect.objectContaining({ field: `answers.${client.id}` })])
		const inside = await send({ ...base(), [client.id]: [clientIds.get('Acme Ltd')] })
		expect(inside.status, JSON.stringify(inside.body)).toBeLessThan(300)

		await limit({
			client: { mode: 'subset', ids: [clientIds.get('Acme Ltd') as string] },
			assignee: { mode: 'subset', ids: [team.admin.userId] },
		})
		const notChosen = await send({
			...base(),
			[client.id]: [clientIds.get('Acme Ltd'), clientIds.get('Initech')],
			[assignee.id]: [team.member.userId],
		})
		expect(notChosen.status).toBe(400)
		expect(notChosen.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(
			[`answers.${assignee.id}`, `answers.${client.id}`].sort(),
		)
		const chosen = await send({
			...base(),
			[client.id]: [clientIds.get('Acme Ltd')],
			[assignee.id]: [team.admin.userId],
		})
		expect(chosen.status, JSON.stringify(chosen.body)).toBeLessThan(300)

		// Search-only lists any row or person once searched: any existing one is a fair answer.
		await limit({ client: { mode: 'search' }, assignee: { mode: 'search' } })
		const searched = await send({
			...base(),
			[client.id]: [clientIds.get('Zeta client 12')],
			[assignee.id]: [samIds[11]],
		})
		expect(searched.status, JSON.stringify(searched.body)).toBeLessThan(300)
		await limit({})
	})
})

describe('saving choice scopes', () => {
	test('each misfit is a 400 naming fields.N.choiceScope…', async () => {
		const clients = databases.Clients as (typeof databases)[string]
		const manager = clients.properties.find((p) => p.name === 'Account manager') as { id: string }
		const stage = clients.properties.find((p) => p.name === 'Stage') as { id: string }
		const indexOf = (label: string) => form.fields.findIndex((field) => field.label === label)
		const cases: { label: string; scope: unknown; path: string }[] = [
			{
				label: 'Assignee',
				scope: { mode: 'filter', filters: [{ property: stage.id, operator: 'equals', value: 'Active' }] },
				path: 'choiceScope.mode',
			},
			{
				label: 'Client',
				scope: { mode: 'filter', filters: [{ property: 'no-such-property', operator: 'equals', value: 'x' }] },
				path: 'choiceScope.filters.0.property',
			},
			{
				label: 'Client',
				scope: {
					mode: 'filter',
					filters: [
						{ property: stage.id, operator: 'equals', value: 'Active' },
						{ property: manager.id, operator: 'greater_than', value: 'x' },
					],
				},
				path: 'choiceScope.filters.1.operator',
			},
			{ label: 'Client', scope: { mode: 'subset', ids: ['not a row id'] }, path: 'choiceScope.ids.0' },
			{ label: 'Assignee', scope: { mode: 'subset', ids: ['has spaces'] }, path: 'choiceScope.ids.0' },
			{ label: 'Name', scope: { mode: 'search' }, path: 'choiceScope.mode' },
			{ label: 'Service', scope: { mode: 'subset', ids: [randomUUID()] }, path: 'choiceScope.mode' },
		]
		for (const { label, scope, path } of cases) {
			const fields = form.fields.map((field) => (field.label === label ? { ...field, choiceScope: scope } : field))
			const saved = await saveFields(fields)
			expect({ label, status: saved.status }).toEqual({ label, status: 400 })
			expect(saved.body.errors).toEqual(
				expect.arrayContaining([expect.objectContaining({ field: `fields.${indexOf(label)}.${path}` })]),
			)
		}
		// Chosen rows that no longer exist are kept: the list simply shows fewer.
		const gone = form.fields.map((field) =>
			field.label === 'Client' ? { ...field, choiceScope: { mode: 'subset', ids: [randomUUID()] } } : field,
		)
		expect((await saveFields(gone)).status).toBe(200)
		expect(titles(await rowsOf({ field: fieldOf(form, 'Client').id }))).toEqual([])
		await limit({})
	})
})
