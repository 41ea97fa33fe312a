import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'

// The sample workspace in one click, then the table editor as a user works it: cells edited in
// place, kept after a reload and stored typed; a header click sorts, a filter narrows.

const browser = useBrowser()

type Property = { id: string; name: string; type: string }
type Row = { id: string; title: string; values: Record<string, unknown> }
type RowPage = { rows: Row[]; total: number }

function toast(page: Page, text: string) {
	return page.locator('[data-sonner-toast]').filter({ hasText: text })
}

/** The workspace and database ids of the database page showing. */
function idsOf(page: Page): { workspaceId: string; databaseId: string } {
	const match = /^\/workspaces\/([^/]+)\/databases\/([^/?]+)/.exec(new URL(page.url()).pathname)
	assert.ok(match?.[1] && match[2], `not a database page: ${page.url()}`)
	return { workspaceId: decodeURIComponent(match[1]), databaseId: decodeURIComponent(match[2]) }
}

/** Opens a database from the workspace's list and waits for its table. */
async function openDatabase(page: Page, name: string): Promise<void> {
	await page
		.getByRole('table', { name: 'Databases of Sample workspace' })
		.getByRole('link', { name, exact: true })
		.click()
	await page.getByRole('heading', { level: 1, name }).waitFor()
	await page.getByRole('table', { name: `Rows of ${name}` }).waitFor()
}

/** Waits for the cell write the action sets off to be answered, so a reload cannot lose it. */
async function savingCell(page: Page, action: () => Promise<void>): Promise<void> {
	const saved = page.waitForResponse(
		(response) => response.request().method() === 'PATCH' && /\/rows\/[^/]+$/.test(new URL(response.url()).pathname),
	)
	await action()
	const response = await saved
	assert.equal(response.status(), 200, `the cell write was answered ${response.status()}`)
}

/** The "Rows 1–12 of 12" line under the table. */
function rowsRange(page: Page) {
	return page.getByRole('navigation', { name: 'Pages' }).getByText(/^Rows /)
}

