import type { PublicInvoice } from '@blocksmith/contracts/invoice-sending.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { stubMatchMedia } from '#src/test/match-media.ts'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { InvoicePublicPage } from './invoice-public-page.tsx'

const money = (minor: number, decimal: string) => ({ minor, decimal })

const invoice: PublicInvoice = {
	kind: 'invoice',
	number: 'INV-2026-0007',
	status: 'sent',
	isOverdue: false,
	currency: 'EUR',
	issueDate: '2026-03-01',
	dueDate: '2026-03-15',
	sender: {
		legalName: 'Acme GmbH',
		address: { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' },
		email: 'billing@acme.example',
		vatId: 'DE123456789',
	},
	client: { name: 'Northwind Ltd', address: null, taxId: null },
	lines: [
		{
			description: 'Design work',
			quantity: '2',
			unit: 'h',
			unitPrice: '500',
			tax: 'VAT 19 %',
			net: money(100000, '1000.00'),
		},
	],
	discounts: [],
	taxBreakdown: [{ categoryCode: 'S', rate: '19', taxable: money(100000, '1000.00'), tax: money(19000, '190.00') }],
	totals: {
		lines: money(100000, '1000.00'),
		net: money(100000, '1000.00'),
		tax: money(19000, '190.00'),
		total: money(119000, '1190.00'),
		paid: money(0, '0.00'),
		credited: money(0, '0.00'),
		due: money(119000, '1190.00'),
	},
	paidAt: null,
	notes: null,
	footer: 'Acme GmbH · Registered in Berlin',
	paymentTerms: 'Payable within 14 days, without deduction.',
	canPayOnline: true,
	accentColor: '#1f2937',
	locale: 'en-GB',
}

const paid: PublicInvoice = {
	...invoice,
	status: 'paid',
	paidAt: '2026-03-05',
	canPayOnline: false,
	totals: { ...invoice.totals, paid: money(119000, '1190.00'), due: money(0, '0.00') },
}

const assign = vi.fn<(url: string | URL) => void>()

beforeEach(() => {
	stubMatchMedia(false)
	assign.mockClear()
	vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
})
afterEach(() => {
	vi.restoreAllMocks()
	vi.unstubAllGlobals()
})

test('the invoice as its client sees it: sender, client, lines, totals, due date, PDF and a pay button', async () => {
	const api = mockApi(({ path, method }) => {
		if (path === '/api/invoices/tok1' && method === 'GET') {
			return json(invoice)
		}
		if (path === '/api/invoices/tok1/checkout' && method === 'POST') {
			return json({ url: 'https://checkout.stripe.test/c/cs_1' })
		}
		return undefined
	})
	const { user } = renderPage(InvoicePublicPage, '/i/:token', '/i/tok1')

	expect(await screen.findByRole('heading', { level: 1, name: 'Invoice INV-2026-0007' })).toBeInTheDocument()
	expect(screen.getByText(/Due 15 March 2026/)).toBeInTheDocument()
	expect(
		within(screen.getByRole('region', { name: 'From' })).getByText('DE123456789', { exact: false }),
	).toBeInTheDocument()
	expect(within(screen.getByRole('region', { name: 'Bill to' })).getByText('Northwind Ltd')).toBeInTheDocument()
	const lines = screen.getByRole('table', { name: 'Lines' })
	expect(within(lines).getByText('Design work')).toBeInTheDocument()
	expect(within(lines).getByText('€500.00')).toBeInTheDocument()
	// The phone's list of the same lines (the table is hidden below the sm breakpoint).
	expect(within(screen.getByRole('list', { name: 'Lines' })).getByText(/2 h × €500.00 · VAT 19 %/)).toBeInTheDocument()
	const totals = screen.getByLabelText('Totals')
	expect(totals).toHaveTextContent('VAT 19 % on €1,000.00€190.00')
	expect(totals).toHaveTextContent('Amount due€1,190.00')
	// No discount: the lines are the net, and nothing says otherwise.
	expect(totals).not.toHaveTextContent(/Subtotal|Discount/)
	expect(screen.getByRole('link', { name: 'Download PDF' })).toHaveAttribute('href', '/api/invoices/tok1/pdf')
	expect(screen.getByText('Open')).toBeInTheDocument()

	await user.click(screen.getByRole('button', { name: 'Pay €1,190.00' }))
	expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_1')
	// Nothing of the dashboard is asked for.
	expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
		'GET /api/invoices/tok1',
		'POST /api/invoices/tok1/checkout',
	])
})

