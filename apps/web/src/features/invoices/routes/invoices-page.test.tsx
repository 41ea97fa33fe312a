import type { InvoiceList } from '@blocksmith/contracts/invoice-documents.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi } from '#src/test/mock-api.tsx'
import { todayLocal } from '../lib/invoice-draft.ts'
import { makeInvoice } from '../lib/invoice-fixtures.ts'
import { makeProfile } from '../lib/testing.ts'
import { InvoicesPage } from './invoices-page.tsx'

const routes = [
	{ path: '/invoices', Component: InvoicesPage },
	{ path: '/invoices/:id', Component: () => <p>The editor</p> },
]
const listPath = '/dashboard/local_invoice/invoices'

function daysAgo(days: number): string {
	const date = new Date()
	date.setDate(date.getDate() - days)
	return todayLocal(date)
}

const overdue = makeInvoice({
	id: 'inv-late',
	number: 'INV-2026-0007',
	status: 'sent',
	isOverdue: true,
	client: { name: 'Initech', address: null, email: null, taxId: null },
	dueDate: daysAgo(3),
	due: { minor: 119000, decimal: '1190.00' },
})
const paid = makeInvoice({ id: 'inv-paid', number: 'INV-2026-0006', status: 'paid' })
const draft = makeInvoice({ id: 'inv-draft' })

const list: InvoiceList = {
	invoices: [draft, overdue, paid],
	totals: [
		{ status: 'draft', currency: 'EUR', count: 1, totalMinor: 119000, dueMinor: 119000 },
		{ status: 'sent', currency: 'EUR', count: 2, totalMinor: 238000, dueMinor: 150000 },
		{ status: 'sent', currency: 'JPY', count: 1, totalMinor: 5000, dueMinor: 5000 },
		{ status: 'overdue', currency: 'EUR', count: 1, totalMinor: 119000, dueMinor: 119000 },
		{ status: 'paid', currency: 'EUR', count: 1, totalMinor: 119000, dueMinor: 0 },
	],
	nextCursor: null,
}

function mockList(answer: (search: URLSearchParams) => InvoiceList = () => list) {
	return mockApi((call) => {
		if (call.path === '/dashboard/local_invoice/settings') {
			return json([makeProfile()])
		}
		if (call.path === listPath && call.method === 'GET') {
			return json(answer(call.search))
		}
		return undefined
	})
}

