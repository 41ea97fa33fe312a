import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
	propertyIdOf,
	publishedFormWith,
	rowsOf,
	submitAnswers,
	surveyDatabase,
	uploadMemberImage,
	waitFor,
} from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Pages, content and the public page data on the real database (issue 19): answers to questions
// on pages the path skipped are refused, content takes no answer, visitors get choices, images and
// the layout but never a field's choice scope, and the page's theme colour follows the accent.

const dist = mkdtempSync(path.join(os.tmpdir(), 'bs-forms-pages-dist-'))
let t: TestApp

beforeAll(async () => {
	mkdirSync(dist, { recursive: true })
	const head =
		'<meta charset="utf-8" /><meta name="theme-color" content="#4338ca" /><title>Default title</title><link rel="icon" type="image/svg+xml" href="/favicon.svg" />'
	writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><head>${head}</head><body></body></html>`)
	writeFileSync(path.join(dist, 'form.html'), `<!doctype html><html><head>${head}</head><body>form</body></html>`)
	t = await createTestApp({ WEB_DIST_DIR: dist, FORM_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
	await t.close()
	rmSync(dist, { recursive: true, force: true })
})

const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82])

/** Three pages: "No" on the first jumps over the second. */
async function threePageForm() {
	const account = await t.signUp()
	const database = await surveyDatabase(t, account.token)
	const form = await publishedFormWith(
		t,
		account.token,
		database.id,
		[
			{ id: 'intro', kind: 'heading', label: 'Welcome' },
			{ id: 'member', kind: 'select', label: 'Already a member?', required: true, choices: ['Yes', 'No'] },
			{ id: 'p2', kind: 'page_break', label: 'Your membership' },
			{ id: 'since', kind: 'short_text', label: 'Member since', required: true },
			{ id: 'p3', kind: 'page_break', label: 'About you' },
			{ id: 'name', propertyId: propertyIdOf(database, 'Name'), kind: 'short_text', label: 'Name', required: true },
		],
		{
			logic: [
				{
					id: 'skip-membership',
					match: 'all',
					conditions: [{ fieldId: 'member', operator: 'equals', value: 'No' }],
					action: 'jump',
					toPageId: 'p3',
				},
			],
		},
	)
	return { ...account, database, form }
}

describe('pages', () => {
	test('an answer to a question on a skipped page is refused; a skipped required question is not required', async () => {
		const { token, database, form } = await threePageForm()
		const sneaky = await submitAnswers(t, form, { member: 'No', since: '2019', name: 'Ada' })
		expect(sneaky.status).toBe(400)
		expect(sneaky.body.errors).toEqual([
			{ field: 'answers.since', message: 'This question is on a page the form skipped for these answers.' },
		])
		const skipped = await submitAnswers(t, form, { member: 'No', name: 'Ada' })
		expect(skipped.status, JSON.stringify(skipped.body)).toBe(201)
		// Not skipped, the second page's required question is required again.
		const missing = await submitAnswers(t, form, { member: 'Yes', name: 'Bo' })
		expect(missing.status).toBe(400)
		expect(missing.body.errors).toEqual([{ field: 'answers.since', message: '"Member since" is required.' }])
		expect((await submitAnswers(t, form, { member: 'Yes', since: '2019', name: 'Bo' })).status).toBe(201)

		const rows = await waitFor(
			() => rowsOf(t, token, database.id),
			(list) => list.length === 2,
		)
		expect(rows.map((row) => row.title).sort()).toEqual(['Ada', 'Bo'])
		const list = await t.request('GET', `/dashboard/forms/${form.id}/submissions`, { token })
		const answers = list.body.submissions.map((submission: { answers: unknown }) => submission.answers)
		expect(answers).toContainEqual({ member: 'No', name: 'Ada' })
		expect(answers).toContainEqual({ member: 'Yes', since: '2019', name: 'Bo' })
	})

	test('content takes no answer: one sent for a heading or a page break is refused naming it', async () => {
		const { form } = await threePageForm()
		for (const id of ['intro', 'p2']) {
			const sent = await submitAnswers(t, form, { member: 'No', name: 'Ada', [id]: 'text' })
			expect(sent.status).toBe(400)
			expect(sent.body.errors).toEqual([{ field: `answers.${id}`, message: expect.stringMatching(/not a question/) }])
		}
		// An empty value is no answer: what a page sends for content it renders, if anything.
		expect((await submitAnswers(t, form, { member: 'No', name: 'Ada', intro: null })).status).toBe(201)
	})

	test('a jump to a page that is not after the one it leaves is refused on save, naming the rule', async () => {
		const { token, form } = await threePageForm()
		const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token,
			json: {
				logic: [
					{
						id: 'back',
						match: 'all',
						conditions: [{ fieldId: 'name', operator: 'is_not_empty' }],
						action: 'jump',
						toPageId: 'p2',
					},
				],
			},
		})
		expect(saved.status).toBe(400)
		expect(saved.body.errors[0].field).toBe('logic.0.toPageId')
	})
})

describe('public page data', () => {
	test('choices, images and layout are given; choice scopes never are', async () => {
		const account = await t.signUp()
		const database = await surveyDatabase(t, account.token)
		const picture = await uploadMemberImage(t, account.token, 'team.png', 'image/png', png)
		const svg = new TextEncoder().encode(
			'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><circle r="4"/></svg>',
		)
		const drawing = await uploadMemberImage(t, account.token, 'drawing.svg', 'image/svg+xml', svg)
		const form = await publishedFormWith(
			t,
			account.token,
			database.id,
			[
				{ id: 'name', propertyId: propertyIdOf(database, 'Name'), kind: 'short_text', label: 'Name' },
				{ id: 'colour', kind: 'select', label: 'Colour', choices: ['Red', 'Blue'] },
				{ id: 'likes', kind: 'multi_select', label: 'Likes', choices: ['Tea', 'Coffee'] },
				{ id: 'order', kind: 'ranking', label: 'Order', choices: ['A', 'B', 'C'] },
				{ id: 'priorities', propertyId: propertyIdOf(database, 'Priorities'), kind: 'ranking', label: 'Priorities' },
				{ id: 'team', kind: 'image', label: 'Our team', image: { blobId: picture } },
				{ id: 'sketch', kind: 'image', label: 'A sketch', image: { blobId: drawing } },
				{ id: 'linked', kind: 'image', label: 'Linked', image: { url: 'https://example.com/photo.jpg' } },
				{ id: 'text', kind: 'paragraph', label: 'Text', body: 'Read **this**.' },
			],
			{ layout: { display: 'one_at_a_time', showProgress: false } },
		)
		const page = await t.request('GET', `/api/forms/${form.id}`)
		expect(page.status).toBe(200)
		expect(page.body.layout).toEqual({ display: 'one_at_a_time', showProgress: false })
		const byId = Object.fromEntries(page.body.fields.map((field: { id: string }) => [field.id, field]))
		expect(byId.colour.options).toEqual(['Red', 'Blue'])
		expect(byId.likes.options).toEqual(['Tea', 'Coffee'])
		expect(byId.order.options).toEqual(['A', 'B', 'C'])
		expect(byId.priorities.options).toEqual(['Speed', 'Price', 'Support'])
		expect(byId.name.options).toBeUndefined()
		expect(byId.text.body).toBe('Read **this**.')
		for (const field of page.body.fields) {
			expect(field).not.toHaveProperty('choiceScope')
		}
		// An uploaded picture is served from the form's assets; an SVG is inlined clean; a link stays a link.
		expect(byId.team.imageUrl).toBe(`${t.config.publicUrl}/api/forms/${form.id}/assets/fields/team`)
		const served = await t.request('GET', `/api/forms/${form.id}/assets/fields/team`)
		expect(served.status).toBe(200)
		expect(served.headers.get('content-type')).toBe('image/png')
		expect(byId.sketch.imageUrl).toMatch(/^data:image\/svg\+xml;base64,/)
		const inlined = Buffer.from(String(byId.sketch.imageUrl).split(',')[1] ?? '', 'base64').toString('utf8')
		expect(inlined).toContain('<circle')
		expect(inlined).not.toMatch(/script|onload/i)
		expect((await t.request('GET', `/api/forms/${form.id}/assets/fields/sketch`)).status).toBe(404)
		expect(byId.linked.imageUrl).toBe('https://example.com/photo.jpg')
		// Only image items have pictures to serve.
		expect((await t.request('GET', `/api/forms/${form.id}/assets/fields/name`)).status).toBe(404)
		expect((await t.request('GET', `/api/forms/${form.id}/assets/fields/nothing`)).status).toBe(404)
	})

	test("a protected form's image item needs its unlock token, as its items do; its thumbnail stays public", async () => {
		const account = await t.signUp()
		const database = await surveyDatabase(t, account.token)
		const picture = await uploadMemberImage(t, account.token, 'team.png', 'image/png', png)
		const fields = [
			{ id: 'name', propertyId: propertyIdOf(database, 'Name'), kind: 'short_text', label: 'Name' },
			{ id: 'team', kind: 'image', label: 'Our team', image: { blobId: picture } },
		]
		const page = { pageTitle: 'Members only', pageThumbnail: { blobId: picture }, extras: { indexable: false } }
		const form = await publishedFormWith(t, account.token, database.id, fields, { password: 'open sesame', page })
		const itemPath = `/api/forms/${form.id}/assets/fields/team`

		const refused = await t.request('GET', itemPath)
		expect(refused.status).toBe(403)
		expect(refused.body.code).toBe('PASSWORD_REQUIRED')
		const forged = await t.request('GET', `${itemPath}?unlockToken=${encodeURIComponent('9999999999.forged')}`)
		expect(forged.status).toBe(403)
		// Link previews' crawlers have no password: the thumbnail is served to anyone.
		const thumbnail = await t.request('GET', `/api/forms/${form.id}/assets/thumbnail`)
		expect(thumbnail.status).toBe(200)

		const unlocked = await t.request('POST', `/api/forms/${form.id}/unlock_form`, { json: { password: 'open sesame' } })
		expect(unlocked.status).toBe(200)
		const unlockToken = unlocked.body.unlockToken as string
		const withToken = `${itemPath}?unlockToken=${encodeURIComponent(unlockToken)}`
		// The page data gives the picture's address with the token in it, since an <img> sends no header.
		const itemOf = (body: { fields: { id: string; imageUrl?: string }[] }) =>
			body.fields.find((field) => field.id === 'team')?.imageUrl
		expect(itemOf(unlocked.body.form)).toBe(`${t.config.publicUrl}${withToken}`)
		const reread = await t.request('GET', `/api/forms/${form.id}?unlockToken=${encodeURIComponent(unlockToken)}`)
		expect(itemOf(reread.body)).toBe(`${t.config.publicUrl}${withToken}`)
		const served = await t.request('GET', withToken)
		expect(served.status).toBe(200)
		expect(served.headers.get('content-type')).toBe('image/png')
		expect(served.headers.get('cache-control')).toBe('private, max-age=300')

		// A new password takes back what the old token opened.
		const changed = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: { password: 'new one' },
		})
		expect(changed.status).toBe(200)
		expect((await t.request('GET', withToken)).status).toBe(403)

		// Without a password, nothing changes: no token asked for, none in the address.
		const open = await publishedFormWith(t, account.token, database.id, fields, { page })
		const openData = await t.request('GET', `/api/forms/${open.id}`)
		expect(itemOf(openData.body)).toBe(`${t.config.publicUrl}/api/forms/${open.id}/assets/fields/team`)
		const openServed = await t.request('GET', `/api/forms/${open.id}/assets/fields/team`)
		expect(openServed.status).toBe(200)
		expect(openServed.headers.get('cache-control')).toBe('public, max-age=300')
	})

	test('a form without a layout of its own gets the defaults', async () => {
		const { form } = await threePageForm()
		const page = await t.request('GET', `/api/forms/${form.id}`)
		expect(page.body.layout).toEqual({ display: 'classic', showProgress: true })
	})

	test("the page's theme colour follows the accent, and is the product's indigo without one", async () => {
		const { token, form } = await threePageForm()
		const themeColors = async () => {
			const html = await (await t.app.request(`/forms/${form.id}`)).text()
			return [...html.matchAll(/<meta name="theme-color" content="([^"]*)"/g)].map((match) => match[1])
		}
		expect(await themeColors()).toEqual(['#4338ca'])
		const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token,
			json: { theme: { accentColor: '#16A34A' } },
		})
		expect(saved.status).toBe(200)
		// One tag: the template's own is replaced, since browsers take the first.
		expect(await themeColors()).toEqual(['#16a34a'])
	})
})
