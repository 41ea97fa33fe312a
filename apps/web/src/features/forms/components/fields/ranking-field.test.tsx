import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { field } from '../../public/testing.ts'
import { FieldHarness, shownValue } from './field-testing.tsx'
import { RankingField } from './ranking-field.tsx'

// Ranking: ordered with buttons, arrow keys or a drag; each move announced; the answer is the
// whole order, and untouched it is no answer at all.

const ranking = field('k', 'ranking', 'What matters most?', { options: ['Price', 'Speed', 'Support'] })
const value = () => shownValue(screen.getByTestId('value'))
const rows = () => screen.getAllByRole('listitem').map((item) => item.textContent)

describe('RankingField', () => {
	it('says how to order, and counts as unanswered until ordered or kept', async () => {
		const { user } = renderWithUser(<FieldHarness field={ranking} component={RankingField} initial={[]} />)
		expect(screen.getByRole('group', { name: 'What matters most?' })).toHaveAccessibleDescription(
			'Drag or use the arrows to order.',
		)
		expect(rows()).toEqual(['1Price', '2Speed', '3Support'])
		expect(value()).toEqual([])
		await user.click(screen.getByRole('button', { name: 'Keep this order' }))
		expect(value()).toEqual(['Price', 'Speed', 'Support'])
		expect(screen.getByText('Order kept as shown.')).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Clear order' }))
		expect(value()).toEqual([])
	})

	it('moves with the up and down buttons, announcing each move', async () => {
		const { user } = renderWithUser(<FieldHarness field={ranking} component={RankingField} initial={[]} />)
		expect(screen.getByRole('button', { name: 'Move Price up (position 1 of 3)' })).toBeDisabled()
		await user.click(screen.getByRole('button', { name: 'Move Support up (position 3 of 3)' }))
		expect(value()).toEqual(['Price', 'Support', 'Speed'])
		expect(screen.getByText('Support moved to position 2 of 3.')).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Move Price down (position 1 of 3)' }))
		expect(value()).toEqual(['Support', 'Price', 'Speed'])
	})

	it('moves by keyboard only: arrows, Home and End on a row’s button, the focus following the row', async () => {
		const { user } = renderWithUser(
			<>
				<button type="button">before</button>
				<FieldHarness field={{ ...ranking, required: true }} component={RankingField} initial={[]} />
			</>,
		)
		await user.click(screen.getByRole('button', { name: 'before' }))
		await user.tab()
		// The first row's up button is disabled, so Tab lands on its down button.
		expect(screen.getByRole('button', { name: 'Move Price down (position 1 of 3)' })).toHaveFocus()
		await user.keyboard('{ArrowDown}')
		expect(value()).toEqual(['Speed', 'Price', 'Support'])
		await screen.findByRole('button', { name: 'Move Price down (position 2 of 3)' })
		await new Promise((resolve) => requestAnimationFrame(resolve))
		expect(screen.getByRole('button', { name: 'Move Price down (position 2 of 3)' })).toHaveFocus()
		await user.keyboard('{End}')
		expect(value()).toEqual(['Speed', 'Support', 'Price'])
		await new Promise((resolve) => requestAnimationFrame(resolve))
		// At the bottom its down button is disabled: the focus goes to its up button.
		expect(screen.getByRole('button', { name: 'Move Price up (position 3 of 3)' })).toHaveFocus()
		await user.keyboard('{Home}')
		expect(value()).toEqual(['Price', 'Speed', 'Support'])
		expect(screen.getByText('Price moved to position 1 of 3.')).toBeInTheDocument()
		// Required: no way to clear the order once given.
		expect(screen.queryByRole('button', { name: 'Clear order' })).not.toBeInTheDocument()
	})

	it('moves a row dropped on another', () => {
		renderWithUser(<FieldHarness field={ranking} component={RankingField} initial={['Price', 'Speed', 'Support']} />)
		const [first, , third] = screen.getAllByRole('listitem') as HTMLElement[]
		const dataTransfer = { setData: () => {}, effectAllowed: '' }
		fireEvent.dragStart(third as HTMLElement, { dataTransfer })
		fireEvent.dragOver(first as HTMLElement, { dataTransfer })
		fireEvent.drop(first as HTMLElement, { dataTransfer })
		expect(value()).toEqual(['Support', 'Price', 'Speed'])
	})
})
