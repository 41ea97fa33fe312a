import { createRequire } from 'node:module'
import {
	type ChartDisplay,
	type ChartFigures,
	chartDisplaySchema,
	type FigureSeries,
} from '@blocksmith/contracts/charts.ts'
import { describe, expect, test } from 'vitest'
import { renderChartPng, renderChartSvg } from './charts.render.ts'
import { type BuiltOption, buildChartOption, pieSlices, type RenderInput } from './charts.render-option.ts'

// jsdom without its types (as lib/svg.ts does): the drawings are parsed as XML, so a label that
// broke out of its text or attribute would show as a parse error or an extra element.
type Node = { tagName: string; textContent: string | null; getAttribute(name: string): string | null }
type Doc = { documentElement: Node; querySelectorAll(selector: string): ArrayLike<Node> }
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
	JSDOM: new () => { window: { DOMParser: new () => { parseFromString(text: string, type: string): Doc } } }
}
const parser = new new JSDOM().window.DOMParser()

function parse(svg: string): Doc {
	const doc = parser.parseFromString(svg, 'image/svg+xml')
	expect(doc.querySelectorAll('parsererror')).toHaveLength(0)
	expect(doc.documentElement.tagName).toBe('svg')
	return doc
}

function all(doc: Doc, selector: string): Node[] {
	return Array.from(doc.querySelectorAll(selector))
}

function texts(doc: Doc): string[] {
	return all(doc, 'text').map((node) => node.textContent ?? '')
}

const display = (overrides: Partial<ChartDisplay> = {}): ChartDisplay => ({
	...chartDisplaySchema.parse({}),
	...overrides,
})

function series(
	key: string,
	name: string,
	values: Array<number | null>,
	extra: Partial<FigureSeries> = {},
): FigureSeries {
	return { key, name, seriesId: 's1', group: null, isOther: false, isComparison: false, values, ...extra }
}

const categories = [
	{ key: '2026-01-01', label: 'Jan 2026' },
	{ key: '2026-02-01', label: 'Feb 2026' },
	{ key: '2026-03-01', label: 'Mar 2026' },
]

function figures(overrides: Partial<ChartFigures> = {}): ChartFigures {
	return {
		type: 'bar',
		xKind: 'date',
		categories,
		series: [series('s1', 'Count', [3, 5, 2])],
		rowCount: 10,
		isTruncated: false,
		problems: [],
		computedAt: '2026-11-24T10:00:00.000Z',
		...overrides,
	}
}

const breakdown = [
	series('s1:a', 'Alpha', [1200, 3400.5, 900], { group: 'a' }),
	series('s1:b', 'Beta', [800, 1000, 2000], { group: 'b' }),
	series('s1:other', 'Other', [300, 200, 100], { group: 'other', isOther: true }),
	series('s1:a:compare', 'Alpha (previous period)', [1000, 3000, 1100], { group: 'a', isComparison: true }),
]

function input(overrides: Partial<RenderInput> = {}): RenderInput {
	return {
		type: 'bar',
		display: display(),
		figures: figures(),
		width: 640,
		theme: 'light',
		transparent: true,
		...overrides,
	}
}

function option(value: RenderInput): BuiltOption {
	const built = buildChartOption(value)
	if (!built) {
		throw new Error('nothing drawn')
	}
	return built
}

/** The drawn data points: ECharts' own marks plus ours, one per bar, point or slice. */
function dataPoints(doc: Doc, seriesIndex?: number): Node[] {
	const series = seriesIndex === undefined ? '' : `[ecmeta_series_index="${seriesIndex}"]`
	return all(doc, `[ecmeta_ssr_type="chart"][ecmeta_data_index]${series}`)
}

function seriesIndexes(doc: Doc): Set<string> {
	return new Set(dataPoints(doc).map((node) => node.getAttribute('ecmeta_series_index') ?? ''))
}

