import type { Submission, SubmissionsPage } from '@blocksmith/contracts/forms.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { screen, waitFor, within } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { renderWithUser } from '#src/test/render.tsx'
import { database as leads, makeField, makeForm } from '../testing.tsx'
import { FormSubmissionPage } from './form-submission-page.tsx'
import { FormSubmissionsPage } from './form-submissions-page.tsx'

function submission(id: string, state: Submission['delivery']['state'], changes: Partial<Submission> = {}): Submission {
	return {
		id,
		formId: 'f1',
		answers: { fa: `Person ${id}`, fb: `${id}@example.com`, fc: 'Won' },
		delivery: {
			state,
			attempts: state === 'pending' ? 0 : 1,
			error: state === 'failed' || state === 'dead' ? 'Notion answered 502 Bad Gateway' : null,
			rowId: state === 'delivered' ? `row-${id}` : null,
			rowUrl: state === 'delivered' ? `https://www.notion.so/row-${id}` : null,
			deliveredAt: state === 'delivered' ? '2026-02-01T10:00:05.000Z' : null,
		},
		createdAt: '2026-02-01T10:00:00.000Z',
		...changes,
	}
}

const counts = { pending: 1, delivered: 1, failed: 1, dead: 1, spam: 1 }

function renderSubmissions() {
	return renderPage(FormSubmissionsPage, '/forms/:id/submissions', '/forms/f1/submissions')
}

