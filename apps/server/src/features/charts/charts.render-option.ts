import { formatChartChange, formatChartNumber } from '@blocksmith/contracts/chart-format.ts'
import type { ChartDisplay, ChartFigures, ChartType, FigureSeries } from '@blocksmith/contracts/charts.ts'
import type { BarSeriesOption, EChartsOption, LineSeriesOption, ScatterSeriesOption } from 'echarts'
import { type ChartTheme, fontFamily, paletteColors, type ThemeColors, themeColors } from './charts.render-theme.ts'

// Figures and display settings become an ECharts option: pure, so every choice of the drawing
// (stacks, colours, labels, legends, formats) is tested without drawing. Besides the option, each
// data point's tooltip text is kept by series and data index: charts.render.ts writes it into
// the SVG beside ECharts' own indexes, so the embed's script needs no figures to explain a bar.

export type RenderInput = {
	type: ChartType
	display: ChartDisplay
	figures: ChartFigures
	width: number
	height?: number
	theme: ChartTheme
	transparent: boolean
}

export type BuiltOption = {
	option: EChartsOption
	width: number
	height: number
	/** Tooltip text by series index, then data index. */
	tips: Array<Array<string | undefined>>
}

type Context = {
	display: ChartDisplay
	colors: ThemeColors
	palette: string[]
	/** In the chart's number format. */
	format: (value: number | null | undefined) => string
	/** In a series' own format (a count next to money reads as a count). */
	formatOf: (series: FigureSeries | undefined) => (value: number | null | undefined) => string
	width: number
	height: number
}

const dimOpacity = 0.45

/** The option for the figures, or null when nothing is drawn (a table, or figures with problems). */
export function buildChartOption(input: RenderInput): BuiltOption | null {
	const { type, display, figures, theme } = input
	if (type === 'table' || figures.problems.length > 0) {
		return null
	}
	const width = Math.round(input.width)
	const height = Math.round(input.height ?? display.height)
	const colors = themeColors[theme]
	const context: Context = {
		display,
		colors,
		palette: paletteColors(display.palette, theme),
		format: (value) => formatChartNumber(value, display.numberFormat),
		formatOf: (series) => (value) => formatChartNumber(value, series?.format ?? display.numberFormat),
		width,
		height,
	}
	const base: EChartsOption = {
		animation: false,
		backgroundColor: input.transparent ? 'transparent' : colors.background,
		textStyle: { fontFamily, color: colors.text, fontSize: 12 },
		color: context.palette,
		aria: { enabled: false },
		...(display.title ? { title: titleOf(display.title, colors) } : {}),
	}
	const built = drawingOf(type, figures, context)
	return { option: { ...base, ...built.option }, width, height, tips: built.tips }
}

type Drawing = { option: EChartsOption; tips: Array<Array<string | undefined>> }

function drawingOf(type: Exclude<ChartType, 'table'>, figures: ChartFigures, context: Context): Drawing {
	switch (type) {
		case 'number':
			return kpiOf(figures, context)
		case 'scatter':
			return scatterOf(figures, context)
		case 'pie':
			return pieOf(figures, context)
		default:
			return cartesianOf(type, figures, context)
	}
}

function titleOf(text: string, colors: ThemeColors): EChartsOption['title'] {
	return {
		text,
		left: 0,
		top: 0,
		padding: [2, 0],
		textStyle: { fontFamily, fontSize: 14, fontWeight: 600, color: colors.text },
	}
}

/** A message in the middle of an empty chart. */
function emptyOf(context: Context, text = 'No data'): Drawing {
	return {
		option: {
			graphic: {
				elements: [
					{
						type: 'text',
						left: 'center',
						top: 'middle',
						silent: true,
						style: { text, fill: context.colors.muted, fontFamily, fontSize: 14 },
					},
				],
			},
		},
		tips: [],
	}
}

type LegendPlace = 'top' | 'bottom' | 'right' | 'none'

/** `auto`: on top when there is more than one thing to tell apart, none otherwise. */
function legendPlace(display: ChartDisplay, count: number, auto: LegendPlace = 'top'): LegendPlace {
	if (display.legend === 'auto') {
		return count > 1 ? auto : 'none'
	}
	return display.legend
}