describe('renderChartSvg', () => {
	test('a bar chart: one bar per value, a tooltip on each, no legend for a single series', async () => {
		const doc = parse(await renderChartSvg(input()))
		expect(dataPoints(doc)).toHaveLength(3)
		expect(dataPoints(doc).map((node) => node.getAttribute('ecmeta_tip'))).toEqual([
			'Jan 2026\nCount: 3',
			'Feb 2026\nCount: 5',
			'Mar 2026\nCount: 2',
		])
		expect(all(doc, '[ecmeta_ssr_type="legend"]')).toHaveLength(0)
		expect(texts(doc)).toEqual(expect.arrayContaining(['Jan 2026', 'Feb 2026', 'Mar 2026']))
	})

	test('grouped bars with a breakdown and a comparison: every series drawn, a legend, Other in grey, the comparison lighter', async () => {
		const svg = await renderChartSvg(input({ figures: figures({ series: breakdown }) }))
		const doc = parse(svg)
		expect(seriesIndexes(doc)).toEqual(new Set(['0', '1', '2', '3']))
		expect(dataPoints(doc)).toHaveLength(12)
		const legendSeries = new Set(
			all(doc, '[ecmeta_ssr_type="legend"]').map((n) => n.getAttribute('ecmeta_series_index')),
		)
		expect(legendSeries).toEqual(new Set(['0', '1', '2', '3']))
		expect(texts(doc)).toEqual(expect.arrayContaining(['Alpha', 'Beta', 'Other', 'Alpha (previous period)']))
		expect(dataPoints(doc, 2).every((node) => node.getAttribute('fill') === '#9b9a97')).toBe(true)
		// The comparison has its series' colour, dimmed.
		expect(dataPoints(doc, 3)[0]?.getAttribute('fill')).toBe(dataPoints(doc, 0)[0]?.getAttribute('fill'))
		expect(dataPoints(doc, 3).every((node) => node.getAttribute('fill-opacity') === '0.45')).toBe(true)
	})

	test('stacked and 100 % stacked bars', () => {
		const stacked = option(
			input({ figures: figures({ series: breakdown }), display: display({ stacking: 'stacked' }) }),
		)
		const stacks = (stacked.option.series as Array<{ stack?: string }>).map((s) => s.stack)
		expect(stacks).toEqual(['main', 'main', 'main', 'comparison'])

		const percent = option(
			input({ figures: figures({ series: breakdown }), display: display({ stacking: 'percent' }) }),
		)
		const drawn = percent.option.series as Array<{ data: number[] }>
		for (let index = 0; index < categories.length; index++) {
			const share = drawn.slice(0, 3).reduce((all, s) => all + (s.data[index] ?? 0), 0)
			expect(share).toBeCloseTo(1, 10)
		}
		expect((percent.option.yAxis as { max?: number }).max).toBe(1)
		// The tooltip says both the value and its share.
		expect(percent.tips[0]?.[0]).toBe('Jan 2026\nAlpha: 1,200 (52.17%)')

		const grouped = option(input({ figures: figures({ series: breakdown }) }))
		expect((grouped.option.series as Array<{ stack?: string }>).every((s) => s.stack === undefined)).toBe(true)
	})

	test('100 % stacked bars label the axis in percent', async () => {
		const doc = parse(
			await renderChartSvg(
				input({ figures: figures({ series: breakdown }), display: display({ stacking: 'percent' }) }),
			),
		)
		expect(texts(doc)).toEqual(expect.arrayContaining(['0%', '100%']))
	})

	test('horizontal bars put the groups on the vertical axis, first on top', () => {
		const built = option(input({ display: display({ orientation: 'horizontal' }) }))
		expect(built.option.xAxis).toMatchObject({ type: 'value' })
		expect(built.option.yAxis).toMatchObject({
			type: 'category',
			inverse: true,
			data: ['Jan 2026', 'Feb 2026', 'Mar 2026'],
		})
	})

	test('number formats reach axis labels, data labels and tooltips', async () => {
		const euro = display({
			dataLabels: true,
			numberFormat: { style: 'currency', currency: 'EUR', decimals: null, compact: false },
		})
		const doc = parse(await renderChartSvg(input({ figures: figures({ series: breakdown }), display: euro })))
		const shown = texts(doc)
		expect(shown).toEqual(expect.arrayContaining(['€3,400.50', '€1,200', '€0']))
		expect(shown.some((text) => /^€\d/.test(text) && text.endsWith('500'))).toBe(true)
		expect(dataPoints(doc, 0)[1]?.getAttribute('ecmeta_tip')).toBe('Feb 2026\nAlpha: €3,400.50')

		const compact = display({ numberFormat: { style: 'number', currency: 'USD', decimals: null, compact: true } })
		const big = figures({ series: [series('s1', 'Views', [1_200_000, 2_500_000, 800_000])] })
		expect(texts(parse(await renderChartSvg(input({ figures: big, display: compact }))))).toEqual(
			expect.arrayContaining(['1M', '2M']),
		)
		// Data labels are marked with their point, so a hidden series hides its labels too.
		expect(all(doc, '[ecmeta_ssr_type="label"][ecmeta_series_index="0"]').length).toBeGreaterThanOrEqual(3)
	})

	test('each series reads in its own format; the axis in theirs when shared, plain numbers when not', async () => {
		const euro = { style: 'currency', currency: 'EUR', decimals: null, compact: false } as const
		const count = { ...euro, style: 'number' } as const
		const mixed = figures({
			series: [
				series('s1', 'Sum of Amount', [1200, 3400, 900], { format: euro }),
				series('s2', 'Count', [3, 5, 2], { seriesId: 's2', format: count }),
			],
		})
		const doc = parse(await renderChartSvg(input({ figures: mixed, display: display({ numberFormat: euro }) })))
		expect(dataPoints(doc, 0)[1]?.getAttribute('ecmeta_tip')).toBe('Feb 2026\nSum of Amount: €3,400')
		expect(dataPoints(doc, 1)[1]?.getAttribute('ecmeta_tip')).toBe('Feb 2026\nCount: 5')
		// Money and a count share one axis: its labels are plain numbers, neither unit.
		expect(texts(doc).some((text) => text.startsWith('€'))).toBe(false)
		expect(texts(doc)).toEqual(expect.arrayContaining(['3,000']))

		const shared = figures({ series: [series('s1', 'Sum of Amount', [1200, 3400, 900], { format: euro })] })
		expect(texts(parse(await renderChartSvg(input({ figures: shared }))))).toEqual(expect.arrayContaining(['€3,000']))
	})

	test('labels, names and titles with markup stay text', async () => {
		const hostile = '<script>alert(1)</script>'
		const image = '<img src=x onerror="alert(2)">'
		const amp = `Tom & Jerry's "best" <b>`
		const drawing = await renderChartSvg(
			input({
				type: 'line',
				display: display({ title: hostile, xAxisTitle: amp, yAxisTitle: image, dataLabels: true }),
				figures: figures({
					categories: [
						{ key: 'a', label: image },
						{ key: 'b', label: amp },
					],
					series: [series('s1', hostile, [1, 2]), series('s2', amp, [2, 1], { seriesId: 's2' })],
				}),
			}),
		)
		expect(drawing).not.toMatch(/<script|<img|<b>/i)
		const doc = parse(drawing)
		expect(all(doc, 'script, img, foreignObject, b')).toHaveLength(0)
		expect(texts(doc)).toEqual(expect.arrayContaining([hostile, image, amp]))
		expect(dataPoints(doc, 0)[0]?.getAttribute('ecmeta_tip')).toBe(`${image}\n${hostile}: 1`)
		expect(dataPoints(doc, 1)[1]?.getAttribute('ecmeta_tip')).toBe(`${amp}\n${amp}: 1`)
		// No attribute other than ours carries any of it.
		expect(drawing.match(/="[^"]*alert/g)?.every((match) => match.startsWith('="') && !match.includes('<'))).toBe(true)
	})

	test('lines: smooth when asked, a comparison dashed, the line itself marked with its series', async () => {
		const doc = parse(
			await renderChartSvg(
				input({ type: 'line', display: display({ smooth: true }), figures: figures({ series: breakdown }) }),
			),
		)
		const lines = all(doc, 'path[ecmeta_ssr_type="chart"]:not([ecmeta_data_index])')
		expect(lines).toHaveLength(4)
		expect(lines[3]?.getAttribute('stroke-dasharray')).toBeTruthy()
		expect(lines[0]?.getAttribute('stroke-dasharray')).toBeNull()
		// Smoothed: curves, not straight segments.
		expect(lines[0]?.getAttribute('d')).toContain('C')
		const straight = parse(await renderChartSvg(input({ type: 'line', figures: figures({ series: breakdown }) })))
		expect(all(straight, 'path[ecmeta_ssr_type="chart"]:not([ecmeta_data_index])')[0]?.getAttribute('d')).not.toContain(
			'C',
		)
	})

	test('areas: filled, stacked when asked', async () => {
		const built = option(
			input({ type: 'area', display: display({ stacking: 'stacked' }), figures: figures({ series: breakdown }) }),
		)
		const drawn = built.option.series as Array<{ type: string; stack?: string; areaStyle?: unknown }>
		expect(drawn.every((s) => s.type === 'line' && s.areaStyle)).toBe(true)
		expect(drawn[0]?.stack).toBe('main')
		const doc = parse(await renderChartSvg(input({ type: 'area', figures: figures({ series: breakdown }) })))
		expect(seriesIndexes(doc).size).toBe(4)
	})

	test('pie: slices are the x groups of the first series, or with a breakdown each series total', async () => {
		expect(pieSlices(figures())).toEqual([
			{ name: 'Jan 2026', value: 3, isOther: false },
			{ name: 'Feb 2026', value: 5, isOther: false },
			{ name: 'Mar 2026', value: 2, isOther: false },
		])
		expect(pieSlices(figures({ series: breakdown }))).toEqual([
			{ name: 'Alpha', value: 5500.5, isOther: false },
			{ name: 'Beta', value: 3800, isOther: false },
			{ name: 'Other', value: 600, isOther: true },
		])
		const doc = parse(await renderChartSvg(input({ type: 'pie', figures: figures({ series: breakdown }) })))
		const slices = dataPoints(doc)
		expect(slices).toHaveLength(3)
		expect(slices[2]?.getAttribute('fill')).toBe('#9b9a97')
		expect(slices[0]?.getAttribute('ecmeta_tip')).toBe('Alpha: 5,500.5 (55.56%)')
		// A legend item per slice, told apart by data index.
		expect(all(doc, '[ecmeta_ssr_type="legend"]').map((n) => n.getAttribute('ecmeta_data_index'))).toEqual(
			expect.arrayContaining(['0', '1', '2']),
		)
	})

	test('donut: a ring', () => {
		const disc = option(input({ type: 'pie' }))
		const ring = option(input({ type: 'pie', display: display({ donut: true }) }))
		const radius = (built: BuiltOption) => (built.option.series as Array<{ radius: number[] }>)[0]?.radius ?? []
		expect(radius(disc)[0]).toBe(0)
		expect(radius(ring)[0]).toBeGreaterThan(0)
		expect(radius(ring)[1]).toBe(radius(disc)[1])
	})

	test('scatter: a series per group, a tooltip per point', async () => {
		const points = [
			{ x: 1, y: 2, group: 'A', label: 'Row 1' },
			{ x: 3, y: 5, group: 'B', label: 'Row 2' },
			{ x: 2, y: 3.5, group: 'A', label: '<Row 3>' },
		]
		const doc = parse(
			await renderChartSvg(
				input({
					type: 'scatter',
					display: display({ xAxisTitle: 'Hours', yAxisTitle: 'Cost' }),
					figures: figures({ points }),
				}),
			),
		)
		expect(dataPoints(doc, 0)).toHaveLength(2)
		expect(dataPoints(doc, 1)).toHaveLength(1)
		expect(dataPoints(doc, 0)[1]?.getAttribute('ecmeta_tip')).toBe('<Row 3> (A)\nHours: 2 · Cost: 3.5')
		expect(dataPoints(doc, 0)[0]?.getAttribute('fill')).not.toBe(dataPoints(doc, 1)[0]?.getAttribute('fill'))
		expect(texts(doc)).toEqual(expect.arrayContaining(['A', 'B']))
	})

	test('number: the value, the change up in green or down in red, the periods', async () => {
		const kpi = (change: number, previous: number) =>
			figures({
				categories: [],
				series: [],
				kpi: { value: 12345, previous, change, currentLabel: 'This month', previousLabel: 'Last month' },
			})
		const usd = display({ numberFormat: { style: 'currency', currency: 'USD', decimals: null, compact: false } })
		const up = parse(await renderChartSvg(input({ type: 'number', display: usd, figures: kpi(0.2345, 10000) })))
		expect(texts(up)).toEqual(['$12,345', 'This month', '▲ +23.5%', 'vs last month: $10,000'])
		expect(all(up, 'text')[2]?.getAttribute('fill')).toBe('#448361')
		const down = parse(
			await renderChartSvg(input({ type: 'number', display: usd, theme: 'dark', figures: kpi(-0.1, 13717) })),
		)
		expect(texts(down)[2]).toBe('▼ -10%')
		expect(all(down, 'text')[2]?.getAttribute('fill')).toBe('#df5452')
		const alone = figures({
			categories: [],
			series: [],
			kpi: { value: null, previous: null, change: null, currentLabel: 'All time', previousLabel: null },
		})
		expect(texts(parse(await renderChartSvg(input({ type: 'number', figures: alone }))))).toEqual(['–', 'All time'])
		// From nothing to something: no percentage, the direction "from 0", in the series' format.
		const fromZero = figures({
			categories: [],
			series: [series('s1', 'Sum of Amount', [1500], { format: usd.numberFormat })],
			kpi: { value: 1500, previous: 0, change: null, currentLabel: 'This month', previousLabel: 'Last month' },
		})
		const rose = parse(await renderChartSvg(input({ type: 'number', figures: fromZero })))
		expect(texts(rose)).toEqual(['$1,500', 'This month', '▲ up from $0', 'vs last month: $0'])
		expect(all(rose, 'text')[2]?.getAttribute('fill')).toBe('#448361')
	})

	test('nothing is drawn for a table or for figures with problems', async () => {
		expect(await renderChartSvg(input({ type: 'table' }))).toBe('')
		const broken = figures({ problems: [{ field: 'x.property', message: 'The property was removed.' }] })
		expect(await renderChartSvg(input({ figures: broken }))).toBe('')
	})

	test('empty figures say so', async () => {
		const doc = parse(await renderChartSvg(input({ figures: figures({ categories: [], series: [] }) })))
		expect(texts(doc)).toEqual(['No data'])
	})

	test('title, legend places and themes', async () => {
		const withTitle = parse(await renderChartSvg(input({ display: display({ title: 'Signups' }) })))
		expect(texts(withTitle)).toContain('Signups')
		const forced = parse(await renderChartSvg(input({ display: display({ legend: 'bottom' }) })))
		expect(all(forced, '[ecmeta_ssr_type="legend"]').length).toBeGreaterThan(0)
		const none = option(input({ figures: figures({ series: breakdown }), display: display({ legend: 'none' }) }))
		expect(none.option.legend).toEqual({ show: false })

		const light = parse(await renderChartSvg(input({ transparent: true })))
		expect(all(light, 'rect')[0]?.getAttribute('fill')).toBe('none')
		expect(all(light, 'text')[0]?.getAttribute('fill')).toBe('rgb(55,53,47)')
		const dark = parse(await renderChartSvg(input({ theme: 'dark', transparent: false })))
		expect(all(dark, 'rect')[0]?.getAttribute('fill')).toBe('#191919')
		expect(all(dark, 'text')[0]?.getAttribute('fill')).toBe('rgb(255,255,255)')
		expect(all(dark, 'text')[0]?.getAttribute('fill-opacity')).toBe('0.46')
	})

	test('the height is the display height unless given', async () => {
		const doc = parse(await renderChartSvg(input({ display: display({ height: 240 }), width: 500 })))
		expect(doc.documentElement.getAttribute('viewBox')).toBe('0 0 500 240')
		const given = parse(await renderChartSvg(input({ height: 300 })))
		expect(given.documentElement.getAttribute('viewBox')).toBe('0 0 640 300')
	})

	test('palettes', () => {
		const colorsOf = (built: BuiltOption) =>
			(built.option.series as Array<{ itemStyle: { color: string } }>).map((s) => s.itemStyle.color)
		const notion = colorsOf(option(input({ figures: figures({ series: breakdown }) })))
		const vivid = colorsOf(
			option(input({ figures: figures({ series: breakdown }), display: display({ palette: 'vivid' }) })),
		)
		expect(notion[0]).toBe('#337ea9')
		expect(vivid[0]).not.toBe(notion[0])
		expect(notion[2]).toBe('#9b9a97')
	})
})

