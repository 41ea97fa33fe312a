// The invoices list, done in SQL (decision 037): the filters (status with the derived overdue,
// client, issue dates, currency, amount range, kind, search), a page by keyset (issue date,
// creation, id: newest first, stable while documents are added), and the totals by status and
// currency of every matching document from one GROUP BY, overdue counted on its own. Amounts of
// different currencies are never added up. The CSV export pages through the same query.

import { currencyCodes, minorUnitsOf } from '@blocksmith/contracts/invoice-currencies.ts'
import { Decimal } from '@blocksmith/contracts/invoice-decimal.ts'
import type { InvoiceList, listInvoicesQuerySchema } from '@blocksmith/contracts/invoice-documents.ts'
import { and, eq, getTableColumns, gte, lte, or, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { InvoicesCtx } from './invoices.deps.ts'
import { type DocumentRecord, invoiceDocuments } from './invoices.documents.schema.ts'
import { invalid, toInvoice } from './invoices.documents.ts'
import { savedFilter } from './invoices.filters.ts'
import { dayOf } from './invoices.numbering.ts'

type ListQuery = z.output<typeof listInvoicesQuerySchema>
type StatusTotal = InvoiceList['totals'][number]
/** The list's filter fields, as a query or a saved filter holds them. */
export type ListFilter = Omit<ListQuery, 'limit' | 'cursor' | 'filterId'>

const d = invoiceDocuments

/** What is left to pay, as `toInvoice` says it: drafts their total, void documents and credit notes 0. */
const dueMinor = sql<number>`(case
	when ${d.kind} <> 'invoice' or ${d.status} = 'void' then 0
	when ${d.status} = 'draft' then ${d.totalMinor}
	else greatest(0, ${d.totalMinor} - ${d.paidMinor} - ${d.creditedMinor}) end)`

/** Overdue is derived when read, as `isOverdue` says it: an open invoice still owed after its due date. */
function overdue(today: string): SQL {
	return sql`(${d.kind} = 'invoice' and ${d.status} in ('finalized', 'sent', 'partially_paid')
		and ${d.totalMinor} - ${d.paidMinor} - ${d.creditedMinor} > 0
		and ${d.dueDate} is not null and ${d.dueDate} < ${today})`
}

/** The currencies whose minor units are not 2, for the total as an exact decimal in SQL. */
const unitsCase = (() => {
	const odd = currencyCodes
		.filter((code) => minorUnitsOf(code) !== 2)
		.map((code) => sql`when ${code} then ${minorUnitsOf(code)}`)
	return sql`(case ${d.currency} ${sql.join(odd, sql` `)} else 2 end)`
})()
/** BT-112 as an exact numeric (never a float): total_minor / 10^units. */
const totalDecimal = sql`(${d.totalMinor}::numeric / power(10::numeric, ${unitsCase}))`

function escapeLike(text: string): string {
	return text.replace(/[\\%_]/g, (character) => `\\${character}`)
}

function conditionsOf(orgId: string, filter: ListFilter, today: string): SQL[] {
	const conditions: SQL[] = [eq(d.organizationId, orgId)]
	if (filter.currency) {
		conditions.push(eq(d.currency, filter.currency))
	}
	if (filter.from) {
		conditions.push(gte(d.issueDate, filter.from))
	}
	if (filter.to) {
		conditions.push(lte(d.issueDate, filter.to))
	}
	if (filter.kind) {
		conditions.push(eq(d.kind, filter.kind))
	}
	if (filter.correctsId) {
		conditions.push(eq(d.correctsId, filter.correctsId))
	}
	if (filter.clientId) {
		conditions.push(
			or(sql`${d.clientRow} ->> 'rowId' = ${filter.clientId}`, sql`${d.client} ->> 'name' = ${filter.clientId}`) as SQL,
		)
	}
	if (filter.status === 'overdue') {
		conditions.push(overdue(today))
	} else if (filter.status) {
		conditions.push(eq(d.status, filter.status))
	}
	if (filter.amountMin !== undefined) {
		conditions.push(sql`${totalDecimal} >= ${filter.amountMin}::numeric`)
	}
	if (filter.amountMax !== undefined) {
		conditions.push(sql`${totalDecimal} <= ${filter.amountMax}::numeric`)
	}
	if (filter.search) {
		const pattern = `%${escapeLike(filter.search)}%`
		conditions.push(sql`(${d.number} ilike ${pattern} or ${d.client} ->> 'name' ilike ${pattern})`)
	}
	return conditions
}

type Cursor = { issueDate: string; createdAt: string; id: string }

function encodeCursor(cursor: Cursor): string {
	return Buffer.from(JSON.stringify([cursor.issueDate, cursor.createdAt, cursor.id])).toString('base64url')
}

function decodeCursor(text: string): Cursor {
	try {
		const [issueDate, createdAt, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[]
		if (
			typeof issueDate === 'string' &&
			/^\d{4}-\d{2}-\d{2}$/.test(issueDate) &&
			typeof createdAt === 'string' &&
			!Number.isNaN(Date.parse(createdAt)) &&
			typeof id === 'string'
		) {
			return { issueDate, createdAt, id }
		}
	} catch {
		// Reported below.
	}
	throw invalid([{ field: 'cursor', message: 'Use the nextCursor of the page before.' }])
}

/** The query's filter: a saved filter's fields first, then the ones given (which win). */
async function effectiveFilter(ctx: InvoicesCtx, query: ListQuery): Promise<ListFilter> {
	const { limit: _limit, cursor: _cursor, filterId, ...given } = query
	const base = filterId ? await savedFilter(ctx, filterId) : {}
	const merged = { ...base, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) }
	if (merged.amountMin !== undefined && merged.amountMax !== undefined) {
		if (new Decimal(merged.amountMin).gt(new Decimal(merged.amountMax))) {
			throw invalid([{ field: 'amountMax', message: 'The largest amount is below the smallest.' }])
		}
	}
	return merged
}

/**
 * A page of documents matching `filter`, newest first, after `cursor`; `nextCursor` is null on
 * the last page. Reads `limit + 1` rows to know whether another page follows.
 */
export async function listPage(
	ctx: InvoicesCtx,
	filter: ListFilter,
	limit: number,
	cursor: string | undefined,
): Promise<{ records: DocumentRecord[]; nextCursor: string | null }> {
	const today = dayOf(ctx.now())
	const conditions = conditionsOf(ctx.orgId, filter, today)
	if (cursor) {
		const after = decodeCursor(cursor)
		conditions.push(
			sql`(${d.issueDate}, ${d.createdAt}, ${d.id}) < (${after.issueDate}::date, ${after.createdAt}::timestamptz, ${after.id})`,
		)
	}
	// created_at as PostgreSQL writes it (microseconds kept): a JavaScript Date would cut it to
	// milliseconds, and the next page would skip or repeat documents created in the same one.
	const rows = await ctx.db
		.select({ ...getTableColumns(d), cursorAt: sql<string>`${d.createdAt}::text` })
		.from(d)
		.where(and(...conditions))
		.orderBy(sql`${d.issueDate} desc, ${d.createdAt} desc, ${d.id} desc`)
		.limit(limit + 1)
	const page = rows.slice(0, limit)
	const last = page.at(-1)
	const nextCursor =
		rows.length > limit && last
			? encodeCursor({ issueDate: last.issueDate, createdAt: last.cursorAt, id: last.id })
			: null
	return { records: page.map(({ cursorAt: _at, ...record }) => record), nextCursor }
}

/** The totals of every document matching `filter`, by status and currency, and overdue on its own. */
async function totalsOf(ctx: InvoicesCtx, filter: ListFilter): Promise<StatusTotal[]> {
	const today = dayOf(ctx.now())
	const isOverdue = overdue(today)
	const rows = await ctx.db
		.select({
			status: d.status,
			currency: d.currency,
			count: sql<string>`count(*)`,
			totalMinor: sql<string>`coalesce(sum(${d.totalMinor}), 0)`,
			dueMinor: sql<string>`coalesce(sum(${dueMinor}), 0)`,
			overdueCount: sql<string>`count(*) filter (where ${isOverdue})`,
			overdueTotal: sql<string>`coalesce(sum(${d.totalMinor}) filter (where ${isOverdue}), 0)`,
			overdueDue: sql<string>`coalesce(sum(${dueMinor}) filter (where ${isOverdue}), 0)`,
		})
		.from(d)
		.where(and(...conditionsOf(ctx.orgId, filter, today)))
		.groupBy(d.status, d.currency)
		.orderBy(d.status, d.currency)
	const totals: StatusTotal[] = rows.map((row) => ({
		status: row.status,
		currency: row.currency,
		count: Number(row.count),
		totalMinor: Number(row.totalMinor),
		dueMinor: Number(row.dueMinor),
	}))
	const overdueByCurrency = new Map<string, StatusTotal>()
	for (const row of rows) {
		if (Number(row.overdueCount) === 0) {
			continue
		}
		const entry = overdueByCurrency.get(row.currency) ?? {
			status: 'overdue',
			currency: row.currency,
			count: 0,
			totalMinor: 0,
			dueMinor: 0,
		}
		entry.count += Number(row.overdueCount)
		entry.totalMinor += Number(row.overdueTotal)
		entry.dueMinor += Number(row.overdueDue)
		overdueByCurrency.set(row.currency, entry)
	}
	return [...totals, ...overdueByCurrency.values()]
}

export async function listInvoices(
	ctx: InvoicesCtx,
	query: ListQuery,
): Promise<InvoiceList & { nextCursor: string | null }> {
	const filter = await effectiveFilter(ctx, query)
	const today = dayOf(ctx.now())
	const [{ records, nextCursor }, totals] = await Promise.all([
		listPage(ctx, filter, query.limit, query.cursor),
		totalsOf(ctx, filter),
	])
	return { invoices: records.map((record) => toInvoice(record, today)), totals, nextCursor }
}

/** The filter of an export: the list's query without its page. */
export async function exportFilter(ctx: InvoicesCtx, query: ListQuery): Promise<ListFilter> {
	return effectiveFilter(ctx, query)
}
