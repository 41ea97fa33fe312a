import Papa from 'papaparse'
import readXlsxFile from 'read-excel-file/node'
import { extractText } from 'unpdf'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { download, expected, trackedWeek } from '#src/test/time-reports.ts'
import { exportLimits } from './time.export.ts'
import { amountText, hoursMinutesText, hoursText } from './time.export-format.ts'

// A view's exports read back and compared with its analytics: CSV (entries and summary), XLSX
// and PDF; the file's name; the line limit (413); tenancy and a bad query (400 naming the field).

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

type Group = {
	key: string
	label: string
	seconds: number
	billableSeconds: number
	amount: number | null
	entries: number
}

/** Decimal text ("516.63", "5.50") as whole hundredths, exactly. */
const hundredths = (text: string) => {
	const [whole = '0', fraction = ''] = text.split('.')
	return Number(whole) * 100 + Number(fraction.padEnd(2, '0'))
}

const csvOf = (bytes: Uint8Array) => {
	const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
	expect(text.startsWith('\uFEFF')).toBe(true)
	const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true })
	expect(parsed.errors).toEqual([])
	return parsed.data
}

describe('exports of a view', () => {
	test('CSV, XLSX and PDF hold the figures of its analytics', async () => {
		const team = await teamWithEveryRole(t)
		const { owner, member } = team
		const { viewId, p1, p2 } = await trackedWeek(t, team)
		const base = `/dashboard/local_time/views/${viewId}`
		const analytics = await t.request('GET', `${base}/analytics`, { token: owner.token })
		expect(analytics.status).toBe(200)
		const { totals } = analytics.body
		expect(totals).toMatchObject({
			seconds: expected.seconds,
			billableSeconds: expected.billableSeconds,
			amount: expected.amount,
		})
		const groups = analytics.body.groups.project as Group[]

		// Entries as CSV: one line per entry and day; hours and amounts add up to the totals.
		const entries = await download(t, `${base}/export?format=csv&detail=entries`, member.token)
		expect(entries.status).toBe(200)
		expect(entries.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		expect(entries.headers.get('content-disposition')).toBe(
			`attachment; filename*=UTF-8''${encodeURIComponent('End of March 2026-03-28 to 2026-03-30.csv')}`,
		)
		const lines = csvOf(entries.bytes)
		expect(lines.map((line) => [line.Date, line.Start, line.End, line.Project, line.Hours])).toEqual([
			['2026-03-28', '23:30', '24:00', p1.title, '0.50'],
			['2026-03-29', '00:00', '03:10', p1.title, '2.25'],
			['2026-03-29', '01:00', '01:30', p1.title, '0.50'],
			['2026-03-30', '11:00', '12:00', '', '1.00'],
			['2026-03-30', '14:00', '15:15', p2.title, '1.25'],
		])
		const sum = (column: string) => lines.reduce((total, line) => total + hundredths(line[column] || '0'), 0)
		expect(sum('Hours')).toBe(totals.seconds / 36)
		expect(sum('Amount (EUR)')).toBe(totals.amount)
		expect(lines[0]).toMatchObject({ Person: 'Olive Owner', Task: 'Design', Tags: 'Meeting', Billable: 'Yes' })
		// A description that a spreadsheet would run is text.
		expect(lines[0]?.Description).toBe('\'=HYPERLINK("http://example.com","A")')

		// The summary: one row per group of the view's grouping, and the total.
		const summary = csvOf((await download(t, `${base}/export?format=csv&detail=summary`, owner.token)).bytes)
		expect(summary).toEqual([
			...groups.map((group) => ({
				Project: group.label,
				Hours: hoursText(group.seconds),
				Duration: hoursMinutesText(group.seconds),
				'Billable hours': hoursText(group.billableSeconds),
				'Amount (EUR)': amountText(group.amount, 'EUR'),
				Entries: String(group.entries),
			})),
			{
				Project: 'Total',
				Hours: '5.50',
				Duration: '5:30',
				'Billable hours': '4.50',
				'Amount (EUR)': '516.63',
				Entries: '4',
			},
		])

		// XLSX: the same figures as numbers.
		const xlsx = await download(t, `${base}/export?format=xlsx`, owner.token)
		expect(xlsx.status).toBe(200)
		expect(xlsx.headers.get('content-disposition')).toContain('.xlsx')
		const [summarySheet, entriesSheet] = await readXlsxFile(Buffer.from(xlsx.bytes))
		expect(summarySheet?.data.slice(4)).toEqual([
			...groups.map((group) => [
				group.label,
				group.seconds / 3600,
				hoursMinutesText(group.seconds),
				group.billableSeconds / 3600,
				group.amount === null ? null : group.amount / 100,
				group.entries,
			]),
			['Total', 5.5, '5:30', 4.5, 516.63, 4],
		])
		expect(entriesSheet?.data).toHaveLength(lines.length + 1)

		// PDF: a report whose text holds the totals, the groups and each line.
		const pdf = await download(t, `${base}/export?format=pdf`, owner.token)
		expect(pdf.status).toBe(200)
		expect(pdf.headers.get('content-type')).toBe('application/pdf')
		const { text, totalPages } = await extractText(pdf.bytes, { mergePages: true })
		expect(totalPages).toBe(1)
		for (const part of ['End of March', 'Europe/Berlin', '5:30', '4:30', '516.63 EUR', p1.title, p2.title, 'Total']) {
			expect(text).toContain(part)
		}
		expect(text).toContain('00:00–03:10')
	})

	test(`more lines than a format lists are refused with 413, the summary still works`, async () => {
		const team = await teamWithEveryRole(t)
		const { owner } = team
		const { viewId, insert, prop } = await trackedWeek(t, team)
		// Five thousand short entries on the 30th (with the week's five lines: past the PDF's limit).
		const start = Date.parse('2026-03-30T00:00:00Z')
		await insert(
			Array.from({ length: exportLimits.pdfLines }, (_, index) => ({
				[prop('Description')]: `Short ${index}`,
				[prop('When')]: {
					start: new Date(start + index * 10_000).toISOString(),
					end: new Date(start + index * 10_000 + 5_000).toISOString(),
					timeZone: null,
				},
			})),
		)
		const base = `/dashboard/local_time/views/${viewId}`
		const refused = await t.request('GET', `${base}/export?format=pdf&detail=entries`, { token: owner.token })
		expect(refused.status).toBe(413)
		expect(refused.body.code).toBe('PAYLOAD_TOO_LARGE')
		expect(refused.body.detail).toContain('5,000')
		const summary = await download(t, `${base}/export?format=pdf&detail=summary`, owner.token)
		expect(summary.status).toBe(200)
		const csv = await download(t, `${base}/export?format=csv`, owner.token)
		expect(csv.status).toBe(200)
		expect(csvOf(csv.bytes)).toHaveLength(exportLimits.pdfLines + 5)
	})

	test("another organization's view is 404; a bad format is a 400 naming it", async () => {
		const team = await teamWithEveryRole(t)
		const { viewId } = await trackedWeek(t, team)
		const stranger = await t.signUp()
		const foreign = await t.request('GET', `/dashboard/local_time/views/${viewId}/export?format=csv`, {
			token: stranger.token,
		})
		expect(foreign.status).toBe(404)
		const otherTool = await t.request('GET', `/dashboard/notion_time/views/${viewId}/export?format=csv`, {
			token: team.owner.token,
		})
		expect(otherTool.status).toBe(404)
		const bad = await t.request('GET', `/dashboard/local_time/views/${viewId}/export?format=docx`, {
			token: team.owner.token,
		})
		expect(bad.status).toBe(400)
		expect(bad.body.errors.map((error: { field: string }) => error.field)).toContain('format')
		const signedOut = await t.request('GET', `/dashboard/local_time/views/${viewId}/export?format=csv`)
		expect(signedOut.status).toBe(401)
	})
})
