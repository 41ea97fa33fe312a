import type { AnyTimer } from '@blocksmith/contracts/time.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { AppLayout } from '#src/app/layouts/app-layout.tsx'
import { renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi } from '#src/test/mock-api.tsx'
import { makeEntry } from '../lib/testing.tsx'

// The running timer in the app's frame, on any screen: the desktop sidebar's card and the
// mobile header's pill (both are in the page; CSS shows one).

const routes = [{ Component: AppLayout, children: [{ path: '/forms', element: <h1>Forms</h1> }] }]
const idle: AnyTimer = { entry: null, tool: null, databaseName: null, projectName: null }

describe('the header timer', () => {
	test('shows the running entry with its elapsed time, links to /time, and stops it', async () => {
		let timer: AnyTimer = {
			entry: makeEntry({
				id: 'run',
				startedAt: new Date(Date.now() - 25 * 60_000).toISOString(),
				endedAt: null,
				isRunning: true,
				description: null,
			}),
			tool: 'notion',
			databaseName: 'Time entries',
			projectName: 'Website redesign',
		}
		const api = mockApi((call) => {
			if (call.path === '/dashboard/time/timer') {
				return json(timer)
			}
			if (call.path === '/dashboard/notion_time/entries/run/stop' && call.method === 'POST') {
				timer = idle
				return json(makeEntry({ id: 'run' }))
			}
			return undefined
		})
		const { user } = renderApp(routes, '/forms')
		const pills = await screen.findAllByRole('region', { name: 'Running timer' })
		expect(pills).toHaveLength(2)
		const [sidebar, bar] = pills as [HTMLElement, HTMLElement]
		expect(within(sidebar).getByText('No description')).toBeInTheDocument()
		expect(within(sidebar).getByText('Website redesign · Time entries')).toBeInTheDocument()
		expect(within(sidebar).getByText(/^0:25:0\d$/)).toBeInTheDocument()
		expect(within(bar).getByRole('link')).toHaveAttribute('href', '/time')
		expect(within(bar).getByRole('link')).toHaveTextContent(/No description, 0:25:0\d/)

		await user.click(within(bar).getByRole('button', { name: 'Stop timer' }))
		await waitFor(() => expect(screen.queryAllByRole('region', { name: 'Running timer' })).toHaveLength(0))
		// Stopped through the entry's own tool, by its id.
		expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
			'/dashboard/notion_time/entries/run/stop',
		])
	})

	test('with no timer running, nothing shows and nothing is polled', async () => {
		const api = mockApi((call) => (call.path === '/dashboard/time/timer' ? json(idle) : undefined))
		const { queryClient } = renderApp(routes, '/forms')
		expect(await screen.findByRole('heading', { name: 'Forms' })).toBeInTheDocument()
		await waitFor(() => expect(api.calls.some((call) => call.path === '/dashboard/time/timer')).toBe(true))
		expect(screen.queryByRole('region', { name: 'Running timer' })).toBeNull()
		const query = queryClient.getQueryCache().find({ queryKey: ['time', 'timer', 'any'] })
		// One read for both places it is shown; no interval while idle.
		expect(api.calls.filter((call) => call.path === '/dashboard/time/timer')).toHaveLength(1)
		expect(query?.observers.every((observer) => observer.options.refetchInterval instanceof Function)).toBe(true)
		expect(
			query?.observers.map((observer) => (observer.options.refetchInterval as (q: unknown) => unknown)(query)),
		).toEqual([false, false])
	})
})
