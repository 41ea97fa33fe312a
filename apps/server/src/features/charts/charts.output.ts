import { createHash } from 'node:crypto'
import type { ChartConfig, ChartFigures, ChartProblem, ChartType } from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray, type SQL } from 'drizzle-orm'
import { members, users } from '#src/core/auth/auth.schema.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import type { ChartsDeps } from './charts.deps.ts'
import { computeFigures, validateChartConfig } from './charts.figures.ts'
import { renderChartSvg } from './charts.render.ts'
import { chartFigures } from './charts.schema.ts'
import type { ChartRecord, DatabaseRecord } from './charts.service.ts'

/** What computing figures needs of the module: its database, its clock, projection rebuilds. */
type FiguresDeps = Pick<ChartsDeps, 'db' | 'now' | 'requestProjection'>

// Figures and drawings of charts. Figures are computed in the database from the mirror and kept
// per chart under a key of everything they depend on; a load whose key matches reads one row and
// runs no aggregation. Drawings are kept in memory for the figures they were drawn from.

/** Figures that say what is wrong instead of showing numbers. */
function problemFigures(type: ChartType, problems: ChartProblem[], now: Date): ChartFigures {
	return {
		type,
		xKind: 'none',
		categories: [],
		series: [],
		rowCount: 0,
		isTruncated: false,
		problems,
		computedAt: now.toISOString(),
	}
}

const removedDatabase: ChartProblem = {
	field: 'databaseId',
	message:
		'The database of this chart was removed or its workspace disconnected. Duplicate the chart onto another database, or delete it.',
}

const dayFormats = new Map<string, Intl.DateTimeFormat>()

/** The calendar day in the chart's zone: relative ranges and "today" move with it. */
function dayIn(timeZone: string, now: Date): string {
	// Making a formatter costs more than the rest of a cached load: one per zone, kept.
	let format = dayFormats.get(timeZone)
	if (!format) {
		format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
		if (dayFormats.size > 500) {
			dayFormats.clear()
		}
		dayFormats.set(timeZone, format)
	}
	return format.format(now)
}

function cacheKeyOf(config: ChartConfig, database: DatabaseRecord, now: Date): string {
	return createHash('sha256')
		.update(JSON.stringify([config, database.rowsVersion, database.properties, dayIn(config.timeZone, now)]))
		.digest('base64url')
}

/**
 * Figures of settings on a database, computed now: the builder's preview of unsaved settings, or
 * a saved chart over only the rows `scope` grants (a portal member's; never cached, never shared).
 */
export async function computeChartFigures(
	deps: FiguresDeps,
	database: DatabaseRecord | null,
	config: ChartConfig,
	scope?: SQL,
): Promise<ChartFigures> {
	const now = deps.now()
	if (!database) {
		return problemFigures(config.type, [removedDatabase], now)
	}
	const problems = validateChartConfig(database.properties, config)
	if (problems.length > 0) {
		return problemFigures(config.type, problems, now)
	}
	const figures = await computeFigures(deps.db, { id: database.id, properties: database.properties }, config, {
		now,
		useProjection: true,
		onProjectionStale: (wanted) => deps.requestProjection(database.id, wanted),
		...(scope ? { scope } : {}),
	})
	return labelled(deps, database, config, figures)
}

/** A saved chart's figures: from its cache when nothing they depend on has changed. */
export async function chartFiguresOf(
	deps: FiguresDeps,
	chart: ChartRecord,
	database: DatabaseRecord | null,
	config: ChartConfig,
): Promise<ChartFigures> {
	const now = deps.now()
	if (!database) {
		return problemFigures(config.type, [removedDatabase], now)
	}
	const key = cacheKeyOf(config, database, now)
	const [cached] = await deps.db
		.select({ cacheKey: chartFigures.cacheKey, figures: chartFigures.figures })
		.from(chartFigures)
		.where(eq(chartFigures.chartId, chart.id))
	// Only valid settings are cached, and the key holds the settings and the schema they were
	// checked against: a hit needs no check.
	let figures = cached?.cacheKey === key ? cached.figures : null
	if (!figures) {
		const problems = validateChartConfig(database.properties, config)
		if (problems.length > 0) {
			return problemFigures(config.type, problems, now)
		}
		figures = await computeFigures(deps.db, { id: database.id, properties: database.properties }, config, {
			now,
			useProjection: true,
			onProjectionStale: (wanted) => deps.requestProjection(database.id, wanted),
		})
		await deps.db
			.insert(chartFigures)
			.values({ chartId: chart.id, cacheKey: key, figures, computedAt: now })
			.onConflictDoUpdate({ target: chartFigures.chartId, set: { cacheKey: key, figures, computedAt: now } })
	}
	return labelled(deps, database, config, figures)
}

