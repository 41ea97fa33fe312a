import type { SubmissionDetail } from '@blocksmith/contracts/forms.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { FormSubmissionPage } from '../routes/form-submission-page.tsx'
import { makeField, makeForm } from '../testing.tsx'

// One answer on its own page: every question with its answer (content left out), files,
// the signature as an image, each delivery attempt, webhook deliveries, "Open row" and Delete.

const form = makeForm({
	fields: [
		...makeForm().fields,
		makeField({ id: 'h1', kind: 'heading', label: 'A few more things' }),
		makeField({
			id: 'fr',
			kind: 'rating',
			label: 'How was it?',
			scale: { min: 1, max: 5, minLabel: null, maxLabel: null },
		}),
		makeField({ id: 'fk', kind: 'ranking', label: 'Order these', choices: ['Price', 'Speed'] }),
		makeField({ id: 'fs', kind: 'signature', label: 'Sign here' }),
		makeField({ id: 'fd', kind: 'files', label: 'Brief' }),
	],
})

function detail(changes: Partial<SubmissionDetail> = {}): SubmissionDetail {
	return {
		id: 's1',
		formId: 'f1',
		answers: {
			fa: 'Ada Lovelace',
			fb: 'ada@example.com',
			fr: 4,
			fk: ['Speed', 'Price'],
			fs: [{ name: 'signature.png', url: null, blobId: 'b-sig' }],
			fd: [{ name: 'brief.pdf', url: null, blobId: 'b-pdf' }],
		},
		delivery: {
			state: 'delivered',
			attempts: 2,
			error: null,
			rowId: 'r1',
			rowUrl: 'https://www.notion.so/row-s1',
			deliveredAt: '2026-02-01T10:00:05.000Z',
		},
		createdAt: '2026-02-01T10:00:00.000Z',
		attempts: [
			{ at: '2026-02-01T10:00:01.000Z', ms: 30012, error: 'Notion is not answering (503)' },
			{ at: '2026-02-01T10:00:05.000Z', ms: 420, error: null },
		],
		files: [
			{
				fieldId: 'fs',
				name: 'signature.png',
				contentType: 'image/png',
				byteSize: 2048,
				url: 'http://localhost/api/uploads/b-sig?x',
			},
			{
				fieldId: 'fd',
				name: 'brief.pdf',
				contentType: 'application/pdf',
				byteSize: 1000,
				url: 'http://localhost/api/uploads/b-pdf?x',
			},
		],
		webhooks: [
			{
				id: 'w1',
				webhookId: 'h1',
				submissionId: 's1',
				state: 'delivered',
				attempts: [{ at: '2026-02-01T10:00:02.000Z', status: 200, error: null, ms: 80 }],
				nextAttemptAt: null,
				deliveredAt: '2026-02-01T10:00:02.000Z',
				createdAt: '2026-02-01T10:00:00.000Z',
				url: 'https://hooks.example.com/in',
			},
		],
		...changes,
	}
}

function renderDetail(path = '/forms/f1/submissions/s1') {
	return renderPage(FormSubmissionPage, '/forms/:id/submissions/:submissionId', path)
}