function legendOf(place: LegendPlace, context: Context, hasTitle: boolean): EChartsOption['legend'] {
	if (place === 'none') {
		return { show: false }
	}
	const common = {
		show: true,
		type: 'plain' as const,
		icon: 'circle',
		itemWidth: 8,
		itemHeight: 8,
		itemGap: 14,
		textStyle: { color: context.colors.muted, fontFamily, fontSize: 12 },
	}
	if (place === 'right') {
		return { ...common, orient: 'vertical', right: 0, top: 'middle', align: 'left' }
	}
	if (place === 'bottom') {
		return { ...common, left: 0, bottom: 0 }
	}
	return { ...common, left: 0, top: hasTitle ? 28 : 0 }
}

/** Room for the title and the legend around the plot. */
function gridOf(place: LegendPlace, context: Context): { left: number; right: number; top: number; bottom: number } {
	const hasTitle = Boolean(context.display.title)
	const top = (hasTitle ? 32 : 8) + (place === 'top' ? 28 : 0)
	const bottom = 4 + (place === 'bottom' ? 28 : 0)
	const right = 16 + (place === 'right' ? Math.min(180, Math.round(context.width * 0.3)) : 0)
	const left = 4
	return { left, right, top, bottom }
}

// ---- colours ------------------------------------------------------------------------------

/** A colour per figure series: palette order for the series themselves, grey for "Other", and a comparison takes its series' colour. */
function seriesColors(series: FigureSeries[], context: Context): string[] {
	const byBase = new Map<string, string>()
	let next = 0
	const baseKey = (s: FigureSeries) => `${s.seriesId}\u0000${s.group ?? ''}\u0000${s.isOther}`
	for (const s of series) {
		if (s.isComparison || byBase.has(baseKey(s))) {
			continue
		}
		byBase.set(baseKey(s), s.isOther ? context.colors.other : colorAt(context.palette, next++))
	}
	return series.map(
		(s) => byBase.get(baseKey(s)) ?? (s.isOther ? context.colors.other : colorAt(context.palette, next++)),
	)
}

function colorAt(palette: string[], index: number): string {
	return palette[index % palette.length] ?? '#888888'
}

// ---- bar, line, area ----------------------------------------------------------------------

