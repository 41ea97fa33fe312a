import { type Dashboard, dashboardEmbedSchema } from '@blocksmith/contracts/charts.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { makeChart } from '../lib/testing.tsx'
import { ChartsPage } from '../routes/charts-page.tsx'

function makeDashboard(changes: Partial<Dashboard> = {}): Dashboard {
	return {
		id: 'd1',
		name: 'Sales overview',
		description: null,
		tiles: [
			{ chartId: 'c1', x: 0, y: 0, w: 6, h: 8 },
			{ chartId: 'c2', x: 6, y: 0, w: 6, h: 8 },
		],
		embed: dashboardEmbedSchema.parse({}),
		published: false,
		createdAt: '2026-01-01T10:00:00.000Z',
		updatedAt: '2026-01-02T10:00:00.000Z',
		...changes,
	}
}

const charts = [makeChart({ id: 'c1', name: 'Deals by stage' }), makeChart({ id: 'c2', name: 'Revenue by month' })]

function renderDashboards() {
	return renderPage(ChartsPage, '/charts', '/charts?view=dashboards')
}

describe('the dashboards on the charts page', () => {
	test('lists each dashboard with its charts, state and last change; the URL keeps the view', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/charts/dashboards') {
				return json([
					makeDashboard(),
					makeDashboard({
						id: 'd2',
						name: 'Team board',
						description: 'Weekly numbers',
						published: true,
						tiles: [{ chartId: 'c1', x: 0, y: 0, w: 12, h: 8 }],
					}),
				])
			}
			if (path === '/dashboard/local_charts/charts') {
				return json(charts)
			}
			if (path === '/dashboard/notion_charts/charts' || path === '/dashboard/workspaces') {
				return json([])
			}
			return undefined
		})
		const { user, router } = renderDashboards()
		expect(screen.getByRole('tab', { name: 'Dashboards' })).toHaveAttribute('aria-selected', 'true')
		const table = await screen.findByRole('table', { name: 'Dashboards' })
		const [sales, team] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement]
		expect(within(sales).getByRole('link', { name: 'Sales overview' })).toHaveAttribute(
			'href',
			'/charts/dashboards/d1/edit',
		)
		expect(within(sales).getByText('2 charts')).toBeInTheDocument()
		expect(within(sales).getByText('Draft')).toBeInTheDocument()
		expect(within(team).getByText('1 chart')).toBeInTheDocument()
		expect(within(team).getByText('Published')).toBeInTheDocument()
		expect(within(team).getByText('Weekly numbers')).toBeInTheDocument()
		expect(screen.getByRole('button', { name: 'New dashboard' })).toBeInTheDocument()

		await user.click(screen.getByRole('tab', { name: 'Charts' }))
		expect(router.state.location.search).toBe('')
		expect(await screen.findByRole('table', { name: 'Charts' })).toBeInTheDocument()
		await user.click(screen.getByRole('tab', { name: 'Dashboards' }))
		expect(router.state.location.search).toBe('?view=dashboards')
		expect(await screen.findByRole('table', { name: 'Dashboards' })).toBeInTheDocument()
	})

	test('a published dashboard’s menu opens its public page and copies its embed link', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/charts/dashboards') {
				return json([makeDashboard({ published: true })])
			}
			if (path.endsWith('_charts/charts')) {
				return json(charts)
			}
			return undefined
		})
		const { user } = renderDashboards()
		await user.click(await screen.findByRole('button', { name: 'Actions for Sales overview' }))
		expect(await screen.findByRole('menuitem', { name: 'Open public page' })).toHaveAttribute(
			'href',
			'/charts/dashboards/d1',
		)
		await user.click(screen.getByRole('menuitem', { name: 'Copy embed link' }))
		await waitFor(async () =>
			expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/charts/dashboards/d1?theme=auto`),
		)
	})

	test('with none, says what a dashboard is; the dialog posts the picked charts and opens the editor', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/charts/dashboards' && method === 'GET') {
				return json([])
			}
			if (path === '/dashboard/charts/dashboards' && method === 'POST') {
				return json(makeDashboard({ id: 'd9', name: 'Board' }), 201)
			}
			if (path === '/dashboard/local_charts/charts') {
				return json(charts)
			}
			if (path === '/dashboard/notion_charts/charts') {
				return json([])
			}
			return undefined
		})
		const { user, router } = renderDashboards()
		expect(await screen.findByRole('heading', { name: 'No dashboards yet' })).toBeInTheDocument()
		expect(screen.getByText(/puts several charts on one page you can embed in Notion/)).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'New dashboard' }))
		const dialog = await screen.findByRole('dialog', { name: 'New dashboard' })

		// A name is needed first.
		await user.click(within(dialog).getByRole('button', { name: 'Create dashboard' }))
		expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
			'Give the dashboard a name.',
		)
		expect(api.calls.some((call) => call.method === 'POST')).toBe(false)

		await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Board')
		// Ticked in this order: placed in this order.
		await user.click(await within(dialog).findByRole('checkbox', { name: /Revenue by month/ }))
		await user.click(within(dialog).getByRole('checkbox', { name: /Deals by stage/ }))
		expect(within(dialog).getByText('(2 picked)')).toBeInTheDocument()
		await user.click(within(dialog).getByRole('button', { name: 'Create dashboard' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/charts/dashboards/d9/edit'))
		expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'Board', chartIds: ['c2', 'c1'] })
	})

	test('with no charts yet, says to make a chart first and links to the charts', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/charts/dashboards' || path.endsWith('_charts/charts')) {
				return json([])
			}
			return undefined
		})
		renderDashboards()
		expect(await screen.findByRole('heading', { name: 'No dashboards yet' })).toBeInTheDocument()
		expect(await screen.findByRole('link', { name: 'Make a chart first' })).toHaveAttribute('href', '/charts')
		expect(screen.queryByRole('button', { name: 'New dashboard' })).toBeNull()
	})

	test('an owner deletes a dashboard after a confirmation', async () => {
		let dashboards = [makeDashboard(), makeDashboard({ id: 'd2', name: 'Team board' })]
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/charts/dashboards') {
				return json(dashboards)
			}
			if (path === '/dashboard/charts/dashboards/d2' && method === 'DELETE') {
				dashboards = dashboards.filter((dashboard) => dashboard.id !== 'd2')
				return json({ success: true })
			}
			if (path.endsWith('_charts/charts')) {
				return json(charts)
			}
			return undefined
		})
		const { user } = renderDashboards()
		await user.click(await screen.findByRole('button', { name: 'Actions for Team board' }))
		await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
		const confirm = await screen.findByRole('alertdialog', { name: 'Delete Team board?' })
		expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false)
		await user.click(within(confirm).getByRole('button', { name: 'Delete dashboard' }))
		await waitFor(() => expect(screen.queryByRole('link', { name: 'Team board' })).toBeNull())
		expect(screen.getByRole('link', { name: 'Sales overview' })).toBeInTheDocument()
	})

	test('a member is told only owners and admins delete; a refusal from the server is shown in the dialog', async () => {
		mockApi(
			({ path }) => {
				if (path === '/dashboard/charts/dashboards') {
					return json([makeDashboard()])
				}
				if (path.endsWith('_charts/charts')) {
					return json(charts)
				}
				return undefined
			},
			{ role: 'member' },
		)
		const { user } = renderDashboards()
		await user.click(await screen.findByRole('button', { name: 'Actions for Sales overview' }))
		const item = await screen.findByRole('menuitem', { name: /Delete/ })
		expect(item).toHaveAttribute('aria-disabled', 'true')
		expect(item).toHaveTextContent('Only an owner or admin can delete a dashboard.')
	})

	test('when the server refuses a delete (403: the role changed since the page loaded), its message is shown', async () => {
		mockApi(({ method, path }) => {
			if (path === '/dashboard/charts/dashboards') {
				return json([makeDashboard()])
			}
			if (path === '/dashboard/charts/dashboards/d1' && method === 'DELETE') {
				return problem(403, 'FORBIDDEN', 'Only an owner or admin can delete a dashboard. Ask one of them to do it.')
			}
			if (path.endsWith('_charts/charts')) {
				return json(charts)
			}
			return undefined
		})
		const { user } = renderDashboards()
		await user.click(await screen.findByRole('button', { name: 'Actions for Sales overview' }))
		await user.click(await screen.findByRole('menuitem', { name: 'Delete' }))
		const confirm = await screen.findByRole('alertdialog', { name: 'Delete Sales overview?' })
		await user.click(within(confirm).getByRole('button', { name: 'Delete dashboard' }))
		expect(
			await within(confirm).findByText('Only an owner or admin can delete a dashboard. Ask one of them to do it.'),
		).toBeInTheDocument()
		// The dialog stays open (to retry or cancel) and the dashboard stays listed behind it.
		expect(confirm).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Sales overview', hidden: true })).toBeInTheDocument()
	})
})
