import {
	type Chart,
	type ChartConfig,
	type ChartRender,
	type CreateChart,
	chartRenderSchema,
	chartSchema,
	type UpdateChart,
} from '@blocksmith/contracts/charts.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { ApiError, api } from '#src/lib/api-client.ts'
import { readToken } from '#src/lib/token-store.ts'

// The builder's API: charts live under their database's tool (`/dashboard/local_charts/…`,
// `/dashboard/notion_charts/…`); the list asks both and shows them as one.

const tools = ['local', 'notion'] as const satisfies readonly WorkspaceTool[]

export type PreviewParams = {
	tool: WorkspaceTool
	databaseId: string
	config: ChartConfig
	width: number
	theme: 'light' | 'dark'
}

export const chartKeys = {
	all: ['charts'] as const,
	list: ['charts', 'list'] as const,
	detail: (id: string) => ['charts', 'detail', id] as const,
	preview: (params: PreviewParams) => ['charts', 'preview', params] as const,
}

const encode = encodeURIComponent
const base = (tool: WorkspaceTool) => `/dashboard/${tool}_charts`

/** Newest change first, whichever tool the chart's database belongs to. */
function byNewestChange(left: Chart, right: Chart): number {
	return right.updatedAt.localeCompare(left.updatedAt)
}

export const chartsQuery = queryOptions({
	queryKey: chartKeys.list,
	queryFn: async ({ signal }): Promise<Chart[]> => {
		const lists = await Promise.all(
			tools.map((tool) => api(`${base(tool)}/charts`, { schema: z.array(chartSchema), signal })),
		)
		return lists.flat().sort(byNewestChange)
	},
})

/**
 * The builder's address names the chart's tool when the link knew it (`?tool=local`); then only
 * that tool is asked. Otherwise (a typed or old address) both are asked at once, and the other
 * answers 404, as for any chart it does not hold.
 */
export function chartQuery(id: string, tool?: WorkspaceTool | null) {
	return queryOptions({
		queryKey: chartKeys.detail(id),
		queryFn: async ({ signal }): Promise<Chart> => {
			const asked = tool ? [tool] : tools
			const answers = await Promise.allSettled(
				asked.map((each) => api(`${base(each)}/charts/${encode(id)}`, { schema: chartSchema, signal })),
			)
			const found = answers.find((answer) => answer.status === 'fulfilled')
			if (found) {
				return found.value
			}
			// A failure other than "not here" (the server is down) says more than the 404 beside it.
			const reasons = answers.map((answer) => (answer as PromiseRejectedResult).reason as unknown)
			throw reasons.find((reason) => !(reason instanceof ApiError && reason.status === 404)) ?? reasons[0]
		},
	})
}

/**
 * The live preview of settings not saved yet. The previous drawing stays while the next one is
 * computed, so the preview never blinks to empty between two changes.
 */
export function previewQuery(params: PreviewParams) {
	return queryOptions({
		queryKey: chartKeys.preview(params),
		queryFn: ({ signal }): Promise<ChartRender> =>
			api(`${base(params.tool)}/preview`, {
				json: { databaseId: params.databaseId, config: params.config, width: params.width, theme: params.theme },
				schema: chartRenderSchema,
				signal,
			}),
		placeholderData: keepPreviousData,
		staleTime: 30_000,
	})
}

export async function createChart(input: { tool: WorkspaceTool; chart: CreateChart }): Promise<Chart> {
	return api(`${base(input.tool)}/charts`, { json: input.chart, schema: chartSchema })
}

export async function updateChart(input: { chart: Pick<Chart, 'id' | 'tool'>; changes: UpdateChart }): Promise<Chart> {
	return api(`${base(input.chart.tool)}/charts/${encode(input.chart.id)}`, {
		method: 'PATCH',
		json: input.changes,
		schema: chartSchema,
	})
}

export async function deleteChart(chart: Pick<Chart, 'id' | 'tool'>): Promise<void> {
	await api(`${base(chart.tool)}/charts/${encode(chart.id)}`, { method: 'DELETE' })
}

export async function duplicateChart(chart: Pick<Chart, 'id' | 'tool'>): Promise<Chart> {
	return api(`${base(chart.tool)}/charts/${encode(chart.id)}/duplicate`, { json: {}, schema: chartSchema })
}

export type ExportFormat = 'png' | 'svg' | 'csv'

/**
 * A download of the saved chart, fetched with the bearer header (a token never goes into a URL)
 * and saved through a blob link.
 */
export async function downloadChart(input: {
	chart: Pick<Chart, 'id' | 'tool' | 'name'>
	format: ExportFormat
	theme: 'light' | 'dark'
	width: number
}): Promise<void> {
	const headers = new Headers()
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const search = new URLSearchParams({ theme: input.theme, width: String(input.width) })
	const response = await fetch(
		`${base(input.chart.tool)}/charts/${encode(input.chart.id)}/export.${input.format}?${search}`,
		{ headers },
	)
	if (!response.ok) {
		throw new ApiError({ status: response.status, code: 'EXPORT_FAILED', detail: 'The download failed. Try again.' })
	}
	const blob = await response.blob()
	const url = URL.createObjectURL(blob)
	const link = document.createElement('a')
	link.href = url
	link.download = `${input.chart.name.replace(/[\\/:*?"<>|]+/g, '-') || 'chart'}.${input.format}`
	document.body.append(link)
	link.click()
	link.remove()
	setTimeout(() => URL.revokeObjectURL(url), 1000)
}
