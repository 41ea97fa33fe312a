import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { publishedEnquiryForm } from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// A form's theme on the real server: saved and checked (custom CSS above all), then applied by
// the public page through its page data, with its logo and cover served like the page images.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
	await t.close()
})

const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82])

async function uploadImage(token: string, name: string, type: string, bytes: Uint8Array): Promise<string> {
	const announced = await t.request('POST', '/dashboard/active_storage/direct_uploads', {
		token,
		json: {
			filename: name,
			byteSize: bytes.byteLength,
			checksum: createHash('md5').update(bytes).digest('base64'),
			contentType: type,
		},
	})
	const url = new URL(announced.body.directUpload.url)
	const put = await t.request('PUT', `${url.pathname}${url.search}`, {
		body: bytes,
		headers: announced.body.directUpload.headers,
	})
	expect(put.status).toBe(200)
	return announced.body.id
}

describe('form themes', () => {
	test('a theme is saved, and the public page gets it with the custom CSS confined to the form', async () => {
		const account = await t.signUp()
		const { form } = await publishedEnquiryForm(t, account.token)
		const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: {
				theme: {
					mode: 'dark',
					accentColor: '#FACC15',
					backgroundColor: '#0f172a',
					font: 'serif',
					corners: 'square',
					customCss: 'body { letter-spacing: .01em }\nh1 { text-transform: uppercase }',
				},
			},
		})
		expect(saved.status, JSON.stringify(saved.body)).toBe(200)
		expect(saved.body.theme).toMatchObject({
			mode: 'dark',
			accentColor: '#facc15',
			font: 'serif',
			removeBranding: false,
		})
		expect(saved.body.themeCss).toBe('.bs-form{letter-spacing:.01em}.bs-form h1{text-transform:uppercase}')

		const page = await t.request('GET', `/api/forms/${form.id}`)
		expect(page.body.theme).toEqual({
			mode: 'dark',
			accentColor: '#facc15',
			// Yellow reads better with black text on it.
			accentForeground: '#000000',
			backgroundColor: '#0f172a',
			font: 'serif',
			corners: 'square',
			logo: null,
			cover: null,
			css: '.bs-form{letter-spacing:.01em}.bs-form h1{text-transform:uppercase}',
			showBranding: true,
		})

		await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: { theme: { ...saved.body.theme, accentColor: '#1e3a8a', removeBranding: true } },
		})
		const again = await t.request('GET', `/api/forms/${form.id}`)
		expect(again.body.theme).toMatchObject({ accentForeground: '#ffffff', showBranding: false })
	})

	test.each([
		['@import url(https://evil.example/a.css);', /@import is not allowed/],
		['p { background: url(https://evil.example/pixel.png) }', /url\(\) can only hold a data: image/],
		['@namespace x url(https://evil.example);', /@namespace is not allowed/],
	])('custom CSS with %s is refused naming the problem, and nothing is saved', async (css, message) => {
		const account = await t.signUp()
		const { form } = await publishedEnquiryForm(t, account.token)
		const refused = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: { name: 'Changed', theme: { customCss: `h1 { color: red }\n${css}` } },
		})
		expect(refused.status).toBe(400)
		expect(refused.body.errors).toHaveLength(1)
		expect(refused.body.errors[0].field).toBe('theme.customCss')
		expect(refused.body.errors[0].message).toMatch(/^Line 2: /)
		expect(refused.body.errors[0].message).toMatch(message)
		const unchanged = await t.request('GET', `/dashboard/forms/${form.id}`, { token: account.token })
		expect(unchanged.body.name).toBe('Contact')
		expect(unchanged.body.theme.customCss).toBeNull()
	})

	test('colours must be colours', async () => {
		const account = await t.signUp()
		const { form } = await publishedEnquiryForm(t, account.token)
		const refused = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: { theme: { accentColor: 'red; background: url(x)' } },
		})
		expect(refused.status).toBe(400)
		expect(refused.body.errors[0].field).toBe('theme.accentColor')
	})

	test('a logo and a cover are served for the page; an SVG logo is inlined clean; images of others are refused', async () => {
		const account = await t.signUp()
		const { form } = await publishedEnquiryForm(t, account.token)
		const cover = await uploadImage(account.token, 'cover.png', 'image/png', png)
		const svg = new TextEncoder().encode(
			'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="4" height="4"/></svg>',
		)
		const logo = await uploadImage(account.token, 'logo.svg', 'image/svg+xml', svg)
		const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: { theme: { logo: { blobId: logo }, cover: { blobId: cover } } },
		})
		expect(saved.status, JSON.stringify(saved.body)).toBe(200)
		const page = await t.request('GET', `/api/forms/${form.id}`)
		expect(page.body.theme.cover).toBe(`${t.config.publicUrl}/api/forms/${form.id}/assets/cover`)
		const served = await t.request('GET', `/api/forms/${form.id}/assets/cover`)
		expect(served.status).toBe(200)
		expect(served.headers.get('content-type')).toBe('image/png')
		expect(page.body.theme.logo).toMatch(/^data:image\/svg\+xml;base64,/)
		const inlined = Buffer.from(String(page.body.theme.logo).split(',')[1] ?? '', 'base64').toString('utf8')
		expect(inlined).toContain('<rect')
		expect(inlined).not.toMatch(/script|onload/i)
		// SVGs are never served as they came.
		expect((await t.request('GET', `/api/forms/${form.id}/assets/logo`)).status).toBe(404)

		const other = await t.signUp()
		const theirs = await uploadImage(other.token, 'theirs.png', 'image/png', png)
		const refused = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: { theme: { logo: { blobId: theirs } } },
		})
		expect(refused.status).toBe(400)
		expect(refused.body.errors[0]).toEqual({ field: 'theme.logo', message: 'Upload the image first.' })
	})

	test('a duplicate keeps the theme', async () => {
		const account = await t.signUp()
		const { form } = await publishedEnquiryForm(t, account.token)
		await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: { theme: { font: 'mono', customCss: 'h1 { color: teal }' } },
		})
		const copy = await t.request('POST', `/dashboard/forms/${form.id}/duplicate`, { token: account.token })
		expect(copy.body.theme).toMatchObject({ font: 'mono', customCss: 'h1 { color: teal }' })
	})
})
