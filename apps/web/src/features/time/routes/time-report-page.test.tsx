import {
	type TimeAnalytics,
	type TimeSeries,
	type TimeView,
	timeViewSettingsSchema,
} from '@blocksmith/contracts/time-reports.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { writeToken } from '#src/lib/token-store.ts'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { TimeReportPage } from './time-report-page.tsx'

const view: TimeView = {
	id: 'v1',
	databaseId: 'db1',
	databaseName: 'Time entries',
	name: 'Client work',
	settings: timeViewSettingsSchema.parse({ timeZone: 'Europe/Paris' }),
	createdAt: '2026-11-20T10:00:00.000Z',
	updatedAt: '2026-11-20T10:00:00.000Z',
}

const figures = (seconds: number, amount: number | null) => ({ seconds, billableSeconds: seconds, amount, entries: 2 })

function analytics(currency: string, amount: number): TimeAnalytics {
	return {
		viewId: 'v1',
		from: '2026-11-23',
		to: '2026-11-29',
		timeZone: 'Europe/Paris',
		currency,
		rounding: null,
		totals: figures(9000, amount),
		groups: {
			project: [
				{ key: 'p1', label: 'Website', ...figures(5400, amount) },
				{ key: 'p2', label: 'App', ...figures(3600, null) },
			],
			person: [{ key: 'u1', label: 'Ada', ...figures(9000, amount) }],
			client: [],
			task: [],
			tag: [],
		},
		running: 1,
		overlaps: 0,
		generatedAt: '2026-11-26T10:00:00.000Z',
	}
}

const series: TimeSeries = {
	interval: 'day',
	timeZone: 'Europe/Paris',
	currency: 'EUR',
	buckets: [{ key: '2026-11-23', label: 'Mon 23', ...figures(9000, null) }],
	breakdown: null,
	generatedAt: '2026-11-26T10:00:00.000Z',
}

afterEach(() => {
	vi.unstubAllGlobals()
})

function setup({ currency = 'EUR', amount = 12_050 } = {}) {
	let current = view
	const api = mockApi(({ method, path, body }) => {
		if (path === '/dashboard/local_time/views/v1' && method === 'GET') {
			return json(current)
		}
		if (path === '/dashboard/local_time/views/v1' && method === 'PATCH') {
			const changes = body as Partial<TimeView>
			current = { ...current, ...changes, updatedAt: new Date().toISOString() }
			return json(current)
		}
		if (path === '/dashboard/local_time/views/v1/analytics') {
			return json(analytics(currency, amount))
		}
		if (path.startsWith('/dashboard/local_time/views/v1/') && path.endsWith('_time_series')) {
			return json(series)
		}
		if (path === '/dashboard/local_time/views/v1/export') {
			return new Response('Date,Hours\n', { headers: { 'content-type': 'text/csv' } })
		}
		return undefined
	})
	return { api, ...renderPage(TimeReportPage, '/time/reports/:id', '/time/reports/v1?tool=local') }
}

const amountShown = async () =>
	((await screen.findByText('Amount', { selector: 'dt' })).nextElementSibling?.textContent ?? '').replace(
		/\u00a0/g,
		' ',
	)

test.each([
	['EUR', 12_050, '€120.50'],
	['JPY', 5000, '¥5,000'],
	['BHD', 12_345, 'BHD 12.345'],
])('the amount in %s shows its minor units with the currency’s digits', async (currency, amount, shown) => {
	setup({ currency, amount })
	expect(await amountShown()).toContain(shown)
	expect(screen.getByText('Total hours', { selector: 'dt' }).nextElementSibling).toHaveTextContent('2:30')
	const table = screen.getByRole('table', { name: 'Time by project' })
	expect(within(table).getByRole('row', { name: /Website/ })).toHaveTextContent(shown)
	expect(screen.getByText(/One entry is still running/)).toBeInTheDocument()
})

test('filters are saved once they rest: one PATCH for quick changes, then the figures are read again', async () => {
	const { api, user } = setup()
	await amountShown()
	const analyticsReads = () => api.calls.filter((call) => call.path.endsWith('/analytics')).length
	expect(analyticsReads()).toBe(1)

	await user.selectOptions(screen.getByRole('combobox', { name: 'Billable' }), 'billable')
	await user.selectOptions(screen.getByRole('combobox', { name: 'Group by' }), 'person')
	// The page follows at once; the save waits for a pause.
	expect(screen.getByRole('heading', { name: 'By person' })).toBeInTheDocument()
	expect(api.calls.filter((call) => call.method === 'PATCH')).toHaveLength(0)

	await waitFor(() => expect(api.calls.filter((call) => call.method === 'PATCH')).toHaveLength(1), { timeout: 3000 })
	const patch = api.calls.find((call) => call.method === 'PATCH')
	expect(patch?.body).toEqual({ settings: { ...view.settings, billable: 'billable', groupBy: 'person' } })
	expect(await screen.findByText('Saved')).toBeInTheDocument()
	await waitFor(() => expect(analyticsReads()).toBe(2))
	expect(within(screen.getByRole('table', { name: 'Time by person' })).getByText('Ada')).toBeInTheDocument()
	// The series is split by the grouping.
	await waitFor(() =>
		expect(
			api.calls.some((call) => call.path.endsWith('/daily_time_series') && call.search.get('breakdown') === 'person'),
		).toBe(true),
	)
})

test('an export downloads the view’s file with the session’s bearer token', async () => {
	writeToken('token-1')
	const createObjectURL = vi.fn(() => 'blob:export')
	vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }))
	const { api, user } = setup()
	await amountShown()

	await user.click(screen.getByRole('button', { name: 'Export' }))
	await user.click(await screen.findByRole('menuitem', { name: 'CSV entries' }))

	await waitFor(() => expect(createObjectURL).toHaveBeenCalled())
	const call = api.fetchMock.mock.calls.find(([input]) => String(input).includes('/export'))
	expect(call?.[0]).toBe('/dashboard/local_time/views/v1/export?format=csv&detail=entries')
	expect(new Headers(call?.[1]?.headers).get('authorization')).toBe('Bearer token-1')
	writeToken(null)
})
