// The time module's only door for other modules (invoices): a view's billable time not billed
// yet, as lines an invoice can be made of, and the record of which rows an invoice billed.
//
// - Unbilled: the view's billable entries (its range and filters), finished (a running entry is
//   not billed until it stops), with a row in the workspace (an entry whose row is not written
//   yet cannot be marked, so it is offered once delivered), and whose row is not in time_billed.
//   Grouped by project or task, and within a group by rate, so each line's amount is its hours
//   at its rate: seconds are the group's, rounded as the view says (per entry, or the sum once
//   per line when the view rounds per total), the amount the sum of the entries' amounts (as
//   the report's analytics add them up).
// - Marking is by the row's id in the workspace, which syncs keep: idempotent for the same
//   invoice, refused (409, nothing marked) when another invoice billed any of the rows, and only
//   for rows of the organization's own database.

import type { TimeGroup, UnbilledLine, UnbilledTime } from '@blocksmith/contracts/time-reports.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import type { TimeDeps } from './time.deps.ts'
import { exportLimits } from './time.export.ts'
import { amountText } from './time.export-format.ts'
import { ratesOf } from './time.rates.ts'
import { type ReportLine, viewEntryLines } from './time.reports.ts'
import { roundSeconds } from './time.rounding.ts'
import { timeBilled } from './time.schema.ts'
import { viewById } from './time.views.ts'

export type UnbilledGroup = Extract<TimeGroup, 'project' | 'task'>

/** At most this many rows per call: an invoice of more is made in parts. */
const maxMarkedRows = 10_000

function keyAndLabel(line: ReportLine, groupBy: UnbilledGroup): { key: string; label: string } {
	return groupBy === 'project'
		? { key: line.project ?? 'none', label: line.projectLabel }
		: { key: line.task ?? 'none', label: line.taskLabel ?? 'No task' }
}

export async function unbilledTime(
	deps: TimeDeps,
	orgId: string,
	tool: WorkspaceTool,
	viewId: string,
	groupBy: UnbilledGroup,
): Promise<UnbilledTime> {
	const view = await viewById(deps, orgId, viewId)
	if (view.tool !== tool) {
		throw new AppError('NOT_FOUND', { detail: 'No such view.' })
	}
	const { currency } = await ratesOf(deps, orgId, view.databaseId)
	if (view.settings.billable === 'non_billable') {
		return { viewId: view.id, currency, lines: [], total: { seconds: 0, amount: null } }
	}
	// Only billable entries are read: the view with its billable filter set.
	const billableView = { ...view, settings: { ...view.settings, billable: 'billable' as const } }
	const lines = await viewEntryLines(deps, orgId, billableView, deps.now(), { limit: exportLimits.lines + 1 })
	if (lines.length > exportLimits.lines) {
		throw new AppError('PAYLOAD_TOO_LARGE', {
			detail: `This view has more than ${exportLimits.lines.toLocaleString('en')} billable entry lines: narrow its range to invoice it in parts.`,
		})
	}
	const candidates = lines.filter((line) => line.billable && !line.isRunning && line.externalRowId !== null)
	const billed = await billedRows(deps.db, view.databaseId, [
		...new Set(candidates.map((line) => line.externalRowId as string)),
	])
	const rounding = view.settings.rounding
	type Group = {
		key: string
		label: string
		rate: number | null
		seconds: number
		amount: number | null
		rows: Set<string>
	}
	const groups = new Map<string, Group>()
	for (const line of candidates) {
		if (billed.has(line.externalRowId as string)) {
			continue
		}
		const { key, label } = keyAndLabel(line, groupBy)
		const groupKey = `${key}\u0000${line.rate ?? ''}`
		let group = groups.get(groupKey)
		if (!group) {
			group = { key, label, rate: line.rate, seconds: 0, amount: null, rows: new Set() }
			groups.set(groupKey, group)
		}
		group.seconds += line.seconds
		group.amount = line.amount === null ? group.amount : (group.amount ?? 0) + line.amount
		group.rows.add(line.externalRowId as string)
	}
	const rateCounts = new Map<string, number>()
	for (const group of groups.values()) {
		rateCounts.set(group.key, (rateCounts.get(group.key) ?? 0) + 1)
	}
	const result: UnbilledLine[] = [...groups.values()]
		.map((group) => {
			const isSplit = (rateCounts.get(group.key) ?? 0) > 1
			const seconds =
				rounding?.scope === 'total' ? roundSeconds(group.seconds, rounding.mode, rounding.minutes) : group.seconds
			return {
				key: isSplit ? `${group.key}:${group.rate ?? 'none'}` : group.key,
				description:
					isSplit && group.rate !== null
						? `${group.label} (${amountText(group.rate, currency)} ${currency}/h)`
						: group.label,
				seconds,
				rate: group.rate,
				amount: group.amount,
				rowIds: [...group.rows].sort(),
			}
		})
		.sort((a, b) => b.seconds - a.seconds || a.description.localeCompare(b.description))
	const amounts = result.map((line) => line.amount).filter((amount): amount is number => amount !== null)
	return {
		viewId: view.id,
		currency,
		lines: result,
		total: {
			seconds: result.reduce((sum, line) => sum + line.seconds, 0),
			amount: amounts.length > 0 ? amounts.reduce((sum, amount) => sum + amount, 0) : null,
		},
	}
}

/** The database a view of the organization reads (where `markBilled` marks its rows); 404 for another's. */
export async function viewDatabaseId(deps: TimeDeps, orgId: string, viewId: string): Promise<string> {
	return (await viewById(deps, orgId, viewId)).databaseId
}

