import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Locator, Page } from 'playwright-core'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'

// Notion, through the same OAuth screens and SDK the product uses with the real one: the runner's
// fake Notion API (apps/server/src/test/fake-notion) approves at once and holds a demo workspace.
// Its controls (faults, latency) are driven over HTTP. The journeys of this file run one after
// the other, so a fault set here never meets the other test of the file.

const browser = useBrowser()

const fakeNotionUrl = process.env.FAKE_NOTION_URL ?? ''
const notionVersion = '2025-09-03'
const demoDatabases = ['Clients', 'Projects', 'Time entries', 'Invoices'] as const

/** Calls one of the fake's controls, e.g. `setOutage(true)`. */
async function fakeNotion(name: string, ...args: unknown[]): Promise<unknown> {
	assert.ok(fakeNotionUrl, 'FAKE_NOTION_URL is not set: run the journeys with `npm run -w @blocksmith/e2e test`')
	const response = await fetch(`${fakeNotionUrl}/__control/${name}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(args),
	})
	const body = (await response.json()) as { result?: unknown; error?: string }
	assert.ok(response.ok, `fake Notion control ${name}: ${response.status} ${body.error ?? ''}`)
	return body.result
}

/** The fake's own answer, through the public API with its internal integration token. */
async function notionApi<T>(path: string, json: unknown): Promise<T> {
	const info = (await (await fetch(`${fakeNotionUrl}/__control/info`)).json()) as { token: string }
	const response = await fetch(`${fakeNotionUrl}/v1${path}`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${info.token}`,
			'notion-version': notionVersion,
			'content-type': 'application/json',
		},
		body: JSON.stringify(json),
	})
	assert.equal(response.status, 200, `fake Notion POST ${path}: ${response.status}`)
	return (await response.json()) as T
}

type NotionList = { results: { id: string; title?: { plain_text: string }[]; properties?: Record<string, unknown> }[] }

/** Rows per data source title, as Notion holds them. */
async function notionRowCounts(): Promise<Map<string, number>> {
	const found = await notionApi<NotionList>('/search', { filter: { property: 'object', value: 'data_source' } })
	const counts = new Map<string, number>()
	for (const dataSource of found.results) {
		const rows = await notionApi<NotionList>(`/data_sources/${dataSource.id}/query`, { page_size: 100 })
		counts.set(dataSource.title?.map((part) => part.plain_text).join('') ?? '', rows.results.length)
	}
	return counts
}

