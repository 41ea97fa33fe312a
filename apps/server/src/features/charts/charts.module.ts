import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { count, eq } from 'drizzle-orm'
import type { Context } from 'hono'
import type { Meter } from '#src/core/subscriptions/subscriptions.usage.ts'
import { AppError } from '#src/lib/errors.ts'
import type { JobQueue, Jobs } from '#src/lib/jobs.ts'
import type { PageRender } from '#src/lib/page-render.ts'
import { renderDashboardPage } from './charts.dashboards.page.ts'
import { publicDashboard } from './charts.dashboards.ts'
import type { ChartsDeps } from './charts.deps.ts'
import { renderChartPage } from './charts.page.ts'
import { buildProjection, dropOrphanProjections } from './charts.projection.ts'
import { findPublicChart, publicChartOf } from './charts.public.ts'
import { chartDashboards, charts } from './charts.schema.ts'

/** Asks within this long of the last one for the same database are one ask. */
const projectionAskSeconds = 10

/** Builds the charts module: its dependencies, its projection job and the server-written pages. */
export function createCharts(
	options: Omit<ChartsDeps, 'now' | 'requestProjection'> & { jobs: Jobs; now?: () => Date },
) {
	const asked = new Map<string, number>()
	const projectionQueue: JobQueue<{ databaseId: string; wanted?: string[] }> = {
		name: 'chart-projection',
		options: { retryLimit: 3, retryDelay: 30 },
		handle: async ({ databaseId, wanted }) => {
			try {
				await buildProjection(options.db, databaseId, wanted ?? [])
				await dropOrphanProjections(options.db)
			} finally {
				// Done here: the next stale read may ask again at once.
				asked.delete(databaseId)
			}
		},
	}
	options.jobs.register(projectionQueue)
	options.subscriptions.registerMeter('charts', countCharts)
	options.subscriptions.registerMeter('dashboards', countDashboards)
	const deps: ChartsDeps = {
		...options,
		now: options.now ?? (() => new Date()),
		requestProjection: (databaseId, wanted) => {
			const last = asked.get(databaseId) ?? 0
			if (Date.now() - last < projectionAskSeconds * 1000) {
				return
			}
			asked.set(databaseId, Date.now())
			// A burst of edits (a sync, an import) settles before the copy is made.
			options.jobs.send(projectionQueue, { databaseId, wanted }, { startAfterSeconds: 2 }).catch((error: unknown) => {
				asked.delete(databaseId)
				options.log.warn({ err: error, databaseId }, 'could not ask for a chart projection')
			})
		},
	}

	/**
	 * /charts/{id}: the chart drawn into the HTML (visible before any script runs, and to link
	 * previews), for Notion's /embed block. `?theme=light|dark|auto`, `?transparent=0|1`.
	 */
	async function renderPage(c: Context): Promise<PageRender> {
		const id = c.req.param('id') ?? ''
		const query = new URL(c.req.url).searchParams
		const askedTheme = query.get('theme')
		const theme = askedTheme === 'light' || askedTheme === 'dark' || askedTheme === 'auto' ? askedTheme : undefined
		const pageUrl = `${deps.publicUrl}/charts/${encodeURIComponent(id)}`
		try {
			const records = await findPublicChart(deps, null, id)
			const tool: WorkspaceTool = records.chart.tool
			const embed = await publicChartOf(deps, records, theme ? { theme } : {})
			const pageTheme = theme ?? embed.embed.theme
			const transparentParam = query.get('transparent')
			const transparent = transparentParam === null ? embed.embed.transparent : transparentParam !== '0'
			// auto shows the viewer's light or dark: both drawings are in the page, CSS picks one.
			const dark = pageTheme === 'auto' ? await publicChartOf(deps, records, { theme: 'dark' }) : null
			return renderChartPage({
				chart: embed,
				darkSvg: dark?.svg ?? null,
				tool,
				pageUrl,
				imageUrl: `${deps.publicUrl}/api/${tool}_charts/charts/${encodeURIComponent(id)}/image.png`,
				theme: pageTheme,
				transparent,
			})
		} catch (error) {
			if (!(error instanceof AppError)) {
				throw error
			}
			return renderChartPage({
				chart: null,
				darkSvg: null,
				tool: 'local',
				error: { status: error.status, code: error.code, detail: error.detail },
				pageUrl,
				imageUrl: '',
				theme: theme ?? 'auto',
				transparent: true,
			})
		}
	}

	/** /charts/dashboards/{id}: every tile drawn into the HTML, as for a chart. */
	async function renderDashboard(c: Context): Promise<PageRender> {
		const id = c.req.param('id') ?? ''
		const query = new URL(c.req.url).searchParams
		const askedTheme = query.get('theme')
		const asked = askedTheme === 'light' || askedTheme === 'dark' || askedTheme === 'auto' ? askedTheme : undefined
		const pageUrl = `${deps.publicUrl}/charts/dashboards/${encodeURIComponent(id)}`
		try {
			const dashboard = await publicDashboard(deps, id, asked ? { theme: asked } : {})
			const theme = asked ?? dashboard.embed.theme
			const transparentParam = query.get('transparent')
			const transparent = transparentParam === null ? dashboard.embed.transparent : transparentParam !== '0'
			const dark = theme === 'auto' ? await publicDashboard(deps, id, { theme: 'dark' }) : null
			return renderDashboardPage({
				dashboard,
				darkSvgs: dashboard.tiles.map((_, index) => dark?.tiles[index]?.chart?.svg ?? null),
				theme,
				transparent,
				pageUrl,
			})
		} catch (error) {
			if (!(error instanceof AppError)) {
				throw error
			}
			const page = renderDashboardPage({
				dashboard: null,
				darkSvgs: [],
				theme: asked ?? 'auto',
				transparent: true,
				pageUrl,
			})
			// The page reads "not available" either way; the status and code say which (404, or 409 UNAVAILABLE).
			return 'head' in page
				? { ...page, status: error.status, data: { error: { status: error.status, code: error.code } } }
				: page
		}
	}

	return { deps, renderPage, renderDashboard }
}

export type Charts = ReturnType<typeof createCharts>

/** Charts of both tools count against the plan. */
const countCharts: Meter = async (db, organizationId) => {
	const [row] = await db.select({ count: count() }).from(charts).where(eq(charts.organizationId, organizationId))
	return row?.count ?? 0
}

const countDashboards: Meter = async (db, organizationId) => {
	const [row] = await db
		.select({ count: count() })
		.from(chartDashboards)
		.where(eq(chartDashboards.organizationId, organizationId))
	return row?.count ?? 0
}
