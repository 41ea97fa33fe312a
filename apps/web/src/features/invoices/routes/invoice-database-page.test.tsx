import {
	type InvoiceDatabaseState,
	type InvoiceMappingReview,
	type InvoiceRow,
	type InvoiceSync,
	invoiceDatabaseMappingSchema,
} from '@blocksmith/contracts/invoice-workspace.ts'
import type { Database } from '@blocksmith/contracts/workspaces.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { makeInvoice } from '../components/invoice-actions.fixtures.ts'
import { InvoiceDatabasePage } from './invoice-database-page.tsx'

afterEach(() => {
	vi.unstubAllGlobals()
})

const database: Database = {
	id: 'db-inv',
	workspaceId: 'ws1',
	tool: 'local',
	externalId: 'db-inv',
	name: 'Invoices',
	icon: null,
	url: null,
	properties: [
		{ id: 'name', name: 'Name', type: 'title' },
		{ id: 'client', name: 'Client', type: 'relation', relationDatabaseId: 'db-clients' },
		{ id: 'total', name: 'Total', type: 'number' },
		{ id: 'due', name: 'Due', type: 'date' },
		{ id: 'notes', name: 'Notes', type: 'rich_text' },
		{
			id: 'status',
			name: 'Status',
			type: 'select',
			options: ['Draft', 'Sent', 'Paid', 'Late'].map((name) => ({
				id: name.toLowerCase(),
				name,
				color: 'gray' as const,
			})),
		},
	],
	sync: { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 2 },
}

const clientsDatabase: Database = {
	...database,
	id: 'db-clients',
	externalId: 'db-clients',
	name: 'Clients',
	properties: [
		{ id: 'company', name: 'Company', type: 'title' },
		{ id: 'mail', name: 'Billing e-mail', type: 'email' },
		{ id: 'town', name: 'Town', type: 'select', options: [] },
	],
}

const suggested = invoiceDatabaseMappingSchema.parse({
	number: 'name',
	amount: 'total',
	status: 'status',
	statusOptions: { draft: 'Draft', sent: 'Sent', paid: 'Paid' },
})

function review(mapping = suggested): InvoiceMappingReview {
	return {
		mapping,
		fields: [
			{ field: 'number', propertyId: 'name', propertyName: 'Name', isMapped: true, isRequired: true, message: null },
			{ field: 'amount', propertyId: 'total', propertyName: 'Total', isMapped: true, isRequired: false, message: null },
			{
				field: 'status',
				propertyId: 'status',
				propertyName: 'Status',
				isMapped: true,
				isRequired: false,
				message: null,
			},
			{
				field: 'clientMapping',
				propertyId: 'company',
				propertyName: 'Company',
				isMapped: true,
				isRequired: false,
				message: null,
			},
			{
				field: 'dueDate',
				propertyId: null,
				propertyName: null,
				isMapped: Boolean(mapping.dueDate),
				isRequired: false,
				message: mapping.dueDate ? null : 'Optional: a date property for the due date.',
			},
		],
		unmappedStatuses: ['finalized', 'partially_paid', 'void', 'overdue'],
		isComplete: true,
	}
}

const ref = { id: 'db-inv', workspaceId: 'ws1', tool: 'local' as const, name: 'Invoices' }
const unmapped: InvoiceDatabaseState = { mapped: null, candidates: [{ ...ref, suggested: review() }] }
const mapped: InvoiceDatabaseState = {
	mapped: { ...ref, review: review(), lastSyncAt: null },
	candidates: [{ ...ref, suggested: review() }],
}

const rows: InvoiceRow[] = [
	{
		id: 'row1',
		number: 'INV-2026-0007',
		clientNames: ['Globex'],
		amount: '1249.50',
		issueDate: '2026-11-20',
		dueDate: '2026-12-04',
		status: 'Sent',
		paid: false,
		document: { id: 'inv1', number: 'INV-2026-0007', status: 'sent', dueDate: '2026-12-04', isOverdue: true },
	},
	{
		id: 'row2',
		number: 'Website retainer',
		clientNames: [],
		amount: '800',
		issueDate: null,
		dueDate: null,
		status: null,
		paid: null,
		document: null,
	},
]