describe('one answer in full', () => {
	test('every question with its answer, the files, the signature, each attempt and the webhook', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/forms/f1') {
				return json(form)
			}
			if (path === '/dashboard/forms/f1/submissions/s1') {
				return json(detail())
			}
			return undefined
		})
		renderDetail()
		const answers = await screen.findByRole('region', { name: 'Answers' })
		const terms = within(answers)
			.getAllByRole('term')
			.map((term) => term.textContent)
		expect(terms).toEqual(['Name', 'Email', 'Stage', 'How was it?', 'Order these', 'Sign here', 'Brief'])
		expect(within(answers).getByText('Ada Lovelace')).toBeInTheDocument()
		expect(within(answers).getByText('No answer')).toBeInTheDocument()
		expect(within(answers).getByText('out of 5')).toBeInTheDocument()
		expect(
			within(answers)
				.getAllByRole('listitem')
				.slice(0, 2)
				.map((item) => item.textContent),
		).toEqual(['Speed', 'Price'])
		expect(within(answers).getByRole('img', { name: 'Signature for Sign here' })).toHaveAttribute(
			'src',
			'http://localhost/api/uploads/b-sig?x',
		)
		expect(within(answers).getByRole('link', { name: 'Open brief.pdf' })).toHaveAttribute(
			'href',
			'http://localhost/api/uploads/b-pdf?x',
		)
		expect(within(answers).getByRole('link', { name: 'Download brief.pdf' })).toHaveAttribute('download', 'brief.pdf')

		const attempts = screen.getByRole('list', { name: 'Attempts at writing the row' })
		const tries = within(attempts).getAllByRole('listitem')
		expect(tries).toHaveLength(2)
		expect(tries[0]).toHaveTextContent('Failed')
		expect(tries[0]).toHaveTextContent('Notion is not answering (503)')
		expect(tries[1]).toHaveTextContent('OK')

		const webhooks = screen.getByRole('region', { name: 'Webhook deliveries' })
		expect(within(webhooks).getByText('https://hooks.example.com/in')).toBeInTheDocument()
		expect(within(webhooks).getByText('OK (200)')).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Open row' })).toHaveAttribute('href', 'https://www.notion.so/row-s1')
	})

	test('a built-in row opens its table, and says so; a member is told why webhooks are not shown', async () => {
		mockApi(
			({ path }) => {
				if (path === '/dashboard/forms/f1') {
					return json(form)
				}
				if (path === '/dashboard/forms/f1/submissions/s1') {
					return json(
						detail({
							webhooks: [],
							delivery: { ...detail().delivery, rowUrl: '/workspaces/ws1/databases/db1' },
						}),
					)
				}
				return undefined
			},
			{ role: 'member' },
		)
		renderDetail()
		const open = await screen.findByRole('link', { name: 'Open row in its table' })
		expect(open).toHaveAttribute('href', '/workspaces/ws1/databases/db1')
		expect(open).toHaveAttribute('title', expect.stringMatching(/no page of their own/))
		expect(await screen.findByText(/show to owners and admins only/)).toBeInTheDocument()
	})

	test('Delete asks first; the row is kept unless the box is ticked; then back to the list with its filters', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/forms/f1') {
				return json(form)
			}
			if (path === '/dashboard/forms/f1/submissions/s1' && method === 'GET') {
				return json(detail())
			}
			if (path === '/dashboard/forms/f1/submissions/s1' && method === 'DELETE') {
				return json({ success: true })
			}
			return undefined
		})
		const { user, router } = renderDetail('/forms/f1/submissions/s1?q=ada')
		await user.click(await screen.findByRole('button', { name: 'Delete' }))
		const dialog = await screen.findByRole('alertdialog', { name: 'Delete this answer?' })
		const box = within(dialog).getByRole('checkbox', { name: 'Also delete the row in Leads' })
		expect(box).not.toBeChecked()
		expect(dialog).toHaveTextContent(/row in Leads stays/)
		// Cancel: nothing is deleted.
		await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
		expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false)

		await user.click(screen.getByRole('button', { name: 'Delete' }))
		const again = await screen.findByRole('alertdialog')
		await user.click(within(again).getByRole('checkbox', { name: 'Also delete the row in Leads' }))
		expect(again).toHaveTextContent(/its row in Leads too/)
		await user.click(within(again).getByRole('button', { name: 'Delete answer' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/forms/f1/submissions'))
		expect(router.state.location.search).toBe('?q=ada')
		const deletion = api.calls.find((call) => call.method === 'DELETE')
		expect(deletion?.search.get('deleteRow')).toBe('true')
	})

	test('an answer that made no row offers no row to delete, and deletes the answer alone', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/forms/f1') {
				return json(form)
			}
			if (path === '/dashboard/forms/f1/submissions/s1' && method === 'GET') {
				return json(
					detail({
						delivery: { state: 'spam', attempts: 0, error: null, rowId: null, rowUrl: null, deliveredAt: null },
						attempts: [],
						webhooks: [],
					}),
				)
			}
			if (method === 'DELETE') {
				return json({ success: true })
			}
			return undefined
		})
		const { user } = renderDetail()
		expect(await screen.findByText(/Caught by the spam trap/)).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Delete' }))
		const dialog = await screen.findByRole('alertdialog')
		expect(within(dialog).queryByRole('checkbox')).toBeNull()
		await user.click(within(dialog).getByRole('button', { name: 'Delete answer' }))
		await waitFor(() =>
			expect(api.calls.find((call) => call.method === 'DELETE')?.search.get('deleteRow')).toBe('false'),
		)
	})

	test('an answer not there (deleted, or another organization’s) says so, with the way back', async () => {
		mockApi(({ path }) => (path === '/dashboard/forms/f1' ? json(form) : undefined))
		renderDetail()
		expect(await screen.findByText('This answer could not be loaded')).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Back to the submissions' })).toHaveAttribute(
			'href',
			'/forms/f1/submissions',
		)
	})
})
