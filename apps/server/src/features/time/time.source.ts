// The entry source: how reports, the timesheet and exports read a time database's entries. The
// database's rows (workspace_rows: the store for a built-in database, the mirror for Notion) are
// read through the saved mapping, so rows typed in the workspace directly count too; our own
// entries (time_entries) stand in for their row while the row is not yet what we hold:
// - every row of the database counts, except the row of an entry of ours (joined through its
//   create write's external_row_id) that is running, deleted, or whose last write is not
//   delivered yet;
// - those entries of ours (not deleted) count instead, read from our record;
// - a running entry (ours, ended_at null) counts up to `now` (not at all if it starts later).
//
// Reading a row's time (decision 030):
// - start: the start property's date (its `start`); end: the end property's date (the range's
//   `end` when start and end are one property, else the end property's `start`); duration: the
//   number property, in hours or minutes (`durationUnit`), rounded to whole seconds.
// - A date-time carries its offset in the mirror and is that instant. A bare date ("2026-03-01")
//   names no instant: it is the day's first instant in the zone the entries are read in
//   (`target.timeZone`, the report's zone; UTC when none), so a row dated March 1 lands on March 1
//   in any report. A date-time without an offset (never written by us or Notion) is read as local
//   time in that zone too.
// - end: a date-time end is the end. Else the duration, added to the start (so "March 1, 3 h"
//   is 00:00–03:00 that day). Else a bare end date: through the end of that day (dates in a range
//   are inclusive, as the workspace shows them). A row with none of these covers nothing and is
//   not counted; nor is a row that ends before it starts.
// - Instants are floored to whole seconds (time.days.ts).
// - Relations hold external ids: the project (and a client, a task) is the related row's
//   workspace_rows.id, named by its title; a select is its option's name. The person is the
//   first person as stored (member id, or Notion user id); for our entries, person_ref (the
//   member's id when a built-in database's entry has none).

import type { TimeMapping } from '@blocksmith/contracts/time.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { type SQL, sql } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import type { TimeCtx, TimeDeps } from './time.deps.ts'
import { findTimeDatabase } from './time.service.ts'

export type SourceTarget = {
	orgId: string
	databaseId: string
	tool: WorkspaceTool
	mapping: TimeMapping
	properties: Property[]
	/** Properties of the database the project relation points at (for a client through the project). */
	projectProperties: Property[]
	/** The zone a bare date's day starts in (the report's); UTC when none. */
	timeZone?: string
}

export type SourceEntry = {
	/** 'row:<workspace_rows.id>' or 'entry:<time_entries.id>' */
	key: string
	/** time_entries.id when the row is an entry tracked here (also for delivered ones) */
	entryId: string | null
	/** workspace_rows.id when the row is in the mirror */
	rowId: string | null
	externalRowId: string | null
	start: Date
	/** null while running (count up to now) */
	end: Date | null
	/** As the row stores it (member id / Notion user id); for our pending entries: person_ref */
	person: string | null
	/** relation: the project row's workspace_rows.id; select: the option name */
	project: string | null
	projectName: string | null
	client: string | null
	clientName: string | null
	/** relation: the task row's workspace_rows.id; otherwise the text or option */
	task: string | null
	taskName: string | null
	tags: string[]
	billable: boolean | null
	description: string | null
}

/** The saved mapping of a database as a source; 404 for another organization's or tool's, 400 naming databaseId when not mapped. */
export async function sourceTargetOf(ctx: TimeCtx, tool: WorkspaceTool, databaseId: string): Promise<SourceTarget> {
	const { database, saved, all } = await findTimeDatabase(ctx, tool, databaseId)
	if (!saved) {
		const message = 'Choose a database whose properties are mapped for time tracking.'
		throw new AppError('VALIDATION_FAILED', { detail: message, errors: [{ field: 'databaseId', message }] })
	}
	const project = saved.mapping.project
		? database.properties.find((property) => property.id === saved.mapping.project)
		: undefined
	const related = project?.relationDatabaseId
		? all.find((record) => record.id === project.relationDatabaseId)
		: undefined
	return {
		orgId: ctx.orgId,
		databaseId: database.id,
		tool,
		mapping: saved.mapping,
		properties: database.properties,
		projectProperties: related?.properties ?? [],
	}
}

/**
 * The instant a stored date text names (a bare date: its day's first instant in `zone`), to the
 * second; null for anything else. Stored dates are only `YYYY-MM-DD` or an ISO date-time with
 * its offset: Notion writes no other, and values.ts refuses any other on our writes. So the
 * length and a LIKE tell them apart: the regexes this used cost PGlite a third of a report.
 */
