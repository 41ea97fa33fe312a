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
		steps: [],
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

const steps: FormAnalytics['steps'] = [
	{ id: 'start', kind: 'page', label: 'Apply to join us', page: 1, reached: 10, dropOff: 0 },
	{ id: 'q1', kind: 'question', label: 'Full name', page: 1, reached: 10, dropOff: 0.4 },
	{ id: 'p2', kind: 'page', label: 'Your experience', page: 2, reached: 6, dropOff: 0 },
	{ id: 'q2', kind: 'question', label: 'Résumé', page: 2, reached: 6, dropOff: 1 },
	{ id: 'p3', kind: 'page', label: 'Availability', page: 3, reached: 0, dropOff: null },
	{ id: 'q3', kind: 'question', label: 'Start date', page: 3, reached: 0, dropOff: null },
]

function withSteps(list: FormAnalytics['steps']) {
	mockApi(({ path }) => {
		if (path === '/dashboard/forms/f1') {
			return json(makeForm({ published: true }))
		}
		if (path === '/dashboard/forms/f1/analytics') {
			return json({ ...analytics('2026-01-01', '2026-01-30', 30), steps: list })
		}
		return undefined
	})
	return renderPage(FormAnalyticsPage, '/forms/:id/analytics', '/forms/f1/analytics')
}

test('drop-off: questions under their page, reached and the share that left, the biggest drop marked', async () => {
	withSteps(steps)
	const section = await screen.findByRole('region', { name: 'Drop-off' })
	// The bars load after the page (a chunk of their own): found, not got.
	const pageTwo = await within(section).findByRole('region', { name: 'Page 2: Your experience' })
	const rows = within(pageTwo).getAllByRole('listitem')
	expect(rows.map((row) => row.textContent)).toEqual([
		expect.stringMatching(/Résumé.*Biggest drop.*6 reached.*100% dropped/),
	])
	expect(within(section).getByRole('region', { name: 'Page 1: Apply to join us' })).toHaveTextContent(
		/Full name\s*10 reached\s*40% dropped/,
	)
	// Six visits lost on the résumé beat four on the name: it is the one named and marked.
	expect(section).toHaveTextContent('Biggest drop: Résumé — 6 of 6 visits (100%) went no further.')
	expect(within(section).getAllByText('Biggest drop', { selector: 'span' })).toHaveLength(1)
	expect(within(section).getByRole('region', { name: 'Page 3: Availability' })).toHaveTextContent(
		/Start date\s*0 reached\s*—/,
	)
})

test('drop-off before any visit reached a question says so, instead of empty bars', async () => {
	withSteps(steps.map((step) => ({ ...step, reached: step.kind === 'page' && step.page === 1 ? 3 : 0, dropOff: null })))
	const section = await screen.findByRole('region', { name: 'Drop-off' })
	expect(await within(section).findByText('No visits reached a question yet')).toBeInTheDocument()
	expect(within(section).queryByRole('listitem')).toBeNull()
})
