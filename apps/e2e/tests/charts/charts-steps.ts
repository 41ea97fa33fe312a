import assert from 'node:assert/strict'
import type { ChartConfig, ChartRender } from '@blocksmith/contracts/charts.ts'
import type { Page, Response } from 'playwright-core'

// Steps the chart journeys share: the builder's controls as a user reaches them, and the
// preview the server draws for the settings being edited (its answer carries the figures the
// drawing shows, which the journeys compare with the page, the public page and the downloads).

export function toast(page: Page, text: string) {
	return page.locator('[data-sonner-toast]').filter({ hasText: text })
}

/** The sample workspace, made from the workspaces page as a new user does. */
export async function createSampleWorkspace(page: Page): Promise<void> {
	await page.goto('/workspaces')
	await page.getByRole('button', { name: 'Create a sample workspace' }).click()
	await toast(page, 'Your sample workspace is ready').waitFor()
}

/** The chart id of the builder showing. */
function chartIdOf(page: Page): string {
	const id = /^\/charts\/([^/]+)\/edit$/.exec(new URL(page.url()).pathname)?.[1]
	assert.ok(id, `not a chart builder: ${page.url()}`)
	return decodeURIComponent(id)
}

/** New chart on `database` from the charts list; lands in its builder. */
export async function newChart(page: Page, database: string, name: string): Promise<string> {
	await page.goto('/charts')
	await page.getByRole('heading', { level: 1, name: 'Charts' }).waitFor()
	await page.getByRole('button', { name: 'New chart' }).first().click()
	const dialog = page.getByRole('dialog', { name: 'New chart' })
	await dialog.getByRole('combobox', { name: 'Database' }).click()
	await page.getByRole('option', { name: database, exact: true }).click()
	await dialog.getByRole('textbox', { name: 'Name' }).fill(name)
	await dialog.getByRole('button', { name: 'Create chart' }).click()
	await page.waitForURL((url) => /^\/charts\/[^/]+\/edit$/.test(url.pathname))
	await page.getByRole('heading', { level: 1, name }).waitFor()
	return chartIdOf(page)
}

/** Picks `option` in the select labelled `label` (inside `scope`, e.g. a series' fieldset). */
export async function choose(page: Page, label: string, option: string, scope = page.locator('body')): Promise<void> {
	await scope.getByRole('combobox', { name: label, exact: true }).click()
	await page.getByRole('option', { name: option, exact: true }).click()
	await scope.getByRole('combobox', { name: label, exact: true }).filter({ hasText: option }).waitFor()
}

/**
 * Picks a choice drawn as a button around a hidden radio (the chart types, "Stacked"): the
 * visible label is what takes the click; the radio then says it is checked.
 */
export async function pickRadio(page: Page, name: string): Promise<void> {
	const radio = page.getByRole('radio', { name, exact: true })
	await page.locator('label').filter({ has: radio }).click()
	await page.getByRole('radio', { name, exact: true, checked: true }).waitFor()
}

/** The builder's series settings, e.g. series(page, 1). */
export function series(page: Page, index: number) {
	return page.getByRole('group', { name: `Series ${index}`, exact: true })
}

function isPreview(response: Response): boolean {
	return response.request().method() === 'POST' && /\/dashboard\/(local|notion)_charts\/preview$/.test(response.url())
}

/**
 * The preview the builder asks for after `action`, once one matches `accepts` (the settings
 * it was asked for, and the answer): the builder redraws after every change, and the drawings
 * of half-made settings are passed over.
 */
export async function previewAfter(
	page: Page,
	action: () => Promise<void>,
	accepts: (render: ChartRender, config: ChartConfig) => boolean,
): Promise<ChartRender> {
	let found: ChartRender | undefined
	const answered = page.waitForResponse(async (response) => {
		if (!isPreview(response) || response.status() !== 200) {
			return false
		}
		// A preview of the page navigated away from may answer after the navigation: its body is
		// gone, and it is not the one waited for.
		const render = (await response.json().catch(() => null)) as ChartRender | null
		if (!render) {
			return false
		}
		const { config } = response.request().postDataJSON() as { config: ChartConfig }
		if (accepts(render, config)) {
			found = render
			return true
		}
		return false
	})
	await action()
	await answered
	assert.ok(found)
	return found
}

/** The drawing shown in the builder's preview. */
export function previewSvg(page: Page) {
	return page.getByRole('complementary', { name: 'Preview' }).getByTestId('chart-svg').locator('svg').first()
}

/** Saves the builder's settings and waits until the server has them. */
export async function saveChart(page: Page): Promise<void> {
	await page.getByRole('toolbar', { name: 'Save' }).getByRole('button', { name: 'Save', exact: true }).click()
	await page.getByText('All changes saved').waitFor()
}

/** The Published switch on the builder's Share tab, flipped to `published`. */
export async function setPublished(page: Page, published: boolean): Promise<void> {
	await page.getByRole('tab', { name: 'Share' }).click()
	const toggle = page.getByRole('switch', { name: 'Published' })
	assert.equal(await toggle.getAttribute('aria-checked'), String(!published))
	await toggle.click()
	await page.getByRole('switch', { name: 'Published', checked: published }).waitFor()
	await toast(page, published ? 'The chart is published.' : 'The chart is unpublished').waitFor()
}

/**
 * The builder's address has no tool in it, so it asks both tools for the chart and the other
 * one answers 404 (apps/web/src/features/charts/api/charts.ts); the browser logs that answer.
 */
export const otherToolsAnswer =
	/console error on \S+\/dashboard\/notion_charts\/charts\/[^/\s]+: Failed to load resource: the server responded with a status of 404\b/
