import { formatChartNumber, formatUpdatedAgo } from '@blocksmith/contracts/chart-format.ts'
import type { ChartFigures, PublicChart } from '@blocksmith/contracts/charts.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import type { PageRender } from '#src/lib/page-render.ts'
import { fontFamily, themeColors } from './charts.render-theme.ts'

// The public chart page (/charts/{id}), what Notion's /embed block shows in its iframe. The chart
// is in the HTML as drawn by the server, so it shows before any script runs, with scripts off,
// and to link previews; the page's small script (apps/web/src/features/charts/public/) adds
// tooltips, legend toggles, light/dark switching and refreshes. No inline script: the data the
// script reads is a JSON block (web.ts), and the styles are inline, which the CSP allows.

type ChartPageTheme = 'auto' | 'light' | 'dark'

export type ChartPageInput = {
	chart: PublicChart | null
	error?: { status: number; code: string; detail?: string }
	pageUrl: string
	imageUrl: string
	theme: ChartPageTheme
	transparent: boolean
	/** With theme `auto`: the dark drawing, shown instead of `chart.svg` (the light one) when the viewer's appearance is dark. */
	darkSvg?: string | null
	/** The chart's tool, for its API paths; read from `imageUrl` when not given. */
	tool?: WorkspaceTool
	/** For "Updated 5 min ago"; now by default. */
	now?: Date
}

/** What the embed's script reads from the page's JSON block. */
type ChartPageData = {
	id: string
	name: string
	type: PublicChart['type']
	/** `/api/{tool}_charts/charts/{id}`: the chart's figures and drawing, refreshed. */
	apiPath: string
	theme: ChartPageTheme
	transparent: boolean
	refreshSeconds: number | null
	/** The width the drawing was made for: the script redraws when its frame is much wider or narrower. */
	width: number | null
	numberFormat: PublicChart['display']['numberFormat']
	xAxisTitle: string | null
	updatedAt: string
}

