import { randomUUID } from 'node:crypto'
import {
	type CreateDashboard,
	type Dashboard,
	type DashboardTile,
	dashboardColumns,
	dashboardEmbedSchema,
	dashboardRowHeight,
	type PublicChart,
	type PublicDashboard,
	type UpdateDashboard,
} from '@blocksmith/contracts/charts.ts'
import { and, desc, eq, inArray } from 'drizzle-orm'
import { AppError, found } from '#src/lib/errors.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import type { ChartsCtx, ChartsDeps } from './charts.deps.ts'
import { canDeleteChart } from './charts.policy.ts'
import { assertServed, publicChartOf } from './charts.public.ts'
import { chartDashboards, charts } from './charts.schema.ts'

// Dashboards: several charts of the organization on a 12-column grid, published and embedded
// as one page. A dashboard names charts by id; publishing it shows those charts' figures (never
// rows), whether or not each chart is published on its own.

type DashboardRecord = typeof chartDashboards.$inferSelect

/** Pixels of the public page's grid: what each tile's chart is drawn at. */
const gridWidth = 1200

function toDashboard(record: DashboardRecord): Dashboard {
	return {
		id: record.id,
		name: record.name,
		description: record.description,
		tiles: record.tiles,
		embed: dashboardEmbedSchema.parse(record.embed),
		published: record.published,
		createdAt: record.createdAt.toISOString(),
		updatedAt: record.updatedAt.toISOString(),
	}
}

/** Chart ids given by the caller must be charts of the caller's organization: a 400 naming each that is not. */
async function checkCharts(ctx: ChartsCtx, ids: string[], fieldOf: (index: number) => string): Promise<void> {
	if (ids.length === 0) {
		return
	}
	const known = await ctx.db
		.select({ id: charts.id })
		.from(charts)
		.where(and(eq(charts.organizationId, ctx.orgId), inArray(charts.id, [...new Set(ids)])))
	const ours = new Set(known.map((row) => row.id))
	const errors = ids.flatMap((id, index) =>
		ours.has(id) ? [] : [{ field: fieldOf(index), message: 'There is no such chart in this organization.' }],
	)
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', { errors })
	}
}

/** New tiles two to a row, each half the width. */
function placed(chartIds: string[]): DashboardTile[] {
	const w = dashboardColumns / 2
	return chartIds.map((chartId, index) => ({ chartId, x: (index % 2) * w, y: Math.floor(index / 2) * 8, w, h: 8 }))
}

export async function listDashboards(ctx: ChartsCtx): Promise<Dashboard[]> {
	const rows = await ctx.db
		.select()
		.from(chartDashboards)
		.where(eq(chartDashboards.organizationId, ctx.orgId))
		.orderBy(desc(chartDashboards.updatedAt))
	return rows.map(toDashboard)
}

async function getDashboardRecord(ctx: ChartsCtx, id: string): Promise<DashboardRecord> {
	const [row] = await ctx.db
		.select()
		.from(chartDashboards)
		.where(and(eq(chartDashboards.id, id), eq(chartDashboards.organizationId, ctx.orgId)))
	return found(row, 'No such dashboard.')
}

export async function getDashboard(ctx: ChartsCtx, id: string): Promise<Dashboard> {
	return toDashboard(await getDashboardRecord(ctx, id))
}

export async function createDashboard(ctx: ChartsCtx, input: CreateDashboard): Promise<Dashboard> {
	const chartIds = input.chartIds ?? []
	await checkCharts(ctx, chartIds, (index) => `chartIds.${index}`)
	await ctx.subscriptions.assertCanAdd(ctx.db, ctx.orgId, 'dashboards')
	const [record] = await ctx.db
		.insert(chartDashboards)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			name: input.name,
			tiles: placed(chartIds),
			createdBy: ctx.userId || null,
		})
		.returning()
	return toDashboard(found(record))
}

export async function updateDashboard(ctx: ChartsCtx, id: string, input: UpdateDashboard): Promise<Dashboard> {
	const dashboard = await getDashboardRecord(ctx, id)
	const changes: Partial<typeof chartDashboards.$inferInsert> = { updatedAt: new Date() }
	if (input.name !== undefined) {
		changes.name = input.name
	}
	if (input.description !== undefined) {
		changes.description = input.description
	}
	if (input.tiles !== undefined) {
		await checkCharts(
			ctx,
			input.tiles.map((tile) => tile.chartId),
			(index) => `tiles.${index}.chartId`,
		)
		changes.tiles = input.tiles
	}
	if (input.embed !== undefined) {
		changes.embed = dashboardEmbedSchema.parse(input.embed)
	}
	if (input.published !== undefined) {
		changes.published = input.published
	}
	const [record] = await ctx.db
		.update(chartDashboards)
		.set(changes)
		.where(and(eq(chartDashboards.id, dashboard.id), eq(chartDashboards.organizationId, ctx.orgId)))
		.returning()
	return toDashboard(found(record))
}