describe('the submissions screen', () => {
	test('shows each answer with its delivery state, and retries a failed one', async () => {
		const all = [
			submission('s1', 'pending'),
			submission('s2', 'delivered'),
			submission('s3', 'failed'),
			submission('s4', 'dead'),
			submission('s5', 'spam', { answers: { fa: 'Bot' } }),
		]
		const api = mockApi(({ method, path, search }) => {
			if (path === '/dashboard/forms/f1') {
				return json(makeForm({ published: true, submissionsCount: 4 }))
			}
			if (path === '/dashboard/forms/f1/submissions' && method === 'GET') {
				const state = search.get('state')
				const page: SubmissionsPage = {
					submissions: state ? all.filter((s) => s.delivery.state === state) : all,
					total: state ? 1 : all.length,
					counts,
				}
				return json(page)
			}
			if (path === '/dashboard/forms/f1/submissions/s3/retry' && method === 'POST') {
				return json(submission('s3', 'pending'))
			}
			return undefined
		})
		const { user } = renderSubmissions()
		const table = await screen.findByRole('table', { name: 'Submissions to Lead form' })
		const headers = within(table)
			.getAllByRole('columnheader')
			.map((cell) => cell.textContent)
		expect(headers).toEqual(['Submitted', 'Delivery', 'Name', 'Email', 'Stage', 'Actions'])

		const rows = within(table).getAllByRole('row').slice(1)
		expect(rows).toHaveLength(5)
		expect(within(rows[0] as HTMLElement).getByText('Pending')).toBeInTheDocument()
		const delivered = rows[1] as HTMLElement
		expect(within(delivered).getByText('Delivered')).toBeInTheDocument()
		expect(within(delivered).getByRole('link', { name: 'Open row' })).toHaveAttribute(
			'href',
			'https://www.notion.so/row-s2',
		)
		expect(within(delivered).getByText('s2@example.com')).toBeInTheDocument()
		const failed = rows[2] as HTMLElement
		expect(within(failed).getByText('Failed')).toBeInTheDocument()
		expect(within(failed).getByText('Notion answered 502 Bad Gateway')).toBeInTheDocument()
		expect(within(rows[3] as HTMLElement).getByText('Dead')).toBeInTheDocument()
		expect(within(rows[4] as HTMLElement).getByText('Spam')).toBeInTheDocument()
		expect(within(delivered).queryByRole('button', { name: 'Retry' })).toBeNull()
		// A pending delivery is being watched.
		expect(screen.getByText(/waiting for delivery/)).toBeInTheDocument()

		await user.click(within(failed).getByRole('button', { name: 'Retry' }))
		await waitFor(() =>
			expect(api.calls.some((call) => call.method === 'POST' && call.path.endsWith('/submissions/s3/retry'))).toBe(
				true,
			),
		)
	})

	test('filters by state with the counts, and retries every failed delivery at once', async () => {
		const api = mockApi(({ method, path, search }) => {
			if (path === '/dashboard/forms/f1') {
				return json(makeForm())
			}
			if (path === '/dashboard/forms/f1/submissions' && method === 'GET') {
				const state = search.get('state')
				return json({
					submissions: state === 'failed' ? [submission('s3', 'failed')] : [submission('s2', 'delivered')],
					total: 1,
					counts: { delivered: 1, failed: 1 },
				})
			}
			if (path === '/dashboard/forms/f1/submissions/retry_failed' && method === 'POST') {
				return json({ retried: 1 })
			}
			return undefined
		})
		const { user } = renderSubmissions()
		await screen.findByRole('table')
		const failedFilter = screen.getByRole('button', { name: /^Failed/ })
		expect(failedFilter).toHaveTextContent('Failed1')
		expect(screen.getByRole('button', { name: /^All/ })).toHaveAttribute('aria-pressed', 'true')
		await user.click(failedFilter)
		expect(failedFilter).toHaveAttribute('aria-pressed', 'true')
		await waitFor(() =>
			expect(
				api.calls.some((call) => call.path.endsWith('/submissions') && call.search.get('state') === 'failed'),
			).toBe(true),
		)
		expect(await screen.findByText('Notion answered 502 Bad Gateway')).toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Retry all failed' }))
		await waitFor(() =>
			expect(api.calls.some((call) => call.method === 'POST' && call.path.endsWith('/retry_failed'))).toBe(true),
		)
	})

	test('says so when there are no submissions yet', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/forms/f1') {
				return json(makeForm())
			}
			if (path === '/dashboard/forms/f1/submissions') {
				return json({ submissions: [], total: 0, counts: {} })
			}
			return undefined
		})
		renderSubmissions()
		expect(await screen.findByRole('heading', { name: 'No submissions yet' })).toBeInTheDocument()
	})

	test('searches the answers as one types, keeps the state filter, and says when nothing matches', async () => {
		const api = mockApi(({ method, path, search }) => {
			if (path === '/dashboard/forms/f1') {
				return json(makeForm({ published: true, submissionsCount: 2 }))
			}
			if (path === '/dashboard/forms/f1/submissions' && method === 'GET') {
				const q = search.get('q')
				return json({
					submissions: q === 'grace' ? [submission('s2', 'delivered')] : q ? [] : [submission('s1', 'delivered')],
					total: q === 'grace' || !q ? 1 : 0,
					counts: q && q !== 'grace' ? {} : { delivered: 1 },
				})
			}
			return undefined
		})
		const { user, router } = renderSubmissions()
		await screen.findByRole('table')
		await user.click(screen.getByRole('button', { name: /^Delivered/ }))
		await user.type(screen.getByRole('searchbox', { name: 'Search answers' }), 'grace')
		await waitFor(
			() =>
				expect(
					api.calls.some(
						(call) =>
							call.path.endsWith('/submissions') &&
							call.search.get('q') === 'grace' &&
							call.search.get('state') === 'delivered',
					),
				).toBe(true),
			// The search waits for a pause in typing; a machine busy with other test files is slow to fire it.
			{ timeout: 5000 },
		)
		expect(await screen.findByText('s2@example.com')).toBeInTheDocument()
		// The address keeps the search, so the answer opened from here comes back to it.
		expect(router.state.location.search).toContain('q=grace')
		// Only the last words are asked for: no request per keystroke.
		expect(api.calls.filter((call) => call.search.get('q') === 'g')).toHaveLength(0)
		// A pause after a space keeps the space: the next word is typed after it.
		const box = screen.getByRole('searchbox', { name: 'Search answers' })
		await user.clear(box)
		await user.type(box, 'ada ')
		await waitFor(() => expect(router.state.location.search).toContain('q=ada'), { timeout: 5000 })
		await user.type(box, 'l')
		await waitFor(() => expect(api.calls.some((call) => call.search.get('q') === 'ada l')).toBe(true), {
			timeout: 5000,
		})
		await user.clear(box)
		await user.type(box, 'grace')
		expect(await screen.findByText('s2@example.com')).toBeInTheDocument()

		await user.clear(screen.getByRole('searchbox', { name: 'Search answers' }))
		await user.type(screen.getByRole('searchbox', { name: 'Search answers' }), 'zebra{Enter}')
		expect(await screen.findByRole('heading', { name: 'No answers match “zebra”' })).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Clear search and filter' }))
		expect(await screen.findByText('s1@example.com')).toBeInTheDocument()
		expect(screen.getByRole('searchbox', { name: 'Search answers' })).toHaveValue('')
		expect(screen.getByRole('button', { name: /^Delivered/ })).toHaveAttribute('aria-pressed', 'true')
	})

	test('filters by one question: its choices to pick from, a refused value shown at the field', async () => {
		const api = mockApi(({ method, path, search }) => {
			if (path === '/dashboard/forms/f1') {
				return json(makeForm({ submissionsCount: 2 }))
			}
			if (path === '/dashboard/local/databases/db1') {
				return json(leads)
			}
			if (path === '/dashboard/forms/f1/submissions' && method === 'GET') {
				if (search.get('field') === 'fa') {
					return problem(400, 'VALIDATION_FAILED', 'Not like that.', [{ field: 'value', message: 'Not like that.' }])
				}
				return json({
					submissions: search.get('field') === 'fc' ? [submission('s2', 'delivered')] : [],
					total: 1,
					counts: { delivered: 1 },
				})
			}
			return undefined
		})
		const { user } = renderSubmissions()
		const question = await screen.findByRole('combobox', { name: 'Question' })
		// Content is not a question; it is not offered.
		expect(
			within(question)
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual(['Any question…', 'Name', 'Email', 'Stage'])
		await user.selectOptions(question, 'Stage')
		const answer = await screen.findByRole('combobox', { name: 'Answer' })
		await waitFor(() => expect(within(answer).getAllByRole('option')).toHaveLength(3))
		await user.selectOptions(answer, 'Won')
		await user.click(screen.getByRole('button', { name: 'Filter' }))
		await waitFor(() =>
			expect(api.calls.some((call) => call.search.get('field') === 'fc' && call.search.get('value') === 'Won')).toBe(
				true,
			),
		)
		expect(await screen.findByText('s2@example.com')).toBeInTheDocument()

		await user.selectOptions(screen.getByRole('combobox', { name: 'Question' }), 'Name')
		await user.type(screen.getByRole('textbox', { name: 'Answer' }), 'x')
		await user.click(screen.getByRole('button', { name: 'Filter' }))
		await waitFor(() =>
			expect(screen.getByRole('textbox', { name: 'Answer' })).toHaveAccessibleDescription('Not like that.'),
		)
		await user.click(screen.getByRole('button', { name: 'Clear filter' }))
		expect(await screen.findByRole('heading', { name: 'No submissions yet' })).toBeInTheDocument()
	})

	test('each answer opens on its own page, and the way back keeps the search', async () => {
		mockApi(({ method, path }) => {
			if (path === '/dashboard/forms/f1') {
				return json(
					makeForm({
						fields: [...makeForm().fields, makeField({ id: 'h1', kind: 'heading', label: 'About you' })],
					}),
				)
			}
			if (path === '/dashboard/forms/f1/submissions' && method === 'GET') {
				return json({ submissions: [submission('s2', 'delivered')], total: 1, counts: { delivered: 1 } })
			}
			if (path === '/dashboard/forms/f1/submissions/s2') {
				return json({ ...submission('s2', 'delivered'), attempts: [], files: [], webhooks: [] })
			}
			return undefined
		})
		const router = createMemoryRouter(
			[
				{ path: '/forms/:id/submissions', Component: FormSubmissionsPage },
				{ path: '/forms/:id/submissions/:submissionId', Component: FormSubmissionPage },
			],
			{ initialEntries: ['/forms/f1/submissions?q=person'] },
		)
		const { user } = renderWithUser(
			<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
				<RouterProvider router={router} />
			</QueryClientProvider>,
		)
		const table = await screen.findByRole('table')
		// A heading is content: no column.
		expect(within(table).queryByRole('columnheader', { name: 'About you' })).toBeNull()
		await user.click(within(table).getByRole('link', { name: /^Open the answer of/ }))
		expect(router.state.location.pathname).toBe('/forms/f1/submissions/s2')
		expect(router.state.location.search).toBe('?q=person')
		expect(await screen.findByRole('heading', { name: 'Answers' })).toBeInTheDocument()
		await user.click(screen.getByRole('link', { name: 'All submissions' }))
		expect(router.state.location.pathname).toBe('/forms/f1/submissions')
		expect(await screen.findByRole('searchbox', { name: 'Search answers' })).toHaveValue('person')
	})
})
