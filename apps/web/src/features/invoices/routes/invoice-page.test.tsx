import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import type { InvoiceProfile, TaxRate } from '@blocksmith/contracts/invoices.ts'
import type { Database } from '@blocksmith/contracts/workspaces.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi, problem } from '#src/test/mock-api.tsx'
import { makeInvoice } from '../lib/invoice-fixtures.ts'
import { makeProfile } from '../lib/testing.ts'
import { InvoicePage } from './invoice-page.tsx'

const routes = [
	{ path: '/invoices/:id', Component: InvoicePage },
	{ path: '/invoices', Component: () => <p>The list</p> },
]
const invoicePath = '/dashboard/local_invoice/invoices/inv1'

const projects: Database = {
	id: 'db-projects',
	workspaceId: 'ws1',
	tool: 'local',
	externalId: 'db-projects',
	name: 'Projects',
	icon: null,
	url: null,
	properties: [
		{ id: 'name', name: 'Name', type: 'title' },
		{ id: 'budget', name: 'Price', type: 'number' },
		{ id: 'days', name: 'Quantity', type: 'number' },
		{ id: 'phase', name: 'Phase', type: 'select' },
	],
	sync: { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 2 },
}
const clients: Database = {
	...projects,
	id: 'db-clients',
	externalId: 'db-clients',
	name: 'Clients',
	properties: [
		{ id: 'cname', name: 'Company', type: 'title' },
		{ id: 'mail', name: 'Billing e-mail', type: 'email' },
		{ id: 'vat', name: 'VAT id', type: 'rich_text' },
	],
}
const clientRows = [
	{
		id: 'c1',
		externalId: 'c1',
		title: 'Globex Corp',
		values: { cname: 'Globex Corp', mail: 'ap@globex.test', vat: 'FR123' },
		url: null,
		createdTime: '2026-01-01T10:00:00.000Z',
		lastEditedTime: '2026-01-01T10:00:00.000Z',
	},
]
const projectRows = ['Website', 'Mobile app', 'Brand book'].map((title, index) => ({
	id: `row${index + 1}`,
	externalId: `row${index + 1}`,
	title,
	values: { name: title, budget: 1000 * (index + 1), days: index + 1 },
	url: null,
	createdTime: '2026-01-01T10:00:00.000Z',
	lastEditedTime: '2026-01-01T10:00:00.000Z',
}))

type Answer = (body: unknown) => Response | undefined

/** The API with the draft `inv1` as the server holds it; PATCHes saved as sent unless `onPatch` answers. */
function mockInvoice({
	onPatch,
	profiles = [makeProfile()],
	extra,
}: {
	onPatch?: Answer
	profiles?: InvoiceProfile[]
	/** Answers tried first, for a test's own paths. */
	extra?: (call: { method: string; path: string; body: unknown }) => Response | undefined
} = {}) {
	let invoice: Invoice = makeInvoice()
	const api = mockApi((call) => {
		const answer = extra?.(call)
		if (answer) {
			return answer
		}
		if (call.path === '/dashboard/local_invoice/settings') {
			return json(profiles)
		}
		if (call.path === invoicePath && call.method === 'GET') {
			return json(invoice)
		}
		if (call.path === invoicePath && call.method === 'PATCH') {
			const answer = onPatch?.(call.body)
			if (answer) {
				return answer
			}
			invoice = makeInvoice({ ...invoice, ...(call.body as Partial<Invoice>), updatedAt: new Date().toISOString() })
			return json(invoice)
		}
		if (call.path === `${invoicePath}/lines/from_rows`) {
			const { rowIds } = call.body as { rowIds: string[] }
			const added = rowIds.map((id) => {
				const row = projectRows.find((one) => one.id === id)
				return {
					description: row?.title ?? '',
					quantity: String(row?.values.days),
					unit: null,
					unitPrice: String(row?.values.budget),
					discount: null,
					taxRateId: 'rate1',
				}
			})
			invoice = makeInvoice({ ...invoice, lines: [...invoice.lines, ...added] })
			return json(invoice)
		}
		if (call.path === `${invoicePath}/finalize`) {
			invoice = makeInvoice({ ...invoice, status: 'finalized', number: 'INV-2026-0042' })
			return json(invoice)
		}
		if (call.path === '/dashboard/workspaces') {
			return json([
				{
					id: 'ws1',
					tool: 'local',
					name: 'Sample',
					icon: null,
					status: 'connected',
					databasesCount: 1,
					createdAt: '2026-01-01T10:00:00.000Z',
				},
			])
		}
		if (call.path === '/dashboard/local/databases') {
			return json([projects, clients])
		}
		if (call.path === '/dashboard/local/databases/db-clients/rows') {
			return json({ rows: clientRows, total: 1, offset: 0, limit: 50 })
		}
		if (call.path === '/dashboard/local/databases/db-projects/rows') {
			return json({ rows: projectRows, total: projectRows.length, offset: 0, limit: 100 })
		}
		return undefined
	})
	return api
}

