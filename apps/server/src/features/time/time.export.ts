// Exports of a view: its report as CSV, XLSX or PDF, with the entry lines or as a summary by
// its grouping. Figures come from the same functions the report page reads (viewAnalytics,
// viewEntryLines), so a download says what the page says.
//
// Limits: an export lists at most 50,000 lines (CSV, XLSX) or 5,000 (PDF, about 100 pages and
// a few seconds to lay out); a view with more is refused with a 413 naming the limit, rather
// than cut short silently: a partial file would add up to less than the report. A summary has
// no lines, so it is never refused.

import type { TimeGroup } from '@blocksmith/contracts/time-reports.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { AppError } from '#src/lib/errors.ts'
import { localDateOf } from './time.days.ts'
import type { TimeCtx, TimeDeps } from './time.deps.ts'
import { reportCsv } from './time.export-csv.ts'
import { type ExportLine, exportFileName, type ReportAnalytics, type ReportDocument } from './time.export-format.ts'
import { reportPdf } from './time.export-pdf.ts'
import { reportXlsx } from './time.export-xlsx.ts'
import { type ReportLine, viewAnalytics, viewEntryLines } from './time.reports.ts'
import { findView, type ReportView } from './time.views.ts'

export type ExportFormat = 'csv' | 'xlsx' | 'pdf'
export type ExportDetail = 'entries' | 'summary'
export type ExportFile = { body: string | Uint8Array; contentType: string; filename: string }

export const exportLimits = { lines: 50_000, pdfLines: 5_000 } as const

const contentTypes: Record<ExportFormat, string> = {
	csv: 'text/csv; charset=utf-8',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	pdf: 'application/pdf',
}

const clockFormats = new Map<string, Intl.DateTimeFormat>()

/** "HH:mm" of an instant in a zone. */
function clockOf(instant: string, timeZone: string): string {
	let format = clockFormats.get(timeZone)
	if (!format) {
		format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
		clockFormats.set(timeZone, format)
	}
	return format.format(new Date(instant))
}

/**
 * The report's lines as exports show them: local clock times of the part on that day (an end at
 * the next day's start is 24:00; a running entry's last part has no end yet), labels only.
 */
function exportLinesOf(lines: ReportLine[], timeZone: string, now: Date): ExportLine[] {
	const nowSecond = Math.floor(now.getTime() / 1000) * 1000
	return lines.map((line) => {
		const isStillRunning = line.isRunning && Date.parse(line.end) >= nowSecond
		const end = isStillRunning
			? null
			: localDateOf(line.end, timeZone) === line.date
				? clockOf(line.end, timeZone)
				: '24:00'
		return {
			date: line.date,
			start: clockOf(line.start, timeZone),
			end,
			person: line.person === null ? '' : line.personLabel,
			project: line.project === null ? '' : line.projectLabel,
			client: line.client === null ? '' : line.clientLabel,
			task: line.taskLabel ?? '',
			tags: line.tags,
			billable: line.billable,
			description: line.description ?? '',
			seconds: line.seconds,
			amount: line.amount,
		}
	})
}

/** The report of a view, with its lines when asked (refused past the format's limit). */
export async function reportDocumentOf(
	deps: TimeDeps,
	orgId: string,
	view: ReportView,
	options: { detail: ExportDetail; format: ExportFormat; now: Date },
): Promise<ReportDocument> {
	const { now } = options
	const analytics: ReportAnalytics = await viewAnalytics(deps, orgId, view, now)
	let lines: ExportLine[] | null = null
	if (options.detail === 'entries') {
		const limit = options.format === 'pdf' ? exportLimits.pdfLines : exportLimits.lines
		const read = await viewEntryLines(deps, orgId, view, now, { limit: limit + 1 })
		if (read.length > limit) {
			const other = options.format === 'pdf' ? ' Export the entries as CSV or XLSX,' : ''
			throw new AppError('PAYLOAD_TOO_LARGE', {
				detail: `This view has more than ${limit.toLocaleString('en')} entry lines, the most a ${options.format.toUpperCase()} export lists.${other} Export the summary, or narrow the view's range.`,
			})
		}
		lines = exportLinesOf(read, view.settings.timeZone, now)
	}
	return { title: view.name, analytics, groupBy: view.settings.groupBy satisfies TimeGroup, lines }
}

export async function renderReport(report: ReportDocument, format: ExportFormat): Promise<ExportFile> {
	const body =
		format === 'csv' ? reportCsv(report) : format === 'xlsx' ? await reportXlsx(report) : await reportPdf(report)
	return { body, contentType: contentTypes[format], filename: exportFileName(report.title, report.analytics, format) }
}

/** A member's download of a view of their organization in this tool (404 otherwise). */
export async function exportView(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	id: string,
	query: { format: ExportFormat; detail: ExportDetail },
): Promise<ExportFile> {
	const view = await findView(ctx, tool, id)
	const report = await reportDocumentOf(ctx, ctx.orgId, view, { ...query, now: ctx.now() })
	return renderReport(report, query.format)
}