/** Which of these rows are billed, by which invoice. */
async function billedRows(db: Db, databaseId: string, externalRowIds: string[]): Promise<Map<string, string>> {
	const billed = new Map<string, string>()
	for (let index = 0; index < externalRowIds.length; index += 1000) {
		const rows = await db
			.select({ externalRowId: timeBilled.externalRowId, invoiceRef: timeBilled.invoiceRef })
			.from(timeBilled)
			.where(
				and(
					eq(timeBilled.databaseId, databaseId),
					inArray(timeBilled.externalRowId, externalRowIds.slice(index, index + 1000)),
				),
			)
		for (const row of rows) {
			billed.set(row.externalRowId, row.invoiceRef)
		}
	}
	return billed
}

function checkMarkInput(externalRowIds: string[], invoiceRef: string): string[] {
	const ids = [...new Set(externalRowIds)]
	if (ids.length === 0 || ids.length > maxMarkedRows || ids.some((id) => id.length === 0 || id.length > 200)) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'externalRowIds', message: `Name between 1 and ${maxMarkedRows} rows.` }],
		})
	}
	if (invoiceRef.trim().length === 0 || invoiceRef.length > 200) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'invoiceRef', message: 'Name the invoice (at most 200 characters).' }],
		})
	}
	return ids
}

/** The organization's database; 404 for another organization's. */
async function assertOwnDatabase(deps: TimeDeps, orgId: string, databaseId: string): Promise<void> {
	const [database] = await deps.db
		.select({ id: workspaceDatabases.id })
		.from(workspaceDatabases)
		.where(and(eq(workspaceDatabases.id, databaseId), eq(workspaceDatabases.organizationId, orgId)))
	if (!database) {
		throw new AppError('NOT_FOUND', { detail: 'No such database.' })
	}
}

/**
 * Records that `invoiceRef` billed these rows of the database. Again for the same invoice:
 * nothing changes. A row another invoice billed: 409 and nothing is marked. A row the database
 * does not hold (neither mirrored nor created by one of our entries): 400 naming externalRowIds.
 */
export async function markBilled(
	deps: TimeDeps,
	orgId: string,
	databaseId: string,
	externalRowIds: string[],
	invoiceRef: string,
): Promise<{ marked: number }> {
	const ids = checkMarkInput(externalRowIds, invoiceRef)
	await assertOwnDatabase(deps, orgId, databaseId)
	return deps.db.transaction(async (tx) => {
		const known = new Set<string>()
		for (let index = 0; index < ids.length; index += 1000) {
			const chunk = ids.slice(index, index + 1000)
			// The mirror's rows, and rows our entries created (delivered, maybe not mirrored yet).
			const mirrored = await tx
				.select({ externalId: workspaceRows.externalId })
				.from(workspaceRows)
				.where(
					and(
						eq(workspaceRows.databaseId, databaseId),
						eq(workspaceRows.organizationId, orgId),
						inArray(workspaceRows.externalId, chunk),
					),
				)
			const created = await tx
				.select({ externalId: workspaceWrites.externalRowId })
				.from(workspaceWrites)
				.where(
					and(
						eq(workspaceWrites.databaseId, databaseId),
						eq(workspaceWrites.organizationId, orgId),
						eq(workspaceWrites.kind, 'create'),
						eq(workspaceWrites.state, 'delivered'),
						inArray(workspaceWrites.externalRowId, chunk),
					),
				)
			for (const row of [...mirrored, ...created]) {
				if (row.externalId) {
					known.add(row.externalId)
				}
			}
		}
		const unknown = ids.filter((id) => !known.has(id))
		if (unknown.length > 0) {
			throw new AppError('VALIDATION_FAILED', {
				errors: [
					{
						field: 'externalRowIds',
						message: `${unknown.length} of the rows are not in this database (${unknown.slice(0, 3).join(', ')}).`,
					},
				],
			})
		}
		let marked = 0
		for (let index = 0; index < ids.length; index += 1000) {
			const inserted = await tx
				.insert(timeBilled)
				.values(
					ids
						.slice(index, index + 1000)
						.map((externalRowId) => ({ organizationId: orgId, databaseId, externalRowId, invoiceRef })),
				)
				.onConflictDoNothing()
				.returning({ externalRowId: timeBilled.externalRowId })
			marked += inserted.length
		}
		// Rows billed before (or by a concurrent call) keep their invoice: another one is refused.
		const billed = await billedRows(tx, databaseId, ids)
		const taken = ids.filter((id) => billed.get(id) !== invoiceRef)
		if (taken.length > 0) {
			throw new AppError('CONFLICT', {
				detail: `${taken.length} of these rows were billed by another invoice already; nothing was marked.`,
			})
		}
		return { marked }
	})
}

/** An invoice voided: its rows are offered as unbilled again (all of them, or those named). */
export async function unmarkBilled(
	deps: TimeDeps,
	orgId: string,
	databaseId: string,
	externalRowIds: string[] | null,
	invoiceRef: string,
): Promise<{ unmarked: number }> {
	await assertOwnDatabase(deps, orgId, databaseId)
	const conditions = [
		eq(timeBilled.organizationId, orgId),
		eq(timeBilled.databaseId, databaseId),
		eq(timeBilled.invoiceRef, invoiceRef),
	]
	if (externalRowIds) {
		conditions.push(inArray(timeBilled.externalRowId, checkMarkInput(externalRowIds, invoiceRef)))
	}
	const removed = await deps.db
		.delete(timeBilled)
		.where(and(...conditions))
		.returning({ externalRowId: timeBilled.externalRowId })
	return { unmarked: removed.length }
}

export { createTimeExport } from './time.org-export.ts'
