import { z } from 'zod'
import { idSchema } from './common.ts'
import { timeZoneSchema } from './time.ts'

// Time reports: rates and rounding, saved views (filters over a time database's entries), their
// analytics and daily, weekly and monthly series, exports, read-only shared links, and the
// hand-off of unbilled time to invoices. Reports read the database's rows (the mirror for
// Notion), so entries typed in the workspace directly count too; nothing here changes a row.

// ---- rates ---------------------------------------------------------------------------------

/** An ISO 4217 code this runtime can format ("EUR", "JPY", "BHD"). */
export const currencySchema = z
	.string()
	.trim()
	.toUpperCase()
	.regex(/^[A-Z]{3}$/, 'Use a three-letter currency code such as EUR.')
	.refine((code) => {
		try {
			new Intl.NumberFormat('en', { style: 'currency', currency: code })
			return true
		} catch {
			return false
		}
	}, 'Use a three-letter currency code such as EUR.')

/** A rate per hour in the currency's minor units (12050 is 120.50 EUR/h; 5000 is 5000 JPY/h). */
const rateSchema = z.number().int().min(0).max(100_000_000)

/**
 * Billable rates of one time database. The rate of an entry is its project's (ours, else read
 * from `projectRateProperty`, a number on the projects database, in major units), else its
 * person's, else the default. Only billable entries earn an amount.
 */
export const timeRatesSchema = z.object({
	currency: currencySchema.default('EUR'),
	defaultRate: rateSchema.nullable().default(null),
	/** A number property of the projects database holding each project's rate per hour. */
	projectRateProperty: z.string().min(1).max(200).nullable().default(null),
	projects: z
		.array(z.object({ project: z.string().min(1).max(200), rate: rateSchema }))
		.max(1000)
		.default([]),
	/** By member (user id): the person of an entry is matched to the member. */
	members: z
		.array(z.object({ userId: idSchema, rate: rateSchema }))
		.max(1000)
		.default([]),
})
export type TimeRates = z.infer<typeof timeRatesSchema>
export type TimeRatesInput = z.input<typeof timeRatesSchema>

// ---- rounding ------------------------------------------------------------------------------

export const roundingSchema = z.object({
	mode: z.enum(['up', 'down', 'nearest']),
	minutes: z.union([z.literal(1), z.literal(5), z.literal(6), z.literal(10), z.literal(15), z.literal(30)]),
	/**
	 * entry: each entry's seconds on each local day are rounded, then summed (an entry crossing
	 * midnight counts as one per day); total: each figure's sum is rounded once.
	 */
	scope: z.enum(['entry', 'total']).default('entry'),
})
export type ReportRounding = z.infer<typeof roundingSchema>

// ---- views -----------------------------------------------------------------------------------

export const relativeRangeSchema = z.enum([
	'today',
	'yesterday',
	'this_week',
	'last_week',
	'this_month',
	'last_month',
	'this_quarter',
	'last_quarter',
	'this_year',
	'last_year',
	'last_7_days',
	'last_30_days',
	'last_90_days',
	'all_time',
])
export type RelativeRange = z.infer<typeof relativeRangeSchema>

export const timeRangeSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('relative'), preset: relativeRangeSchema }),
	/** Local dates, both included. */
	z
		.object({ kind: z.literal('fixed'), from: z.iso.date(), to: z.iso.date() })
		.refine((range) => range.from <= range.to, { message: 'The range ends before it starts.', path: ['to'] }),
])
export type TimeRange = z.infer<typeof timeRangeSchema>

export const timeGroupSchema = z.enum(['project', 'person', 'client', 'task', 'tag', 'billable'])
export type TimeGroup = z.infer<typeof timeGroupSchema>

const filterValues = z.array(z.string().min(1).max(200)).max(200).default([])

/** What a view shows: a range of local days and filters; an empty list filters nothing. */
export const timeViewSettingsSchema = z.object({
	range: timeRangeSchema.default({ kind: 'relative', preset: 'this_week' }),
	/** Person values as the database stores them (member ids in a built-in workspace, Notion user ids). */
	people: filterValues,
	/** Project keys as analytics name them. `none` matches entries without a project. */
	projects: filterValues,
	clients: filterValues,
	tags: filterValues,
	billable: z.enum(['all', 'billable', 'non_billable']).default('all'),
	rounding: roundingSchema.nullable().default(null),
	/** The zone whose local days the range and series are counted in. */
	timeZone: timeZoneSchema.default('UTC'),
	/** 0 Sunday … 6 Saturday; 1 (Monday) gives ISO weeks. */
	weekStart: z.number().int().min(0).max(6).default(1),
	/** The grouping the report page shows first, and the series' breakdown. */
	groupBy: timeGroupSchema.default('project'),
})
export type TimeViewSettings = z.infer<typeof timeViewSettingsSchema>
export type TimeViewSettingsInput = z.input<typeof timeViewSettingsSchema>

export const timeViewSchema = z.object({
	id: z.string(),
	databaseId: z.string(),
	databaseName: z.string(),
	name: z.string(),
	settings: timeViewSettingsSchema,
	createdAt: z.string(),
	updatedAt: z.string(),
})
export type TimeView = z.infer<typeof timeViewSchema>

export const createTimeViewSchema = z.object({
	databaseId: idSchema,
	name: z.string().trim().min(1).max(200),
	settings: timeViewSettingsSchema.default(timeViewSettingsSchema.parse({})),
})
export type CreateTimeView = z.input<typeof createTimeViewSchema>