const personTypes = new Set(['people', 'created_by', 'last_edited_by'])

/**
 * Relation values are row ids and people values user ids: shown by the related row's title and
 * the person's name. Done after the cache, so a renamed row or person shows at once.
 */
async function labelled(
	deps: FiguresDeps,
	database: DatabaseRecord,
	config: ChartConfig,
	figures: ChartFigures,
): Promise<ChartFigures> {
	const propertyOf = (id: string | undefined) => database.properties.find((property) => property.id === id)
	const x = propertyOf(config.x?.property)
	const breakdown = propertyOf(config.breakdown?.property)
	const xIds = x && needsLabels(x) ? figures.categories.map((category) => category.key) : []
	const groupIds = breakdown && needsLabels(breakdown) ? figures.series.flatMap((s) => (s.group ? [s.group] : [])) : []
	if (xIds.length === 0 && groupIds.length === 0) {
		return figures
	}
	const xLabels = x && xIds.length > 0 ? await labelsFor(deps, database, x, xIds) : new Map<string, string>()
	const groupLabels =
		breakdown && groupIds.length > 0 ? await labelsFor(deps, database, breakdown, groupIds) : new Map<string, string>()
	return {
		...figures,
		categories: figures.categories.map((category) => ({
			...category,
			label: xLabels.get(category.key) ?? category.label,
		})),
		series: figures.series.map((series) => {
			const label = series.group ? groupLabels.get(series.group) : undefined
			return label && series.group ? { ...series, name: series.name.replace(series.group, label) } : series
		}),
	}
}

function needsLabels(property: Property): boolean {
	return property.type === 'relation' || personTypes.has(property.type)
}

async function labelsFor(
	deps: FiguresDeps,
	database: DatabaseRecord,
	property: Property,
	ids: string[],
): Promise<Map<string, string>> {
	const unique = [...new Set(ids)].slice(0, 1000)
	if (property.type === 'relation') {
		if (!property.relationDatabaseId) {
			return new Map()
		}
		const rows = await deps.db
			.select({ id: workspaceRows.externalId, title: workspaceRows.title })
			.from(workspaceRows)
			.where(
				and(
					eq(workspaceRows.databaseId, property.relationDatabaseId),
					eq(workspaceRows.organizationId, database.organizationId),
					inArray(workspaceRows.externalId, unique),
				),
			)
		return new Map(rows.map((row) => [row.id, row.title || 'Untitled']))
	}
	// People of a local database are the organization's members. Notion's people are known by id
	// only until the sync keeps their names (noted on the Notion fidelity issue).
	const people = await deps.db
		.select({ id: users.id, name: users.name, email: users.email })
		.from(members)
		.innerJoin(users, eq(users.id, members.userId))
		.where(and(eq(members.organizationId, database.organizationId), inArray(users.id, unique)))
	return new Map(people.map((person) => [person.id, person.name || person.email]))
}

// ---- drawings -----------------------------------------------------------------------------

export type DrawOptions = { width: number; theme: 'light' | 'dark'; transparent: boolean }

const drawings = new Map<string, string>()
const maxDrawings = 500

/** The SVG of figures, drawn once per figures, size and theme (an embed is loaded far more often than it changes). */
export async function drawChart(config: ChartConfig, figures: ChartFigures, options: DrawOptions): Promise<string> {
	const hash = createHash('sha256')
		.update(JSON.stringify([config.type, config.display, options, figures]))
		.digest('base64url')
	const cached = drawings.get(hash)
	if (cached !== undefined) {
		return cached
	}
	const svg = await renderChartSvg({
		type: config.type,
		display: config.display,
		figures,
		width: options.width,
		height: config.display.height,
		theme: options.theme,
		transparent: options.transparent,
	})
	if (drawings.size >= maxDrawings) {
		const oldest = drawings.keys().next().value
		if (oldest !== undefined) {
			drawings.delete(oldest)
		}
	}
	drawings.set(hash, svg)
	return svg
}

/**
 * How fresh the figures are: a Notion database's last sync; a local database is the source
 * itself, so figures computed from it are as fresh as the moment they were computed.
 */
export function dataUpdatedAt(chart: ChartRecord, database: DatabaseRecord | null, figures: ChartFigures): string {
	if (chart.tool === 'notion' && database?.lastSyncedAt) {
		return database.lastSyncedAt.toISOString()
	}
	return figures.computedAt
}
