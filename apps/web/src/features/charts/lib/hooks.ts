import { useCallback, useEffect, useRef, useState } from 'react'
import { useResolvedThemeOrSystem } from '#src/components/ui/theme.tsx'

/** `value`, once it has stopped changing for `delayMs`: one preview per pause, not per keystroke. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
	const [settled, setSettled] = useState(value)
	useEffect(() => {
		const timer = setTimeout(() => setSettled(value), delayMs)
		return () => clearTimeout(timer)
	}, [value, delayMs])
	return settled
}

/**
 * The theme the app shows, for the server to draw the preview in. Without the app's provider
 * (a page rendered alone) the system's choice stands in.
 */
export function usePreviewTheme(): 'light' | 'dark' {
	const resolved = useResolvedThemeOrSystem()
	if (resolved !== 'system') {
		return resolved
	}
	return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/**
 * The width of an element, in steps of `step` px: the preview is drawn for its container, and
 * a window dragged wider should not ask for a new drawing at every pixel.
 */
export function useElementWidth(fallback: number, step = 40): [(element: HTMLElement | null) => void, number] {
	const [width, setWidth] = useState(fallback)
	const observer = useRef<ResizeObserver | null>(null)
	const ref = useCallback(
		(element: HTMLElement | null) => {
			observer.current?.disconnect()
			if (!element) {
				return
			}
			const measure = (measured: number) => {
				// jsdom and hidden panes measure 0: keep the fallback rather than draw for nothing.
				if (measured > 0) {
					setWidth(Math.min(4000, Math.max(120, Math.round(measured / step) * step)))
				}
			}
			measure(element.clientWidth)
			observer.current = new ResizeObserver((entries) => measure(entries[0]?.contentRect.width ?? 0))
			observer.current.observe(element)
		},
		[step],
	)
	return [ref, width]
}
