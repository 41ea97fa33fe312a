import { afterEach, describe, expect, it, vi } from 'vitest'
import { applyBranding, contrast, foregroundOn } from './branding.ts'
import { info } from './testing.ts'

const root = document.documentElement

afterEach(() => {
	root.removeAttribute('style')
	root.classList.remove('dark')
})

function systemPrefersDark(isDark: boolean) {
	vi.stubGlobal('matchMedia', (query: string) => ({
		matches: isDark && query.includes('dark'),
		media: query,
		addEventListener: () => {},
		removeEventListener: () => {},
	}))
}

describe('the portal brand', () => {
	it('puts the accent in the CSS variables, with readable text on it', () => {
		applyBranding({ ...info, accentColor: '#fde047' })
		expect(root.style.getPropertyValue('--portal-accent')).toBe('#fde047')
		expect(root.style.getPropertyValue('--primary')).toBe('#fde047')
		// Yellow takes dark text, and is too light to be a link's colour on white.
		expect(root.style.getPropertyValue('--primary-foreground')).toBe('#09090b')
		expect(root.style.getPropertyValue('--link')).toBe('')
		applyBranding({ ...info, accentColor: '#1d4ed8' })
		expect(root.style.getPropertyValue('--primary-foreground')).toBe('#ffffff')
		expect(root.style.getPropertyValue('--link')).toBe('#1d4ed8')
		expect(foregroundOn('#000000')).toBe('#ffffff')
		expect(contrast('#ffffff', '#000000')).toBeCloseTo(21)
	})

	it("follows the visitor's system when the portal's theme is system, else the portal's choice", () => {
		systemPrefersDark(true)
		expect(applyBranding({ ...info, theme: 'system' })).toBe('dark')
		expect(root.classList.contains('dark')).toBe(true)
		expect(applyBranding({ ...info, theme: 'light' })).toBe('light')
		expect(root.classList.contains('dark')).toBe(false)
		systemPrefersDark(false)
		expect(applyBranding({ ...info, theme: 'system' })).toBe('light')
	})

	it('uses the background only where it suits the theme showing', () => {
		applyBranding({ ...info, theme: 'light', backgroundColor: '#f0fdf4' })
		expect(root.style.getPropertyValue('--background')).toBe('#f0fdf4')
		applyBranding({ ...info, theme: 'dark', backgroundColor: '#f0fdf4' })
		expect(root.style.getPropertyValue('--background')).toBe('')
	})
})
