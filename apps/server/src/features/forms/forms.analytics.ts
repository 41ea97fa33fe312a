import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import { formPages } from '@blocksmith/contracts/form-rules.ts'
import type { FormAnalytics, FormField, ViewsBeacon } from '@blocksmith/contracts/forms.ts'
import { and, eq, gte, lt, sql } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import type { FormsCtx, FormsDeps } from './forms.deps.ts'
import { formStepCounts, formSubmissions, forms, formViewCounts } from './forms.schema.ts'
import { getFormRecords, uuidPattern } from './forms.service.ts'

// Views: a beacon per page load (and one when a visitor starts filling in). Counts gather in
// memory and are written once per form and hour every few seconds, so a busy form costs one
// upsert per flush, not one per visitor. Nothing about the visitor is kept: no cookie, no
// address, no agent — only counts per hour. A hard kill loses at most one flush of counts.
// Drop-off works the same way: each question or page a visit reaches adds one to that step's
// count for the hour (form_step_counts), in the same flush.

/** Distinct forms held in memory before an early flush. */
const maxPendingForms = 10_000
/**
 * Distinct steps held in memory per form before an early flush: a form has at most 100 items, so
 * real steps fit; made-up step ids (counted as nothing at the flush) cannot grow memory past it.
 */
export const maxPendingStepsPerForm = 100
/** The longest range analytics answers for at once. */
const maxAnalyticsDays = 366

type Pending = { views: number; starts: number; steps: Map<string, number> }

/** Content other than page breaks is never a step; a page break names the page it starts. */
const notSteps = ['heading', 'paragraph', 'image', 'divider']

export function createViewCounter(deps: FormsDeps) {
	let pending = new Map<string, Pending>()
	let timer: NodeJS.Timeout | undefined
	let flushing: Promise<void> = Promise.resolve()

	async function write(batch: Map<string, Pending>): Promise<void> {
		const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString()
		for (const [formId, counts] of batch) {
			try {
				if (counts.views + counts.starts > 0) {
					// Through `forms`: a beacon naming no form (or an unpublished one) counts nothing.
					await deps.db.execute(sql`
						insert into ${formViewCounts} (form_id, hour, views, starts)
						select ${forms.id}, ${hour}::timestamptz, ${counts.views}, ${counts.starts}
						from ${forms}
						where ${forms.id} = ${formId} and ${forms.published} and ${forms.deletedAt} is null
						on conflict (form_id, hour) do update set
							views = ${formViewCounts.views} + excluded.views,
							starts = ${formViewCounts.starts} + excluded.starts`)
				}
				if (counts.steps.size > 0) {
					await writeSteps(formId, hour, counts.steps)
				}
			} catch (error) {
				deps.log.warn({ err: error, formId }, 'form views not counted')
			}
		}
	}

	/** One upsert per form: only the steps that are a question or page break of the form count. */
	async function writeSteps(formId: string, hour: string, steps: Map<string, number>): Promise<void> {
		await deps.db.execute(sql`
			insert into ${formStepCounts} (form_id, hour, step, reached)
			select ${forms.id}, ${hour}::timestamptz, reach.step, reach.reached
			from ${forms}
			cross join unnest(${sql.param([...steps.keys()])}::text[], ${sql.param([...steps.values()])}::int[])
				as reach(step, reached)
			where ${forms.id} = ${formId} and ${forms.published} and ${forms.deletedAt} is null
				and exists (
					select 1 from jsonb_array_elements(${forms.fields}) as item
					where item->>'id' = reach.step and not (item->>'kind' = any(${sql.param(notSteps)}::text[]))
				)
			on conflict (form_id, hour, step) do update set reached = ${formStepCounts.reached} + excluded.reached`)
	}

	function flush(): Promise<void> {
		if (timer) {
			clearTimeout(timer)
			timer = undefined
		}
		const batch = pending
		pending = new Map()
		flushing = flushing.then(() => (batch.size > 0 ? write(batch) : undefined))
		return flushing
	}

	function record(beacon: ViewsBeacon): void {
		for (const event of beacon.events) {
			const formId = event.formId.toLowerCase()
			if (!uuidPattern.test(formId)) {
				continue
			}
			let counts = pending.get(formId) ?? { views: 0, starts: 0, steps: new Map() }
			pending.set(formId, counts)
			if (event.kind !== 'reach') {
				counts[event.kind === 'view' ? 'views' : 'starts'] += 1
			} else if (event.step !== undefined) {
				if (counts.steps.size >= maxPendingStepsPerForm && !counts.steps.has(event.step)) {
					// Full: what is held goes to the database now, and this step starts the next batch.
					void flush()
					counts = { views: 0, starts: 0, steps: new Map() }
					pending.set(formId, counts)
				}
				counts.steps.set(event.step, (counts.steps.get(event.step) ?? 0) + 1)
			}
		}
		if (pending.size >= maxPendingForms) {
			void flush()
		} else if (!timer && pending.size > 0) {
			timer = setTimeout(() => void flush(), deps.settings.viewFlushMs)
			timer.unref()
		}
	}

	return { record, flush }
}

export type ViewCounter = ReturnType<typeof createViewCounter>

function isTimeZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en', { timeZone: zone })
		return true
	} catch {
		return false
	}
}

function dayIn(date: Date, timeZone: string): string {
	return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date)
}

function addDays(day: string, days: number): string {
	const date = new Date(`${day}T00:00:00Z`)
	date.setUTCDate(date.getUTCDate() + days)
	return date.toISOString().slice(0, 10)
}

