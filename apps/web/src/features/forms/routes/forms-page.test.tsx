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
	test('a new user picks a database and lands in the new form’s builder', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/forms' && method === 'GET') {
				return json([])
			}
			if (path === '/dashboard/forms' && method === 'POST') {
				return json(makeForm({ id: 'f9', name: 'Leads form' }), 201)
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
		expect(await screen.findByRole('heading', { name: 'No forms yet' })).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'New form' }))
		const dialog = await screen.findByRole('dialog', { name: 'New form' })
		await user.click(await within(dialog).findByRole('combobox', { name: 'Database' }))
		const option = await screen.findByRole('option', { name: 'Leads' })
		await user.click(option)
		expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Leads form')
		await user.click(within(dialog).getByRole('button', { name: 'Create form' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/forms/f9/edit'))
		expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({ databaseId: 'db1', name: 'Leads form' })
	})

	test('without databases, the dialog sends the user to make the sample workspace', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/forms' || path === '/dashboard/workspaces') {
				return json([])
			}
			return undefined
		})
		const { user } = renderPage(FormsPage, '/forms', '/forms')
		await user.click(await screen.findByRole('button', { name: 'New form' }))
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