const sync: InvoiceSync = {
	checked: 3,
	pushed: 1,
	unchanged: 2,
	notLinked: 0,
	failed: 0,
	at: '2026-11-26T10:00:00.000Z',
	pushes: [{ number: 'INV-2026-0007', from: 'Sent', to: 'Late', error: null }],
}

function setup(initial: InvoiceDatabaseState, save: (body: unknown) => Response = () => json(mapped)) {
	let current = initial
	const api = mockApi((call) => {
		if (call.path === '/dashboard/local/invoices/database' && call.method === 'GET') {
			return json(current)
		}
		if (call.path === '/dashboard/local/invoices/database' && call.method === 'PUT') {
			const answer = save(call.body)
			// Saved: the database reads as mapped from now on.
			current = answer.ok ? mapped : current
			return answer
		}
		if (call.path === '/dashboard/local/databases/db-inv') {
			return json(database)
		}
		if (call.path === '/dashboard/local/databases/db-clients') {
			return json(clientsDatabase)
		}
		if (call.path === '/dashboard/local/invoices' && call.method === 'GET') {
			return json({ rows, nextCursor: null })
		}
		if (call.path === '/dashboard/local/invoices/row2/draft') {
			return json(makeInvoice({ id: 'inv9', status: 'draft', number: null }), 201)
		}
		if (call.path === '/dashboard/local/invoices/database' && call.method === 'DELETE') {
			current = unmapped
			return json({ success: true })
		}
		if (call.path === '/dashboard/local/sync_invoices') {
			return json(call.method === 'POST' ? sync : null)
		}
		return undefined
	})
	return { api, ...renderPage(InvoiceDatabasePage, '/invoices/database', '/invoices/database') }
}

test('an unmapped database: the suggestion filled in, what is missing in words, saved as changed', async () => {
	const { api, user } = setup(unmapped)
	const form = await screen.findByRole('form', { name: 'Invoices database mapping' })
	const number = await within(form).findByLabelText('Number (required)')
	expect(number).toHaveValue('name')
	expect(within(form).getByLabelText('Total')).toHaveValue('total')
	// Only properties of fitting types are offered: a date for the due date.
	const due = within(form).getByLabelText('Due date')
	expect(
		within(due)
			.getAllByRole('option')
			.map((option) => option.textContent),
	).toEqual(['Not written', 'Due'])
	expect(within(form).getByText('Optional: a date property for the due date.')).toBeInTheDocument()
	expect(
		within(form).getByText(/Not written \(the row keeps what it has\): Finalized, Partially paid, Void, Overdue/),
	).toBeInTheDocument()

	await user.selectOptions(due, 'due')
	await user.selectOptions(within(form).getByLabelText('Overdue'), 'Late')
	await user.click(within(form).getByRole('button', { name: 'Save mapping' }))

	await waitFor(() => expect(api.calls.some((call) => call.method === 'PUT')).toBe(true))
	const body = api.calls.find((call) => call.method === 'PUT')?.body as {
		databaseId: string
		mapping: typeof suggested
	}
	expect(body.databaseId).toBe('db-inv')
	expect(body.mapping).toMatchObject({ number: 'name', amount: 'total', dueDate: 'due', status: 'status' })
	expect(body.mapping.statusOptions).toMatchObject({ sent: 'Sent', overdue: 'Late' })
	// Saved: the mapped database, its rows and the sync.
	expect(await screen.findByRole('heading', { name: 'Invoices' })).toBeInTheDocument()
	expect(await screen.findByRole('table', { name: 'Rows of the invoices database' })).toBeInTheDocument()
})

