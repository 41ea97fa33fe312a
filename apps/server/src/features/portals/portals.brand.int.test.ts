import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { accountWithSample, sampleSetup, saveSetup, uniqueSlug, uploadImage } from '#src/test/portals-setup.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// A portal's public face (no session): name, colours and logo for the sign-in page, with where
// its pages live (on its custom domain: at `/`). Unknown, disabled and unserved portals are 404.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t?.close()
})

describe('public info and logo', () => {
	test('info and the logo’s bytes; basePath is empty on the custom domain', async () => {
		const account = await accountWithSample(t)
		const logo = await uploadImage(t, account.token, 'logo.png', 'image/png')
		const domain = `clients-${uniqueSlug()}.example.com`
		const saved = await saveSetup(
			t,
			account.token,
			sampleSetup(account.databases, {
				name: 'Acme clients',
				customDomain: domain,
				branding: {
					logoBlobId: logo.id,
					accentColor: '#123456',
					backgroundColor: '#fafafa',
					theme: 'dark',
					welcome: 'Welcome, client.',
				},
				access: { companiesDatabaseId: account.databases.Clients?.id, allowPasswords: false },
			}),
		)
		expect(saved.status, JSON.stringify(saved.body)).toBe(201)
		const { slug } = saved.body
		const info = await t.request('GET', `/api/portal/${slug}`)
		expect(info.status).toBe(200)
		expect(info.body).toEqual({
			slug,
			name: 'Acme clients',
			logoUrl: saved.body.logoUrl,
			accentColor: '#123456',
			backgroundColor: '#fafafa',
			theme: 'dark',
			welcome: 'Welcome, client.',
			allowPasswords: false,
			basePath: `/p/${slug}`,
		})
		// Nothing of its pages, members or databases.
		expect(JSON.stringify(info.body)).not.toContain(account.databases.Projects?.id as string)

		const onDomain = await t.request('GET', `/api/portal/${slug}`, { headers: { host: `${domain.toUpperCase()}:443` } })
		expect(onDomain.status).toBe(200)
		expect(onDomain.body.basePath).toBe('')
		// A TLS proxy may ask for certificates for this domain only, while the portal is on.
		const ask = (name: string) => t.request('GET', `/api/portal_domains/check?domain=${encodeURIComponent(name)}`)
		expect((await ask(domain)).status).toBe(200)
		expect((await ask(`other-${domain}`)).status).toBe(404)
		// Slugs are matched lowercase.
		expect((await t.request('GET', `/api/portal/${slug.toUpperCase()}`)).status).toBe(200)

		const url = new URL(saved.body.logoUrl)
		expect(url.pathname).toBe(`/api/portal/${slug}/logo`)
		const image = await t.app.request(`${url.pathname}${url.search}`)
		expect(image.status).toBe(200)
		expect(image.headers.get('content-type')).toBe('image/png')
		expect(image.headers.get('cache-control')).toMatch(/^public, max-age=\d+/)
		expect(image.headers.get('x-content-type-options')).toBe('nosniff')
		expect(new Uint8Array(await image.arrayBuffer())).toEqual(logo.bytes)
	})

	test('no logo, an unknown slug, a disabled portal and a paused organization are 404', async () => {
		const account = await accountWithSample(t)
		const saved = await saveSetup(t, account.token, sampleSetup(account.databases))
		expect(saved.status).toBe(201)
		const { slug, id } = saved.body
		expect(saved.body.logoUrl).toBeNull()
		expect((await t.request('GET', `/api/portal/${slug}`)).body.logoUrl).toBeNull()
		expect((await t.request('GET', `/api/portal/${slug}/logo`)).status).toBe(404)
		for (const path of ['/api/portal/no-such-portal', '/api/portal/no-such-portal/logo']) {
			const response = await t.request('GET', path)
			expect(response.status).toBe(404)
			expect(response.body.code).toBe('NOT_FOUND')
		}

		const logo = await uploadImage(t, account.token, 'logo.png', 'image/png')
		const domain = `off-${uniqueSlug()}.example.com`
		const disabled = await saveSetup(
			t,
			account.token,
			sampleSetup(account.databases, {
				id,
				slug,
				customDomain: domain,
				isEnabled: false,
				branding: { logoBlobId: logo.id },
			}),
		)
		expect(disabled.status).toBe(200)
		expect((await t.request('GET', `/api/portal_domains/check?domain=${domain}`)).status).toBe(404)
		expect((await t.request('GET', `/api/portal/${slug}`)).status).toBe(404)
		expect((await t.request('GET', `/api/portal/${slug}/logo`)).status).toBe(404)

		const enabled = await saveSetup(
			t,
			account.token,
			sampleSetup(account.databases, { id, slug, branding: { logoBlobId: logo.id } }),
		)
		expect(enabled.status).toBe(200)
		expect((await t.request('GET', `/api/portal/${slug}/logo`)).status).toBe(200)
		const act = async (action: string) => {
			const response = await t.request('POST', `/api/subscriptions/${action}`, { token: account.token, json: {} })
			expect(response.status, JSON.stringify(response.body)).toBe(200)
		}
		await act('end_trial_and_bill')
		await act('pause_subscription')
		expect((await t.request('GET', `/api/portal/${slug}`)).status).toBe(404)
		expect((await t.request('GET', `/api/portal/${slug}/logo`)).status).toBe(404)
		await act('resume_subscription')
		expect((await t.request('GET', `/api/portal/${slug}`)).status).toBe(200)
	})
})
