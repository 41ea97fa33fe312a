import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { field } from '../../public/testing.ts'
import { FieldHarness, shownValue } from './field-testing.tsx'
import { TextField } from './text-field.tsx'

// Item 9 of issue 19: a long answer is never cut at the limit; a counter shows near it and past
// it the field says by how much (the form's check then refuses to send, field-values.test.ts).

const value = () => shownValue(screen.getByTestId('value')) as string

describe('TextField limits', () => {
	it('shows no counter far from the limit and has no maxLength that would cut a paste', () => {
		renderWithUser(<FieldHarness field={field('t', 'short_text', 'Title')} component={TextField} initial="Hello" />)
		const input = screen.getByRole('textbox', { name: 'Title' })
		expect(input).not.toHaveAttribute('maxLength')
		expect(screen.queryByText(/\/ 2,000/)).not.toBeInTheDocument()
	})

	it('counts near the limit, and past it keeps every character and says how many too many', async () => {
		const { user } = renderWithUser(
			<FieldHarness field={field('t', 'long_text', 'Story')} component={TextField} initial={'a'.repeat(17_999)} />,
		)
		const box = screen.getByRole('textbox', { name: 'Story' })
		expect(screen.queryByText(/\/ 20,000/)).not.toBeInTheDocument()
		await user.click(box)
		await user.keyboard('b')
		expect(screen.getByText('18,000 / 20,000')).toBeInTheDocument()
		expect(box).toHaveAccessibleDescription('18,000 / 20,000')
		// The box keeps its focus when the counter appears (same elements around it).
		expect(box).toHaveFocus()
		fireEvent.change(box, { target: { value: 'c'.repeat(20_013) } })
		expect(value()).toHaveLength(20_013)
		expect(screen.getByText('20,013 / 20,000 · 13 characters too many')).toBeInTheDocument()
		expect(screen.getByText('Over the limit of 20,000 characters.')).toBeInTheDocument()
	})

	it('counts against the field’s own limit', () => {
		renderWithUser(
			<FieldHarness
				field={field('t', 'short_text', 'Tagline', { maxLength: 40 })}
				component={TextField}
				initial={'x'.repeat(41)}
			/>,
		)
		expect(screen.getByText('41 / 40 · 1 character too many')).toBeInTheDocument()
	})
})