function instantSql(text: SQL, zone: string): SQL {
	return sql`date_trunc('second', case
		when ${text} like '____-__-__T%' then (${text})::timestamptz
		when length(${text}) = 10 then ((${text})::date::timestamp at time zone ${zone})
	end)`
}

/** A JSON value's text when it is a string (an option name, a text, an id), else null. */
function stringSql(raw: SQL): SQL {
	return sql`nullif(case when jsonb_typeof(${raw}) = 'string' then ${raw} #>> '{}' end, '')`
}

/** The first id of a list value (people, relation), or null. */
function firstSql(raw: SQL): SQL {
	return sql`nullif(case when jsonb_typeof(${raw}) = 'array' then ${raw} ->> 0 end, '')`
}

type Related = { kind: 'relation'; databaseId: string | null } | { kind: 'text' }

function relatedOf(property: Property | undefined): Related | null {
	if (!property) {
		return null
	}
	return property.type === 'relation'
		? { kind: 'relation', databaseId: property.relationDatabaseId ?? null }
		: { kind: 'text' }
}

/** A join reading a related row under `alias` (its id, title and values; nulls when it is not in the mirror). */
type Join = (alias: string) => SQL

/** The related row by external id: a plain join, so the planner can hash the (few) related rows once. */
function relatedRowSql(orgId: string, databaseId: string | null, externalId: SQL): Join {
	return (alias) => {
		const a = sql.raw(alias)
		return sql`left join workspace_rows ${a} on ${a}.organization_id = ${orgId} and ${a}.database_id = ${databaseId}
			and ${a}.external_id = ${externalId}`
	}
}

/** The same by our id (an entry of ours names its project by workspace_rows.id). */
function relatedRowByIdSql(orgId: string, databaseId: string | null, id: SQL): Join {
	return (alias) => {
		const a = sql.raw(alias)
		return sql`left join workspace_rows ${a} on ${a}.organization_id = ${orgId} and ${a}.database_id = ${databaseId}
			and ${a}.id = ${id}`
	}
}

const none: Join = (alias) =>
	sql`left join (select null::text as id, null::text as title, null::jsonb as "values") ${sql.raw(alias)} on true`

/** The columns of the source, in order (both branches of the union give them so). */
const columns = sql`key, entry_id, row_id, external_row_id, start_at, end_at, is_running, person, project, project_name,
	client, client_name, task, task_name, tags, billable, description`

/** What the mapping reads, looked up once. */
function fieldsOf(target: SourceTarget) {
	const byId = new Map(target.properties.map((property) => [property.id, property]))
	const { mapping } = target
	const project = relatedOf(mapping.project ? byId.get(mapping.project) : undefined)
	const clientThroughProject = mapping.client?.through === 'project' && project?.kind === 'relation'
	const clientProperty = mapping.client
		? (clientThroughProject ? target.projectProperties : target.properties).find(
				(property) => property.id === mapping.client?.propertyId,
			)
		: undefined
	return {
		project,
		client: relatedOf(clientProperty),
		clientThroughProject,
		task: relatedOf(mapping.task ? byId.get(mapping.task) : undefined),
		taskSharesTitle: Boolean(mapping.task && mapping.task === mapping.description),
	}
}

