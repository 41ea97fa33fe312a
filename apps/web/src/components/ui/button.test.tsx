import { render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { Button } from './button.tsx'

describe('Button', () => {
	it('is disabled and aria-busy while loading, and does not fire clicks', async () => {
		const onClick = vi.fn()
		const { user } = renderWithUser(
			<Button isLoading onClick={onClick}>
				Save
			</Button>,
		)
		const button = screen.getByRole('button', { name: 'Save' })
		expect(button).toBeDisabled()
		expect(button).toHaveAttribute('aria-busy', 'true')
		await user.click(button)
		expect(onClick).not.toHaveBeenCalled()
	})

	it('is an ordinary enabled button when not loading', async () => {
		const onClick = vi.fn()
		const { user } = renderWithUser(<Button onClick={onClick}>Save</Button>)
		const button = screen.getByRole('button', { name: 'Save' })
		expect(button).toBeEnabled()
		expect(button).not.toHaveAttribute('aria-busy')
		await user.click(button)
		expect(onClick).toHaveBeenCalledOnce()
	})

	it('does not submit its form unless it is type="submit"', async () => {
		const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault())
		const { user } = renderWithUser(
			<form onSubmit={onSubmit}>
				<Button>Add a line</Button>
				<Button type="submit">Send</Button>
			</form>,
		)
		await user.click(screen.getByRole('button', { name: 'Add a line' }))
		expect(onSubmit).not.toHaveBeenCalled()
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(onSubmit).toHaveBeenCalledOnce()
	})

	it('renders its child instead of a <button> with asChild', () => {
		render(
			<Button asChild variant="outline">
				<a href="/forms">All forms</a>
			</Button>,
		)
		const link = screen.getByRole('link', { name: 'All forms' })
		expect(link).toHaveAttribute('href', '/forms')
		expect(link.className).toContain('border-input')
		expect(screen.queryByRole('button')).toBeNull()
	})
})
