import type { ChartDisplay } from '@blocksmith/contracts/charts.ts'

// How a drawn chart looks. By default like Notion's own charts, so an embed sits in a Notion page
// as if it belonged there: Notion's font stack, its text colours, hairline grid lines, no frame.

export type ChartTheme = 'light' | 'dark'
export type Palette = ChartDisplay['palette']

/**
 * Notion's UI font stack. Single quotes only: ECharts writes the family into a `style` attribute
 * without escaping it, so a double quote would end the attribute. In a PNG none of these exist on
 * the server and `sans-serif` falls to the bundled Inter (charts.render.ts).
 */
export const fontFamily =
	"ui-sans-serif, -apple-system, BlinkMacSystemFont, 'Segoe UI Variable Display', 'Segoe UI', Helvetica, 'Apple Color Emoji', Arial, sans-serif, 'Segoe UI Emoji', 'Segoe UI Symbol'"

export type ThemeColors = {
	text: string
	/** Axis labels, legend, secondary lines. */
	muted: string
	grid: string
	axis: string
	/** The page's background when the chart is not transparent: Notion's own. */
	background: string
	/** "Other" and anything without a colour of its own. */
	other: string
	up: string
	down: string
}

export const themeColors: Record<ChartTheme, ThemeColors> = {
	light: {
		text: 'rgb(55,53,47)',
		muted: 'rgba(55,53,47,0.65)',
		grid: 'rgba(55,53,47,0.09)',
		axis: 'rgba(55,53,47,0.16)',
		background: '#ffffff',
		other: '#9b9a97',
		up: '#448361',
		down: '#d44c47',
	},
	dark: {
		text: 'rgba(255,255,255,0.81)',
		muted: 'rgba(255,255,255,0.46)',
		grid: 'rgba(255,255,255,0.094)',
		axis: 'rgba(255,255,255,0.16)',
		background: '#191919',
		other: '#7f7f7f',
		up: '#529e72',
		down: '#df5452',
	},
}

/**
 * Series colours. `notion` is Notion's named colours (blue, orange, green, purple, pink, yellow,
 * red, brown) as it shows them in each appearance; its grey is kept for "Other". The rest are
 * single lists that read on both a light and a dark background.
 */
const palettes: Record<Palette, { light: string[]; dark: string[] }> = {
	notion: {
		light: ['#337ea9', '#d9730d', '#448361', '#9065b0', '#c14c8a', '#cb912f', '#d44c47', '#9f6b53'],
		dark: ['#379ad3', '#cb7b37', '#529e72', '#9d68d3', '#d15796', '#c19138', '#df5452', '#ba856f'],
	},
	// ECharts 6's own.
	default: same(['#5070dd', '#b6d634', '#505372', '#ff994d', '#0ca8df', '#ffd10a', '#fb628b', '#785db0', '#3fbe95']),
	pastel: same(['#8fb8de', '#f4a7a3', '#9fd5b5', '#c9b3e6', '#f6c98f', '#a5d8e6', '#e8b4d0', '#d4d48f']),
	vivid: same(['#2563eb', '#f97316', '#16a34a', '#9333ea', '#e11d48', '#0891b2', '#ca8a04', '#db2777']),
	mono: {
		light: ['#1f3b57', '#2f5d86', '#4a80b0', '#72a2cc', '#9fc1de', '#c8dcec'],
		dark: ['#c8dcec', '#9fc1de', '#72a2cc', '#4a80b0', '#2f5d86', '#1f3b57'],
	},
	warm: same(['#c2410c', '#f59e0b', '#dc2626', '#db2777', '#ea580c', '#a16207', '#be123c', '#f97316']),
	cool: same(['#0369a1', '#0d9488', '#4f46e5', '#0891b2', '#7c3aed', '#2563eb', '#059669', '#6366f1']),
}

function same(colors: string[]): { light: string[]; dark: string[] } {
	return { light: colors, dark: colors }
}

export function paletteColors(palette: Palette, theme: ChartTheme): string[] {
	return palettes[palette][theme]
}
