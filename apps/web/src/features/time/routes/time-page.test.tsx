import type { TimeEntry } from '@blocksmith/contracts/time.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi } from '#src/test/mock-api.tsx'
import { makeEntry, mappedDatabase, workspaceReads } from '../lib/testing.tsx'
import { TimePage } from './time-page.tsx'

const routes = [{ path: '/time', Component: TimePage }]

/** The sample database mapped, with `entries` and the running timer as the server holds them. */
function mockTime(state: { entries: TimeEntry[]; timer: TimeEntry | null }) {
	return mockApi((call) => {
		if (call.path === '/dashboard/local_time/databases') {
			return json([mappedDatabase])
		}
		if (call.path === '/dashboard/local_time/timer') {
			return json({ entry: state.timer })
		}
		if (call.path === '/dashboard/local_time/entries' && call.method === 'GET') {
			return json(state.entries)
		}
		return workspaceReads(call)
	})
}

describe('the timer', () => {
	test('starts with its description and project, counts each second, and stops', async () => {
		const state: { entries: TimeEntry[]; timer: TimeEntry | null } = { entries: [], timer: null }
		const api = mockApi((call) => {
			if (call.path === '/dashboard/local_time/timer/start') {
				// Started a minute ago as far as the server knows (another tab's click, say).
				state.timer = makeEntry({
					id: 'run',
					startedAt: new Date(Date.now() - 65_000).toISOString(),
					endedAt: null,
					isRunning: true,
					description: 'Write the brief',
					project: 'p2',
					tags: [],
					delivery: 'pending',
				})
				return json(state.timer, 201)
			}
			if (call.path === '/dashboard/local_time/entries/run/stop') {
				const stopped = { ...(state.timer as TimeEntry), endedAt: new Date().toISOString(), isRunning: false }
				state.timer = null
				state.entries = [stopped]
				return json(stopped)
			}
			if (call.path === '/dashboard/local_time/databases') {
				return json([mappedDatabase])
			}
			if (call.path === '/dashboard/local_time/timer') {
				return json({ entry: state.timer })
			}
			if (call.path === '/dashboard/local_time/entries') {
				return json(state.entries)
			}
			return workspaceReads(call)
		})
		const { user } = renderApp(routes, '/time')
		const timer = await screen.findByRole('form', { name: 'Timer' })
		expect(within(timer).getByRole('timer', { name: 'Elapsed time' })).toHaveTextContent('0:00:00')
		await user.type(within(timer).getByRole('textbox', { name: 'What are you working on?' }), 'Write the brief')
		await user.click(within(timer).getByRole('button', { name: 'Choose a project' }))
		await user.click(await screen.findByRole('button', { name: 'Mobile app' }))
		expect(within(timer).getByRole('button', { name: 'Project: Mobile app' })).toBeInTheDocument()
		await user.click(within(timer).getByRole('button', { name: 'Billable' }))
		await user.click(within(timer).getByRole('button', { name: 'Start' }))

		expect(api.calls.find((call) => call.path.endsWith('/timer/start'))?.body).toEqual({
			databaseId: 'db-time',
			description: 'Write the brief',
			project: 'p2',
			tags: [],
			billable: true,
		})
		// The clock is the server's start, and it moves on by itself.
		const clock = within(timer).getByRole('timer', { name: 'Elapsed time' })
		await waitFor(() => expect(clock).toHaveTextContent(/^0:01:0[5-9]$/))
		const first = clock.textContent
		await waitFor(() => expect(clock.textContent).not.toBe(first), { timeout: 2500 })
		expect(within(timer).getByRole('textbox', { name: 'What are you working on?' })).toHaveValue('Write the brief')

		await user.click(within(timer).getByRole('button', { name: 'Stop' }))
		expect(await within(timer).findByRole('button', { name: 'Start' })).toBeInTheDocument()
		expect(clock).toHaveTextContent('0:00:00')
		// The stopped entry is listed under today, with its project's name.
		const today = await screen.findByRole('region', { name: 'Today' })
		expect(within(today).getByRole('button', { name: 'Write the brief' })).toBeInTheDocument()
		expect(within(today).getByText('Mobile app')).toBeInTheDocument()
		// The entry's duration and the day's total.
		expect(within(today).getAllByText('0:01')).toHaveLength(2)
	})

	test('a timer running on the server shows after a reload, counting from its start', async () => {
		mockTime({
			entries: [],
			timer: makeEntry({
				id: 'run',
				startedAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
				endedAt: null,
				isRunning: true,
			}),
		})
		renderApp(routes, '/time')
		const timer = await screen.findByRole('form', { name: 'Timer' })
		await waitFor(() =>
			expect(within(timer).getByRole('timer', { name: 'Elapsed time' })).toHaveTextContent(/^3:00:0\d$/),
		)
		expect(within(timer).getByRole('textbox', { name: 'What are you working on?' })).toHaveValue('Design review')
		expect(within(timer).getByRole('button', { name: 'Stop' })).toBeInTheDocument()
	})
})

