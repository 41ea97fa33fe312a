import type { Recurrence } from '@blocksmith/contracts/invoice-recurring.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { makeInvoice } from '../components/invoice-actions.fixtures.ts'
import { InvoiceActions } from '../components/invoice-actions.tsx'
import { InvoiceRecurringPage } from './invoice-recurring-page.tsx'

afterEach(() => {
	vi.unstubAllGlobals()
})

const base = '/dashboard/local_invoice/recurring'

function makeRecurrence(changes: Partial<Recurrence> = {}): Recurrence {
	return {
		id: 'rec1',
		sourceId: 'inv1',
		source: {
			number: 'INV-2026-0007',
			status: 'sent',
			clientName: 'Globex',
			currency: 'JPY',
			total: { minor: 120_000, decimal: '120000' },
		},
		frequency: 'month',
		interval: 3,
		anchorDate: '2026-12-01',
		nextDate: '2026-12-01',
		endDate: null,
		remaining: 2,
		action: 'send',
		isActive: true,
		runs: 1,
		lastRunAt: null,
		lastDocumentId: null,
		lastError: null,
		createdAt: '2026-11-20T10:00:00.000Z',
		updatedAt: '2026-11-20T10:00:00.000Z',
		...changes,
	}
}

function setup(recurrences: Recurrence[]) {
	let current = recurrences
	const api = mockApi((call) => {
		if (call.path === base && call.method === 'GET') {
			return json(current)
		}
		if (call.path === `${base}/rec1` && call.method === 'PATCH') {
			const body = call.body as Partial<Recurrence>
			current = current.map((one) => (one.id === 'rec1' ? { ...one, ...body } : one))
			return json(current[0])
		}
		if (call.path === `${base}/rec1/run_now`) {
			current = current.map((one) => ({ ...one, runs: one.runs + 1 }))
			return json(makeInvoice({ number: 'INV-2026-0008' }))
		}
		if (call.path === `${base}/rec1` && call.method === 'DELETE') {
			current = []
			return json({ success: true })
		}
		return undefined
	})
	return { api, ...renderPage(InvoiceRecurringPage, '/invoices/recurring', '/invoices/recurring') }
}

test('the series are listed with their amount in the currency’s decimals, schedule, next day and runs', async () => {
	setup([makeRecurrence()])
	const row = await screen.findByRole('row', { name: /Globex/ })
	expect(row).toHaveTextContent('¥120,000')
	expect(row).toHaveTextContent('Every 3 months')
	expect(row).toHaveTextContent('2026-12-01')
	expect(row).toHaveTextContent('1 of 3')
	expect(row).toHaveTextContent('Sent')
	expect(within(row).getByRole('link', { name: 'Globex' })).toHaveAttribute('href', '/invoices/inv1')
})

test('pause, run now and delete each call the series’ path and read the list again', async () => {
	const { api, user } = setup([makeRecurrence()])
	const row = await screen.findByRole('row', { name: /Globex/ })
	await user.click(within(row).getByRole('switch', { name: 'Globex active' }))
	await waitFor(() => expect(api.calls.find((call) => call.method === 'PATCH')?.body).toEqual({ isActive: false }))
	await waitFor(() => expect(within(row).getByRole('switch', { name: 'Globex active' })).not.toBeChecked())

	await user.click(within(row).getByRole('switch', { name: 'Globex active' }))
	await waitFor(() => expect(within(row).getByRole('switch', { name: 'Globex active' })).toBeChecked())
	await user.click(within(row).getByRole('button', { name: 'Make the next invoice of Globex now' }))
	await waitFor(() => expect(row).toHaveTextContent('2 of 4'))

	await user.click(within(row).getByRole('button', { name: 'Delete the schedule of Globex' }))
	await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete schedule' }))
	expect(await screen.findByText('No recurring invoices')).toBeInTheDocument()
	expect(api.calls.some((call) => call.method === 'DELETE' && call.path === `${base}/rec1`)).toBe(true)
})

test('editing a schedule starts from the series’ own; an interval below 1 is refused before anything is sent', async () => {
	const { api, user } = setup([makeRecurrence()])
	const row = await screen.findByRole('row', { name: /Globex/ })
	await user.click(within(row).getByRole('button', { name: 'Edit the schedule of Globex' }))
	const dialog = await screen.findByRole('dialog')
	expect(within(dialog).getByLabelText(/Number of invoices/)).toHaveValue('2')
	const every = within(dialog).getByLabelText(/Every/)
	await user.clear(every)
	await user.type(every, '0')
	// Our own check first: nothing is sent for an interval below 1.
	await user.click(within(dialog).getByRole('button', { name: 'Save schedule' }))
	expect(await within(dialog).findByText('Use a whole number of at least 1.')).toBeInTheDocument()
	expect(api.calls.some((call) => call.method === 'PATCH')).toBe(false)
})

test('Make recurring from an invoice posts its schedule', async () => {
	const api = mockApi((call) =>
		call.path === base && call.method === 'POST'
			? json(makeRecurrence({ frequency: 'week', interval: 2 }), 201)
			: undefined,
	)
	const { user } = renderPage(() => <InvoiceActions invoice={makeInvoice()} />, '/', '/')
	await user.click(screen.getByRole('button', { name: /Make recurring/ }))
	const dialog = await screen.findByRole('dialog')
	const every = within(dialog).getByLabelText(/Every/)
	await user.clear(every)
	await user.type(every, '2')
	await user.selectOptions(within(dialog).getByLabelText('Period'), 'week')
	const first = within(dialog).getByLabelText(/First invoice on/)
	await user.clear(first)
	await user.type(first, '2027-01-04')
	await user.selectOptions(within(dialog).getByLabelText('Ends'), 'count')
	await user.type(within(dialog).getByLabelText(/Number of invoices/), '6')
	await user.selectOptions(within(dialog).getByLabelText('Each invoice'), 'send')
	await user.click(within(dialog).getByRole('button', { name: 'Make recurring' }))

	await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
	expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
		sourceId: 'inv1',
		frequency: 'week',
		interval: 2,
		startDate: '2027-01-04',
		endDate: null,
		count: 6,
		action: 'send',
	})
})

test('a refused start day is shown on the first day’s field', async () => {
	mockApi((call) =>
		call.path === base && call.method === 'POST'
			? problem(400, 'VALIDATION', 'Check the schedule.', [{ field: 'startDate', message: 'This day does not exist.' }])
			: undefined,
	)
	const { user } = renderPage(() => <InvoiceActions invoice={makeInvoice()} />, '/', '/')
	await user.click(screen.getByRole('button', { name: /Make recurring/ }))
	const dialog = await screen.findByRole('dialog')
	await user.click(within(dialog).getByRole('button', { name: 'Make recurring' }))
	expect(await within(dialog).findByText('This day does not exist.')).toBeInTheDocument()
	expect(within(dialog).getByLabelText(/First invoice on/)).toHaveAttribute('aria-invalid', 'true')
})

test('sending runs of an invoice whose client has no e-mail are warned about', async () => {
	mockApi(() => undefined)
	const invoice = makeInvoice({ client: { name: 'Globex', address: null, email: null, taxId: null } })
	const { user } = renderPage(() => <InvoiceActions invoice={invoice} />, '/', '/')
	await user.click(screen.getByRole('button', { name: /Make recurring/ }))
	const dialog = await screen.findByRole('dialog')
	expect(within(dialog).queryByText(/has no e-mail address/)).not.toBeInTheDocument()
	await user.selectOptions(within(dialog).getByLabelText('Each invoice'), 'send')
	expect(within(dialog).getByText(/has no e-mail address/)).toBeInTheDocument()
})
