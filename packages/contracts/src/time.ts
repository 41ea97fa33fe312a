import { z } from 'zod'
import { idSchema } from './common.ts'
import { workspaceToolSchema } from './workspaces.ts'

// Time tracking: which workspace database holds time entries and how its properties map to an
// entry (the time, who, for which project and client, what), and the timer that writes rows
// into it through the write queue. Entries stay rows of the team's own database.

/** A property of the time database, by id. */
const propertyRefSchema = z.string().min(1).max(200)

/**
 * What each field of an entry is stored in. The time is `start` and `end` (two date properties,
 * or the same one holding a range), or `start` and a `duration` number. `task` and
 * `description` may share the title. `client` is a property of the entry, or (`through:
 * 'project'`) of the project's row the entry's project relation points at.
 */
export const timeMappingSchema = z.object({
	start: propertyRefSchema.nullable().default(null),
	end: propertyRefSchema.nullable().default(null),
	duration: propertyRefSchema.nullable().default(null),
	/** What one unit of the duration number is. */
	durationUnit: z.enum(['hours', 'minutes']).default('hours'),
	person: propertyRefSchema.nullable().default(null),
	project: propertyRefSchema.nullable().default(null),
	client: z
		.object({ propertyId: propertyRefSchema, through: z.enum(['entry', 'project']).default('entry') })
		.nullable()
		.default(null),
	task: propertyRefSchema.nullable().default(null),
	tags: propertyRefSchema.nullable().default(null),
	billable: propertyRefSchema.nullable().default(null),
	description: propertyRefSchema.nullable().default(null),
})
export type TimeMapping = z.infer<typeof timeMappingSchema>

export const timeFieldSchema = z.enum([
	'start',
	'end',
	'duration',
	'person',
	'project',
	'client',
	'task',
	'tags',
	'billable',
	'description',
])
export type TimeField = z.infer<typeof timeFieldSchema>

/** One field of a mapping as checked: mapped to a property, or missing and why it matters. */
export const timeFieldCheckSchema = z.object({
	field: timeFieldSchema,
	propertyId: z.string().nullable(),
	/** The property's name (for `client` through the project: "Project → Client"). */
	propertyName: z.string().nullable(),
	isMapped: z.boolean(),
	/** A timer cannot run without it (the time and the person). */
	isRequired: z.boolean(),
	/** For a missing field: what to add to the database, or what is lost without it. */
	message: z.string().nullable(),
})
export type TimeFieldCheck = z.infer<typeof timeFieldCheckSchema>

export const timeMappingReviewSchema = z.object({
	mapping: timeMappingSchema,
	fields: z.array(timeFieldCheckSchema),
	/** Every required field is mapped: entries can be tracked into the database. */
	isComplete: z.boolean(),
})
export type TimeMappingReview = z.infer<typeof timeMappingReviewSchema>

/** A database that can hold time entries (it has a date or a number), with its saved and suggested mappings. */
export const timeDatabaseSchema = z.object({
	/** The workspace database's id. */
	id: z.string(),
	workspaceId: z.string(),
	tool: workspaceToolSchema,
	name: z.string(),
	icon: z.string().nullable(),
	/** The saved mapping, checked against the database as it is now; null until one is saved. */
	saved: timeMappingReviewSchema.nullable(),
	/** Guessed from the properties' names and types. */
	suggested: timeMappingReviewSchema,
	updatedAt: z.iso.datetime().nullable(),
})
export type TimeDatabase = z.infer<typeof timeDatabaseSchema>

export const saveTimeMappingSchema = z.object({ mapping: timeMappingSchema })
export type SaveTimeMapping = z.input<typeof saveTimeMappingSchema>

/** A new, well-formed time entries database in a built-in workspace (its mapping saved). */
export const createTimeDatabaseSchema = z.object({
	workspaceId: idSchema,
	name: z.string().trim().min(1).max(200).default('Time entries'),
	/** A database of the same workspace the Project relation points at; none: a Project select. */
	projectsDatabaseId: idSchema.nullable().default(null),
})
export type CreateTimeDatabase = z.input<typeof createTimeDatabaseSchema>

