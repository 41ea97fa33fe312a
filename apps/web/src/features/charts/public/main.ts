import { readPageData, startEmbed } from './chart-embed.ts'

// The entry of chart.html, the public chart page (/charts/{id}) that Notion's /embed block shows.
// The chart is already in the HTML; this only makes it interactive. No React, no ECharts: a few
// kilobytes (budget in bench/web-bundle.bench.ts).

const root = document.querySelector<HTMLElement>('main.bs-chart')
const data = readPageData(document)
if (root && data) {
	startEmbed(root, data)
}
