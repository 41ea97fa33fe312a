import type { Form, UpdateForm } from '@blocksmith/contracts/forms.ts'
import type { Database, PropertyInput } from '@blocksmith/contracts/workspaces.ts'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { expect } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { FormBuilderPage } from '../../routes/form-builder-page.tsx'
import { database, makeForm } from '../../testing.tsx'

// The builder's tests: one form kept by a stand-in server that applies PATCHes (to the form and,
// for new questions, to the built-in database), with a related database, its rows and people.

const clients: Database = {
	...database,
	id: 'db2',
	name: 'Clients',
	properties: [
		{ id: 'cname', name: 'Company', type: 'title' },
		{
			id: 'tier',
			name: 'Tier',
			type: 'select',
			options: [
				{ id: 't1', name: 'Gold', color: 'yellow' },
				{ id: 't2', name: 'Silver', color: 'gray' },
			],
		},
		{ id: 'active', name: 'Active', type: 'checkbox' },
	],
}

const leads: Database = {
	...database,
	properties: [
		...database.properties.filter((property) => property.type !== 'created_time'),
		{ id: 'client', name: 'Client', type: 'relation', relationDatabaseId: 'db2' },
		{ id: 'owner', name: 'Account manager', type: 'people' },
		{ id: 'score', name: 'Score', type: 'number' },
	],
}

const people = [
	{ id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', avatarUrl: null, type: 'person' },
	{ id: 'u2', name: 'Alan Turing', email: 'alan@example.com', avatarUrl: null, type: 'person' },
]

const row = (id: string, title: string) => ({
	id,
	externalId: `ext-${id}`,
	values: {},
	title,
	url: null,
	createdTime: '2026-01-01T10:00:00.000Z',
	lastEditedTime: '2026-01-01T10:00:00.000Z',
})

export function builderServer(
	initial: Form = makeForm(),
	base: Database = leads,
	/** The server's field errors for every PATCH, instead of saving it. */
	refusal?: { field: string; message: string }[],
) {
	let form = initial
	let db: Database = { ...base, tool: initial.tool }
	const patches: UpdateForm[] = []
	const databasePatches: { properties?: PropertyInput[] }[] = []
	const api = mockApi(({ method, path, body, search }) => {
		const tool = form.tool
		if (path === '/dashboard/forms/f1' && method === 'GET') {
			return json(form)
		}
		if (path === '/dashboard/forms/f1' && method === 'PATCH') {
			const changes = body as UpdateForm
			patches.push(changes)
			if (refusal) {
				return problem(400, 'VALIDATION_FAILED', 'Some settings need another look.', refusal)
			}
			const { password: _password, ...rest } = changes
			form = { ...form, ...rest, updatedAt: new Date().toISOString() }
			return json(form)
		}
		if (path === `/dashboard/${tool}/databases/db1` && method === 'GET') {
			return json(db)
		}
		if (path === '/dashboard/local/databases/db1' && method === 'PATCH') {
			const changes = body as { properties?: PropertyInput[] }
			databasePatches.push(changes)
			db = {
				...db,
				properties: (changes.properties ?? []).map((property, index) => ({
					id: property.id ?? `new${index}`,
					name: property.name,
					type: property.type,
					...(property.options
						? {
								options: property.options.map((option, at) => ({
									id: option.id ?? `o${at}`,
									name: option.name,
									color: option.color ?? 'default',
								})),
							}
						: {}),
				})),
			}
			return json(db)
		}
		if (path === `/dashboard/${tool}/databases/db2` && method === 'GET') {
			return json({ ...clients, tool })
		}
		if (path === `/dashboard/${tool}/databases`) {
			return json([db, { ...clients, tool }])
		}
		if (path === `/dashboard/${tool}/databases/db2/rows`) {
			const rows = [row('r1', 'Acme'), row('r2', 'Globex')].filter((item) =>
				item.title.toLowerCase().includes((search.get('search') ?? '').toLowerCase()),
			)
			return json({ rows, total: rows.length, offset: 0, limit: 20 })
		}
		if (path === `/dashboard/${tool}/users`) {
			return json(people)
		}
		if (path === '/dashboard/team_invites/all_members') {
			return json([])
		}
		return undefined
	})
	return { ...api, patches, databasePatches }
}

export function renderBuilder() {
	return renderPage(FormBuilderPage, '/forms/:id/edit', '/forms/f1/edit')
}

/** Waits for the builder to show its fields (the first render in a file is slow on a loaded machine). */
export async function waitForBuilder(): Promise<void> {
	await screen.findByRole('button', { name: 'Edit Name' }, { timeout: 5000 })
}

/** The items of the list, by the name their edit button reads. */
export function itemNames(): string[] {
	const list = screen.getByRole('list', { name: 'Fields' })
	return within(list)
		.getAllByRole('button', { name: /^Edit / })
		.map((button) => (button.getAttribute('aria-label') ?? '').replace(/^Edit /, ''))
}

/** Types a whole value at once (a controlled input gets one change, as a paste would). */
export function setText(element: HTMLElement, value: string): void {
	fireEvent.change(element, { target: { value } })
}

/** Saves and returns the PATCH body sent. */
export async function saveAndGetPatch(
	server: ReturnType<typeof builderServer>,
	user: { click: (element: Element) => Promise<void> },
): Promise<UpdateForm> {
	const count = server.patches.length
	await user.click(screen.getByRole('button', { name: 'Save' }))
	await waitFor(() => expect(server.patches).toHaveLength(count + 1))
	return server.patches[count] as UpdateForm
}
