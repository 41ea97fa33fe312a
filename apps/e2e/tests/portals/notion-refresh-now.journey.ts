import assert from 'node:assert/strict'
import { randomBytes, randomInt } from 'node:crypto'
import { test } from 'node:test'
import type { BrowserContext } from 'playwright-core'
import { until } from '../../../server/src/test/until.ts'
import { api, assertNoProblems, linkIn, newPage, useBrowser, waitForMail } from '../../fixtures.ts'
import { uniqueEmail } from '../../http-api.ts'
import { listedTitles, openPortalPage, toast } from './portal-steps.ts'

// "Refresh now" on a Notion portal (the runner's fake Notion, its demo agency workspace): a
// built-in workspace has nothing to refresh, its edits are the data; a Notion workspace is read
// into the mirror by syncs, and pages read the mirror. A project's budget is changed in Notion
// (as a teammate does there); the member still sees the old one until the owner presses
// "Refresh now" in the setup, then sees the new one after a reload. The budget is put back after,
// for the journeys that share the fake Notion.

const browser = useBrowser()
const fakeNotionUrl = process.env.FAKE_NOTION_URL ?? ''

type DashboardDatabase = { id: string; name: string; sync: { state: string; lastSyncedAt: string | null } }
type DashboardRow = { id: string; externalId: string; title: string; values: Record<string, unknown> }

/** Notion's own API with the integration's token: what a teammate's edit in Notion amounts to. */
async function notionPatch(pageId: string, properties: unknown): Promise<void> {
	const info = (await (await fetch(`${fakeNotionUrl}/__control/info`)).json()) as { token: string }
	const response = await fetch(`${fakeNotionUrl}/v1/pages/${pageId}`, {
		method: 'PATCH',
		headers: {
			authorization: `Bearer ${info.token}`,
			'notion-version': '2025-09-03',
			'content-type': 'application/json',
		},
		body: JSON.stringify({ properties }),
	})
	assert.equal(response.status, 200, `PATCH page ${pageId}: ${response.status} ${await response.text()}`)
}

test('a Notion portal: a budget changed in Notion shows to the member after "Refresh now"', async () => {
	assert.ok(fakeNotionUrl, 'FAKE_NOTION_URL is not set: run the journeys with `npm run -w @blocksmith/e2e test`')
	const contexts: BrowserContext[] = []
	let restore: (() => Promise<void>) | undefined
	try {
		const owner = await api.signUp({ name: 'Nia Notion' })
		const info = (await (await fetch(`${fakeNotionUrl}/__control/info`)).json()) as { token: string }
		const connected = await api.callOk<{ workspace: { id: string } }>('/dashboard/workspaces', {
			token: owner.token,
			json: { tool: 'notion', method: 'token', token: info.token },
		})
		const databases = await until(
			'the demo workspace synced',
			() =>
				api.callOk<DashboardDatabase[]>(`/dashboard/notion/databases?workspaceId=${connected.workspace.id}`, {
					token: owner.token,
				}),
			(list) =>
				['Clients', 'Projects', 'Invoices'].every((name) =>
					list.some((database) => database.name === name && database.sync.lastSyncedAt),
				),
		)

		const ownerTab = await newPage(browser(), { account: owner })
		contexts.push(ownerTab.context)
		const { page } = ownerTab
		await page.goto('/portals')
		const form = page.getByRole('form', { name: 'New portal' })
		await form.getByText('Clients', { exact: true }).waitFor()
		assert.equal(await form.getByRole('checkbox', { name: 'Projects', exact: true }).isChecked(), true)
		const slug = `notion-${randomBytes(3).toString('hex')}`
		await form.getByLabel('Portal name').fill('Agency on Notion')
		await form.getByRole('textbox', { name: /^Address/ }).fill(slug)
		await form.getByRole('button', { name: 'Create portal' }).click()
		await page.waitForURL(/\/portals\/[^/]+$/)
		const portalId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '')
		const freshness = page.getByRole('region', { name: 'Freshness' })
		await freshness.getByRole('button', { name: 'Refresh now' }).waitFor()

		const email = uniqueEmail('nell')
		await api.callOk('/dashboard/notion_portal/invitations/bulk_invite', {
			token: owner.token,
			json: { portalId, members: [{ email, name: 'Nell Acme', company: 'Acme Ltd' }], sendEmails: true },
		})
		const member = await newPage(browser())
		contexts.push(member.context)
		const visitor = member.page
		await visitor.goto(linkIn(await waitForMail(email), `/p/${slug}/sign-in`))
		await visitor.getByRole('heading', { level: 1, name: 'Welcome, Nell Acme' }).waitFor()
		await openPortalPage(visitor, 'Projects')
		const [project] = await listedTitles(visitor, 'Projects')
		assert.ok(project, 'Nell sees a project of Acme')

		// The project's page in Notion, and its budget now.
		const projects = databases.find((database) => database.name === 'Projects') as DashboardDatabase
		const schema = await api.callOk<{ properties: { id: string; name: string }[] }>(
			`/dashboard/notion/databases/${projects.id}`,
			{ token: owner.token },
		)
		const budgetId = schema.properties.find((property) => property.name === 'Budget')?.id ?? ''
		const { rows } = await api.callOk<{ rows: DashboardRow[] }>(
			`/dashboard/notion/databases/${projects.id}/rows?search=${encodeURIComponent(project)}`,
			{ token: owner.token },
		)
		const row = rows.find((one) => one.title === project)
		assert.ok(row, `${project} in the mirror`)
		const before = row.values[budgetId] as number | null
		restore = () => notionPatch(row.externalId, { Budget: { number: before } })
		const budget = 70_000 + randomInt(1000) * 10
		const shown = new Intl.NumberFormat('en-US').format(budget)
		await notionPatch(row.externalId, { Budget: { number: budget } })

		// Not yet: the member's page reads the mirror, and no sync has run since.
		const cellOf = () =>
			visitor
				.getByRole('table', { name: 'Projects', exact: true })
				.getByRole('row')
				.filter({ has: visitor.getByRole('rowheader', { name: project, exact: true }) })
		await visitor.reload()
		await cellOf().waitFor()
		assert.ok(!(await cellOf().textContent())?.includes(shown), 'the change is not there before a sync')

		// "Refresh now": the portal's databases are synced; the member reloads and sees it.
		const started = Date.now()
		await freshness.getByRole('button', { name: 'Refresh now' }).click()
		await until(
			'the refresh to finish',
			() =>
				api.callOk<{ isRunning: boolean; databases: { name: string; state: string; lastSyncedAt: string | null }[] }>(
					`/dashboard/notion_portal/databases/get_job_timer?portalId=${portalId}`,
					{ token: owner.token },
				),
			(timer) =>
				!timer.isRunning &&
				timer.databases.some(
					(database) =>
						database.name === 'Projects' &&
						database.state === 'idle' &&
						Date.parse(database.lastSyncedAt ?? '') >= started - 1000,
				),
		)
		await freshness.getByText('Idle').waitFor()
		await until(
			'the member to see the new budget',
			async () => {
				await visitor.reload()
				await cellOf().waitFor()
				return (await cellOf().textContent()) ?? ''
			},
			(text) => text.includes(shown),
			30_000,
		)
		assert.equal(await toast(page, /failed|could not/i).count(), 0)

		assertNoProblems(ownerTab.problems)
		assertNoProblems(member.problems)
	} finally {
		await restore?.()
		await Promise.all(contexts.map((context) => context.close()))
	}
})
