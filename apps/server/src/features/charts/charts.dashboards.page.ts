import { formatUpdatedAgo } from '@blocksmith/contracts/chart-format.ts'
import type { PublicDashboard } from '@blocksmith/contracts/charts.ts'
import type { PageRender } from '#src/lib/page-render.ts'
import { tileDrawWidth } from './charts.dashboards.ts'
import { commonHead, drawingOf, escapeAttribute, escapeText } from './charts.page.ts'

// The public dashboard page (/charts/dashboards/{id}): every tile's chart drawn into the HTML on
// the dashboard's 12-column grid (one column on a phone), with the chart page's look and script
// (tooltips and legends work per tile; a tile far narrower than drawn, as on a phone, is redrawn
// at its width). Auto-refresh reloads the page: a tile's chart may not be
// published on its own, so the page, not the chart's API, is what refreshes it.

type Theme = 'auto' | 'light' | 'dark'

export type DashboardPageInput = {
	dashboard: PublicDashboard | null
	/** With theme auto: each tile's dark drawing, by tile index. */
	darkSvgs: (string | null)[]
	theme: Theme
	transparent: boolean
	pageUrl: string
	now?: Date
}

function tileOf(input: DashboardPageInput, tile: PublicDashboard['tiles'][number], index: number): string {
	// --bs-rows keeps the tile's height in the one column of a phone, where its row is not kept.
	const place = `grid-column:${tile.x + 1} / span ${tile.w};grid-row:${tile.y + 1} / span ${tile.h};--bs-rows:${tile.h}`
	if (!tile.chart) {
		return `<section class="bs-tile" style="${place}"><p class="bs-chart-empty">This chart was removed.</p></section>`
	}
	const chart = tile.chart
	const title = input.dashboard?.embed.showTitle ? `<h2>${escapeText(chart.display.title || chart.name)}</h2>` : ''
	const drawing = drawingOf({ theme: input.theme, darkSvg: input.darkSvgs[index] ?? null }, chart, `t${index}`)
	return `<section class="bs-tile" data-tile="${index}" data-type="${chart.type}" style="${place}">${title}<div class="bs-chart-body">${drawing}</div></section>`
}

export function renderDashboardPage(input: DashboardPageInput): PageRender {
	const { dashboard } = input
	const classes = `bs-chart bs-dashboard bs-theme-${input.theme}${input.transparent ? '' : ' bs-opaque'}`
	if (!dashboard) {
		return {
			status: 404,
			head: ['<title>Dashboard not available</title>', ...commonHead(input.theme)].join(''),
			data: { error: { status: 404, code: 'NOT_FOUND' } },
			body: `<main class="${classes} bs-chart-unavailable"><p class="bs-chart-unavailable-title">This dashboard is not available</p><p>It may have been unpublished or deleted by its owner.</p></main>`,
		}
	}
	const refresh = dashboard.embed.refreshSeconds
	const head = [
		`<title>${escapeText(dashboard.name)}</title>`,
		`<meta property="og:title" content="${escapeAttribute(dashboard.name)}" />`,
		`<meta property="og:url" content="${escapeAttribute(input.pageUrl)}" />`,
		// No script needed to stay current, and none runs for it: the page reloads itself.
		...(refresh ? [`<meta http-equiv="refresh" content="${refresh}" />`] : []),
		...commonHead(input.theme),
	].join('')
	const updated = dashboard.tiles
		.flatMap((tile) => (tile.chart ? [tile.chart.dataUpdatedAt ?? tile.chart.figures.computedAt] : []))
		.sort()
		.at(0)
	const heading = dashboard.embed.showTitle ? `<h1 class="bs-chart-title">${escapeText(dashboard.name)}</h1>` : ''
	const description = dashboard.description
		? `<p class="bs-dashboard-description">${escapeText(dashboard.description)}</p>`
		: ''
	const footer = updated
		? `<footer class="bs-chart-meta"><span>Updated <time datetime="${escapeAttribute(updated)}">${escapeText(formatUpdatedAgo(updated, input.now ?? new Date()))}</time></span></footer>`
		: ''
	// In reading order (row by row, left to right), as a screen reader, the tab key and the one
	// column of a phone take them; each keeps its index into the script's data and dark drawings.
	const tiles = dashboard.tiles
		.map((tile, index) => ({ tile, index }))
		.sort((left, right) => left.tile.y - right.tile.y || left.tile.x - right.tile.x)
		.map(({ tile, index }) => tileOf(input, tile, index))
		.join('')
	const body = `<main class="${classes}">${heading}${description}<div class="bs-dashboard-grid">${tiles}</div>${footer}</main>`
	// Each tile's script data: tooltips and legend toggles, nothing refreshed per tile.
	const data = {
		dashboard: {
			tiles: dashboard.tiles.map((tile, index) =>
				tile.chart
					? {
							id: tile.chart.id,
							name: tile.chart.name,
							type: tile.chart.type,
							// Redrawn at the tile's real width when it is far from the drawn one (a phone).
							apiPath: `/api/charts/dashboards/${encodeURIComponent(dashboard.id)}/tiles/${index}`,
							theme: input.theme,
							transparent: input.transparent,
							refreshSeconds: null,
							width: tileDrawWidth(tile),
							numberFormat: tile.chart.display.numberFormat,
							xAxisTitle: tile.chart.display.xAxisTitle,
							updatedAt: tile.chart.dataUpdatedAt ?? tile.chart.figures.computedAt,
						}
					: null,
			),
		},
	}
	return { status: 200, head, data, body }
}
