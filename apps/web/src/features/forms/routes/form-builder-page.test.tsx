import type { Form, UpdateForm } from '@blocksmith/contracts/forms.ts'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { database, makeForm } from '../testing.tsx'
import { FormBuilderPage } from './form-builder-page.tsx'

const members = [
	{
		id: 'm1',
		userId: 'u1',
		name: 'Ada Lovelace',
		email: 'ada@example.com',
		image: null,
		role: 'owner',
		createdAt: '2026-01-01T10:00:00.000Z',
	},
	{
		id: 'm2',
		userId: 'u2',
		name: 'Alan Turing',
		email: 'alan@example.com',
		image: null,
		role: 'member',
		createdAt: '2026-01-01T10:00:00.000Z',
	},
]

/** The builder's first render can take seconds on a loaded machine (the test's first import of it). */
const firstRender = { timeout: 5000 }

/** A server that keeps one form and applies PATCHes to it. */
function formServer(initial: Form = makeForm()) {
	let form = initial
	const patches: UpdateForm[] = []
	const api = mockApi(({ method, path, body }) => {
		if (path === '/dashboard/forms/f1' && method === 'GET') {
			return json(form)
		}
		if (path === '/dashboard/forms/f1' && method === 'PATCH') {
			const changes = body as UpdateForm
			patches.push(changes)
			const { password: _password, ...rest } = changes
			form = { ...form, ...rest, updatedAt: new Date().toISOString() }
			return json(form)
		}
		if (path === '/dashboard/local/databases/db1') {
			return json(database)
		}
		if (path === '/dashboard/forms') {
			return json([form])
		}
		if (path === '/dashboard/team_invites/all_members') {
			return json(members)
		}
		return undefined
	})
	return { ...api, patches }
}

function renderBuilder() {
	return renderPage(FormBuilderPage, '/forms/:id/edit', '/forms/f1/edit')
}

function fieldNames(): string[] {
	const list = screen.getByRole('list', { name: 'Fields' })
	return within(list)
		.getAllByRole('button', { name: /^Edit / })
		.map((button) => (button.getAttribute('aria-label') ?? '').replace(/^Edit /, ''))
}

