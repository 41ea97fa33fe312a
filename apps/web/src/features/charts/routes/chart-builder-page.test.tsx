import type { Chart, ChartConfig, ChartPreviewRequest, ChartRender, UpdateChart } from '@blocksmith/contracts/charts.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { stubMatchMedia } from '#src/test/match-media.ts'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { database, makeChart, makeConfig, makeRender, workspace } from '../lib/testing.tsx'
import { ChartBuilderPage } from './chart-builder-page.tsx'

type ServerOptions = {
	/** The preview's answer for the settings sent (it may take its time). */
	render?: (config: ChartConfig) => ChartRender | Promise<ChartRender>
	/** A save's answer instead of applying it. */
	refusePatch?: (changes: UpdateChart) => Response | undefined
}

/** A server that keeps one chart on the built-in tool, applies PATCHes and draws previews. */
function chartServer(initial: Chart = makeChart(), options: ServerOptions = {}) {
	let chart = initial
	const patches: UpdateChart[] = []
	const previews: ChartPreviewRequest[] = []
	const api = mockApi(({ method, path, body }) => {
		if (path === '/dashboard/local_charts/charts/c1' && method === 'GET') {
			return json(chart)
		}
		if (path === '/dashboard/local_charts/charts/c1' && method === 'PATCH') {
			const changes = body as UpdateChart
			patches.push(changes)
			const refusal = options.refusePatch?.(changes)
			if (refusal) {
				return refusal
			}
			chart = { ...chart, ...(changes as Partial<Chart>), updatedAt: new Date().toISOString() }
			return json(chart)
		}
		if (path === '/dashboard/local_charts/preview' && method === 'POST') {
			const request = body as ChartPreviewRequest
			previews.push(request)
			return (async () => json((await options.render?.(request.config as ChartConfig)) ?? makeRender()))()
		}
		if (path === '/dashboard/local/databases/db1') {
			return json(database)
		}
		if (path === '/dashboard/workspaces') {
			return json([workspace])
		}
		if (path.endsWith('_charts/charts')) {
			return json([chart])
		}
		return undefined
	})
	return { ...api, patches, previews }
}

function renderBuilder() {
	return renderPage(ChartBuilderPage, '/charts/:id/edit', '/charts/c1/edit')
}

/** The latest preview asked for, once one matching `check` was asked. */
async function previewWhere(server: ReturnType<typeof chartServer>, check: (request: ChartPreviewRequest) => boolean) {
	await waitFor(() => expect(server.previews.some(check)).toBe(true))
	return server.previews.filter(check).at(-1) as ChartPreviewRequest
}

async function choose(user: ReturnType<typeof renderBuilder>['user'], combobox: HTMLElement, option: string) {
	await user.click(combobox)
	await user.click(await screen.findByRole('option', { name: option }))
}

