import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { portals } from '#src/features/portals/portals.schema.ts'
import { insertSamplePortal, sampleDatabases } from '#src/test/portals.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// The portal visitor's page (decision 038): portal.html on /p/{slug}/… and on every page path of
// a portal's custom domain, with where the portal is written into the page; the dashboard stays
// on the main host.

const dist = mkdtempSync(path.join(os.tmpdir(), 'bs-dist-portal-'))
let t: TestApp
let slug: string
const domain = 'clients.example.org'

beforeAll(async () => {
	writeFileSync(
		path.join(dist, 'index.html'),
		'<!doctype html><html><head><title>App</title></head><body></body></html>',
	)
	writeFileSync(
		path.join(dist, 'portal.html'),
		'<!doctype html><html><head><title>Portal</title></head><body><div id="root"></div></body></html>',
	)
	writeFileSync(
		path.join(dist, 'form.html'),
		'<!doctype html><html><head><title>Form</title></head><body><div id="root"></div></body></html>',
	)
	mkdirSync(path.join(dist, 'assets'))
	writeFileSync(path.join(dist, 'assets', 'portal-abc123.js'), 'console.log(1)')
	t = await createTestApp({ WEB_DIST_DIR: dist })
	const owner = await t.signUp()
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
	const databases = await sampleDatabases(t, owner.token)
	const portal = await insertSamplePortal(t, details.body.id as string, databases, { customDomain: domain })
	slug = portal.slug
})
afterAll(async () => {
	await t.close()
	rmSync(dist, { recursive: true, force: true })
})

/** The portal data block the server wrote into the page, or null. */
function portalData(html: string): unknown {
	const match = html.match(/<script type="application\/json" id="blocksmith-portal">(.*?)<\/script>/)
	return match ? JSON.parse(match[1] as string) : null
}

describe('serving the portal page', () => {
	test('/p/{slug} and every path under it get portal.html with the slug and base path', async () => {
		for (const pathname of [`/p/${slug}`, `/p/${slug}/`, `/p/${slug}/sign-in`, `/p/${slug}/projects/row-1`]) {
			const response = await t.request('GET', pathname)
			expect(response.status, pathname).toBe(200)
			expect(response.body).toContain('<title>Portal</title>')
			expect(portalData(response.body)).toEqual({ slug, basePath: `/p/${slug}` })
			expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow')
			// Never framed: a member's rows must not be shown inside someone else's page.
			expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
			expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN')
		}
	})

	test('an unknown slug gets the page too; the app learns from the API that there is no portal', async () => {
		const response = await t.request('GET', '/p/no-such-portal/projects')
		expect(response.status).toBe(200)
		expect(portalData(response.body)).toEqual({ slug: 'no-such-portal', basePath: '/p/no-such-portal' })
		const api = await t.request('GET', '/api/portal/no-such-portal')
		expect(api.status).toBe(404)
	})

	test('the data block cannot end its script element early', async () => {
		const response = await t.request('GET', '/p/%3C%2Fscript%3E')
		expect(response.status).toBe(200)
		const block = response.body.split('id="blocksmith-portal">')[1] as string
		expect(block.indexOf('</script>')).toBe(block.indexOf('</script></head>'))
		expect(portalData(response.body)).toMatchObject({ slug: '</script>' })
	})

	test("on the portal's custom domain every page path is the portal at /, never the dashboard", async () => {
		for (const pathname of ['/', '/sign-in', '/projects', '/projects/row-1', '/settings', '/login', '/forms/abc']) {
			const response = await t.request('GET', pathname, { headers: { host: `${domain}:443` } })
			expect(response.status, pathname).toBe(200)
			expect(response.body, pathname).toContain('<title>Portal</title>')
			expect(portalData(response.body)).toEqual({ slug, basePath: '' })
			// Even where the path looks like a published form's, which may be framed on the main host.
			expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
		}
		// Assets and the API are the same as on the main host.
		const asset = await t.request('GET', '/assets/portal-abc123.js', { headers: { host: domain } })
		expect(asset.status).toBe(200)
		const api = await t.request('GET', `/api/portal/${slug}`, { headers: { host: domain } })
		expect(api.headers.get('content-type')).toContain('json')
		const dashboard = await t.request('GET', '/dashboard/users/get_org_details', { headers: { host: domain } })
		expect(dashboard.status).toBe(401)
	})

	test('the main host and other hosts keep the dashboard', async () => {
		for (const host of ['localhost:3000', 'other.example.org']) {
			const response = await t.request('GET', '/settings', { headers: { host } })
			expect(response.body).toContain('<title>App</title>')
			expect(portalData(response.body)).toBeNull()
		}
	})

	test('a disabled portal no longer takes its domain', async () => {
		await t.db.update(portals).set({ isEnabled: false }).where(eq(portals.customDomain, domain))
		try {
			const response = await t.request('GET', '/projects', { headers: { host: domain } })
			expect(response.body).toContain('<title>App</title>')
		} finally {
			await t.db.update(portals).set({ isEnabled: true }).where(eq(portals.customDomain, domain))
		}
	})
})