describe('the invoices list', () => {
	test('shows the totals by status and currency, the overdue one highlighted with its days', async () => {
		mockList()
		renderApp(routes, '/invoices')
		const totals = await screen.findByRole('region', { name: 'Totals by status' })
		expect(within(totals).getByRole('region', { name: 'Draft' })).toHaveTextContent('€1,190.00')
		// Outstanding adds up what is left to pay of everything not paid, each currency on its own.
		const outstanding = within(totals).getByRole('region', { name: 'Outstanding' })
		expect(outstanding).toHaveTextContent('€1,500.00')
		expect(outstanding).toHaveTextContent('¥5,000')
		const late = within(totals).getByRole('region', { name: 'Overdue' })
		expect(late).toHaveTextContent('(1)')
		expect(late).toHaveTextContent('€1,190.00')
		expect(within(late).getByRole('heading')).toHaveClass('text-error')
		expect(within(totals).getByRole('region', { name: 'Paid' })).toHaveTextContent('€1,190.00')

		const table = screen.getByRole('table', { name: 'Invoices' })
		const row = within(table).getByRole('row', { name: /INV-2026-0007/ })
		expect(within(row).getByText('Overdue by 3 days')).toHaveClass('text-error')
		expect(within(row).getByText('Overdue')).toBeInTheDocument()
		expect(within(row).getByRole('button', { name: 'Filter by Initech' })).toBeInTheDocument()
		// On a phone the client's column and the due date give way, and the client is under the number:
		// what is due and the status are what fit on the screen.
		const [numberCell, clientCell, , dueDateCell] = within(row).getAllByRole('cell')
		expect(within(numberCell as HTMLElement).getByText('Initech')).toHaveClass('sm:hidden')
		expect(clientCell).toHaveClass('max-sm:hidden')
		expect(dueDateCell).toHaveClass('max-sm:hidden')
		expect(within(table).getByRole('link', { name: 'Draft' })).toHaveAttribute('href', '/invoices/inv-draft')
		expect(within(within(table).getByRole('row', { name: /INV-2026-0006/ })).getByText('Paid')).toBeInTheDocument()
	})

	test('the filters go into the address and the request; the overdue status asks the server for it', async () => {
		const { calls } = mockList((search) =>
			search.get('status') === 'overdue' ? { invoices: [overdue], totals: list.totals, nextCursor: null } : list,
		)
		const { user, router } = renderApp(routes, '/invoices')
		await screen.findByRole('table', { name: 'Invoices' })
		await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'overdue')
		await waitFor(() => expect(screen.queryByRole('row', { name: /INV-2026-0006/ })).toBeNull())
		expect(router.state.location.search).toBe('?status=overdue')
		expect(calls.at(-1)?.search.get('status')).toBe('overdue')
		await user.type(screen.getByRole('textbox', { name: 'Total from' }), '1000')
		await waitFor(() => expect(calls.at(-1)?.search.get('amountMin')).toBe('1000'))
		expect(router.state.location.search).toContain('amountMin=1000')
		// A client's name in the table filters by that client, the other filters kept.
		await user.click(screen.getByRole('button', { name: 'Filter by Initech' }))
		await waitFor(() => expect(calls.at(-1)?.search.get('clientId')).toBe('Initech'))
		expect(calls.at(-1)?.search.get('status')).toBe('overdue')
		await user.click(screen.getByRole('button', { name: /Client: Initech/ }))
		await waitFor(() => expect(router.state.location.search).not.toContain('clientId'))
	})

	test('with no invoices, the empty state creates the first draft and opens it', async () => {
		const { calls } = mockApi((call) => {
			if (call.path === '/dashboard/local_invoice/settings') {
				return json([makeProfile()])
			}
			if (call.path === listPath && call.method === 'GET') {
				return json({ invoices: [], totals: [], nextCursor: null })
			}
			if (call.path === listPath && call.method === 'POST') {
				return json(makeInvoice({ id: 'new1' }), 201)
			}
			return undefined
		})
		const { user } = renderApp(routes, '/invoices')
		expect(await screen.findByRole('heading', { name: 'No invoices yet' })).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'New invoice' }))
		const dialog = await screen.findByRole('dialog', { name: 'New invoice' })
		await user.type(within(dialog).getByRole('textbox', { name: /Client/ }), 'Globex')
		await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Currency' }), 'JPY')
		await user.click(within(dialog).getByRole('button', { name: 'Create the draft' }))
		expect(await screen.findByText('The editor')).toBeInTheDocument()
		expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
			profileId: 'prof1',
			currency: 'JPY',
			client: { name: 'Globex' },
		})
	})

	test('a saved filter applies its fields; the current filters are saved under a name; the CSV has the same filters', async () => {
		const saved = {
			id: 'f1',
			name: 'Late euros',
			filter: { status: 'overdue', currency: 'EUR' },
			createdAt: '2026-11-01T10:00:00.000Z',
			updatedAt: '2026-11-01T10:00:00.000Z',
		}
		const { calls } = mockApi((call) => {
			if (call.path === '/dashboard/local_invoice/settings') {
				return json([makeProfile()])
			}
			if (call.path === listPath) {
				return json(list)
			}
			if (call.path === '/dashboard/local/invoice_filter' && call.method === 'GET') {
				return json([saved])
			}
			if (call.path === '/dashboard/local/invoice_filter' && call.method === 'POST') {
				return json({ ...saved, id: 'f2', ...(call.body as object) }, 201)
			}
			if (call.path === '/dashboard/local_invoice/invoices_export') {
				return new Response('number,client\n', { headers: { 'content-type': 'text/csv' } })
			}
			return undefined
		})
		vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:csv')
		vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined)
		const { user, router } = renderApp(routes, '/invoices')
		await user.selectOptions(await screen.findByRole('combobox', { name: 'Saved filters' }), 'f1')
		await waitFor(() => expect(router.state.location.search).toBe('?status=overdue&currency=EUR'))
		expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('overdue')
		expect(screen.getByRole('button', { name: 'Delete the filter Late euros' })).toBeInTheDocument()

		await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'credit_note')
		await user.click(await screen.findByRole('button', { name: 'Save these filters' }))
		const dialog = await screen.findByRole('dialog', { name: 'Save these filters' })
		await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Late credits')
		await user.click(within(dialog).getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
		expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
			name: 'Late credits',
			filter: { status: 'overdue', kind: 'credit_note', currency: 'EUR' },
		})

		await user.click(screen.getByRole('button', { name: 'Export CSV' }))
		const exported = await waitFor(() => {
			const call = calls.find((one) => one.path.endsWith('/invoices_export'))
			expect(call).toBeDefined()
			return call
		})
		expect(Object.fromEntries(exported?.search ?? [])).toEqual({
			status: 'overdue',
			kind: 'credit_note',
			currency: 'EUR',
		})
	})

	test("more pages come by the server's cursor, the totals those of every page", async () => {
		const { calls } = mockList((search) =>
			search.get('cursor') === 'c2'
				? ({ invoices: [paid], totals: [], nextCursor: null } as InvoiceList)
				: ({ invoices: [draft, overdue], totals: list.totals, nextCursor: 'c2' } as InvoiceList),
		)
		const { user } = renderApp(routes, '/invoices')
		const table = await screen.findByRole('table', { name: 'Invoices' })
		expect(within(table).queryByRole('row', { name: /INV-2026-0006/ })).toBeNull()
		await user.click(screen.getByRole('button', { name: 'Show more' }))
		expect(await within(table).findByRole('row', { name: /INV-2026-0006/ })).toBeInTheDocument()
		expect(calls.at(-1)?.search.get('cursor')).toBe('c2')
		expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull()
		expect(screen.getByRole('region', { name: 'Paid' })).toHaveTextContent('€1,190.00')
	})
})