describe('the form builder', () => {
	test('adds, removes and reorders fields with the keyboard; Save sends the new order', async () => {
		const server = formServer()
		const { user } = renderBuilder()
		await screen.findByRole('button', { name: 'Edit Name' }, firstRender)
		expect(fieldNames()).toEqual(['Name', 'Email', 'Stage'])
		expect(screen.getByText('All changes saved')).toBeInTheDocument()
		expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()

		// Add: the menu lists only properties without a field (not Created, which is computed), then
		// new questions and content.
		screen.getByRole('button', { name: 'Add' }).focus()
		await user.keyboard('{Enter}')
		const menu = await screen.findByRole('menu')
		const items = within(menu)
			.getAllByRole('menuitem')
			.map((item) => item.textContent)
		expect(items.slice(0, 2)).toEqual(['NotesText', 'DueDate'])
		expect(items).toContain('Rating')
		expect(items.slice(-5)).toEqual(['Heading', 'Text', 'Image', 'Divider', 'Page break'])
		await user.keyboard('{Enter}')
		await waitFor(() => expect(fieldNames()).toEqual(['Name', 'Email', 'Stage', 'Notes']))
		// The new field opens, with the focus in its label.
		await waitFor(() => expect(screen.getByRole('textbox', { name: 'Label' })).toHaveFocus())
		expect(screen.getByRole('textbox', { name: 'Label' })).toHaveValue('Notes')
		expect(screen.getByText('Unsaved changes')).toBeInTheDocument()

		// Remove Stage.
		screen.getByRole('button', { name: 'Remove Stage' }).focus()
		await user.keyboard('{Enter}')
		expect(fieldNames()).toEqual(['Name', 'Email', 'Notes'])
		expect(screen.getByText('Stage was removed. Its property is back in Add.')).toBeInTheDocument()

		// Move Notes up twice: it becomes first, and the focus stays on its button.
		const up = screen.getByRole('button', { name: 'Move Notes up' })
		up.focus()
		await user.keyboard('{Enter}')
		await waitFor(() => expect(screen.getByRole('button', { name: 'Move Notes up' })).toHaveFocus())
		await user.keyboard('{Enter}')
		expect(fieldNames()).toEqual(['Notes', 'Name', 'Email'])
		expect(screen.getByText('Notes moved to position 1 of 3.')).toBeInTheDocument()
		// At the top, moving up does nothing (and keeps the focus).
		await user.keyboard('{Enter}')
		expect(fieldNames()).toEqual(['Notes', 'Name', 'Email'])

		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		const patch = server.patches[0]
		expect(patch?.fields?.map((field) => field.propertyId)).toEqual(['notes', 'name', 'email'])
		expect(patch?.fields?.[0]).toMatchObject({ kind: 'short_text', label: 'Notes', required: false })
		expect(patch).not.toHaveProperty('published')
		expect(patch).not.toHaveProperty('password')
		expect(await screen.findByText('All changes saved')).toBeInTheDocument()
	}, 20_000)

	test('Publish saves and publishes; Unpublish only unpublishes', async () => {
		const server = formServer()
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('button', { name: 'Publish' }, firstRender))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]).toMatchObject({ published: true, name: 'Lead form' })
		expect(server.patches[0]?.fields).toHaveLength(3)
		expect(await screen.findByRole('button', { name: 'Unpublish' })).toBeInTheDocument()
		expect(screen.getByText('Published')).toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Unpublish' }))
		await waitFor(() => expect(server.patches).toHaveLength(2))
		expect(server.patches[1]).toEqual({ published: false })
		expect(await screen.findByRole('button', { name: 'Publish' }, firstRender)).toBeInTheDocument()
		expect(screen.getByText('Draft')).toBeInTheDocument()
	})

	test('a taken custom address shows the server’s message beside the input', async () => {
		let slugRequest: unknown
		const api = mockApi(({ method, path, body }) => {
			if (path === '/dashboard/forms/f1/update_url' && method === 'POST') {
				slugRequest = body
				return problem(409, 'CONFLICT', 'This address is taken. Choose another.', [
					{ field: 'slug', message: 'This address is taken.' },
				])
			}
			if (path === '/dashboard/forms/f1') {
				return json(makeForm())
			}
			if (path === '/dashboard/local/databases/db1') {
				return json(database)
			}
			return undefined
		})
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('tab', { name: 'Settings' }, firstRender))
		// The Settings tab loads after the builder: found, not got.
		const address = await screen.findByRole('textbox', { name: 'Custom address' })
		await user.type(address, 'Bad Slug')
		await user.click(screen.getByRole('button', { name: 'Save address' }))
		expect(address).toHaveAccessibleDescription(/Use lowercase letters, digits and single hyphens/)
		expect(api.calls.some((call) => call.path.endsWith('/update_url'))).toBe(false)

		await user.clear(address)
		await user.type(address, 'contact')
		await user.click(screen.getByRole('button', { name: 'Save address' }))
		await waitFor(() => expect(slugRequest).toEqual({ slug: 'contact' }))
		await waitFor(() => expect(address).toHaveAccessibleDescription(/This address is taken\./))
		expect(address).toHaveAttribute('aria-invalid', 'true')
	})

	test('a server error on a field’s default value opens that field and shows it there', async () => {
		mockApi(({ method, path }) => {
			if (path === '/dashboard/forms/f1' && method === 'GET') {
				return json(makeForm())
			}
			if (path === '/dashboard/forms/f1' && method === 'PATCH') {
				return problem(400, 'VALIDATION_FAILED', 'Not a valid value for "Email".', [
					{ field: 'fields.1.defaultValue', message: 'Not a valid value for "Email".' },
				])
			}
			if (path === '/dashboard/local/databases/db1') {
				return json(database)
			}
			return undefined
		})
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('button', { name: 'Edit Email' }, firstRender))
		await user.type(screen.getByRole('textbox', { name: 'Default value' }), 'not-an-address')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		const input = await screen.findByRole('textbox', { name: 'Default value' })
		await waitFor(() => expect(input).toHaveAccessibleDescription(/Not a valid value for "Email"\./))
		expect(screen.getByRole('button', { name: 'Edit Email' })).toHaveAttribute('aria-expanded', 'true')
	})

	test('checks the draft before sending: an empty label is shown, not sent', async () => {
		const server = formServer()
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('button', { name: 'Edit Email' }, firstRender))
		await user.clear(screen.getByRole('textbox', { name: 'Label' }))
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() =>
			expect(screen.getByRole('textbox', { name: 'Label' })).toHaveAccessibleDescription('Give the field a label.'),
		)
		expect(server.patches).toHaveLength(0)
	})

	test('a field can be hidden and prefilled from its own URL parameter', async () => {
		const server = formServer()
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('button', { name: 'Edit Stage' }, firstRender))
		const param = screen.getByRole('textbox', { name: 'URL parameter' })
		expect(param).toHaveAttribute('placeholder', 'stage')
		const link = screen.getByRole('textbox', { name: 'Prefill link' })
		expect(link).toHaveValue(`${window.location.origin}/forms/f1?stage=`)
		await user.click(screen.getByRole('switch', { name: 'Hidden field' }))
		await user.type(param, 'lead_stage')
		expect(link).toHaveValue(`${window.location.origin}/forms/f1?lead_stage=`)
		expect(screen.getByRole('button', { name: 'Copy the prefill link of Stage' })).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]?.fields?.[2]).toMatchObject({ id: 'fc', hidden: true, param: 'lead_stage' })
		expect(server.patches[0]?.fields?.[1]).toMatchObject({ id: 'fb', hidden: false, param: null })
	})

	test('Settings: redirect, limits and notifications go into the PATCH body', async () => {
		const server = formServer()
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('tab', { name: 'Settings' }, firstRender))

		await user.click(screen.getByRole('radio', { name: 'Go to a web address' }))
		await user.type(screen.getByRole('textbox', { name: 'Redirect URL' }), 'https://example.com/thanks')
		await user.click(screen.getByRole('switch', { name: 'Add the answers to the link' }))

		await user.selectOptions(screen.getByRole('combobox', { name: 'Time zone' }), 'Europe/Paris')
		fireEvent.change(screen.getByLabelText('Closing date and time'), { target: { value: '2026-07-01T18:00' } })
		await user.type(screen.getByRole('spinbutton', { name: 'Maximum number of answers' }), '100')
		await user.click(screen.getByRole('radio', { name: /By e-mail address/ }))
		await user.selectOptions(screen.getByRole('combobox', { name: 'E-mail field that identifies people' }), 'Email')

		await user.click(await screen.findByRole('checkbox', { name: /Alan Turing/ }))
		await user.click(screen.getByRole('switch', { name: 'Send a confirmation to the person who answered' }))
		await user.selectOptions(screen.getByRole('combobox', { name: 'Send the confirmation to' }), 'Email')
		await user.type(screen.getByRole('textbox', { name: 'Reply-to address' }), 'team@example.com')

		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]).toMatchObject({
			redirectUrl: 'https://example.com/thanks',
			redirectWithAnswers: true,
			limits: {
				closesAt: '2026-07-01T18:00:00+02:00',
				timeZone: 'Europe/Paris',
				maxSubmissions: 100,
				oneResponsePer: 'email',
				emailFieldId: 'fb',
			},
			notifications: {
				memberIds: ['u2'],
				respondent: { enabled: true, fieldId: 'fb', replyTo: 'team@example.com' },
			},
		})
	}, 30_000) // A dozen inputs typed key by key: 15 s and more on a loaded machine.

	test('a server error in the limits shows beside its input', async () => {
		mockApi(({ method, path }) => {
			if (path === '/dashboard/forms/f1' && method === 'GET') {
				return json(makeForm({ limits: { ...makeForm().limits, oneResponsePer: 'email', emailFieldId: 'fb' } }))
			}
			if (path === '/dashboard/forms/f1' && method === 'PATCH') {
				return problem(400, 'VALIDATION_FAILED', 'Some settings need another look.', [
					{ field: 'limits.emailFieldId', message: 'Pick an e-mail field of the form.' },
				])
			}
			if (path === '/dashboard/local/databases/db1') {
				return json(database)
			}
			if (path === '/dashboard/team_invites/all_members') {
				return json(members)
			}
			return undefined
		})
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('tab', { name: 'Settings' }, firstRender))
		await user.type(screen.getByRole('spinbutton', { name: 'Maximum number of answers' }), '5')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		const select = await screen.findByRole('combobox', { name: 'E-mail field that identifies people' })
		await waitFor(() => expect(select).toHaveAccessibleDescription(/Pick an e-mail field of the form\./))
	})

	test('a rule is built from the keyboard and saved in the PATCH body', async () => {
		const server = formServer()
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('tab', { name: 'Logic' }, firstRender))
		// The Logic tab loads after the builder: found, not got.
		const addRule = await screen.findByRole('button', { name: 'Add rule' })
		addRule.focus()
		await user.keyboard('{Enter}')
		const action = await screen.findByRole('combobox', { name: 'Action of rule 1' })
		await waitFor(() => expect(action).toHaveFocus())
		await user.selectOptions(action, 'Hide')
		await user.tab()
		expect(screen.getByRole('combobox', { name: 'When, in rule 1' })).toHaveFocus()
		await user.selectOptions(screen.getByRole('combobox', { name: 'When, in rule 1' }), 'any of these matches')

		const targets = screen.getByRole('group', { name: 'Fields to hide in rule 1' })
		within(targets).getByRole('checkbox', { name: 'Name' }).focus()
		await user.keyboard(' ')
		expect(within(targets).getByRole('checkbox', { name: 'Name' })).toBeChecked()

		// The first condition starts on the first field (a text): its comparisons are the text ones.
		const comparison = screen.getByRole('combobox', { name: 'Comparison of condition 1 of rule 1' })
		expect(
			within(comparison)
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual(['is', 'is not', 'contains', 'does not contain', 'is empty', 'is filled in'])
		await user.selectOptions(screen.getByRole('combobox', { name: 'Field of condition 1 of rule 1' }), 'Email')
		await user.selectOptions(comparison, 'contains')
		await user.click(screen.getByRole('textbox', { name: 'Value of condition 1 of rule 1' }))
		await user.keyboard('example.com')

		screen.getByRole('button', { name: 'Add a condition to rule 1' }).focus()
		await user.keyboard('{Enter}')
		await user.selectOptions(screen.getByRole('combobox', { name: 'Field of condition 2 of rule 1' }), 'Stage')
		// A choice field compares with one of its options.
		await user.selectOptions(screen.getByRole('combobox', { name: 'Value of condition 2 of rule 1' }), 'Won')

		await user.keyboard('{Control>}s{/Control}')
		await waitFor(() => expect(server.patches).toHaveLength(1))
		expect(server.patches[0]?.logic).toEqual([
			{
				id: expect.any(String),
				action: 'hide',
				match: 'any',
				fieldIds: ['fa'],
				conditions: [
					{ fieldId: 'fb', operator: 'contains', value: 'example.com' },
					{ fieldId: 'fc', operator: 'equals', value: 'Won' },
				],
			},
		])
	})

	test('an incomplete rule is shown, not sent; a server error opens the Logic tab at its path', async () => {
		const rule = {
			id: 'r1',
			action: 'show' as const,
			match: 'all' as const,
			fieldIds: ['fc'],
			conditions: [
				{ fieldId: 'fa', operator: 'is_not_empty' as const },
				{ fieldId: 'fb', operator: 'equals' as const, value: 'a@b.c' },
			],
		}
		let patches = 0
		mockApi(({ method, path }) => {
			if (path === '/dashboard/forms/f1' && method === 'GET') {
				return json(makeForm({ logic: [rule] }))
			}
			if (path === '/dashboard/forms/f1' && method === 'PATCH') {
				patches += 1
				return problem(400, 'VALIDATION_FAILED', 'Some settings need another look.', [
					{ field: 'logic.0.conditions.1.value', message: 'No answer can match this.' },
				])
			}
			if (path === '/dashboard/local/databases/db1') {
				return json(database)
			}
			return undefined
		})
		const { user } = renderBuilder()
		await user.click(await screen.findByRole('tab', { name: 'Logic' }, firstRender))
		const targets = screen.getByRole('group', { name: 'Fields to show in rule 1' })
		await user.click(within(targets).getByRole('checkbox', { name: 'Stage' }))
		await user.click(screen.getByRole('button', { name: 'Save' }))
		expect(await screen.findByText('Pick at least one field for the rule to act on.')).toBeInTheDocument()
		expect(patches).toBe(0)

		await user.click(within(targets).getByRole('checkbox', { name: 'Stage' }))
		await user.type(screen.getByRole('textbox', { name: 'Value of condition 2 of rule 1' }), 'x')
		await user.click(screen.getByRole('tab', { name: 'Settings' }))
		await user.click(screen.getByRole('button', { name: 'Save' }))
		const value = await screen.findByRole('textbox', { name: 'Value of condition 2 of rule 1' })
		await waitFor(() => expect(value).toHaveAccessibleDescription('No answer can match this.'))
		expect(patches).toBe(1)
	})
})
