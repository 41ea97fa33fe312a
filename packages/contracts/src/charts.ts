import { z } from 'zod'
import { idSchema } from './common.ts'
import { rowFilterSchema, workspaceToolSchema } from './workspaces.ts'

// Charts: a chart is built on one workspace database. Its configuration says how rows become
// figures (x groups, series of aggregations, an optional breakdown, filters, a date range) and
// how the figures are drawn. Figures are computed on the server from the mirror; the server also
// draws them (SVG, PNG), so the builder's preview, the public embed and the downloads match.

export const chartTypes = ['bar', 'line', 'area', 'pie', 'scatter', 'number', 'table'] as const
export const chartTypeSchema = z.enum(chartTypes)
export type ChartType = z.infer<typeof chartTypeSchema>

export const aggregations = ['count', 'count_distinct', 'sum', 'average', 'median', 'min', 'max'] as const
export const aggregationSchema = z.enum(aggregations)
export type Aggregation = z.infer<typeof aggregationSchema>

export const dateBuckets = ['day', 'week', 'month', 'quarter', 'year'] as const
export const dateBucketSchema = z.enum(dateBuckets)
export type DateBucket = z.infer<typeof dateBucketSchema>

/** The row's own timestamps can be charted like date properties. */
export const rowTimestampProperties = ['created_time', 'last_edited_time'] as const

/** A property id of the chart's database, or one of `rowTimestampProperties`. */
const propertyRefSchema = z.string().trim().min(1, 'Choose a property.').max(200)

export const xSortSchema = z.enum(['label_asc', 'label_desc', 'value_asc', 'value_desc'])
export type XSort = z.infer<typeof xSortSchema>

export const chartXSchema = z.object({
	property: propertyRefSchema,
	/** Dates (date, created_time, last_edited_time, date formulas and rollups): the bucket. */
	bucket: dateBucketSchema.default('month'),
	/** Numbers: the width of each range (0–10, 10–20, …); null groups by each value. */
	rangeSize: z.number().positive().max(1e12).nullable().default(null),
	/** Label order for categories; dates and ranges default to their natural order. */
	sort: xSortSchema.default('label_asc'),
	/** Leave out groups with no rows (for dates: buckets between the first and last are otherwise shown as zero). */
	hideEmpty: z.boolean().default(false),
	/** Keep the first N groups after sorting. */
	limit: z.number().int().min(1).max(1000).nullable().default(null),
})
export type ChartX = z.infer<typeof chartXSchema>

export const seriesTransformSchema = z.enum(['none', 'cumulative', 'percent_of_total'])
export type SeriesTransform = z.infer<typeof seriesTransformSchema>
export const seriesCompareSchema = z.enum(['none', 'previous_period', 'previous_year'])
export type SeriesCompare = z.infer<typeof seriesCompareSchema>

const currencyCodeSchema = z
	.string()
	.regex(/^[A-Z]{3}$/, 'Use a three-letter currency code, such as USD.')
	.default('USD')

export const numberFormatStyleSchema = z.enum(['number', 'currency', 'percent'])
export const chartNumberFormatSchema = z.object({
	style: numberFormatStyleSchema.default('number'),
	/** ISO 4217, for `currency`. */
	currency: currencyCodeSchema,
	/** Digits after the decimal point; null lets the value decide (at most 2). */
	decimals: z.number().int().min(0).max(6).nullable().default(null),
	/** 1.2K, 3.4M */
	compact: z.boolean().default(false),
})
export type ChartNumberFormat = z.infer<typeof chartNumberFormatSchema>

/**
 * A series' own format, over the chart's (its decimals and compact setting still apply): a count
 * next to a sum of money reads "12", not "$12.00".
 */
export const seriesNumberFormatSchema = z.object({
	style: numberFormatStyleSchema,
	currency: currencyCodeSchema,
})
export type SeriesNumberFormat = z.infer<typeof seriesNumberFormatSchema>

export const maxSeries = 5

