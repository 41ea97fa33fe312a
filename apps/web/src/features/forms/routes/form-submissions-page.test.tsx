import type { Submission, SubmissionsPage } from '@blocksmith/contracts/forms.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { makeForm } from '../testing.tsx'
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
})
