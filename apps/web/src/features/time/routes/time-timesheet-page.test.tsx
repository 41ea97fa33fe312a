import type { TimeDatabase, Timesheet } from '@blocksmith/contracts/time.ts'
import { parseDuration } from '@blocksmith/contracts/time-duration.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { addDays, dayName } from '../components/timesheet-week.ts'
import { TimeTimesheetPage } from './time-timesheet-page.tsx'

const review = {
	mapping: {
		start: 'start',
		end: 'end',
		duration: null,
		durationUnit: 'hours' as const,
		person: 'person',
		project: 'project',
		client: null,
		task: 'task',
		tags: null,
		billable: null,
		description: null,
	},
	fields: [],
	isComplete: true,
}

const database: TimeDatabase = {
	id: 'db1',
	workspaceId: 'ws1',
	tool: 'local',
	name: 'Time entries',
	icon: null,
	saved: review,
	suggested: review,
	updatedAt: '2026-11-20T10:00:00.000Z',
}

/** The week of the asked date, as the server would answer it: two rows, one cell made of three entries. */
function week(date: string): Timesheet {
	const days = Array.from({ length: 7 }, (_, index) => addDays(date, index))
	const zeros = days.map(() => 0)
	return {
		databaseId: 'db1',
		timeZone: 'UTC',
		days,
		rows: [
			{
				key: 'website',
				project: 'p1',
				projectName: 'Website',
				task: null,
				seconds: [0, 3600, 0, 0, 0, 0, 0],
				entries: [0, 1, 0, 0, 0, 0, 0],
				total: 3600,
			},
			{
				key: 'app',
				project: 'p2',
				projectName: 'App',
				task: 'Design',
				seconds: [0, 0, 7200, 0, 0, 0, 0],
				entries: [0, 0, 3, 0, 0, 0, 0],
				total: 7200,
			},
		],
		dayTotals: zeros.map((_, index) => (index === 1 ? 3600 : index === 2 ? 7200 : 0)),
		total: 10_800,
		overlaps: 0,
	}
}

type CellAnswer = (body: Record<string, unknown>, sheet: Timesheet) => Response | Promise<Response>

/** The server's side: sets the cell in its week and answers the week. */
const storeCell: CellAnswer = (body, sheet) => {
	const row = sheet.rows.find((candidate) => candidate.project === body.project && candidate.task === body.task)
	const day = sheet.days.indexOf(String(body.date))
	const parsed = parseDuration(String(body.duration ?? ''))
	if (row && day >= 0 && parsed.ok) {
		row.seconds[day] = parsed.seconds ?? 0
		row.entries[day] = parsed.seconds ? 1 : 0
	}
	return json(sheet)
}

function setup(cellAnswer: CellAnswer = storeCell) {
	let sheet: Timesheet | null = null
	const api = mockApi(({ method, path, search, body }) => {
		if (path === '/dashboard/local_time/databases') {
			return json([database])
		}
		if (path === '/dashboard/notion_time/databases') {
			return json([])
		}
		if (path === '/dashboard/local_time/timer') {
			return json({ entry: null })
		}
		if (path === '/dashboard/local_time/timesheet') {
			sheet = week(search.get('date') ?? '')
			return json(sheet)
		}
		if (method === 'PUT' && path === '/dashboard/local_time/timesheet/cell' && sheet) {
			return cellAnswer(body as Record<string, unknown>, sheet)
		}
		return undefined
	})
	const rendered = renderPage(TimeTimesheetPage, '/time/timesheet', '/time/timesheet?week=2026-11-22')
	return { api, ...rendered }
}

/** The week the page shows starts on the locale's first day; its dates come from the server. */
async function days(): Promise<string[]> {
	await screen.findByRole('table')
	const headers = screen.getAllByRole('columnheader').slice(1, 8)
	return headers.map((header) => header.querySelector('abbr')?.getAttribute('title') ?? '')
}

const cellPuts = (api: ReturnType<typeof mockApi>) =>
	api.calls.filter((call) => call.method === 'PUT' && call.path.endsWith('/timesheet/cell'))

test('arrows and Enter move between cells; a cell is saved as it is left, with the browser’s time zone', async () => {
	const { api, user } = setup()
	const names = await days()
	const sheetCall = api.calls.find((call) => call.path.endsWith('/timesheet'))
	const asked = sheetCall?.search.get('date') ?? ''
	const dates = week(asked).days
	expect(names[1]).toBe(dayName(dates[1] ?? ''))

	const websiteMonday = screen.getByRole('textbox', { name: `Website, ${dayName(dates[1] ?? '')}` })
	expect(websiteMonday).toHaveValue('1:00')

	const websiteSunday = screen.getByRole('textbox', { name: `Website, ${dayName(dates[0] ?? '')}` })
	await user.click(websiteSunday)
	await user.keyboard('1:30')
	await user.keyboard('{ArrowDown}')
	const appSunday = screen.getByRole('textbox', { name: `App · Design, ${dayName(dates[0] ?? '')}` })
	expect(appSunday).toHaveFocus()

	await waitFor(() => expect(cellPuts(api)).toHaveLength(1))
	expect(cellPuts(api)[0]?.body).toEqual({
		databaseId: 'db1',
		date: dates[0],
		timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
		weekStart: Number(sheetCall?.search.get('weekStart')),
		project: 'p1',
		task: null,
		duration: '1:30',
	})
	const savedCell = websiteSunday.closest('td') as HTMLElement
	expect(await within(savedCell).findByRole('status', { name: 'Saved' })).toBeInTheDocument()
	// The week the server answers is the one shown: the cell and the totals follow.
	expect(websiteSunday).toHaveValue('1:30')
	expect(screen.getByRole('cell', { name: 'Week total: 4:30' })).toBeInTheDocument()

	// The focus selects the cell's text: left and right leave it at once, up goes back.
	await user.keyboard('{ArrowRight}')
	expect(screen.getByRole('textbox', { name: `App · Design, ${dayName(dates[1] ?? '')}` })).toHaveFocus()
	await user.keyboard('{ArrowLeft}')
	expect(appSunday).toHaveFocus()
	await user.keyboard('{ArrowUp}')
	expect(websiteSunday).toHaveFocus()
	await user.keyboard('{Enter}')
	expect(appSunday).toHaveFocus()
	// Tab goes along the row, Shift+Tab back.
	await user.tab()
	expect(screen.getByRole('textbox', { name: `App · Design, ${dayName(dates[1] ?? '')}` })).toHaveFocus()
	await user.tab({ shift: true })
	expect(appSunday).toHaveFocus()
	// Leaving a cell unchanged sends nothing.
	expect(cellPuts(api)).toHaveLength(1)
})

