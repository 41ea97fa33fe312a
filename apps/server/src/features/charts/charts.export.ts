import { Readable } from 'node:stream'
import { asc, eq } from 'drizzle-orm'
import type { ExportContext, ExportContributor } from '#src/core/exports/exports.contributor.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import { figuresCsv } from './charts.csv.ts'
import type { ChartsDeps } from './charts.deps.ts'
import { chartFiguresOf } from './charts.output.ts'
import { chartDashboards, charts } from './charts.schema.ts'
import { configOf } from './charts.service.ts'

// The charts part of an organization's export (decision 040): charts/charts.json (every chart's
// definition: settings, embed options, whether published), charts/dashboards.json, and each
// chart's figures as the chart's CSV download has them (charts/data/<id>.csv), from the figures'
// cache when it is current. A chart whose figures cannot be computed (its database removed, a
// property gone) has no CSV; charts.json says why in its `problems`.

const page = 100

export function createChartsExport(deps: ChartsDeps): ExportContributor {
	return { label: 'Charts and dashboards', run: (context) => exportCharts(deps, context) }
}

async function exportCharts(deps: ChartsDeps, context: ExportContext): Promise<void> {
	const { db, organizationId, archive } = context
	const figuresDeps = { ...deps, db }
	const chartIds: string[] = []
	const problems = new Map<string, string[]>()
	// The figures first, a chart at a time: charts.json then says which charts have none.
	for (let offset = 0; ; offset += page) {
		const rows = await db
			.select({ chart: charts, database: workspaceDatabases })
			.from(charts)
			.leftJoin(workspaceDatabases, eq(workspaceDatabases.id, charts.databaseId))
			.where(eq(charts.organizationId, organizationId))
			.orderBy(asc(charts.createdAt), asc(charts.id))
			.limit(page)
			.offset(offset)
		for (const { chart, database } of rows) {
			chartIds.push(chart.id)
			const config = configOf(chart.config)
			const figures = await chartFiguresOf(figuresDeps, chart, database, config)
			if (figures.problems.length > 0) {
				problems.set(
					chart.id,
					figures.problems.map((problem) => problem.message),
				)
			} else {
				await archive.addFile(`charts/data/${chart.id}.csv`, figuresCsv(figures, config.display))
			}
		}
		if (rows.length < page) {
			break
		}
	}
	await archive.addFile('charts/charts.json', Readable.from(jsonArray(context, 'charts', problems)))
	archive.record('charts', chartIds)
	const dashboardIds: string[] = []
	await archive.addFile(
		'charts/dashboards.json',
		Readable.from(jsonArray(context, 'dashboards', problems, dashboardIds)),
	)
	archive.record('dashboards', dashboardIds)
}

/** The organization's charts or dashboards as one JSON array, read and written a page at a time. */
async function* jsonArray(
	context: ExportContext,
	kind: 'charts' | 'dashboards',
	problems: Map<string, string[]>,
	ids: string[] = [],
) {
	const { db, organizationId } = context
	yield '[\n'
	for (let offset = 0; ; offset += page) {
		const rows =
			kind === 'charts'
				? (
						await db
							.select()
							.from(charts)
							.where(eq(charts.organizationId, organizationId))
							.orderBy(asc(charts.createdAt), asc(charts.id))
							.limit(page)
							.offset(offset)
					).map((chart) => ({
						...chart,
						config: configOf(chart.config),
						hasData: !problems.has(chart.id),
						problems: problems.get(chart.id) ?? [],
					}))
				: await db
						.select()
						.from(chartDashboards)
						.where(eq(chartDashboards.organizationId, organizationId))
						.orderBy(asc(chartDashboards.createdAt), asc(chartDashboards.id))
						.limit(page)
						.offset(offset)
		for (const [index, row] of rows.entries()) {
			ids.push(row.id)
			yield `${offset + index === 0 ? '' : ',\n'}${JSON.stringify(row)}`
		}
		if (rows.length < page) {
			break
		}
	}
	yield '\n]\n'
}
