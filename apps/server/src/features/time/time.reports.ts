// Time reports of a view: analytics (totals and figures by project, person, client, task and
// tag, running entries, overlaps), daily/weekly/monthly series, and the entry lines exports
// and the invoice hand-off read. The figures are computed in SQL (time.reports-sql.ts); this
// file resolves the view's range, rates and labels, and rounds figures whose rounding is per
// total.

import type {
	ReportRounding,
	TimeAnalytics,
	TimeGroup,
	TimeGroupFigures,
	TimeSeries,
} from '@blocksmith/contracts/time-reports.ts'
import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import { members, users } from '#src/core/auth/auth.schema.ts'
import { AppError } from '#src/lib/errors.ts'
import type { TimeCtx, TimeDeps } from './time.deps.ts'
import { ratesOf, rateTableOf } from './time.rates.ts'
import { bucketsOf, type Interval, maxBuckets, resolveRange } from './time.reports-range.ts'
import { analyticsSql, linesSql, type ReportQuery, seriesSql } from './time.reports-sql.ts'
import { roundSeconds } from './time.rounding.ts'
import { timeEntries } from './time.schema.ts'
import { sourceTargetOf } from './time.source.ts'
import type { ReportView } from './time.views.ts'

/** One entry's seconds on one local day, as the view counts them (exports, the invoice hand-off). */
export type ReportLine = {
	/** The local date ("YYYY-MM-DD") in the view's zone. */
	date: string
	/** The part of the entry on that day (clipped to the day), ISO instants. */
	start: string
	end: string
	/** Rounded per entry when the view rounds per entry; else exact. */
	seconds: number
	person: string | null
	personLabel: string
	project: string | null
	projectLabel: string
	client: string | null
	clientLabel: string
	task: string | null
	taskLabel: string | null
	tags: string[]
	billable: boolean
	description: string | null
	/** Per hour, minor units of the rates' currency; null when none applies. */
	rate: number | null
	/** Only for billable entries with a rate. */
	amount: number | null
	isRunning: boolean
	/** 'row:<id>' or 'entry:<id>' (time.source.ts). */
	key: string
	rowId: string | null
	externalRowId: string | null
	entryId: string | null
}

type Figures = { seconds: number; billableSeconds: number; amount: number | null; entries: number }

type FigureRow = { secs: unknown; bsecs: unknown; amount: unknown; entries: unknown }

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows
const num = (value: unknown) => (value === null || value === undefined ? 0 : Number(value))

/** Rounds a figure's sum once when the view rounds per total. */
function totalRounded(seconds: number, rounding: ReportRounding | null): number {
	return rounding?.scope === 'total' ? roundSeconds(seconds, rounding.mode, rounding.minutes) : seconds
}

function figuresOf(row: FigureRow | undefined, rounding: ReportRounding | null): Figures {
	return {
		seconds: totalRounded(num(row?.secs), rounding),
		billableSeconds: totalRounded(num(row?.bsecs), rounding),
		amount: row?.amount === null || row?.amount === undefined ? null : Number(row.amount),
		entries: num(row?.entries),
	}
}

/** What a view's statements need: its database as a source in the view's zone, its rates and range. */
export async function reportQueryOf(deps: TimeDeps, orgId: string, view: ReportView, now: Date) {
	const ctx: TimeCtx = { ...deps, orgId, userId: '', role: 'member' }
	const { settings } = view
	const source = await sourceTargetOf(ctx, view.tool, view.databaseId)
	const target = { ...source, timeZone: settings.timeZone }
	const rates = await ratesOf(deps, orgId, view.databaseId)
	const query: ReportQuery = {
		target,
		settings,
		range: resolveRange(settings.range, settings.timeZone, settings.weekStart, now),
		rates: await rateTableOf(deps, target, rates),
		now,
	}
	return query
}

const noneLabels: Record<TimeGroup, string> = {
	project: 'No project',
	person: 'No person',
	client: 'No client',
	task: 'No task',
	tag: 'No tag',
	billable: 'Non-billable',
}

