import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'
import { choose, newChart, otherToolsAnswer } from './charts-steps.ts'

// A chart of a built-in database whose grouping property is deleted in the table editor: its
// builder says what is wrong and where to fix it, instead of drawing a blank.

const browser = useBrowser()

type Workspace = { id: string; tool: string; name: string }
type Database = { id: string; name: string; properties: { id: string; name: string; type: string }[] }

test('a chart whose property was deleted shows the problem in the builder, not a blank page', async (t) => {
	const account = await api.signUp({ name: 'Rhea Removed' })
	const token = account.token
	// A database of its own with a select to chart (set up through the API: not what this is about).
	await api.callOk('/dashboard/workspaces/sample', { token, json: {} })
	const workspace = (await api.callOk<Workspace[]>('/dashboard/workspaces', { token })).find(
		(candidate) => candidate.tool === 'local',
	)
	assert.ok(workspace)
	const database = await api.callOk<Database>('/dashboard/local/databases', {
		token,
		json: {
			workspaceId: workspace.id,
			name: 'Leads',
			properties: [
				{ name: 'Name', type: 'title' },
				{ name: 'Stage', type: 'select', options: [{ name: 'Cold' }, { name: 'Warm' }, { name: 'Won' }] },
			],
		},
	})
	const stageId = database.properties.find((property) => property.name === 'Stage')?.id ?? ''
	const titleId = database.properties.find((property) => property.type === 'title')?.id ?? ''
	await api.callOk(`/dashboard/local/databases/${database.id}/rows/batch`, {
		token,
		json: {
			rows: ['Cold', 'Warm', 'Warm', 'Won'].map((stage, index) => ({
				values: { [titleId]: `Lead ${index + 1}`, [stageId]: stage },
			})),
		},
	})

	const { page, context, problems } = await newPage(browser(), { account, viewport: { width: 1440, height: 900 } })
	t.after(() => context.close())
	const chartId = await newChart(page, 'Leads', 'Leads by stage')
	// A new chart counts the rows by their first useful property: Stage, saved as it is.
	await page.getByRole('combobox', { name: 'Group by', exact: true }).filter({ hasText: 'Stage' }).waitFor()
	await page.getByText(/^From 4 rows/).waitFor()
	await page.getByText('All changes saved').waitFor()

	// Stage deleted in the table editor.
	await page.goto(`/workspaces/${workspace.id}/databases/${database.id}`)
	await page.getByRole('heading', { level: 1, name: 'Leads' }).waitFor()
	await page.getByRole('button', { name: 'Edit properties' }).click()
	const dialog = page.getByRole('dialog', { name: 'Edit properties' })
	await dialog.getByRole('button', { name: 'Remove Stage' }).click()
	await dialog.getByRole('button', { name: 'Save properties' }).click()
	await dialog.waitFor({ state: 'hidden' })
	await page.getByRole('columnheader', { name: 'Stage' }).waitFor({ state: 'detached' })

	// The builder: the chart, the problem and a way to its setting.
	await page.goto(`/charts/${chartId}/edit`)
	await page.getByRole('heading', { level: 1, name: 'Leads by stage' }).waitFor()
	const problem = page.getByRole('complementary', { name: 'Preview' }).getByRole('alert')
	await problem.getByText('This chart needs another look before it can be drawn').waitFor()
	const text = (await problem.textContent()) ?? ''
	assert.match(text, /removed|deleted|no longer|gone/i, `the problem names what happened: ${text}`)
	await page.getByRole('combobox', { name: 'Group by', exact: true }).filter({ hasText: 'Removed property' }).waitFor()
	await problem.getByRole('button', { name: 'Fix it' }).click()
	await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true')
	// Another property fixes it: the problem goes and the chart is drawn.
	await choose(page, 'Group by', 'Name')
	await problem.waitFor({ state: 'detached' })
	await page.getByRole('complementary', { name: 'Preview' }).getByTestId('chart-svg').locator('svg').waitFor()

	assertNoProblems(problems, [otherToolsAnswer])
})
