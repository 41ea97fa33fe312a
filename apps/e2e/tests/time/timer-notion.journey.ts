import assert from 'node:assert/strict'
import { test } from 'node:test'
import { until } from '../../../server/src/test/until.ts'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'
import { entryRow, headerTimer, mapSuggested, startTimer, timerBar } from './time-steps.ts'

// The timer on a Notion database of time entries (in the runner's fake Notion): the start
// creates the page; Notion then fails while the timer is stopped, and the page says the entry is
// saving rather than losing it; once Notion is back the stop lands on that page, once. The
// outage covers page writes in this journey's own data source only, so the journeys running
// beside it keep their Notion.

const browser = useBrowser()
const fakeNotionUrl = process.env.FAKE_NOTION_URL ?? ''
const notionVersion = '2025-09-03'

type Entry = {
	id: string
	startedAt: string
	endedAt: string | null
	description: string | null
	rowId: string | null
	delivery: string
}
type NotionDate = { start: string; end: string | null } | null
type NotionPage = { id: string; properties: Record<string, { date?: NotionDate; number?: number | null }> }
type RequestLog = { method: string; route: string; path: string; status: number }

async function fakeNotion<T = unknown>(name: string, ...args: unknown[]): Promise<T> {
	assert.ok(fakeNotionUrl, 'FAKE_NOTION_URL is not set: run the journeys with `npm run -w @blocksmith/e2e test`')
	const response = await fetch(`${fakeNotionUrl}/__control/${name}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(args),
	})
	assert.ok(response.ok, `fake Notion control ${name}: ${response.status}`)
	return ((await response.json()) as { result: T }).result
}

/** Notion's own answer, with the integration's token. */
async function notion<T>(path: string, json?: unknown): Promise<T> {
	const info = (await (await fetch(`${fakeNotionUrl}/__control/info`)).json()) as { token: string }
	const response = await fetch(`${fakeNotionUrl}${path}`, {
		method: json === undefined ? 'GET' : 'POST',
		headers: {
			authorization: `Bearer ${info.token}`,
			'notion-version': notionVersion,
			'content-type': 'application/json',
		},
		...(json === undefined ? {} : { body: JSON.stringify(json) }),
	})
	assert.equal(response.status, 200, `${path}: ${response.status}`)
	return (await response.json()) as T
}

/** The pages of a data source titled `title`. */
async function pagesTitled(dataSourceId: string, title: string): Promise<NotionPage[]> {
	const body = await notion<{ results: NotionPage[] }>(`/v1/data_sources/${dataSourceId}/query`, {
		filter: { property: 'Name', title: { equals: title } },
	})
	return body.results
}

/** Updates of one page Notion received, as its request log has them. */
async function pageUpdates(pageId: string): Promise<RequestLog[]> {
	const log = (await (await fetch(`${fakeNotionUrl}/__control/requests`)).json()) as RequestLog[]
	const compact = pageId.replaceAll('-', '')
	return log.filter(
		(request) => request.route === 'PATCH /v1/pages/:id' && request.path.replaceAll('-', '').endsWith(compact),
	)
}

test('the timer on Notion: stopped during an outage it says it is saving, and the stop lands once Notion is back, once', async (t) => {
	const suffix = Date.now().toString(36)
	const name = `Hours log ${suffix}`
	const dataSource = await fakeNotion<{ id: string }>('addDataSource', {
		title: name,
		properties: {
			Name: { title: {} },
			Date: { date: {} },
			Hours: { number: { format: 'number' } },
			Person: { people: {} },
			Project: { select: { options: [{ name: 'Website' }, { name: 'Support' }] } },
			Billable: { checkbox: {} },
		},
	})
	t.after(() => fakeNotion('setPageWriteOutage', dataSource.id, false))

	const account = await api.signUp({ name: 'Nora Notion' })
	const { token } = account
	const info = (await (await fetch(`${fakeNotionUrl}/__control/info`)).json()) as { token: string }
	const connected = await api.callOk<{ workspace: { id: string } }>('/dashboard/workspaces', {
		token,
		json: { tool: 'notion', method: 'token', token: info.token },
	})
	await until(
		`${name} synced`,
		() =>
			api.callOk<{ name: string; sync: { lastSyncedAt: string | null } }[]>(
				`/dashboard/notion/databases?workspaceId=${connected.workspace.id}`,
				{ token },
			),
		(databases) => databases.some((database) => database.name === name && database.sync.lastSyncedAt),
	)

	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())
	await mapSuggested(page, name)
	await page.getByText(`Entries go to ${name}.`).waitFor()

	// Started: the page is created in Notion with the start and no end yet.
	const description = `Notion timer ${suffix}`
	await startTimer(page, description)
	const started = await until(
		'the start delivered',
		async () =>
			(await api.callOk<{ entry: Entry | null }>('/dashboard/notion_time/timer', { token })).entry ?? undefined,
		(entry) => entry?.delivery === 'delivered' && entry.rowId !== null,
	)
	assert.ok(started)
	const [created] = await pagesTitled(dataSource.id, description)
	assert.ok(created, 'the page is in Notion')
	assert.equal(Date.parse(created.properties.Date?.date?.start ?? ''), Date.parse(started.startedAt))
	assert.equal(created.properties.Date?.date?.end, null)

	// Notion fails; the timer is stopped all the same, and the entry is kept, saving.
	await fakeNotion('setPageWriteOutage', dataSource.id, true)
	await timerBar(page).getByRole('button', { name: 'Stop', exact: true }).click()
	await timerBar(page).getByRole('button', { name: 'Start', exact: true }).waitFor()
	await headerTimer(page).waitFor({ state: 'detached' })
	const row = entryRow(page, description)
	await row.getByText(/^(Saving to Notion…|Not in Notion yet: trying again)$/).waitFor()
	const failed = await until(
		'the stop tried and refused',
		async () =>
			(await api.callOk<Entry[]>('/dashboard/notion_time/entries', { token })).find((e) => e.id === started.id),
		(entry) => entry?.delivery === 'failed',
	)
	assert.ok(failed?.endedAt, 'the stop is kept')
	assert.ok(
		(await pageUpdates(created.id)).some((request) => request.status === 503),
		'Notion refused the stop',
	)
	// After a reload too: nothing is lost, the page says it is trying again.
	await page.reload()
	await row.getByText('Not in Notion yet: trying again').waitFor()
	assert.equal((await pagesTitled(dataSource.id, description))[0]?.properties.Date?.date?.end, null)

	// Notion is back: the next attempt delivers the stop, and the page follows by itself.
	await fakeNotion('setPageWriteOutage', dataSource.id, false)
	await row.getByText(/^(Saving to Notion…|Not in Notion yet: trying again)$/).waitFor({
		state: 'detached',
		timeout: 150_000,
	})
	const delivered = await until(
		'the stop delivered',
		async () =>
			(await api.callOk<Entry[]>('/dashboard/notion_time/entries', { token })).find((e) => e.id === started.id),
		(entry) => entry?.delivery === 'delivered',
	)
	assert.ok(delivered?.endedAt)

	// On the same page, once: its range ends at the stop, and there is no second page.
	const pages = await pagesTitled(dataSource.id, description)
	assert.equal(pages.length, 1, 'exactly one page for the entry')
	assert.equal(pages[0]?.id, created.id)
	const range = pages[0]?.properties.Date?.date
	assert.equal(Date.parse(range?.start ?? ''), Date.parse(delivered.startedAt))
	assert.equal(Date.parse(range?.end ?? ''), Date.parse(delivered.endedAt))
	const hours = pages[0]?.properties.Hours?.number ?? Number.NaN
	const seconds = (Date.parse(delivered.endedAt) - Date.parse(delivered.startedAt)) / 1000
	assert.ok(Math.abs(hours - seconds / 3600) <= 0.0001, `${hours} hours for ${seconds} s`)
	assert.equal(
		(await pageUpdates(created.id)).filter((request) => request.status === 200).length,
		1,
		'the stop was delivered once',
	)
	const times = await row.getByText(/^\d\d:\d\d–\d\d:\d\d$/).textContent()
	assert.equal(times, `${delivered.startedAt.slice(11, 16)}–${delivered.endedAt.slice(11, 16)}`)

	assertNoProblems(problems)
})
