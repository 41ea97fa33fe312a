import { Readable } from 'node:stream'
import { and, asc, eq } from 'drizzle-orm'
import Papa from 'papaparse'
import type { ExportContext, ExportContributor } from '#src/core/exports/exports.contributor.ts'
import { AppError } from '#src/lib/errors.ts'
import type { TimeDeps } from './time.deps.ts'
import { renderReport, reportDocumentOf } from './time.export.ts'
import { timeDatabases, timeEntries, timeShares, timeViews } from './time.schema.ts'
import { viewById } from './time.views.ts'

// The time part of an organization's export (decision 040); time.export.ts is a view's own
// download, which this reuses. Under time/: databases.json (each time database's mapping and
// rates), entries.csv (every entry of ours, deleted ones marked, read a page at a time),
// views.json (saved views with their shared links: when made, expiring, revoked — never the
// token's hash) and reports/<viewId>.csv, each view's report with its entry lines as its CSV
// download has it (its summary when it has more lines than a download lists).

const page = 1000

export function createTimeExport(deps: TimeDeps): ExportContributor {
	return { label: 'Time tracking', run: (context) => exportTime(deps, context) }
}

async function exportTime(deps: TimeDeps, context: ExportContext): Promise<void> {
	const { db, organizationId, archive } = context
	// One row per database the organization tracks time in: a handful, read at once.
	const databases = await db
		.select()
		.from(timeDatabases)
		.where(eq(timeDatabases.organizationId, organizationId))
		.orderBy(asc(timeDatabases.createdAt), asc(timeDatabases.id))
	await archive.addJson('time/databases.json', databases)
	archive.record(
		'timeDatabases',
		databases.map((database) => database.id),
	)

	const entryIds: string[] = []
	await archive.addFile('time/entries.csv', Readable.from(entriesCsv(context, entryIds)))
	archive.record('timeEntries', entryIds)

	const viewIds: string[] = []
	const views: unknown[] = []
	for (let offset = 0; ; offset += page) {
		const rows = await db
			.select({ id: timeViews.id })
			.from(timeViews)
			.where(eq(timeViews.organizationId, organizationId))
			.orderBy(asc(timeViews.createdAt), asc(timeViews.id))
			.limit(page)
			.offset(offset)
		for (const { id } of rows) {
			const view = await viewById({ ...deps, db }, organizationId, id)
			const shares = await db
				.select({
					id: timeShares.id,
					expiresAt: timeShares.expiresAt,
					revokedAt: timeShares.revokedAt,
					lastOpenedAt: timeShares.lastOpenedAt,
					createdBy: timeShares.createdBy,
					createdAt: timeShares.createdAt,
				})
				.from(timeShares)
				.where(and(eq(timeShares.viewId, id), eq(timeShares.organizationId, organizationId)))
				.orderBy(asc(timeShares.createdAt))
			views.push({ ...view, shares })
			viewIds.push(id)
			await archive.addFile(`time/reports/${id}.csv`, (await reportOf({ ...deps, db }, organizationId, view)).body)
		}
		if (rows.length < page) {
			break
		}
	}
	await archive.addJson('time/views.json', views)
	archive.record('timeViews', viewIds)
}

/** A view's report as its CSV download: with the entry lines, or the summary past the download's limit. */
async function reportOf(deps: TimeDeps, organizationId: string, view: Awaited<ReturnType<typeof viewById>>) {
	const now = deps.now()
	try {
		const report = await reportDocumentOf(deps, organizationId, view, { detail: 'entries', format: 'csv', now })
		return await renderReport(report, 'csv')
	} catch (error) {
		if (!(error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE')) {
			throw error
		}
		const summary = await reportDocumentOf(deps, organizationId, view, { detail: 'summary', format: 'csv', now })
		return renderReport(summary, 'csv')
	}
}

/** Every time entry of the organization as CSV, oldest first, a page at a time; `ids` gets their ids. */
async function* entriesCsv(context: ExportContext, ids: string[]) {
	const header = [
		'id',
		'databaseId',
		'userId',
		'personRef',
		'startedAt',
		'endedAt',
		'description',
		'project',
		'task',
		'tags',
		'billable',
		'deletedAt',
		'createdAt',
		'updatedAt',
	]
	yield `${Papa.unparse([header], { escapeFormulae: true })}\r\n`
	for (let offset = 0; ; offset += page) {
		const rows = await context.db
			.select()
			.from(timeEntries)
			.where(eq(timeEntries.organizationId, context.organizationId))
			.orderBy(asc(timeEntries.startedAt), asc(timeEntries.id))
			.limit(page)
			.offset(offset)
		if (rows.length > 0) {
			const records = rows.map((entry) => [
				entry.id,
				entry.databaseId,
				entry.userId ?? '',
				entry.personRef ?? '',
				entry.startedAt.toISOString(),
				entry.endedAt?.toISOString() ?? '',
				entry.description ?? '',
				entry.project ?? '',
				entry.task ?? '',
				entry.tags.join(', '),
				entry.billable === null ? '' : String(entry.billable),
				entry.deletedAt?.toISOString() ?? '',
				entry.createdAt.toISOString(),
				entry.updatedAt.toISOString(),
			])
			ids.push(...rows.map((entry) => entry.id))
			yield `${Papa.unparse(records, { header: false, escapeFormulae: true })}\r\n`
		}
		if (rows.length < page) {
			return
		}
	}
}
