import type { ChartNumberFormat, palettes } from '@blocksmith/contracts/charts.ts'

// What the builder draws itself: the pivot table's numbers and the palette swatches. The
// server draws the charts; these follow the same settings so the two read alike.

/** A figure as the chart's number format says (percent takes fractions: 0.25 is 25 %). */
export function formatFigure(value: number | null, format: ChartNumberFormat): string {
	if (value === null) {
		return '—'
	}
	const digits =
		format.decimals === null
			? { maximumFractionDigits: 2 }
			: { minimumFractionDigits: format.decimals, maximumFractionDigits: format.decimals }
	try {
		return new Intl.NumberFormat(undefined, {
			style: format.style === 'number' ? 'decimal' : format.style,
			...(format.style === 'currency' ? { currency: format.currency } : {}),
			...(format.compact ? { notation: 'compact' as const } : {}),
			...digits,
		}).format(value)
	} catch {
		// A currency code Intl does not know yet (typed half-way): plain digits meanwhile.
		return value.toLocaleString()
	}
}

/** A few colours of each palette, to pick it by sight. */
export const paletteSwatches: Record<(typeof palettes)[number], { label: string; colors: string[] }> = {
	notion: { label: 'Notion', colors: ['#2383e2', '#d9730d', '#0f7b6c', '#9065b0', '#dfab01'] },
	default: { label: 'Classic', colors: ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de'] },
	pastel: { label: 'Pastel', colors: ['#a5c8ed', '#f7c6a3', '#b5e0c8', '#d7c1ec', '#f5e3a1'] },
	vivid: { label: 'Vivid', colors: ['#2563eb', '#f97316', '#16a34a', '#dc2626', '#9333ea'] },
	mono: { label: 'Mono', colors: ['#1f2937', '#4b5563', '#6b7280', '#9ca3af', '#d1d5db'] },
	warm: { label: 'Warm', colors: ['#b91c1c', '#ea580c', '#d97706', '#ca8a04', '#be185d'] },
	cool: { label: 'Cool', colors: ['#1d4ed8', '#0891b2', '#0d9488', '#4f46e5', '#7c3aed'] },
}