/** The rows of the database, but those an entry of ours stands in for. */
function rowsSql(target: SourceTarget, zone: string): SQL {
	const { mapping, orgId } = target
	const fields = fieldsOf(target)
	const value = (id: string | null) => (id ? sql`(r.values -> ${id})` : sql`null::jsonb`)
	const startText = mapping.start ? sql`(${value(mapping.start)} ->> 'start')` : sql`null::text`
	const endText = !mapping.end
		? sql`null::text`
		: mapping.end === mapping.start
			? sql`(${value(mapping.end)} ->> 'end')`
			: sql`(${value(mapping.end)} ->> 'start')`
	const durationRaw = value(mapping.duration)
	const perUnit = mapping.durationUnit === 'minutes' ? 60 : 3600
	const durationSeconds = mapping.duration
		? sql`(case when jsonb_typeof(${durationRaw}) = 'number' and (${durationRaw})::text::numeric between 0 and 1000000
				then round((${durationRaw})::text::numeric * ${perUnit})::bigint end)`
		: sql`null::bigint`
	const start = instantSql(startText, zone)
	// A date-time end wins, then a duration, then a bare end date (through the end of that day).
	const end = sql`(case
		when ${endText} like '____-__-__T%' then date_trunc('second', (${endText})::timestamptz)
		when ${durationSeconds} is not null then ${start} + ${durationSeconds} * interval '1 second'
		when length(${endText}) = 10 then date_trunc('second', (((${endText})::date + 1)::timestamp at time zone ${zone}))
	end)`
	const projectRaw = value(mapping.project)
	const projectJoin =
		fields.project?.kind === 'relation' ? relatedRowSql(orgId, fields.project.databaseId, firstSql(projectRaw)) : none
	const project =
		fields.project?.kind === 'relation'
			? sql`coalesce(p.id, ${firstSql(projectRaw)})`
			: fields.project
				? stringSql(projectRaw)
				: sql`null::text`
	const projectName = fields.project?.kind === 'relation' ? sql`p.title` : project
	const clientRaw = fields.clientThroughProject
		? sql`(p.values -> ${mapping.client?.propertyId ?? ''})`
		: value(mapping.client?.propertyId ?? null)
	const clientJoin =
		fields.client?.kind === 'relation' ? relatedRowSql(orgId, fields.client.databaseId, firstSql(clientRaw)) : none
	const client =
		fields.client?.kind === 'relation'
			? sql`coalesce(c.id, ${firstSql(clientRaw)})`
			: fields.client
				? stringSql(clientRaw)
				: sql`null::text`
	const clientName = fields.client?.kind === 'relation' ? sql`c.title` : client
	const taskRaw = value(mapping.task)
	const taskJoin =
		fields.task?.kind === 'relation' ? relatedRowSql(orgId, fields.task.databaseId, firstSql(taskRaw)) : none
	const task =
		fields.task?.kind === 'relation'
			? sql`coalesce(tk.id, ${firstSql(taskRaw)})`
			: fields.task
				? stringSql(taskRaw)
				: sql`null::text`
	const taskName = fields.task?.kind === 'relation' ? sql`tk.title` : task
	const tagsRaw = value(mapping.tags)
	const tags = mapping.tags
		? sql`(case when jsonb_typeof(${tagsRaw}) = 'array' then array(select jsonb_array_elements_text(${tagsRaw})) else '{}'::text[] end)`
		: sql`'{}'::text[]`
	const billable = mapping.billable
		? sql`(case when jsonb_typeof(${value(mapping.billable)}) = 'boolean' then (${value(mapping.billable)})::text::boolean end)`
		: sql`null::boolean`
	const description = mapping.description ? stringSql(value(mapping.description)) : sql`null::text`
	const person = mapping.person ? firstSql(value(mapping.person)) : sql`null::text`
	return sql`select ${columns} from (
		select 'row:' || r.id as key, o.id as entry_id, r.id as row_id, r.external_id as external_row_id,
			${start} as start_at, ${end} as end_at, false as is_running, ${person} as person,
			${project} as project, ${projectName} as project_name, ${client} as client, ${clientName} as client_name,
			${task} as task, ${taskName} as task_name, ${tags} as tags, ${billable} as billable, ${description} as description
		from workspace_rows r
		left join ours o on o.external_row_id = r.external_id
		${projectJoin('p')}
		${clientJoin('c')}
		${taskJoin('tk')}
		where r.organization_id = ${orgId} and r.database_id = ${target.databaseId}
			and (o.id is null or (o.ended_at is not null and o.deleted_at is null and o.last_state = 'delivered'))
		offset 0
	) rows_read
	where start_at is not null and end_at is not null and end_at >= start_at`
}

/** Our entries whose row is not (yet) what we hold: running, or their last write not delivered. */
function entriesSql(target: SourceTarget, now: Date): SQL {
	const { mapping, orgId } = target
	const fields = fieldsOf(target)
	const nowText = now.toISOString()
	const projectJoin =
		fields.project?.kind === 'relation' ? relatedRowByIdSql(orgId, fields.project.databaseId, sql`e.project`) : none
	const project = fields.project ? sql`e.project` : sql`null::text`
	const projectName = fields.project?.kind === 'relation' ? sql`p.title` : project
	// Only a client through the project can be told for an entry of ours (the entry has no client of its own).
	const clientRaw = sql`(p.values -> ${mapping.client?.propertyId ?? ''})`
	const clientJoin =
		fields.clientThroughProject && fields.client?.kind === 'relation'
			? relatedRowSql(orgId, fields.client.databaseId, firstSql(clientRaw))
			: none
	const client = !fields.clientThroughProject
		? sql`null::text`
		: fields.client?.kind === 'relation'
			? sql`coalesce(c.id, ${firstSql(clientRaw)})`
			: stringSql(clientRaw)
	const clientName = fields.clientThroughProject && fields.client?.kind === 'relation' ? sql`c.title` : client
	// A title holding both the task and the description gets one text (startValues), read back as both.
	const text = fields.taskSharesTitle ? sql`coalesce(e.description, e.task)` : null
	const taskJoin =
		fields.task?.kind === 'relation' ? relatedRowByIdSql(orgId, fields.task.databaseId, sql`e.task`) : none
	const task = text ?? (fields.task ? sql`e.task` : sql`null::text`)
	const taskName = fields.task?.kind === 'relation' ? sql`coalesce(tk.title, e.task)` : task
	const description = text ?? (mapping.description ? sql`e.description` : sql`null::text`)
	// In a built-in database the person is the member: an entry from before person_ref is theirs.
	const person = !mapping.person
		? sql`null::text`
		: target.tool === 'local'
			? sql`coalesce(e.person_ref, e.user_id)`
			: sql`e.person_ref`
	return sql`select 'entry:' || e.id as key, e.id as entry_id, wr.id as row_id, o.external_row_id,
			date_trunc('second', e.started_at) as start_at,
			date_trunc('second', coalesce(e.ended_at, greatest(e.started_at, ${nowText}::timestamptz))) as end_at,
			e.ended_at is null as is_running, ${person} as person,
			${project} as project, ${projectName} as project_name, ${client} as client, ${clientName} as client_name,
			${task} as task, ${taskName} as task_name,
			${mapping.tags ? sql`array(select jsonb_array_elements_text(e.tags))` : sql`'{}'::text[]`} as tags,
			${mapping.billable ? sql`e.billable` : sql`null::boolean`} as billable, ${description} as description
		from time_entries e
		join ours o on o.id = e.id
		left join workspace_rows wr on wr.database_id = e.database_id and wr.external_id = o.external_row_id
		${projectJoin('p')}
		${clientJoin('c')}
		${taskJoin('tk')}
		where e.deleted_at is null and (e.ended_at is null or o.last_state is distinct from 'delivered')
			and (e.ended_at is null or e.ended_at >= e.started_at)`
}