describe('entries', () => {
	test('a deleted entry can be brought back with Undo, which restores it on the server', async () => {
		const state = { entries: [makeEntry()], timer: null }
		const api = mockApi((call) => {
			if (call.path === '/dashboard/local_time/entries/e1' && call.method === 'DELETE') {
				state.entries = []
				return json(makeEntry())
			}
			if (call.path === '/dashboard/local_time/entries/e1/restore') {
				state.entries = [makeEntry()]
				return json(makeEntry())
			}
			if (call.path === '/dashboard/local_time/databases') {
				return json([mappedDatabase])
			}
			if (call.path === '/dashboard/local_time/timer') {
				return json({ entry: state.timer })
			}
			if (call.path === '/dashboard/local_time/entries') {
				return json(state.entries)
			}
			return workspaceReads(call)
		})
		const { user } = renderApp(routes, '/time')
		await user.click(await screen.findByRole('button', { name: 'Delete Design review' }))
		expect(await screen.findByText('Entry deleted.')).toBeInTheDocument()
		await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete Design review' })).toBeNull())
		expect(api.calls.some((call) => call.path.endsWith('/restore'))).toBe(false)

		await user.click(screen.getByRole('button', { name: 'Undo' }))
		await waitFor(() =>
			expect(
				api.calls.filter((call) => call.method === 'POST' && call.path === '/dashboard/local_time/entries/e1/restore'),
			).toHaveLength(1),
		)
		expect(await screen.findByRole('button', { name: 'Delete Design review' })).toBeInTheDocument()
	})

	test('a duration typed wrong says why, and nothing is sent; a good one sets the end', async () => {
		const api = mockApi((call) => {
			if (call.path === '/dashboard/local_time/entries' && call.method === 'POST') {
				return json(makeEntry({ id: 'new' }), 201)
			}
			if (call.path === '/dashboard/local_time/databases') {
				return json([mappedDatabase])
			}
			if (call.path === '/dashboard/local_time/timer') {
				return json({ entry: null })
			}
			if (call.path === '/dashboard/local_time/entries') {
				return json([])
			}
			return workspaceReads(call)
		})
		const { user } = renderApp(routes, '/time')
		await user.click(await screen.findByRole('button', { name: 'Add time' }))
		const dialog = await screen.findByRole('dialog', { name: 'Add time' })
		const duration = within(dialog).getByRole('textbox', { name: 'Duration' })
		await user.clear(duration)
		await user.type(duration, '2d')
		await user.click(within(dialog).getByRole('button', { name: 'Add time' }))
		expect(duration).toHaveAccessibleDescription(
			'"2d": days are not accepted, as their length is unclear. Type hours, as in 16h.',
		)
		expect(api.calls.some((call) => call.method === 'POST')).toBe(false)

		await user.clear(duration)
		await user.type(duration, '1.5h')
		const start = within(dialog).getByLabelText('Start')
		await user.clear(start)
		await user.type(start, '09:00')
		await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Planning')
		await user.click(within(dialog).getByRole('button', { name: 'Add time' }))
		await waitFor(() => expect(api.calls.some((call) => call.method === 'POST')).toBe(true))
		const body = api.calls.find((call) => call.method === 'POST')?.body as { startedAt: string; endedAt: string }
		expect(body).toMatchObject({ databaseId: 'db-time', description: 'Planning' })
		expect(new Date(body.startedAt).getHours()).toBe(9)
		expect(Date.parse(body.endedAt) - Date.parse(body.startedAt)).toBe(90 * 60_000)
	})

	test('entries are grouped by day with totals, overlaps flagged, and a write on its way said quietly', async () => {
		const day = new Date()
		const at = (hours: number, minutes = 0) =>
			new Date(day.getFullYear(), day.getMonth(), day.getDate(), hours, minutes).toISOString()
		mockTime({
			timer: null,
			entries: [
				makeEntry({ id: 'a', description: 'Standup', startedAt: at(9), endedAt: at(10) }),
				makeEntry({ id: 'b', description: 'Review', startedAt: at(9, 30), endedAt: at(10, 15), delivery: 'pending' }),
				makeEntry({ id: 'c', description: null, startedAt: at(11), endedAt: at(11, 30), tags: [], project: null }),
				// Made with a task only (the sample's title holds both): named by its task.
				makeEntry({ id: 'd', description: null, task: 'Invoicing', startedAt: at(12), endedAt: at(12, 30), tags: [] }),
			],
		})
		renderApp(routes, '/time')
		const today = await screen.findByRole('region', { name: 'Today' })
		expect(within(today).getByText('2:45')).toBeInTheDocument()
		expect(within(today).getAllByText('Overlaps')).toHaveLength(2)
		expect(within(today).getByText('Saving to the database…')).toBeInTheDocument()
		expect(within(today).getByRole('button', { name: 'No description' })).toBeInTheDocument()
		expect(within(today).getByRole('button', { name: 'Invoicing' })).toBeInTheDocument()
	})
})
