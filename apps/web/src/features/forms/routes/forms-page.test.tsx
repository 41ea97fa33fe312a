import type { Workspace } from '@blocksmith/contracts/workspaces.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { database, makeForm } from '../testing.tsx'
import { FormsPage } from './forms-page.tsx'

const workspace: Workspace = {
	id: 'ws1',
	tool: 'local',
	name: 'Sample workspace',
	icon: null,
	status: 'connected',
	databasesCount: 1,
	createdAt: '2026-01-01T10:00:00.000Z',
}

describe('the forms list', () => {
	test('a new user picks a template and lands in the builder of a form with its own database', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/forms' && method === 'GET') {
				return json([])
			}
			if (path === '/dashboard/forms' && method === 'POST') {
				return json(makeForm({ id: 'f9', name: 'Contact form', databaseName: 'Contact form' }), 201)
			}
			return undefined
		})
		const { user, router } = renderPage(FormsPage, '/forms', '/forms')
		expect(await screen.findByRole('heading', { name: 'No forms yet' })).toBeInTheDocument()
		// The empty page is the gallery: scratch and the seven templates, each saying what it asks.
		// The chooser (and its templates) loads after the page: found, not got.
		const gallery = await screen.findByRole('list', { name: 'Templates' })
		expect(within(gallery).getAllByRole('button')).toHaveLength(8)
		const card = within(gallery).getByRole('button', { name: /^Job application/ })
		expect(card).toHaveTextContent(
			'3 pagesTake applications over three pages: about you, your experience, your availability.Asks: Full name · Email · Phone · Which role are you applying for? and 9 more',
		)
		expect(screen.getByRole('radio', { name: /Create a new database for it/ })).toBeChecked()
		await user.click(within(gallery).getByRole('button', { name: /^Contact form/ }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/forms/f9/edit'))
		expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
			name: 'Contact form',
			newDatabase: {},
			template: 'contact',
		})
	})

	test('from scratch on an existing database, named by the user, from the New form dialog', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/forms' && method === 'GET') {
				return json([makeForm()])
			}
			if (path === '/dashboard/forms' && method === 'POST') {
				return json(makeForm({ id: 'f9', name: 'Enquiries' }), 201)
			}
			if (path === '/dashboard/workspaces') {
				return json([workspace])
			}
			if (path === '/dashboard/local/databases') {
				return json([database])
			}
			return undefined
		})
		const { user, router } = renderPage(FormsPage, '/forms', '/forms')
		await user.click(await screen.findByRole('button', { name: 'New form' }))
		const dialog = await screen.findByRole('dialog', { name: 'New form' })
		await user.click(await within(dialog).findByRole('radio', { name: /Use an existing database/ }))
		await user.click(await within(dialog).findByRole('combobox', { name: 'Database' }))
		await user.click(await screen.findByRole('option', { name: 'Leads' }))
		await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Enquiries')
		await user.click(within(dialog).getByRole('button', { name: /^Start from scratch/ }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/forms/f9/edit'))
		expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
			{ databaseId: 'db1', name: 'Enquiries' },
		])
	})

	test('a template on an existing database without a name takes the template’s name', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/forms' && method === 'GET') {
				return json([])
			}
			if (path === '/dashboard/forms' && method === 'POST') {
				return json(makeForm({ id: 'f9' }), 201)
			}
			if (path === '/dashboard/workspaces') {
				return json([workspace])
			}
			if (path === '/dashboard/local/databases') {
				return json([database])
			}
			return undefined
		})
		const { user, router } = renderPage(FormsPage, '/forms', '/forms')
		await user.click(await screen.findByRole('radio', { name: /Use an existing database/ }))
		await user.click(await screen.findByRole('combobox', { name: 'Database' }))
		await user.click(await screen.findByRole('option', { name: 'Leads' }))
		await user.click(screen.getByRole('button', { name: /^Bug report/ }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/forms/f9/edit'))
		expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
			name: 'Bug report',
			databaseId: 'db1',
			template: 'bug_report',
		})
	})

	test('with an existing database asked for but none picked, nothing is sent and the picker says why', async () => {
		const api = mockApi(({ path }) => {
			if (path === '/dashboard/forms') {
				return json([])
			}
			if (path === '/dashboard/workspaces') {
				return json([workspace])
			}
			if (path === '/dashboard/local/databases') {
				return json([database])
			}
			return undefined
		})
		const { user } = renderPage(FormsPage, '/forms', '/forms')
		await user.click(await screen.findByRole('radio', { name: /Use an existing database/ }))
		await screen.findByRole('combobox', { name: 'Database' })
		await user.click(screen.getByRole('button', { name: /^Start from scratch/ }))
		expect(await screen.findByText('Pick the database the answers go into.')).toBeInTheDocument()
		expect(api.calls.some((call) => call.method === 'POST')).toBe(false)
	})

	test('without databases, an existing one cannot be picked: the user is sent to make the sample workspace', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/forms' || path === '/dashboard/workspaces') {
				return json([])
			}
			return undefined
		})
		const { user } = renderPage(FormsPage, '/forms', '/forms')
		await user.click(await screen.findByRole('radio', { name: /Use an existing database/ }))
		const link = await screen.findByRole('link', { name: 'Create the sample workspace' })
		expect(link).toHaveAttribute('href', '/workspaces')
	})

	test('lists forms with their state, and deletes one after a confirmation', async () => {
		let forms = [
			makeForm({ published: true, submissionsCount: 12, slug: 'contact' }),
			makeForm({ id: 'f2', name: 'Survey' }),
		]
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/forms' && method === 'GET') {
				return json(forms)
			}
			if (path === '/dashboard/forms/f2' && method === 'DELETE') {
				forms = forms.filter((form) => form.id !== 'f2')
				return json({ success: true })
			}
			if (path === '/dashboard/workspaces') {
				return json([workspace])
			}
			return undefined
		})
		const { user } = renderPage(FormsPage, '/forms', '/forms')
		const table = await screen.findByRole('table', { name: 'Forms' })
		const [, first, second] = within(table).getAllByRole('row')
		expect(within(first as HTMLElement).getByRole('link', { name: 'Lead form' })).toHaveAttribute(
			'href',
			'/forms/f1/edit',
		)
		expect(within(first as HTMLElement).getByText('Published')).toBeInTheDocument()
		expect(within(first as HTMLElement).getByRole('link', { name: '12 submissions to Lead form' })).toHaveAttribute(
			'href',
			'/forms/f1/submissions',
		)
		expect(within(second as HTMLElement).getByText('Draft')).toBeInTheDocument()
		// The workspace beside the database: two workspaces can each have a Leads database.
		expect(await within(first as HTMLElement).findByText('Leads · Sample workspace')).toBeInTheDocument()

		await user.click(within(first as HTMLElement).getByRole('button', { name: 'Actions for Lead form' }))
		expect(await screen.findByRole('menuitem', { name: 'Open public page' })).toHaveAttribute('href', '/forms/contact')
		await user.keyboard('{Escape}')

		await user.click(within(second as HTMLElement).getByRole('button', { name: 'Actions for Survey' }))
		await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
		const confirm = await screen.findByRole('alertdialog', { name: 'Delete Survey?' })
		await user.click(within(confirm).getByRole('button', { name: 'Delete form' }))
		await waitFor(() => expect(api.calls.some((call) => call.method === 'DELETE')).toBe(true))
		await waitFor(() => expect(screen.queryByRole('link', { name: 'Survey' })).toBeNull())
	})
})
