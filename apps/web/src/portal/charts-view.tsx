import type { PortalChart } from '@blocksmith/contracts/portals.ts'
import { usePortal, useResource } from './portal-context.tsx'
import { cardClasses } from './ui.tsx'

// Published charts on the member's home (issue 18 item 5), each drawn by the server over only
// the rows its page grants them. The drawing is shown as an image: an SVG in an <img> runs no
// script and reaches nothing of the page, whatever its labels hold.

function ChartCard({ id, title }: { id: string; title: string }) {
	const { call } = usePortal()
	const theme = document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light'
	const chart = useResource(`chart:${id}:${theme}`, (signal) =>
		call<PortalChart>(`/charts/${encodeURIComponent(id)}?theme=${theme}&width=640`, { signal }),
	)
	return (
		<figure className={`${cardClasses} space-y-2 p-4`}>
			<figcaption className="font-medium">{title}</figcaption>
			{chart.status === 'ready' ? (
				<img
					src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(chart.data.svg)}`}
					alt={`Chart: ${chart.data.name}, over ${chart.data.rowCount} of your rows`}
					className="h-auto w-full"
				/>
			) : chart.status === 'error' ? (
				<p className="text-sm text-muted-foreground">This chart could not be loaded. {chart.error.message}</p>
			) : (
				<div aria-busy="true" className="aspect-[16/9] w-full animate-pulse rounded bg-muted" />
			)}
		</figure>
	)
}

export function ChartsSection({ charts }: { charts: { id: string; title: string }[] }) {
	if (charts.length === 0) {
		return null
	}
	return (
		<section aria-labelledby="portal-charts" className="space-y-3">
			<h2 id="portal-charts" className="text-lg font-semibold">
				Charts
			</h2>
			<div className="grid gap-4 lg:grid-cols-2">
				{charts.map((chart) => (
					<ChartCard key={chart.id} id={chart.id} title={chart.title} />
				))}
			</div>
		</section>
	)
}
