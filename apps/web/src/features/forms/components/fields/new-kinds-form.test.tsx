import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { field, makeForm } from '../../public/testing.ts'
import { type FormSubmitOutcome, FormView } from '../form-view.tsx'

// The new question kinds inside the form (preview mode, answers handed to onSubmit): the page's
// required checks name each one, and what is sent has the shapes the server takes (AnswerShapes).

const fields = [
	field('intro', 'paragraph', 'Intro', { propertyId: null, body: 'Tell us **honestly**.' }),
	field('food', 'rating', 'How was the food?', {
		required: true,
		scale: { min: 1, max: 5, minLabel: null, maxLabel: null },
	}),
	field('nps', 'nps', 'Would you recommend us?', { required: true }),
	field('order', 'ranking', 'What matters most?', { required: true, options: ['Price', 'Speed'] }),
	field('grid', 'matrix', 'Rate each part', {
		required: true,
		matrix: { rows: ['Food', 'Service'], columns: ['Bad', 'Good'], multiple: false },
	}),
]

describe('the new kinds in a form', () => {
	it('refuses unanswered required ones, then sends their answers in the server’s shapes', async () => {
		const onSubmit = vi.fn(async (): Promise<FormSubmitOutcome> => ({ status: 'submitted' }))
		const { user } = renderWithUser(<FormView form={makeForm(fields)} mode="preview" onSubmit={onSubmit} />)
		expect(screen.getByText('honestly').tagName).toBe('STRONG')
		// Ranking and matrix come in their own chunks.
		await screen.findByRole('table')
		await screen.findByRole('button', { name: 'Move Speed up (position 2 of 2)' })
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(onSubmit).not.toHaveBeenCalled()
		const alert = await screen.findByText(/Check these 4 answers/)
		expect(alert).toBeInTheDocument()
		expect(screen.getByText('Choose a rating.', { selector: 'p span' })).toBeInTheDocument()

		await user.click(screen.getByRole('radio', { name: '4 stars' }))
		await user.click(screen.getByRole('radio', { name: '10, Extremely likely' }))
		await user.click(screen.getByRole('button', { name: 'Move Speed up (position 2 of 2)' }))
		await user.click(screen.getByRole('radio', { name: 'Food Good' }))
		await user.click(screen.getByRole('radio', { name: 'Service Bad' }))
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1))
		expect(onSubmit.mock.calls[0]).toEqual([
			{ food: 4, nps: 10, order: ['Speed', 'Price'], grid: { Food: 'Good', Service: 'Bad' } },
		])
	})
})