/** Views, starts and submissions of a form per day in the caller's time zone; the last 30 days by default. */
export async function formAnalytics(
	ctx: FormsCtx,
	formId: string,
	query: { from?: string | undefined; to?: string | undefined; timeZone: string },
): Promise<FormAnalytics> {
	const { form } = await getFormRecords(ctx, formId)
	if (!isTimeZone(query.timeZone)) {
		throw new AppError('VALIDATION_FAILED', { errors: [{ field: 'timeZone', message: 'Not a known time zone.' }] })
	}
	const to = query.to ?? dayIn(new Date(), query.timeZone)
	const from = query.from ?? addDays(to, -29)
	const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1
	if (days < 1 || days > maxAnalyticsDays) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'from', message: `Choose a range of 1 to ${maxAnalyticsDays} days, from before to.` }],
		})
	}
	const zone = query.timeZone
	// Widen by a day on each side in UTC, then bucket by the day in the zone and keep the range.
	const lower = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000)
	const upper = new Date(Date.parse(`${to}T00:00:00Z`) + 2 * 86_400_000)
	// Grouped by position: the zone is a parameter, and two parameters are never "the same" expression.
	const viewDay = sql<string>`to_char(${formViewCounts.hour} at time zone ${zone}, 'YYYY-MM-DD')`
	const views = await ctx.db
		.select({
			day: viewDay,
			views: sql<number>`sum(${formViewCounts.views})::int`,
			starts: sql<number>`sum(${formViewCounts.starts})::int`,
		})
		.from(formViewCounts)
		.where(and(eq(formViewCounts.formId, form.id), gte(formViewCounts.hour, lower), lt(formViewCounts.hour, upper)))
		.groupBy(sql`1`)
	const submissionDay = sql<string>`to_char(${formSubmissions.createdAt} at time zone ${zone}, 'YYYY-MM-DD')`
	const submissions = await ctx.db
		.select({ day: submissionDay, count: sql<number>`count(*)::int` })
		.from(formSubmissions)
		.where(
			and(
				eq(formSubmissions.formId, form.id),
				eq(formSubmissions.organizationId, ctx.orgId),
				eq(formSubmissions.spam, false),
				gte(formSubmissions.createdAt, lower),
				lt(formSubmissions.createdAt, upper),
			),
		)
		.groupBy(sql`1`)
	const viewsByDay = new Map(views.map((row) => [row.day, row]))
	const submissionsByDay = new Map(submissions.map((row) => [row.day, row.count]))
	const daily = Array.from({ length: days }, (_, index) => {
		const date = addDays(from, index)
		return {
			date,
			views: viewsByDay.get(date)?.views ?? 0,
			starts: viewsByDay.get(date)?.starts ?? 0,
			submissions: submissionsByDay.get(date) ?? 0,
		}
	})
	const totals = daily.reduce(
		(sum, day) => ({
			views: sum.views + day.views,
			starts: sum.starts + day.starts,
			submissions: sum.submissions + day.submissions,
		}),
		{ views: 0, starts: 0, submissions: 0 },
	)
	// The steps' counts over the same days as the totals: hours whose day in the zone is in range.
	const stepDay = sql<string>`to_char(${formStepCounts.hour} at time zone ${zone}, 'YYYY-MM-DD')`
	const reached = await ctx.db
		.select({ step: formStepCounts.step, reached: sql<number>`sum(${formStepCounts.reached})::int` })
		.from(formStepCounts)
		.where(
			and(
				eq(formStepCounts.formId, form.id),
				gte(formStepCounts.hour, lower),
				lt(formStepCounts.hour, upper),
				sql`${stepDay} between ${from} and ${to}`,
			),
		)
		.groupBy(formStepCounts.step)
	return {
		from,
		to,
		timeZone: zone,
		...totals,
		completionRate: totals.views > 0 ? Math.min(1, totals.submissions / totals.views) : null,
		daily,
		steps: dropOffSteps(form.fields, new Map(reached.map((row) => [row.step, row.reached])), totals),
	}
}

/**
 * The form's pages and questions in order, each with the visits that reached it. Every visit is on
 * page 1, so its count is the views; a later page counts when its page break was reached. Hidden
 * and calculated questions are never on screen, so they are no steps. Each step's drop-off is the
 * share of its visits that did not reach the next step (after the last: did not submit).
 */
function dropOffSteps(
	fields: FormField[],
	reached: ReadonlyMap<string, number>,
	totals: { views: number; submissions: number },
): FormAnalytics['steps'] {
	const byId = new Map(fields.map((field) => [field.id, field]))
	const rows: Omit<FormAnalytics['steps'][number], 'dropOff'>[] = []
	for (const page of formPages(fields)) {
		const items = page.fieldIds.flatMap((id) => byId.get(id) ?? [])
		const pageBreak = page.index > 0 ? items[0] : undefined
		const firstHeading = items.find((item) => item.kind === 'heading' || item.kind === 'page_break')
		rows.push({
			id: page.id,
			kind: 'page',
			label: pageBreak?.label ?? firstHeading?.label ?? 'Page 1',
			page: page.index + 1,
			reached: page.index === 0 ? totals.views : (reached.get(page.id) ?? 0),
		})
		for (const item of items) {
			if (!isContentKind(item.kind) && !item.hidden && item.kind !== 'calculated') {
				rows.push({
					id: item.id,
					kind: 'question',
					label: item.label,
					page: page.index + 1,
					reached: reached.get(item.id) ?? 0,
				})
			}
		}
	}
	return rows.map((row, index) => {
		const next = rows[index + 1]?.reached ?? totals.submissions
		return {
			...row,
			dropOff: row.reached > 0 ? Math.min(1, Math.max(0, (row.reached - next) / row.reached)) : null,
		}
	})
}
