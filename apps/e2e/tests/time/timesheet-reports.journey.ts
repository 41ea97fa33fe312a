import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { formatDuration } from '@blocksmith/contracts/time-duration.ts'
import type { Download, Locator, Page } from 'playwright-core'
import { until } from '../../../server/src/test/until.ts'
import { api, assertNoProblems, failedRequest, newPage, pathOf, useBrowser } from '../../fixtures.ts'
import { createSampleWorkspace, mapSuggested, toast } from './time-steps.ts'

// The timesheet and reports as the "done when" tells them: on the sample workspace's
// Time entries (mapped as suggested), two rows of a week typed by keyboard only, kept after a
// reload with their day, row and week totals; a report of this week by project whose table
// equals the database's rows summed here; its CSV (summary and entries) and PDF downloaded and
// read; a shared link opened signed out with the same figures, then revoked.

const browser = useBrowser()

type Row = { id: string; title: string; values: Record<string, unknown> }
type RowPage = { rows: Row[]; total: number }
type Database = { id: string; name: string; properties: { id: string; name: string }[] }
type Timesheet = { days: string[]; timeZone: string }
type View = { id: string; name: string; settings: { timeZone: string; weekStart: number; groupBy: string } }

const dayMs = 86_400_000
/** Hours as the report shows them: h:mm, rounded to the minute. */
const hm = (seconds: number) => formatDuration(seconds, { precision: 'minutes' })
const weekdayOf = (date: string) =>
	new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))
/** A cell's name in the grid: "Website redesign · Wireframes, Monday 23". */
const cellName = (row: string, date: string) => `${row}, ${weekdayOf(date)} ${Number(date.slice(8))}`

const first = { project: 'Website redesign', task: 'Wireframes', label: 'Website redesign · Wireframes' }
const second = { project: 'Brand guidelines', task: 'Logo review', label: 'Brand guidelines · Logo review' }

/** What each row should hold once typed, by weekday: seconds. */
const expected: Record<string, Record<string, number>> = {
	[first.label]: { Monday: 5400, Tuesday: 7200, Wednesday: 2700, Thursday: 5400, Friday: 4500 },
	[second.label]: { Thursday: 5400, Friday: 10800 },
}

async function readAllRows(token: string, databaseId: string): Promise<Row[]> {
	const rows: Row[] = []
	for (let offset = 0; ; offset += 200) {
		const page = await api.callOk<RowPage>(`/dashboard/local/databases/${databaseId}/rows?limit=200&offset=${offset}`, {
			token,
		})
		rows.push(...page.rows)
		if (rows.length >= page.total || page.rows.length === 0) {
			return rows
		}
	}
}

/** The text of each row of a table of figures: its cells, first one the label. */
async function tableRows(table: Locator): Promise<string[][]> {
	return table
		.locator('tbody tr')
		.evaluateAll((rows) =>
			rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => (cell.textContent ?? '').trim())),
		)
}

/** Parses a CSV of ours: a BOM, CRLF lines, and (in these figures) no quoted cells. */
function parseCsv(text: string): string[][] {
	assert.ok(text.startsWith('\uFEFF'), 'the CSV starts with a BOM')
	assert.ok(!text.includes('"'), 'no quoted cells in these figures')
	return text
		.slice(1)
		.split('\r\n')
		.filter((line) => line !== '')
		.map((line) => line.split(','))
}

/** "2:30" as seconds. */
function secondsOfHm(text: string): number {
	const [hours, minutes] = text.split(':').map(Number)
	return (hours ?? Number.NaN) * 3600 + (minutes ?? Number.NaN) * 60
}

async function exportFile(page: Page, item: string): Promise<{ download: Download; bytes: Buffer }> {
	await page.getByRole('button', { name: 'Export' }).click()
	const [download] = await Promise.all([
		page.waitForEvent('download'),
		page.getByRole('menuitem', { name: item, exact: true }).click(),
	])
	return { download, bytes: await readFile((await download.path()) ?? '') }
}

/** Adds a project/task row from the timesheet's "Add row" dialog. */
async function addRow(page: Page, row: { project: string; task: string }): Promise<void> {
	await page.getByRole('button', { name: 'Add row' }).click()
	const dialog = page.getByRole('dialog', { name: 'Add a row' })
	const project = dialog.getByRole('combobox', { name: 'Project' })
	// The choices are the related Projects database's rows, read when the dialog opens.
	await project.locator('option', { hasText: row.project }).waitFor({ state: 'attached' })
	await project.selectOption({ label: row.project })
	await dialog.getByRole('textbox', { name: 'Task' }).fill(row.task)
	await dialog.getByRole('button', { name: 'Add row' }).click()
	await dialog.waitFor({ state: 'detached' })
}

