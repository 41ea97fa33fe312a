import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, baseUrl, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// The forms module as a team and its visitors use it: a form built on the sample workspace's
// Enquiries database (one field of every kind), its page head set and published; an anonymous
// visitor fills it in; the row lands in the database, the submission shows as delivered, and
// analytics count the view and the answer.

const browser = useBrowser()

const faviconSvg =
	'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" onload="alert(1)"><script>alert(2)</script><rect width="16" height="16" rx="3" fill="#4338ca"/></svg>'
// A 1×1 PNG.
const thumbnailPng = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
	'base64',
)

type Database = { id: string; name: string; properties: { id: string; name: string }[] }
type Row = { id: string; title: string; values: Record<string, unknown> }

function toast(page: Page, text: string) {
	return page.locator('[data-sonner-toast]').filter({ hasText: text })
}

async function headOf(page: Page) {
	return page.evaluate(() => ({
		title: document.title,
		description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
		ogImage: document.querySelector('meta[property="og:image"]')?.getAttribute('content') ?? null,
		icon: document.querySelector('link[rel="icon"]')?.getAttribute('href') ?? null,
		robots: document.querySelector('meta[name="robots"]')?.getAttribute('content') ?? null,
	}))
}

/** Saves the builder's draft and waits until the server has it. */
async function save(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Save', exact: true }).click()
	await page.getByText('All changes saved').waitFor()
}

/** A figure of the analytics totals, e.g. "Views". */
function total(page: Page, name: string) {
	return page.locator('dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]')
}

