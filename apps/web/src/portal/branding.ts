import type { PortalPublicInfo } from '@blocksmith/contracts/portals.ts'

// The portal's brand on the page: accent colour as CSS variables (so the shared tokens, `bg-primary`
// and the focus ring, take it), background, light or dark (or the visitor's system), the tab's
// title and the browser's theme colour.

const darkQuery = '(prefers-color-scheme: dark)'

function channels(hex: string): [number, number, number] {
	const value = Number.parseInt(hex.slice(1), 16)
	return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
}

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
	const [r, g, b] = channels(hex).map((channel) => {
		const c = channel / 255
		return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
	}) as [number, number, number]
	return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export function contrast(a: string, b: string): number {
	const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
	return (light + 0.05) / (dark + 0.05)
}

/** Text on the accent: white or near black, whichever reads better. */
export function foregroundOn(hex: string): string {
	const l = luminance(hex)
	return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? '#09090b' : '#ffffff'
}

const isHex = (value: string | null | undefined): value is string => !!value && /^#[0-9a-fA-F]{6}$/.test(value)

function resolveTheme(theme: PortalPublicInfo['theme']): 'light' | 'dark' {
	if (theme !== 'system') {
		return theme
	}
	return window.matchMedia?.(darkQuery).matches ? 'dark' : 'light'
}

function setMeta(name: string, content: string): void {
	let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)
	if (!meta) {
		meta = document.createElement('meta')
		meta.name = name
		document.head.append(meta)
	}
	meta.content = content
}

/** Applies the brand to <html>; call again when the system's theme changes. */
export function applyBranding(info: PortalPublicInfo, doc: Document = document): 'light' | 'dark' {
	const root = doc.documentElement
	const theme = resolveTheme(info.theme)
	root.classList.toggle('dark', theme === 'dark')
	root.style.colorScheme = theme
	root.dataset.theme = theme
	if (isHex(info.accentColor)) {
		root.style.setProperty('--portal-accent', info.accentColor)
		root.style.setProperty('--primary', info.accentColor)
		root.style.setProperty('--primary-hover', info.accentColor)
		root.style.setProperty('--primary-foreground', foregroundOn(info.accentColor))
		root.style.setProperty('--ring', info.accentColor)
	}
	// Links in the accent where it reads as text on the theme's surface (4.5:1); else the theme's own.
	if (isHex(info.accentColor) && contrast(info.accentColor, theme === 'dark' ? '#111114' : '#ffffff') >= 4.5) {
		root.style.setProperty('--link', info.accentColor)
	} else {
		root.style.removeProperty('--link')
	}
	// A background only where it suits the theme showing: a light one under dark text, a dark one
	// under light text; otherwise the theme's own keeps the text readable.
	const background = info.backgroundColor
	const fits = isHex(background) && luminance(background) > 0.4 === (theme === 'light')
	if (fits) {
		root.style.setProperty('--background', background)
	} else {
		root.style.removeProperty('--background')
	}
	setMeta('theme-color', isHex(info.accentColor) ? info.accentColor : '#4338ca')
	return theme
}

/** Follows the visitor's system while the portal's theme is `system`. */
export function watchSystemTheme(onChange: () => void): () => void {
	const query = window.matchMedia?.(darkQuery)
	if (!query) {
		return () => {}
	}
	query.addEventListener('change', onChange)
	return () => query.removeEventListener('change', onChange)
}

export function setTitle(...parts: (string | null | undefined)[]): void {
	document.title = parts.filter(Boolean).join(' · ')
}
