import {
	type ChartPreviewRequest,
	type ChartRender,
	chartConfigSchema,
	chartEmbedSchema,
	type PublicChart,
} from '@blocksmith/contracts/charts.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray, type SQL } from 'drizzle-orm'
import type { PurgeContributor } from '#src/core/deletion/deletion.contributor.ts'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import { figuresCsv } from './charts.csv.ts'
import type { ChartsCtx, ChartsDeps } from './charts.deps.ts'
import { chartFiguresOf, computeChartFigures, dataUpdatedAt, drawChart } from './charts.output.ts'
import { dropProjections } from './charts.projection.ts'
import { renderChartPng } from './charts.render.ts'
import { charts } from './charts.schema.ts'
import { type ChartRecord, configOf, type DatabaseRecord, findDatabase, getChartRecords } from './charts.service.ts'

// What other modules and anonymous visitors get of charts: a published chart's figures and
// drawings (never its rows), and, for members, the builder's preview and downloads.

export const downloadKinds = ['png', 'svg', 'csv'] as const
type DownloadKind = (typeof downloadKinds)[number]
type Theme = 'light' | 'dark'

export type Download = { body: string | Uint8Array; contentType: string; filename: string | null }

const notAvailable = 'This chart is not available. It may have been unpublished or deleted.'

type PublicRecords = { chart: ChartRecord; database: DatabaseRecord | null }

/** A published chart (of this tool, when one is named: the page at /charts/{id} names none), with its database; 404 otherwise. */
export async function findPublicChart(
	deps: ChartsDeps,
	tool: WorkspaceTool | null,
	id: string,
): Promise<PublicRecords> {
	const [row] = await deps.db
		.select({ chart: charts, database: workspaceDatabases })
		.from(charts)
		.leftJoin(workspaceDatabases, eq(workspaceDatabases.id, charts.databaseId))
		.where(and(eq(charts.id, id), eq(charts.published, true), tool ? eq(charts.tool, tool) : undefined))
	const records = found(row, notAvailable)
	await assertServed(deps, records.chart.organizationId)
	return records
}

/**
 * Not while the organization's subscription is paused, past due or canceled: its page, image,
 * CSV and dashboards answer UNAVAILABLE, with a neutral detail (visitors hear nothing of billing).
 */
export async function assertServed(deps: ChartsDeps, organizationId: string): Promise<void> {
	if (!(await deps.subscriptions.isAvailable(organizationId))) {
		throw new AppError('UNAVAILABLE')
	}
}

/** The builder's live preview: settings not saved yet, on a database of the caller's. */
export async function previewChart(
	ctx: ChartsCtx,
	tool: WorkspaceTool,
	input: { databaseId: string; config: ChartPreviewRequest['config']; width: number; theme: Theme },
): Promise<ChartRender> {
	const database = await findDatabase(ctx, tool, input.databaseId).catch((error: unknown) => {
		if (error instanceof AppError && error.code === 'NOT_FOUND') {
			throw new AppError('VALIDATION_FAILED', {
				errors: [{ field: 'databaseId', message: 'There is no such database in this workspace.' }],
			})
		}
		throw error
	})
	const config = chartConfigSchema.parse(input.config)
	const figures = await computeChartFigures(ctx, database, config)
	return { figures, svg: await drawFor(config, figures, input.width, input.theme, true) }
}

export async function renderSavedChart(
	ctx: ChartsCtx,
	tool: WorkspaceTool,
	id: string,
	options: { width: number; height?: number | undefined; theme: Theme },
): Promise<ChartRender> {
	const { chart, database } = await getChartRecords(ctx, tool, id)
	const config = configOf(chart.config)
	const figures = await chartFiguresOf(ctx, chart, database, config)
	const drawn = options.height ? { ...config, display: { ...config.display, height: options.height } } : config
	return { figures, svg: await drawFor(drawn, figures, options.width, options.theme, true) }
}

async function drawFor(
	config: ReturnType<typeof configOf>,
	figures: ChartRender['figures'],
	width: number,
	theme: Theme,
	transparent: boolean,
): Promise<string> {
	if (config.type === 'table' || figures.problems.length > 0) {
		return ''
	}
	return drawChart(config, figures, { width, theme, transparent })
}

