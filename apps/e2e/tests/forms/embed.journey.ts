import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { test } from 'node:test'
import { api, assertNoProblems, baseUrl, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// A published form inside someone else's page: the iframe snippet with embed.js grows with the
// form and shrinks to the confirmation; the form submits from inside the frame; the popup
// button opens it over the page.

const browser = useBrowser()

type Database = { id: string; name: string }
type Form = { id: string; fields: { id: string; label: string }[] }

test('an embedded form resizes its frame, submits from inside it, and opens as a popup', async (t) => {
	const account = await api.signUp({ name: 'Emma Embed' })
	const token = account.token
	await api.callOk('/dashboard/workspaces/sample', { token, method: 'POST' })
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	assert.ok(enquiries)
	const form = await api.callOk<Form>('/dashboard/forms', {
		token,
		json: { name: 'Embedded', databaseId: enquiries.id },
	})
	await api.callOk(`/dashboard/forms/${form.id}`, { token, method: 'PATCH', json: { published: true } })
	const formUrl = `${baseUrl}/forms/${form.id}`

	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())
	// Someone else's site, on an origin of its own (CSP's frame-ancestors matches http(s) pages),
	// served from loopback like the app: Chromium keeps public origins from framing loopback ones.
	const site = createServer((_request, response) => {
		response.writeHead(200, { 'content-type': 'text/html' })
		response.end(`<!doctype html><html><body style="margin:0">
		<h1>Our agency</h1>
		<iframe data-blocksmith-form src="${formUrl}" title="Contact form" style="width:100%;height:150px;border:0"></iframe>
		<button data-blocksmith-popup="${formUrl}">Contact us</button>
		<script src="${baseUrl}/embed.js"></script>
	</body></html>`)
	})
	await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
	t.after(() => new Promise((resolve) => site.close(resolve)))
	const hostUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`
	await page.goto(hostUrl)
	const frameElement = page.locator('iframe[data-blocksmith-form]')
	const heightOf = async () =>
		Number.parseFloat(await frameElement.evaluate((element) => getComputedStyle(element).height))
	const frame = page.frameLocator('iframe[data-blocksmith-form]')
	await frame.getByRole('button', { name: 'Submit' }).waitFor()
	// The eleven fields a new form on Enquiries asks make a tall form: the frame follows it.
	for (let attempt = 0; attempt < 50 && (await heightOf()) < 800; attempt++) {
		await page.waitForTimeout(100)
	}
	const tall = await heightOf()
	assert.ok(tall > 800, `the frame grew to the form: ${tall}px`)

	await frame.getByRole('textbox', { name: 'Name', exact: true }).fill('Framed visitor')
	await frame.getByRole('button', { name: 'Submit' }).click()
	await frame.getByText('Thank you! Your answer has been recorded.').waitFor()
	for (let attempt = 0; attempt < 50 && (await heightOf()) >= tall; attempt++) {
		await page.waitForTimeout(100)
	}
	assert.ok((await heightOf()) < tall, 'the frame shrank to the confirmation')

	await page.getByRole('button', { name: 'Contact us' }).click()
	const popup = page.getByRole('dialog', { name: 'Contact us' })
	await popup.frameLocator('iframe').getByRole('button', { name: 'Submit' }).waitFor()
	await page.keyboard.press('Escape')
	await popup.waitFor({ state: 'detached' })

	const submissions = await api.callOk<{ total: number }>(`/dashboard/forms/${form.id}/submissions`, { token })
	assert.equal(submissions.total, 1)
	// The first submit may come back faster than the minimum fill time allows; the page waits and sends again.
	assertNoProblems(problems, [failedRequest(422)])
})