test('Escape puts the saved figure back and nothing is sent', async () => {
	const { api, user } = setup()
	await days()
	const dates = week(api.calls.find((call) => call.path.endsWith('/timesheet'))?.search.get('date') ?? '').days
	const cell = screen.getByRole('textbox', { name: `Website, ${dayName(dates[1] ?? '')}` })
	await user.click(cell)
	await user.keyboard('{Control>}a{/Control}4h')
	expect(cell).toHaveValue('4h')
	await user.keyboard('{Escape}')
	expect(cell).toHaveValue('1:00')
	await user.tab()
	expect(cellPuts(api)).toHaveLength(0)
})

test('a duration it cannot read is said under the cell at once, and not sent', async () => {
	const { api, user } = setup()
	await days()
	const dates = week(api.calls.find((call) => call.path.endsWith('/timesheet'))?.search.get('date') ?? '').days
	const cell = screen.getByRole('textbox', { name: `Website, ${dayName(dates[3] ?? '')}` })
	await user.click(cell)
	await user.keyboard('2d')
	expect(cell).toHaveAttribute('aria-invalid', 'true')
	expect(cell).toHaveAccessibleDescription(/days are not accepted/)
	await user.tab()
	expect(cellPuts(api)).toHaveLength(0)
	expect(screen.getByRole('alert')).toHaveTextContent('"2d": days are not accepted')
})

test('shrinking a cell of several entries is refused (409) and explained in place', async () => {
	const { api, user } = setup(() => problem(409, 'CONFLICT', 'This cell is made of 3 entries.'))
	await days()
	const dates = week(api.calls.find((call) => call.path.endsWith('/timesheet'))?.search.get('date') ?? '').days
	const cell = screen.getByRole('textbox', { name: `App · Design, ${dayName(dates[2] ?? '')}` })
	expect(cell).toHaveValue('2:00')
	await user.click(cell)
	await user.keyboard('{Control>}a{/Control}1h')
	await user.tab()
	await waitFor(() => expect(cellPuts(api)).toHaveLength(1))
	expect(await screen.findByRole('alert')).toHaveTextContent(
		'this day holds 3 entries, so it can only grow here. To shorten it, edit its entries on the Timer page.',
	)
	// The figure goes back to what is stored.
	expect(cell).toHaveValue('2:00')
	expect(cell).toHaveAttribute('aria-invalid', 'true')
})

test('a row added here keeps its cells and the focus when its first save is answered; a cell left twice while saving is sent once', async () => {
	// The server's answers wait until released, as on a slow connection; the first adds the new row.
	const pending: (() => void)[] = []
	const { api, user } = setup(
		(body, sheet) =>
			new Promise((resolve) => {
				pending.push(() => {
					if (!sheet.rows.some((row) => row.project === body.project && row.task === body.task)) {
						const zeros = sheet.days.map(() => 0)
						sheet.rows.push({
							key: 'research',
							project: null,
							projectName: null,
							task: String(body.task),
							seconds: [...zeros],
							entries: [...zeros],
							total: 0,
						})
					}
					resolve(storeCell(body, sheet))
				})
			}),
	)
	await days()
	const dates = week(api.calls.find((call) => call.path.endsWith('/timesheet'))?.search.get('date') ?? '').days
	await user.click(screen.getByRole('button', { name: 'Add row' }))
	const dialog = await screen.findByRole('dialog', { name: 'Add a row' })
	await user.type(within(dialog).getByRole('textbox', { name: 'Task' }), 'Research')
	await user.click(within(dialog).getByRole('button', { name: 'Add row' }))
	const cell = (index: number) =>
		screen.getByRole('textbox', { name: `No project · Research, ${dayName(dates[index] ?? '')}` })

	await user.click(cell(1))
	await user.keyboard('2h')
	await user.tab()
	await waitFor(() => expect(cellPuts(api)).toHaveLength(1))
	// Back and out again while the save is on the way: nothing more is sent.
	await user.tab({ shift: true })
	await user.tab()
	expect(cellPuts(api)).toHaveLength(1)
	await user.keyboard('45')
	pending.shift()?.()
	await waitFor(() => expect(cell(1)).toHaveValue('2:00'))
	// The row is the server's now; the next cell is the same input, still focused, with what was typed.
	expect(cell(2)).toHaveFocus()
	expect(cell(2)).toHaveValue('45')
	await user.keyboard('m')
	await user.tab()
	await waitFor(() => expect(cellPuts(api)).toHaveLength(2))
	expect(cellPuts(api).map((call) => (call.body as { duration: string }).duration)).toEqual(['2h', '45m'])
	pending.shift()?.()
	await waitFor(() => expect(cell(2)).toHaveValue('0:45'))
	expect(screen.getByRole('cell', { name: 'Week total: 5:45' })).toBeInTheDocument()
})
