import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { launchBrowser, newPage } from '../../fixtures.ts'

// The server serves the built web app: index.html for app paths, hashed assets, the favicon,
// and the API reference, all under the strict CSP.

const promotionalTitle = 'Blocksmith — Charts, Invoices, Forms, Portals & Time Tracking for Notion'
const modules = ['Forms', 'Charts', 'Invoices', 'Portals', 'Time Tracking']

let browser: Browser
before(async () => {
	browser = await launchBrowser()
})
after(async () => {
	await browser?.close()
})

test('the landing page renders under the strict CSP, with the promotional title and favicon', async (t) => {
	const { page, context, problems } = await newPage(browser)
	t.after(() => context.close())
	const assetResponses: { url: string; cacheControl: string | undefined }[] = []
	page.on('response', (response) => {
		if (new URL(response.url()).pathname.startsWith('/assets/')) {
			assetResponses.push({ url: response.url(), cacheControl: response.headers()['cache-control'] })
		}
	})

	const response = await page.goto('/')
	assert.equal(response?.status(), 200)
	assert.match(response.headers()['content-security-policy'] ?? '', /script-src 'self'(;|$)/)
	assert.equal(await page.title(), promotionalTitle)
	const description = await page.locator('meta[name="description"]').getAttribute('content')
	assert.match(description ?? '', /Notion/)

	// Rendered by React, so the bundle loaded and ran under the CSP.
	await page.getByRole('heading', { level: 1, name: 'Blocksmith' }).waitFor()
	const moduleList = page.getByRole('list', { name: 'Modules' })
	assert.deepEqual(await moduleList.getByRole('heading', { level: 2 }).allTextContents(), modules)
	assert.equal(await page.getByRole('link', { name: 'Sign in' }).getAttribute('href'), '/login')
	assert.equal(await page.getByRole('link', { name: 'Create an account' }).getAttribute('href'), '/register')

	const faviconHref = await page.locator('link[rel="icon"]').getAttribute('href')
	assert.equal(faviconHref, '/favicon.svg')
	const favicon = await page.request.get(faviconHref)
	assert.equal(favicon.status(), 200)
	assert.match(favicon.headers()['content-type'] ?? '', /^image\/svg\+xml/)
	assert.match(await favicon.text(), /<svg[\s>]/)

	assert.ok(assetResponses.length >= 2, `expected the script and stylesheet, got ${JSON.stringify(assetResponses)}`)
	for (const asset of assetResponses) {
		assert.match(asset.cacheControl ?? '', /immutable/, `${asset.url} is not cached as immutable`)
	}
	assert.deepEqual(problems, [])
})

test('an app path the server does not know gets index.html, an unknown API path does not', async (t) => {
	const { page, context, problems } = await newPage(browser)
	t.after(() => context.close())

	const response = await page.goto('/some/page')
	assert.equal(response?.status(), 200)
	assert.match(response.headers()['content-type'] ?? '', /^text\/html/)
	assert.equal(await page.title(), promotionalTitle)
	await page.locator('#root > *').first().waitFor()
	assert.deepEqual(problems, [])

	const api = await page.request.get('/api/no-such-endpoint')
	assert.equal(api.status(), 404)
	assert.doesNotMatch(api.headers()['content-type'] ?? '', /text\/html/)
})

test('the API reference renders at /api/docs', async (t) => {
	const { page, context, problems } = await newPage(browser)
	t.after(() => context.close())

	const response = await page.goto('/api/docs')
	assert.equal(response?.status(), 200)
	const title = page.locator('.swagger-ui .info .title')
	await title.waitFor()
	assert.match((await title.textContent()) ?? '', /^Blocksmith API/)
	assert.deepEqual(problems, [])
})

test('the OpenAPI document describes the API', async (t) => {
	const { page, context } = await newPage(browser)
	t.after(() => context.close())

	const response = await page.request.get('/api/openapi.json')
	assert.equal(response.status(), 200)
	const document = (await response.json()) as { info?: { title?: string }; paths?: Record<string, unknown> }
	assert.equal(document.info?.title, 'Blocksmith API')
	assert.ok(document.paths && '/auth/validate_token' in document.paths, 'no /auth/validate_token in the paths')
})
