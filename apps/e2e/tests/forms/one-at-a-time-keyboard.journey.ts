import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'

// One question at a time, Typeform's way (issue 19), completed with the keyboard alone in a real
// browser: Tab once into the first question, then typing, letters for choices, the number keys and
// an arrow for the stars, ↑ to go back, Enter to go on and to send. No click after the page loads.

const browser = useBrowser()

type Property = { id: string; name: string }
type Database = { id: string; properties: Property[] }
type Form = { id: string; fields: { id: string; label: string; propertyId: string | null }[] }
type Row = { title: string; values: Record<string, unknown> }

test('a one-question-at-a-time form is completed and sent by keyboard only', async (t) => {
	const account = await api.signUp({ name: 'Kai Keys' })
	const token = account.token
	const { workspace } = await api.callOk<{ workspace: { id: string } }>('/dashboard/workspaces', {
		token,
		json: { tool: 'local', name: 'Workshop' },
	})
	const database = await api.callOk<Database>('/dashboard/local/databases', {
		token,
		json: {
			workspaceId: workspace.id,
			name: 'Sign-ups',
			properties: [
				{ name: 'Name', type: 'title' },
				{ name: 'Plan', type: 'select', options: [{ name: 'Basic' }, { name: 'Pro' }, { name: 'Team' }] },
				{ name: 'Topics', type: 'multi_select', options: [{ name: 'Design' }, { name: 'Code' }, { name: 'Sales' }] },
				{ name: 'Notes', type: 'rich_text' },
				{ name: 'Stars', type: 'number', format: 'number' },
			],
		},
	})
	const created = await api.callOk<Form>('/dashboard/forms', {
		token,
		json: { name: 'Workshop sign-up', databaseId: database.id },
	})
	const property = (name: string) => database.properties.find((one) => one.name === name)?.id ?? ''
	const bound = (name: string) => {
		const field = created.fields.find((one) => one.propertyId === property(name))
		assert.ok(field, `the new form asks ${name}`)
		return field
	}
	await api.callOk(`/dashboard/forms/${created.id}`, {
		token,
		method: 'PATCH',
		json: {
			fields: [
				{ ...bound('Name'), label: 'Your name', required: true },
				{ ...bound('Plan'), label: 'Which plan?', required: true },
				{ ...bound('Topics'), label: 'Topics you like' },
				{ ...bound('Notes'), kind: 'long_text', label: 'Anything else?' },
				{ ...bound('Stars'), kind: 'rating', label: 'How excited are you?', required: true, scale: { min: 1, max: 5 } },
			],
			layout: { display: 'one_at_a_time', showProgress: true },
			published: true,
		},
	})

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const { page } = visitor
	const { keyboard } = page
	await page.goto(`/forms/${created.id}`)
	// The keys work once their hint shows.
	await page.getByText('Enter ↵').waitFor()
	await page.evaluate(() => {
		const counted = window as unknown as { pointerEvents: number }
		counted.pointerEvents = 0
		// Not `click`: the keyboard fires those too (an arrow on a radio, Enter on a button).
		for (const type of ['pointerdown', 'mousedown', 'touchstart']) {
			document.addEventListener(type, (event) => {
				if (event.isTrusted) {
					counted.pointerEvents++
				}
			})
		}
	})
	const progress = () => page.getByRole('progressbar', { name: 'Progress' }).getAttribute('aria-valuetext')
	const waitForProgress = (text: string) =>
		page.waitForFunction(
			(wanted) => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuetext') === wanted,
			text,
		)
	assert.equal(await progress(), 'Question 1 of 5')

	await keyboard.press('Tab')
	await keyboard.type('Kai Keys')
	await keyboard.press('Enter')

	await waitForProgress('Question 2 of 5')
	await page.getByText('Press A to C to choose.').waitFor()
	await keyboard.press('b')
	assert.ok(await page.getByRole('radio', { name: 'Pro' }).isChecked(), 'B chose the second plan')
	await keyboard.press('Enter')

	await waitForProgress('Question 3 of 5')
	await keyboard.press('a')
	await keyboard.press('c')
	await keyboard.press('b')
	await keyboard.press('b')
	assert.ok(await page.getByRole('checkbox', { name: 'Design' }).isChecked())
	assert.ok(!(await page.getByRole('checkbox', { name: 'Code' }).isChecked()), 'B twice is no Code')
	assert.ok(await page.getByRole('checkbox', { name: 'Sales' }).isChecked())
	// ↑ goes back: the plan is still chosen; Enter on again.
	await keyboard.press('ArrowUp')
	await waitForProgress('Question 2 of 5')
	assert.ok(await page.getByRole('radio', { name: 'Pro' }).isChecked())
	await keyboard.press('Enter')
	await waitForProgress('Question 3 of 5')
	await keyboard.press('Enter')

	await waitForProgress('Question 4 of 5')
	const notes = page.getByRole('textbox', { name: 'Anything else?' })
	await notes.waitFor()
	assert.ok(await notes.evaluate((element) => element === document.activeElement), 'the long answer has the focus')
	await keyboard.type('Vegetarian lunch')
	await keyboard.press('Shift+Enter')
	await keyboard.type('Arriving late')
	await keyboard.press('Enter')

	await waitForProgress('Question 5 of 5')
	await page.getByText('Press 1 to 5 to choose.').waitFor()
	await keyboard.press('3')
	assert.ok(await page.getByRole('radio', { name: '3 stars' }).isChecked(), '3 chose three stars')
	await keyboard.press('ArrowRight')
	assert.ok(await page.getByRole('radio', { name: '4 stars' }).isChecked(), '→ went one star up from three')
	await keyboard.press('Enter')
	await page.getByText('Thank you! Your answer has been recorded.').waitFor()
	assert.equal(
		await page.evaluate(() => (window as unknown as { pointerEvents: number }).pointerEvents),
		0,
		'not one mouse, pen or finger press',
	)

	let row: Row | undefined
	for (let attempt = 0; attempt < 60 && !row; attempt++) {
		const rows = await api.callOk<{ rows: Row[] }>(`/dashboard/local/databases/${database.id}/rows`, { token })
		row = rows.rows[0]
		if (!row) {
			await new Promise((resolve) => setTimeout(resolve, 500))
		}
	}
	assert.ok(row, 'the answer became a row')
	assert.equal(row.title, 'Kai Keys')
	assert.equal(row.values[property('Plan')], 'Pro')
	assert.deepEqual(row.values[property('Topics')], ['Design', 'Sales'])
	assert.equal(row.values[property('Notes')], 'Vegetarian lunch\nArriving late')
	assert.equal(row.values[property('Stars')], 4)
	// The page waits a few seconds of filling in before the server takes an answer (a 422 retried).
	assertNoProblems(visitor.problems, [failedRequest(422)])
})
