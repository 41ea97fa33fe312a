import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { CreditNoteDialog } from './credit-note-dialog.tsx'
import { makeInvoice } from './invoice-actions.fixtures.ts'

afterEach(() => {
	vi.unstubAllGlobals()
})

const invoice = makeInvoice()
/** An earlier credit note took 4 of the 10 hours of design. */
const earlier = makeInvoice({
	id: 'cn1',
	kind: 'credit_note',
	number: 'CN-2026-0001',
	correctsId: 'inv1',
	lines: [{ ...(invoice.lines[0] as Invoice['lines'][number]), quantity: '-4', creditsLine: 0 }],
})

function setup(answer: (body: unknown) => Response) {
	const api = mockApi((call) => {
		if (call.path === '/dashboard/local_invoice/invoices' && call.method === 'GET') {
			// The server answers the credit notes of the invoice asked for, and only them.
			const notes = [earlier, makeInvoice({ id: 'other', kind: 'credit_note', correctsId: 'x' })]
			return json({
				invoices: notes.filter((note) => note.correctsId === call.search.get('correctsId')),
				totals: [],
				nextCursor: null,
			})
		}
		if (call.path === '/dashboard/local_invoice/invoices/inv1/credit_note') {
			return answer(call.body)
		}
		return undefined
	})
	const rendered = renderPage(() => <CreditNoteDialog invoice={invoice} />, '/', '/')
	return { api, ...rendered }
}

test('what is left of each line, some lines chosen, their total shown before confirming', async () => {
	const { api, user, queryClient } = setup(() => json(makeInvoice({ id: 'cn2', kind: 'credit_note' }), 201))
	const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
	await user.click(screen.getByRole('button', { name: /Credit note/ }))
	const dialog = await screen.findByRole('dialog')
	expect(await within(dialog).findByText('Left to credit: 6 h')).toBeInTheDocument()
	// Everything still open: 6 h × 100.00 + 50.00, plus 19 %.
	expect(within(dialog).getByText('€773.50')).toBeInTheDocument()

	await user.click(within(dialog).getByRole('radio', { name: 'Some lines' }))
	await user.click(within(dialog).getByRole('checkbox', { name: 'Credit Design' }))
	const quantity = within(dialog).getByRole('textbox', { name: 'Quantity to credit of Design' })
	await user.clear(quantity)
	await user.type(quantity, '2.5')
	// 2.5 × 100.00 = 250.00, plus 47.50 VAT.
	expect(within(dialog).getByText('€297.50')).toBeInTheDocument()
	await user.type(within(dialog).getByLabelText(/Reason/), 'Hours not worked')
	await user.click(within(dialog).getByRole('button', { name: 'Issue credit note' }))

	await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
	const post = api.calls.find((call) => call.method === 'POST')
	expect(post?.body).toEqual({ lines: [{ line: 0, quantity: '2.5' }], notes: 'Hours not worked' })
	expect(invalidate).toHaveBeenCalledWith({ queryKey: ['invoices'] })
	// The earlier credit notes were asked for by the invoice they correct.
	const read = api.calls.find((call) => call.path === '/dashboard/local_invoice/invoices' && call.method === 'GET')
	expect(Object.fromEntries(read?.search ?? [])).toMatchObject({ correctsId: 'inv1' })
})

test('everything still open sends no lines: the server credits what is left', async () => {
	const { api, user } = setup(() => json(makeInvoice({ id: 'cn2', kind: 'credit_note' }), 201))
	await user.click(screen.getByRole('button', { name: /Credit note/ }))
	await user.click(await screen.findByRole('button', { name: 'Issue credit note' }))
	await waitFor(() => expect(api.calls.some((call) => call.method === 'POST')).toBe(true))
	expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({ notes: null })
})

test('the server’s refusal of a quantity lands on that line’s field', async () => {
	const { user } = setup(() =>
		problem(400, 'VALIDATION', 'Check the credit note.', [
			{ field: 'lines.0.quantity', message: 'Credit more than 0 and at most what is left of the line (1).' },
		]),
	)
	await user.click(screen.getByRole('button', { name: /Credit note/ }))
	const dialog = await screen.findByRole('dialog')
	await user.click(await within(dialog).findByRole('radio', { name: 'Some lines' }))
	await user.click(within(dialog).getByRole('checkbox', { name: 'Credit Hosting' }))
	await user.click(within(dialog).getByRole('button', { name: 'Issue credit note' }))

	expect(
		await within(dialog).findByText('Credit more than 0 and at most what is left of the line (1).'),
	).toBeInTheDocument()
	expect(within(dialog).getByRole('textbox', { name: 'Quantity to credit of Hosting' })).toHaveAttribute(
		'aria-invalid',
		'true',
	)
})

test('a quantity that is not a number is refused before anything is sent', async () => {
	const { api, user } = setup(() => json({}, 201))
	await user.click(screen.getByRole('button', { name: /Credit note/ }))
	const dialog = await screen.findByRole('dialog')
	await user.click(await within(dialog).findByRole('radio', { name: 'Some lines' }))
	await user.click(within(dialog).getByRole('checkbox', { name: 'Credit Design' }))
	const quantity = within(dialog).getByRole('textbox', { name: 'Quantity to credit of Design' })
	await user.clear(quantity)
	await user.type(quantity, 'two')
	await user.click(within(dialog).getByRole('button', { name: 'Issue credit note' }))
	expect(await within(dialog).findByText('Enter a quantity above 0.')).toBeInTheDocument()
	expect(api.calls.some((call) => call.method === 'POST')).toBe(false)
})

test('more than is left of a line is refused before anything is sent', async () => {
	const { api, user } = setup(() => json({}, 201))
	await user.click(screen.getByRole('button', { name: /Credit note/ }))
	const dialog = await screen.findByRole('dialog')
	await user.click(await within(dialog).findByRole('radio', { name: 'Some lines' }))
	await user.click(within(dialog).getByRole('checkbox', { name: 'Credit Design' }))
	const quantity = within(dialog).getByRole('textbox', { name: 'Quantity to credit of Design' })
	await user.clear(quantity)
	await user.type(quantity, '6.5')
	await user.click(within(dialog).getByRole('button', { name: 'Issue credit note' }))
	expect(await within(dialog).findByText('Credit at most what is left of the line (6).')).toBeInTheDocument()
	expect(api.calls.some((call) => call.method === 'POST')).toBe(false)
})
