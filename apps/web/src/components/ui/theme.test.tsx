import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { stubMatchMedia } from '#src/test/match-media.ts'
import { renderWithUser } from '#src/test/render.tsx'
import { THEME_STORAGE_KEY, ThemeProvider, useTheme } from './theme.tsx'
import { ThemeToggle } from './theme-toggle.tsx'

function ThemeReadout() {
	const { theme, resolvedTheme, setTheme } = useTheme()
	return (
		<>
			<p>
				{theme} → {resolvedTheme}
			</p>
			<button type="button" onClick={() => setTheme('light')}>
				Light
			</button>
			<button type="button" onClick={() => setTheme('system')}>
				System
			</button>
		</>
	)
}

const root = () => document.documentElement

describe('ThemeProvider', () => {
	it('a forced theme wins over the system and a stored choice (a published form whose author chose)', () => {
		stubMatchMedia(true)
		window.localStorage.setItem(THEME_STORAGE_KEY, 'dark')
		render(
			<ThemeProvider forcedTheme="light">
				<ThemeReadout />
			</ThemeProvider>,
		)
		expect(screen.getByText('dark → light')).toBeInTheDocument()
		expect(root()).not.toHaveClass('dark')
		window.localStorage.removeItem(THEME_STORAGE_KEY)
	})

	it('follows the system, live, when nothing is chosen', () => {
		const system = stubMatchMedia(true)
		render(
			<ThemeProvider>
				<ThemeReadout />
			</ThemeProvider>,
		)
		expect(screen.getByText('system → dark')).toBeInTheDocument()
		expect(root()).toHaveClass('dark')
		expect(root().style.colorScheme).toBe('dark')

		act(() => system.setMatches(false))
		expect(screen.getByText('system → light')).toBeInTheDocument()
		expect(root()).not.toHaveClass('dark')
		expect(root().style.colorScheme).toBe('light')
	})

	it('keeps an explicit choice over the system, remembers it, and goes back to following on "system"', async () => {
		const system = stubMatchMedia(true)
		const { user, unmount } = renderWithUser(
			<ThemeProvider>
				<ThemeReadout />
			</ThemeProvider>,
		)
		await user.click(screen.getByRole('button', { name: 'Light' }))
		expect(root()).not.toHaveClass('dark')
		expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light')

		act(() => system.setMatches(true))
		expect(root()).not.toHaveClass('dark')

		unmount()
		root().className = ''
		render(
			<ThemeProvider>
				<ThemeReadout />
			</ThemeProvider>,
		)
		expect(screen.getByText('light → light')).toBeInTheDocument()
		expect(root()).not.toHaveClass('dark')
	})

	it('reads a stored choice at start', () => {
		stubMatchMedia(false)
		window.localStorage.setItem(THEME_STORAGE_KEY, 'dark')
		render(
			<ThemeProvider>
				<ThemeReadout />
			</ThemeProvider>,
		)
		expect(screen.getByText('dark → dark')).toBeInTheDocument()
		expect(root()).toHaveClass('dark')
	})

	it('stops listening to the system when unmounted', () => {
		const system = stubMatchMedia(false)
		const { unmount } = render(
			<ThemeProvider>
				<ThemeReadout />
			</ThemeProvider>,
		)
		expect(system.listenerCount).toBeGreaterThan(0)
		unmount()
		expect(system.listenerCount).toBe(0)
	})
})

describe('ThemeToggle', () => {
	it('switches the theme from its menu, by keyboard', async () => {
		stubMatchMedia(false)
		const { user } = renderWithUser(
			<ThemeProvider>
				<ThemeToggle />
			</ThemeProvider>,
		)
		const trigger = screen.getByRole('button', { name: 'Theme: System' })
		expect(root()).not.toHaveClass('dark')

		trigger.focus()
		await user.keyboard('{Enter}')
		const dark = await screen.findByRole('menuitemradio', { name: 'Dark' })
		expect(screen.getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true')
		dark.focus()
		await user.keyboard('{Enter}')

		expect(root()).toHaveClass('dark')
		expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark')
		expect(screen.getByRole('button', { name: 'Theme: Dark' })).toBeInTheDocument()
	})
})