test('a form on a database: built, published, filled in by a visitor, delivered and counted', async (t) => {
	const account = await api.signUp({ name: 'Fiona Form' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())

	await page.goto('/workspaces')
	await page.getByRole('button', { name: 'Create a sample workspace' }).click()
	await toast(page, 'Your sample workspace is ready').waitFor()

	// Build: the plain inputs of Enquiries become fields of their kind; status, people and relation
	// (which would show visitors the team's names and the client list) are added by hand.
	await page.goto('/forms')
	await page.getByRole('button', { name: 'New form' }).first().click()
	const dialog = page.getByRole('dialog', { name: 'New form' })
	await dialog.getByRole('radio', { name: /Use an existing database/ }).check()
	await dialog.getByRole('combobox', { name: 'Database' }).click()
	await page.getByRole('option', { name: 'Enquiries' }).click()
	await dialog.getByRole('textbox', { name: 'Name' }).fill('Contact us')
	await dialog.getByRole('button', { name: /^Start from scratch/ }).click()
	await page.waitForURL(/\/forms\/[^/]+\/edit$/)
	const formId = /\/forms\/([^/]+)\/edit$/.exec(new URL(page.url()).pathname)?.[1] ?? ''
	const fields = page.getByRole('list', { name: 'Fields' })
	for (const label of ['Name', 'Message', 'Budget', 'Service', 'Interests', 'Preferred start']) {
		await fields.getByRole('button', { name: `Edit ${label}`, exact: true }).waitFor()
	}
	for (const label of ['Newsletter', 'Website', 'Email', 'Phone', 'Attachments']) {
		await fields.getByRole('button', { name: `Edit ${label}`, exact: true }).waitFor()
	}
	for (const label of ['Status', 'Assignee', 'Client']) {
		assert.equal(await fields.getByRole('button', { name: `Edit ${label}`, exact: true }).count(), 0, label)
		await page.getByRole('button', { name: 'Add', exact: true }).click()
		await page.getByRole('menuitem', { name: new RegExp(`^${label}`) }).click()
		await fields.getByRole('button', { name: `Edit ${label}`, exact: true }).waitFor()
	}
	// The message is a long answer, and the e-mail address is required.
	await fields.getByRole('button', { name: 'Edit Message', exact: true }).click()
	await page.getByRole('radio', { name: 'Long answer' }).check()
	await fields.getByRole('button', { name: 'Edit Email', exact: true }).click()
	await page.getByRole('switch', { name: 'Required' }).click()

	// The page head: title, description, an SVG favicon and a thumbnail.
	await page.getByRole('tab', { name: 'Page' }).click()
	await page.getByLabel('Page title').fill('Work with us')
	await page.getByLabel('Page description').fill('Tell us about your project.')
	await page
		.getByLabel('Upload favicon')
		.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(faviconSvg) })
	await page.getByText('logo.svg').waitFor()
	await page
		.getByLabel('Upload thumbnail')
		.setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: thumbnailPng })
	await page.getByText('cover.png').waitFor()
	await save(page)
	await page.getByRole('button', { name: 'Publish', exact: true }).click()
	await page.getByRole('button', { name: 'Unpublish', exact: true }).waitFor()

	// What a crawler sees, without running JavaScript.
	const served = await (await fetch(`${baseUrl}/forms/${formId}`)).text()
	assert.match(served, /<title>Work with us<\/title>/)
	assert.match(served, /<meta name="robots" content="noindex" \/>/)
	assert.match(served, /<link rel="icon" href="data:image\/svg\+xml;base64,/)

	// An anonymous visitor on a phone-sized screen.
	const visitor = await newPage(browser(), { viewport: { width: 390, height: 844 } })
	t.after(() => visitor.context.close())
	const form = visitor.page
	await form.goto(`/forms/${formId}`)
	await form.getByRole('heading', { name: 'Work with us' }).waitFor()
	const head = await headOf(form)
	assert.equal(head.title, 'Work with us')
	assert.equal(head.description, 'Tell us about your project.')
	assert.equal(head.ogImage, `${baseUrl}/api/forms/${formId}/assets/thumbnail`)
	assert.equal(head.robots, 'noindex')
	assert.ok(head.icon?.startsWith('data:image/svg+xml;base64,'), `favicon inlined: ${head.icon?.slice(0, 40)}`)
	const icon = Buffer.from(head.icon?.split(',')[1] ?? '', 'base64').toString('utf8')
	assert.match(icon, /<rect/)
	assert.doesNotMatch(icon, /script|onload|alert/i, 'the favicon is sanitised')
	const thumbnail = await fetch(head.ogImage ?? '')
	assert.equal(thumbnail.headers.get('content-type'), 'image/png')

	await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada Lovelace')
	await form.getByRole('textbox', { name: 'Message' }).fill('We need a new website.\nSoon.')
	await form.getByRole('textbox', { name: 'Budget' }).fill('4200')
	await form.getByRole('radiogroup', { name: 'Service' }).getByRole('radio', { name: 'Consulting' }).check()
	await form.getByRole('group', { name: 'Interests' }).getByRole('checkbox', { name: 'Website' }).check()
	await form.getByRole('group', { name: 'Interests' }).getByRole('checkbox', { name: 'SEO' }).check()
	await form.getByRole('radiogroup', { name: 'Status' }).getByRole('radio', { name: 'New' }).check()
	await form.getByLabel('Preferred start').fill('2026-12-01')
	await form.getByRole('checkbox', { name: 'Newsletter' }).check()
	await form.getByRole('textbox', { name: 'Website' }).fill('https://ada.example')
	await form.getByRole('textbox', { name: 'Email' }).fill('ada@example.com')
	await form.getByRole('textbox', { name: 'Phone' }).fill('+44 20 7946 0000')
	await form.getByRole('group', { name: 'Assignee' }).getByRole('checkbox', { name: 'Fiona Form' }).check()
	const client = form.getByRole('group', { name: 'Client' })
	await client.getByRole('searchbox', { name: 'Search Client' }).fill('a')
	await client.getByRole('checkbox').first().check()
	await form.getByRole('button', { name: 'Submit' }).click()
	await form.getByText('Thank you! Your answer has been recorded.').waitFor()

	// The row is in the database, typed.
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token: account.token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	assert.ok(enquiries)
	const propertyId = (name: string) => enquiries.properties.find((p) => p.name === name)?.id ?? ''
	let row: Row | undefined
	for (let attempt = 0; attempt < 60 && !row; attempt++) {
		const page = await api.callOk<{ rows: Row[] }>(
			`/dashboard/local/databases/${enquiries.id}/rows?search=${encodeURIComponent('Ada Lovelace')}`,
			{ token: account.token },
		)
		row = page.rows[0]
		if (!row) {
			await new Promise((resolve) => setTimeout(resolve, 500))
		}
	}
	assert.ok(row, 'the answer became a row')
	assert.equal(row.values[propertyId('Budget')], 4200)
	assert.deepEqual(row.values[propertyId('Interests')], ['Website', 'SEO'])
	assert.equal(row.values[propertyId('Service')], 'Consulting')
	assert.equal(row.values[propertyId('Newsletter')], true)
	assert.equal(row.values[propertyId('Message')], 'We need a new website.\nSoon.')
	assert.equal((row.values[propertyId('Client')] as string[]).length, 1)

	// The submission shows as delivered, with a link to its row.
	await page.goto(`/forms/${formId}/submissions`)
	const table = page.getByRole('table', { name: 'Submissions to Contact us' })
	const answer = table.getByRole('row').filter({ hasText: 'Ada Lovelace' })
	await answer.getByText('Delivered').waitFor()
	await answer.getByRole('link', { name: 'Open row' }).waitFor()

	// Indexable: the noindex tag goes.
	await page.goto(`/forms/${formId}/edit`)
	await page.getByRole('tab', { name: 'Page' }).click()
	await page.getByRole('switch', { name: 'Let search engines index this page' }).click()
	await save(page)
	await form.reload()
	await form.getByRole('heading', { name: 'Work with us' }).waitFor()
	assert.equal((await headOf(form)).robots, null, 'no noindex once indexable')

	// Analytics: the views (counted in batches) and the submission.
	await page.goto(`/forms/${formId}/analytics`)
	for (let attempt = 0; attempt < 30; attempt++) {
		if (Number((await total(page, 'Views').textContent())?.trim() ?? 0) >= 1) {
			break
		}
		await new Promise((resolve) => setTimeout(resolve, 1000))
		await page.reload()
	}
	assert.ok(Number((await total(page, 'Views').textContent())?.trim()) >= 1, 'the view is counted')
	assert.equal((await total(page, 'Submissions').textContent())?.trim(), '1')

	assertNoProblems(problems)
	// The first submit may come back faster than the minimum fill time allows; the page waits and sends again.
	assertNoProblems(visitor.problems, [failedRequest(422)])
})