test('a 400 on a field of the mapping is shown on that field', async () => {
	const { user } = setup(unmapped, () =>
		problem(400, 'VALIDATION', 'The mapping is invalid.', [
			{ field: 'mapping.statusOptions.paid', message: 'Status has no option "Paid".' },
		]),
	)
	const form = await screen.findByRole('form', { name: 'Invoices database mapping' })
	await within(form).findByLabelText('Number (required)')
	await user.click(within(form).getByRole('button', { name: 'Save mapping' }))
	expect(await within(form).findByText('Status has no option "Paid".')).toBeInTheDocument()
	expect(within(form).getByLabelText('Paid')).toHaveAttribute('aria-invalid', 'true')
})

test('the rows with their invoices; a row without one becomes a draft, opened at once', async () => {
	const { api, user, router } = setup(mapped)
	// What is written to the row, not the client's details read from the clients database.
	expect(await screen.findByText('3 fields written: Name, Total, Status.')).toBeInTheDocument()
	const table = await screen.findByRole('table', { name: 'Rows of the invoices database' })
	const linked = within(table).getByRole('row', { name: /Globex/ })
	expect(within(linked).getByRole('link', { name: 'INV-2026-0007' })).toHaveAttribute('href', '/invoices/inv1')
	expect(linked).toHaveTextContent('Overdue')

	await user.click(within(table).getByRole('button', { name: 'Create invoice from row Website retainer' }))
	await waitFor(() => expect(router.state.location.pathname).toBe('/invoices/inv9'))
	expect(api.calls.some((call) => call.method === 'POST' && call.path.endsWith('/row2/draft'))).toBe(true)
})

test('sync statuses says what it did', async () => {
	const { user } = setup(mapped)
	expect(await screen.findByText('Not synced yet.')).toBeInTheDocument()
	await user.click(screen.getByRole('button', { name: /Sync statuses/ }))
	expect(await screen.findByText(/3 rows checked, 1 written back, 2 unchanged\./)).toBeInTheDocument()
	expect(
		within(screen.getByRole('list', { name: 'What the sync wrote' })).getByText(/INV-2026-0007: Sent → Late/),
	).toBeInTheDocument()
})

test('an owner can stop writing to the mapped database, after confirming', async () => {
	const { api, user } = setup(mapped)
	await user.click(await screen.findByRole('button', { name: 'Stop writing to it' }))
	expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false)
	await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Stop writing' }))
	await waitFor(() =>
		expect(
			api.calls.some((call) => call.method === 'DELETE' && call.path === '/dashboard/local/invoices/database'),
		).toBe(true),
	)
	expect(await screen.findByRole('heading', { name: 'Choose the database' })).toBeInTheDocument()
})

test('the client’s details are chosen among the clients database’s properties', async () => {
	const { api, user } = setup(unmapped)
	const form = await screen.findByRole('form', { name: 'Invoices database mapping' })
	await user.selectOptions(await within(form).findByLabelText('Client'), 'client')
	const group = await within(form).findByRole('group', { name: 'Client details from Clients' })
	expect(
		within(within(group).getByLabelText('Client e-mail'))
			.getAllByRole('option')
			.map((one) => one.textContent),
	).toEqual(['Not written', 'Billing e-mail'])
	await user.selectOptions(within(group).getByLabelText('Client name'), 'company')
	await user.selectOptions(within(group).getByLabelText('Client e-mail'), 'mail')
	await user.click(within(form).getByRole('button', { name: 'Save mapping' }))
	await waitFor(() => expect(api.calls.some((call) => call.method === 'PUT')).toBe(true))
	const body = api.calls.find((call) => call.method === 'PUT')?.body as { mapping: typeof suggested }
	expect(body.mapping.client).toBe('client')
	expect(body.mapping.clientMapping).toEqual({ name: 'company', email: 'mail' })
})

test('without any database to choose, the page says what to do first', async () => {
	setup({ mapped: null, candidates: [] })
	expect(await screen.findByText('No database to choose yet')).toBeInTheDocument()
	expect(screen.queryByRole('button', { name: 'Save mapping' })).not.toBeInTheDocument()
})
