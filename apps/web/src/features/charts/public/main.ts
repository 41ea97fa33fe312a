import { readDashboardTiles, readPageData, startEmbed } from './chart-embed.ts'

// The entry of chart.html, the public chart page (/charts/{id}) that Notion's /embed block shows.
// The chart is already in the HTML; this only makes it interactive. No React, no ECharts: a few
// kilobytes (budget in bench/web-bundle.bench.ts).

const root = document.querySelector<HTMLElement>('main.bs-chart')
const data = readPageData(document)
if (root && data) {
	startEmbed(root, data)
}
// A dashboard (/charts/dashboards/{id}): each tile's chart gets its tooltips and legend.
for (const [index, tile] of readDashboardTiles(document).entries()) {
	const section = document.querySelector<HTMLElement>(`section.bs-tile[data-tile="${index}"]`)
	if (section && tile) {
		startEmbed(section, tile)
	}
}
