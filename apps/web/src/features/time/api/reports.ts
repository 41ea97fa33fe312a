import {
	type CreateTimeShare,
	type CreateTimeView,
	type SharedTimeReport,
	sharedTimeReportSchema,
	type TimeAnalytics,
	type TimeGroup,
	type TimeRates,
	type TimeRatesInput,
	type TimeSeries,
	type TimeShare,
	type TimeView,
	timeAnalyticsSchema,
	timeRatesSchema,
	timeSeriesSchema,
	timeShareSchema,
	timeViewSchema,
	type UnbilledTime,
	type UpdateTimeView,
	unbilledTimeSchema,
} from '@blocksmith/contracts/time-reports.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { ApiError, api } from '#src/lib/api-client.ts'
import { readToken } from '#src/lib/token-store.ts'
import { timeTools } from './time.ts'
import { timeBase } from './timesheet.ts'

// Time reports' API: saved views under their database's tool, their analytics and series,
// rates, exports, shared links and unbilled time; and the public shared report. A view does not
// say its tool on the wire, so each one read is tagged with the tool that answered.

export type ToolView = TimeView & { tool: WorkspaceTool }
export type SeriesInterval = 'day' | 'week' | 'month'
export type ExportFormat = 'csv' | 'xlsx' | 'pdf'
export type ExportDetail = 'entries' | 'summary'

const seriesPaths = { day: 'daily_time_series', week: 'weekly_time_series', month: 'monthly_time_series' } as const

export const reportKeys = {
	all: ['time-reports'] as const,
	views: ['time-reports', 'views'] as const,
	view: (id: string) => ['time-reports', 'view', id] as const,
	/** Everything computed from a view's settings: read again after each save of them. */
	figures: (id: string) => ['time-reports', 'figures', id] as const,
	analytics: (id: string, version: string) => ['time-reports', 'figures', id, 'analytics', version] as const,
	series: (id: string, version: string, interval: SeriesInterval, breakdown: TimeGroup | undefined) =>
		['time-reports', 'figures', id, 'series', version, interval, breakdown] as const,
	unbilled: (id: string, groupBy: 'project' | 'task') => ['time-reports', 'figures', id, 'unbilled', groupBy] as const,
	rates: (tool: WorkspaceTool, databaseId: string) => ['time-reports', 'rates', tool, databaseId] as const,
	shares: (id: string) => ['time-reports', 'shares', id] as const,
}

const encode = encodeURIComponent
const viewPath = (view: Pick<ToolView, 'id' | 'tool'>) => `${timeBase(view.tool)}/views/${encode(view.id)}`

/** The first answer of several tools that is not a 404, for an object only one of them holds. */
async function firstFound<T>(asked: Promise<T>[]): Promise<T> {
	const answers = await Promise.allSettled(asked)
	const found = answers.find((answer) => answer.status === 'fulfilled')
	if (found) {
		return found.value
	}
	const reasons = answers.map((answer) => (answer as PromiseRejectedResult).reason as unknown)
	throw reasons.find((reason) => !(reason instanceof ApiError && reason.status === 404)) ?? reasons[0]
}

// ---- views ---------------------------------------------------------------------------------

export const viewsQuery = queryOptions({
	queryKey: reportKeys.views,
	queryFn: async ({ signal }): Promise<ToolView[]> => {
		const lists = await Promise.all(
			timeTools.map(async (tool) => {
				const views = await api(`${timeBase(tool)}/views`, { schema: z.array(timeViewSchema), signal })
				return views.map((view) => ({ ...view, tool }))
			}),
		)
		return lists.flat().sort((left, right) => right.updatedAt.localeCompare(left.updatedAt))
	},
})

/** With the tool from the address when the link knew it (`?tool=local`), else both are asked. */
export function viewQuery(id: string, tool?: WorkspaceTool | null) {
	return queryOptions({
		queryKey: reportKeys.view(id),
		queryFn: ({ signal }): Promise<ToolView> =>
			firstFound(
				(tool ? [tool] : timeTools).map(async (each) => ({
					...(await api(`${timeBase(each)}/views/${encode(id)}`, { schema: timeViewSchema, signal })),
					tool: each,
				})),
			),
	})
}

export async function createView(input: { tool: WorkspaceTool; view: CreateTimeView }): Promise<ToolView> {
	const view = await api(`${timeBase(input.tool)}/views`, { json: input.view, schema: timeViewSchema })
	return { ...view, tool: input.tool }
}

export async function updateView(input: { view: Pick<ToolView, 'id' | 'tool'>; changes: UpdateTimeView }) {
	const view = await api(viewPath(input.view), { method: 'PATCH', json: input.changes, schema: timeViewSchema })
	return { ...view, tool: input.view.tool } satisfies ToolView
}

