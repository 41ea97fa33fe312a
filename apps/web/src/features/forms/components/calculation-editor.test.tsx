import type { FormCalculation, FormField } from '@blocksmith/contracts/forms.ts'
import { screen, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, test } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { makeField } from '../testing.tsx'
import { CalculationEditor } from './calculation-editor.tsx'

// The calculation editor: a price or a score built from earlier answers, with a live example worked
// out by the same rules module as the page and the server.

const price = makeField({ id: 'price', kind: 'number', label: 'Price' })
const plan = makeField({ id: 'plan', kind: 'select', label: 'Plan', choices: ['Basic', 'Pro'] })
const heading = makeField({ id: 'h', kind: 'heading', label: 'Your order' })
const later = makeField({ id: 'later', kind: 'number', label: 'Later number' })

function Editor({ initial = null }: { initial?: FormCalculation | null }) {
	const [calculated, setCalculated] = useState<FormField>(
		makeField({ id: 'total', kind: 'calculated', label: 'Total', calculation: initial }),
	)
	const fields = [heading, price, plan, calculated, later]
	return (
		<>
			<CalculationEditor
				field={calculated}
				fields={fields}
				onChange={(calculation) => setCalculated((current) => ({ ...current, calculation }))}
			/>
			<output data-testid="calculation">{JSON.stringify(calculated.calculation)}</output>
		</>
	)
}
const saved = (): FormCalculation => JSON.parse(screen.getByTestId('calculation').textContent ?? 'null')
const result = () => screen.getByText('Result:').querySelector('output')?.textContent

describe('the calculation editor', () => {
	test('builds "Price × 3, €, 2 decimals" from the keyboard and shows the exact example result', async () => {
		const { user } = renderWithUser(<Editor />)
		expect(result()).toBe('0')
		await user.click(screen.getByRole('button', { name: 'Add step' }))
		// A new step uses the first earlier numeric question; only earlier numeric ones are offered.
		const uses = screen.getByRole('combobox', { name: 'What step 1 uses' })
		expect(uses).toHaveDisplayValue('the answer to Price')
		expect(
			within(uses)
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual(['a number', 'the answer to Price'])
		await user.click(screen.getByRole('button', { name: 'Add step' }))
		await user.selectOptions(screen.getByRole('combobox', { name: 'Operation of step 2' }), 'Multiply by')
		await user.selectOptions(screen.getByRole('combobox', { name: 'What step 2 uses' }), 'a number')
		const factor = screen.getByRole('textbox', { name: 'Number of step 2' })
		await user.clear(factor)
		await user.type(factor, '3')
		await user.selectOptions(screen.getByRole('combobox', { name: 'Decimal places' }), '2')
		await user.type(screen.getByRole('textbox', { name: 'Before the number' }), '€')

		await user.type(screen.getByRole('spinbutton', { name: 'Example answer to Price' }), '19.99')
		// 19.99 × 3 in floats is 59.97000000000001; the editor shows what the server will store.
		expect(result()).toBe('€59.97')
		expect(saved()).toEqual({
			start: '0',
			steps: [
				{ operation: 'add', operand: { fieldId: 'price' }, when: [] },
				{ operation: 'multiply', operand: { value: '3' }, when: [] },
			],
			decimals: 2,
			prefix: '€',
			suffix: null,
		})
	})

	test('a step applies only when its conditions match; conditions offer earlier questions only', async () => {
		const { user } = renderWithUser(
			<Editor
				initial={{
					start: '10',
					steps: [{ operation: 'set', operand: { value: '49' }, when: [] }],
					decimals: 0,
					prefix: null,
					suffix: ' pts',
				}}
			/>,
		)
		expect(result()).toBe('49 pts')
		await user.click(screen.getByRole('button', { name: 'Add a condition to step 1' }))
		const field = screen.getByRole('combobox', { name: 'Field of condition 1 of step 1' })
		expect(
			within(field)
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual(['Price', 'Plan'])
		await user.selectOptions(field, 'Plan')
		await user.selectOptions(screen.getByRole('combobox', { name: 'Value of condition 1 of step 1' }), 'Pro')
		expect(screen.getByText('Only if')).toBeVisible()
		expect(saved().steps[0]?.when).toEqual([{ fieldId: 'plan', operator: 'equals', value: 'Pro' }])
		// Plan has no example answer: the condition does not match, the start stays.
		expect(result()).toBe('10 pts')
	})

	test('says what is wrong as it is typed: a start or number that is not a decimal, an operand no longer before the field', async () => {
		const { user } = renderWithUser(
			<Editor
				initial={{
					start: '1',
					steps: [{ operation: 'add', operand: { fieldId: 'later' }, when: [] }],
					decimals: 0,
					prefix: null,
					suffix: null,
				}}
			/>,
		)
		const uses = screen.getByRole('combobox', { name: 'What step 1 uses' })
		expect(uses).toHaveDisplayValue('a question no longer before this field')
		expect(uses).toHaveAccessibleDescription(/comes before this field/)
		const start = screen.getByRole('textbox', { name: 'Start at' })
		await user.clear(start)
		await user.type(start, '1,5')
		expect(start).toHaveAccessibleDescription(/Use a number such as 12 or 49.90/)
		expect(result()).toBe('No result: the start is not a number.')
	})

	test('steps are reordered and removed by their buttons', async () => {
		const { user } = renderWithUser(
			<Editor
				initial={{
					start: '5',
					steps: [
						{ operation: 'add', operand: { value: '1' }, when: [] },
						{ operation: 'multiply', operand: { value: '2' }, when: [] },
					],
					decimals: 0,
					prefix: null,
					suffix: null,
				}}
			/>,
		)
		expect(result()).toBe('12')
		expect(screen.getByRole('button', { name: 'Move step 1 up' })).toBeDisabled()
		await user.click(screen.getByRole('button', { name: 'Move step 2 up' }))
		expect(saved().steps.map((step) => step.operation)).toEqual(['multiply', 'add'])
		expect(result()).toBe('11')
		await user.click(screen.getByRole('button', { name: 'Remove step 1' }))
		expect(result()).toBe('6')
	})
})
