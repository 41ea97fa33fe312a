import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// A form on a Notion database while Notion cannot take new pages: the visitor's answer is
// accepted all the same, the team sees it waiting, and it lands in Notion once Notion is back.
// The outage is scoped to page creation in one data source of the runner's fake Notion, so the
// journeys running beside this one keep their Notion.

const browser = useBrowser()
const fakeNotionUrl = process.env.FAKE_NOTION_URL ?? ''
const notionVersion = '2025-09-03'

type Database = { id: string; name: string; externalId: string; sync: { lastSyncedAt: string | null } }
type Form = { id: string; fields: { id: string; label: string }[] }

async function fakeNotion(name: string, ...args: unknown[]): Promise<void> {
	assert.ok(fakeNotionUrl, 'FAKE_NOTION_URL is not set: run the journeys with `npm run -w @blocksmith/e2e test`')
	const response = await fetch(`${fakeNotionUrl}/__control/${name}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(args),
	})
	assert.ok(response.ok, `fake Notion control ${name}: ${response.status}`)
}

/** Pages titled `title` in a data source, as Notion itself answers. */
async function notionPagesTitled(dataSourceId: string, title: string): Promise<number> {
	const info = (await (await fetch(`${fakeNotionUrl}/__control/info`)).json()) as { token: string }
	const response = await fetch(`${fakeNotionUrl}/v1/data_sources/${dataSourceId}/query`, {
		method: 'POST',
		headers: {
			authorization: `Bearer ${info.token}`,
			'notion-version': notionVersion,
			'content-type': 'application/json',
		},
		body: JSON.stringify({ filter: { property: 'Name', title: { equals: title } } }),
	})
	assert.equal(response.status, 200)
	return ((await response.json()) as { results: unknown[] }).results.length
}

async function sleep(ms: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ms))
}

test('an answer sent while Notion is down is accepted, shows as waiting, and lands once Notion is back', async (t) => {
	const account = await api.signUp({ name: 'Nadia Notion' })
	const token = account.token
	const info = (await (await fetch(`${fakeNotionUrl}/__control/info`)).json()) as { token: string }
	const connected = await api.callOk<{ workspace: { id: string } }>('/dashboard/workspaces', {
		token,
		json: { tool: 'notion', method: 'token', token: info.token },
	})
	let projects: Database | undefined
	for (let attempt = 0; attempt < 120 && !projects?.sync.lastSyncedAt; attempt++) {
		const databases = await api.callOk<Database[]>(
			`/dashboard/notion/databases?workspaceId=${connected.workspace.id}`,
			{ token },
		)
		projects = databases.find((database) => database.name === 'Projects')
		if (!projects?.sync.lastSyncedAt) {
			await sleep(500)
		}
	}
	assert.ok(projects?.sync.lastSyncedAt, 'the Projects database synced')
	const form = await api.callOk<Form>('/dashboard/forms', {
		token,
		json: { name: 'New project', databaseId: projects.id },
	})
	await api.callOk(`/dashboard/forms/${form.id}`, { token, method: 'PATCH', json: { published: true } })
	const titleLabel = form.fields[0]?.label ?? 'Name'

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	await visitor.page.goto(`/forms/${form.id}`)
	const title = `Outage project ${Date.now().toString(36)}`
	await visitor.page.getByRole('textbox', { name: titleLabel, exact: true }).fill(title)

	await fakeNotion('setPageCreateOutage', projects.externalId, true)
	t.after(() => fakeNotion('setPageCreateOutage', projects?.externalId ?? '', false))
	await visitor.page.getByRole('button', { name: 'Submit' }).click()
	await visitor.page.getByText('Thank you! Your answer has been recorded.').waitFor()

	// The team sees the answer waiting for Notion, with the reason.
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())
	await page.goto(`/forms/${form.id}/submissions`)
	const row = page
		.getByRole('table', { name: 'Submissions to New project' })
		.getByRole('row')
		.filter({ hasText: title })
	await row.getByText(/^(Pending|Failed)$/).waitFor()
	assert.equal(await notionPagesTitled(projects.externalId, title), 0, 'nothing in Notion during the outage')

	// Notion is back: the next scheduled attempt delivers it, and the screen follows.
	await fakeNotion('setPageCreateOutage', projects.externalId, false)
	for (let attempt = 0; attempt < 90; attempt++) {
		if ((await row.getByText('Delivered').count()) > 0) {
			break
		}
		await sleep(1000)
		if (attempt % 10 === 9) {
			await page.reload()
		}
	}
	await row.getByText('Delivered').waitFor()
	await row.getByRole('link', { name: 'Open row' }).waitFor()
	assert.equal(await notionPagesTitled(projects.externalId, title), 1, 'delivered exactly once')

	assertNoProblems(problems)
	assertNoProblems(visitor.problems, [failedRequest(422)])
})