function cartesianOf(type: 'bar' | 'line' | 'area', figures: ChartFigures, context: Context): Drawing {
	const { display } = context
	const series = figures.series
	if (figures.categories.length === 0 || series.length === 0) {
		return emptyOf(context)
	}
	const isStacked = (type === 'bar' || type === 'area') && display.stacking !== 'grouped' && series.length > 1
	const isPercent = isStacked && display.stacking === 'percent'
	const stackOf = (s: FigureSeries) => (s.isComparison ? 'comparison' : 'main')
	// 100 %: each value as its share of its stack's total in that category.
	const totals = new Map<string, number[]>()
	if (isPercent) {
		for (const s of series) {
			const sums = totals.get(stackOf(s)) ?? figures.categories.map(() => 0)
			s.values.forEach((value, index) => {
				sums[index] = (sums[index] ?? 0) + Math.abs(value ?? 0)
			})
			totals.set(stackOf(s), sums)
		}
	}
	const shareOf = (s: FigureSeries, index: number): number | null => {
		const value = s.values[index] ?? null
		const total = totals.get(stackOf(s))?.[index] ?? 0
		return value === null ? null : total === 0 ? 0 : value / total
	}
	const percentFormat = (value: number | null | undefined) =>
		formatChartNumber(value, {
			...display.numberFormat,
			style: 'percent',
			currency: 'USD',
			compact: false,
			decimals: null,
		})
	// The value axis in the series' format when they share one; plain numbers under series of
	// several kinds (money and a count), which no single unit describes.
	const formats = new Set(series.map((s) => JSON.stringify(s.format ?? display.numberFormat)))
	const sharedFormat =
		formats.size === 1
			? context.formatOf(series[0])
			: (value: number | null | undefined) =>
					formatChartNumber(value, { ...display.numberFormat, style: 'number', decimals: null })
	const axisFormat = isPercent ? percentFormat : sharedFormat
	const colors = seriesColors(series, context)
	const isHorizontal = type === 'bar' && display.orientation === 'horizontal'
	const labels = figures.categories.map((category) => category.label)
	const place = legendPlace(display, series.length)
	const tips: Array<Array<string | undefined>> = []

	const echartsSeries = series.map((s, seriesIndex) => {
		const values = isPercent ? s.values.map((_, index) => shareOf(s, index)) : s.values
		const color = colors[seriesIndex] ?? context.colors.other
		const format = context.formatOf(s)
		tips.push(
			figures.categories.map((category, index) => {
				const value = s.values[index] ?? null
				const shown = isPercent ? `${format(value)} (${percentFormat(shareOf(s, index))})` : format(value)
				return `${category.label}\n${s.name}: ${shown}`
			}),
		)
		const label = {
			show: display.dataLabels,
			position: isStacked ? ('inside' as const) : isHorizontal ? ('right' as const) : ('top' as const),
			color: isStacked ? '#ffffff' : context.colors.muted,
			fontFamily,
			fontSize: 11,
			formatter: (params: { value: unknown }) => (isPercent ? percentFormat : format)(numberOf(params.value)),
		}
		if (type === 'bar') {
			const bar: BarSeriesOption = {
				type: 'bar',
				name: s.name,
				data: values,
				itemStyle: {
					color,
					opacity: s.isComparison ? dimOpacity : 1,
					borderRadius: isStacked ? 0 : isHorizontal ? [0, 3, 3, 0] : [3, 3, 0, 0],
				},
				barMaxWidth: 48,
				label,
				emphasis: { disabled: true },
				...(isStacked ? { stack: stackOf(s) } : {}),
			}
			return bar
		}
		const manyPoints = figures.categories.length > 60
		const line: LineSeriesOption = {
			type: 'line',
			name: s.name,
			data: values,
			smooth: display.smooth,
			connectNulls: false,
			// Kept even when small: each point is what a tooltip hangs on.
			symbol: s.isComparison ? 'emptyCircle' : 'circle',
			symbolSize: manyPoints ? 3 : 6,
			itemStyle: { color, opacity: s.isComparison ? 0.7 : 1 },
			lineStyle: { color, width: 2, type: s.isComparison ? 'dashed' : 'solid', opacity: s.isComparison ? 0.7 : 1 },
			label,
			labelLayout: { hideOverlap: true },
			emphasis: { disabled: true },
			...(type === 'area' ? { areaStyle: { color, opacity: s.isComparison ? 0.08 : isStacked ? 0.55 : 0.18 } } : {}),
			...(isStacked ? { stack: stackOf(s) } : {}),
		}
		return line
	})

	const categoryAxis = {
		type: 'category' as const,
		data: labels,
		inverse: isHorizontal,
		boundaryGap: type === 'bar',
		axisTick: { show: false },
		axisLine: { show: true, lineStyle: { color: context.colors.axis } },
		axisLabel: {
			color: context.colors.muted,
			fontFamily,
			hideOverlap: true,
			// Lines and areas put the first and last labels on the plot's edges: centred there, a
			// long one ("Week of Apr 27, 2026") was cut off by the drawing's border.
			...(type === 'bar' ? {} : { alignMinLabel: 'left' as const, alignMaxLabel: 'right' as const }),
		},
		splitLine: { show: false },
	}
	const valueAxis = {
		type: 'value' as const,
		...(isPercent ? { max: 1 } : {}),
		axisLine: { show: false },
		axisTick: { show: false },
		axisLabel: { color: context.colors.muted, fontFamily, formatter: (value: number) => axisFormat(value) },
		splitLine: { show: true, lineStyle: { color: context.colors.grid } },
	}
	const nameStyle = { color: context.colors.muted, fontFamily, fontSize: 12 }
	const xTitle = display.xAxisTitle
		? { name: display.xAxisTitle, nameLocation: 'middle' as const, nameGap: 30, nameTextStyle: nameStyle }
		: {}
	const yTitle = display.yAxisTitle
		? { name: display.yAxisTitle, nameLocation: 'middle' as const, nameGap: 48, nameTextStyle: nameStyle }
		: {}
	// The axis titles stay with their meaning: x is the grouping, y the measure, whichever way bars run.
	const xAxis = isHorizontal ? { ...valueAxis, ...yTitle } : { ...categoryAxis, ...xTitle }
	const yAxis = isHorizontal ? { ...categoryAxis, ...xTitle } : { ...valueAxis, ...yTitle }
	return {
		option: {
			legend: legendOf(place, context, Boolean(display.title)),
			grid: { ...gridOf(place, context), outerBoundsMode: 'same', outerBoundsContain: 'all' },
			xAxis,
			yAxis,
			series: echartsSeries,
		} as EChartsOption,
		tips,
	}
}

