import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { buildChartOption, type RenderInput } from './charts.render-option.ts'

// Charts drawn on the server: ECharts' server-side rendering to SVG (the builder's preview, the
// public page, the SVG download), and that SVG rasterised by resvg for PNGs and link previews.
// Both libraries load on the first drawing, not at start-up (docs/decisions/017-start-up.md):
// ECharts and its charts take a few hundred milliseconds to import, and most starts draw nothing.

export type { RenderInput } from './charts.render-option.ts'

/** What zrender reads metadata from: it calls `each` and writes `ecmeta_<key>="<value>"`. */
type SsrData = { each(visit: (value: string | number, key: string) => void): void }
type Element = { __hostTarget?: Element | null; parent?: Element | null }
type EcData = { seriesIndex?: number; dataIndex?: number; ssrType?: string }

type Echarts = {
	init: typeof import('echarts/core').init
	registerSSRDataGetter: (getter: (el: Element) => SsrData | undefined) => void
	getECData: (el: Element) => EcData
}

let loading: Promise<Echarts> | undefined
const innerStore = 'echarts/lib/util/innerStore.js'

function loadEcharts(): Promise<Echarts> {
	loading ??= (async () => {
		const [core, charts, components, renderers, features, store] = await Promise.all([
			import('echarts/core'),
			import('echarts/charts'),
			import('echarts/components'),
			import('echarts/renderers'),
			import('echarts/features'),
			// Not part of ECharts' API (so typed here): its per-element store of series and data
			// indexes, which its own SSR metadata reads too (see tagElements).
			import(innerStore) as Promise<{ getECData: (el: Element) => EcData }>,
		])
		core.use([
			charts.BarChart,
			charts.LineChart,
			charts.PieChart,
			charts.ScatterChart,
			components.GridComponent,
			components.LegendComponent,
			components.TitleComponent,
			components.GraphicComponent,
			features.LabelLayout,
			renderers.SVGRenderer,
		])
		const zrender = core.zrender as unknown as { registerSSRDataGetter: Echarts['registerSSRDataGetter'] }
		return {
			init: core.init,
			registerSSRDataGetter: zrender.registerSSRDataGetter,
			getECData: store.getECData,
		}
	})()
	return loading
}

function escapeAttribute(value: string): string {
	return value
		.replaceAll('&', '&amp;')
		.replaceAll('"', '&quot;')
		.replaceAll("'", '&#39;')
		.replaceAll('<', '&lt;')
		.replaceAll('>', '&gt;')
		.replaceAll('\n', '&#10;')
}

/**
 * What the embed's script needs on each drawn element, as `ecmeta_*` attributes. ECharts' own
 * (series and data index, `chart` or `legend`) only mark elements with a data index: a line's
 * path, an area and every data label would be left out, and a legend toggle could not hide them.
 * So the series index goes on anything that belongs to a series, labels take their host's
 * indexes as `ssr_type="label"`, and data points carry their tooltip text (`ecmeta_tip`).
 * zrender writes these values into attributes unescaped: the tip is escaped here.
 */
function tagElements(echarts: Echarts, tips: Array<Array<string | undefined>>) {
	return (el: Element): SsrData | undefined => {
		// A label's text is drawn as spans of a text element hosted by the data element; a pie's
		// label line is hosted directly.
		const host = el.__hostTarget ?? el.parent?.__hostTarget ?? null
		const data = echarts.getECData(host ?? el)
		if (data.seriesIndex === undefined || data.seriesIndex === null) {
			return undefined
		}
		const meta = new Map<string, string | number>([['series_index', data.seriesIndex]])
		const hasData = data.dataIndex !== undefined && data.dataIndex !== null
		if (hasData) {
			meta.set('data_index', data.dataIndex as number)
		}
		const type = host ? 'label' : (data.ssrType ?? 'chart')
		meta.set('ssr_type', type)
		const tip = type === 'chart' && hasData ? tips[data.seriesIndex]?.[data.dataIndex as number] : undefined
		if (tip) {
			meta.set('tip', escapeAttribute(tip))
		}
		return { each: (visit) => meta.forEach(visit) }
	}
}

/**
 * The chart as an SVG document (no scripts), or '' when there is nothing to draw: a table (the
 * page shows an HTML table) or figures with problems (the page says what to fix).
 */
export async function renderChartSvg(input: RenderInput): Promise<string> {
	const built = buildChartOption(input)
	if (!built) {
		return ''
	}
	const echarts = await loadEcharts()
	const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: built.width, height: built.height })
	try {
		chart.setOption(built.option)
		// ECharts registered its own metadata getter in init; the drawing is synchronous, so this
		// one is the one in force while this chart is turned into a string.
		echarts.registerSSRDataGetter(tagElements(echarts, built.tips))
		return chart.renderToSVGString()
	} finally {
		chart.dispose()
	}
}

// ---- PNG ----------------------------------------------------------------------------------

type ResvgModule = {
	Resvg: new (
		svg: string,
		options: {
			fitTo?: { mode: 'zoom'; value: number }
			background?: string
			font: {
				fontFiles: string[]
				loadSystemFonts: boolean
				defaultFontFamily: string
				sansSerifFamily: string
			}
		},
	) => { render(): { asPng(): Uint8Array } }
}

let resvg: { module: ResvgModule; fontFiles: string[] } | undefined

/**
 * resvg and the fonts it draws text with. The font is Inter, shipped as TTF files in an npm
 * package, so a PNG has text on any machine (a fresh CI runner, a slim container) and looks the
 * same everywhere; system fonts are not loaded (their set differs per machine, and scanning them
 * costs every drawing). The SVG asks for Notion's system stack, which ends in `sans-serif`: Inter.
 */
function loadResvg() {
	if (!resvg) {
		const require = createRequire(import.meta.url)
		const fontDir = path.dirname(require.resolve('@expo-google-fonts/inter/package.json'))
		const fontFiles = ['400Regular/Inter_400Regular.ttf', '600SemiBold/Inter_600SemiBold.ttf'].map((file) =>
			path.join(fontDir, file),
		)
		for (const file of fontFiles) {
			// Fail loudly at the first PNG rather than draw one without text.
			readFileSync(file, { flag: 'r' }).subarray(0, 4)
		}
		resvg = { module: require('@resvg/resvg-js') as ResvgModule, fontFiles }
	}
	return resvg
}

/** The SVG as a PNG: `scale` 2 for sharp images on dense screens; `background` fills transparency. */
export function renderChartPng(svg: string, options: { scale?: number; background?: string } = {}): Uint8Array {
	const { module, fontFiles } = loadResvg()
	const renderer = new module.Resvg(svg, {
		fitTo: { mode: 'zoom', value: options.scale ?? 2 },
		...(options.background ? { background: options.background } : {}),
		font: { fontFiles, loadSystemFonts: false, defaultFontFamily: 'Inter', sansSerifFamily: 'Inter' },
	})
	return renderer.render().asPng()
}
