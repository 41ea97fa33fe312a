import type { Invoice, Payment } from '@blocksmith/contracts/invoice-documents.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { toast } from 'sonner'
import { afterEach, expect, test, vi } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { makeInvoice } from './invoice-actions.fixtures.ts'
import { InvoiceActions } from './invoice-actions.tsx'

afterEach(() => {
	vi.unstubAllGlobals()
})

const base = '/dashboard/local_invoice/invoices/inv1'

function setup(invoice: Invoice, handler: Parameters<typeof mockApi>[0] = () => undefined) {
	const api = mockApi(handler)
	const rendered = renderPage(() => <InvoiceActions invoice={invoice} />, '/', '/')
	const invalidate = vi.spyOn(rendered.queryClient, 'invalidateQueries')
	return { api, invalidate, ...rendered }
}

const payment: Payment = {
	id: 'pay1',
	invoiceId: 'inv1',
	date: '2026-11-25',
	amount: { minor: 50_000, decimal: '500.00' },
	method: 'bank_transfer',
	note: 'First half',
	createdAt: '2026-11-25T10:00:00.000Z',
}

test('a draft has no actions here; a void invoice only downloads', () => {
	mockApi(() => undefined)
	const { unmount } = renderPage(() => <InvoiceActions invoice={makeInvoice({ status: 'draft' })} />, '/', '/')
	expect(screen.queryByRole('region', { name: 'Invoice actions' })).not.toBeInTheDocument()
	unmount()
	renderPage(() => <InvoiceActions invoice={makeInvoice({ status: 'void' })} />, '/', '/')
	expect(screen.getByRole('button', { name: /Download/ })).toBeInTheDocument()
	expect(screen.queryByRole('button', { name: /Record payment/ })).not.toBeInTheDocument()
	expect(screen.queryByRole('button', { name: /Void/ })).not.toBeInTheDocument()
})

test('a payment is prefilled with what is due, recorded, and the invoices are read again', async () => {
	const { api, user, invalidate } = setup(makeInvoice({ due: { minor: 74_950, decimal: '749.50' } }), (call) => {
		if (call.path === `${base}/payments` && call.method === 'GET') {
			return json([payment])
		}
		if (call.path === `${base}/payments` && call.method === 'POST') {
			return json({ ...payment, id: 'pay2', amount: { minor: 74_950, decimal: '749.50' } }, 201)
		}
		return undefined
	})
	await user.click(screen.getByRole('button', { name: /Record payment/ }))
	const dialog = await screen.findByRole('dialog')
	// The payments so far, each with its delete button.
	expect(
		await within(dialog).findByRole('button', { name: 'Delete the payment of €500.00 on 2026-11-25' }),
	).toBeInTheDocument()
	expect(within(dialog).getByLabelText(/Amount \(EUR\)/)).toHaveValue('749.50')

	await user.selectOptions(within(dialog).getByLabelText('Method'), 'cash')
	await user.type(within(dialog).getByLabelText('Note'), 'At the door')
	await user.click(within(dialog).getByRole('button', { name: 'Record payment' }))

	await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
	const post = api.calls.find((call) => call.method === 'POST')
	expect(post?.body).toMatchObject({ amount: '749.50', method: 'cash', note: 'At the door' })
	expect(post?.body).toHaveProperty('date', expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/))
	expect(invalidate).toHaveBeenCalledWith({ queryKey: ['invoices'] })
})

test('a 400 on the amount is shown on the amount field and the dialog stays open', async () => {
	const { user } = setup(makeInvoice(), (call) => {
		if (call.path === `${base}/payments` && call.method === 'GET') {
			return json([])
		}
		if (call.path === `${base}/payments` && call.method === 'POST') {
			return problem(400, 'VALIDATION', 'Check the payment.', [
				{ field: 'amount', message: 'Record at most what is left to pay (1249.50).' },
			])
		}
		return undefined
	})
	await user.click(screen.getByRole('button', { name: /Record payment/ }))
	const dialog = await screen.findByRole('dialog')
	expect(await within(dialog).findByText('No payment recorded yet.')).toBeInTheDocument()
	const amount = within(dialog).getByLabelText(/Amount \(EUR\)/)
	await user.clear(amount)
	await user.type(amount, '2000')
	await user.click(within(dialog).getByRole('button', { name: 'Record payment' }))

	expect(await within(dialog).findByText('Record at most what is left to pay (1249.50).')).toBeInTheDocument()
	expect(amount).toHaveAttribute('aria-invalid', 'true')
})

test('an amount the currency cannot hold is refused before anything is sent (JPY has no decimals)', async () => {
	const { api, user } = setup(
		makeInvoice({ currency: 'JPY', due: { minor: 1200, decimal: '1200' }, total: { minor: 1200, decimal: '1200' } }),
		(call) => (call.path === `${base}/payments` && call.method === 'GET' ? json([]) : undefined),
	)
	await user.click(screen.getByRole('button', { name: /Record payment/ }))
	const dialog = await screen.findByRole('dialog')
	const amount = within(dialog).getByLabelText(/Amount \(JPY\)/)
	expect(amount).toHaveValue('1200')
	await user.clear(amount)
	await user.type(amount, '12.5')
	await user.click(within(dialog).getByRole('button', { name: 'Record payment' }))
	expect(await within(dialog).findByText('JPY amounts have no decimals.')).toBeInTheDocument()
	expect(api.calls.some((call) => call.method === 'POST')).toBe(false)
})

