import { type Dashboard, dashboardEmbedSchema, type UpdateDashboard } from '@blocksmith/contracts/charts.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { stubMatchMedia } from '#src/test/match-media.ts'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { makeChart, makeRender } from '../lib/testing.tsx'
import { DashboardEditorPage } from './dashboard-editor-page.tsx'

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

const charts = [
	makeChart({ id: 'c1', name: 'Deals by stage' }),
	makeChart({ id: 'c2', name: 'Revenue by month', tool: 'notion' }),
	makeChart({ id: 'c4', name: 'Open tasks' }),
]

type ServerOptions = { refusePatch?: (changes: UpdateDashboard) => Response | undefined }

/** A server that keeps one dashboard, applies PATCHes and draws each chart as an SVG named after it. */
function dashboardServer(initial: Dashboard = makeDashboard(), options: ServerOptions = {}) {
	let dashboard = initial
	const patches: UpdateDashboard[] = []
	const renders: { path: string; width: string | null; theme: string | null }[] = []
	const api = mockApi(({ method, path, body, search }) => {
		if (path === '/dashboard/charts/dashboards/d1' && method === 'GET') {
			return json(dashboard)
		}
		if (path === '/dashboard/charts/dashboards/d1' && method === 'PATCH') {
			const changes = body as UpdateDashboard
			patches.push(changes)
			const refusal = options.refusePatch?.(changes)
			if (refusal) {
				return refusal
			}
			dashboard = { ...dashboard, ...(changes as Partial<Dashboard>), updatedAt: new Date().toISOString() }
			return json(dashboard)
		}
		const drawn = /^\/dashboard\/(local|notion)_charts\/charts\/(\w+)\/render$/.exec(path)
		if (drawn) {
			renders.push({ path, width: search.get('width'), theme: search.get('theme') })
			const chart = charts.find((candidate) => candidate.id === drawn[2])
			return json(makeRender({}, `<svg role="img" aria-label="Drawing of ${chart?.name}"></svg>`))
		}
		if (path === '/dashboard/local_charts/charts') {
			return json(charts.filter((chart) => chart.tool === 'local'))
		}
		if (path === '/dashboard/notion_charts/charts') {
			return json(charts.filter((chart) => chart.tool === 'notion'))
		}
		if (path === '/dashboard/charts/dashboards') {
			return json([dashboard])
		}
		return undefined
	})
	return { ...api, patches, renders }
}

function renderEditor() {
	return renderPage(DashboardEditorPage, '/charts/dashboards/:id/edit', '/charts/dashboards/d1/edit')
}

function tile(name: string): HTMLElement {
	return screen.getByRole('region', { name })
}

async function tileAction(user: ReturnType<typeof renderEditor>['user'], name: string, action: string) {
	await user.click(within(tile(name)).getByRole('button', { name: `Tile actions for ${name}` }))
	await user.click(await screen.findByRole('menuitem', { name: action }))
}