test('discounts are shown between what the lines add up to and the net, so the figures add up', async () => {
	const discounted: PublicInvoice = {
		...invoice,
		lines: [
			{ ...(invoice.lines[0] as PublicInvoice['lines'][number]), net: money(120000, '1200.00') },
			{ ...(invoice.lines[0] as PublicInvoice['lines'][number]), description: 'Prints', net: money(20000, '200.00') },
		],
		discounts: [
			{ percent: '10', reason: 'Early booking', amount: money(14000, '140.00') },
			{ percent: null, reason: null, amount: money(6000, '60.00') },
		],
		totals: { ...invoice.totals, lines: money(140000, '1400.00'), net: money(120000, '1200.00') },
	}
	mockApi(({ path }) => (path === '/api/invoices/tok1' ? json(discounted) : undefined))
	renderPage(InvoicePublicPage, '/i/:token', '/i/tok1')

	const totals = await screen.findByLabelText('Totals')
	expect(totals).toHaveTextContent('Subtotal€1,400.00Discount 10 % (Early booking)−€140.00Discount−€60.00Net€1,200.00')
})

test('back from Checkout: the payment is confirmed with the server, then “Paid — thank you” and no pay button', async () => {
	const api = mockApi(({ path, method }) =>
		path === '/api/invoices/tok1/checkout/confirm' && method === 'POST' ? json(paid) : undefined,
	)
	const { router } = renderPage(InvoicePublicPage, '/i/:token', '/i/tok1?session_id=cs_test_1')

	expect(await screen.findByText('Paid — thank you')).toBeInTheDocument()
	expect(api.calls[0]?.body).toEqual({ sessionId: 'cs_test_1' })
	expect(screen.getByText('Paid', { selector: 'span' })).toBeInTheDocument()
	expect(screen.getByText(/This invoice is paid \(5 March 2026\)/)).toBeInTheDocument()
	expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument()
	await waitFor(() => expect(router.state.location.search).toBe(''))
	// Taking the session off the link does not load the page again.
	await new Promise((resolve) => setTimeout(resolve, 50))
	expect(screen.getByText('Paid — thank you')).toBeInTheDocument()
	expect(api.calls).toHaveLength(1)
})

test('a paid invoice opened again says so and offers no payment; a refused checkout is shown', async () => {
	mockApi(({ path }) => (path === '/api/invoices/tok2' ? json(paid) : undefined))
	renderPage(InvoicePublicPage, '/i/:token', '/i/tok2')
	expect(await screen.findByText(/This invoice is paid/)).toBeInTheDocument()
	expect(screen.queryByText('Paid — thank you')).not.toBeInTheDocument()
	expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument()
})

test('a checkout Stripe refuses is shown on the page', async () => {
	mockApi(({ path, method }) => {
		if (path === '/api/invoices/tok1' && method === 'GET') {
			return json(invoice)
		}
		return path === '/api/invoices/tok1/checkout'
			? problem(409, 'CONFLICT', 'This invoice cannot be paid online. Use the bank details on it.')
			: undefined
	})
	const { user } = renderPage(InvoicePublicPage, '/i/:token', '/i/tok1')
	await user.click(await screen.findByRole('button', { name: 'Pay €1,190.00' }))
	expect(await screen.findByText('The payment could not be started')).toBeInTheDocument()
	expect(screen.getByText(/Use the bank details/)).toBeInTheDocument()
	expect(assign).not.toHaveBeenCalled()
})

test('a void or unknown link says it does not work', async () => {
	mockApi(({ path }) => (path === '/api/invoices/old' ? problem(404, 'NOT_FOUND', 'Not found.') : undefined))
	renderPage(InvoicePublicPage, '/i/:token', '/i/old')
	expect(await screen.findByText('This invoice link does not work.')).toBeInTheDocument()
})