/** Members' names by person value: a member's id, or the Notion user an entry of theirs was written as. */
async function personNames(deps: TimeDeps, orgId: string, people: string[]): Promise<Map<string, string>> {
	const names = new Map<string, string>()
	if (people.length === 0) {
		return names
	}
	const local = await deps.db
		.select({ id: users.id, name: users.name })
		.from(members)
		.innerJoin(users, eq(users.id, members.userId))
		.where(and(eq(members.organizationId, orgId), inArray(users.id, people)))
	const refs = await deps.db
		.selectDistinct({ ref: timeEntries.personRef, name: users.name })
		.from(timeEntries)
		.innerJoin(members, and(eq(members.userId, timeEntries.userId), eq(members.organizationId, orgId)))
		.innerJoin(users, eq(users.id, timeEntries.userId))
		.where(
			and(
				eq(timeEntries.organizationId, orgId),
				isNotNull(timeEntries.personRef),
				inArray(timeEntries.personRef, people),
			),
		)
	for (const ref of refs) {
		if (ref.ref) {
			names.set(ref.ref, ref.name)
		}
	}
	for (const user of local) {
		names.set(user.id, user.name)
	}
	return names
}

/** A group's label: the related row's title or option, the member's name, the tag; "No …" for none. */
function labelOf(group: TimeGroup, key: string | null, name: string | null, people: Map<string, string>): string {
	if (key === null) {
		return noneLabels[group]
	}
	switch (group) {
		case 'person':
			return people.get(key) ?? 'Unknown person'
		case 'billable':
			return key === 'billable' ? 'Billable' : 'Non-billable'
		case 'tag':
			return key
		default:
			// A related row missing from the mirror has no name; an untitled one has an empty one.
			return name === null ? `Unknown ${group}` : name || 'Untitled'
	}
}

const bySecondsThenLabel = (a: { seconds: number; label: string }, b: { seconds: number; label: string }) =>
	b.seconds - a.seconds || a.label.localeCompare(b.label)

export async function viewAnalytics(
	deps: TimeDeps,
	orgId: string,
	view: ReportView,
	now: Date,
): Promise<TimeAnalytics> {
	const q = await reportQueryOf(deps, orgId, view, now)
	const { rounding } = view.settings
	type Row = FigureRow & { dim: string; key: string | null; name: string | null; running: unknown; overlaps: unknown }
	const rows = rowsOf<Row>(await deps.db.execute(analyticsSql(q)))
	const people = await personNames(
		deps,
		orgId,
		rows.filter((row) => row.dim === 'person' && row.key !== null).map((row) => row.key as string),
	)
	const total = rows.find((row) => row.dim === 'total')
	const groupsOf = (group: TimeGroup): TimeGroupFigures[] =>
		rows
			.filter((row) => row.dim === group)
			.map((row) => ({
				key: row.key ?? 'none',
				label: labelOf(group, row.key, row.name, people),
				...figuresOf(row, rounding),
			}))
			.sort(bySecondsThenLabel)
	return {
		viewId: view.id,
		from: q.range.from,
		to: q.range.to,
		timeZone: view.settings.timeZone,
		currency: q.rates.currency,
		rounding,
		totals: figuresOf(total, rounding),
		groups: {
			project: groupsOf('project'),
			person: groupsOf('person'),
			client: groupsOf('client'),
			task: groupsOf('task'),
			tag: groupsOf('tag'),
		},
		running: num(total?.running),
		overlaps: num(total?.overlaps),
		generatedAt: now.toISOString(),
	}
}

