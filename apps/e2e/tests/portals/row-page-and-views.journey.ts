import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import {
	api,
	assertNoProblems,
	failedRequest,
	linkIn,
	newPage,
	pathOf,
	useBrowser,
	waitForMail,
} from '../../fixtures.ts'
import { uniqueEmail } from '../../http-api.ts'
import { selectOptionMatching } from '../invoices/invoice-steps.ts'
import {
	allRows,
	createSuggestedPortal,
	openPageSettings,
	openPortalPage,
	sampleDatabases,
	savePortal,
	titlesOfCompany,
} from './portal-steps.ts'

// A member's row page and the page's views: the owner shows the Projects page's Client relation
// and adds the client's own row as a page, so a project's client links to that page inside the
// portal (never to the dashboard, never to another company's row); then switches the Projects
// page to a list, a board by Status and a gallery in the setup, and the member sees each after a
// reload. A project of another company, opened by its address, is "not here".

const browser = useBrowser()

test('a member’s row page links its client inside the portal; list, board and gallery switched in the setup show to the member', async () => {
	const contexts: BrowserContext[] = []
	try {
		const owner = await api.signUp({ name: 'Vera Views' })
		await api.callOk('/dashboard/workspaces/sample', { token: owner.token, json: {} })
		const ownerTab = await newPage(browser(), { account: owner })
		contexts.push(ownerTab.context)
		const { page } = ownerTab

		const slug = `views-${randomBytes(3).toString('hex')}`
		const portalId = await createSuggestedPortal(page, 'Views Portal', slug)
		// Projects shows its Client; the client's own row is a page of its own.
		const projectsSettings = await openPageSettings(page, 'Projects')
		await projectsSettings.getByRole('checkbox', { name: 'Show Client', exact: true }).click()
		await selectOptionMatching(page.getByLabel('Add a database'), /^Clients \(/)
		await page.getByRole('button', { name: 'Add page' }).click()
		await page
			.getByRole('list', { name: 'Pages' })
			.getByText(/own company/)
			.first()
			.waitFor()
		await savePortal(page)

		const email = uniqueEmail('dina')
		await api.callOk('/dashboard/local_portal/invitations/bulk_invite', {
			token: owner.token,
			json: { portalId, members: [{ email, name: 'Dina Moss', company: 'Acme Ltd' }], sendEmails: true },
		})
		const member = await newPage(browser())
		contexts.push(member.context)
		const visitor = member.page
		await visitor.goto(linkIn(await waitForMail(email), `/p/${slug}/sign-in`))
		await visitor.getByRole('heading', { level: 1, name: 'Welcome, Dina Moss' }).waitFor()

		// The row page: its properties, and its client a link inside the portal.
		const databases = await sampleDatabases(owner.token)
		const acmeProjects = await titlesOfCompany(owner.token, databases, 'Projects', 'Acme Ltd')
		const project = acmeProjects[0] as string
		await openPortalPage(visitor, 'Projects')
		await visitor.getByRole('table', { name: 'Projects', exact: true }).getByRole('link', { name: project }).click()
		await visitor.getByRole('heading', { level: 1, name: project }).waitFor()
		assert.match(pathOf(visitor), new RegExp(`^/p/${slug}/projects/[^/]+$`))
		const client = visitor.getByRole('main').getByRole('link', { name: 'Acme Ltd', exact: true })
		const href = (await client.getAttribute('href')) ?? ''
		assert.match(href, new RegExp(`^/p/${slug}/[a-z0-9-]+/[^/]+$`), `the client link stays in the portal: ${href}`)
		await client.click()
		await visitor.getByRole('heading', { level: 1, name: 'Acme Ltd' }).waitFor()
		assert.equal(pathOf(visitor), href)
		await visitor.goBack()
		await visitor.getByRole('heading', { level: 1, name: project }).waitFor()
		await visitor.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: '← Projects' }).click()
		await visitor.getByRole('table', { name: 'Projects', exact: true }).waitFor()

		// Another company's project, by its address: not here, like a row that never existed.
		const clients = await allRows(owner.token, databases.get('Clients')?.id ?? '')
		const globex = clients.find((row) => row.title === 'Globex Corporation')
		const projectsDb = databases.get('Projects')
		const clientProperty = projectsDb?.properties.find((property) => property.name === 'Client')?.id ?? ''
		const foreign = (await allRows(owner.token, projectsDb?.id ?? '')).find((row) =>
			(row.values[clientProperty] as string[] | undefined)?.includes(globex?.id ?? ''),
		)
		assert.ok(foreign, 'Globex has a project')
		await visitor.goto(`/p/${slug}/projects/${encodeURIComponent(foreign.id)}`)
		await visitor.getByRole('heading', { name: 'This item is not here' }).waitFor()
		assert.equal(await visitor.getByText(foreign.title).count(), 0, 'nothing of the other row shows')

		// The views, switched in the setup, as the member sees them after a reload.
		await switchView(page, 'List')
		await visitor.goto(`/p/${slug}/projects`)
		const firstLink = visitor.getByRole('main').getByRole('link', { name: project, exact: true })
		await firstLink.waitFor()
		assert.equal(await visitor.getByRole('table').count(), 0, 'no table in the list view')
		assert.equal(await listDisplay(visitor, project), 'block')

		await switchView(page, 'Board', async (settings) => {
			await settings.getByLabel(/^Group the board by/).selectOption({ label: 'Status' })
		})
		await visitor.reload()
		await firstLink.waitFor()
		const columns = visitor.getByRole('main').getByRole('region')
		await columns.first().waitFor()
		const statuses = (await columns.evaluateAll((sections) => sections.map((one) => one.getAttribute('aria-label'))))
			.filter(Boolean)
			.sort()
		assert.ok(
			statuses.length > 0 && statuses.every((name) => /Not started|In progress|Done/.test(name ?? '')),
			statuses.join(),
		)
		// Every project of the member's company is on the board, once.
		for (const title of acmeProjects) {
			assert.equal(await columns.getByRole('link', { name: title, exact: true }).count(), 1, title)
		}

		await switchView(page, 'Gallery')
		await visitor.reload()
		await firstLink.waitFor()
		assert.equal(await visitor.getByRole('main').getByRole('region').count(), 0, 'no board columns in the gallery')
		assert.equal(await listDisplay(visitor, project), 'grid')

		assertNoProblems(ownerTab.problems)
		assertNoProblems(member.problems, [failedRequest(404)])
	} finally {
		await Promise.all(contexts.map((context) => context.close()))
	}
})

/** The setup: the Projects page's view chosen (and what it needs), saved. */
async function switchView(
	page: Page,
	view: 'List' | 'Board' | 'Gallery',
	more?: (settings: ReturnType<Page['locator']>) => Promise<void>,
): Promise<void> {
	const settings = await openPageSettings(page, 'Projects')
	await settings.getByLabel('View', { exact: true }).selectOption({ label: view })
	await more?.(settings)
	await savePortal(page)
}

/** How the list holding the row's link is laid out: a list view stacks (block), a gallery is a grid. */
async function listDisplay(page: Page, title: string): Promise<string> {
	return page
		.getByRole('main')
		.getByRole('link', { name: title, exact: true })
		.evaluate((link) => getComputedStyle(link.closest('ul') as HTMLElement).display)
}