// ---- entries and the timer ---------------------------------------------------------------

/** What an entry says besides its time; each is written only where the mapping has a property. */
const entryDetailsShape = {
	description: z.string().trim().max(2000).nullable().default(null),
	/** A row id of the projects database (relation), or an option name (select). */
	project: z.string().min(1).max(200).nullable().default(null),
	task: z.string().trim().max(2000).nullable().default(null),
	tags: z.array(z.string().min(1).max(100)).max(100).default([]),
	billable: z.boolean().nullable().default(null),
}

export const startTimerSchema = z.object({ databaseId: idSchema, ...entryDetailsShape })
export type StartTimer = z.input<typeof startTimerSchema>

/** At most this long for one entry: a timer forgotten over a week is a mistake to fix, not time. */
export const maxEntrySeconds = 7 * 24 * 3600

/**
 * A manual entry: its start, and its end or its duration (in seconds, or as typed). `startedAt` and `endedAt` are
 * instants with an offset; the person's time zone is applied by the client.
 */
export const createEntrySchema = z.object({
	databaseId: idSchema,
	startedAt: z.iso.datetime({ offset: true }),
	endedAt: z.iso.datetime({ offset: true }).nullable().default(null),
	durationSeconds: z.number().int().min(0).max(maxEntrySeconds).nullable().default(null),
	/** Or the duration as typed: `1:30`, `1.5h`, `90m` (time-duration.ts). */
	duration: z.string().trim().max(40).nullable().default(null),
	...entryDetailsShape,
})
export type CreateEntry = z.input<typeof createEntrySchema>

/** Changes to an entry: only what is given changes; a running entry's end comes from stopping it. */
export const updateEntrySchema = z.object({
	startedAt: z.iso.datetime({ offset: true }).optional(),
	endedAt: z.iso.datetime({ offset: true }).optional(),
	description: entryDetailsShape.description.unwrap().unwrap().nullable().optional(),
	project: entryDetailsShape.project.unwrap().unwrap().nullable().optional(),
	task: entryDetailsShape.task.unwrap().unwrap().nullable().optional(),
	tags: entryDetailsShape.tags.unwrap().optional(),
	billable: z.boolean().nullable().optional(),
})
export type UpdateEntry = z.input<typeof updateEntrySchema>

export const listEntriesQuerySchema = z.object({
	databaseId: idSchema.optional(),
	limit: z.coerce.number().int().min(1).max(200).default(50),
})

/** Where an entry's row stands in the write queue: its last write's state. */
export const entryDeliverySchema = z.enum(['pending', 'delivered', 'failed', 'dead'])

export const timeEntrySchema = z.object({
	id: z.string(),
	databaseId: z.string(),
	/** Who tracked it; null once they deleted their account (their entries stay the team's hours). */
	userId: z.string().nullable(),
	startedAt: z.iso.datetime(),
	/** Null while the timer runs. */
	endedAt: z.iso.datetime().nullable(),
	isRunning: z.boolean(),
	description: z.string().nullable(),
	project: z.string().nullable(),
	task: z.string().nullable(),
	tags: z.array(z.string()),
	billable: z.boolean().nullable(),
	/** The workspace row, once its create is delivered. */
	rowId: z.string().nullable(),
	delivery: entryDeliverySchema,
})
export type TimeEntry = z.infer<typeof timeEntrySchema>

/** The caller's running timer in this tool's databases, or null: read again on every load, tab and device. */
export const currentTimerSchema = z.object({ entry: timeEntrySchema.nullable() })
export type CurrentTimer = z.infer<typeof currentTimerSchema>

