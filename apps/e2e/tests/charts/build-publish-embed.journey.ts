import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { formatChartNumber } from '@blocksmith/contracts/chart-format.ts'
import type { ChartNumberFormat, ChartRender } from '@blocksmith/contracts/charts.ts'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, baseUrl, failedRequest, newPage, useBrowser } from '../../fixtures.ts'
import {
	choose,
	createSampleWorkspace,
	newChart,
	otherToolsAnswer,
	pickRadio,
	previewAfter,
	previewSvg,
	saveChart,
	series,
	setPublished,
} from './charts-steps.ts'

// The charts module as the "done when" tells it: on the sample workspace, the sum of
// invoice amounts by month stacked by status, then a running-total line; a donut of projects by
// status; a KPI against the previous period over a date range. The first chart is published and
// seen anonymously in light, dark and without JavaScript; an invoice edited in the table editor
// shows on its page after a reload; unpublished, the page is gone; the builder's PNG and CSV
// downloads carry the figures the preview drew.

const browser = useBrowser()

type Row = { id: string; title: string; values: Record<string, unknown> }
type Database = { id: string; name: string; properties: { id: string; name: string }[] }
type PublicChart = { figures: ChartRender['figures']; display: { numberFormat: ChartNumberFormat } }

/** The tooltip texts of the drawn points in the page's chart (`<category>\n<series>: <value>`). */
async function tipsOn(page: Page): Promise<string[]> {
	return page
		.locator('.bs-chart-svg [ecmeta_tip]')
		.evaluateAll((points) => points.map((point) => point.getAttribute('ecmeta_tip') ?? ''))
}

/** Parses the builder's CSV (no quoted cells in these figures). */
function parseCsv(text: string): string[][] {
	return text
		.split('\r\n')
		.filter((line) => line !== '')
		.map((line) => line.split(','))
}