export async function viewSeries(
	deps: TimeDeps,
	orgId: string,
	view: ReportView,
	interval: Interval,
	breakdown: TimeGroup | undefined,
	now: Date,
): Promise<TimeSeries> {
	const q = await reportQueryOf(deps, orgId, view, now)
	const { rounding } = view.settings
	type Row = FigureRow & {
		kind: string
		bucket: string
		key: string | null
		name: string | null
		first_day: string | null
		last_day: string | null
	}
	const rows = rowsOf<Row>(await deps.db.execute(seriesSql(q, interval, breakdown)))
	const bucketRows = rows.filter((row) => row.kind === 'bucket')
	// All time: from the first day with time to the last.
	const days = bucketRows.flatMap((row) => [row.first_day, row.last_day]).filter((day): day is string => Boolean(day))
	const from = q.range.from ?? days.reduce<string | null>((min, day) => (min === null || day < min ? day : min), null)
	const to = q.range.to ?? days.reduce<string | null>((max, day) => (max === null || day > max ? day : max), null)
	const buckets = from && to ? bucketsOf(from, to, interval, view.settings.weekStart) : []
	if (buckets.length >= maxBuckets) {
		throw new AppError('VALIDATION_FAILED', {
			detail: 'Too many buckets: read a range this long by week or month.',
			errors: [{ field: 'interval', message: `A series holds at most ${maxBuckets} buckets.` }],
		})
	}
	const byBucket = new Map(bucketRows.map((row) => [row.bucket, row]))
	let breakdownSeries: TimeSeries['breakdown'] = null
	if (breakdown) {
		const groupRows = rows.filter((row) => row.kind === 'group')
		const people =
			breakdown === 'person'
				? await personNames(
						deps,
						orgId,
						groupRows.filter((row) => row.key !== null).map((row) => row.key as string),
					)
				: new Map<string, string>()
		const index = new Map(buckets.map((bucket, position) => [bucket.key, position]))
		const groups = new Map<string, { key: string; label: string; seconds: number[]; total: number }>()
		for (const row of groupRows) {
			const key = row.key ?? 'none'
			let group = groups.get(key)
			if (!group) {
				group = {
					key,
					label: labelOf(breakdown, row.key, row.name, people),
					seconds: buckets.map(() => 0),
					total: 0,
				}
				groups.set(key, group)
			}
			const position = index.get(row.bucket)
			if (position !== undefined) {
				const seconds = totalRounded(num(row.secs), rounding)
				group.seconds[position] = seconds
				group.total += seconds
			}
		}
		breakdownSeries = [...groups.values()]
			.sort((a, b) => b.total - a.total || a.label.localeCompare(b.label))
			.map(({ key, label, seconds }) => ({ key, label, seconds }))
	}
	return {
		interval,
		timeZone: view.settings.timeZone,
		currency: q.rates.currency,
		buckets: buckets.map((bucket) => ({ ...bucket, ...figuresOf(byBucket.get(bucket.key), rounding) })),
		breakdown: breakdownSeries,
		generatedAt: now.toISOString(),
	}
}

/** One line per entry and local day in the view's range, oldest first, at most `limit`. */
export async function viewEntryLines(
	deps: TimeDeps,
	orgId: string,
	view: ReportView,
	now: Date,
	options: { limit: number },
): Promise<ReportLine[]> {
	const q = await reportQueryOf(deps, orgId, view, now)
	type Row = {
		day: string
		start_s: unknown
		end_s: unknown
		rsecs: unknown
		person: string | null
		project: string | null
		project_name: string | null
		client: string | null
		client_name: string | null
		task: string | null
		task_name: string | null
		tags: string[] | null
		billable: boolean
		description: string | null
		rate: unknown
		amount: unknown
		row_id: string | null
		external_row_id: string | null
		entry_id: string | null
		is_running: boolean
		key: string
	}
	const rows = rowsOf<Row>(await deps.db.execute(linesSql(q, options.limit)))
	const people = await personNames(deps, orgId, [
		...new Set(rows.map((row) => row.person).filter((person): person is string => person !== null)),
	])
	const instant = (seconds: unknown) => new Date(Number(seconds) * 1000).toISOString()
	return rows.map((row) => ({
		date: row.day,
		start: instant(row.start_s),
		end: instant(row.end_s),
		seconds: num(row.rsecs),
		person: row.person,
		personLabel: labelOf('person', row.person, null, people),
		project: row.project,
		projectLabel: labelOf('project', row.project, row.project_name, people),
		client: row.client,
		clientLabel: labelOf('client', row.client, row.client_name, people),
		task: row.task,
		taskLabel: row.task === null ? null : labelOf('task', row.task, row.task_name, people),
		tags: row.tags ?? [],
		billable: row.billable,
		description: row.description,
		rate: row.rate === null || row.rate === undefined ? null : Number(row.rate),
		amount: row.amount === null || row.amount === undefined ? null : Number(row.amount),
		isRunning: row.is_running,
		key: row.key,
		rowId: row.row_id,
		externalRowId: row.external_row_id,
		entryId: row.entry_id,
	}))
}