/** The caller's running timer in any tool's databases (one per person per organization), for the app's header. */
export const anyTimerSchema = z.object({
	entry: timeEntrySchema.nullable(),
	/** The tool of the entry's database, to reach it under /dashboard/{tool}_time. */
	tool: workspaceToolSchema.nullable(),
	/** The entry's database name and the project's name, to show without another read. */
	databaseName: z.string().nullable(),
	projectName: z.string().nullable(),
})
export type AnyTimer = z.infer<typeof anyTimerSchema>

/**
 * How long a deleted entry can be restored with "Undo" from the toast. The row's delete is a
 * write like any other (delivered after the entry's earlier writes); undo is a restore write
 * after it, so it works whether or not the delete was delivered yet.
 */
export const entryUndoSeconds = 30

// ---- weekly timesheet ------------------------------------------------------------------------

const isoDateSchema = z.iso.date()

/** An IANA time zone name this runtime knows (browsers and Node share the ICU list). */
export function isKnownTimeZone(name: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: name })
		return true
	} catch {
		return false
	}
}

export const timeZoneSchema = z
	.string()
	.trim()
	.min(1)
	.max(64)
	.refine(isKnownTimeZone, 'Use a time zone such as Europe/Paris.')

export const timesheetQuerySchema = z.object({
	databaseId: idSchema,
	/** Any day of the week to show; its week starts on `weekStart` (0 Sunday … 6 Saturday, Monday by default). */
	date: isoDateSchema,
	weekStart: z.coerce.number().int().min(0).max(6).default(1),
	/** The person's time zone: which local day each second belongs to. */
	timeZone: timeZoneSchema.default('UTC'),
})
export type TimesheetQuery = z.input<typeof timesheetQuerySchema>

/** One row of the week: a project and task, with the caller's seconds per day. */
export const timesheetRowSchema = z.object({
	/** Stable within the week: the project and task it holds. */
	key: z.string(),
	/** As entries carry it: a projects row id (relation) or an option name (select); null: no project. */
	project: z.string().nullable(),
	projectName: z.string().nullable(),
	task: z.string().nullable(),
	/** Seconds per day, in the order of `days`. A running entry counts up to now. */
	seconds: z.array(z.number().int().min(0)),
	/** Per day, how many entries make up the cell (a cell of several can only grow from the grid). */
	entries: z.array(z.number().int().min(0)),
	total: z.number().int().min(0),
})
export type TimesheetRow = z.infer<typeof timesheetRowSchema>

export const timesheetSchema = z.object({
	databaseId: z.string(),
	timeZone: z.string(),
	/** The seven local dates of the week, first day first. */
	days: z.array(isoDateSchema),
	rows: z.array(timesheetRowSchema),
	dayTotals: z.array(z.number().int().min(0)),
	total: z.number().int().min(0),
	/** Pairs of the caller's entries this week that overlap (each counted in full). */
	overlaps: z.number().int().min(0),
})
export type Timesheet = z.infer<typeof timesheetSchema>

/**
 * Sets one cell (a project/task on a local day) to a total: an empty cell gets an entry of that
 * length, a cell of one entry made here changes it, zero deletes it; a cell of several entries
 * can only grow (an entry for the difference is added), shrinking it is a 409 (edit its entries).
 */
export const setTimesheetCellSchema = z.object({
	databaseId: idSchema,
	date: isoDateSchema,
	timeZone: timeZoneSchema,
	/** The week answered with the change: the one holding `date`, starting on this weekday (as the grid shows it). */
	weekStart: z.number().int().min(0).max(6).default(1),
	project: z.string().min(1).max(200).nullable().default(null),
	task: z.string().trim().max(2000).nullable().default(null),
	/** As typed: `1:30`, `1.5h`, `90m`; empty or `0` clears the cell. Or `seconds`. */
	duration: z.string().trim().max(40).nullable().default(null),
	seconds: z
		.number()
		.int()
		.min(0)
		.max(24 * 3600)
		.nullable()
		.default(null),
})
export type SetTimesheetCell = z.input<typeof setTimesheetCellSchema>