describe('renderChartPng', () => {
	const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

	test('a valid PNG at the asked scale', async () => {
		const png = renderChartPng(await renderChartSvg(input({ width: 300, height: 200 })), { scale: 2 })
		expect([...png.subarray(0, 8)]).toEqual(signature)
		// IHDR: width and height, big-endian, at bytes 16 and 20.
		const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
		expect(view.getUint32(16)).toBe(600)
		expect(view.getUint32(20)).toBe(400)
	})

	test('text is drawn: the bundled font works on any machine', async () => {
		// The same KPI with and without its labels: only text differs, so without a font the two
		// PNGs would be the same bytes.
		const kpi = (label: string) =>
			figures({
				categories: [],
				series: [],
				kpi: { value: null, previous: null, change: null, currentLabel: label, previousLabel: null },
			})
		const blank = renderChartPng(await renderChartSvg(input({ type: 'number', figures: kpi('') })), { scale: 1 })
		const worded = renderChartPng(
			await renderChartSvg(input({ type: 'number', figures: kpi('A long label of the period shown here') })),
			{ scale: 1 },
		)
		expect(Buffer.from(worded).equals(Buffer.from(blank))).toBe(false)
		expect(worded.byteLength).toBeGreaterThan(blank.byteLength + 500)
	})

	test('a background fills the transparent drawing', async () => {
		const svg = await renderChartSvg(input({ width: 200, height: 150 }))
		const clear = renderChartPng(svg, { scale: 1 })
		const filled = renderChartPng(svg, { scale: 1, background: '#191919' })
		expect(Buffer.from(clear).equals(Buffer.from(filled))).toBe(false)
	})
})