export const updateTimeViewSchema = z
	.object({ name: z.string().trim().min(1).max(200), settings: timeViewSettingsSchema })
	.partial()
export type UpdateTimeView = z.input<typeof updateTimeViewSchema>

// ---- analytics and series ------------------------------------------------------------------

/** Seconds (rounded as the view says), of them billable, and what the billable ones earn. */
const figuresShape = {
	seconds: z.number().int().min(0),
	billableSeconds: z.number().int().min(0),
	/** Minor units of the rates' currency; null when no rate applies to any billable entry. */
	amount: z.number().int().min(0).nullable(),
	entries: z.number().int().min(0),
}

export const timeGroupFiguresSchema = z.object({
	/** Stable key: a project's row id or option, a person id, a tag, `none` for entries without one. */
	key: z.string(),
	label: z.string(),
	...figuresShape,
})
export type TimeGroupFigures = z.infer<typeof timeGroupFiguresSchema>

export const timeAnalyticsSchema = z.object({
	viewId: z.string().nullable(),
	/** The local dates counted, both included (null for all time). */
	from: z.iso.date().nullable(),
	to: z.iso.date().nullable(),
	timeZone: z.string(),
	currency: z.string(),
	rounding: roundingSchema.nullable(),
	totals: z.object(figuresShape),
	groups: z.object({
		project: z.array(timeGroupFiguresSchema),
		person: z.array(timeGroupFiguresSchema),
		client: z.array(timeGroupFiguresSchema),
		task: z.array(timeGroupFiguresSchema),
		/** An entry with several tags counts in each of them. */
		tag: z.array(timeGroupFiguresSchema),
	}),
	/** Entries still running, counted up to `generatedAt`. */
	running: z.number().int().min(0),
	/** Pairs of one person's entries in the range that overlap. */
	overlaps: z.number().int().min(0),
	generatedAt: z.iso.datetime(),
})
export type TimeAnalytics = z.infer<typeof timeAnalyticsSchema>

export const timeSeriesQuerySchema = z.object({
	/** Split each bucket by this grouping (stacked charts); none: totals only. */
	breakdown: timeGroupSchema.optional(),
})

export const timeSeriesSchema = z.object({
	interval: z.enum(['day', 'week', 'month']),
	timeZone: z.string(),
	currency: z.string(),
	/**
	 * Every bucket of the range, empty ones too, oldest first. Keys: days "YYYY-MM-DD", ISO weeks
	 * "IYYY-Www" (week start Monday) or the week's first day "YYYY-MM-DD" (other week starts),
	 * months "YYYY-MM".
	 */
	buckets: z.array(z.object({ key: z.string(), label: z.string(), ...figuresShape })),
	/** With a breakdown: each group's seconds per bucket, in the order of `buckets`. */
	breakdown: z
		.array(z.object({ key: z.string(), label: z.string(), seconds: z.array(z.number().int().min(0)) }))
		.nullable(),
	generatedAt: z.iso.datetime(),
})
export type TimeSeries = z.infer<typeof timeSeriesSchema>

// ---- exports and shared links --------------------------------------------------------------

export const timeExportQuerySchema = z.object({
	format: z.enum(['csv', 'xlsx', 'pdf']),
	/** entries: one line per entry and day; summary: the figures by the view's grouping. */
	detail: z.enum(['entries', 'summary']).default('entries'),
})

export const createTimeShareSchema = z.object({
	/** When the link stops working; null: until revoked. */
	expiresAt: z.iso.datetime({ offset: true }).nullable().default(null),
})
export type CreateTimeShare = z.input<typeof createTimeShareSchema>

export const timeShareSchema = z.object({
	id: z.string(),
	viewId: z.string(),
	/** The public page; its token is shown only when the link is created. */
	url: z.string().nullable(),
	expiresAt: z.string().nullable(),
	revokedAt: z.string().nullable(),
	lastOpenedAt: z.string().nullable(),
	createdAt: z.string(),
})
export type TimeShare = z.infer<typeof timeShareSchema>

/** What a signed-out visitor of a shared link reads: the view's figures, never its filters' ids or rows. */
export const sharedTimeReportSchema = z.object({
	name: z.string(),
	analytics: timeAnalyticsSchema.omit({ viewId: true }),
	series: timeSeriesSchema,
	expiresAt: z.string().nullable(),
})
export type SharedTimeReport = z.infer<typeof sharedTimeReportSchema>

// ---- hand-off to invoices ------------------------------------------------------------------

export const unbilledQuerySchema = z.object({ groupBy: z.enum(['project', 'task']).default('project') })

/** A line an invoice can be made of: the view's unbilled billable entries of one project or task. */
export const unbilledLineSchema = z.object({
	key: z.string(),
	description: z.string(),
	/** Rounded as the view says. */
	seconds: z.number().int().min(0),
	/** Per hour, minor units; null when no rate applies. */
	rate: z.number().int().min(0).nullable(),
	amount: z.number().int().min(0).nullable(),
	/** The rows the line bills (ids of the database's rows). */
	rowIds: z.array(z.string()),
})
export type UnbilledLine = z.infer<typeof unbilledLineSchema>

export const unbilledTimeSchema = z.object({
	viewId: z.string(),
	currency: z.string(),
	lines: z.array(unbilledLineSchema),
	total: z.object({ seconds: z.number().int().min(0), amount: z.number().int().min(0).nullable() }),
})
export type UnbilledTime = z.infer<typeof unbilledTimeSchema>
