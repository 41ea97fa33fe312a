import { screen, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { settingsForKind } from '../../lib/draft.ts'
import { makeField, makeForm } from '../../testing.tsx'
import { builderServer, renderBuilder, saveAndGetPatch, setText, waitForBuilder } from './testing.tsx'

const base = makeForm().fields
const name = base[0] as NonNullable<(typeof base)[0]>

function formWith(...fields: Parameters<typeof makeField>[0][]) {
	return makeForm({ fields: [name, ...fields.map((field) => makeField(field))] })
}

describe('the settings of the new kinds reach the PATCH body', () => {
	test('rating stars, a scale’s range and end labels, NPS labels', async () => {
		const server = builderServer(
			formWith(
				{ id: 'r', kind: 'rating', label: 'Stars', ...settingsForKind('rating') },
				{ id: 's', kind: 'scale', label: 'Ease', ...settingsForKind('scale') },
				{ id: 'n', kind: 'nps', label: 'Recommend', ...settingsForKind('nps') },
			),
		)
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('button', { name: 'Edit Stars' }))
		// Each kind's settings load after the builder: found, not got, the first time.
		await user.selectOptions(await screen.findByRole('combobox', { name: 'Number of stars' }), '7')

		await user.click(screen.getByRole('button', { name: 'Edit Ease' }))
		await user.selectOptions(screen.getByRole('combobox', { name: 'From' }), '0')
		await user.selectOptions(screen.getByRole('combobox', { name: 'To' }), '10')
		setText(screen.getByRole('textbox', { name: 'Label at 0' }), 'Hard')
		setText(screen.getByRole('textbox', { name: 'Label at 10' }), 'Easy')

		await user.click(screen.getByRole('button', { name: 'Edit Recommend' }))
		const low = screen.getByRole('textbox', { name: 'Label at 0' })
		expect(low).toHaveAttribute('placeholder', 'Not at all likely')
		setText(low, 'Never')
		setText(screen.getByRole('textbox', { name: 'Label at 10' }), 'Surely')

		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.slice(1).map((field) => field.scale)).toEqual([
			{ min: 1, max: 7, minLabel: null, maxLabel: null },
			{ min: 0, max: 10, minLabel: 'Hard', maxLabel: 'Easy' },
			{ min: 0, max: 10, minLabel: 'Never', maxLabel: 'Surely' },
		])
	}, 20_000)

	test('ranking choices are added, renamed, reordered and removed', async () => {
		const server = builderServer(formWith({ id: 'k', kind: 'ranking', label: 'Priorities', choices: ['A', 'B', 'C'] }))
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('button', { name: 'Edit Priorities' }))
		const group = screen.getByRole('group', { name: 'Choices to put in order' })
		await user.click(within(group).getByRole('button', { name: 'Add choice' }))
		setText(within(group).getByRole('textbox', { name: 'Choice 4' }), 'Price')
		setText(within(group).getByRole('textbox', { name: 'Choice 1' }), 'Speed')
		await user.click(within(group).getByRole('button', { name: 'Move choice 4 up' }))
		await user.click(within(group).getByRole('button', { name: 'Remove choice 2' }))
		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.[1]?.choices).toEqual(['Speed', 'Price', 'C'])
	})

	test('an empty choice is refused before sending, beside its input', async () => {
		const server = builderServer(formWith({ id: 'k', kind: 'ranking', label: 'Priorities', choices: ['A', 'B'] }))
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('button', { name: 'Edit Priorities' }))
		const second = screen.getByRole('textbox', { name: 'Choice 2' })
		setText(second, ' ')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		expect(await screen.findByText('Name the choice.')).toBeInTheDocument()
		expect(screen.getByRole('textbox', { name: 'Choice 2' })).toHaveAttribute('aria-invalid', 'true')
		expect(server.patches).toHaveLength(0)
	})

	test('a matrix’s rows, columns and several answers per row; a text’s maximum length', async () => {
		const server = builderServer(
			formWith(
				{ id: 'm', kind: 'matrix', label: 'Grid', ...settingsForKind('matrix') },
				{ id: 't', kind: 'long_text', label: 'Story' },
			),
		)
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('button', { name: 'Edit Grid' }))
		const rows = screen.getByRole('group', { name: 'Rows' })
		setText(within(rows).getByRole('textbox', { name: 'Row 1' }), 'Food')
		await user.click(within(rows).getByRole('button', { name: 'Remove row 2' }))
		const columns = screen.getByRole('group', { name: 'Columns' })
		await user.click(within(columns).getByRole('button', { name: 'Remove column 3' }))
		// Two columns is the least a matrix has.
		expect(within(columns).getByRole('button', { name: 'Remove column 2' })).toBeDisabled()
		await user.click(screen.getByRole('switch', { name: 'Several columns per row' }))

		await user.click(screen.getByRole('button', { name: 'Edit Story' }))
		setText(screen.getByRole('spinbutton', { name: 'Maximum length' }), '280')

		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.[1]?.matrix).toEqual({ rows: ['Food'], columns: ['Column 1', 'Column 2'], multiple: true })
		expect(patch.fields?.[2]).toMatchObject({ kind: 'long_text', maxLength: 280 })
	})

	test('a number property asked as a rating gets its stars; a calculation is edited in place and can be kept off the page', async () => {
		const server = builderServer(
			formWith(
				{ id: 'sc', kind: 'number', label: 'Score', propertyId: 'score' },
				{ id: 'c', kind: 'calculated', label: 'Total', ...settingsForKind('calculated') },
			),
		)
		const { user } = renderBuilder()
		await waitForBuilder()
		await user.click(screen.getByRole('button', { name: 'Edit Score' }))
		const types = screen.getByRole('group', { name: 'Answer type' })
		expect(
			within(types)
				.getAllByRole('radio')
				.map((radio) => radio.getAttribute('value')),
		).toEqual(['number', 'rating', 'scale', 'nps', 'calculated'])
		await user.click(within(types).getByRole('radio', { name: 'Rating' }))
		expect(screen.getByRole('combobox', { name: 'Number of stars' })).toHaveValue('5')

		await user.click(screen.getByRole('button', { name: 'Edit Total' }))
		// A result is never typed: no required switch, no default, no link parameter.
		expect(screen.queryByRole('switch', { name: 'Required' })).not.toBeInTheDocument()
		expect(screen.queryByRole('textbox', { name: 'URL parameter' })).not.toBeInTheDocument()
		const shown = await screen.findByRole('switch', { name: 'Show the result to visitors' })
		expect(shown).toBeChecked()
		await user.click(shown)

		// The calculation editor sits in the field: a step adding the stars given above it.
		await user.click(screen.getByRole('button', { name: 'Add step' }))
		expect(screen.getByRole('combobox', { name: 'What step 1 uses' })).toHaveDisplayValue('the answer to Score')

		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.[2]?.calculation?.steps).toEqual([{ when: [], operation: 'add', operand: { fieldId: 'sc' } }])
		expect(patch.fields?.[1]).toMatchObject({
			kind: 'rating',
			propertyId: 'score',
			scale: { min: 1, max: 5 },
			defaultValue: null,
		})
		expect(patch.fields?.[2]).toMatchObject({ kind: 'calculated', hidden: true })
	})
})