test('a payment is deleted from the list after confirming', async () => {
	const { api, user } = setup(makeInvoice(), (call) => {
		if (call.path === `${base}/payments` && call.method === 'GET') {
			return json([payment])
		}
		if (call.path === `${base}/payments/pay1` && call.method === 'DELETE') {
			return json({ success: true })
		}
		return undefined
	})
	await user.click(screen.getByRole('button', { name: /Record payment/ }))
	await user.click(await screen.findByRole('button', { name: /Delete the payment of €500.00/ }))
	expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false)
	await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete payment' }))
	await waitFor(() => expect(api.calls.some((call) => call.method === 'DELETE')).toBe(true))
})

test('void asks first, then shows the server’s refusal in the dialog', async () => {
	const { api, user } = setup(makeInvoice(), (call) => {
		if (call.path === `${base}/void`) {
			return problem(409, 'CONFLICT', 'This invoice has payments: delete them or issue a credit note.')
		}
		return undefined
	})
	await user.click(screen.getByRole('button', { name: /Void/ }))
	const dialog = await screen.findByRole('alertdialog')
	expect(api.calls.some((call) => call.path.endsWith('/void'))).toBe(false)
	await user.click(within(dialog).getByRole('button', { name: 'Void invoice' }))
	expect(
		await within(dialog).findByText('This invoice has payments: delete them or issue a credit note.'),
	).toBeInTheDocument()
	expect(screen.getByRole('alertdialog')).toBeInTheDocument()
})

test('mark as sent is offered only to a finalized invoice and posts once', async () => {
	const { api, user, invalidate } = setup(makeInvoice({ status: 'finalized', sentAt: null }), (call) =>
		call.path === `${base}/mark_sent` ? json(makeInvoice()) : undefined,
	)
	await user.click(screen.getByRole('button', { name: /Mark as sent/ }))
	await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['invoices'] }))
	expect(api.calls.filter((call) => call.path === `${base}/mark_sent`)).toHaveLength(1)
})

test('the PDF downloads with the bearer token under the invoice’s number', async () => {
	const createObjectURL = vi.fn((_blob: Blob) => 'blob:pdf')
	vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }))
	const { api, user } = setup(makeInvoice(), (call) =>
		call.path === `${base}/pdf`
			? new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } })
			: undefined,
	)
	const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
		expect(this.download).toBe('INV-2026-0007.pdf')
	})
	await user.click(screen.getByRole('button', { name: /Download/ }))
	await user.click(await screen.findByRole('menuitem', { name: 'PDF' }))
	await waitFor(() => expect(click).toHaveBeenCalled())
	expect(api.calls.some((call) => call.path === `${base}/pdf`)).toBe(true)
	click.mockRestore()
})

test('an e-invoice downloads from the einvoice path in the chosen format', async () => {
	const createObjectURL = vi.fn((_blob: Blob) => 'blob:xml')
	vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }))
	const { api, user } = setup(makeInvoice(), (call) =>
		call.path === `${base}/einvoice`
			? new Response('<Invoice/>', { headers: { 'content-type': 'application/xml' } })
			: undefined,
	)
	const names: string[] = []
	const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
		names.push(this.download)
	})
	await user.click(screen.getByRole('button', { name: /Download/ }))
	await user.click(await screen.findByRole('menuitem', { name: 'UBL 2.1 (Peppol) XML' }))
	await waitFor(() => expect(names).toEqual(['INV-2026-0007-ubl.xml']))
	expect(api.calls.find((call) => call.path === `${base}/einvoice`)?.search.get('format')).toBe('ubl')
	click.mockRestore()
})

test('a refused download says the server’s reason', async () => {
	const { user } = setup(makeInvoice(), (call) =>
		call.path === `${base}/einvoice`
			? problem(400, 'VALIDATION', 'The seller has no VAT identifier (BR-CO-26).')
			: undefined,
	)
	await user.click(screen.getByRole('button', { name: /Download/ }))
	const toastError = vi.spyOn(toast, 'error')
	await user.click(await screen.findByRole('menuitem', { name: 'CII XML' }))
	await waitFor(() => expect(toastError).toHaveBeenCalledWith('The seller has no VAT identifier (BR-CO-26).'))
	toastError.mockRestore()
})

test('the public link is copied as origin/i/token', async () => {
	const writeText = vi.fn(async (_text: string) => {})
	const { user } = setup(makeInvoice())
	Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
	await user.click(screen.getByRole('button', { name: /Copy public link/ }))
	await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/i/tok_abc`))
})
