import { type Dashboard, dashboardEmbedSchema, type UpdateDashboard } from '@blocksmith/contracts/charts.ts'
import { act, screen, waitFor } from '@testing-library/react'
import type { GridLayoutProps, Layout } from 'react-grid-layout'
import { describe, expect, test, vi } from 'vitest'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { makeChart, makeRender } from '../lib/testing.tsx'
import { DashboardEditorPage } from './dashboard-editor-page.tsx'

// Dragging needs a real pointer and real boxes, which jsdom has neither of: the grid is replaced
// by a stand-in that keeps its props, and the test plays the part of a finished drag by calling
// `onLayoutChange` with the layout the library would report.

const grid = vi.hoisted(() => ({ props: undefined as GridLayoutProps | undefined }))

vi.mock('react-grid-layout', async (importOriginal) => {
	const actual = await importOriginal<typeof import('react-grid-layout')>()
	return {
		...actual,
		default: (props: GridLayoutProps) => {
			grid.props = props
			return <div data-testid="grid">{props.children}</div>
		},
	}
})

const charts = [makeChart({ id: 'c1', name: 'Deals by stage' }), makeChart({ id: 'c2', name: 'Revenue by month' })]

function dashboardServer(tiles: Dashboard['tiles']) {
	let dashboard: Dashboard = {
		id: 'd1',
		name: 'Sales overview',
		description: null,
		tiles,
		embed: dashboardEmbedSchema.parse({}),
		published: false,
		createdAt: '2026-01-01T10:00:00.000Z',
		updatedAt: '2026-01-02T10:00:00.000Z',
	}
	const patches: UpdateDashboard[] = []
	mockApi(({ method, path, body }) => {
		if (path === '/dashboard/charts/dashboards/d1' && method === 'GET') {
			return json(dashboard)
		}
		if (path === '/dashboard/charts/dashboards/d1' && method === 'PATCH') {
			patches.push(body as UpdateDashboard)
			dashboard = { ...dashboard, ...(body as Partial<Dashboard>) }
			return json(dashboard)
		}
		if (path.endsWith('/render')) {
			return json(makeRender())
		}
		if (path === '/dashboard/local_charts/charts') {
			return json(charts)
		}
		if (path === '/dashboard/notion_charts/charts' || path === '/dashboard/charts/dashboards') {
			return json([])
		}
		return undefined
	})
	return { patches }
}

function layoutOf(props: GridLayoutProps | undefined): Layout {
	return (props?.layout ?? []).map(({ i, x, y, w, h }) => ({ i, x, y, w, h }))
}

describe('the dashboard editor’s grid', () => {
	test('a dragged and resized tile is kept as the grid reports it, and saved with Save', async () => {
		const server = dashboardServer([
			{ chartId: 'c1', x: 0, y: 0, w: 6, h: 8 },
			{ chartId: 'c2', x: 6, y: 0, w: 6, h: 8 },
		])
		const { user } = renderPage(DashboardEditorPage, '/charts/dashboards/:id/edit', '/charts/dashboards/d1/edit')
		await screen.findByRole('region', { name: 'Deals by stage' })
		expect(layoutOf(grid.props)).toEqual([
			{ i: 'c1', x: 0, y: 0, w: 6, h: 8 },
			{ i: 'c2', x: 6, y: 0, w: 6, h: 8 },
		])
		expect(grid.props?.gridConfig).toMatchObject({ cols: 12, rowHeight: 28, margin: [12, 12] })

		// The grid reports the layout it was given when it mounts: nothing changed.
		act(() => grid.props?.onLayoutChange?.(grid.props.layout ?? []))
		expect(screen.getByText('All changes saved')).toBeInTheDocument()

		// Revenue dragged to the top, full width; Deals pushed below it and made taller.
		act(() =>
			grid.props?.onLayoutChange?.([
				{ i: 'c1', x: 0, y: 6, w: 6, h: 10 },
				{ i: 'c2', x: 0, y: 0, w: 12, h: 6 },
			]),
		)
		expect(screen.getByText('Unsaved changes')).toBeInTheDocument()
		expect(layoutOf(grid.props)).toEqual([
			{ i: 'c1', x: 0, y: 6, w: 6, h: 10 },
			{ i: 'c2', x: 0, y: 0, w: 12, h: 6 },
		])

		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]?.tiles).toEqual([
			{ chartId: 'c1', x: 0, y: 6, w: 6, h: 10 },
			{ chartId: 'c2', x: 0, y: 0, w: 12, h: 6 },
		])
		expect(await screen.findByText('All changes saved')).toBeInTheDocument()
	})

	test('a saved layout with gaps opens as the grid shows it (gaps closed), without unsaved changes', async () => {
		dashboardServer([
			{ chartId: 'c1', x: 0, y: 4, w: 6, h: 8 },
			{ chartId: 'c2', x: 6, y: 20, w: 6, h: 8 },
		])
		renderPage(DashboardEditorPage, '/charts/dashboards/:id/edit', '/charts/dashboards/d1/edit')
		await screen.findByRole('region', { name: 'Deals by stage' })
		expect(layoutOf(grid.props)).toEqual([
			{ i: 'c1', x: 0, y: 0, w: 6, h: 8 },
			{ i: 'c2', x: 6, y: 0, w: 6, h: 8 },
		])
		expect(screen.getByText('All changes saved')).toBeInTheDocument()
	})
})
