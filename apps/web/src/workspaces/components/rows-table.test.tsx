import type { Database, Row, RowPage } from '@blocksmith/contracts/workspaces.ts'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { rowsQuery } from '../api/workspaces.ts'
import { CellContext } from './cells.tsx'
import { RowsTable } from './rows-table.tsx'

const database: Database = {
	id: 'db1',
	workspaceId: 'ws1',
	tool: 'local',
	externalId: 'db1',
	name: 'Clients',
	icon: null,
	url: null,
	properties: [
		{ id: 'amount', name: 'Amount', type: 'number', format: 'number' },
		{ id: 'name', name: 'Name', type: 'title' },
		{ id: 'paid', name: 'Paid', type: 'checkbox' },
		{
			id: 'stage',
			name: 'Stage',
			type: 'select',
			options: [
				{ id: 'o1', name: 'Lead', color: 'blue' },
				{ id: 'o2', name: 'Won', color: 'green' },
			],
		},
		{
			id: 'tags',
			name: 'Tags',
			type: 'multi_select',
			options: [
				{ id: 't1', name: 'web', color: 'gray' },
				{ id: 't2', name: 'seo', color: 'red' },
			],
		},
		{ id: 'due', name: 'Due', type: 'date' },
		{ id: 'files', name: 'Files', type: 'files' },
		{ id: 'created', name: 'Created', type: 'created_time' },
	],
	sync: { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 1 },
}

const row: Row = {
	id: 'r1',
	externalId: 'r1',
	title: 'Acme',
	url: null,
	values: {
		name: 'Acme',
		amount: 10,
		paid: false,
		stage: 'Lead',
		tags: ['web'],
		due: null,
		files: [],
		created: '2024-05-01T10:00:00.000Z',
	},
	createdTime: '2024-05-01T10:00:00.000Z',
	lastEditedTime: '2024-05-01T10:00:00.000Z',
}

const params = { offset: 0, limit: 50 }

function Table() {
	// The cache was filled above and never goes stale: this reads it and follows its changes.
	const page = useQuery({ ...rowsQuery('local', 'db1', params), enabled: false })
	return <RowsTable database={database} rows={page.data?.rows ?? []} isEditable sorts={[]} onSortsChange={() => {}} />
}

function setup(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
	const fetchMock = vi.fn(async (url: string, init: RequestInit) => respond(url, init))
	vi.stubGlobal('fetch', fetchMock)
	const queryClient = new QueryClient({
		defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
	})
	queryClient.setQueryData(rowsQuery('local', 'db1', params).queryKey, {
		rows: [row],
		total: 1,
		offset: 0,
		limit: 50,
	} satisfies RowPage)
	const view = renderWithUser(
		<QueryClientProvider client={queryClient}>
			<Table />
		</QueryClientProvider>,
	)
	return { ...view, fetchMock }
}

function json(body: unknown, status = 200): Response {
	return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

function patchBody(fetchMock: ReturnType<typeof vi.fn>): { url: string; method: string; body: unknown } {
	const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit]
	return { url, method: init.method ?? 'GET', body: JSON.parse(String(init.body)) }
}

