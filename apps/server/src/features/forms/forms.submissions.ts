import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import { answerText } from '@blocksmith/contracts/form-thanks.ts'
import type { Submission, SubmissionsPage } from '@blocksmith/contracts/forms.ts'
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import Papa from 'papaparse'
import { AppError } from '#src/lib/errors.ts'
import { workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import { retryWrite } from '#src/workspaces/workspaces.writes.ts'
import { type FormsCtx, workspaceCtxFor } from './forms.deps.ts'
import { formSubmissions } from './forms.schema.ts'
import { getFormRecords } from './forms.service.ts'
import { filterConditions, type SubmissionFilters } from './forms.submission-filters.ts'

// The submissions of a form with each one's delivery: the workspace write it became, joined
// by id, and the row that write made.

type SubmissionState = 'pending' | 'delivered' | 'failed' | 'dead' | 'spam'

/** What the list and the CSV are narrowed to: a delivery state, a search, a field's value. */
type SubmissionQuery = SubmissionFilters & { state?: SubmissionState | undefined }

const stateSql = sql<SubmissionState>`case when ${formSubmissions.spam} then 'spam' else coalesce(${workspaceWrites.state}, 'pending') end`

function stateCondition(state: SubmissionState): SQL {
	if (state === 'spam') {
		return eq(formSubmissions.spam, true)
	}
	const notSpam = eq(formSubmissions.spam, false)
	if (state === 'pending') {
		return and(notSpam, sql`coalesce(${workspaceWrites.state}, 'pending') = 'pending'`) as SQL
	}
	return and(notSpam, eq(workspaceWrites.state, state)) as SQL
}

export function selectSubmissions(ctx: FormsCtx) {
	return ctx.db
		.select({
			submission: formSubmissions,
			state: stateSql,
			attempts: workspaceWrites.attempts,
			lastError: workspaceWrites.lastError,
			deliveredAt: workspaceWrites.deliveredAt,
			rowId: workspaceRows.id,
			rowUrl: workspaceRows.url,
			workspaceId: workspaceWrites.workspaceId,
			databaseId: workspaceWrites.databaseId,
		})
		.from(formSubmissions)
		.leftJoin(workspaceWrites, eq(workspaceWrites.id, formSubmissions.writeId))
		.leftJoin(
			workspaceRows,
			and(
				eq(workspaceRows.databaseId, workspaceWrites.databaseId),
				eq(workspaceRows.externalId, workspaceWrites.externalRowId),
			),
		)
}

type SelectedRow = Awaited<ReturnType<ReturnType<typeof selectSubmissions>['where']>>[number]

export function toSubmission(row: SelectedRow): Submission {
	const { submission } = row
	// A local row has no URL of its own: it opens in the database's table in the app.
	const rowUrl =
		row.rowUrl ?? (row.rowId && row.workspaceId ? `/workspaces/${row.workspaceId}/databases/${row.databaseId}` : null)
	return {
		id: submission.id,
		formId: submission.formId,
		answers: submission.answers,
		delivery: {
			state: row.state,
			attempts: row.attempts ?? 0,
			error: row.state === 'delivered' ? null : (row.lastError ?? null),
			rowId: row.state === 'delivered' ? (row.rowId ?? null) : null,
			rowUrl: row.state === 'delivered' ? rowUrl : null,
			deliveredAt: row.deliveredAt?.toISOString() ?? null,
		},
		createdAt: submission.createdAt.toISOString(),
	}
}

/** A form's answers in the caller's organization, searched and filtered (a bad filter is a 400 naming it). */
function answersOf(
	ctx: FormsCtx,
	form: { id: string; fields: Parameters<typeof filterConditions>[0] },
	query: SubmissionFilters,
): SQL {
	return and(
		eq(formSubmissions.formId, form.id),
		eq(formSubmissions.organizationId, ctx.orgId),
		...filterConditions(form.fields, query),
	) as SQL
}

/** A page of answers, newest first; the counts by state are of the answers the search and filter leave. */
export async function listSubmissions(
	ctx: FormsCtx,
	formId: string,
	query: SubmissionQuery & { limit: number; offset: number },
): Promise<SubmissionsPage> {
	const { form } = await getFormRecords(ctx, formId)
	const base = answersOf(ctx, form, query)
	const where = query.state ? and(base, stateCondition(query.state)) : base
	const rows = await selectSubmissions(ctx)
		.where(where)
		.orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
		.limit(query.limit)
		.offset(query.offset)
	const counted = await ctx.db
		.select({ state: stateSql, count: count() })
		.from(formSubmissions)
		.leftJoin(workspaceWrites, eq(workspaceWrites.id, formSubmissions.writeId))
		.where(base)
		.groupBy(stateSql)
	const counts = Object.fromEntries(counted.map((row) => [row.state, row.count]))
	const total = query.state ? (counts[query.state] ?? 0) : counted.reduce((sum, row) => sum + row.count, 0)
	return { submissions: rows.map(toSubmission), total, counts }
}

async function getSubmission(ctx: FormsCtx, formId: string, submissionId: string): Promise<Submission> {
	const [row] = await selectSubmissions(ctx).where(
		and(
			eq(formSubmissions.id, submissionId),
			eq(formSubmissions.formId, formId),
			eq(formSubmissions.organizationId, ctx.orgId),
		),
	)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such submission.' })
	}
	return toSubmission(row)
}

