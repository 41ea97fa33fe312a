import type { PortalChart } from '@blocksmith/contracts/portals.ts'
import { chartsOfOrganization, scopedPublicChart } from '#src/features/charts/charts.public.ts'
import { AppError } from '#src/lib/errors.ts'
import type { PortalReader } from './portals.reader.ts'

// Published charts inside the portal (issue 18 item 5): each chart is tied to a page of the
// portal on its database, and drawn over only the rows that page's rule grants the member — the
// same SQL condition as the page's rows, so a chart never counts a row the page would not show.

/** The charts the member can open: published, and their page still served to them. */
export async function portalCharts(reader: PortalReader): Promise<{ id: string; title: string }[]> {
	const entries = reader.portal.charts.filter((entry) => reader.pages.has(entry.pageId))
	const found = await chartsOfOrganization(
		reader.deps.db,
		reader.portal.organizationId,
		entries.map((entry) => entry.chartId),
	)
	const byId = new Map(found.map((chart) => [chart.id, chart]))
	return entries.flatMap((entry) => {
		const chart = byId.get(entry.chartId)
		const page = reader.pages.get(entry.pageId)
		return chart?.published && page && chart.databaseId === page.page.databaseId
			? [{ id: chart.id, title: chart.name }]
			: []
	})
}

export async function portalChart(
	reader: PortalReader,
	chartId: string,
	query: { theme?: 'light' | 'dark' | undefined; width?: number | undefined },
): Promise<PortalChart> {
	const entry = reader.portal.charts.find((candidate) => candidate.chartId === chartId)
	const page = entry ? reader.pages.get(entry.pageId) : undefined
	if (!entry || !page) {
		throw new AppError('NOT_FOUND', { detail: 'There is no such chart in this portal.' })
	}
	const chart = await scopedPublicChart(reader.deps.charts, reader.portal.organizationId, chartId, page.granted, query)
	return {
		id: chart.id,
		name: chart.name,
		svg: chart.svg,
		rowCount: chart.figures.rowCount,
		dataUpdatedAt: chart.dataUpdatedAt,
	}
}
