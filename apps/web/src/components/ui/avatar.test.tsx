import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Avatar, initialsOf } from './avatar.tsx'

describe('initialsOf', () => {
	it.each([
		['Ada Lovelace', 'AL'],
		['Ada King Lovelace', 'AL'],
		['cher', 'C'],
		['jane.doe@example.com', 'JD'],
		['  Émile   zola ', 'ÉZ'],
		['(Acme) Ltd.', 'AL'],
		['', '?'],
	])('%j → %j', (name, initials) => {
		expect(initialsOf(name)).toBe(initials)
	})
})

describe('Avatar', () => {
	it('shows initials without a picture and is named by the full name', () => {
		render(<Avatar name="Ada Lovelace" />)
		const avatar = screen.getByRole('img', { name: 'Ada Lovelace' })
		expect(avatar).toHaveTextContent('AL')
	})

	it('is hidden from screen readers when decorative, its initials drawn by CSS rather than written as text', () => {
		const { container } = render(<Avatar name="Ada Lovelace" isDecorative />)
		expect(screen.queryByRole('img')).toBeNull()
		// Inside a button labelled "Ada Lovelace, account menu", text initials would be visible words
		// missing from the button's name.
		expect(container).toHaveTextContent('')
		expect(container.querySelector('[data-initials]')).toHaveAttribute('data-initials', 'AL')
	})
})