/** Retry now: a failed (or given-up) delivery gets a fresh set of attempts. */
export async function retrySubmission(ctx: FormsCtx, formId: string, submissionId: string): Promise<Submission> {
	const { form } = await getFormRecords(ctx, formId)
	const [row] = await ctx.db
		.select({ writeId: formSubmissions.writeId, workspaceId: workspaceWrites.workspaceId })
		.from(formSubmissions)
		.leftJoin(workspaceWrites, eq(workspaceWrites.id, formSubmissions.writeId))
		.where(
			and(
				eq(formSubmissions.id, submissionId),
				eq(formSubmissions.formId, form.id),
				eq(formSubmissions.organizationId, ctx.orgId),
			),
		)
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such submission.' })
	}
	if (!row.writeId || !row.workspaceId) {
		throw new AppError('CONFLICT', { detail: 'This submission has no delivery to retry.' })
	}
	await retryWrite(workspaceCtxFor(ctx, ctx.orgId, ctx.userId), row.workspaceId, row.writeId)
	return getSubmission(ctx, form.id, submissionId)
}

/** Retries every failed and given-up delivery of the form; answers how many were queued. */
export async function retryFailedSubmissions(ctx: FormsCtx, formId: string): Promise<{ retried: number }> {
	const { form } = await getFormRecords(ctx, formId)
	const rows = await ctx.db
		.select({ writeId: workspaceWrites.id, workspaceId: workspaceWrites.workspaceId })
		.from(formSubmissions)
		.innerJoin(workspaceWrites, eq(workspaceWrites.id, formSubmissions.writeId))
		.where(
			and(
				eq(formSubmissions.formId, form.id),
				eq(formSubmissions.organizationId, ctx.orgId),
				inArray(workspaceWrites.state, ['failed', 'dead']),
			),
		)
	const wctx = workspaceCtxFor(ctx, ctx.orgId, ctx.userId)
	let retried = 0
	for (const row of rows) {
		try {
			await retryWrite(wctx, row.workspaceId, row.writeId)
			retried++
		} catch (error) {
			// Another retry (or a delivery) got there first; that one is on its way.
			if (!(error instanceof AppError && error.code === 'CONFLICT')) {
				throw error
			}
		}
	}
	return { retried }
}

/** Every submission as CSV (with a BOM, for spreadsheet apps), read a page at a time. */
export async function exportSubmissionsCsv(
	ctx: FormsCtx,
	formId: string,
	query: SubmissionQuery = {},
): Promise<{ filename: string; body: string }> {
	const { form } = await getFormRecords(ctx, formId)
	const questions = form.fields.filter((field) => !isContentKind(field.kind))
	const header = ['Submitted at', ...questions.map((field) => field.label), 'Delivery', 'Delivery error', 'Row']
	// Spam stays out unless it is what was asked for.
	const base = answersOf(ctx, form, query)
	const where = and(base, query.state ? stateCondition(query.state) : eq(formSubmissions.spam, false))
	const lines = [Papa.unparse([header], { escapeFormulae: true })]
	const pageSize = 1000
	for (let offset = 0; ; offset += pageSize) {
		const rows = await selectSubmissions(ctx)
			.where(where)
			.orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
			.limit(pageSize)
			.offset(offset)
		if (rows.length === 0) {
			break
		}
		const records = rows
			.map(toSubmission)
			.map((submission) => [
				submission.createdAt,
				...questions.map((field) => answerText(submission.answers[field.id], field)),
				submission.delivery.state,
				submission.delivery.error ?? '',
				submission.delivery.rowUrl ?? '',
			])
		lines.push(Papa.unparse(records, { header: false, escapeFormulae: true }))
		if (rows.length < pageSize) {
			break
		}
	}
	const filename = `${form.name.replace(/[^\w\- ]+/g, '').trim() || 'form'} submissions.csv`
	return { filename, body: `\uFEFF${lines.join('\r\n')}\r\n` }
}