function numberOf(value: unknown): number | null {
	if (Array.isArray(value)) {
		return numberOf(value[value.length - 1])
	}
	return typeof value === 'number' ? value : null
}

// ---- pie ----------------------------------------------------------------------------------

type Slice = { name: string; value: number; isOther: boolean }

/**
 * The slices: without a breakdown, the first series over the x groups; with one, each breakdown
 * series' total over all x groups (a pie answers "how is the whole split", and the breakdown is
 * that split). Comparisons are left out, and so are slices of zero or less, which a pie cannot show.
 */
export function pieSlices(figures: ChartFigures): Slice[] {
	const own = figures.series.filter((s) => !s.isComparison)
	const first = own[0]
	if (!first) {
		return []
	}
	const hasBreakdown = own.some((s) => s.group !== null || s.isOther)
	const slices: Slice[] = hasBreakdown
		? own
				.filter((s) => s.seriesId === first.seriesId)
				.map((s) => ({ name: s.name, value: sum(s.values), isOther: s.isOther }))
		: figures.categories.map((category, index) => ({
				name: category.label,
				value: first.values[index] ?? 0,
				isOther: false,
			}))
	return slices.filter((slice) => slice.value > 0)
}

function sum(values: Array<number | null>): number {
	return values.reduce<number>((total, value) => total + (value ?? 0), 0)
}

function pieOf(figures: ChartFigures, context: Context): Drawing {
	const { display } = context
	const slices = pieSlices(figures)
	if (slices.length === 0) {
		return emptyOf(context)
	}
	const total = slices.reduce((all, slice) => all + slice.value, 0)
	const share = (value: number) =>
		formatChartNumber(total === 0 ? 0 : value / total, {
			style: 'percent',
			currency: 'USD',
			decimals: null,
			compact: false,
		})
	const format = context.formatOf(figures.series[0])
	const place = legendPlace(display, slices.length, context.width >= 480 ? 'right' : 'bottom')
	const grid = gridOf(place, context)
	const plotWidth = context.width - grid.left - grid.right
	const plotHeight = context.height - grid.top - grid.bottom
	const radius = Math.max(10, Math.min(plotWidth, plotHeight) / 2 - (display.dataLabels ? 24 : 4))
	let next = 0
	const data = slices.map((slice) => ({
		name: slice.name,
		value: slice.value,
		itemStyle: { color: slice.isOther ? context.colors.other : colorAt(context.palette, next++) },
	}))
	return {
		option: {
			legend: legendOf(place, context, Boolean(display.title)),
			series: [
				{
					type: 'pie',
					name: figures.series[0]?.name ?? '',
					data,
					radius: display.donut ? [radius * 0.62, radius] : [0, radius],
					center: [grid.left + plotWidth / 2, grid.top + plotHeight / 2],
					padAngle: 1,
					avoidLabelOverlap: true,
					label: {
						show: display.dataLabels,
						color: context.colors.muted,
						fontFamily,
						fontSize: 11,
						formatter: (params: { name: string; value: unknown }) =>
							`${params.name}: ${format(numberOf(params.value))}`,
					},
					labelLine: { show: display.dataLabels, lineStyle: { color: context.colors.axis } },
					emphasis: { disabled: true },
				},
			],
		} as EChartsOption,
		tips: [slices.map((slice) => `${slice.name}: ${format(slice.value)} (${share(slice.value)})`)],
	}
}

// ---- scatter ------------------------------------------------------------------------------

