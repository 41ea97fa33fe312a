import assert from 'node:assert/strict'
import type { Locator, Page } from 'playwright-core'
import { api } from '../../fixtures.ts'
import { uniqueEmail } from '../../http-api.ts'

// What the portal journeys share: the sample workspace's rows read through the dashboard's API
// (to compute, apart from the portal, which rows a member should see), the portal set up from
// the suggested first portal, and the member's view of a page's rows.

export function toast(page: Page, text: string | RegExp): Locator {
	return page.locator('[data-sonner-toast]').filter({ hasText: text })
}

/** Polls `check` until true (a background job, a write landing), instead of sleeping a fixed time. */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs
	while (!(await check())) {
		if (Date.now() > deadline) {
			throw new Error(`${what}: not within ${timeoutMs / 1000} s`)
		}
		await new Promise((resolve) => setTimeout(resolve, 300))
	}
}

type Property = { id: string; name: string; type: string }
export type Database = { id: string; name: string; workspaceId?: string; properties: Property[] }
type Row = { id: string; title: string; values: Record<string, unknown> }

/** The sample's databases by name, read as the owner. */
export async function sampleDatabases(token: string): Promise<Map<string, Database>> {
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	return new Map(databases.map((database) => [database.name, database]))
}

/** Every row of a database, page by page (the dashboard's own paging, by offset). */
export async function allRows(token: string, databaseId: string): Promise<Row[]> {
	const rows: Row[] = []
	for (let offset = 0; ; offset += 200) {
		const page = await api.callOk<{ rows: Row[]; total: number }>(
			`/dashboard/local/databases/${databaseId}/rows?limit=200&offset=${offset}`,
			{ token },
		)
		rows.push(...page.rows)
		if (page.rows.length < 200) {
			return rows
		}
	}
}

/**
 * The titles of `database`'s rows whose `relation` property links the company named `company`
 * in Clients: what the company rule grants, computed without the portal.
 */
export async function titlesOfCompany(
	token: string,
	databases: Map<string, Database>,
	database: string,
	company: string,
): Promise<string[]> {
	const clients = databases.get('Clients')
	const target = databases.get(database)
	assert.ok(clients && target, `the sample has Clients and ${database}`)
	const companyRow = (await allRows(token, clients.id)).find((row) => row.title === company)
	assert.ok(companyRow, `no client named ${company}`)
	const relation = target.properties.find((property) => property.type === 'relation' && property.name === 'Client')
	assert.ok(relation, `${database} has a Client relation`)
	return (await allRows(token, target.id))
		.filter((row) => {
			const linked = row.values[relation.id]
			return Array.isArray(linked) && linked.includes(companyRow.id)
		})
		.map((row) => row.title)
		.sort()
}

/** Opens a page of the portal from its menu and waits for its heading. */
export async function openPortalPage(page: Page, title: string): Promise<void> {
	await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: title, exact: true }).click()
	await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor()
}

/**
 * The titles the page lists, all of them: "Load more" pressed while it shows. The page must be
 * in the table view (its rows' titles are the row headers).
 */
export async function listedTitles(page: Page, title: string): Promise<string[]> {
	const table = page.getByRole('table', { name: title, exact: true })
	const empty = page.getByText(`No ${title.toLowerCase()} shared with you yet.`)
	await table.or(empty).first().waitFor()
	if (await empty.isVisible()) {
		return []
	}
	const more = page.getByRole('button', { name: 'Load more' })
	while (await more.isVisible()) {
		const before = await table.getByRole('rowheader').count()
		await more.click()
		await eventually('more rows load', async () => (await table.getByRole('rowheader').count()) > before)
	}
	return (await table.getByRole('rowheader').allTextContents()).map((text) => text.trim()).sort()
}

export type Invitee = { email: string; name: string; company: string }

/** Three clients of two companies, with addresses no other run uses. */
export function threeClients(): Invitee[] {
	return [
		{ email: uniqueEmail('ana'), name: 'Ana Lima', company: 'Acme Ltd' },
		{ email: uniqueEmail('ben'), name: 'Ben Ode', company: 'Acme Ltd' },
		{ email: uniqueEmail('cleo'), name: 'Cleo Park', company: 'Globex Corporation' },
	]
}

/** /portals on a workspace with the sample: the suggested first portal, at a unique address, created. */
export async function createSuggestedPortal(page: Page, name: string, slug: string): Promise<string> {
	await page.goto('/portals')
	const form = page.getByRole('form', { name: 'New portal' })
	await form.getByRole('heading', { level: 2, name: 'Open your first portal' }).waitFor()
	// The suggestion: Clients as the companies, Projects and Invoices checked, Enquiries offered.
	await form.getByText('Clients', { exact: true }).waitFor()
	for (const [database, isChecked] of [
		['Projects', true],
		['Invoices', true],
		['Enquiries', false],
	] as const) {
		assert.equal(
			await form.getByRole('checkbox', { name: database, exact: true }).isChecked(),
			isChecked,
			`${database} checked: ${isChecked}`,
		)
	}
	await form.getByLabel('Portal name').fill(name)
	await form.getByRole('textbox', { name: /^Address/ }).fill(slug)
	await form.getByRole('button', { name: 'Create portal' }).click()
	await page.waitForURL(/\/portals\/[^/]+$/)
	await page.getByRole('heading', { level: 1, name }).waitFor()
	return decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '')
}

/** Saves the setup through its save bar and waits for the toast. */
export async function savePortal(page: Page): Promise<void> {
	const saved = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/setup/update_setup'))
	await page.getByRole('toolbar', { name: 'Save portal' }).getByRole('button', { name: 'Save', exact: true }).click()
	const response = await saved
	assert.equal(response.status(), 200, `the save was answered ${response.status()}: ${await response.text()}`)
	// A toast per save: an earlier one may still show.
	await toast(page, 'Portal saved').first().waitFor()
}

/** Opens one page's settings in the setup (its item in the Pages list) and returns that item. */
export async function openPageSettings(page: Page, title: string): Promise<Locator> {
	const item = page
		.getByRole('list', { name: 'Pages' })
		.getByRole('listitem')
		.filter({ has: page.getByText(title, { exact: true }) })
		.first()
	const toggle = item.getByRole('button', { expanded: false })
	if ((await toggle.count()) > 0) {
		await toggle.first().click()
	}
	await item.getByLabel('View', { exact: true }).waitFor()
	return item
}
