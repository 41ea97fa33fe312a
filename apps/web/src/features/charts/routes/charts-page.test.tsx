import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { database, makeChart, makeConfig, workspace } from '../lib/testing.tsx'
import { ChartsPage } from './charts-page.tsx'

describe('the charts list', () => {
	test('shows the charts of both tools as one list, newest change first, with their type and state', async () => {
		const local = [
			makeChart({ id: 'c1', name: 'Deals by stage', updatedAt: '2026-01-02T10:00:00.000Z' }),
			makeChart({
				id: 'c3',
				name: 'Revenue share',
				updatedAt: '2026-01-01T10:00:00.000Z',
				config: makeConfig({ type: 'pie', display: { donut: true } }),
				problems: [{ field: 'x.property', message: 'The grouping uses a property that no longer exists.' }],
			}),
		]
		const notion = [
			makeChart({
				id: 'c2',
				name: 'Tasks per week',
				tool: 'notion',
				workspaceId: 'ws2',
				databaseName: 'Tasks',
				published: true,
				updatedAt: '2026-01-03T10:00:00.000Z',
				config: makeConfig({ type: 'line' }),
			}),
		]
		mockApi(({ path }) => {
			if (path === '/dashboard/local_charts/charts') {
				return json(local)
			}
			if (path === '/dashboard/notion_charts/charts') {
				return json(notion)
			}
			if (path === '/dashboard/workspaces') {
				return json([workspace, { ...workspace, id: 'ws2', tool: 'notion', name: 'Team Notion' }])
			}
			return undefined
		})
		renderPage(ChartsPage, '/charts', '/charts')
		const table = await screen.findByRole('table', { name: 'Charts' })
		const rows = within(table).getAllByRole('row').slice(1)
		expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual([
			'Tasks per week',
			'Deals by stage',
			'Revenue share',
		])
		const [tasks, deals, share] = rows as [HTMLElement, HTMLElement, HTMLElement]
		// A chart whose settings no longer fit its database is flagged, with the problem on hover.
		expect(within(share).getByText('Needs attention')).toHaveAttribute(
			'title',
			'The grouping uses a property that no longer exists.',
		)
		expect(within(deals).queryByText('Needs attention')).toBeNull()
		expect(within(tasks).getByRole('link', { name: 'Tasks per week' })).toHaveAttribute(
			'href',
			'/charts/c2/edit?tool=notion',
		)
		expect(within(tasks).getByText('Line chart:')).toBeInTheDocument()
		expect(within(tasks).getByText('Published')).toBeInTheDocument()
		expect(within(tasks).getByText('Notion')).toBeInTheDocument()
		expect(await within(tasks).findByText('Tasks · Team Notion')).toBeInTheDocument()
		expect(within(deals).getByText('Draft')).toBeInTheDocument()
		expect(within(deals).getByText('Built-in')).toBeInTheDocument()
		expect(within(share).getByText('Donut chart:')).toBeInTheDocument()
	})

	test('a published chart’s menu copies its embed link; a draft’s has none', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/local_charts/charts') {
				return json([makeChart({ published: true }), makeChart({ id: 'c2', name: 'Draft chart' })])
			}
			if (path === '/dashboard/notion_charts/charts' || path === '/dashboard/workspaces') {
				return json([])
			}
			return undefined
		})
		const { user } = renderPage(ChartsPage, '/charts', '/charts')
		await user.click(await screen.findByRole('button', { name: 'Actions for Deals by stage' }))
		expect(await screen.findByRole('menuitem', { name: 'Open public page' })).toHaveAttribute('href', '/charts/c1')
		await user.click(screen.getByRole('menuitem', { name: 'Copy embed link' }))
		// user-event stands in for the clipboard.
		await waitFor(async () =>
			expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/charts/c1?theme=auto`),
		)

		await user.click(screen.getByRole('button', { name: 'Actions for Draft chart' }))
		await screen.findByRole('menuitem', { name: 'Duplicate' })
		expect(screen.queryByRole('menuitem', { name: 'Copy embed link' })).toBeNull()
	})

	test('deletes a chart after a confirmation, through its own tool', async () => {
		let notion = [makeChart({ id: 'c2', name: 'Tasks per week', tool: 'notion' })]
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/local_charts/charts') {
				return json([makeChart()])
			}
			if (path === '/dashboard/notion_charts/charts') {
				return json(notion)
			}
			if (path === '/dashboard/notion_charts/charts/c2' && method === 'DELETE') {
				notion = []
				return json({ success: true })
			}
			if (path === '/dashboard/workspaces') {
				return json([workspace])
			}
			return undefined
		})
		const { user } = renderPage(ChartsPage, '/charts', '/charts')
		await user.click(await screen.findByRole('button', { name: 'Actions for Tasks per week' }))
		await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
		const confirm = await screen.findByRole('alertdialog', { name: 'Delete Tasks per week?' })
		expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false)
		await user.click(within(confirm).getByRole('button', { name: 'Delete chart' }))
		await waitFor(() => expect(screen.queryByRole('link', { name: 'Tasks per week' })).toBeNull())
		expect(api.calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
			'/dashboard/notion_charts/charts/c2',
		])
		expect(screen.getByRole('link', { name: 'Deals by stage' })).toBeInTheDocument()
	})

	test('with no charts, says what a chart is; the dialog creates one on the picked database and opens it', async () => {
		const api = mockApi(({ method, path }) => {
			if (path.endsWith('_charts/charts') && method === 'GET') {
				return json([])
			}
			if (path === '/dashboard/local_charts/charts' && method === 'POST') {
				return json(makeChart({ id: 'c9', name: 'Deals chart' }), 201)
			}
			if (path === '/dashboard/workspaces') {
				return json([workspace])
			}
			if (path === '/dashboard/local/databases') {
				return json([database])
			}
			return undefined
		})
		const { user, router } = renderPage(ChartsPage, '/charts', '/charts')
		expect(await screen.findByRole('heading', { name: 'No charts yet' })).toBeInTheDocument()
		expect(screen.getByText(/counts, sums or averages the rows of a database/)).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'New chart' }))
		const dialog = await screen.findByRole('dialog', { name: 'New chart' })
		await user.click(await within(dialog).findByRole('combobox', { name: 'Database' }))
		await user.click(await screen.findByRole('option', { name: 'Deals' }))
		expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Deals chart')
		await user.click(within(dialog).getByRole('button', { name: 'Create chart' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/charts/c9/edit'))
		expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
			databaseId: 'db1',
			name: 'Deals chart',
			timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
		})
	})

	test('without any database, the empty state says how to get one', async () => {
		mockApi(({ path }) => {
			if (path.endsWith('_charts/charts') || path === '/dashboard/workspaces') {
				return json([])
			}
			return undefined
		})
		renderPage(ChartsPage, '/charts', '/charts')
		expect(await screen.findByRole('heading', { name: 'No charts yet' })).toBeInTheDocument()
		expect(await screen.findByRole('link', { name: 'Create the sample workspace' })).toHaveAttribute(
			'href',
			'/workspaces',
		)
	})

	test('a failure to load is said, not shown as an empty list', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/local_charts/charts') {
				return json([])
			}
			if (path === '/dashboard/workspaces') {
				return json([workspace])
			}
			return undefined
		})
		renderPage(ChartsPage, '/charts', '/charts')
		expect(await screen.findByText('Your charts could not be loaded')).toBeInTheDocument()
		expect(screen.queryByRole('heading', { name: 'No charts yet' })).toBeNull()
	})
})