test('a sample workspace opens in the table editor: edits persist typed, a header sorts, a filter narrows', async (t) => {
	const account = await api.signUp({ name: 'Tabitha Table' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())
	const token = account.token

	await page.goto('/workspaces')
	await page.getByRole('heading', { level: 2, name: 'Start with data' }).waitFor()
	await page.getByRole('button', { name: 'Create a sample workspace' }).click()
	await toast(page, 'Your sample workspace is ready').waitFor()
	await page.getByRole('heading', { level: 2, name: 'Sample workspace' }).waitFor()
	await page
		.getByRole('navigation', { name: 'Workspaces' })
		.getByRole('button', { name: /Sample workspace/ })
		.filter({ hasText: '5 databases' })
		.waitFor()

	// The five databases, with the sample's fixed row counts.
	const databases = page.getByRole('table', { name: 'Databases of Sample workspace' })
	for (const [name, rows] of [
		['Clients', '8'],
		['Projects', '12'],
		['Time entries', '160'],
		['Invoices', '20'],
		['Enquiries', '3'],
	] as const) {
		const row = databases.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) })
		await row
			.getByRole('cell')
			.nth(1)
			.filter({ hasText: new RegExp(`^${rows}$`) })
			.waitFor()
	}
	assert.equal(await databases.getByRole('row').count(), 6, 'a header and five databases')

	// Projects: a number and a status, edited in place.
	await openDatabase(page, 'Projects')
	const projects = idsOf(page)
	await page.getByRole('button', { name: /^Budget of Website redesign: / }).click()
	const budgetInput = page.getByRole('textbox', { name: 'Budget of Website redesign', exact: true })
	await budgetInput.fill('12345')
	await savingCell(page, () => budgetInput.press('Enter'))
	// The keyboard stays on the cell, which shows the new value in the column's currency.
	await page.getByRole('button', { name: 'Budget of Website redesign: $12,345.00', exact: true }).waitFor()
	await page.waitForFunction(() =>
		document.activeElement?.getAttribute('aria-label')?.startsWith('Budget of Website redesign:'),
	)

	await page.getByRole('button', { name: 'Status of Website redesign: Not started', exact: true }).click()
	await savingCell(page, () => page.getByRole('menuitemradio', { name: 'Done', exact: true }).click())
	await page.getByRole('button', { name: 'Status of Website redesign: Done', exact: true }).waitFor()

	// Invoices: a checkbox ticked.
	await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Sample workspace' }).click()
	await openDatabase(page, 'Invoices')
	const invoices = idsOf(page)
	const paid = page.getByRole('checkbox', { name: 'Paid of #1005', exact: true })
	assert.equal(await paid.getAttribute('aria-checked'), 'false', 'the sample invoice 5 is a draft, unpaid')
	await savingCell(page, () => paid.click())
	await page.getByRole('checkbox', { name: 'Paid of #1005', checked: true }).waitFor()

	// After a reload the table shows what the server kept.
	await page.reload()
	await page.getByRole('checkbox', { name: 'Paid of #1005', checked: true }).waitFor()
	await page.goto(`/workspaces/${projects.workspaceId}/databases/${projects.databaseId}`)
	await page.getByRole('button', { name: 'Budget of Website redesign: $12,345.00', exact: true }).waitFor()
	await page.getByRole('button', { name: 'Status of Website redesign: Done', exact: true }).waitFor()

	// And it kept them typed: a number, an option name, a boolean.
	const projectsSchema = await api.callOk<{ properties: Property[] }>(
		`/dashboard/local/databases/${projects.databaseId}`,
		{ token },
	)
	const propertyId = (properties: Property[], name: string) => {
		const property = properties.find((candidate) => candidate.name === name)
		assert.ok(property, `no ${name} property`)
		return property.id
	}
	const budgetId = propertyId(projectsSchema.properties, 'Budget')
	const statusId = propertyId(projectsSchema.properties, 'Status')
	const projectRows = await api.callOk<RowPage>(`/dashboard/local/databases/${projects.databaseId}/rows?limit=50`, {
		token,
	})
	const website = projectRows.rows.find((row) => row.title === 'Website redesign')
	assert.ok(website, 'no Website redesign row')
	assert.equal(website.values[budgetId], 12345)
	assert.equal(website.values[statusId], 'Done')
	const invoicesSchema = await api.callOk<{ properties: Property[] }>(
		`/dashboard/local/databases/${invoices.databaseId}`,
		{ token },
	)
	const paidId = propertyId(invoicesSchema.properties, 'Paid')
	const invoiceRows = await api.callOk<RowPage>(`/dashboard/local/databases/${invoices.databaseId}/rows?limit=50`, {
		token,
	})
	assert.equal(invoiceRows.rows.find((row) => row.title === '#1005')?.values[paidId], true)

	// A header click sorts by that column: budgets read top to bottom go up.
	await rowsRange(page).filter({ hasText: 'Rows 1–12 of 12' }).waitFor()
	const budgetsShown = () =>
		page
			.getByRole('table', { name: 'Rows of Projects' })
			.getByRole('button', { name: /^Budget of / })
			.evaluateAll((cells) =>
				cells.map((cell) => Number((cell.getAttribute('aria-label') ?? '').replace(/^.*: \$/, '').replaceAll(',', ''))),
			)
	const isAscending = (values: number[]) =>
		values.every((value, index) => index === 0 || (values[index - 1] ?? 0) <= value)
	assert.ok(!isAscending(await budgetsShown()), 'the sample projects are already in budget order')
	const budgetHeader = page.getByRole('columnheader', { name: 'Budget' })
	await budgetHeader.getByRole('button').click()
	await page.locator('th[aria-sort="ascending"]').filter({ hasText: 'Budget' }).waitFor()
	await page.waitForFunction(() => {
		const table = document.querySelector('table[aria-label="Rows of Projects"]')
		const cells = table ? Array.from(table.querySelectorAll('button[aria-label^="Budget of "]')) : []
		const budgets = cells.map((cell) =>
			Number((cell.getAttribute('aria-label') ?? '').replace(/^.*: \$/, '').replaceAll(',', '')),
		)
		return budgets.length === 12 && budgets.every((value, index) => index === 0 || (budgets[index - 1] ?? 0) <= value)
	})
	const ascending = await budgetsShown()
	assert.equal(ascending.length, 12)
	assert.equal(ascending.at(-1), 12345, 'the edited budget is the largest')

	// A filter narrows the rows: Status is Done, which Website redesign now is.
	const doneRows = await api.callOk<RowPage>(
		`/dashboard/local/databases/${projects.databaseId}/rows?filter=${encodeURIComponent(
			JSON.stringify([{ property: statusId, operator: 'equals', value: 'Done' }]),
		)}`,
		{ token },
	)
	assert.ok(doneRows.total > 0 && doneRows.total < 12, `${doneRows.total} projects are done`)
	assert.ok(doneRows.rows.some((row) => row.title === 'Website redesign'))
	await page.getByRole('button', { name: 'Filter', exact: true }).click()
	await page.getByRole('combobox', { name: 'Filter 1: property' }).click()
	await page.getByRole('option', { name: 'Status', exact: true }).click()
	await page.getByRole('combobox', { name: 'Filter 1: operator' }).filter({ hasText: 'is' }).waitFor()
	await page.getByRole('combobox', { name: 'Filter 1: value' }).click()
	await page.getByRole('option', { name: 'Done', exact: true }).click()
	await rowsRange(page)
		.filter({ hasText: `Rows 1–${doneRows.total} of ${doneRows.total}` })
		.waitFor()
	const statuses = page.getByRole('table', { name: 'Rows of Projects' }).getByRole('button', { name: /^Status of / })
	assert.equal(await statuses.count(), doneRows.total)
	for (const label of await statuses.evaluateAll((cells) => cells.map((cell) => cell.getAttribute('aria-label')))) {
		assert.match(label ?? '', /: Done$/)
	}
	// The header still counts the whole database.
	await page.getByText('12 rows', { exact: true }).waitFor()
	assertNoProblems(problems)
})