const patches = (calls: { method: string; path: string; body: unknown }[]) =>
	calls.filter((call) => call.method === 'PATCH' && call.path === invoicePath)

describe('the invoice editor', () => {
	test('a change is saved after typing rests, with the totals following as typed', async () => {
		const { calls } = mockInvoice()
		const { user } = renderApp(routes, '/invoices/inv1')
		const line = await screen.findByRole('listitem', { name: 'Line 1' })
		const totals = screen.getByRole('region', { name: 'Totals' })
		expect(totals).toHaveTextContent('1.190,00 €')
		const price = within(line).getByRole('textbox', { name: /Unit price/ })
		await user.clear(price)
		await user.type(price, '120.50')
		// 10 × 120.50 = 1205.00, VAT 19 % = 228.95, in the profile's locale (de-DE): the money core, before the server answers.
		expect(totals).toHaveTextContent('1.433,95 €')
		expect(totals).toHaveTextContent('228,95 €')
		expect(await screen.findByText('Saved', {}, { timeout: 3000 })).toBeInTheDocument()
		// One save for the pause, not one per key.
		expect(patches(calls)).toHaveLength(1)
		expect(patches(calls)[0]?.body).toMatchObject({
			lines: [{ description: 'Design', quantity: '10', unitPrice: '120.50', taxRateId: 'rate1' }],
			client: { name: 'Globex' },
			currency: 'EUR',
		})
	})

	test("a 400's field error shows on the field it names", async () => {
		mockInvoice({
			onPatch: () =>
				problem(400, 'VALIDATION', 'Check the marked fields.', [
					{ field: 'lines.1.unitPrice', message: 'Enter a price such as 100.00 (at most 6 decimals).' },
				]),
		})
		const { user } = renderApp(routes, '/invoices/inv1')
		await screen.findByRole('listitem', { name: 'Line 1' })
		await user.click(screen.getByRole('button', { name: 'Add a line' }))
		const second = screen.getByRole('listitem', { name: 'Line 2' })
		await user.type(within(second).getByRole('textbox', { name: 'Description' }), 'Hosting')
		const price = within(second).getByRole('textbox', { name: /Unit price/ })
		await waitFor(() => expect(price).toHaveAccessibleDescription(/at most 6 decimals/), { timeout: 3000 })
		expect(price).toHaveAttribute('aria-invalid', 'true')
		expect(
			within(screen.getByRole('listitem', { name: 'Line 1' })).getByRole('textbox', { name: /Unit price/ }),
		).not.toHaveAttribute('aria-invalid', 'true')
		expect(screen.getByRole('status')).toHaveTextContent('Not saved')
	})

	test('adds lines from ticked rows with the mapping chosen', async () => {
		const { calls } = mockInvoice()
		const { user } = renderApp(routes, '/invoices/inv1')
		await screen.findByRole('listitem', { name: 'Line 1' })
		await user.click(screen.getByRole('button', { name: 'Add from rows' }))
		const dialog = await screen.findByRole('dialog', { name: 'Add lines from rows' })
		await user.selectOptions(await within(dialog).findByRole('combobox', { name: /Database/ }), 'db-projects')
		// The title and the price-like property are guessed; the quantity is chosen.
		expect(within(dialog).getByRole('combobox', { name: /Description/ })).toHaveValue('name')
		expect(within(dialog).getByRole('combobox', { name: /Unit price/ })).toHaveValue('budget')
		// A select not named like a unit is no unit: the lines would read "Website 1 In progress".
		expect(within(dialog).getByRole('combobox', { name: 'Unit' })).toHaveValue('')
		await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Quantity' }), 'days')
		await user.click(await within(dialog).findByRole('checkbox', { name: 'Website' }))
		await user.click(within(dialog).getByRole('checkbox', { name: 'Brand book' }))
		await user.click(within(dialog).getByRole('button', { name: 'Add 2 lines' }))
		await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
		expect(calls.find((call) => call.path.endsWith('/lines/from_rows'))?.body).toEqual({
			databaseId: 'db-projects',
			rowIds: ['row1', 'row3'],
			mapping: { description: 'name', unitPrice: 'budget', quantity: 'days' },
			taxRateId: 'rate1',
		})
		const third = screen.getByRole('listitem', { name: 'Line 3' })
		expect(within(third).getByRole('textbox', { name: 'Description' })).toHaveValue('Brand book')
		expect(within(third).getByRole('textbox', { name: /Unit price/ })).toHaveValue('3000')
		// 1000 + 1000 + 9000 net, 19 % VAT.
		expect(screen.getByRole('region', { name: 'Totals' })).toHaveTextContent('13.090,00 €')
	})

	test('finalizes only after the confirmation, which names the number it gets', async () => {
		const { calls } = mockInvoice()
		const { user } = renderApp(routes, '/invoices/inv1')
		await screen.findByRole('listitem', { name: 'Line 1' })
		await user.click(screen.getByRole('button', { name: 'Finalize' }))
		const confirm = await screen.findByRole('alertdialog', { name: 'Finalize this invoice?' })
		expect(confirm).toHaveTextContent('INV-2026-0042')
		expect(confirm).toHaveTextContent('can no longer change')
		await user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
		expect(calls.some((call) => call.path.endsWith('/finalize'))).toBe(false)

		await user.click(screen.getByRole('button', { name: 'Finalize' }))
		await user.click(
			within(await screen.findByRole('alertdialog', { name: 'Finalize this invoice?' })).getByRole('button', {
				name: 'Finalize',
			}),
		)
		expect(await screen.findByRole('heading', { name: 'Invoice INV-2026-0042' })).toBeInTheDocument()
		// Read-only now: the lines as a table, no inputs, and the actions on it.
		expect(screen.getByRole('table', { name: 'Lines' })).toHaveTextContent('Design')
		expect(screen.queryByRole('textbox')).toBeNull()
		expect(screen.getByRole('region', { name: 'Invoice actions' })).toBeInTheDocument()
		expect(screen.getByRole('region', { name: 'Totals' })).toHaveTextContent('Due')
	})

	test('leaving within the pause saves the change first, then leaves', async () => {
		const { calls } = mockInvoice()
		const { user, router } = renderApp(routes, '/invoices/inv1')
		const line = await screen.findByRole('listitem', { name: 'Line 1' })
		await user.type(within(line).getByRole('textbox', { name: 'Description' }), ' work')
		await user.click(screen.getByRole('link', { name: 'Invoices' }))
		expect(await screen.findByText('The list')).toBeInTheDocument()
		expect(router.state.location.pathname).toBe('/invoices')
		expect(patches(calls).at(-1)?.body).toMatchObject({ lines: [{ description: 'Design work' }] })
	})

	test('a draft whose change the server refuses asks before leaving, and stays when told', async () => {
		mockInvoice({
			onPatch: () =>
				problem(400, 'VALIDATION', 'Check the marked fields.', [
					{ field: 'lines.0.description', message: 'Describe the line.' },
				]),
		})
		const { user, router } = renderApp(routes, '/invoices/inv1')
		const line = await screen.findByRole('listitem', { name: 'Line 1' })
		await user.clear(within(line).getByRole('textbox', { name: 'Description' }))
		await user.click(screen.getByRole('link', { name: 'Invoices' }))
		const ask = await screen.findByRole('alertdialog', { name: 'Leave without saving?' })
		await user.click(within(ask).getByRole('button', { name: 'Stay' }))
		expect(router.state.location.pathname).toBe('/invoices/inv1')
		expect(within(line).getByRole('textbox', { name: 'Description' })).toHaveAccessibleDescription('Describe the line.')
	})

	test('a finalized invoice reads as a document: overdue, paid and due, no inputs', async () => {
		const invoice = makeInvoice({
			number: 'INV-2026-0007',
			status: 'partially_paid',
			isOverdue: true,
			dueDate: '2026-11-01',
			paid: { minor: 19000, decimal: '190.00' },
			due: { minor: 100000, decimal: '1000.00' },
		})
		mockApi((call) => {
			if (call.path === '/dashboard/local_invoice/settings') {
				return json([makeProfile()])
			}
			if (call.path === invoicePath) {
				return json(invoice)
			}
			return undefined
		})
		renderApp(routes, '/invoices/inv1')
		expect(await screen.findByRole('heading', { name: 'Invoice INV-2026-0007' })).toBeInTheDocument()
		expect(screen.getAllByText('Overdue').length).toBeGreaterThan(0)
		expect(screen.getByText(/^Overdue by \d+ days$/)).toHaveClass('text-error')
		const totals = screen.getByRole('region', { name: 'Totals' })
		expect(totals).toHaveTextContent('Total1.190,00 €')
		expect(totals).toHaveTextContent('Paid190,00 €')
		expect(totals).toHaveTextContent('Due1.000,00 €')
		expect(screen.queryByRole('textbox')).toBeNull()
		expect(screen.queryByRole('button', { name: 'Finalize' })).toBeNull()
	})

	test('the client from a workspace row is saved as the row and the mapping of its properties', async () => {
		const { calls } = mockInvoice()
		const { user } = renderApp(routes, '/invoices/inv1')
		await screen.findByRole('listitem', { name: 'Line 1' })
		await user.click(screen.getByRole('button', { name: 'From a workspace row' }))
		await user.selectOptions(await screen.findByRole('combobox', { name: /Clients database/ }), 'db-clients')
		// The title and the e-mail property are taken as the name and the e-mail.
		expect(screen.getByRole('combobox', { name: /^Name/ })).toHaveValue('cname')
		expect(screen.getByRole('combobox', { name: 'E-mail' })).toHaveValue('mail')
		await user.selectOptions(screen.getByRole('combobox', { name: 'Tax id' }), 'vat')
		await user.selectOptions(await screen.findByRole('combobox', { name: 'Client row' }), 'c1')
		await waitFor(
			() =>
				expect(patches(calls).at(-1)?.body).toMatchObject({
					client: null,
					clientRow: { databaseId: 'db-clients', rowId: 'c1', mapping: { name: 'cname', email: 'mail', taxId: 'vat' } },
				}),
			{ timeout: 3000 },
		)
	})

	test("another profile's rates replace the ones it lacks on the lines", async () => {
		const second = makeProfile({
			id: 'prof2',
			name: 'Acme SARL',
			taxRates: [{ ...(makeProfile().taxRates[0] as TaxRate), id: 'fr20', name: 'TVA 20 %', rate: '20' }],
		})
		mockInvoice({ profiles: [makeProfile(), second] })
		const { user } = renderApp(routes, '/invoices/inv1')
		await screen.findByRole('listitem', { name: 'Line 1' })
		await user.selectOptions(screen.getByRole('combobox', { name: 'Bill from' }), 'prof2')
		expect(
			within(screen.getByRole('listitem', { name: 'Line 1' })).getByRole('combobox', { name: 'Tax rate' }),
		).toHaveValue('fr20')
		expect(screen.getByRole('region', { name: 'Totals' })).toHaveTextContent('1.200,00')
	})

	test("tracked time comes in through the view's own tool, grouped as chosen", async () => {
		const view = { id: 'v1', name: 'November, billable', databaseName: 'Time entries' }
		const timeLine = {
			description: 'Website: 12 h',
			quantity: '12',
			unit: 'hours',
			unitPrice: '80',
			discount: null,
			taxRateId: 'rate1',
		}
		const { calls } = mockInvoice({
			extra: (call) => {
				if (call.path === '/dashboard/notion_time/views') {
					const dates = { createdAt: '2026-11-01T10:00:00.000Z', updatedAt: '2026-11-01T10:00:00.000Z' }
					return json([{ ...view, ...dates }])
				}
				if (call.path === '/dashboard/local_time/views') {
					return json([])
				}
				if (call.path === '/dashboard/notion_invoice/invoices/inv1/lines/from_time') {
					return json(makeInvoice({ lines: [...makeInvoice().lines, timeLine] }))
				}
				return undefined
			},
		})
		const { user } = renderApp(routes, '/invoices/inv1')
		await screen.findByRole('listitem', { name: 'Line 1' })
		await user.click(screen.getByRole('button', { name: 'Add tracked time' }))
		const dialog = await screen.findByRole('dialog', { name: 'Add tracked time' })
		await user.selectOptions(await within(dialog).findByRole('combobox', { name: /Time report/ }), 'notion:v1')
		await user.selectOptions(within(dialog).getByRole('combobox', { name: 'One line per' }), 'task')
		await user.click(within(dialog).getByRole('button', { name: 'Add the time' }))
		expect(await screen.findByRole('listitem', { name: 'Line 2' })).toBeInTheDocument()
		expect(calls.find((call) => call.path.endsWith('/from_time'))?.body).toEqual({
			viewId: 'v1',
			groupBy: 'task',
			taxRateId: 'rate1',
		})
	})
})