export const chartSeriesSchema = z.object({
	/** Stable across edits; figures and colours are keyed by it. */
	id: z.string().trim().min(1).max(64),
	aggregation: aggregationSchema.default('count'),
	/** What is aggregated: required for everything but `count`; `count_distinct` takes any property. */
	property: propertyRefSchema.nullable().default(null),
	/** The legend name; defaults to e.g. "Sum of Amount". */
	label: z.string().trim().max(100).nullable().default(null),
	transform: seriesTransformSchema.default('none'),
	/**
	 * previous_period: with a date range, the same-length window just before it; otherwise each
	 * date bucket against the one before it. previous_year: the same window or bucket a year earlier.
	 */
	compare: seriesCompareSchema.default('none'),
	/**
	 * Null: the chart's format, except that counts are never money or percents and a percent of
	 * total is always a percent (see `seriesNumberFormat`).
	 */
	numberFormat: seriesNumberFormatSchema.nullable().default(null),
})
export type ChartSeries = z.infer<typeof chartSeriesSchema>

export const chartBreakdownSchema = z.object({
	property: propertyRefSchema,
	/** The largest N values get their own series; the rest are summed as "Other" when `showOther`. */
	topN: z.number().int().min(1).max(50).default(10),
	showOther: z.boolean().default(true),
})
export type ChartBreakdown = z.infer<typeof chartBreakdownSchema>

export const relativeRanges = [
	'all_time',
	'today',
	'last_7_days',
	'last_30_days',
	'last_90_days',
	'last_365_days',
	'this_week',
	'this_month',
	'this_quarter',
	'this_year',
	'last_week',
	'last_month',
	'last_quarter',
	'last_year',
] as const
export const relativeRangeSchema = z.enum(relativeRanges)
export type RelativeRange = z.infer<typeof relativeRangeSchema>

/** Rows whose date falls in a window relative to today in the chart's time zone. */
export const chartDateRangeSchema = z.object({
	property: propertyRefSchema,
	range: relativeRangeSchema.default('all_time'),
})
export type ChartDateRange = z.infer<typeof chartDateRangeSchema>

export const palettes = ['notion', 'default', 'pastel', 'vivid', 'mono', 'warm', 'cool'] as const
export const paletteSchema = z.enum(palettes)

export const chartDisplaySchema = z.object({
	title: z.string().trim().max(200).nullable().default(null),
	palette: paletteSchema.default('notion'),
	xAxisTitle: z.string().trim().max(100).nullable().default(null),
	yAxisTitle: z.string().trim().max(100).nullable().default(null),
	legend: z.enum(['auto', 'top', 'bottom', 'right', 'none']).default('auto'),
	dataLabels: z.boolean().default(false),
	numberFormat: chartNumberFormatSchema.default({ style: 'number', currency: 'USD', decimals: null, compact: false }),
	/** bar: vertical columns or horizontal bars. */
	orientation: z.enum(['vertical', 'horizontal']).default('vertical'),
	/** bar and area with several series: side by side, stacked, or stacked to 100 %. */
	stacking: z.enum(['grouped', 'stacked', 'percent']).default('grouped'),
	/** pie: a ring instead of a disc. */
	donut: z.boolean().default(false),
	/** line and area: smoothed curves. */
	smooth: z.boolean().default(false),
	/** Height of the chart in pixels (the width follows its container). */
	height: z.number().int().min(120).max(2000).default(360),
})
export type ChartDisplay = z.infer<typeof chartDisplaySchema>

export const maxChartFilters = 20

/** An IANA time zone name this runtime knows (browsers and Node share the ICU list). */
function isTimeZone(name: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: name })
		return true
	} catch {
		return false
	}
}

/** How rows become figures, and how those are drawn. */
export const chartConfigSchema = z.object({
	type: chartTypeSchema.default('bar'),
	/** Required for every type but `number`. Scatter reads it as the horizontal value of each row. */
	x: chartXSchema.nullable().default(null),
	series: z
		.array(chartSeriesSchema)
		.min(1, 'Add at least one series.')
		.max(maxSeries, `A chart has at most ${maxSeries} series.`)
		.default([
			{
				id: 's1',
				aggregation: 'count',
				property: null,
				label: null,
				transform: 'none',
				compare: 'none',
				numberFormat: null,
			},
		]),
	/** Group each series by a second property (stacked or grouped bars, several lines, pie slices by x). */
	breakdown: chartBreakdownSchema.nullable().default(null),
	filters: z.array(rowFilterSchema).max(maxChartFilters).default([]),
	dateRange: chartDateRangeSchema.nullable().default(null),
	/** IANA time zone for date buckets and relative ranges. */
	timeZone: z.string().trim().min(1).max(64).refine(isTimeZone, 'Use a time zone such as Europe/Paris.').default('UTC'),
	weekStart: z.enum(['monday', 'sunday']).default('monday'),
	display: chartDisplaySchema.default(chartDisplaySchema.parse({})),
})
export type ChartConfig = z.infer<typeof chartConfigSchema>
export type ChartConfigInput = z.input<typeof chartConfigSchema>

