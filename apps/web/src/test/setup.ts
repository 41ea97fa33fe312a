import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

// jsdom lacks the browser APIs below; Radix (Select, menus, popper positioning) and the theme call them.
// These are inert stand-ins: tests that care about a media query stub `matchMedia` themselves.
if (!window.matchMedia) {
	window.matchMedia = (query: string) =>
		({
			matches: false,
			media: query,
			onchange: null,
			addEventListener: () => {},
			removeEventListener: () => {},
			addListener: () => {},
			removeListener: () => {},
			dispatchEvent: () => false,
		}) satisfies MediaQueryList
}

if (!window.ResizeObserver) {
	window.ResizeObserver = class {
		observe(): void {}
		unobserve(): void {}
		disconnect(): void {}
	}
}

// Radix Select captures the pointer and scrolls the chosen option into view.
Element.prototype.hasPointerCapture ??= () => false
Element.prototype.setPointerCapture ??= () => {}
Element.prototype.releasePointerCapture ??= () => {}
Element.prototype.scrollIntoView ??= () => {}

afterEach(() => {
	cleanup()
	window.localStorage.clear()
	const root = document.documentElement
	root.className = ''
	root.removeAttribute('style')
	root.removeAttribute('data-theme')
})
