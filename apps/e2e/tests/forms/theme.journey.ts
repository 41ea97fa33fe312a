import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// A form's theme as its owner sets it in the builder and a visitor sees it: the accent colour on
// the button, the font and square corners, custom CSS that stays inside the form (and CSS that
// would load a file refused with its line), and the branding removed.

const browser = useBrowser()

type Database = { id: string; name: string }

async function save(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Save', exact: true }).click()
}

test('a theme set in the builder shows on the public page; custom CSS that would load a file is refused', async (t) => {
	const account = await api.signUp({ name: 'Theo Theme' })
	const token = account.token
	await api.callOk('/dashboard/workspaces/sample', { token, method: 'POST' })
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	assert.ok(enquiries)
	const form = await api.callOk<{ id: string }>('/dashboard/forms', {
		token,
		json: { name: 'Styled enquiry', databaseId: enquiries.id },
	})

	const owner = await newPage(browser(), { account })
	t.after(() => owner.context.close())
	const builder = owner.page
	await builder.goto(`/forms/${form.id}/edit`)
	await builder.getByRole('tab', { name: 'Theme' }).click()
	await builder.getByRole('textbox', { name: 'Accent colour' }).fill('#0f766e')
	await builder.getByRole('radio', { name: 'Serif', exact: true }).check()
	await builder.getByRole('radio', { name: 'Square', exact: true }).check()
	await builder.getByRole('switch', { name: 'Remove branding' }).click()
	const css = builder.getByRole('textbox', { name: 'Custom CSS' })
	await css.fill('h1 { text-transform: uppercase }\n@import url(https://cdn.example/x.css);')
	await save(builder)
	// Said beside the field (and in a toast).
	await builder.locator('textarea[aria-invalid="true"]').waitFor()
	const errorId = ((await css.getAttribute('aria-describedby')) ?? '').split(' ').find((id) => id.endsWith('error'))
	assert.equal(
		await builder.locator(`[id="${errorId}"]`).textContent(),
		"Line 2: @import is not allowed: a form's CSS cannot load other files.",
	)
	// The second rule tries to pin the title to the corner of the visitor's window.
	await css.fill('h1, h2 { text-transform: uppercase }\nh1 { position: fixed; top: 0; left: 0 }')
	await save(builder)
	await builder.getByText('All changes saved').waitFor()
	// The preview shows the saved CSS, confined to the form.
	const preview = builder.getByRole('complementary', { name: 'Preview' })
	const previewTitle = preview.getByRole('heading', { level: 2, name: 'Styled enquiry' })
	assert.equal(await previewTitle.evaluate((node) => getComputedStyle(node).textTransform), 'uppercase')
	assert.equal(
		await builder
			.getByRole('heading', { level: 1 })
			.first()
			.evaluate((node) => getComputedStyle(node).textTransform),
		'none',
		'the custom CSS reaches nothing outside the form',
	)
	await builder.getByRole('button', { name: 'Publish', exact: true }).click()
	await builder.getByRole('button', { name: 'Unpublish', exact: true }).waitFor()

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const page = visitor.page
	await page.goto(`/forms/${form.id}`)
	const title = page.getByRole('heading', { level: 1, name: 'Styled enquiry' })
	await title.waitFor()
	const looks = await page.evaluate(() => {
		const heading = document.querySelector('h1') as HTMLElement
		const root = heading.closest('.bs-form') as HTMLElement
		const button = Array.from(document.querySelectorAll('button')).find(
			(b) => b.textContent === 'Submit',
		) as HTMLElement
		const titleBox = heading.getBoundingClientRect()
		const box = (root.parentElement as HTMLElement).getBoundingClientRect()
		return {
			transform: getComputedStyle(heading).textTransform,
			font: getComputedStyle(root).fontFamily,
			buttonBackground: getComputedStyle(button).backgroundColor,
			buttonColor: getComputedStyle(button).color,
			buttonRadius: getComputedStyle(button).borderRadius,
			contain: getComputedStyle(root.parentElement as HTMLElement).contain,
			titlePosition: getComputedStyle(heading).position,
			titleAtBoxCorner: Math.abs(titleBox.top - box.top) < 1 && Math.abs(titleBox.left - box.left) < 1,
			boxAwayFromWindowCorner: box.top > 0 && box.left > 0,
		}
	})
	assert.equal(looks.transform, 'uppercase')
	assert.match(looks.font, /Georgia|serif/)
	assert.equal(looks.buttonBackground, 'rgb(15, 118, 110)')
	assert.equal(looks.buttonColor, 'rgb(255, 255, 255)', 'white reads on dark teal')
	assert.equal(looks.buttonRadius, '0px')
	assert.match(looks.contain, /paint/)
	// Fixed to the corner of the form's own box, not of the window: the CSS cannot reach out.
	assert.equal(looks.titlePosition, 'fixed')
	assert.ok(looks.titleAtBoxCorner, 'the title is pinned inside the form')
	assert.ok(looks.boxAwayFromWindowCorner, "the form's box is not the window")
	assert.equal(await page.getByText('Made with').count(), 0, 'the branding is removed')

	await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Styled visitor')
	await page.getByRole('button', { name: 'Submit' }).click()
	await page.getByText('Thank you! Your answer has been recorded.').waitFor()
	assertNoProblems(visitor.problems, [failedRequest(422)])
	assertNoProblems(owner.problems, [failedRequest(400)])
})