/** How the published chart shows on other pages. */
export const chartEmbedSchema = z.object({
	/** auto follows the viewer's system (and Notion's) light or dark appearance. */
	theme: z.enum(['auto', 'light', 'dark']).default('auto'),
	transparent: z.boolean().default(true),
	/** Reload the figures every N seconds while the page is open; null never. */
	refreshSeconds: z.number().int().min(60).max(86_400).nullable().default(null),
	/** PNG, SVG and CSV downloads on the public page. */
	allowDownloads: z.boolean().default(false),
	showTitle: z.boolean().default(true),
})
export type ChartEmbed = z.infer<typeof chartEmbedSchema>

export const chartProblemSchema = z.object({
	/** The configuration field at fault, e.g. `x.property` or `series.1.property`. */
	field: z.string(),
	message: z.string(),
})
export type ChartProblem = z.infer<typeof chartProblemSchema>

export const chartSchema = z.object({
	id: z.string(),
	name: z.string(),
	tool: workspaceToolSchema,
	workspaceId: z.string(),
	databaseId: z.string(),
	databaseName: z.string(),
	config: chartConfigSchema,
	embed: chartEmbedSchema,
	published: z.boolean(),
	/** Settings that no longer fit the database (a property removed since): the list flags the chart. */
	problems: z.array(chartProblemSchema).default([]),
	createdAt: z.string(),
	updatedAt: z.string(),
})
export type Chart = z.infer<typeof chartSchema>

export const createChartSchema = z.object({
	name: z.string().trim().min(1).max(200),
	databaseId: idSchema,
	/** Defaults to a count of rows by the first useful property. */
	config: chartConfigSchema.optional(),
	/** The creator's time zone, for the default settings' date buckets (UTC when absent). */
	timeZone: z.string().trim().min(1).max(64).refine(isTimeZone, 'Use a time zone such as Europe/Paris.').optional(),
})
export type CreateChart = z.input<typeof createChartSchema>

export const updateChartSchema = z
	.object({
		name: z.string().trim().min(1).max(200),
		config: chartConfigSchema,
		embed: chartEmbedSchema,
		published: z.boolean(),
	})
	.partial()
export type UpdateChart = z.input<typeof updateChartSchema>

// ---- figures ------------------------------------------------------------------------------

/** One x group: a date bucket (key = its start, `YYYY-MM-DD`), a range, an option or a text. */
export const chartCategorySchema = z.object({
	key: z.string(),
	label: z.string(),
})

export const figureSeriesSchema = z.object({
	/** Unique among the figures' series: `<series id>`, `<series id>:<breakdown value>`, `…:compare`. */
	key: z.string(),
	name: z.string(),
	/** The configured series it comes from. */
	seriesId: z.string(),
	/** With a breakdown: the value this series counts (null for rows without one, "Other" is `other`). */
	group: z.string().nullable(),
	isOther: z.boolean(),
	isComparison: z.boolean(),
	/** One per category, in the same order; null where a group has no value (min of nothing). */
	values: z.array(z.number().nullable()),
	/** How its values read (absent: the chart's format). */
	format: chartNumberFormatSchema.optional(),
})
export type FigureSeries = z.infer<typeof figureSeriesSchema>

export const chartFiguresSchema = z.object({
	type: chartTypeSchema,
	/** How x was grouped: by date bucket, numeric range, or value. */
	xKind: z.enum(['date', 'range', 'category', 'none']),
	categories: z.array(chartCategorySchema),
	series: z.array(figureSeriesSchema),
	/** scatter: one point per row (at most `maxScatterPoints`). */
	points: z
		.array(z.object({ x: z.number(), y: z.number(), group: z.string().nullable(), label: z.string() }))
		.optional(),
	/** number: the value, the previous period's and the change as a fraction (0.25 = +25 %). */
	kpi: z
		.object({
			value: z.number().nullable(),
			previous: z.number().nullable(),
			change: z.number().nullable(),
			currentLabel: z.string(),
			previousLabel: z.string().nullable(),
		})
		.optional(),
	/** Rows that passed the filters. */
	rowCount: z.number().int(),
	/** Groups or points were cut by a limit. */
	isTruncated: z.boolean(),
	/** A setting refers to something that is gone: say which, and how to fix it; no figures then. */
	problems: z.array(chartProblemSchema),
	computedAt: z.string(),
})
export type ChartFigures = z.infer<typeof chartFiguresSchema>

