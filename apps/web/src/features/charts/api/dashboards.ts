import {
	type ChartRender,
	type CreateDashboard,
	chartRenderSchema,
	type Dashboard,
	dashboardSchema,
	type UpdateDashboard,
} from '@blocksmith/contracts/charts.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { api } from '#src/lib/api-client.ts'

// Dashboards hold charts of either tool, so their API names none (`/dashboard/charts/dashboards`);
// each tile's chart is still drawn through its own tool's saved-chart endpoint.

const encode = encodeURIComponent
const base = '/dashboard/charts/dashboards'

export type TileRenderParams = {
	tool: WorkspaceTool
	chartId: string
	width: number
	/** The tile's room for the drawing: a chart is drawn at the tile's size, not scaled into it. */
	height: number
	theme: 'light' | 'dark'
}

export const dashboardKeys = {
	all: ['dashboards'] as const,
	list: ['dashboards', 'list'] as const,
	detail: (id: string) => ['dashboards', 'detail', id] as const,
	// Under the charts' key: a chart saved in the builder invalidates `chartKeys.all`, and with it its tiles.
	render: (params: TileRenderParams) => ['charts', 'render', params] as const,
}

/** The dashboards' routes. The public page is the server's: link to it with a plain <a>. */
export const dashboardPaths = {
	list: '/charts?view=dashboards',
	edit: (id: string) => `/charts/dashboards/${encode(id)}/edit`,
	public: (id: string) => `/charts/dashboards/${encode(id)}`,
}

export function publicDashboardUrl(id: string): string {
	return `${window.location.origin}${dashboardPaths.public(id)}`
}

/** The address to embed: it follows the viewer's light or dark appearance (Notion's too). */
export function embedDashboardUrl(id: string): string {
	return `${publicDashboardUrl(id)}?theme=auto`
}

export const dashboardsQuery = queryOptions({
	queryKey: dashboardKeys.list,
	queryFn: ({ signal }): Promise<Dashboard[]> => api(base, { schema: z.array(dashboardSchema), signal }),
})

export function dashboardQuery(id: string) {
	return queryOptions({
		queryKey: dashboardKeys.detail(id),
		queryFn: ({ signal }): Promise<Dashboard> => api(`${base}/${encode(id)}`, { schema: dashboardSchema, signal }),
	})
}

/**
 * A tile's chart as saved, drawn at the tile's width. The previous drawing stays while a resized
 * tile is redrawn, so a tile never blinks to empty.
 */
export function tileRenderQuery(params: TileRenderParams) {
	return queryOptions({
		queryKey: dashboardKeys.render(params),
		queryFn: ({ signal }): Promise<ChartRender> => {
			const search = new URLSearchParams({
				width: String(params.width),
				height: String(params.height),
				theme: params.theme,
			})
			return api(`/dashboard/${params.tool}_charts/charts/${encode(params.chartId)}/render?${search}`, {
				schema: chartRenderSchema,
				signal,
			})
		},
		placeholderData: keepPreviousData,
		staleTime: 30_000,
	})
}

export async function createDashboard(input: CreateDashboard): Promise<Dashboard> {
	return api(base, { json: input, schema: dashboardSchema })
}

export async function updateDashboard(input: { id: string; changes: UpdateDashboard }): Promise<Dashboard> {
	return api(`${base}/${encode(input.id)}`, { method: 'PATCH', json: input.changes, schema: dashboardSchema })
}

export async function deleteDashboard(id: string): Promise<void> {
	await api(`${base}/${encode(id)}`, { method: 'DELETE' })
}