export async function deleteView(view: Pick<ToolView, 'id' | 'tool'>): Promise<void> {
	await api(viewPath(view), { method: 'DELETE' })
}

// ---- figures -------------------------------------------------------------------------------

/** `version` is the saved view's `updatedAt`: figures of older settings are never shown as current. */
export function analyticsQuery(view: ToolView) {
	return queryOptions({
		queryKey: reportKeys.analytics(view.id, view.updatedAt),
		queryFn: ({ signal }): Promise<TimeAnalytics> =>
			api(`${viewPath(view)}/analytics`, { schema: timeAnalyticsSchema, signal }),
		placeholderData: keepPreviousData,
	})
}

export function seriesQuery(view: ToolView, interval: SeriesInterval, breakdown: TimeGroup | undefined) {
	return queryOptions({
		queryKey: reportKeys.series(view.id, view.updatedAt, interval, breakdown),
		queryFn: ({ signal }): Promise<TimeSeries> =>
			api(`${viewPath(view)}/${seriesPaths[interval]}`, { query: { breakdown }, schema: timeSeriesSchema, signal }),
		placeholderData: keepPreviousData,
	})
}

export function unbilledQuery(view: ToolView, groupBy: 'project' | 'task') {
	return queryOptions({
		queryKey: reportKeys.unbilled(view.id, groupBy),
		queryFn: ({ signal }): Promise<UnbilledTime> =>
			api(`${viewPath(view)}/unbilled`, { query: { groupBy }, schema: unbilledTimeSchema, signal }),
	})
}

// ---- rates ---------------------------------------------------------------------------------

export function ratesQuery(tool: WorkspaceTool, databaseId: string) {
	return queryOptions({
		queryKey: reportKeys.rates(tool, databaseId),
		queryFn: ({ signal }): Promise<TimeRates> =>
			api(`${timeBase(tool)}/databases/${encode(databaseId)}/rates`, { schema: timeRatesSchema, signal }),
	})
}

export async function saveRates(input: { tool: WorkspaceTool; databaseId: string; rates: TimeRatesInput }) {
	return api(`${timeBase(input.tool)}/databases/${encode(input.databaseId)}/rates`, {
		method: 'PUT',
		json: input.rates,
		schema: timeRatesSchema,
	})
}

// ---- shares --------------------------------------------------------------------------------

export function sharesQuery(view: ToolView) {
	return queryOptions({
		queryKey: reportKeys.shares(view.id),
		queryFn: ({ signal }): Promise<TimeShare[]> =>
			api(`${viewPath(view)}/shares`, { schema: z.array(timeShareSchema), signal }),
	})
}

export async function createShare(input: { view: ToolView; share: CreateTimeShare }): Promise<TimeShare> {
	return api(`${viewPath(input.view)}/shares`, { json: input.share, schema: timeShareSchema })
}

export async function revokeShare(input: { view: ToolView; shareId: string }): Promise<void> {
	await api(`${viewPath(input.view)}/shares/${encode(input.shareId)}`, { method: 'DELETE' })
}

// ---- downloads -----------------------------------------------------------------------------

/** The export's address; the file itself is fetched with the bearer header (never a token in a URL). */
export function exportPath(view: Pick<ToolView, 'id' | 'tool'>, format: ExportFormat, detail: ExportDetail): string {
	return `${viewPath(view)}/export?format=${format}&detail=${detail}`
}

export function sharedExportPath(token: string, format: 'csv' | 'pdf'): string {
	return `/api/time/reports/${encode(token)}/export?format=${format}`
}

/** Fetches a file (with the session's token when there is one) and saves it through a blob link. */
export async function downloadFile(path: string, fileName: string): Promise<void> {
	const headers = new Headers()
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const response = await fetch(path, { headers })
	if (!response.ok) {
		throw new ApiError({ status: response.status, code: 'EXPORT_FAILED', detail: 'The export failed. Try again.' })
	}
	const url = URL.createObjectURL(await response.blob())
	const link = document.createElement('a')
	link.href = url
	link.download = fileName
	document.body.append(link)
	link.click()
	link.remove()
	setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** A report's name as a file name: what a file system refuses becomes a dash. */
export function exportFileName(name: string, detail: ExportDetail | null, format: string): string {
	const base = name.replace(/[\\/:*?"<>|]+/g, '-').trim() || 'time report'
	return `${base}${detail === 'summary' ? ' summary' : ''}.${format}`
}

// ---- the public shared report --------------------------------------------------------------

/** Signed out: a 404 means the link expired or was revoked. */
export async function fetchSharedReport(token: string, signal?: AbortSignal): Promise<SharedTimeReport> {
	return api(`/api/time/reports/${encode(token)}`, { schema: sharedTimeReportSchema, ...(signal ? { signal } : {}) })
}