export async function deleteDashboard(ctx: ChartsCtx, id: string): Promise<void> {
	const dashboard = await getDashboardRecord(ctx, id)
	if (!canDeleteChart(ctx.role)) {
		throw new AppError('FORBIDDEN', {
			detail: 'Only an owner or admin can delete a dashboard. Ask one of them to do it.',
		})
	}
	await ctx.db
		.delete(chartDashboards)
		.where(and(eq(chartDashboards.id, dashboard.id), eq(chartDashboards.organizationId, ctx.orgId)))
}

/** How wide a tile's chart is drawn in the page (the grid's width on a desktop); the script redraws it at its real width. */
export function tileDrawWidth(tile: { w: number }): number {
	return Math.max(240, Math.round((tile.w / dashboardColumns) * gridWidth))
}

/** The room a tile leaves for its drawing: the tile's title is the page's, above it. */
function tileDrawHeight(tile: { h: number }): number {
	return Math.max(120, tile.h * dashboardRowHeight - 48)
}

/** A published dashboard and its charts' rows; 404 otherwise. */
async function publishedDashboard(deps: ChartsDeps, id: string) {
	const [record] = await deps.db
		.select()
		.from(chartDashboards)
		.where(and(eq(chartDashboards.id, id), eq(chartDashboards.published, true)))
	const dashboard = found(record, 'This dashboard is not available. It may have been unpublished or deleted.')
	await assertServed(deps, dashboard.organizationId)
	const embed = dashboardEmbedSchema.parse(dashboard.embed)
	const chartIds = dashboard.tiles.map((tile) => tile.chartId)
	const rows =
		chartIds.length === 0
			? []
			: await deps.db
					.select({ chart: charts, database: workspaceDatabases })
					.from(charts)
					.leftJoin(workspaceDatabases, eq(workspaceDatabases.id, charts.databaseId))
					.where(and(eq(charts.organizationId, dashboard.organizationId), inArray(charts.id, chartIds)))
	return { dashboard, embed, byId: new Map(rows.map((row) => [row.chart.id, row])) }
}

type Published = Awaited<ReturnType<typeof publishedDashboard>>

/** One tile's chart drawn at `width`; the dashboard's embed settings win over the chart's own: one look for the page. */
async function tileChart(
	deps: ChartsDeps,
	{ embed, byId }: Published,
	tile: DashboardTile,
	query: { theme: 'auto' | 'light' | 'dark'; width: number },
): Promise<PublicChart | null> {
	const row = byId.get(tile.chartId)
	const chart = row ? await publicChartOf(deps, row, { ...query, height: tileDrawHeight(tile), isTile: true }) : null
	return chart ? { ...chart, embed: { ...chart.embed, ...embed, allowDownloads: false } } : null
}

/** A published dashboard with each tile's chart computed and drawn at the tile's width; 404 otherwise. */
export async function publicDashboard(
	deps: ChartsDeps,
	id: string,
	query: { theme?: 'auto' | 'light' | 'dark' | undefined },
): Promise<PublicDashboard> {
	const published = await publishedDashboard(deps, id)
	const { dashboard, embed } = published
	const theme = query.theme ?? embed.theme
	const tiles: PublicDashboard['tiles'] = []
	for (const tile of dashboard.tiles) {
		tiles.push({ ...tile, chart: await tileChart(deps, published, tile, { theme, width: tileDrawWidth(tile) }) })
	}
	return {
		id: dashboard.id,
		name: dashboard.name,
		description: dashboard.description,
		embed,
		tiles,
	}
}

/**
 * One tile of a published dashboard drawn at the width it has on the reader's screen (a phone
 * shows tiles one above the other, each as wide as the screen); 404 for a tile that is not there.
 */
export async function publicDashboardTile(
	deps: ChartsDeps,
	id: string,
	index: number,
	query: { theme?: 'auto' | 'light' | 'dark' | undefined; width?: number | undefined },
): Promise<PublicChart> {
	const published = await publishedDashboard(deps, id)
	const tile = published.dashboard.tiles[index]
	const theme = query.theme ?? published.embed.theme
	const chart = tile
		? await tileChart(deps, published, tile, { theme, width: query.width ?? tileDrawWidth(tile) })
		: null
	return found(chart, 'This dashboard has no chart there.')
}
