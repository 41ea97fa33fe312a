import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { makeField, makeForm } from '../../testing.tsx'
import { builderServer, renderBuilder, saveAndGetPatch, setText, waitForBuilder } from './testing.tsx'

const [name] = makeForm().fields

function scopedForm() {
	return makeForm({
		fields: [
			...(name ? [name] : []),
			makeField({ id: 'rel', kind: 'relation', label: 'Client', propertyId: 'client' }),
			makeField({ id: 'ppl', kind: 'people', label: 'Account manager', propertyId: 'owner' }),
		],
	})
}

describe('choices visitors may see', () => {
	test('a relation limited to rows matching filters on the related database', async () => {
		const server = builderServer(scopedForm())
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('button', { name: 'Edit Client' }))
		// The choice scope loads after the builder: found, not got.
		const scope = await screen.findByRole('group', { name: 'Choices visitors may see' })
		expect(within(scope).getByRole('radio', { name: /All rows/ })).toBeChecked()
		await user.click(within(scope).getByRole('radio', { name: /Only rows matching filters/ }))
		await user.click(await screen.findByRole('button', { name: 'Add filter' }))
		// The related database's properties (Clients), not the form's.
		const property = screen.getByRole('combobox', { name: 'Property of filter 1' })
		expect(
			within(property)
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual(['Company', 'Tier', 'Active'])
		await user.selectOptions(property, 'Tier')
		await user.selectOptions(screen.getByRole('combobox', { name: 'Value of filter 1' }), 'Gold')
		await user.click(screen.getByRole('button', { name: 'Add filter' }))
		await user.selectOptions(screen.getByRole('combobox', { name: 'Property of filter 2' }), 'Company')
		await user.selectOptions(screen.getByRole('combobox', { name: 'Comparison of filter 2' }), 'is not empty')
		expect(screen.queryByRole('textbox', { name: 'Value of filter 2' })).not.toBeInTheDocument()
		// The notice on the item says what visitors now see.
		expect(screen.getByRole('button', { name: 'Edit Client' })).toHaveAccessibleDescription(
			'Visitors will see the names of the rows in Clients that match the filters.',
		)

		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.[1]?.choiceScope).toEqual({
			mode: 'filter',
			filters: [
				{ property: 'tier', operator: 'equals', value: 'Gold' },
				{ property: 'cname', operator: 'is_not_empty' },
			],
		})
	}, 20_000)

	test('only chosen rows or people, and search only; an empty choice is refused before sending', async () => {
		const server = builderServer(scopedForm())
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('button', { name: 'Edit Client' }))
		await user.click(screen.getByRole('radio', { name: /Only chosen rows/ }))
		const rows = screen.getByRole('group', { name: 'Rows to offer' })
		await user.click(await within(rows).findByRole('checkbox', { name: 'Globex' }))

		await user.click(screen.getByRole('button', { name: 'Edit Account manager' }))
		const scope = screen.getByRole('group', { name: 'Choices visitors may see' })
		// People have no filters.
		expect(within(scope).queryByRole('radio', { name: /filters/ })).not.toBeInTheDocument()
		await user.click(within(scope).getByRole('radio', { name: /Only chosen people/ }))
		await user.click(screen.getByRole('button', { name: 'Save' }))
		// No one chosen yet: the contract asks for one, said beside the list, nothing sent.
		const offered = screen.getByRole('group', { name: 'People to offer' })
		await waitFor(() =>
			expect(offered).toHaveAccessibleDescription('Pick at least one to offer, or choose another setting.'),
		)
		expect(server.patches).toHaveLength(0)
		await user.click(await within(offered).findByRole('checkbox', { name: 'Alan Turing' }))

		// The preview offers what visitors will get: only the chosen person.
		const preview = screen.getByRole('group', { name: /^Account manager/ })
		expect(await within(preview).findByRole('checkbox', { name: 'Alan Turing' })).toBeInTheDocument()
		expect(within(preview).queryByRole('checkbox', { name: 'Ada Lovelace' })).not.toBeInTheDocument()

		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.[1]?.choiceScope).toEqual({ mode: 'subset', ids: ['ext-r2'] })
		expect(patch.fields?.[2]?.choiceScope).toEqual({ mode: 'subset', ids: ['u2'] })

		await user.click(screen.getByRole('radio', { name: /Search only/ }))
		expect(screen.getByRole('button', { name: 'Edit Account manager' })).toHaveAccessibleDescription(
			'Visitors see no list: up to 10 matches appear once they type two letters.',
		)
		const second = await saveAndGetPatch(server, user)
		expect(second.fields?.[2]?.choiceScope).toEqual({ mode: 'search' })
	}, 20_000)
})

