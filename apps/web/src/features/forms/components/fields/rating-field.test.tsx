import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { field } from '../../public/testing.ts'
import { FieldHarness, shownValue } from './field-testing.tsx'
import { RatingField } from './rating-field.tsx'
import { ScaleField } from './scale-field.tsx'

// Rating, scale and NPS: radio groups named by the question, chosen by click or by the arrow keys,
// the end words said with the end numbers.

const value = () => shownValue(screen.getByTestId('value'))

describe('RatingField', () => {
	const rating = field('r', 'rating', 'How was it?', { scale: { min: 1, max: 5, minLabel: null, maxLabel: null } })

	it('is a radio group of stars, chosen by click and moved by the arrow keys', async () => {
		const { user } = renderWithUser(<FieldHarness field={rating} component={RatingField} initial="" />)
		const group = screen.getByRole('radiogroup', { name: 'How was it?' })
		const stars = within(group).getAllByRole('radio')
		expect(stars.map((star) => star.closest('label')?.textContent)).toEqual([
			'1 star',
			'2 stars',
			'3 stars',
			'4 stars',
			'5 stars',
		])
		await user.click(screen.getByRole('radio', { name: '3 stars' }))
		expect(value()).toBe('3')
		expect(screen.getByText('3 of 5')).toBeInTheDocument()
		await user.keyboard('{ArrowRight}')
		expect(value()).toBe('4')
		expect(screen.getByRole('radio', { name: '4 stars' })).toHaveFocus()
		await user.keyboard('{ArrowLeft}{ArrowLeft}')
		expect(value()).toBe('2')
		await user.click(screen.getByRole('button', { name: 'Clear rating' }))
		expect(value()).toBe('')
	})

	it('reaches the group with Tab, previews the stars pointed at, and hides Clear when required', async () => {
		const { user } = renderWithUser(
			<>
				<button type="button">before</button>
				<FieldHarness field={{ ...rating, required: true }} component={RatingField} initial="" />
			</>,
		)
		await user.click(screen.getByRole('button', { name: 'before' }))
		await user.tab()
		expect(screen.getByRole('radio', { name: '1 star' })).toHaveFocus()
		await user.keyboard(' ')
		expect(value()).toBe('1')
		await user.hover(screen.getByRole('radio', { name: '5 stars' }).closest('label') as HTMLElement)
		expect(screen.getByText('5 of 5')).toBeInTheDocument()
		expect(value()).toBe('1')
		expect(screen.queryByRole('button', { name: 'Clear rating' })).not.toBeInTheDocument()
		expect(screen.getByRole('radiogroup')).toHaveAttribute('aria-required', 'true')
	})

	it('takes its number of stars from the field', () => {
		renderWithUser(
			<FieldHarness
				field={{ ...rating, scale: { min: 1, max: 10, minLabel: null, maxLabel: null } }}
				component={RatingField}
				initial="7"
			/>,
		)
		expect(screen.getAllByRole('radio')).toHaveLength(10)
		expect(screen.getByRole('radio', { name: '7 stars' })).toBeChecked()
	})
})

describe('ScaleField', () => {
	it('numbers the scale from its min to its max, with the end words said at the ends', async () => {
		const scale = field('s', 'scale', 'How easy?', { scale: { min: 0, max: 4, minLabel: 'Hard', maxLabel: 'Easy' } })
		const { user } = renderWithUser(<FieldHarness field={scale} component={ScaleField} initial="" />)
		const radios = within(screen.getByRole('radiogroup', { name: 'How easy?' })).getAllByRole('radio')
		expect(radios).toHaveLength(5)
		expect(screen.getByRole('radio', { name: '0, Hard' })).toBeInTheDocument()
		expect(screen.getByRole('radio', { name: '4, Easy' })).toBeInTheDocument()
		await user.click(screen.getByRole('radio', { name: '2' }))
		expect(value()).toBe('2')
		await user.keyboard('{ArrowRight}{ArrowRight}')
		expect(value()).toBe('4')
		await user.click(screen.getByRole('button', { name: 'Clear choice' }))
		expect(value()).toBe('')
	})

	it('asks NPS from 0 to 10 with the usual words unless the field has its own', async () => {
		const nps = field('n', 'nps', 'Would you recommend us?')
		const { user, unmount } = renderWithUser(<FieldHarness field={nps} component={ScaleField} initial="" />)
		expect(screen.getAllByRole('radio')).toHaveLength(11)
		expect(screen.getByRole('radio', { name: '0, Not at all likely' })).toBeInTheDocument()
		expect(screen.getByRole('radio', { name: '10, Extremely likely' })).toBeInTheDocument()
		await user.click(screen.getByRole('radio', { name: '0, Not at all likely' }))
		expect(value()).toBe('0')
		unmount()
		renderWithUser(
			<FieldHarness
				field={{ ...nps, scale: { min: 0, max: 10, minLabel: 'Never', maxLabel: 'Surely' } }}
				component={ScaleField}
				initial="9"
			/>,
		)
		expect(screen.getByRole('radio', { name: '10, Surely' })).toBeInTheDocument()
		expect(screen.getByRole('radio', { name: '9' })).toBeChecked()
	})
})
