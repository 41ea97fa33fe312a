// How a published form looks: its colours, font, corners and mode, with the author's own CSS
// confined to the form. Zod-free, so the public page (which has a size budget) reads it too.

/** The class of the element a form's theme and custom CSS apply to (and stay inside). */
export const formRootClass = 'bs-form'

export const formFonts = ['default', 'serif', 'mono', 'rounded'] as const
export type FormFont = (typeof formFonts)[number]

/** Relative luminance of `#rrggbb` (WCAG 2). */
function luminance(hex: string): number {
	const channel = (offset: number) => {
		const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255
		return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
	}
	return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** White or black, whichever reads better on `#rrggbb` (the higher WCAG contrast ratio). */
export function readableTextOn(hex: string): '#ffffff' | '#000000' {
	const background = luminance(hex)
	const onWhite = 1.05 / (background + 0.05)
	const onBlack = (background + 0.05) / 0.05
	return onWhite >= onBlack ? '#ffffff' : '#000000'
}
