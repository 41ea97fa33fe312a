import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

const dist = mkdtempSync(path.join(os.tmpdir(), 'bs-dist-'))
let t: TestApp

beforeAll(async () => {
	writeFileSync(
		path.join(dist, 'index.html'),
		'<!doctype html><html><head><title>App</title></head><body></body></html>',
	)
	writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\n')
	mkdirSync(path.join(dist, 'assets'))
	writeFileSync(path.join(dist, 'assets', 'main-abc123.js'), 'console.log(1)')
	mkdirSync(path.join(dist, '.vite'))
	writeFileSync(path.join(dist, '.vite', 'manifest.json'), '{}')
	t = await createTestApp({
		WEB_DIST_DIR: dist,
		ANALYTICS_SCRIPT_URL: 'https://stats.example.org/script.js?x=</script>',
		SESSION_REFRESH_INTERVAL_SECONDS: '300',
	})
})
afterAll(async () => {
	await t.close()
	rmSync(dist, { recursive: true, force: true })
})

describe('serving the web app', () => {
	test('every app path gets index.html with the client config as a JSON data block', async () => {
		for (const pathname of ['/', '/login', '/settings', '/forms', '/some/deep/page']) {
			const response = await t.app.request(pathname)
			expect(response.status).toBe(200)
			expect(response.headers.get('cache-control')).toBe('no-cache')
			const html = await response.text()
			const match = html.match(/<script type="application\/json" id="blocksmith-config">(.*?)<\/script>/)
			expect(match?.[1]).toBeDefined()
			expect(JSON.parse(match?.[1] ?? '')).toEqual({
				analyticsScriptUrl: 'https://stats.example.org/script.js?x=</script>',
				sessionRefreshIntervalSeconds: 300,
				// No NOTION_CLIENT_ID/SECRET here: no "Continue with Notion".
				isNotionSignInEnabled: false,
				deletionGraceDays: 30,
			})
			// The config cannot end the script element early.
			expect(match?.[1]).not.toContain('</script>')
		}
	})

	test('hashed assets are cached for good; top-level files are served; build internals are not', async () => {
		const asset = await t.app.request('/assets/main-abc123.js')
		expect(asset.status).toBe(200)
		expect(asset.headers.get('cache-control')).toContain('immutable')
		expect(await (await t.app.request('/robots.txt')).text()).toContain('User-agent')
		const manifest = await t.app.request('/.vite/manifest.json')
		expect(await manifest.text()).not.toBe('{}')
	})

	test('a missing file is a 404, never index.html', async () => {
		for (const pathname of ['/missing.js', '/assets/main-old.js', '/favicon.ico']) {
			const response = await t.app.request(pathname)
			expect(response.status).toBe(404)
			expect(await response.text()).not.toContain('<!doctype html>')
		}
	})

	test('API paths never fall back to index.html', async () => {
		const response = await t.app.request('/dashboard/unknown')
		expect(response.status).toBe(404)
		expect(response.headers.get('content-type')).toBe('application/problem+json')
	})

	test('the CSP allows the configured analytics origin and nothing else', async () => {
		const csp = (await t.app.request('/')).headers.get('content-security-policy') ?? ''
		expect(csp).toContain("script-src 'self' https://stats.example.org")
	})
})
