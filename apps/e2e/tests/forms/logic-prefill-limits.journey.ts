import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, assertNoProblems, failedRequest, newPage, useBrowser, waitForMail } from '../../fixtures.ts'

// What a visitor meets on forms built with the second part of the forms module: a field a rule
// reveals, a hidden field filled from the link, a closed form's own message, and the mail that
// confirms an answer.

const browser = useBrowser()

type Database = { id: string; name: string; properties: { id: string; name: string }[] }
type Field = { id: string; label: string; hidden: boolean; param: string | null; required: boolean }
type Form = { id: string; fields: Field[] }
type Row = { title: string; values: Record<string, unknown> }

async function enquiriesForm(name: string, personName: string) {
	const account = await api.signUp({ name: personName })
	const token = account.token
	await api.callOk('/dashboard/workspaces/sample', { token, method: 'POST' })
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	assert.ok(enquiries)
	const form = await api.callOk<Form>('/dashboard/forms', { token, json: { name, databaseId: enquiries.id } })
	const field = (label: string) => {
		const found = form.fields.find((candidate) => candidate.label === label)
		assert.ok(found, `no field ${label}`)
		return found
	}
	const patch = (json: Record<string, unknown>) =>
		api.callOk<Form>(`/dashboard/forms/${form.id}`, { token, method: 'PATCH', json })
	return { account, token, form, enquiries, field, patch }
}

test('a rule set in the builder reveals a field, and a hidden field takes its value from the link into its property', async (t) => {
	const { account, form, enquiries } = await enquiriesForm('Project enquiry', 'Rita Rules')

	// The owner sets it all up in the builder: Message hidden and filled from `?source=`, Budget
	// required and shown only for Consulting.
	const owner = await newPage(browser(), { account })
	t.after(() => owner.context.close())
	const builder = owner.page
	await builder.goto(`/forms/${form.id}/edit`)
	const fieldList = builder.getByRole('list', { name: 'Fields' })
	await fieldList.getByRole('button', { name: 'Edit Message', exact: true }).click()
	await builder.getByRole('switch', { name: 'Hidden field' }).click()
	await builder.getByRole('textbox', { name: 'URL parameter' }).fill('source')
	await fieldList.getByRole('button', { name: 'Edit Budget', exact: true }).click()
	await builder.getByRole('switch', { name: 'Required' }).click()
	await builder.getByRole('tab', { name: 'Logic' }).click()
	await builder.getByRole('button', { name: 'Add rule' }).click()
	await builder.getByRole('combobox', { name: 'Action of rule 1' }).selectOption({ label: 'Show' })
	await builder
		.getByRole('group', { name: 'Fields to show in rule 1' })
		.getByRole('checkbox', { name: 'Budget' })
		.check()
	await builder.getByRole('combobox', { name: 'Field of condition 1 of rule 1' }).selectOption({ label: 'Service' })
	await builder.getByRole('combobox', { name: 'Comparison of condition 1 of rule 1' }).selectOption({ label: 'is' })
	await builder.getByRole('combobox', { name: 'Value of condition 1 of rule 1' }).selectOption({ label: 'Consulting' })
	await builder.getByRole('button', { name: 'Publish', exact: true }).click()
	await builder.getByRole('button', { name: 'Unpublish', exact: true }).waitFor()
	const token = account.token

	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const page = visitor.page
	await page.goto(`/forms/${form.id}?source=newsletter`)
	await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Rule follower')
	assert.equal(await page.getByRole('textbox', { name: 'Message' }).count(), 0, 'the hidden field is not shown')
	const budgetInput = page.getByRole('textbox', { name: 'Budget' })
	assert.equal(await budgetInput.count(), 0, 'Budget waits for its rule')
	await page.getByRole('radiogroup', { name: 'Service' }).getByRole('radio', { name: 'Consulting' }).check()
	await budgetInput.fill('7500')
	await page.getByRole('radiogroup', { name: 'Service' }).getByRole('radio', { name: 'Design' }).check()
	await budgetInput.waitFor({ state: 'detached' })
	await page.getByRole('radiogroup', { name: 'Service' }).getByRole('radio', { name: 'Consulting' }).check()
	await budgetInput.fill('7500')
	await page.getByRole('button', { name: 'Submit' }).click()
	await page.getByText('Thank you! Your answer has been recorded.').waitFor()

	const propertyId = (name: string) => enquiries.properties.find((p) => p.name === name)?.id ?? ''
	let row: Row | undefined
	for (let attempt = 0; attempt < 60 && !row; attempt++) {
		const rows = await api.callOk<{ rows: Row[] }>(
			`/dashboard/local/databases/${enquiries.id}/rows?search=${encodeURIComponent('Rule follower')}`,
			{ token },
		)
		row = rows.rows[0]
		if (!row) {
			await new Promise((resolve) => setTimeout(resolve, 500))
		}
	}
	assert.ok(row, 'the answer became a row')
	assert.equal(row.values[propertyId('Message')], 'newsletter', 'the hidden field wrote the link’s value')
	assert.equal(row.values[propertyId('Budget')], 7500, 'the revealed field was written')
	assertNoProblems(visitor.problems, [failedRequest(422)])
})

test('a closed form shows its own message, and one past its closing time says so too', async (t) => {
	const { form, patch } = await enquiriesForm('Closed enquiry', 'Clara Closed')
	await patch({ published: true, acceptingResponses: false, closedMessage: 'Applications closed on Friday.' })
	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	await visitor.page.goto(`/forms/${form.id}`)
	await visitor.page.getByText('Applications closed on Friday.').waitFor()
	assert.equal(await visitor.page.getByRole('button', { name: 'Submit' }).count(), 0)

	await patch({ acceptingResponses: true, limits: { closesAt: '2026-01-01T00:00:00+01:00', timeZone: 'Europe/Paris' } })
	await visitor.page.reload()
	await visitor.page.getByText('Applications closed on Friday.').waitFor()
	assertNoProblems(visitor.problems)
})

test('the person who answers gets the confirmation mail, with their answers in it', async (t) => {
	const { account, form, field, patch } = await enquiriesForm('Mailed enquiry', 'Mona Mail')
	await patch({
		published: true,
		notifications: {
			memberIds: [],
			respondent: {
				enabled: true,
				fieldId: field('Email').id,
				subject: 'Thanks, {Name}',
				message: 'Hello {Name}, we read every enquiry and will answer within two days.',
				replyTo: account.email,
			},
		},
	})
	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	const address = `visitor-${Date.now().toString(36)}@example.com`
	await visitor.page.goto(`/forms/${form.id}`)
	await visitor.page.getByRole('textbox', { name: 'Name', exact: true }).fill('Vera Visitor')
	await visitor.page.getByRole('textbox', { name: 'Email' }).fill(address)
	await visitor.page.getByRole('button', { name: 'Submit' }).click()
	await visitor.page.getByText('Thank you! Your answer has been recorded.').waitFor()
	const mail = await waitForMail(address, (candidate) => /Thanks, Vera Visitor/.test(candidate.subject))
	assert.match(mail.text, /Hello Vera Visitor, we read every enquiry/)
	assertNoProblems(visitor.problems, [failedRequest(422)])
})
