import { randomUUID } from 'node:crypto'
import {
	type Chart,
	type ChartConfig,
	type ChartProblem,
	type CreateChart,
	chartConfigSchema,
	chartEmbedSchema,
	type UpdateChart,
} from '@blocksmith/contracts/charts.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, desc, eq } from 'drizzle-orm'
import { AppError, found } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaces } from '#src/workspaces/workspaces.schema.ts'
import type { ChartsCtx } from './charts.deps.ts'
import { validateChartConfig } from './charts.figures.ts'
import { canDeleteChart, chartRefusals } from './charts.policy.ts'
import { charts } from './charts.schema.ts'

// The builder's side of charts: list, create (with a first useful configuration), read,
// change, duplicate, delete. Figures and drawings are in charts.output.ts.

export type ChartRecord = typeof charts.$inferSelect
export type DatabaseRecord = typeof workspaceDatabases.$inferSelect

function toChart(record: ChartRecord, database: DatabaseRecord | null): Chart {
	return {
		id: record.id,
		name: record.name,
		tool: record.tool,
		workspaceId: database?.workspaceId ?? '',
		databaseId: record.databaseId ?? '',
		databaseName: database?.name ?? 'Removed database',
		config: configOf(record.config),
		embed: chartEmbedSchema.parse(record.embed),
		published: record.published,
		problems: database
			? validateChartConfig(database.properties, configOf(record.config))
			: [
					{
						field: 'databaseId',
						message: 'The database of this chart was removed. Duplicate the chart onto another database, or delete it.',
					},
				],
		createdAt: record.createdAt.toISOString(),
		updatedAt: record.updatedAt.toISOString(),
	}
}

/** Saved settings with the defaults of settings added since, so an older chart still reads. */
export function configOf(saved: unknown): ChartConfig {
	const result = chartConfigSchema.safeParse(saved)
	return result.success ? result.data : chartConfigSchema.parse({})
}

const isCategory = (property: Property) => property.type === 'select' || property.type === 'status'
const isDate = (property: Property) => property.type === 'date'

/**
 * A new chart's first settings: rows counted by the first select or status (what most
 * databases are grouped by), else by month of the first date, else by month of creation.
 */
function defaultConfig(properties: Property[], timeZone = 'UTC'): ChartConfig {
	const category = properties.find(isCategory)
	const date = properties.find(isDate)
	const x = category
		? { property: category.id, sort: 'label_asc' as const }
		: { property: date?.id ?? 'created_time', bucket: 'month' as const }
	return chartConfigSchema.parse({ type: 'bar', x, timeZone })
}

/** Problems found in settings being saved: a 400 naming each field (under `config.`). */
function refuseProblems(problems: ChartProblem[]): void {
	if (problems.length > 0) {
		throw new AppError('VALIDATION_FAILED', {
			errors: problems.map((problem) => ({ field: `config.${problem.field}`, message: problem.message })),
		})
	}
}

/** A database of the caller's organization and of this tool; 404 otherwise. */
export async function findDatabase(ctx: ChartsCtx, tool: WorkspaceTool, id: string): Promise<DatabaseRecord> {
	const [row] = await ctx.db
		.select({ database: workspaceDatabases })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(
			and(eq(workspaceDatabases.id, id), eq(workspaceDatabases.organizationId, ctx.orgId), eq(workspaces.tool, tool)),
		)
	return found(row, 'No such database.').database
}

export async function listCharts(ctx: ChartsCtx, tool: WorkspaceTool): Promise<Chart[]> {
	const rows = await ctx.db
		.select({ chart: charts, database: workspaceDatabases })
		.from(charts)
		.leftJoin(workspaceDatabases, eq(workspaceDatabases.id, charts.databaseId))
		.where(and(eq(charts.organizationId, ctx.orgId), eq(charts.tool, tool)))
		.orderBy(desc(charts.updatedAt))
	return rows.map((row) => toChart(row.chart, row.database))
}

