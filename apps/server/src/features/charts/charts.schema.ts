import type {
	ChartConfig,
	ChartEmbed,
	ChartFigures,
	DashboardEmbed,
	DashboardTile,
} from '@blocksmith/contracts/charts.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { bigint, boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow()
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow()

/** A chart of one workspace database. */
export const charts = pgTable(
	'charts',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		tool: text('tool').$type<WorkspaceTool>().notNull(),
		/** Null once its database is gone: the chart stays, and says what happened. */
		databaseId: text('database_id').references(() => workspaceDatabases.id, { onDelete: 'set null' }),
		name: text('name').notNull(),
		/** ChartConfig as saved (defaults filled on read, so older charts gain new settings). */
		config: jsonb('config').$type<ChartConfig>().notNull(),
		embed: jsonb('embed').$type<Partial<ChartEmbed>>().notNull().default({}),
		published: boolean('published').notNull().default(false),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [
		index('charts_organization_id_idx').on(table.organizationId),
		index('charts_database_id_idx').on(table.databaseId),
	],
)

/**
 * The last figures computed for a chart and the key they were computed for (its settings, its
 * database's rows version and schema, the day in its time zone): a load whose key matches costs
 * no aggregation.
 */
export const chartFigures = pgTable('chart_figures', {
	chartId: text('chart_id')
		.primaryKey()
		.references(() => charts.id, { onDelete: 'cascade' }),
	cacheKey: text('cache_key').notNull(),
	figures: jsonb('figures').$type<ChartFigures>().notNull(),
	computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Several charts of the organization on one grid, published and embedded as one page. */
export const chartDashboards = pgTable(
	'chart_dashboards',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		description: text('description'),
		/** Chart ids with their places; a deleted chart's tile reads as removed until the layout is saved again. */
		tiles: jsonb('tiles').$type<DashboardTile[]>().notNull().default([]),
		embed: jsonb('embed').$type<Partial<DashboardEmbed>>().notNull().default({}),
		published: boolean('published').notNull().default(false),
		createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt,
		updatedAt,
	},
	(table) => [index('chart_dashboards_organization_id_idx').on(table.organizationId)],
)

/**
 * A database's typed projection: a table of its own (`table_name`, made by charts.projection.ts)
 * with one typed column per chartable property, copied from the mirror at `rows_version`. Figures
 * read it instead of JSONB only while the database is still at that version.
 */
export const chartProjections = pgTable('chart_projections', {
	databaseId: text('database_id')
		.primaryKey()
		.references(() => workspaceDatabases.id, { onDelete: 'cascade' }),
	tableName: text('table_name').notNull(),
	rowsVersion: bigint('rows_version', { mode: 'number' }).notNull(),
	/** Property id (or created_time / last_edited_time) → its columns in the table. */
	columns: jsonb('columns').$type<Record<string, { value: string; instant?: string }>>().notNull(),
	builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
})