function fileName(chart: ChartRecord, extension: string): string {
	const base = chart.name.replace(/[^\p{L}\p{N} _-]+/gu, ' ').trim() || 'chart'
	return `${base}.${extension}`
}

async function downloadOf(
	deps: ChartsDeps,
	chart: ChartRecord,
	database: DatabaseRecord | null,
	format: DownloadKind,
	options: { width: number; theme: Theme; transparent: boolean },
): Promise<Download> {
	const config = configOf(chart.config)
	const figures = await chartFiguresOf(deps, chart, database, config)
	if (format === 'csv') {
		return {
			body: figuresCsv(figures, config.display),
			contentType: 'text/csv; charset=utf-8',
			filename: fileName(chart, 'csv'),
		}
	}
	if (figures.problems.length > 0) {
		throw new AppError('CONFLICT', {
			detail: `This chart cannot be drawn: ${figures.problems.map((problem) => problem.message).join(' ')}`,
		})
	}
	// A table has no drawing of its own: its image is the bar chart of the same figures.
	const drawable = config.type === 'table' ? { ...config, type: 'bar' as const } : config
	const svg = await drawChart(drawable, figures, options)
	if (format === 'svg') {
		return { body: svg, contentType: 'image/svg+xml', filename: fileName(chart, 'svg') }
	}
	return {
		body: renderChartPng(
			svg,
			options.transparent ? {} : { background: options.theme === 'dark' ? '#191919' : '#ffffff' },
		),
		contentType: 'image/png',
		filename: fileName(chart, 'png'),
	}
}

export async function chartDownload(
	ctx: ChartsCtx,
	tool: WorkspaceTool,
	id: string,
	format: DownloadKind,
	options: { width: number; theme: Theme },
): Promise<Download> {
	const { chart, database } = await getChartRecords(ctx, tool, id)
	return downloadOf(ctx, chart, database, format, { ...options, transparent: false })
}

/** The embed's theme when the viewer asked for none: the owner's choice, and light for "auto" (no viewer to ask). */
function themeFor(asked: 'auto' | 'light' | 'dark' | undefined, owner: 'auto' | 'light' | 'dark'): Theme {
	const theme = asked ?? owner
	return theme === 'dark' ? 'dark' : 'light'
}

type PublicQuery = {
	theme?: 'auto' | 'light' | 'dark' | undefined
	width?: number | undefined
	/** A dashboard tile's height instead of the chart's own. */
	height?: number | undefined
	/** A dashboard tile names its chart above the drawing. */
	isTile?: boolean | undefined
}

export async function publicChart(deps: ChartsDeps, tool: WorkspaceTool, id: string, query: PublicQuery) {
	return publicChartOf(deps, await findPublicChart(deps, tool, id), query)
}

/** What a visitor gets of a published chart: settings for drawing, figures and the drawing — never rows. */
export async function publicChartOf(
	deps: ChartsDeps,
	{ chart, database }: PublicRecords,
	query: PublicQuery,
): Promise<PublicChart> {
	const config = configOf(chart.config)
	const embed = chartEmbedSchema.parse(chart.embed)
	const figures = await chartFiguresOf(deps, chart, database, config)
	// The embed may leave the title out (Notion shows its own caption); a dashboard tile sets its height.
	const display = {
		...config.display,
		title: embed.showTitle && !query.isTile ? config.display.title : null,
		height: query.height ?? config.display.height,
	}
	const drawn = { ...config, display }
	const svg = await drawFor(drawn, figures, query.width ?? 800, themeFor(query.theme, embed.theme), embed.transparent)
	return {
		id: chart.id,
		name: chart.name,
		type: config.type,
		display: config.display,
		embed,
		figures,
		svg,
		dataUpdatedAt: dataUpdatedAt(chart, database, figures),
	}
}

