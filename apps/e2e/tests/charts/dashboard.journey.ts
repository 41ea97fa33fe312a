import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'
import { choose, createSampleWorkspace, newChart, otherToolsAnswer, saveChart, toast } from './charts-steps.ts'

// A dashboard of two charts: made from the charts' list, one tile made taller and moved after
// the other with its keyboard menu, saved, published, and seen anonymously with both drawings.

const browser = useBrowser()

type Tile = { chartId: string; x: number; y: number; w: number; h: number }

/** The tiles in reading order (row by row, left to right). */
function readingOrder(tiles: Tile[]): Tile[] {
	return [...tiles].sort((left, right) => left.y - right.y || left.x - right.x)
}

/**
 * Opens a tile's menu and picks `items` in turn (it stays open between nudges), then closes it
 * with Escape: while it is open, the rest of the page is hidden from assistive technology.
 */
async function arrange(page: Page, chart: string, items: string[]): Promise<void> {
	await page.getByRole('button', { name: `Tile actions for ${chart}` }).click()
	const menu = page.getByRole('menu')
	for (const item of items) {
		await menu.getByRole('menuitem', { name: item }).click()
	}
	await page.keyboard.press('Escape')
	await menu.waitFor({ state: 'detached' })
}

test('a dashboard of two charts: arranged with the keyboard menu, saved, published and seen anonymously', async (t) => {
	const account = await api.signUp({ name: 'Dana Dashboard' })
	const { page, context, problems } = await newPage(browser(), { account, viewport: { width: 1440, height: 900 } })
	t.after(() => context.close())
	await createSampleWorkspace(page)

	// A new chart starts as a count by its database's first useful property: Status, in both.
	await newChart(page, 'Invoices', 'Invoices by status')
	await page.getByRole('combobox', { name: 'Group by', exact: true }).filter({ hasText: 'Status' }).waitFor()
	const projectsId = await newChart(page, 'Projects', 'Projects by status')
	await choose(page, 'Group by', 'Client')
	await saveChart(page)

	// A new dashboard with both, placed two to a row in the order ticked.
	await page.goto('/charts?view=dashboards')
	await page.getByRole('button', { name: 'New dashboard' }).first().click()
	const dialog = page.getByRole('dialog', { name: 'New dashboard' })
	await dialog.getByRole('textbox', { name: 'Name' }).fill('Studio overview')
	await dialog.getByRole('checkbox', { name: /Invoices by status/ }).check()
	await dialog.getByRole('checkbox', { name: /Projects by status/ }).check()
	await dialog.getByRole('button', { name: 'Create dashboard' }).click()
	await page.waitForURL(/\/charts\/dashboards\/[^/]+\/edit$/)
	const dashboardId = decodeURIComponent(/\/charts\/dashboards\/([^/]+)\/edit$/.exec(page.url())?.[1] ?? '')
	const tile = (name: string) => page.getByRole('region', { name, exact: true })
	for (const name of ['Invoices by status', 'Projects by status']) {
		await tile(name).locator('svg').first().waitFor()
	}
	const created = await api.callOk<{ tiles: Tile[] }>(`/dashboard/charts/dashboards/${dashboardId}`, {
		token: account.token,
	})
	const first = readingOrder(created.tiles)[0]
	assert.ok(first)
	assert.notEqual(first.chartId, projectsId, 'Invoices by status was ticked first')
	const startSize = `${first.w}×${first.h}`
	await tile('Invoices by status').getByText(startSize, { exact: true }).waitFor()

	// Taller by two rows, then after the other tile: from its menu, no dragging.
	await arrange(page, 'Invoices by status', ['Taller', 'Taller'])
	await tile('Invoices by status')
		.getByText(`${first.w}×${first.h + 2}`, { exact: true })
		.waitFor()
	await arrange(page, 'Invoices by status', ['Move later'])
	await page.getByText('Unsaved changes').waitFor()
	await page.getByRole('toolbar', { name: 'Save' }).getByRole('button', { name: 'Save', exact: true }).click()
	await page.getByText('All changes saved').waitFor()

	const saved = readingOrder(
		(await api.callOk<{ tiles: Tile[] }>(`/dashboard/charts/dashboards/${dashboardId}`, { token: account.token }))
			.tiles,
	)
	assert.deepEqual(
		saved.map((item) => item.chartId),
		[projectsId, first.chartId],
		'Projects by status comes first now',
	)
	assert.equal(saved[1]?.h, first.h + 2, 'the moved tile kept its new height')

	// Published, and seen by anyone with the link: both tiles drawn.
	await page.getByRole('tab', { name: 'Share' }).click()
	await page.getByRole('switch', { name: 'Published' }).click()
	await page.getByRole('switch', { name: 'Published', checked: true }).waitFor()
	await toast(page, 'The dashboard is published.').waitFor()

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const response = await visitor.page.goto(`/charts/dashboards/${dashboardId}?theme=light`)
	assert.equal(response?.status(), 200)
	await visitor.page.getByRole('heading', { level: 1, name: 'Studio overview' }).waitFor()
	const tiles = visitor.page.locator('section.bs-tile')
	assert.equal(await tiles.count(), 2)
	assert.deepEqual(await tiles.locator('h2').allTextContents(), ['Projects by status', 'Invoices by status'])
	for (const index of [0, 1]) {
		assert.ok((await tiles.nth(index).locator('.bs-chart-svg svg').count()) >= 1, `tile ${index + 1} is drawn`)
	}
	// The taller tile spans more grid rows than the other.
	const heights = await tiles.evaluateAll((sections) =>
		sections.map((section) => section.getBoundingClientRect().height),
	)
	assert.ok((heights[1] ?? 0) > (heights[0] ?? 0), `the moved tile is taller: ${heights.join(', ')}`)

	// On a phone the tiles stack in one column, in reading order, each its own height.
	await visitor.page.setViewportSize({ width: 390, height: 844 })
	const stacked = await tiles.evaluateAll((sections) =>
		sections.map((section) => {
			const box = section.getBoundingClientRect()
			return { top: box.top, bottom: box.bottom, width: box.width }
		}),
	)
	assert.ok((stacked[0]?.bottom ?? 0) <= (stacked[1]?.top ?? 0), `one under the other: ${JSON.stringify(stacked)}`)
	assert.ok(
		(stacked[1]?.bottom ?? 0) - (stacked[1]?.top ?? 0) > (stacked[0]?.bottom ?? 0) - (stacked[0]?.top ?? 0),
		'the taller tile is still taller',
	)

	// Each tile is redrawn at the phone's width, not the desktop drawing shrunk to it.
	const drawnWidths = () =>
		tiles.evaluateAll((sections) =>
			sections.map((section) => {
				const svg = section.querySelector('.bs-chart-svg svg')
				const body = section.querySelector('.bs-chart-body')
				return { drawn: Number(svg?.getAttribute('width')), room: body?.clientWidth ?? 0 }
			}),
		)
	const deadline = Date.now() + 10_000
	let widths = await drawnWidths()
	while (widths.some(({ drawn, room }) => Math.abs(drawn - room) > room * 0.2) && Date.now() < deadline) {
		await visitor.page.waitForTimeout(100)
		widths = await drawnWidths()
	}
	for (const { drawn, room } of widths) {
		assert.ok(room < 400 && Math.abs(drawn - room) <= room * 0.2, `drawn for the phone: ${JSON.stringify(widths)}`)
	}

	assertNoProblems(problems, [otherToolsAnswer])
	assertNoProblems(visitor.problems)
})