describe('the chart builder', () => {
	test('asks only the tool its link names for the chart, and both tools when the link names none', async () => {
		const named = chartServer()
		const first = renderPage(ChartBuilderPage, '/charts/:id/edit', '/charts/c1/edit?tool=local')
		expect(await screen.findByRole('img', { name: 'Drawn chart' })).toBeInTheDocument()
		const chartReads = (calls: { method: string; path: string }[]) =>
			calls.filter((call) => call.method === 'GET' && /_charts\/charts\/c1$/.test(call.path)).map((call) => call.path)
		expect(chartReads(named.calls)).toEqual(['/dashboard/local_charts/charts/c1'])
		first.unmount()

		const unnamed = chartServer()
		renderBuilder()
		expect(await screen.findByRole('img', { name: 'Drawn chart' })).toBeInTheDocument()
		expect(chartReads(unnamed.calls).sort()).toEqual([
			'/dashboard/local_charts/charts/c1',
			'/dashboard/notion_charts/charts/c1',
		])
	})

	test('shows the server’s drawing; a new type is previewed at once and saved with Save', async () => {
		const server = chartServer()
		const { user } = renderBuilder()
		expect(await screen.findByRole('img', { name: 'Drawn chart' })).toBeInTheDocument()
		const first = await previewWhere(server, () => true)
		expect(first).toMatchObject({ databaseId: 'db1', theme: 'light', width: 800 })
		expect(screen.getByText('All changes saved')).toBeInTheDocument()

		await user.click(screen.getByRole('radio', { name: 'Line' }))
		expect(screen.getByText('Unsaved changes')).toBeInTheDocument()
		await previewWhere(server, (request) => request.config.type === 'line')
		expect(server.patches).toEqual([])

		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]?.config).toMatchObject({ type: 'line', x: { property: 'stage' } })
		expect(server.patches[0]).not.toHaveProperty('published')
		expect(await screen.findByText('All changes saved')).toBeInTheDocument()
	})

	test('a donut is a pie with its ring on', async () => {
		const server = chartServer()
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('radio', { name: 'Donut' }))
		const request = await previewWhere(server, (candidate) => candidate.config.type === 'pie')
		expect(request.config.display?.donut).toBe(true)
	})

	test('grouping by a date offers date buckets, and the new grouping is previewed and saved', async () => {
		const server = chartServer()
		const { user } = renderBuilder()
		const groupBy = await screen.findByRole('combobox', { name: /Group by/ })
		expect(screen.queryByRole('combobox', { name: 'Date bucket' })).toBeNull()
		await choose(user, groupBy, 'Closed on')
		await choose(user, await screen.findByRole('combobox', { name: 'Date bucket' }), 'Week')
		await previewWhere(
			server,
			(request) => request.config.x?.property === 'closed' && request.config.x.bucket === 'week',
		)
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches[0]?.config?.x).toMatchObject({ property: 'closed', bucket: 'week' }))
	})

	test('a second series sums a number: only number-valued properties are offered', async () => {
		const server = chartServer()
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('button', { name: 'Add series' }))
		const second = screen.getByRole('group', { name: 'Series 2' })
		await choose(user, within(second).getByRole('combobox', { name: 'Aggregation' }), 'Sum')
		await user.click(within(second).getByRole('combobox', { name: /^Of/ }))
		const offered = (await screen.findAllByRole('option')).map((option) => option.textContent)
		expect(offered).toEqual(['Amount', 'Weighted'])
		await user.click(screen.getByRole('option', { name: 'Amount' }))

		const request = await previewWhere(server, (candidate) => candidate.config.series?.length === 2)
		await waitFor(() =>
			expect(server.previews.at(-1)?.config.series?.[1]).toMatchObject({ aggregation: 'sum', property: 'amount' }),
		)
		expect(request.config.series?.[0]).toMatchObject({ id: 's1', aggregation: 'count' })
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]?.config?.series).toMatchObject([
			{ id: 's1', aggregation: 'count' },
			{ id: 's2', aggregation: 'sum', property: 'amount' },
		])
	})

	test('a deleted property: the problem shows beside its field and in the preview, never a blank', async () => {
		chartServer(makeChart({ config: makeConfig({ x: { property: 'gone' } }) }), {
			render: () =>
				makeRender(
					{ problems: [{ field: 'x.property', message: 'The property this chart is grouped by was deleted.' }] },
					'',
				),
		})
		renderBuilder()
		const groupBy = await screen.findByRole('combobox', { name: /Group by/ })
		await waitFor(() =>
			expect(groupBy).toHaveAccessibleDescription('The property this chart is grouped by was deleted.'),
		)
		expect(groupBy).toHaveAttribute('aria-invalid', 'true')
		expect(groupBy).toHaveTextContent('Removed property')
		const alert = screen.getByRole('alert')
		expect(within(alert).getByText('The property this chart is grouped by was deleted.')).toBeInTheDocument()
		expect(within(alert).getByRole('button', { name: 'Fix it' })).toBeInTheDocument()
		expect(screen.queryByRole('img', { name: 'Drawn chart' })).toBeNull()
	})

	test('field errors of a refused save land on their fields, on their tab', async () => {
		const server = chartServer(makeChart(), {
			refusePatch: () =>
				problem(400, 'VALIDATION_FAILED', 'Some settings need another look.', [
					{ field: 'config.display.title', message: 'Keep the title under 200 characters.' },
				]),
		})
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('radio', { name: 'Area' }))
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		// The Style tab opens by itself, on the field at fault.
		const title = await screen.findByRole('textbox', { name: 'Title' })
		expect(title).toHaveAccessibleDescription(/Keep the title under 200 characters\./)
		expect(screen.getByRole('tab', { name: 'Style' })).toHaveAttribute('aria-selected', 'true')
		expect(screen.getByText(/Not saved/)).toBeInTheDocument()

		await user.type(title, 'Pipeline')
		expect(title).not.toHaveAccessibleDescription(/Keep the title/)
	})

	test('the publish switch publishes at once and shows the public and embed links', async () => {
		const server = chartServer()
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('tab', { name: 'Share' }))
		expect(screen.queryByRole('textbox', { name: 'Public link' })).toBeNull()
		const published = screen.getByRole('switch', { name: 'Published' })
		expect(published).toHaveAccessibleDescription(/never the rows/)
		await user.click(published)
		await waitFor(() => expect(server.patches).toEqual([{ published: true }]))
		expect(await screen.findByRole('textbox', { name: 'Public link' })).toHaveValue(
			`${window.location.origin}/charts/c1`,
		)
		expect(screen.getByRole('textbox', { name: 'Embed link' })).toHaveValue(
			`${window.location.origin}/charts/c1?theme=auto`,
		)
		expect(screen.getByText('Put it in Notion')).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Open public page' })).toHaveAttribute('target', '_blank')
		expect(screen.getByRole('switch', { name: 'Published' })).toBeChecked()
	})

	test('a table is drawn here from the figures', async () => {
		chartServer(makeChart({ config: makeConfig({ type: 'table' }) }), {
			render: () => makeRender({ type: 'table' }, ''),
		})
		renderBuilder()
		const table = await screen.findByRole('table', { name: 'Chart figures' })
		expect(within(table).getByRole('columnheader', { name: 'Count' })).toBeInTheDocument()
		const rows = within(table).getAllByRole('row').slice(1)
		expect(rows.map((row) => row.textContent)).toEqual(['New2', 'Won1'])
	})

	test('in dark mode the preview is drawn dark', async () => {
		stubMatchMedia(true)
		const server = chartServer()
		renderBuilder()
		const request = await previewWhere(server, () => true)
		expect(request.theme).toBe('dark')
	})

	test('while a change is drawn, the previous drawing stays, marked as updating', async () => {
		let release: () => void = () => {}
		const slow = new Promise<void>((resolve) => {
			release = resolve
		})
		chartServer(makeChart(), {
			render: async (config) => {
				if (config.type === 'area') {
					await slow
					return makeRender({ type: 'area' }, '<svg role="img" aria-label="Area chart"></svg>')
				}
				return makeRender()
			},
		})
		const { user } = renderBuilder()
		await screen.findByRole('img', { name: 'Drawn chart' })
		await user.click(screen.getByRole('radio', { name: 'Area' }))
		expect(await screen.findByText('Updating…')).toBeInTheDocument()
		expect(screen.getByRole('img', { name: 'Drawn chart' })).toBeInTheDocument()
		release()
		expect(await screen.findByRole('img', { name: 'Area chart' })).toBeInTheDocument()
		await waitFor(() => expect(screen.queryByText('Updating…')).toBeNull())
	})

	test('filters and the date range are previewed with the chart', async () => {
		const server = chartServer()
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('tab', { name: 'Filters' }))
		await user.click(screen.getByRole('button', { name: 'Add a filter' }))
		const filter = screen.getByRole('group', { name: 'Filter 1' })
		await choose(user, within(filter).getByRole('combobox', { name: 'Filter 1: property' }), 'Stage')
		await choose(user, within(filter).getByRole('combobox', { name: 'Filter 1: value' }), 'Won')
		await choose(user, screen.getByRole('combobox', { name: 'Date property' }), 'Closed on')
		await choose(user, screen.getByRole('combobox', { name: 'Range' }), 'This quarter')
		const request = await previewWhere(server, (candidate) => candidate.config.dateRange?.range === 'this_quarter')
		expect(request.config.filters).toEqual([{ property: 'stage', operator: 'equals', value: 'Won' }])
		expect(request.config.dateRange).toEqual({ property: 'closed', range: 'this_quarter' })
	})
})