export const maxScatterPoints = 2000

/** The builder's live preview: figures and the drawing of settings not yet saved. */
export const chartPreviewSchema = z.object({
	databaseId: idSchema,
	config: chartConfigSchema,
	width: z.number().int().min(120).max(4000).default(800),
	theme: z.enum(['light', 'dark']).default('light'),
})
export type ChartPreviewRequest = z.input<typeof chartPreviewSchema>

export const chartRenderSchema = z.object({
	figures: chartFiguresSchema,
	/** The chart drawn as SVG (no scripts); empty for `table` and when there are problems. */
	svg: z.string(),
})
export type ChartRender = z.infer<typeof chartRenderSchema>

// ---- the public side ----------------------------------------------------------------------

/** What a published chart exposes: its drawing settings and computed figures, never rows. */
export const publicChartSchema = z.object({
	id: z.string(),
	name: z.string(),
	type: chartTypeSchema,
	display: chartDisplaySchema,
	embed: chartEmbedSchema,
	figures: chartFiguresSchema,
	/** The chart drawn for the asked width and theme (the page has it in its HTML already). */
	svg: z.string(),
	/** When the database was last synced (Notion) or edited (local): how fresh the figures are. */
	dataUpdatedAt: z.string().nullable(),
})
export type PublicChart = z.infer<typeof publicChartSchema>

export const publicChartQuerySchema = z.object({
	theme: z.enum(['auto', 'light', 'dark']).optional(),
	width: z.coerce.number().int().min(120).max(4000).optional(),
})

// ---- dashboards ---------------------------------------------------------------------------

export const dashboardColumns = 12
export const maxDashboardTiles = 24

/** A chart's place on a dashboard's 12-column grid; rows are `dashboardRowHeight` pixels. */
export const dashboardTileSchema = z.object({
	chartId: idSchema,
	x: z
		.number()
		.int()
		.min(0)
		.max(dashboardColumns - 1),
	y: z.number().int().min(0).max(1000),
	w: z.number().int().min(1).max(dashboardColumns),
	h: z.number().int().min(2).max(40),
})
export type DashboardTile = z.infer<typeof dashboardTileSchema>
export const dashboardRowHeight = 40

export const dashboardEmbedSchema = chartEmbedSchema.omit({ allowDownloads: true })
export type DashboardEmbed = z.infer<typeof dashboardEmbedSchema>

export const dashboardSchema = z.object({
	id: z.string(),
	name: z.string(),
	description: z.string().nullable(),
	tiles: z.array(dashboardTileSchema),
	embed: dashboardEmbedSchema,
	published: z.boolean(),
	createdAt: z.string(),
	updatedAt: z.string(),
})
export type Dashboard = z.infer<typeof dashboardSchema>

export const createDashboardSchema = z.object({
	name: z.string().trim().min(1).max(200),
	/** Charts to start with, placed two to a row. */
	chartIds: z.array(idSchema).max(maxDashboardTiles).default([]),
})
export type CreateDashboard = z.input<typeof createDashboardSchema>

export const updateDashboardSchema = z
	.object({
		name: z.string().trim().min(1).max(200),
		description: z.string().trim().max(1000).nullable(),
		tiles: z
			.array(dashboardTileSchema)
			.max(maxDashboardTiles, `A dashboard has at most ${maxDashboardTiles} charts.`)
			.refine((tiles) => tiles.every((tile) => tile.x + tile.w <= dashboardColumns), {
				message: `Tiles must fit in ${dashboardColumns} columns.`,
			}),
		embed: dashboardEmbedSchema,
		published: z.boolean(),
	})
	.partial()
export type UpdateDashboard = z.input<typeof updateDashboardSchema>

/** A published dashboard: each tile's chart as a published chart shows it (figures, never rows). */
export const publicDashboardSchema = z.object({
	id: z.string(),
	name: z.string(),
	description: z.string().nullable(),
	embed: dashboardEmbedSchema,
	tiles: z.array(
		dashboardTileSchema.extend({
			/** Null when the chart was deleted since it was placed. */
			chart: publicChartSchema.nullable(),
		}),
	),
})
export type PublicDashboard = z.infer<typeof publicDashboardSchema>