/** Polls `check` until it returns something (not undefined), as `expect.poll` would. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
	const deadline = Date.now() + timeoutMs
	let attempt = 0
	for (;;) {
		const value = await check()
		if (value !== undefined) {
			return value
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`)
		}
		await sleep([100, 250, 500, 1000][Math.min(attempt, 3)])
		attempt += 1
	}
}

function toast(page: Page, text: string) {
	return page.locator('[data-sonner-toast]').filter({ hasText: text })
}

function databaseRow(page: Page, workspace: string, name: string): Locator {
	return page
		.getByRole('table', { name: `Databases of ${workspace}` })
		.getByRole('row')
		.filter({ has: page.getByRole('link', { name, exact: true }) })
}

type Database = { id: string; name: string; properties: { id: string; type: string }[] }

test('connecting Notion through its OAuth page mirrors its databases, syncs them, and shows them read-only', async (t) => {
	t.after(() => fakeNotion('clearFaults'))
	const account = await api.signUp({ name: 'Nora Notion' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())

	// Journeys beside this one write to the same fake (a form's answer delivered to Notion), so
	// a database may gain a row while this one syncs: its count is read before and after.
	const countsBefore = await notionRowCounts()
	await page.goto('/workspaces')
	await page.getByRole('button', { name: 'Connect Notion' }).click()
	const dialog = page.getByRole('dialog', { name: 'Connect Notion' })
	const authorizing = page.waitForRequest((request) => request.url().startsWith(`${fakeNotionUrl}/v1/oauth/authorize?`))
	// Back from Notion, the toast shows for a few seconds while the workspace loads: watch for both.
	const connected = toast(page, 'Notion is connected. Its databases are syncing.').waitFor()
	await dialog.getByRole('button', { name: 'Connect with Notion' }).click()
	const authorize = new URL((await authorizing).url())
	assert.equal(authorize.searchParams.get('client_id'), 'e2e-client')
	assert.equal(authorize.searchParams.get('redirect_uri'), `${new URL(page.url()).origin}/api/notion/oauth/callback`)
	await page.waitForURL((url) => url.pathname === '/workspaces' && url.searchParams.has('workspace'))
	await connected
	await page.getByRole('heading', { level: 2, name: 'Fake Workspace' }).waitFor()
	const workspaces = await api.callOk<{ id: string; tool: string; name: string }[]>('/dashboard/workspaces', {
		token: account.token,
	})
	assert.deepEqual(
		workspaces.map(({ id, tool, name }) => ({ id, tool, name })),
		[{ id: new URL(page.url()).searchParams.get('workspace'), tool: 'notion', name: 'Fake Workspace' }],
	)

	// The databases are found by a job, then each syncs in a job of its own.
	for (const name of demoDatabases) {
		await databaseRow(page, 'Fake Workspace', name)
			.getByText(/^Synced /)
			.waitFor()
	}
	const countsAfter = await notionRowCounts()
	for (const name of demoDatabases) {
		const [least, most] = [countsBefore.get(name), countsAfter.get(name)]
		assert.ok(least && most, `the fake has no ${name}`)
		const cell = databaseRow(page, 'Fake Workspace', name).getByRole('cell').nth(1)
		const shown = Number((await cell.textContent())?.trim())
		assert.ok(shown >= least && shown <= most, `${name} rows: ${shown}, the fake had ${least} then ${most}`)
	}

	// Sync now: queued or running (the fake answers slowly for a moment, so the state can be seen), then synced.
	const projects = databaseRow(page, 'Fake Workspace', 'Projects')
	await fakeNotion('setLatency', 700)
	await projects.getByRole('button', { name: 'Sync now' }).click()
	await toast(page, 'Syncing Projects…').waitFor()
	// One render shows both: the state, and Sync now disabled while it lasts.
	await projects
		.filter({ has: page.getByRole('button', { name: 'Sync now', disabled: true }) })
		.getByText(/^(Queued|Running)…$/)
		.waitFor()
	await fakeNotion('setLatency', 0)
	await projects.getByText(/^Synced just now/).waitFor()
	await projects.getByRole('button', { name: 'Sync now', disabled: false }).waitFor()

	// A Notion database opens read-only: its rows, no editors.
	await projects.getByRole('link', { name: 'Projects', exact: true }).click()
	await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor()
	await page.getByText('Read-only mirror of a Notion database').waitFor()
	const rows = page.getByRole('table', { name: 'Rows of Projects' })
	await rows.getByRole('cell', { name: 'Website relaunch', exact: true }).waitFor()
	// After "Sync now", the mirror has every row the fake has.
	const projectRows = (await notionRowCounts()).get('Projects')
	await page.getByRole('navigation', { name: 'Pages' }).getByText(`Rows 1–${projectRows} of ${projectRows}`).waitFor()
	assert.equal(await rows.locator('tbody').getByRole('button').count(), 0, 'a Notion cell is editable')
	assert.equal(await rows.locator('tbody').getByRole('checkbox').count(), 0, 'a Notion cell is editable')
	assert.equal(await page.getByRole('button', { name: 'Add row' }).count(), 0)
	await page.getByRole('button', { name: 'Sync now' }).waitFor()
	assertNoProblems(problems)
})

test('a row written during a Notion outage shows as failed in Deliveries, and lands once retried', async (t) => {
	t.after(() => fakeNotion('clearFaults'))
	const account = await api.signUp({ name: 'Otto Outage' })
	const token = account.token
	// Connected with the fake's internal integration token: the OAuth screens are the other test's.
	const info = (await (await fetch(`${fakeNotionUrl}/__control/info`)).json()) as { token: string }
	const { workspace } = await api.callOk<{ workspace: { id: string; name: string } }>('/dashboard/workspaces', {
		token,
		json: { tool: 'notion', method: 'token', token: info.token },
	})
	const projects = await eventually('the Projects database to be found and synced', async () => {
		const databases = await api.callOk<(Database & { sync: { lastSyncedAt: string | null } })[]>(
			`/dashboard/notion/databases?workspaceId=${workspace.id}`,
			{ token },
		)
		return databases.find((database) => database.name === 'Projects' && database.sync.lastSyncedAt)
	})
	const titleId = projects.properties.find((property) => property.type === 'title')?.id
	assert.ok(titleId)

	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())
	await page.goto(`/workspaces?workspace=${workspace.id}`)
	await page.getByRole('heading', { level: 2, name: workspace.name }).waitFor()
	await databaseRow(page, workspace.name, 'Projects')
		.getByText(/^Synced /)
		.waitFor()

	// Notion is down: the write is accepted (queued), and its delivery fails.
	await fakeNotion('setOutage', true)
	const title = `Written during an outage ${Date.now().toString(36)}`
	const response = await api.call(`/dashboard/notion/databases/${projects.id}/rows`, {
		token,
		json: { values: { [titleId]: title } },
	})
	assert.equal(response.status, 202)
	// The list is read when the tab first opens, and polled while a delivery is pending.
	await page.getByRole('tab', { name: 'Deliveries' }).click()
	const deliveries = page.getByRole('table', { name: `Deliveries of ${workspace.name}` })
	const delivery = deliveries.getByRole('row').filter({ hasText: 'New row in Projects' })
	await delivery.filter({ hasText: 'Failed' }).waitFor()
	await delivery.getByText('1 attempt').waitFor()
	assert.match((await delivery.textContent()) ?? '', /unavailable|503/i, 'the reason names the outage')

	// Notion is back; Retry sends it now rather than at the next scheduled attempt.
	await fakeNotion('setOutage', false)
	await delivery.getByRole('button', { name: 'Retry' }).click()
	await toast(page, 'The write is queued again.').waitFor()
	await delivery.filter({ hasText: 'Delivered' }).waitFor()
	assert.equal(await delivery.getByRole('button', { name: 'Retry' }).count(), 0)
	const found = await notionApi<NotionList>('/search', { query: title, filter: { property: 'object', value: 'page' } })
	assert.equal(found.results.length, 1, 'the row is in Notion once')
	assertNoProblems(problems)
})
