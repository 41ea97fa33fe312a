import type { InvoiceEvent } from '@blocksmith/contracts/invoice-sending.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { json, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { makeProfile } from '../lib/testing.ts'
import { makeInvoice } from './invoice-actions.fixtures.ts'
import { InvoiceActions } from './invoice-actions.tsx'

afterEach(() => {
	vi.unstubAllGlobals()
})

const base = '/dashboard/local_invoice/invoices/inv1'
const profile = makeProfile({
	emailMessage: { subject: 'Invoice {number} from {company}', body: 'Hello {client}, see {link}.' },
})

function setup(send: (body: unknown) => Response, events: InvoiceEvent[] = []) {
	const api = mockApi((call) => {
		if (call.path === '/dashboard/local_invoice/settings') {
			return json([profile])
		}
		if (call.path === `${base}/send`) {
			return send(call.body)
		}
		if (call.path === `${base}/events`) {
			return json(events)
		}
		return undefined
	})
	const rendered = renderPage(
		() => <InvoiceActions invoice={makeInvoice({ status: 'finalized', sentAt: null })} />,
		'/',
		'/',
	)
	return { api, ...rendered }
}

test('the message starts as the client’s address and the profile’s text; sending posts it', async () => {
	const { api, user, queryClient } = setup(() => json(makeInvoice()))
	const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
	await user.click(screen.getByRole('button', { name: 'Send' }))
	const dialog = await screen.findByRole('dialog')
	expect(await within(dialog).findByLabelText(/^To/)).toHaveValue('ap@globex.test')
	expect(within(dialog).getByLabelText('Subject')).toHaveValue('Invoice {number} from {company}')
	expect(within(dialog).getByLabelText('Message')).toHaveValue('Hello {client}, see {link}.')

	await user.type(within(dialog).getByLabelText('Cc'), 'boss@globex.test, me@acme.test')
	await user.click(within(dialog).getByRole('button', { name: 'Send' }))

	await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
	expect(api.calls.find((call) => call.path === `${base}/send`)?.body).toEqual({
		to: ['ap@globex.test'],
		cc: ['boss@globex.test', 'me@acme.test'],
		subject: 'Invoice {number} from {company}',
		message: 'Hello {client}, see {link}.',
	})
	expect(invalidate).toHaveBeenCalledWith({ queryKey: ['invoices'] })
})

test('a refused address is shown on its field', async () => {
	const { user } = setup(() =>
		problem(400, 'VALIDATION', 'Check the message.', [{ field: 'to.0', message: 'Use an e-mail address.' }]),
	)
	await user.click(screen.getByRole('button', { name: 'Send' }))
	const dialog = await screen.findByRole('dialog')
	const to = await within(dialog).findByLabelText(/^To/)
	await user.clear(to)
	await user.type(to, 'ap@globex.invalid')
	await user.click(within(dialog).getByRole('button', { name: 'Send' }))
	expect(await within(dialog).findByText('Use an e-mail address.')).toBeInTheDocument()
	expect(to).toHaveAttribute('aria-invalid', 'true')
})

test('without an address nothing is sent', async () => {
	const { api, user } = setup(() => json(makeInvoice()))
	await user.click(screen.getByRole('button', { name: 'Send' }))
	const dialog = await screen.findByRole('dialog')
	await user.clear(await within(dialog).findByLabelText(/^To/))
	await user.click(within(dialog).getByRole('button', { name: 'Send' }))
	expect(await within(dialog).findByText('Enter the client’s e-mail address.')).toBeInTheDocument()
	expect(api.calls.some((call) => call.path === `${base}/send`)).toBe(false)
})

test('the history says what happened, in words', async () => {
	const event = (id: string, kind: string, detail: Record<string, unknown>, actorName: string | null = 'Ada') => ({
		id,
		kind,
		at: '2026-11-20T10:00:00.000Z',
		actorName,
		detail,
	})
	const { user } = setup(
		() => json(makeInvoice()),
		[
			event('e5', 'payment', { amount: '500.00', method: 'bank_transfer', date: '2026-11-25' }),
			event('e4', 'viewed', {}, null),
			event('e3', 'sent', { by: 'email', to: ['ap@globex.test'], cc: ['boss@globex.test'] }),
			event('e2', 'finalized', { number: 'INV-2026-0007' }),
			event('e1', 'created', {}),
		],
	)
	await user.click(screen.getByRole('button', { name: /History/ }))
	const list = await screen.findByRole('list', { name: 'History' })
	const items = within(list)
		.getAllByRole('listitem')
		.map((item) => item.querySelector('p')?.textContent)
	expect(items).toEqual([
		'Paid €500.00 by bank transfer on 2026-11-25',
		'Viewed by the client',
		'Sent to ap@globex.test (cc boss@globex.test)',
		'Finalized as INV-2026-0007',
		'Created as a draft',
	])
})
