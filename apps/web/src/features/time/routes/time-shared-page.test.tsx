import type { SharedTimeReport } from '@blocksmith/contracts/time-reports.ts'
import { act, screen, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { THEME_STORAGE_KEY } from '#src/components/ui/theme.tsx'
import { stubMatchMedia } from '#src/test/match-media.ts'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { TimeSharedPage } from './time-shared-page.tsx'

const figures = (seconds: number, amount: number | null) => ({ seconds, billableSeconds: seconds, amount, entries: 1 })

const report: SharedTimeReport = {
	name: 'November for Acme',
	analytics: {
		from: '2026-11-01',
		to: '2026-11-30',
		timeZone: 'Europe/Paris',
		currency: 'EUR',
		rounding: { mode: 'up', minutes: 15, scope: 'entry' },
		totals: figures(36_000, 120_000),
		groups: {
			project: [{ key: 'p1', label: 'Website', ...figures(36_000, 120_000) }],
			person: [],
			client: [],
			task: [],
			tag: [],
		},
		running: 0,
		overlaps: 2,
		generatedAt: '2026-11-26T10:00:00.000Z',
	},
	series: {
		interval: 'week',
		timeZone: 'Europe/Paris',
		currency: 'EUR',
		buckets: [{ key: '2026-W48', label: 'W48', ...figures(36_000, 120_000) }],
		breakdown: [{ key: 'p1', label: 'Website', seconds: [36_000] }],
		generatedAt: '2026-11-26T10:00:00.000Z',
	},
	expiresAt: null,
}

test('a shared link shows the report’s name, range, totals, chart and table, signed out', async () => {
	const api = mockApi(({ path }) => (path === '/api/time/reports/tok1' ? json(report) : undefined))
	renderPage(TimeSharedPage, '/time/shared/:token', '/time/shared/tok1')

	expect(await screen.findByRole('heading', { level: 1, name: 'November for Acme' })).toBeInTheDocument()
	expect(screen.getByText(/Europe\/Paris/)).toBeInTheDocument()
	expect(screen.getByText('Total hours', { selector: 'dt' }).nextElementSibling).toHaveTextContent('10:00')
	expect(screen.getByText('Amount', { selector: 'dt' }).nextElementSibling).toHaveTextContent('€1,200.00')
	expect(screen.getByRole('heading', { name: 'Hours over time' })).toBeInTheDocument()
	expect(screen.getByRole('figure', { name: 'Hours per period' })).toBeInTheDocument()
	expect(within(screen.getByRole('table', { name: 'Time by project' })).getByText('Website')).toBeInTheDocument()
	expect(screen.getByText(/Rounded up 15 min per entry/)).toBeInTheDocument()
	expect(screen.getByRole('link', { name: 'CSV' })).toHaveAttribute('href', '/api/time/reports/tok1/export?format=csv')
	// Nothing of the dashboard is asked for.
	expect(api.calls.map((call) => call.path)).toEqual(['/api/time/reports/tok1'])
})

test('an expired or revoked link says so', async () => {
	mockApi(({ path }) => (path === '/api/time/reports/old' ? problem(404, 'NOT_FOUND', 'Not found.') : undefined))
	renderPage(TimeSharedPage, '/time/shared/:token', '/time/shared/old')
	expect(
		await screen.findByRole('heading', { name: 'This report link has expired or was revoked.' }),
	).toBeInTheDocument()
	expect(screen.queryByText('Total hours')).not.toBeInTheDocument()
})

afterEach(() => {
	vi.unstubAllGlobals()
})

test('the page is light or dark as the system says, whatever was chosen in the app', async () => {
	window.localStorage.setItem(THEME_STORAGE_KEY, 'light')
	const system = stubMatchMedia(true)
	mockApi(({ path }) => (path === '/api/time/reports/tok1' ? json(report) : undefined))
	renderPage(TimeSharedPage, '/time/shared/:token', '/time/shared/tok1')
	await screen.findByRole('heading', { level: 1, name: 'November for Acme' })
	expect(document.documentElement).toHaveClass('dark')
	act(() => system.setMatches(false))
	expect(document.documentElement).not.toHaveClass('dark')
})