describe('the rows table', () => {
	test('shows the title first and computed values read-only', () => {
		setup(() => json({}))
		const headers = screen.getAllByRole('columnheader').map((header) => header.textContent)
		expect(headers.slice(0, 2)).toEqual(['Name', 'Amount'])
		expect(screen.queryByRole('button', { name: /^Created of/ })).not.toBeInTheDocument()
	})

	test('editing a number cell PATCHes the typed number and shows it at once', async () => {
		let release: () => void = () => {}
		const { user, fetchMock } = setup(
			() =>
				new Promise<Response>((resolve) => {
					release = () => resolve(json({ ...row, values: { ...row.values, amount: 1234.5 } }))
				}),
		)
		await user.click(screen.getByRole('button', { name: 'Amount of Acme: 10' }))
		const input = screen.getByRole('textbox', { name: 'Amount of Acme' })
		await user.clear(input)
		await user.type(input, '1,234.5{Enter}')
		expect(patchBody(fetchMock)).toEqual({
			url: '/dashboard/local/databases/db1/rows/r1',
			method: 'PATCH',
			body: { values: { amount: 1234.5 } },
		})
		// Optimistic: the new value shows before the server answers.
		expect(await screen.findByRole('button', { name: 'Amount of Acme: 1234.5' })).toBeInTheDocument()
		release()
		await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1))
	})

	test('Escape cancels an edit without writing; text that is not a number is refused', async () => {
		const { user, fetchMock } = setup(() => json(row))
		await user.click(screen.getByRole('button', { name: 'Name of Acme: Acme' }))
		await user.type(screen.getByRole('textbox', { name: 'Name of Acme' }), ' Corp{Escape}')
		expect(screen.getByRole('button', { name: 'Name of Acme: Acme' })).toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Amount of Acme: 10' }))
		const input = screen.getByRole('textbox', { name: 'Amount of Acme' })
		await user.clear(input)
		await user.type(input, 'lots{Enter}')
		expect(screen.getByText('Enter a number.')).toBeInTheDocument()
		expect(fetchMock).not.toHaveBeenCalled()
	})

	test('a checkbox toggles at once', async () => {
		const { user, fetchMock } = setup(() => json({ ...row, values: { ...row.values, paid: true } }))
		const checkbox = screen.getByRole('checkbox', { name: 'Paid of Acme' })
		expect(checkbox).not.toBeChecked()
		await user.click(checkbox)
		expect(patchBody(fetchMock).body).toEqual({ values: { paid: true } })
		await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Paid of Acme' })).toBeChecked())
	})

	test('a select cell offers the options', async () => {
		const { user, fetchMock } = setup(() => json({ ...row, values: { ...row.values, stage: 'Won' } }))
		await user.click(screen.getByRole('button', { name: 'Stage of Acme: Lead' }))
		await user.click(await screen.findByRole('menuitemradio', { name: 'Won' }))
		expect(patchBody(fetchMock).body).toEqual({ values: { stage: 'Won' } })
	})

	test('a refused write goes back to the old value and shows the field error on the cell', async () => {
		const { user } = setup(() =>
			json(
				{
					type: 'about:blank',
					title: 'Validation failed',
					status: 400,
					code: 'VALIDATION_FAILED',
					detail: 'Some fields are invalid.',
					errors: [{ field: 'values.amount', message: 'Must be 100 or less' }],
				},
				400,
			),
		)
		await user.click(screen.getByRole('button', { name: 'Amount of Acme: 10' }))
		const input = screen.getByRole('textbox', { name: 'Amount of Acme' })
		await user.clear(input)
		await user.type(input, '500{Enter}')
		const cell = (await screen.findByRole('alert')).closest('td') as HTMLElement
		expect(within(cell).getByText('Must be 100 or less')).toBeInTheDocument()
		expect(within(cell).getByRole('button', { name: 'Amount of Acme: 10' })).toBeInTheDocument()
	})

	test('a multi-select toggles one option and keeps the others', async () => {
		const { user, fetchMock } = setup(() => json({ ...row, values: { ...row.values, tags: ['web', 'seo'] } }))
		await user.click(screen.getByRole('button', { name: 'Tags of Acme: web' }))
		await user.click(await screen.findByRole('menuitemcheckbox', { name: 'seo' }))
		expect(patchBody(fetchMock).body).toEqual({ values: { tags: ['web', 'seo'] } })
	})

	test('a date is saved as YYYY-MM-DD; an end before the start is refused', async () => {
		const { user, fetchMock } = setup(() =>
			json({ ...row, values: { ...row.values, due: { start: '2026-07-01', end: null, timeZone: null } } }),
		)
		await user.click(screen.getByRole('button', { name: 'Due of Acme: empty' }))
		const dialog = await screen.findByRole('dialog', { name: 'Due' })
		await user.type(within(dialog).getByLabelText('Date'), '2026-07-01')
		await user.click(within(dialog).getByRole('checkbox', { name: 'End date' }))
		await user.type(within(dialog).getByLabelText('End'), '2026-06-01')
		await user.click(within(dialog).getByRole('button', { name: 'Save' }))
		expect(within(dialog).getByRole('alert')).toHaveTextContent('The end is before the start.')
		expect(fetchMock).not.toHaveBeenCalled()

		await user.click(within(dialog).getByRole('checkbox', { name: 'End date' }))
		await user.click(within(dialog).getByRole('button', { name: 'Save' }))
		expect(patchBody(fetchMock).body).toEqual({ values: { due: { start: '2026-07-01', end: null, timeZone: null } } })
	})

	test('a file is uploaded directly (announced with its MD5, PUT to the signed URL), then stored by blob id', async () => {
		const calls: string[] = []
		const { user, fetchMock } = setup((url, init) => {
			calls.push(`${init.method ?? 'GET'} ${url}`)
			if (url === '/dashboard/active_storage/direct_uploads') {
				return json({
					id: 'blob1',
					filename: 'a.txt',
					contentType: 'text/plain',
					byteSize: 3,
					checksum: 'kAFQmDzST7DWlj99KOF/cg==',
					status: 'pending',
					createdAt: '2026-01-01T00:00:00.000Z',
					directUpload: {
						url: '/api/uploads/blob1?expires=1&signature=abcdefghijkl',
						method: 'PUT',
						headers: { 'content-type': 'text/plain' },
						expiresAt: '2026-01-01T00:05:00.000Z',
					},
				})
			}
			if (url.startsWith('/api/uploads/')) {
				return json({})
			}
			return json({ ...row, values: { ...row.values, files: [{ name: 'a.txt', url: null, blobId: 'blob1' }] } })
		})
		await user.click(screen.getByRole('button', { name: 'Files of Acme: empty' }))
		const dialog = await screen.findByRole('dialog', { name: 'Files' })
		await user.upload(within(dialog).getByLabelText('Add files'), new File(['abc'], 'a.txt', { type: 'text/plain' }))
		await waitFor(() => expect(calls).toHaveLength(3))
		expect(calls).toEqual([
			'POST /dashboard/active_storage/direct_uploads',
			'PUT /api/uploads/blob1?expires=1&signature=abcdefghijkl',
			'PATCH /dashboard/local/databases/db1/rows/r1',
		])
		const announce = JSON.parse(String((fetchMock.mock.calls[0] as [string, RequestInit])[1].body))
		// The MD5 of "abc", base64.
		expect(announce).toEqual({
			filename: 'a.txt',
			byteSize: 3,
			checksum: 'kAFQmDzST7DWlj99KOF/cg==',
			contentType: 'text/plain',
		})
		expect(JSON.parse(String((fetchMock.mock.calls[2] as [string, RequestInit])[1].body))).toEqual({
			values: { files: [{ name: 'a.txt', url: null, blobId: 'blob1' }] },
		})
	})
})

