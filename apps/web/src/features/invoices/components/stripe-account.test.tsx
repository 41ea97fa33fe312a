import type { StripeAccount } from '@blocksmith/contracts/invoice-sending.ts'
import { screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi, problem } from '#src/test/mock-api.tsx'
import { makeProfile } from '../lib/testing.ts'
import { InvoiceSettingsPage } from '../routes/invoice-settings-page.tsx'

const routes = [{ path: '/invoices/settings', Component: InvoiceSettingsPage }]
const settingsPath = '/dashboard/local_invoice/settings'
const stripePath = `${settingsPath}/prof1/stripe`

const disconnected: StripeAccount = {
	isConnected: false,
	accountId: null,
	accountName: null,
	isLive: false,
	connectedAt: null,
}
const connected: StripeAccount = {
	isConnected: true,
	accountId: 'acct_1',
	accountName: 'Acme Payments',
	isLive: true,
	connectedAt: '2026-11-26T10:00:00.000Z',
}

function withStripe(
	account: StripeAccount,
	{ role, onPut }: { role?: 'owner' | 'member'; onPut?: () => Response } = {},
) {
	return mockApi(
		(call) => {
			if (call.path === settingsPath && call.method === 'GET') {
				return json([makeProfile()])
			}
			if (call.path === '/dashboard/local_invoice/templates/get_template') {
				return new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } })
			}
			if (call.path === stripePath) {
				if (call.method === 'GET') {
					return json(account)
				}
				if (call.method === 'PUT') {
					return onPut ? onPut() : json(connected)
				}
				if (call.method === 'DELETE') {
					return json(disconnected)
				}
			}
			return undefined
		},
		role ? { role } : {},
	)
}

const section = async () =>
	(await screen.findByRole('heading', { name: 'Online payments' })).closest('[aria-labelledby]') as HTMLElement

describe('the profile’s Stripe account', () => {
	beforeEach(() => {
		vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:preview')
		vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined)
	})

	test('an owner connects it with a secret key; a wrong key is shown on the field', async () => {
		let attempts = 0
		const { calls } = withStripe(disconnected, {
			onPut: () => {
				attempts += 1
				return attempts === 1
					? problem(400, 'VALIDATION_FAILED', 'Stripe does not accept this key.', [
							{ field: 'secretKey', message: 'Stripe does not accept this key. Copy the secret key again.' },
						])
					: json(connected)
			},
		})
		const { user } = renderApp(routes, '/invoices/settings')
		const card = await section()
		const key = await within(card).findByLabelText(/Stripe secret key/)
		await user.click(within(card).getByRole('button', { name: 'Connect Stripe' }))
		expect(within(card).getByText('Paste the secret key from your Stripe dashboard.')).toBeInTheDocument()
		expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(0)

		await user.type(key, 'sk_test_wrong1234')
		await user.click(within(card).getByRole('button', { name: 'Connect Stripe' }))
		expect(await within(card).findByText(/Copy the secret key again/)).toBeInTheDocument()
		expect(key).toHaveAttribute('aria-invalid', 'true')

		await user.clear(key)
		await user.type(key, 'sk_live_right1234')
		await user.click(within(card).getByRole('button', { name: 'Connect Stripe' }))
		expect(await within(card).findByText('Acme Payments')).toBeInTheDocument()
		expect(within(card).getByText('Live')).toBeInTheDocument()
		expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
			{ secretKey: 'sk_test_wrong1234' },
			{ secretKey: 'sk_live_right1234' },
		])
	})

	test('an owner disconnects it after confirming', async () => {
		const { calls } = withStripe(connected)
		const { user } = renderApp(routes, '/invoices/settings')
		const card = await section()
		expect(await within(card).findByText('Acme Payments')).toBeInTheDocument()
		await user.click(within(card).getByRole('button', { name: 'Disconnect' }))
		await user.click(await screen.findByRole('button', { name: 'Disconnect' }))
		expect(await within(card).findByRole('button', { name: 'Connect Stripe' })).toBeInTheDocument()
		expect(calls.some((call) => call.method === 'DELETE' && call.path === stripePath)).toBe(true)
	})

	test('a member sees whether it is connected and cannot change it', async () => {
		withStripe(disconnected, { role: 'member' })
		renderApp(routes, '/invoices/settings')
		const card = await section()
		expect(await within(card).findByText(/Not connected/)).toBeInTheDocument()
		expect(within(card).queryByRole('button', { name: 'Connect Stripe' })).not.toBeInTheDocument()
	})
})
