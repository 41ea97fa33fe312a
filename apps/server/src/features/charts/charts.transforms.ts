import type { FigureSeries, SeriesTransform, XSort } from '@blocksmith/contracts/charts.ts'

// What happens to figures after the database: they are a few hundred numbers at most, so
// ordering, limits and transforms are plain TypeScript.

/** The x group of rows without a value. */
export const emptyKey = '__empty__'
export const otherKey = '__other__'

export type Category = { key: string; label: string }

/** Natural order of categories: how a reader expects a label sort to run. */
export type Order = (a: Category, b: Category) => number

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })

export function byText(a: Category, b: Category): number {
	return collator.compare(a.label, b.label) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
}

export function byNumber(a: Category, b: Category): number {
	return Number(a.key) - Number(b.key)
}

/** Dates: keys are `YYYY-MM-DD` bucket starts, so text order is time order. */
export function byKey(a: Category, b: Category): number {
	return a.key < b.key ? -1 : a.key > b.key ? 1 : 0
}

/** Options in the order the database lists them (Notion's own order); unknown names after, by name. */
export function byOptions(names: string[]): Order {
	const position = new Map(names.map((name, index) => [name, index]))
	return (a, b) => {
		const left = position.get(a.key) ?? Number.POSITIVE_INFINITY
		const right = position.get(b.key) ?? Number.POSITIVE_INFINITY
		return left === right ? byText(a, b) : left - right
	}
}

/**
 * Categories in the asked order; the "(Empty)" group always last. Value sorts use `totals`
 * (the first series, summed over its breakdown), ties by the natural order.
 */
export function sortCategories(
	categories: Category[],
	sort: XSort,
	natural: Order,
	totals: Map<string, number | null>,
): Category[] {
	const empty = categories.filter((category) => category.key === emptyKey)
	const rest = categories.filter((category) => category.key !== emptyKey)
	const value = (category: Category) => totals.get(category.key) ?? Number.NEGATIVE_INFINITY
	switch (sort) {
		case 'label_asc':
			rest.sort(natural)
			break
		case 'label_desc':
			rest.sort((a, b) => natural(b, a))
			break
		case 'value_asc':
			rest.sort((a, b) => value(a) - value(b) || natural(a, b))
			break
		case 'value_desc':
			rest.sort((a, b) => value(b) - value(a) || natural(a, b))
			break
	}
	return [...rest, ...empty]
}

/** A running total along x (a missing value adds nothing and keeps the total). */
export function cumulative(values: (number | null)[]): (number | null)[] {
	let total = 0
	return values.map((value) => {
		total = roundSum(total + (value ?? 0))
		return total
	})
}

/** Sums of decimals in float drift (0.1 + 0.2); figures carry at most 12 significant digits anyway. */
function roundSum(value: number): number {
	return Number(value.toPrecision(12))
}

function share(value: number | null, total: number): number | null {
	return value === null || total === 0 ? null : value / total
}

/**
 * percent_of_total, as a fraction (0.25 = 25 %). Without a breakdown each value is a share of its
 * series over the categories shown. With a breakdown each value is its share of its x category
 * across the series' breakdown groups ("Other" included): what a 100 % stacked bar shows, and
 * the only reading in which the groups of one bar add up to 100 %. Comparison series are shares
 * of their own totals.
 */
export function applyTransforms(
	series: FigureSeries[],
	transforms: Map<string, SeriesTransform>,
	isBrokenDown: boolean,
): FigureSeries[] {
	return series.map((figure) => {
		const transform = transforms.get(figure.seriesId) ?? 'none'
		if (transform === 'cumulative') {
			return { ...figure, values: cumulative(figure.values) }
		}
		if (transform !== 'percent_of_total') {
			return figure
		}
		if (isBrokenDown && !figure.isComparison) {
			const siblings = series.filter((other) => other.seriesId === figure.seriesId && !other.isComparison)
			return {
				...figure,
				values: figure.values.map((value, index) =>
					share(
						value,
						siblings.reduce((sum, other) => sum + (other.values[index] ?? 0), 0),
					),
				),
			}
		}
		const total = figure.values.reduce<number>((sum, value) => sum + (value ?? 0), 0)
		return { ...figure, values: figure.values.map((value) => share(value, total)) }
	})
}