describe('files of a Notion row', () => {
	test('a file Notion hosts opens through the server (its URL expires); an external link stays a link', async () => {
		const openHostedFile = vi.fn(async () => {})
		const notionRow: Row = {
			...row,
			values: {
				...row.values,
				files: [
					{
						name: 'scan.pdf',
						url: 'https://files.notion.test/scan.pdf?X-Amz-Expires=3600',
						blobId: null,
						expiresAt: '2024-05-01T11:00:00.000Z',
					},
					{ name: 'terms', url: 'https://example.com/terms', blobId: null },
				],
			},
		}
		const { user } = renderWithUser(
			<QueryClientProvider client={new QueryClient()}>
				<CellContext value={{ tool: 'notion', users: [], relationTitle: () => undefined, openHostedFile }}>
					<RowsTable
						database={{ ...database, tool: 'notion' }}
						rows={[notionRow]}
						isEditable={false}
						sorts={[]}
						onSortsChange={() => {}}
					/>
				</CellContext>
			</QueryClientProvider>,
		)
		// Never a link to the stored URL, which may have expired.
		expect(screen.queryByRole('link', { name: 'scan.pdf' })).toBeNull()
		await user.click(screen.getByRole('button', { name: 'scan.pdf' }))
		expect(openHostedFile).toHaveBeenCalledWith('r1', 'files', 0)
		expect(screen.getByRole('link', { name: 'terms' })).toHaveAttribute('href', 'https://example.com/terms')
	})
})
