// The statements of time reports, over the entry source (time.source.ts). Nothing is loaded row
// by row into Node: each statement splits the view's entries into local days, rounds and prices
// each (entry, day) portion and aggregates, and only the figures come back.
//
// Definitions (time.days.ts and time.rounding.ts give the same in TypeScript; the proof test
// compares both):
// - The range's local dates [from, to] are the instants [dayStart(from), dayStart(to + 1)),
//   dayStart(D) = (D::timestamp AT TIME ZONE zone). An entry counts when it touches them.
// - An entry is split into the local dates it touches (generate_series over the dates of its
//   start and end in the zone); its seconds on date D are |[start, end) ∩ [dayStart(D),
//   dayStart(D + 1))|, only dates within the range and with seconds > 0 count: a portion.
// - Rounding per entry (scope 'entry') rounds each portion's seconds (so an entry crossing
//   midnight is rounded once per day); per total (scope 'total') leaves portions exact and the
//   caller rounds each figure's sum once.
// - A portion's amount, when the entry is billable and a rate applies: its (rounded) seconds ×
//   rate per hour, half-up to a whole minor unit, in numeric: div(s × rate × 2 + 3600, 7200).
//   Figures sum the portions' amounts.
// - The rate: the project's (by project key), else the person's, else the default.

import type { TimeGroup, TimeViewSettings } from '@blocksmith/contracts/time-reports.ts'
import { type SQL, sql } from 'drizzle-orm'
import type { RateTable } from './time.rates.ts'
import type { DateRange, Interval } from './time.reports-range.ts'
import { type SourceTarget, sourceSql } from './time.source.ts'

