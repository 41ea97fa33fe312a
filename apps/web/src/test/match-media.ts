import { vi } from 'vitest'

/**
 * Replaces window.matchMedia with one whose answer the test controls, and which tells listeners when it
 * changes, as a real `prefers-color-scheme` query does when the OS switches. Undone after each test.
 */
export function stubMatchMedia(initialMatches: boolean) {
	let matches = initialMatches
	const listeners = new Set<(event: MediaQueryListEvent) => void>()
	vi.stubGlobal('matchMedia', (query: string) => ({
		get matches() {
			return matches
		},
		media: query,
		onchange: null,
		addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
		removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
		addListener: () => {},
		removeListener: () => {},
		dispatchEvent: () => false,
	}))
	return {
		setMatches(next: boolean): void {
			matches = next
			for (const listener of listeners) {
				listener({ matches: next } as MediaQueryListEvent)
			}
		},
		get listenerCount(): number {
			return listeners.size
		},
	}
}