test('charts on the sample: built in the builder, published, embedded, kept live, unpublished and downloaded', async (t) => {
	const account = await api.signUp({ name: 'Chloe Chart' })
	const { page, context, problems } = await newPage(browser(), { account, viewport: { width: 1440, height: 900 } })
	t.after(() => context.close())
	await createSampleWorkspace(page)
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token: account.token })
	const propertyOf = (database: string, name: string) => {
		const found = databases.find((candidate) => candidate.name === database)
		const property = found?.properties.find((candidate) => candidate.name === name)
		assert.ok(found && property, `no ${database}.${name}`)
		return { databaseId: found.id, id: property.id }
	}
	const amount = propertyOf('Invoices', 'Amount')
	const amountId = amount.id

	// 1. Sum of Amount by month of Issued, stacked by Status: the preview draws it.
	const revenueId = await newChart(page, 'Invoices', 'Revenue by month')
	await choose(page, 'Aggregation', 'Sum', series(page, 1))
	await choose(page, 'Of', 'Amount', series(page, 1))
	await choose(page, 'Group by', 'Issued')
	await choose(page, 'Date bucket', 'Month')
	await choose(page, 'Break down by', 'Status')
	const stacked = await previewAfter(
		page,
		() => pickRadio(page, 'Stacked'),
		(render, config) => config.display.stacking === 'stacked' && render.figures.xKind === 'date' && render.svg !== '',
	)
	const groups = stacked.figures.series.map((item) => item.group)
	for (const status of ['Paid', 'Sent', 'Overdue', 'Draft']) {
		assert.ok(groups.includes(status), `a series for ${status}: ${groups.join(', ')}`)
	}
	assert.ok(
		stacked.figures.categories.some((category) => category.label.includes('Jan')),
		'monthly buckets from January',
	)
	await previewSvg(page).waitFor()
	await page.getByText(/^From 20 rows/).waitFor()

	// 2. The same as a running-total line.
	await pickRadio(page, 'Line')
	const line = await previewAfter(
		page,
		() => choose(page, 'Show as', 'Running total', series(page, 1)),
		(render, config) => config.type === 'line' && config.series[0]?.transform === 'cumulative' && render.svg !== '',
	)
	for (const item of line.figures.series) {
		const values = item.values.map((value) => value ?? 0)
		assert.ok(
			values.every((value, index) => index === 0 || value >= (values[index - 1] ?? 0)),
			`${item.name} only grows: ${values.join(', ')}`,
		)
	}
	await saveChart(page)

	// 3. A donut of Projects by Status.
	await newChart(page, 'Projects', 'Projects by status')
	await pickRadio(page, 'Donut')
	const donut = await previewAfter(
		page,
		() => choose(page, 'Slices by', 'Status'),
		(render, config) =>
			config.display.donut && config.x?.property === propertyOf('Projects', 'Status').id && render.svg !== '',
	)
	assert.equal(
		donut.figures.series[0]?.values.reduce((sum: number, value) => sum + (value ?? 0), 0),
		12,
		'every one of the 12 sample projects is in a slice',
	)
	await previewSvg(page).waitFor()
	await saveChart(page)

	// 4. A KPI: the sum of Amount this year, against the period before.
	await newChart(page, 'Invoices', 'Invoiced this year')
	await pickRadio(page, 'Number')
	await choose(page, 'Aggregation', 'Sum', series(page, 1))
	await choose(page, 'Of', 'Amount', series(page, 1))
	await choose(page, 'Compare with', 'Previous period', series(page, 1))
	await page.getByRole('tab', { name: 'Filters' }).click()
	await choose(page, 'Date property', 'Issued')
	const kpi = await previewAfter(
		page,
		() => choose(page, 'Range', 'This year'),
		(render, config) => config.type === 'number' && config.dateRange?.range === 'this_year' && render.svg !== '',
	)
	assert.ok(kpi.figures.kpi?.previousLabel, 'the previous period is named')
	const rowsBefore = await api.callOk<{ rows: Row[] }>(
		`/dashboard/local/databases/${amount.databaseId}/rows?limit=50`,
		{
			token: account.token,
		},
	)
	const total = rowsBefore.rows.reduce((sum, row) => sum + Number(row.values[amountId] ?? 0), 0)
	// Every sample invoice was issued this year (2026); the year before has none.
	assert.ok(Math.abs((kpi.figures.kpi?.value ?? 0) - total) < 0.01, `${kpi.figures.kpi?.value} = ${total}`)
	await previewSvg(page).waitFor()
	await saveChart(page)

	// 5. The first chart published, and seen by anyone with the link.
	await page.goto(`/charts/${revenueId}/edit`)
	await page.getByRole('heading', { level: 1, name: 'Revenue by month' }).waitFor()
	await setPublished(page, true)
	await page.getByRole('textbox', { name: 'Public link' }).waitFor()

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const shown: Record<string, { color: string; svg: string }> = {}
	for (const theme of ['light', 'dark'] as const) {
		await visitor.page.goto(`/charts/${revenueId}?theme=${theme}`)
		await visitor.page.locator(`main.bs-theme-${theme} .bs-chart-svg svg`).first().waitFor()
		shown[theme] = {
			color: await visitor.page.locator('main').evaluate((main) => getComputedStyle(main).color),
			svg: await visitor.page.locator('.bs-chart-svg').first().innerHTML(),
		}
	}
	assert.notEqual(shown.light?.color, shown.dark?.color, 'dark text is not the light text')
	assert.notEqual(shown.light?.svg, shown.dark?.svg, 'the dark page has the dark drawing')

	// Without JavaScript: the drawing is in the HTML itself.
	const noScript = await browser().newContext({ baseURL: baseUrl, javaScriptEnabled: false })
	t.after(() => noScript.close())
	const plain = await noScript.newPage()
	const served = await plain.goto(`/charts/${revenueId}?theme=light`)
	assert.equal(served?.status(), 200)
	assert.ok((await plain.locator('.bs-chart-svg svg').count()) >= 1, 'the <svg> is in the page')
	assert.ok((await plain.locator('.bs-chart-svg [ecmeta_tip]').count()) > 0, 'with its data points')

	// 6. An invoice edited in the table editor: the public page shows the new figure after a reload.
	const before = await api.callOk<PublicChart>(`/api/local_charts/charts/${revenueId}`)
	const first = rowsBefore.rows.find((row) => row.title === '#1001')
	assert.ok(first, 'the sample has #1001')
	const oldAmount = Number(first.values[amountId])
	const newAmount = 123456
	await page.goto('/workspaces')
	await page
		.getByRole('table', { name: 'Databases of Sample workspace' })
		.getByRole('link', { name: 'Invoices', exact: true })
		.click()
	await page.getByRole('table', { name: 'Rows of Invoices' }).waitFor()
	await page.getByRole('button', { name: /^Amount of #1001: / }).click()
	const amountInput = page.getByRole('textbox', { name: 'Amount of #1001', exact: true })
	await amountInput.fill(String(newAmount))
	const saved = page.waitForResponse(
		(response) => response.request().method() === 'PATCH' && /\/rows\/[^/]+$/.test(new URL(response.url()).pathname),
	)
	await amountInput.press('Enter')
	assert.equal((await saved).status(), 200)

	// #1001 is Paid, issued in January: the Paid line's January point (and every later one) grows.
	const paid = before.figures.series.find((item) => item.group === 'Paid')
	assert.ok(paid, 'a Paid series')
	const expected = (paid.values[0] ?? 0) - oldAmount + newAmount
	const expectedTip = `${paid.name}: ${formatChartNumber(expected, before.display.numberFormat)}`
	assert.ok(!(await tipsOn(visitor.page)).some((tip) => tip.includes(expectedTip)), 'not shown before the edit')
	await visitor.page.reload()
	await visitor.page.locator('.bs-chart-svg svg').first().waitFor()
	const tips = await tipsOn(visitor.page)
	assert.ok(
		tips.some((tip) => tip.includes(expectedTip)),
		`the page shows "${expectedTip}": ${tips.filter((tip) => tip.includes(paid.name)).join(' | ')}`,
	)

	// 7. Unpublished: the link answers 404, "not available".
	await page.goto(`/charts/${revenueId}/edit`)
	await page.getByRole('heading', { level: 1, name: 'Revenue by month' }).waitFor()
	await setPublished(page, false)
	await page.goto('/charts')
	const gone = await visitor.page.goto(`/charts/${revenueId}?theme=light`)
	assert.equal(gone?.status(), 404)
	await visitor.page.getByText('This chart is not available').waitFor()
	assert.equal(await visitor.page.locator('svg').count(), 0, 'no drawing left on the page')

	// 8. Downloads from the builder: a PNG, and a CSV with the figures the preview drew.
	const { figures } = await previewAfter(
		page,
		() => page.goto(`/charts/${revenueId}/edit`).then(() => undefined),
		(render) => render.figures.type === 'line',
	)
	await page.getByRole('heading', { level: 1, name: 'Revenue by month' }).waitFor()
	await page.getByRole('tab', { name: 'Share' }).click()
	const [png] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'PNG', exact: true }).click(),
	])
	assert.equal(png.suggestedFilename(), 'Revenue by month.png')
	const pngBytes = await readFile((await png.path()) ?? '')
	assert.equal(pngBytes.subarray(1, 4).toString('latin1'), 'PNG')
	assert.ok(pngBytes.byteLength > 2000, `a real picture: ${pngBytes.byteLength} bytes`)

	const [csv] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('button', { name: 'CSV', exact: true }).click(),
	])
	assert.equal(csv.suggestedFilename(), 'Revenue by month.csv')
	const [header, ...lines] = parseCsv(await readFile((await csv.path()) ?? '', 'utf8'))
	assert.deepEqual(header, ['Label', ...figures.series.map((item) => item.name)])
	assert.deepEqual(
		lines.map((cells) => cells[0]),
		figures.categories.map((category) => category.label),
	)
	for (const [index, item] of figures.series.entries()) {
		assert.deepEqual(
			lines.map((cells) => (cells[index + 1] === '' ? null : Number(cells[index + 1]))),
			item.values,
			`the CSV's ${item.name} column`,
		)
	}
	const paidColumn = header?.indexOf(paid.name) ?? -1
	assert.ok(Math.abs(Number(lines[0]?.[paidColumn]) - expected) < 0.01, 'the CSV has the edited invoice')

	assertNoProblems(problems, [otherToolsAnswer])
	// The unpublished chart's page answers 404 (that is the point).
	assertNoProblems(visitor.problems, [failedRequest(404)])
})