function scatterOf(figures: ChartFigures, context: Context): Drawing {
	const { display } = context
	const points = figures.points ?? []
	if (points.length === 0) {
		return emptyOf(context)
	}
	const groups = new Map<string, typeof points>()
	for (const point of points) {
		const key = point.group ?? ''
		groups.set(key, [...(groups.get(key) ?? []), point])
	}
	const isGrouped = groups.size > 1 || !groups.has('')
	const place = legendPlace(display, isGrouped ? groups.size : 1)
	const xName = display.xAxisTitle ?? 'x'
	const yName = display.yAxisTitle ?? 'y'
	const xFormat = (value: number | null | undefined) =>
		formatChartNumber(value, {
			style: 'number',
			currency: 'USD',
			decimals: null,
			compact: display.numberFormat.compact,
		})
	const tips: Array<Array<string | undefined>> = []
	const series: ScatterSeriesOption[] = [...groups.entries()].map(([group, members], index) => {
		const name = group === '' ? (isGrouped ? 'No value' : (figures.series[0]?.name ?? 'Rows')) : group
		tips.push(
			members.map(
				(point) =>
					`${point.label || 'Untitled'}${isGrouped ? ` (${name})` : ''}\n${xName}: ${xFormat(point.x)} · ${yName}: ${context.format(point.y)}`,
			),
		)
		return {
			type: 'scatter',
			name,
			data: members.map((point) => [point.x, point.y]),
			symbolSize: points.length > 500 ? 5 : 8,
			itemStyle: { color: colorAt(context.palette, index), opacity: 0.8 },
			label: {
				show: display.dataLabels,
				position: 'top',
				color: context.colors.muted,
				fontFamily,
				fontSize: 11,
				formatter: (params: { dataIndex: number }) => members[params.dataIndex]?.label ?? '',
			},
			labelLayout: { hideOverlap: true },
			emphasis: { disabled: true },
		}
	})
	const axis = (title: string | null, gap: number, format: (value: number) => string) => ({
		type: 'value' as const,
		scale: true,
		axisLine: { show: false },
		axisTick: { show: false },
		axisLabel: { color: context.colors.muted, fontFamily, formatter: format },
		splitLine: { show: true, lineStyle: { color: context.colors.grid } },
		...(title
			? {
					name: title,
					nameLocation: 'middle' as const,
					nameGap: gap,
					nameTextStyle: { color: context.colors.muted, fontFamily, fontSize: 12 },
				}
			: {}),
	})
	return {
		option: {
			legend: legendOf(place, context, Boolean(display.title)),
			grid: { ...gridOf(place, context), outerBoundsMode: 'same', outerBoundsContain: 'all' },
			xAxis: axis(display.xAxisTitle, 30, xFormat),
			yAxis: axis(display.yAxisTitle, 48, context.format),
			series,
		} as EChartsOption,
		tips,
	}
}

// ---- number (KPI) -------------------------------------------------------------------------

/**
 * The KPI: the value large in the middle, the change against the previous period under it (▲ in
 * green, ▼ in red), then what the periods are. Text elements, so the SVG and PNG show it as drawn.
 */
function kpiOf(figures: ChartFigures, context: Context): Drawing {
	const kpi = figures.kpi
	if (!kpi) {
		return emptyOf(context)
	}
	const { colors, width, height } = context
	const top = context.display.title ? 32 : 0
	const format = context.formatOf(figures.series[0])
	const value = format(kpi.value)
	const size = Math.round(Math.max(24, Math.min(64, (height - top) * 0.3, (width / Math.max(4, value.length)) * 1.5)))
	const middle = top + (height - top) / 2
	const valueY = middle - size * 0.45
	const text = (y: number, content: string, fill: string, fontSize: number, weight = 400) => ({
		type: 'text' as const,
		x: width / 2,
		y,
		silent: true,
		style: {
			text: content,
			fill,
			fontFamily,
			fontSize,
			fontWeight: weight,
			textAlign: 'center' as const,
			textVerticalAlign: 'middle' as const,
		},
	})
	const elements = [
		text(valueY, value, colors.text, size, 600),
		text(valueY + size * 0.7 + 4, kpi.currentLabel, colors.muted, 13),
	]
	if (kpi.previousLabel !== null) {
		// Up or down from 0 has no percentage: the direction, then "from 0", says it.
		const isFromZero = kpi.change === null && kpi.previous === 0 && kpi.value !== null && kpi.value !== 0
		const direction = isFromZero ? Math.sign(kpi.value ?? 0) : Math.sign(kpi.change ?? 0)
		const arrow = direction === 0 ? '' : direction > 0 ? '▲ ' : '▼ '
		const fill = direction === 0 ? colors.muted : direction > 0 ? colors.up : colors.down
		const changeText = isFromZero ? `${direction > 0 ? 'up' : 'down'} from ${format(0)}` : formatChartChange(kpi.change)
		const changeY = valueY + size * 0.7 + 30
		elements.push(
			text(changeY, `${arrow}${changeText}`, fill, 15, 600),
			// "Last month" is a label on its own, "vs last month" inside the line.
			text(changeY + 22, `vs ${lowerFirst(kpi.previousLabel)}: ${format(kpi.previous)}`, colors.muted, 12),
		)
	}
	return { option: { graphic: { elements } } as EChartsOption, tips: [] }
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1)
}