/**
 * The database's entries as a SQL subquery, for aggregates done in SQL. Columns: key, entry_id,
 * row_id, external_row_id, start_at, end_at (running: now), is_running, person, project,
 * project_name, client, client_name, task, task_name, tags (text[]), billable, description.
 */
export function sourceSql(target: SourceTarget, now: Date): SQL {
	const zone = target.timeZone ?? 'UTC'
	return sql`(with ours as (
		select e.id, e.ended_at, e.deleted_at, cw.external_row_id, lw.state as last_state
		from time_entries e
		left join workspace_writes cw on cw.id = e.create_write_id
		left join workspace_writes lw on lw.id = e.last_write_id
		where e.organization_id = ${target.orgId} and e.database_id = ${target.databaseId}
	)
	${rowsSql(target, zone)}
	union all
	${entriesSql(target, now)})`
}

type SourceRecord = {
	key: string
	entry_id: string | null
	row_id: string | null
	external_row_id: string | null
	start_s: string | number
	end_s: string | number
	is_running: boolean
	person: string | null
	project: string | null
	project_name: string | null
	client: string | null
	client_name: string | null
	task: string | null
	task_name: string | null
	tags: string[] | null
	billable: boolean | null
	description: string | null
}

/** Entries of the database that touch [from, to) (both may be null: unbounded), optionally only these people's. */
export async function readSourceEntries(
	deps: TimeDeps,
	target: SourceTarget,
	window: { from: Date | null; to: Date | null; people?: string[] },
	now: Date,
): Promise<SourceEntry[]> {
	const conditions = [sql`true`]
	if (window.from) {
		conditions.push(sql`s.end_at > ${window.from.toISOString()}::timestamptz`)
	}
	if (window.to) {
		conditions.push(sql`s.start_at < ${window.to.toISOString()}::timestamptz`)
	}
	if (window.people) {
		conditions.push(
			window.people.length === 0
				? sql`false`
				: sql`s.person in (${sql.join(
						window.people.map((person) => sql`${person}`),
						sql`, `,
					)})`,
		)
	}
	const result = await deps.db.execute(sql`
		select s.key, s.entry_id, s.row_id, s.external_row_id,
			extract(epoch from s.start_at)::bigint as start_s, extract(epoch from s.end_at)::bigint as end_s,
			s.is_running, s.person, s.project, s.project_name, s.client, s.client_name, s.task, s.task_name,
			to_jsonb(s.tags) as tags, s.billable, s.description
		from ${sourceSql(target, now)} s
		where ${sql.join(conditions, sql` and `)}
		order by s.start_at, s.key`)
	return (result as unknown as { rows: SourceRecord[] }).rows.map((row) => ({
		key: row.key,
		entryId: row.entry_id,
		rowId: row.row_id,
		externalRowId: row.external_row_id,
		start: new Date(Number(row.start_s) * 1000),
		end: row.is_running ? null : new Date(Number(row.end_s) * 1000),
		person: row.person,
		project: row.project,
		projectName: row.project_name,
		client: row.client,
		clientName: row.client_name,
		task: row.task,
		taskName: row.task_name,
		tags: row.tags ?? [],
		billable: row.billable,
		description: row.description,
	}))
}