test('a week typed in the timesheet, a report by project equal to the rows, exported, shared signed out and revoked', async (t) => {
	const account = await api.signUp({ name: 'Tessa Sheet' })
	const { page, context, problems } = await newPage(browser(), { account, viewport: { width: 1440, height: 900 } })
	t.after(() => context.close())
	await createSampleWorkspace(page)
	await mapSuggested(page, 'Time entries')

	// 1. The timesheet: two rows, then the week typed by keyboard only.
	const loaded = page.waitForResponse(
		(response) => /\/dashboard\/local_time\/timesheet\?/.test(response.url()) && response.status() === 200,
	)
	await page.goto('/time/timesheet')
	const { days, timeZone } = (await (await loaded).json()) as Timesheet
	assert.equal(timeZone, 'UTC', "the browser's zone")
	await page.getByText('Nothing this week yet').waitFor()
	const dateOf = (weekday: string) => {
		const date = days.find((day) => weekdayOf(day) === weekday)
		assert.ok(date, `${weekday} in ${days.join(', ')}`)
		return date
	}
	const cell = (row: string, weekday: string) =>
		page.getByRole('textbox', { name: cellName(row, dateOf(weekday)), exact: true })
	await addRow(page, first)
	await addRow(page, second)
	await cell(second.label, 'Friday').waitFor()

	// The dialog gives the focus back to "Add row"; Tab leads into the grid's first cell.
	await page.keyboard.press('Tab')
	assert.equal(
		await cell(first.label, weekdayOf(days[0] ?? '')).evaluate((input) => input === document.activeElement),
		true,
	)
	for (let index = days.indexOf(dateOf('Monday')); index > 0; index--) {
		await page.keyboard.press('ArrowRight')
	}
	const typeAndMove = async (text: string, key: string) => {
		await page.keyboard.type(text)
		await page.keyboard.press(key)
	}
	await typeAndMove('1:30', 'ArrowRight')
	await typeAndMove('2h', 'Tab')
	await typeAndMove('45m', 'ArrowRight')
	await typeAndMove('1.5h', 'Tab')
	await typeAndMove('1h 15m', 'ArrowDown')
	await typeAndMove('3h', 'Shift+Tab')
	// A wrong value says what is wrong under its cell at once, and is not saved when left.
	await page.keyboard.type('2d')
	const message = page.getByRole('alert').filter({ hasText: '"2d": days are not accepted' })
	await message.waitFor()
	assert.equal(await cell(second.label, 'Thursday').getAttribute('aria-invalid'), 'true')
	await page.keyboard.press('Tab')
	await message.waitFor()
	// Back to it: Escape puts the stored figure (none) back, and the message goes.
	await page.keyboard.press('Shift+Tab')
	await page.keyboard.press('Escape')
	await message.waitFor({ state: 'detached' })
	assert.equal(await cell(second.label, 'Thursday').inputValue(), '')
	// Enter on the last row saves in place.
	await typeAndMove('90m', 'Enter')

	const sumOf = (seconds: Record<string, number>) => Object.values(seconds).reduce((sum, value) => sum + value, 0)
	const weekdays = days.map(weekdayOf)
	const dayTotal = (weekday: string) => Object.values(expected).reduce((sum, byDay) => sum + (byDay[weekday] ?? 0), 0)
	const weekTotal = Object.values(expected).reduce((sum, byDay) => sum + sumOf(byDay), 0)
	const assertWeek = async (what: string) => {
		for (const [row, byDay] of Object.entries(expected)) {
			for (const weekday of weekdays) {
				const seconds = byDay[weekday]
				assert.equal(
					await cell(row, weekday).inputValue(),
					seconds === undefined ? '' : formatDuration(seconds),
					`${what}: ${row} on ${weekday}`,
				)
			}
			const total = page.locator('tbody tr').filter({ has: page.getByRole('rowheader', { name: row, exact: true }) })
			assert.equal(
				await total.locator('td').last().textContent(),
				formatDuration(sumOf(byDay)),
				`${what}: ${row}'s total`,
			)
		}
		for (const [index, weekday] of weekdays.entries()) {
			const date = days[index] ?? ''
			const label = `Total, ${weekday} ${Number(date.slice(8))}: ${formatDuration(dayTotal(weekday))}`
			await page.getByRole('cell', { name: label, exact: true }).waitFor()
		}
		await page.getByRole('cell', { name: `Week total: ${formatDuration(weekTotal)}`, exact: true }).waitFor()
	}
	// Every typed cell saved: its check mark (a cell whose save failed would show its message instead).
	for (const [row, byDay] of Object.entries(expected)) {
		for (const weekday of Object.keys(byDay)) {
			await page
				.locator('td')
				.filter({ has: cell(row, weekday) })
				.getByRole('status', { name: 'Saved' })
				.waitFor()
		}
	}
	await assertWeek('as typed')
	await page.reload()
	await cell(second.label, 'Friday').waitFor()
	await assertWeek('after a reload')

	// 2. A report of this week by project, as a new report starts.
	await page.getByRole('navigation', { name: 'Time tracking' }).getByRole('link', { name: 'Reports' }).click()
	await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor()
	await page.getByRole('button', { name: 'New report' }).click()
	const dialog = page.getByRole('dialog', { name: 'New report' })
	await dialog.getByRole('textbox', { name: 'Name' }).fill('Week by project')
	await dialog.getByRole('button', { name: 'Create report' }).click()
	await page.waitForURL((url) => /^\/time\/reports\/[^/]+$/.test(url.pathname))
	await page.getByRole('heading', { level: 1, name: 'Week by project' }).waitFor()
	assert.equal(await page.getByRole('combobox', { name: 'Range' }).inputValue(), 'this_week')
	assert.equal(await page.getByRole('combobox', { name: 'Group by' }).inputValue(), 'project')
	const viewId = decodeURIComponent(pathOf(page).split('/')[3]?.split('?')[0] ?? '')
	const view = await api.callOk<View>(`/dashboard/local_time/views/${viewId}`, { token: account.token })
	assert.equal(view.settings.timeZone, 'UTC', "the view counts days in the browser's zone")

	// The rows of the database, summed here: this week's local days (in UTC, the view's zone), by project.
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token: account.token })
	const databaseOf = (name: string) => {
		const found = databases.find((database) => database.name === name)
		assert.ok(found, `the sample has ${name}`)
		return found
	}
	const entries = databaseOf('Time entries')
	const propertyId = (name: string) => {
		const found = entries.properties.find((property) => property.name === name)
		assert.ok(found, `Time entries has ${name}`)
		return found.id
	}
	const [when, hours, projectProperty] = [propertyId('When'), propertyId('Hours'), propertyId('Project')]
	const projectNames = new Map(
		(await readAllRows(account.token, databaseOf('Projects').id)).map((row) => [row.id, row.title]),
	)
	const today = new Date().toISOString().slice(0, 10)
	const weekday = new Date(`${today}T00:00:00Z`).getUTCDay()
	const from = Date.parse(`${today}T00:00:00Z`) - ((weekday - view.settings.weekStart + 7) % 7) * dayMs
	const to = from + 7 * dayMs
	const rowsInWeek = (rows: Row[]) =>
		rows.flatMap((row) => {
			const date = row.values[when] as { start: string; end: string | null } | null
			if (!date?.start.includes('T')) {
				return []
			}
			const start = Date.parse(date.start)
			const end = date.end ? Date.parse(date.end) : start + Number(row.values[hours]) * 3_600_000
			const seconds = Math.max(0, Math.min(end, to) - Math.max(start, from)) / 1000
			const project = (row.values[projectProperty] as string[] | null)?.[0]
			return seconds > 0 && Number.isFinite(seconds)
				? [{ project: project ? (projectNames.get(project) ?? 'Unknown project') : 'No project', seconds }]
				: []
		})
	// The timesheet's entries reach the rows through the write queue: every cell's row, with its end.
	const typedCells = Object.values(expected).reduce((sum, byDay) => sum + Object.keys(byDay).length, 0)
	const inWeek = await until(
		"the week's rows written",
		async () => rowsInWeek(await readAllRows(account.token, entries.id)),
		(found) => found.length === typedCells,
	)
	const byProject = new Map<string, number>()
	for (const { project, seconds } of inWeek) {
		byProject.set(project, (byProject.get(project) ?? 0) + seconds)
	}
	const total = [...byProject.values()].reduce((sum, seconds) => sum + seconds, 0)
	// The new report's week is the timesheet's (its weeks start on the browser's first day too).
	const reportWeek = Array.from({ length: 7 }, (_, index) => new Date(from + index * dayMs).toISOString().slice(0, 10))
	assert.deepEqual(reportWeek, days, "the report's week is the timesheet's")
	assert.equal(total, weekTotal)

	const table = page.getByRole('table', { name: 'Time by project' })
	await table.locator('tbody tr').filter({ hasText: 'Total' }).waitFor()
	const shown = await tableRows(table)
	const want = [...[...byProject].map(([project, seconds]) => [project, hm(seconds)]), ['Total', hm(total)]]
	assert.deepEqual(
		shown.map(([label, time]) => [label, time]).sort(),
		want.sort(),
		'the table by project is the rows summed',
	)
	const totalCard = page.locator('dl > div').filter({ hasText: 'Total hours' }).getByRole('definition')
	assert.equal(await totalCard.textContent(), hm(total), 'Total hours')

	// 3. Exports: the summary CSV says what the page says; the entries CSV has a line per cell; a PDF.
	const summary = await exportFile(page, 'CSV summary')
	assert.equal(summary.download.suggestedFilename(), 'Week by project summary.csv')
	const [header, ...lines] = parseCsv(summary.bytes.toString('utf8'))
	assert.deepEqual(header, ['Project', 'Hours', 'Duration', 'Billable hours', 'Amount (EUR)', 'Entries'])
	assert.deepEqual(
		lines.map((cells) => [cells[0], cells[2]]).sort(),
		shown.map(([label, time]) => [label, time]).sort(),
		"the CSV's durations are the page's",
	)
	assert.equal(lines.at(-1)?.[0], 'Total')
	assert.equal(lines.at(-1)?.[5], String(typedCells))

	const detailed = await exportFile(page, 'CSV entries')
	assert.equal(detailed.download.suggestedFilename(), 'Week by project.csv')
	const [entryHeader, ...entryLines] = parseCsv(detailed.bytes.toString('utf8'))
	assert.equal(entryLines.length, typedCells, 'a line per typed cell')
	const column = (name: string) => entryHeader?.indexOf(name) ?? -1
	const csvByProject = new Map<string, number>()
	for (const cells of entryLines) {
		const project = cells[column('Project')] ?? ''
		csvByProject.set(project, (csvByProject.get(project) ?? 0) + secondsOfHm(cells[column('Duration')] ?? ''))
	}
	assert.deepEqual(
		new Map([...csvByProject].sort()),
		new Map([...byProject].sort()),
		"the entries' durations by project",
	)

	const pdf = await exportFile(page, 'PDF entries')
	assert.equal(pdf.download.suggestedFilename(), 'Week by project.pdf')
	assert.equal(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-')
	// pdfkit writes each entry of the document's info as an object of its own: /Title n 0 R, then (text).
	assert.ok(
		pdf.bytes.includes('/Title ') && pdf.bytes.includes('(Week by project)'),
		"the PDF's title is the report's name",
	)

	// 4. A shared link, opened signed out: the same figures; revoked, it stops working.
	await page.getByRole('button', { name: 'Share' }).click()
	const share = page.getByRole('dialog', { name: 'Share this report' })
	await share.getByRole('button', { name: 'Create link' }).click()
	const link = new URL(await share.getByRole('textbox', { name: 'New link' }).inputValue())
	assert.match(link.pathname, /^\/time\/shared\/[^/]+$/)
	const visitor = await newPage(browser())
	t.after(() => visitor.context.close())
	await visitor.page.goto(link.pathname)
	await visitor.page.getByRole('heading', { level: 1, name: 'Week by project' }).waitFor()
	const publicTable = visitor.page.getByRole('table', { name: 'Time by project' })
	await publicTable.locator('tbody tr').filter({ hasText: 'Total' }).waitFor()
	assert.deepEqual(await tableRows(publicTable), shown, 'the shared report has the same table')
	await visitor.page.getByRole('figure', { name: 'Hours per period' }).locator('svg').first().waitFor()

	await share.getByRole('table', { name: 'Links' }).getByRole('button', { name: 'Revoke' }).click()
	await toast(page, 'The link is revoked: it no longer opens the report.').waitFor()
	await share.getByRole('table', { name: 'Links' }).getByText('Revoked', { exact: true }).waitFor()
	await visitor.page.reload()
	await visitor.page.getByText('This report link has expired or was revoked.').waitFor()
	assert.equal(await publicTable.count(), 0, 'no figures left on the page')

	assertNoProblems(problems)
	// The revoked link's report answers 404 (that is the point).
	assertNoProblems(visitor.problems, [failedRequest(404)])
})