export type ReportQuery = {
	/** With `timeZone` set to the view's. */
	target: SourceTarget
	settings: TimeViewSettings
	range: DateRange
	rates: RateTable
	now: Date
	/** Another relation with the source's columns (the benchmark's typed table); the entry source by default. */
	source?: SQL
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`
const elements = (values: string[]) => sql`(select jsonb_array_elements_text(${json(values)}))`

/** Matches a key column against filter values; `none` matches entries without one. */
function keyFilter(column: SQL, values: string[]): SQL | null {
	if (values.length === 0) {
		return null
	}
	const keys = values.filter((value) => value !== 'none')
	const none = values.includes('none') ? sql` or ${column} is null` : sql``
	return keys.length > 0 ? sql`(${column} in ${elements(keys)}${none})` : sql`(${column} is null)`
}

function conditionsOf(q: ReportQuery): SQL[] {
	const { settings, range, target } = q
	const zone = target.timeZone ?? 'UTC'
	const conditions: SQL[] = []
	if (range.from) {
		conditions.push(sql`s.end_at > (${range.from}::date::timestamp at time zone ${zone})`)
	}
	if (range.to) {
		conditions.push(sql`s.start_at < ((${range.to}::date + 1)::timestamp at time zone ${zone})`)
	}
	if (settings.people.length > 0) {
		conditions.push(sql`s.person in ${elements(settings.people)}`)
	}
	for (const filter of [keyFilter(sql`s.project`, settings.projects), keyFilter(sql`s.client`, settings.clients)]) {
		if (filter) {
			conditions.push(filter)
		}
	}
	if (settings.tags.length > 0) {
		const tags = settings.tags.filter((tag) => tag !== 'none')
		const none = settings.tags.includes('none') ? sql` or cardinality(s.tags) = 0` : sql``
		conditions.push(sql`(exists (select 1 from unnest(s.tags) tag where tag in ${elements(tags)})${none})`)
	}
	if (settings.billable === 'billable') {
		conditions.push(sql`s.billable is true`)
	} else if (settings.billable === 'non_billable') {
		conditions.push(sql`s.billable is not true`)
	}
	return conditions
}

/** Rounded seconds of one portion (scope 'entry'), or as they are. */
function roundedSql(seconds: SQL, settings: TimeViewSettings): SQL {
	const rounding = settings.rounding
	if (rounding?.scope !== 'entry') {
		return seconds
	}
	const step = sql.raw(String(rounding.minutes * 60))
	switch (rounding.mode) {
		case 'up':
			return sql`(((${seconds} + ${step} - 1) / ${step}) * ${step})`
		case 'down':
			return sql`((${seconds} / ${step}) * ${step})`
		case 'nearest':
			return sql`(((${seconds} + ${step} / 2) / ${step}) * ${step})`
	}
}

/**
 * `with src, figures`: the view's entries (filtered, with their rate) and their portions, one
 * row per (entry, local date) in the range with seconds > 0: day, part_start, part_end, secs,
 * rsecs (rounded per entry when the view says so), amount, and the entry's columns.
 */
function figuresCte(q: ReportQuery): SQL {
	const zone = q.target.timeZone ?? 'UTC'
	const conditions = conditionsOf(q)
	const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``
	const inRange: SQL[] = []
	if (q.range.from) {
		inRange.push(sql`d.day >= ${q.range.from}::date`)
	}
	if (q.range.to) {
		inRange.push(sql`d.day <= ${q.range.to}::date`)
	}
	const dayWhere = inRange.length > 0 ? sql`where ${sql.join(inRange, sql` and `)}` : sql``
	// Rates are looked up in constant JSON objects, not joined: the source's row estimate is poor
	// (its filters are expressions over JSONB), and a join planned for a few rows re-read the rates
	// once per entry.
	return sql`with src as (
		select s.*, coalesce((${json(q.rates.projects)} ->> s.project)::bigint, (${json(q.rates.people)} ->> s.person)::bigint,
			${q.rates.defaultRate}::bigint) as rate
		from ${q.source ?? sourceSql(q.target, q.now)} s
		${where}
	), portions as (
		select src.key, src.entry_id, src.row_id, src.external_row_id, src.is_running, src.person,
			src.project, src.project_name, src.client, src.client_name, src.task, src.task_name, src.tags,
			coalesce(src.billable, false) as billable, src.description, src.rate, d.day,
			greatest(src.start_at, d.day_start) as part_start, least(src.end_at, d.next_start) as part_end
		from src
		cross join lateral (
			select g.day::date as day,
				(g.day::date::timestamp at time zone ${zone}) as day_start,
				((g.day::date + 1)::timestamp at time zone ${zone}) as next_start
			from generate_series(
				(src.start_at at time zone ${zone})::date::timestamp,
				(src.end_at at time zone ${zone})::date::timestamp,
				interval '1 day'
			) g(day)
		) d
		${dayWhere}
	), timed as (
		select p.*, (extract(epoch from p.part_end) - extract(epoch from p.part_start))::bigint as secs
		from portions p
	), rounded as (
		select t.*, ${roundedSql(sql`t.secs`, q.settings)} as rsecs from timed t where t.secs > 0
	), figures as (
		select r.*, case when r.billable and r.rate is not null
			then div(r.rsecs::numeric * r.rate * 2 + 3600, 7200) end as amount
		from rounded r
	)`
}

const figureColumns = sql`sum(rsecs) as secs, coalesce(sum(rsecs) filter (where billable), 0) as bsecs,
	sum(amount) as amount, count(distinct key) as entries`

/** A grouping's key and name columns, and what to join to read them (tags: one row per tag). */
function groupOf(group: TimeGroup): { key: SQL; name: SQL; join: SQL } {
	switch (group) {
		case 'project':
			return { key: sql`project`, name: sql`max(project_name)`, join: sql`` }
		case 'person':
			return { key: sql`person`, name: sql`null::text`, join: sql`` }
		case 'client':
			return { key: sql`client`, name: sql`max(client_name)`, join: sql`` }
		case 'task':
			return { key: sql`task`, name: sql`max(task_name)`, join: sql`` }
		case 'tag':
			return {
				key: sql`tg.tag`,
				name: sql`null::text`,
				join: sql`cross join lateral unnest(case when cardinality(tags) = 0 then array[null::text] else tags end) tg(tag)`,
			}
		case 'billable':
			return {
				key: sql`(case when billable then 'billable' else 'non_billable' end)`,
				name: sql`null::text`,
				join: sql``,
			}
	}
}

const analyticsGroups = ['project', 'person', 'client', 'task', 'tag'] as const

/**
 * `active`: for counting pairs of one person's entries that overlap within the range
 * (time.days.ts: sharing at least a second) in one pass: at each entry's start (ends before
 * starts at the same instant, so touching entries do not overlap), the person's entries started
 * and not yet ended.
 */
function overlapsCte(q: ReportQuery): SQL {
	const zone = q.target.timeZone ?? 'UTC'
	const from = q.range.from
		? sql`(${q.range.from}::date::timestamp at time zone ${zone})`
		: sql`'-infinity'::timestamptz`
	const to = q.range.to
		? sql`((${q.range.to}::date + 1)::timestamp at time zone ${zone})`
		: sql`'infinity'::timestamptz`
	return sql`clipped as (
		select key, person, greatest(start_at, ${from}) as a, least(end_at, ${to}) as b
		from src where person is not null
	), events as (
		select person, key, a as at, 1 as kind from clipped where b > a
		union all
		select person, key, b as at, 0 as kind from clipped where b > a
	), active as (
		select kind, sum(case when kind = 1 then 1 else -1 end)
			over (partition by person order by at, kind, key rows between unbounded preceding and current row) - 1 as others
		from events
	)`
}

/**
 * Totals (with how many run and how many pairs overlap) and the figures by project, person,
 * client, task and tag: one statement, so the source is read once.
 */
export function analyticsSql(q: ReportQuery): SQL {
	const groups = analyticsGroups.map((group) => {
		const { key, name, join } = groupOf(group)
		return sql`select ${group}::text as dim, ${key} as key, ${name} as name, ${figureColumns}, 0 as running, 0 as overlaps
			from figures ${join} group by ${key}`
	})
	return sql`${figuresCte(q)}, ${overlapsCte(q)}
		select 'total' as dim, null::text as key, null::text as name, ${figureColumns},
			count(distinct key) filter (where is_running) as running,
			(select coalesce(sum(others), 0) from active where kind = 1) as overlaps
		from figures
		union all ${sql.join(groups, sql` union all `)}`
}

/** The SQL form of a bucket's key (time.days.ts). */
function bucketSql(interval: Interval, weekStart: number): SQL {
	if (interval === 'day') {
		return sql`to_char(day, 'YYYY-MM-DD')`
	}
	if (interval === 'month') {
		return sql`to_char(day, 'YYYY-MM')`
	}
	if (weekStart === 1) {
		return sql`to_char(day, 'IYYY-"W"IW')`
	}
	const w = sql.raw(String(weekStart))
	return sql`to_char(day - ((extract(dow from day)::int - ${w} + 7) % 7), 'YYYY-MM-DD')`
}

/** Figures per bucket (kind 'bucket'), and with a breakdown per (bucket, group) (kind 'group'). */
export function seriesSql(q: ReportQuery, interval: Interval, breakdown: TimeGroup | undefined): SQL {
	const bucket = bucketSql(interval, q.settings.weekStart)
	const buckets = sql`select 'bucket' as kind, ${bucket} as bucket, null::text as key, null::text as name,
		${figureColumns}, min(day)::text as first_day, max(day)::text as last_day
		from figures group by ${bucket}`
	if (!breakdown) {
		return sql`${figuresCte(q)} ${buckets}`
	}
	const { key, name, join } = groupOf(breakdown)
	return sql`${figuresCte(q)} ${buckets}
		union all
		select 'group' as kind, ${bucket} as bucket, ${key} as key, ${name} as name, ${figureColumns},
			null::text as first_day, null::text as last_day
		from figures ${join} group by ${bucket}, ${key}`
}

/** One line per portion, oldest first. */
export function linesSql(q: ReportQuery, limit: number): SQL {
	return sql`${figuresCte(q)}
		select day::text as day, extract(epoch from part_start)::bigint as start_s, extract(epoch from part_end)::bigint as end_s,
			rsecs, person, project, project_name, client, client_name, task, task_name, to_jsonb(tags) as tags,
			billable, description, rate, amount, row_id, external_row_id, entry_id, is_running, key
		from figures
		order by day, part_start, key
		limit ${limit}`
}