/** A chart of the caller's organization reached through its tool's path; 404 otherwise. */
export async function getChartRecords(ctx: ChartsCtx, tool: WorkspaceTool, id: string) {
	const [row] = await ctx.db
		.select({ chart: charts, database: workspaceDatabases })
		.from(charts)
		.leftJoin(workspaceDatabases, eq(workspaceDatabases.id, charts.databaseId))
		.where(and(eq(charts.id, id), eq(charts.organizationId, ctx.orgId), eq(charts.tool, tool)))
	return found(row, 'No such chart.')
}

export async function getChart(ctx: ChartsCtx, tool: WorkspaceTool, id: string): Promise<Chart> {
	const { chart, database } = await getChartRecords(ctx, tool, id)
	return toChart(chart, database)
}

export async function createChart(ctx: ChartsCtx, tool: WorkspaceTool, input: CreateChart): Promise<Chart> {
	const database = await findDatabase(ctx, tool, input.databaseId).catch((error: unknown) => {
		// The database is named in the body: a bad one is a field error, not a missing page.
		if (error instanceof AppError && error.code === 'NOT_FOUND') {
			throw new AppError('VALIDATION_FAILED', {
				errors: [{ field: 'databaseId', message: 'There is no such database in this workspace.' }],
			})
		}
		throw error
	})
	const config = input.config
		? chartConfigSchema.parse(input.config)
		: defaultConfig(database.properties, input.timeZone)
	refuseProblems(validateChartConfig(database.properties, config))
	await ctx.subscriptions.assertCanAdd(ctx.db, ctx.orgId, 'charts')
	const [record] = await ctx.db
		.insert(charts)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			tool,
			databaseId: database.id,
			name: input.name,
			config,
			createdBy: ctx.userId || null,
		})
		.returning()
	return toChart(found(record), database)
}

export async function updateChart(ctx: ChartsCtx, tool: WorkspaceTool, id: string, input: UpdateChart): Promise<Chart> {
	const { chart, database } = await getChartRecords(ctx, tool, id)
	const changes: Partial<typeof charts.$inferInsert> = { updatedAt: new Date() }
	if (input.name !== undefined) {
		changes.name = input.name
	}
	if (input.config !== undefined) {
		const config = chartConfigSchema.parse(input.config)
		if (!database) {
			throw new AppError('CONFLICT', {
				detail: 'The database of this chart was removed. Duplicate the chart onto another database instead.',
			})
		}
		refuseProblems(validateChartConfig(database.properties, config))
		changes.config = config
	}
	if (input.embed !== undefined) {
		changes.embed = chartEmbedSchema.parse(input.embed)
	}
	if (input.published !== undefined) {
		changes.published = input.published
	}
	const [record] = await ctx.db
		.update(charts)
		.set(changes)
		.where(and(eq(charts.id, chart.id), eq(charts.organizationId, ctx.orgId)))
		.returning()
	return toChart(found(record), database)
}

export async function duplicateChart(ctx: ChartsCtx, tool: WorkspaceTool, id: string): Promise<Chart> {
	const { chart, database } = await getChartRecords(ctx, tool, id)
	await ctx.subscriptions.assertCanAdd(ctx.db, ctx.orgId, 'charts')
	const [record] = await ctx.db
		.insert(charts)
		.values({
			id: randomUUID(),
			organizationId: ctx.orgId,
			tool,
			databaseId: chart.databaseId,
			name: `${chart.name} (copy)`.slice(0, 200),
			config: chart.config,
			embed: chart.embed,
			// A copy starts private: publishing is a choice made for each chart.
			published: false,
			createdBy: ctx.userId || null,
		})
		.returning()
	return toChart(found(record), database)
}

export async function deleteChart(ctx: ChartsCtx, tool: WorkspaceTool, id: string): Promise<void> {
	const { chart } = await getChartRecords(ctx, tool, id)
	if (!canDeleteChart(ctx.role)) {
		throw new AppError('FORBIDDEN', { detail: chartRefusals.deleteChart })
	}
	await ctx.db.delete(charts).where(and(eq(charts.id, chart.id), eq(charts.organizationId, ctx.orgId)))
}