export function escapeText(value: string): string {
	return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

export function escapeAttribute(value: string): string {
	return escapeText(value).replaceAll('"', '&quot;').replaceAll("'", '&#39;')
}

/**
 * ECharts names its CSS classes and clip paths by instance (`zr3-cls-1`, `zr3-c0`). Two drawings
 * in one page (light and dark) may come from instances with the same number, and an SVG's
 * `<style>` and ids are the whole page's: each drawing gets a prefix of its own.
 */
export function scopeSvgIds(svg: string, prefix: string): string {
	return svg.replace(/\bzr\d+-(?=c\d|cls-\d)/g, `${prefix}-`)
}

/** The width in the drawing's viewBox. */
function svgWidth(svg: string): number | null {
	const match = svg.match(/viewBox="0 0 ([\d.]+) [\d.]+"/)
	return match ? Number(match[1]) : null
}

function toolOf(input: ChartPageInput): WorkspaceTool {
	if (input.tool) {
		return input.tool
	}
	return /\/api\/notion_charts\//.test(input.imageUrl) ? 'notion' : 'local'
}

// ---- head -----------------------------------------------------------------------------------

function colorScheme(theme: ChartPageTheme): string {
	return theme === 'auto' ? 'light dark' : theme
}

/** Head tags every chart or dashboard page has: colour scheme, no indexing, icon, styles. */
export function commonHead(theme: ChartPageTheme): string[] {
	return [
		`<meta name="color-scheme" content="${colorScheme(theme)}" />`,
		// A chart's figures come from someone's database: shared by link, not for search engines.
		'<meta name="robots" content="noindex" />',
		'<link rel="icon" type="image/svg+xml" href="/favicon.svg" />',
		`<style>${pageCss}</style>`,
	]
}

function headOf(input: ChartPageInput): string {
	const { chart } = input
	const common = commonHead(input.theme)
	if (!chart) {
		return ['<title>Chart not available</title>', ...common].join('')
	}
	const title = chart.display.title || chart.name
	const description = `${chart.name}: a live chart of ${chart.figures.rowCount} ${chart.figures.rowCount === 1 ? 'row' : 'rows'}, updated ${new Date(updatedAtOf(chart)).toUTCString()}.`
	const image = escapeAttribute(input.imageUrl)
	return [
		`<title>${escapeText(title)}</title>`,
		`<meta name="description" content="${escapeAttribute(description)}" />`,
		`<meta property="og:title" content="${escapeAttribute(title)}" />`,
		`<meta property="og:description" content="${escapeAttribute(description)}" />`,
		'<meta property="og:type" content="website" />',
		`<meta property="og:url" content="${escapeAttribute(input.pageUrl)}" />`,
		`<meta property="og:image" content="${image}" />`,
		'<meta name="twitter:card" content="summary_large_image" />',
		`<meta name="twitter:title" content="${escapeAttribute(title)}" />`,
		`<meta name="twitter:image" content="${image}" />`,
		...common,
	].join('')
}

function updatedAtOf(chart: PublicChart): string {
	return chart.dataUpdatedAt ?? chart.figures.computedAt
}

// ---- body -----------------------------------------------------------------------------------

function problemsOf(figures: ChartFigures): string {
	const items = figures.problems.map((problem) => `<li>${escapeText(problem.message)}</li>`).join('')
	return `<div class="bs-chart-problems" role="alert"><p>This chart cannot be shown right now.</p><ul>${items}</ul></div>`
}

/** The figures as a table: groups down, series across, values in the chart's number format. */
function figuresTable(chart: Pick<PublicChart, 'figures' | 'display'>): string {
	const { figures, display } = chart
	if (figures.categories.length === 0 || figures.series.length === 0) {
		return '<p class="bs-chart-empty">No data</p>'
	}
	const head = [display.xAxisTitle || '', ...figures.series.map((series) => series.name)]
		.map((label, index) => `<th scope="col"${index > 0 ? ' class="bs-num"' : ''}>${escapeText(label)}</th>`)
		.join('')
	const rows = figures.categories
		.map((category, row) => {
			const cells = figures.series
				.map(
					(series) =>
						`<td class="bs-num">${escapeText(formatChartNumber(series.values[row], series.format ?? display.numberFormat))}</td>`,
				)
				.join('')
			return `<tr><th scope="row">${escapeText(category.label)}</th>${cells}</tr>`
		})
		.join('')
	return `<div class="bs-chart-table"><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`
}

/** The chart as the page shows it: its drawing (both, for auto), its table, or its problems. `prefix` keeps several drawings' ids apart. */
export function drawingOf(input: Pick<ChartPageInput, 'theme' | 'darkSvg'>, chart: PublicChart, prefix = ''): string {
	if (chart.figures.problems.length > 0) {
		return problemsOf(chart.figures)
	}
	if (chart.type === 'table') {
		return figuresTable(chart)
	}
	if (!chart.svg) {
		return '<p class="bs-chart-empty">No data</p>'
	}
	const label = escapeAttribute(chart.display.title || chart.name)
	const figure = (svg: string, variant: 'light' | 'dark' | 'only') =>
		`<div class="bs-chart-svg" data-variant="${variant}" role="img" aria-label="${label}">${scopeSvgIds(svg, `${prefix}bs${variant[0]}`)}</div>`
	if (input.theme === 'auto' && input.darkSvg) {
		return figure(chart.svg, 'light') + figure(input.darkSvg, 'dark')
	}
	return figure(chart.svg, 'only')
}

function footerOf(chart: PublicChart, apiPath: string, now: Date): string {
	const updatedAt = updatedAtOf(chart)
	const absolute = new Date(updatedAt).toISOString().replace('T', ' ').slice(0, 16)
	const parts = [
		`<span>Updated <time datetime="${escapeAttribute(updatedAt)}" title="${escapeAttribute(`${absolute} UTC`)}">${escapeText(formatUpdatedAgo(updatedAt, now))}</time></span>`,
	]
	if (chart.figures.isTruncated) {
		parts.push('<span>Not every group is shown</span>')
	}
	if (chart.embed.allowDownloads) {
		const link = (file: string, label: string) =>
			`<a href="${escapeAttribute(`${apiPath}/${file}`)}" download target="_blank" rel="noopener">${label}</a>`
		const links = [
			chart.type === 'table' ? '' : link('image.png', 'PNG'),
			chart.type === 'table' ? '' : link('image.svg', 'SVG'),
			link('figures.csv', 'CSV'),
		]
		parts.push(`<span class="bs-chart-downloads">${links.filter(Boolean).join('')}</span>`)
	}
	return `<footer class="bs-chart-meta">${parts.join('<span aria-hidden="true">·</span>')}</footer>`
}

function classesOf(input: ChartPageInput): string {
	return `bs-chart bs-theme-${input.theme}${input.transparent ? '' : ' bs-opaque'}`
}

/** The public chart page: its head, the chart drawn into the body, and the data its script reads. */
export function renderChartPage(input: ChartPageInput): PageRender {
	const { chart } = input
	if (!chart) {
		const status = input.error?.status ?? 404
		return {
			status,
			head: headOf(input),
			data: { error: input.error ?? { status, code: 'NOT_FOUND' } },
			body: `<main class="${classesOf(input)} bs-chart-unavailable"><p class="bs-chart-unavailable-title">This chart is not available</p><p>It may have been unpublished or deleted by its owner.</p></main>`,
		}
	}
	const apiPath = `/api/${toolOf(input)}_charts/charts/${encodeURIComponent(chart.id)}`
	const data: ChartPageData = {
		id: chart.id,
		name: chart.name,
		type: chart.type,
		apiPath,
		theme: input.theme,
		transparent: input.transparent,
		refreshSeconds: chart.embed.refreshSeconds,
		width: chart.svg ? svgWidth(chart.svg) : null,
		numberFormat: chart.display.numberFormat,
		xAxisTitle: chart.display.xAxisTitle,
		updatedAt: updatedAtOf(chart),
	}
	// The drawing has the display title in it; a heading is only needed for a table, or to name
	// a chart that has no title of its own when the embed asks for one.
	const hasDrawnTitle = Boolean(chart.display.title) && chart.type !== 'table' && chart.svg !== ''
	const heading =
		chart.embed.showTitle && !hasDrawnTitle
			? `<h1 class="bs-chart-title">${escapeText(chart.display.title || chart.name)}</h1>`
			: ''
	const body = `<main class="${classesOf(input)}" data-type="${chart.type}">${heading}<div class="bs-chart-body">${drawingOf(input, chart)}</div>${footerOf(chart, apiPath, input.now ?? new Date())}</main>`
	return { status: 200, head: headOf(input), data: { chart: data }, body }
}

// ---- styles ---------------------------------------------------------------------------------

const light = themeColors.light
const dark = themeColors.dark

/** The page's colours for one appearance, as custom properties. */
function palette(colors: typeof light, tooltip: string, shadow: string): string {
	return `--bs-text:${colors.text};--bs-muted:${colors.muted};--bs-line:${colors.grid};--bs-bg:${colors.background};--bs-tip:${tooltip};--bs-shadow:${shadow};--bs-up:${colors.up};--bs-down:${colors.down}`
}

const lightVars = palette(
	light,
	'#ffffff',
	'rgba(15,15,15,0.05) 0 0 0 1px,rgba(15,15,15,0.1) 0 3px 6px,rgba(15,15,15,0.2) 0 9px 24px',
)
const darkVars = palette(
	dark,
	'#252525',
	'rgba(15,15,15,0.1) 0 0 0 1px,rgba(15,15,15,0.2) 0 3px 6px,rgba(15,15,15,0.4) 0 9px 24px',
)

/**
 * Notion-like: its font and colours, a transparent page so the chart sits on Notion's own
 * background in either appearance, small muted meta text. With theme auto, the drawing and the
 * colours follow `prefers-color-scheme`, which in an iframe is the embedding page's scheme.
 */
const pageCss = [
	`html,body{margin:0;padding:0;background:transparent}`,
	`body{font-family:${fontFamily};font-size:14px;line-height:1.5;-webkit-font-smoothing:antialiased}`,
	`.bs-chart{${lightVars};color:var(--bs-text);box-sizing:border-box;padding:4px 2px;min-height:100vh;display:flex;flex-direction:column}`,
	`.bs-theme-dark{${darkVars}}`,
	`[data-variant="dark"]{display:none}`,
	`@media (prefers-color-scheme:dark){.bs-theme-auto{${darkVars}}.bs-theme-auto [data-variant="light"]{display:none}.bs-theme-auto [data-variant="dark"]{display:block}}`,
	`.bs-opaque{background:var(--bs-bg)}`,
	`.bs-chart-title{font-size:14px;font-weight:600;margin:0 0 8px}`,
	`.bs-chart-body{flex:1;position:relative}`,
	`.bs-chart-svg svg{display:block;width:100%;height:auto}`,
	`.bs-chart-svg [ecmeta_tip]:focus{outline:2px solid #2383e2;outline-offset:1px}`,
	`.bs-chart-svg [data-hidden]{display:none}`,
	`.bs-chart-svg [data-off]{opacity:.35}`,
	`.bs-chart-svg [ecmeta_ssr_type="legend"]{cursor:pointer}`,
	`.bs-chart-table{overflow:auto}`,
	`.bs-chart-table table{border-collapse:collapse;width:100%;font-size:14px}`,
	`.bs-chart-table th,.bs-chart-table td{padding:6px 8px;border-bottom:1px solid var(--bs-line);text-align:left;font-weight:400}`,
	`.bs-chart-table thead th{color:var(--bs-muted);font-size:12px}`,
	`.bs-chart-table .bs-num{text-align:right;font-variant-numeric:tabular-nums}`,
	`.bs-chart-problems,.bs-chart-empty{color:var(--bs-muted);padding:24px 8px;margin:0}`,
	`.bs-chart-problems p{margin:0 0 4px;color:var(--bs-text)}`,
	`.bs-chart-problems ul{margin:0;padding-left:20px}`,
	`.bs-chart-meta{display:flex;flex-wrap:wrap;gap:6px;align-items:center;font-size:12px;color:var(--bs-muted);margin-top:4px}`,
	`.bs-chart-downloads{display:inline-flex;gap:8px}`,
	`.bs-chart-meta a{color:inherit;text-decoration:underline;text-decoration-color:var(--bs-line);text-underline-offset:2px}`,
	`.bs-chart-meta a:hover{color:var(--bs-text)}`,
	`.bs-chart-unavailable{align-items:center;justify-content:center;text-align:center;color:var(--bs-muted)}`,
	`.bs-chart-unavailable p{margin:0}`,
	`.bs-chart-unavailable-title{color:var(--bs-text);font-weight:600}`,
	`.bs-dashboard-grid{display:grid;grid-template-columns:repeat(12,minmax(0,1fr));grid-auto-rows:40px;gap:0 12px}`,
	`.bs-tile{min-width:0;overflow:hidden;display:flex;flex-direction:column;padding-bottom:8px}`,
	`.bs-tile h2{font-size:13px;font-weight:600;margin:0 0 4px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}`,
	`.bs-tile .bs-chart-body{min-height:0;overflow:hidden}`,
	`.bs-tile .bs-chart-svg svg{height:100%;max-height:100%}`,
	`.bs-dashboard-description{color:var(--bs-muted);margin:-4px 0 12px}`,
	`@media (max-width:640px){.bs-dashboard-grid{grid-template-columns:1fr}.bs-tile{grid-column:1/-1!important;grid-row:auto/span var(--bs-rows)!important}}`,
	`.bs-tip{position:fixed;z-index:10;pointer-events:none;max-width:260px;padding:6px 8px;border-radius:6px;background:var(--bs-tip);color:var(--bs-text);box-shadow:var(--bs-shadow);font-size:12px;white-space:pre-line}`,
].join('')