describe('the dashboard editor', () => {
	test('shows each tile with its chart’s name and drawing, drawn through the chart’s own tool', async () => {
		const server = dashboardServer()
		renderEditor()
		expect(await screen.findByRole('heading', { level: 1, name: 'Sales overview' })).toBeInTheDocument()
		await screen.findByRole('region', { name: 'Deals by stage' })
		expect(await within(tile('Deals by stage')).findByRole('img', { name: 'Drawing of Deals by stage' }))
		expect(await within(tile('Revenue by month')).findByRole('img', { name: 'Drawing of Revenue by month' }))
		expect(within(tile('Deals by stage')).getByRole('link', { name: 'Deals by stage' })).toHaveAttribute(
			'href',
			'/charts/c1/edit?tool=local',
		)
		expect(server.renders.map((render) => render.path).sort()).toEqual([
			'/dashboard/local_charts/charts/c1/render',
			'/dashboard/notion_charts/charts/c2/render',
		])
		// Half of a 1200 px grid, less the gaps and the tile's padding, in steps of 40 px; the app's theme.
		expect(server.renders[0]).toMatchObject({ width: '560', theme: 'light' })
		expect(screen.getByText('All changes saved')).toBeInTheDocument()
		expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
	})

	test('in dark mode the tiles are drawn dark', async () => {
		stubMatchMedia(true)
		const server = dashboardServer()
		renderEditor()
		await screen.findByRole('img', { name: 'Drawing of Deals by stage' })
		expect(server.renders.every((render) => render.theme === 'dark')).toBe(true)
	})

	test('a chart drawn with problems says so on its tile', async () => {
		const problems = makeRender(
			{ problems: [{ field: 'x.property', message: 'The grouped-by property was deleted.' }] },
			'',
		)
		mockApi(({ method, path }) => {
			if (path === '/dashboard/charts/dashboards/d1' && method === 'GET') {
				return json(makeDashboard({ tiles: [{ chartId: 'c1', x: 0, y: 0, w: 12, h: 8 }] }))
			}
			if (path.endsWith('/render')) {
				return json(problems)
			}
			if (path === '/dashboard/local_charts/charts') {
				return json([charts[0]])
			}
			if (path === '/dashboard/notion_charts/charts') {
				return json([])
			}
			return undefined
		})
		renderEditor()
		const alert = await within(await screen.findByRole('region', { name: 'Deals by stage' })).findByRole('alert')
		expect(alert).toHaveTextContent('The grouped-by property was deleted.')
		expect(within(alert).getByRole('link', { name: 'Fix it in the chart' })).toHaveAttribute(
			'href',
			'/charts/c1/edit?tool=local',
		)
	})

	test('a removed chart shows as such, and removing its tile is saved with Save', async () => {
		const server = dashboardServer(
			makeDashboard({
				tiles: [
					{ chartId: 'c1', x: 0, y: 0, w: 6, h: 8 },
					{ chartId: 'gone', x: 6, y: 0, w: 6, h: 8 },
				],
			}),
		)
		const { user } = renderEditor()
		const removed = await screen.findByRole('region', { name: 'Removed chart' })
		expect(within(removed).getByText(/This chart was deleted/)).toBeInTheDocument()
		await user.click(within(removed).getByRole('button', { name: 'Remove the tile' }))
		expect(screen.queryByRole('region', { name: 'Removed chart' })).toBeNull()
		expect(screen.getByText('Unsaved changes')).toBeInTheDocument()
		expect(server.patches).toEqual([])

		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]?.tiles).toEqual([{ chartId: 'c1', x: 0, y: 0, w: 6, h: 8 }])
		expect(await screen.findByText('All changes saved')).toBeInTheDocument()
	})

	test('adds a chart that is not on the board yet, at the bottom, and removes another; Save sends the tiles', async () => {
		const server = dashboardServer()
		const { user } = renderEditor()
		await screen.findByRole('img', { name: 'Drawing of Deals by stage' })
		await user.click(screen.getByRole('button', { name: 'Add chart' }))
		const dialog = await screen.findByRole('dialog', { name: 'Add charts' })
		// Only the charts not on the dashboard are offered.
		expect(within(dialog).getAllByRole('checkbox')).toHaveLength(1)
		await user.click(within(dialog).getByRole('checkbox', { name: /Open tasks/ }))
		await user.click(within(dialog).getByRole('button', { name: 'Add chart' }))
		expect(await within(tile('Open tasks')).findByRole('img', { name: 'Drawing of Open tasks' })).toBeInTheDocument()

		await tileAction(user, 'Revenue by month', 'Remove from the dashboard')
		expect(screen.queryByRole('region', { name: 'Revenue by month' })).toBeNull()

		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		// The new tile went below the others, then rose into the room the removed one left.
		expect(server.patches[0]?.tiles).toEqual([
			{ chartId: 'c1', x: 0, y: 0, w: 6, h: 8 },
			{ chartId: 'c4', x: 0, y: 8, w: 6, h: 8 },
		])
	})

	test('the tile menu moves and resizes a tile from the keyboard; Ctrl+S saves', async () => {
		const server = dashboardServer()
		const { user } = renderEditor()
		await screen.findByRole('img', { name: 'Drawing of Revenue by month' })
		await tileAction(user, 'Revenue by month', 'Move earlier')
		await user.keyboard('{Escape}')
		await tileAction(user, 'Revenue by month', 'Taller')
		await user.keyboard('{Escape}')
		expect(screen.getByText('Unsaved changes')).toBeInTheDocument()

		await user.keyboard('{Control>}s{/Control}')
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]?.tiles).toEqual([
			{ chartId: 'c1', x: 6, y: 0, w: 6, h: 8 },
			{ chartId: 'c2', x: 0, y: 0, w: 6, h: 9 },
		])
	})

	test('a wider tile pushes its neighbour down', async () => {
		const server = dashboardServer()
		const { user } = renderEditor()
		await screen.findByRole('img', { name: 'Drawing of Deals by stage' })
		await tileAction(user, 'Deals by stage', 'Wider')
		await user.keyboard('{Escape}')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]?.tiles).toEqual([
			{ chartId: 'c1', x: 0, y: 0, w: 7, h: 8 },
			{ chartId: 'c2', x: 6, y: 8, w: 6, h: 8 },
		])
	})

	test('renames and describes the dashboard', async () => {
		const server = dashboardServer()
		const { user } = renderEditor()
		await user.click(await screen.findByRole('tab', { name: 'Details' }))
		const name = screen.getByRole('textbox', { name: 'Name' })
		await user.clear(name)
		await user.type(name, 'Board')
		await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Every Monday')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]).toMatchObject({ name: 'Board', description: 'Every Monday' })
		expect(await screen.findByRole('heading', { level: 1, name: 'Board' })).toBeInTheDocument()
	})

	test('a refused save (400) shows its message, on the tile at fault', async () => {
		const server = dashboardServer(makeDashboard(), {
			refusePatch: () =>
				problem(400, 'VALIDATION_FAILED', 'Some tiles need another look.', [
					{ field: 'tiles.1.chartId', message: 'There is no such chart in this organization.' },
				]),
		})
		const { user } = renderEditor()
		await screen.findByRole('img', { name: 'Drawing of Deals by stage' })
		await tileAction(user, 'Deals by stage', 'Shorter')
		await user.keyboard('{Escape}')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(await screen.findByText('Not saved: Some tiles need another look.')).toBeInTheDocument()
		expect(within(tile('Revenue by month')).getByRole('alert')).toHaveTextContent(
			'There is no such chart in this organization.',
		)
		expect(within(tile('Deals by stage')).queryByRole('alert')).toBeNull()
	})

	test('the publish switch PATCHes published at once and shows the public and embed links', async () => {
		const server = dashboardServer()
		const { user } = renderEditor()
		await user.click(await screen.findByRole('tab', { name: 'Share' }))
		expect(screen.queryByRole('textbox', { name: 'Public link' })).toBeNull()
		const published = screen.getByRole('switch', { name: 'Published' })
		expect(published).toHaveAccessibleDescription(/never the rows.*even charts that are not published on their own/)
		await user.click(published)
		await waitFor(() => expect(server.patches).toEqual([{ published: true }]))
		expect(await screen.findByRole('textbox', { name: 'Public link' })).toHaveValue(
			`${window.location.origin}/charts/dashboards/d1`,
		)
		expect(screen.getByRole('textbox', { name: 'Embed link' })).toHaveValue(
			`${window.location.origin}/charts/dashboards/d1?theme=auto`,
		)
		expect(screen.getByRole('link', { name: 'Open public page' })).toHaveAttribute('target', '_blank')
		expect(screen.getByRole('switch', { name: 'Published' })).toBeChecked()

		await user.click(screen.getByRole('button', { name: 'Copy the embed link' }))
		await waitFor(async () =>
			expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/charts/dashboards/d1?theme=auto`),
		)
	})

	test('embed settings are saved with Save', async () => {
		const server = dashboardServer()
		const { user } = renderEditor()
		await user.click(await screen.findByRole('tab', { name: 'Share' }))
		await user.click(screen.getByRole('switch', { name: 'Show the titles' }))
		await user.click(screen.getByRole('combobox', { name: 'Theme' }))
		await user.click(await screen.findByRole('option', { name: 'Dark' }))
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]?.embed).toEqual({
			theme: 'dark',
			transparent: true,
			refreshSeconds: null,
			showTitle: false,
		})
	})
})
