import type { FormAnalytics } from '@blocksmith/contracts/forms.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { makeForm } from '../testing.tsx'
import { FormAnalyticsPage } from './form-analytics-page.tsx'

function analytics(from: string, to: string, days: number): FormAnalytics {
	return {
		from,
		to,
		timeZone: 'UTC',
		views: 1234,
		starts: 300,
		submissions: 150,
		completionRate: 150 / 1234,
		daily: Array.from({ length: days }, (_, index) => ({
			date: new Date(Date.parse(`${from}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10),
			views: index,
			starts: 0,
			submissions: index % 2,
		})),
	}
}

test('shows the totals of the range, in the browser’s time zone, and changes range', async () => {
	const api = mockApi(({ path, search }) => {
		if (path === '/dashboard/forms/f1') {
			return json(makeForm({ published: true }))
		}
		if (path === '/dashboard/forms/f1/analytics') {
			const from = search.get('from') ?? ''
			const to = search.get('to') ?? ''
			const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1
			return json(analytics(from, to, days))
		}
		return undefined
	})
	const { user } = renderPage(FormAnalyticsPage, '/forms/:id/analytics', '/forms/f1/analytics')

	const views = await screen.findByText('Views', { selector: 'dt' })
	expect(views.nextElementSibling).toHaveTextContent('1,234')
	expect(screen.getByText('Starts', { selector: 'dt' }).nextElementSibling).toHaveTextContent('300')
	expect(screen.getByText('Submissions', { selector: 'dt' }).nextElementSibling).toHaveTextContent('150')
	expect(screen.getByText('Completion rate', { selector: 'dt' }).nextElementSibling).toHaveTextContent('12.2%')

	const first = api.calls.find((call) => call.path.endsWith('/analytics'))
	expect(first?.search.get('timeZone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
	const range = (call: typeof first) =>
		Math.round((Date.parse(call?.search.get('to') ?? '') - Date.parse(call?.search.get('from') ?? '')) / 86_400_000) + 1
	expect(range(first)).toBe(30)
	expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true')

	await user.click(screen.getByRole('button', { name: '7 days' }))
	await waitFor(() => expect(range(api.calls.filter((call) => call.path.endsWith('/analytics')).at(-1))).toBe(7))
	const table = screen.getByRole('table', { name: 'Views, starts and submissions per day', hidden: true })
	await waitFor(() => expect(within(table).getAllByRole('row', { hidden: true })).toHaveLength(8))
})