describe('layout and the small fixes', () => {
	test('one question at a time without progress is saved in the form’s layout', async () => {
		const server = builderServer()
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('tab', { name: 'Settings' }))
		expect(await screen.findByRole('radio', { name: /Classic \(pages\)/ })).toBeChecked()
		await user.click(screen.getByRole('radio', { name: /One question at a time/ }))
		await user.click(screen.getByRole('switch', { name: 'Show progress' }))
		const patch = await saveAndGetPatch(server, user)
		expect(patch.layout).toEqual({ display: 'one_at_a_time', showProgress: false })
	})

	test('a hidden field’s default says it is used when the link does not set it', async () => {
		builderServer()
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('button', { name: 'Edit Email' }))
		const value = screen.getByRole('textbox', { name: 'Default value' })
		expect(value).toHaveAccessibleDescription('Filled in when the form opens; visitors can change it.')
		await user.click(screen.getByRole('switch', { name: 'Hidden field' }))
		expect(value).toHaveAccessibleDescription('Used when the link does not set it.')
	})

	test('a closed form’s preview still shows the fields, with a note that it is closed', async () => {
		builderServer(makeForm({ acceptingResponses: false, closedMessage: 'See you next year.' }))
		renderBuilder()
		await waitForBuilder()
		const note = screen.getByRole('note')
		expect(note).toHaveTextContent(/The form is closed: visitors see the closed message/)
		expect(note).toHaveTextContent('See you next year.')
		// The preview's own inputs, not only the closed message.
		expect(await screen.findByRole('textbox', { name: /^Name/ })).toBeInTheDocument()
		expect(screen.queryByRole('heading', { name: /is closed/ })).not.toBeInTheDocument()
		setText(screen.getByRole('textbox', { name: /^Name/ }), 'Ada')
	})
})

describe('the server’s problems on the new settings', () => {
	test('show beside their inputs, in the field they are about', async () => {
		const form = makeForm({
			fields: [
				...(name ? [name] : []),
				makeField({
					id: 'rel',
					kind: 'relation',
					label: 'Client',
					propertyId: 'client',
					choiceScope: { mode: 'filter', filters: [{ property: 'cname', operator: 'contains', value: 'a' }] },
				}),
				makeField({ id: 'k', kind: 'ranking', label: 'Order', choices: ['A', 'B'] }),
				makeField({
					id: 'c',
					kind: 'calculated',
					label: 'Total',
					calculation: { start: '0', steps: [], decimals: 0, prefix: null, suffix: null },
				}),
			],
		})
		const server = builderServer(form, undefined, [
			{ field: 'fields.1.choiceScope.filters.0.value', message: 'Clients has no such company.' },
			{ field: 'fields.2.choices.1', message: 'Another choice has this name.' },
			{ field: 'fields.3.calculation.steps', message: 'The calculation reads a later question.' },
		])
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('button', { name: 'Edit Client' }))
		setText(await screen.findByRole('textbox', { name: 'Value of filter 1' }), 'b')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(server.patches).toHaveLength(1))
		// The first field with a problem opens, with the message beside the filter.
		expect(await screen.findByText('Clients has no such company.')).toBeInTheDocument()
		expect(screen.getByRole('textbox', { name: 'Value of filter 1' })).toHaveAttribute('aria-invalid', 'true')

		await user.click(screen.getByRole('button', { name: 'Edit Order' }))
		expect(await screen.findByRole('textbox', { name: 'Choice 2' })).toHaveAccessibleDescription(
			'Another choice has this name.',
		)
		await user.click(screen.getByRole('button', { name: 'Edit Total' }))
		expect(await screen.findByText('The calculation reads a later question.')).toBeInTheDocument()
	}, 20_000)
})