/** A published chart's image (always: it is the page's link preview) or CSV and SVG (when the owner allows downloads). */
export async function publicDownload(
	deps: ChartsDeps,
	tool: WorkspaceTool,
	id: string,
	format: DownloadKind,
	query: PublicQuery,
): Promise<Download> {
	const { chart, database } = await findPublicChart(deps, tool, id)
	const embed = chartEmbedSchema.parse(chart.embed)
	if (format !== 'png' && !embed.allowDownloads) {
		throw new AppError('NOT_FOUND', { detail: 'Downloads of this chart are not offered.' })
	}
	const download = await downloadOf(deps, chart, database, format, {
		width: query.width ?? 1200,
		theme: themeFor(query.theme, embed.theme),
		transparent: false,
	})
	// The PNG is also shown inline (link previews, e-mails): a file name would make it a download.
	return format === 'png' ? { ...download, filename: null } : download
}

export type { ChartsDeps }

/**
 * A published chart of the organization over only the rows `scope` grants (a condition on
 * workspace_rows: a portal member's rule, decision 038), drawn for them. Computed on each call,
 * never read from or written to the chart's cache, which holds everyone's figures.
 */
export async function scopedPublicChart(
	deps: ChartsDeps,
	organizationId: string,
	id: string,
	scope: SQL,
	query: PublicQuery,
): Promise<PublicChart> {
	const { chart, database } = await findPublicChart(deps, null, id)
	if (chart.organizationId !== organizationId) {
		throw new AppError('NOT_FOUND', { detail: notAvailable })
	}
	const config = configOf(chart.config)
	// Grouped by linked rows, its labels would be their titles: another client's, for a row linked to both.
	const grouping = [config.x?.property, config.breakdown?.property]
	const linked = database?.properties.filter((p) => p.type === 'relation' || p.type === 'rollup').map((p) => p.id)
	if (grouping.some((ref) => ref && linked?.includes(ref))) {
		throw new AppError('NOT_FOUND', { detail: 'This chart groups by linked rows, which a portal does not show.' })
	}
	const embed = chartEmbedSchema.parse(chart.embed)
	const figures = await computeChartFigures(deps, database, config, scope)
	const display = { ...config.display, title: embed.showTitle ? config.display.title : null }
	const theme = query.theme === 'dark' ? 'dark' : 'light'
	const svg = await drawFor({ ...config, display }, figures, query.width ?? 800, theme, embed.transparent)
	return {
		id: chart.id,
		name: chart.name,
		type: config.type,
		display: config.display,
		embed,
		figures,
		svg,
		dataUpdatedAt: dataUpdatedAt(chart, database, figures),
	}
}

/**
 * The organization's charts among `ids`, for modules that show charts (portals): id, name,
 * database, whether it is published and the properties it groups by, nothing else of them.
 */
export async function chartsOfOrganization(
	db: Db,
	organizationId: string,
	ids: string[],
): Promise<{ id: string; name: string; databaseId: string | null; published: boolean; groupedBy: string[] }[]> {
	if (ids.length === 0) {
		return []
	}
	const found = await db
		.select({
			id: charts.id,
			name: charts.name,
			databaseId: charts.databaseId,
			published: charts.published,
			config: charts.config,
		})
		.from(charts)
		.where(and(eq(charts.organizationId, organizationId), inArray(charts.id, ids)))
	return found.map(({ config, ...chart }) => {
		const settings = configOf(config)
		// The properties its labels come from: a portal refuses a chart labelled by linked rows' titles.
		const groupedBy = [settings.x?.property, settings.breakdown?.property].filter((ref): ref is string => !!ref)
		return { ...chart, groupedBy }
	})
}

export { createChartsExport } from './charts.export.ts'

/** Drops the typed projections of these databases (a disconnected workspace's). */
export const dropChartProjections = dropProjections

/** An organization's purge (decision 040): the projection tables of its databases, which no foreign key reaches. */
export const chartsPurgeContributor: PurgeContributor = {
	name: 'chartProjections',
	run: async ({ db, organizationId }) => {
		const databases = await db
			.select({ id: workspaceDatabases.id })
			.from(workspaceDatabases)
			.where(eq(workspaceDatabases.organizationId, organizationId))
		return dropProjections(
			db,
			databases.map((database) => database.id),
		)
	},
}
