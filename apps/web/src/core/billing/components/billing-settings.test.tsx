import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { teamKeys } from '#src/core/teams/api/teams.ts'
import { json, makeOrgDetails, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import { rememberBeforeStripe } from '../lib/stripe-return.ts'
import { actionResult, activeSubscription, makeOverview, makePlans, makeSubscription } from '../testing.tsx'
import { BillingSettings } from './billing-settings.tsx'

function renderBilling(path = '/settings?tab=billing') {
	return renderPage(BillingSettings, '/settings', path)
}

describe('Settings → Billing', () => {
	test('an owner on a trial sees the days left and the meters, and can end the trial after confirming', async () => {
		let overview = makeOverview({ subscription: makeSubscription({}, 5) })
		const api = mockApi(({ method, path }) => {
			if (path === '/api/plans') {
				return json(makePlans())
			}
			if (path === '/api/subscriptions') {
				return json(overview)
			}
			if (method === 'POST' && path === '/api/subscriptions/end_trial_and_bill') {
				overview = makeOverview({ subscription: activeSubscription() })
				return json(actionResult(overview.subscription, 'Your trial has ended and your subscription has started.'))
			}
			return undefined
		})
		const { user, queryClient } = renderBilling()
		// What the header's banner and the dashboard's gate read: it must be read again after the action.
		queryClient.setQueryData(teamKeys.orgDetails, makeOrgDetails('owner'))

		expect(await screen.findByRole('heading', { name: /Pro plan/ })).toBeInTheDocument()
		expect(screen.getByText('Trial — 5 days left')).toBeInTheDocument()
		// Each meter is a labelled bar with its figures; storage in bytes reads as GB.
		expect(screen.getByRole('progressbar', { name: 'Forms' })).toHaveAttribute('aria-valuetext', '40 of 50')
		expect(screen.getByRole('progressbar', { name: 'Forms' })).toHaveAttribute('data-tone', 'warning')
		expect(screen.getByRole('progressbar', { name: 'Team members' })).toHaveAttribute('data-tone', 'normal')
		const answers = screen.getByRole('progressbar', { name: 'Form answers per month' })
		expect(answers).toHaveAttribute('data-tone', 'full')
		expect(screen.getByRole('progressbar', { name: 'File storage' })).toHaveAttribute('aria-valuetext', '3 GB of 10 GB')
		expect(screen.getByText('3 · Unlimited')).toBeInTheDocument()
		expect(screen.queryByRole('progressbar', { name: 'Charts' })).toBeNull()
		expect(screen.getByText('Resets Dec 1, 2026')).toBeInTheDocument()
		// The local provider takes no payments: the empty invoice list says so.
		expect(screen.getByRole('heading', { name: 'No invoices yet' })).toBeInTheDocument()
		expect(screen.getByText(/operator handles billing/)).toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'End trial and start billing now' }))
		const confirm = await screen.findByRole('alertdialog', { name: 'End the trial and start billing now?' })
		expect(api.calls.some((call) => call.path === '/api/subscriptions/end_trial_and_bill')).toBe(false)
		await user.click(within(confirm).getByRole('button', { name: 'Start billing now' }))
		await waitFor(() =>
			expect(api.calls.filter((call) => call.path === '/api/subscriptions/end_trial_and_bill')).toHaveLength(1),
		)
		// The subscription and the organization's details are read again: the badge follows.
		expect(await screen.findByText('Active')).toBeInTheDocument()
		expect(queryClient.getQueryState(teamKeys.orgDetails)?.isInvalidated).toBe(true)
	})

	test('a subscription set to cancel shows when, and Don’t cancel undoes it through the provider', async () => {
		let overview = makeOverview({ subscription: activeSubscription({ cancelAtPeriodEnd: true }) })
		const api = mockApi(({ method, path }) => {
			if (path === '/api/plans') {
				return json(makePlans())
			}
			if (path === '/api/subscriptions') {
				return json(overview)
			}
			if (method === 'POST' && path === '/api/local/dont_cancel') {
				overview = makeOverview({ subscription: activeSubscription() })
				return json(actionResult(overview.subscription, 'Your subscription continues.'))
			}
			return undefined
		})
		const { user } = renderBilling()
		expect(await screen.findByText('Cancels on Dec 15, 2026')).toBeInTheDocument()
		// No second cancel while one is pending.
		expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull()
		await user.click(screen.getByRole('button', { name: "Don't cancel" }))
		await waitFor(() => expect(screen.queryByText('Cancels on Dec 15, 2026')).toBeNull())
		expect(api.calls.find((call) => call.path === '/api/local/dont_cancel')).toMatchObject({ method: 'POST', body: {} })
		expect(screen.getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument()
	})

	test('a refused plan change shows the server’s reason inside the dialog', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/api/plans') {
				return json(makePlans())
			}
			if (path === '/api/subscriptions') {
				return json(makeOverview({ subscription: activeSubscription() }))
			}
			if (method === 'POST' && path === '/api/local/update_plan') {
				return problem(409, 'SUBSCRIPTION_STATE', 'You use 40 forms; the Starter plan allows 5. Remove some first.')
			}
			return undefined
		})
		const { user } = renderBilling()
		await user.click(await screen.findByRole('button', { name: 'Change plan' }))
		const dialog = await screen.findByRole('dialog', { name: 'Change plan' })
		await user.click(within(dialog).getByRole('radio', { name: 'Starter' }))
		expect(within(dialog).getByText(/until the end of the period, on Dec 15, 2026/)).toBeInTheDocument()
		await user.click(within(dialog).getByRole('button', { name: 'Switch to Starter' }))
		expect(
			await within(dialog).findByText('You use 40 forms; the Starter plan allows 5. Remove some first.'),
		).toBeInTheDocument()
		expect(api.calls.find((call) => call.path === '/api/local/update_plan')?.body).toEqual({
			planId: 'starter',
			interval: 'month',
		})
		// Still open, for another choice.
		expect(screen.getByRole('dialog', { name: 'Change plan' })).toBeInTheDocument()
	})

	test('a link opens the change-plan dialog with its plan and interval preselected, an upgrade starting now', async () => {
		mockApi(({ path }) => {
			if (path === '/api/plans') {
				return json(makePlans())
			}
			if (path === '/api/subscriptions') {
				return json(makeOverview({ subscription: activeSubscription() }))
			}
			return undefined
		})
		renderBilling('/settings?tab=billing&dialog=change-plan&plan=business&interval=year')
		const dialog = await screen.findByRole('dialog', { name: 'Change plan' })
		expect(within(dialog).getByRole('radio', { name: 'Business' })).toBeChecked()
		await waitFor(() => expect(within(dialog).getByRole('radio', { name: 'Business' })).toHaveFocus())
		expect(within(dialog).getByRole('radio', { name: 'Yearly save up to 17%' })).toBeChecked()
		expect(within(dialog).getByText(/starts now, prorated/)).toBeInTheDocument()
		expect(within(dialog).getByRole('button', { name: 'Upgrade to Business' })).toBeEnabled()
	})

	test('a member sees billing read-only', async () => {
		mockApi(
			({ path }) => {
				if (path === '/api/plans') {
					return json(makePlans())
				}
				if (path === '/api/subscriptions') {
					return json(makeOverview({ subscription: activeSubscription({ cancelAtPeriodEnd: true }), canManage: false }))
				}
				return undefined
			},
			{ role: 'member' },
		)
		renderBilling('/settings?tab=billing&dialog=change-plan')
		expect(await screen.findByText('Only owners and admins can change billing.')).toBeInTheDocument()
		expect(screen.getByText('Cancels on Dec 15, 2026')).toBeInTheDocument()
		for (const name of [
			'Change plan',
			"Don't cancel",
			'Cancel subscription',
			'Pause',
			'Update payment details',
			'End trial and start billing now',
		]) {
			expect(screen.queryByRole('button', { name })).toBeNull()
		}
		expect(screen.queryByRole('dialog')).toBeNull()
	})

	test('back from Stripe’s Checkout, the page reads the subscription again until Stripe’s events have arrived', async () => {
		let reads = 0
		mockApi(({ path }) => {
			if (path === '/api/plans') {
				return json(makePlans({ provider: 'stripe' }))
			}
			if (path === '/api/subscriptions') {
				reads += 1
				// Stripe's events arrive while the page is open: the third read has them.
				const subscription =
					reads < 3 ? makeSubscription({ provider: 'stripe' }, 5) : activeSubscription({ provider: 'stripe' })
				return json(makeOverview({ subscription }))
			}
			return undefined
		})
		const { router } = renderBilling('/settings?tab=billing&checkout=done')
		expect(await screen.findByText('Trial — 5 days left')).toBeInTheDocument()
		expect(screen.getByText('Waiting for Stripe to confirm')).toBeInTheDocument()
		await waitFor(() => expect(reads).toBeGreaterThanOrEqual(3), { timeout: 8000 })
		expect(await screen.findByText('Active')).toBeInTheDocument()
		// One more read finds it unchanged: done, no more reads, and the marker is gone so a reload
		// does not wait again.
		await waitFor(() => expect(router.state.location.search).toBe('?tab=billing'), { timeout: 5000 })
		expect(screen.queryByText(/Waiting for Stripe to confirm/)).toBeNull()
		expect(reads).toBe(4)
		await new Promise((resolve) => setTimeout(resolve, 2500))
		expect(reads).toBe(4)
	}, 20_000)

	test('back from Stripe’s portal after its events arrived, the page stops waiting after one more read', async () => {
		const before = makeOverview({ subscription: activeSubscription({ provider: 'stripe' }) })
		// As the Billing page left it for Stripe: the card was 4242.
		rememberBeforeStripe(before)
		let reads = 0
		mockApi(({ path }) => {
			if (path === '/api/plans') {
				return json(makePlans({ provider: 'stripe' }))
			}
			if (path === '/api/subscriptions') {
				reads += 1
				return json({
					...before,
					subscription: { ...before.subscription, paymentMethod: { label: 'Visa •••• 0002' } },
				})
			}
			return undefined
		})
		const { router } = renderBilling('/settings?tab=billing&portal=done')
		expect(await screen.findByText(/Visa •••• 0002/)).toBeInTheDocument()
		await waitFor(() => expect(router.state.location.search).toBe('?tab=billing'), { timeout: 5000 })
		expect(reads).toBe(2)
		expect(screen.queryByText(/Waiting for Stripe to confirm/)).toBeNull()
	}, 10_000)

	test('invoices list with their amounts and a link to the provider’s page', async () => {
		mockApi(({ path }) => {
			if (path === '/api/plans') {
				return json(makePlans({ provider: 'stripe' }))
			}
			if (path === '/api/subscriptions') {
				return json(
					makeOverview({
						subscription: activeSubscription({ provider: 'stripe' }),
						invoices: [
							{
								id: 'in_1',
								number: 'BS-0001',
								status: 'paid',
								amount: 2900,
								currency: 'USD',
								createdAt: '2026-11-15T12:00:00.000Z',
								url: 'https://invoice.stripe.test/in_1',
							},
						],
					}),
				)
			}
			return undefined
		})
		renderBilling()
		const table = await screen.findByRole('table', { name: 'Invoices' })
		const row = within(table).getAllByRole('row')[1] as HTMLElement
		expect(within(row).getByText('BS-0001')).toBeInTheDocument()
		expect(within(row).getByText('$29.00')).toBeInTheDocument()
		expect(within(row).getByText('Paid')).toBeInTheDocument()
		const link = within(row).getByRole('link', { name: /View invoice BS-0001/ })
		expect(link).toHaveAttribute('href', 'https://invoice.stripe.test/in_1')
		expect(link).toHaveAttribute('target', '_blank')
	})
	test('pausing asks for an optional day to resume on and sends it', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/api/plans') {
				return json(makePlans())
			}
			if (path === '/api/subscriptions') {
				return json(makeOverview({ subscription: activeSubscription() }))
			}
			if (method === 'POST' && path === '/api/subscriptions/pause_subscription') {
				return json(actionResult(activeSubscription({ status: 'paused', pauseReason: 'requested' }), 'Paused.'))
			}
			return undefined
		})
		const { user } = renderBilling()
		await user.click(await screen.findByRole('button', { name: 'Pause' }))
		const dialog = await screen.findByRole('dialog', { name: 'Pause the subscription' })
		const date = within(dialog).getByLabelText('Resume on (optional)')
		await user.type(date, '2099-03-01')
		await user.click(within(dialog).getByRole('button', { name: /^Pause until/ }))
		await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
		expect(api.calls.find((call) => call.path === '/api/subscriptions/pause_subscription')?.body).toEqual({
			resumesAt: new Date('2099-03-01T00:00:00').toISOString(),
		})
	})

	test('canceling says until when everything works, and asks first', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/api/plans') {
				return json(makePlans())
			}
			if (path === '/api/subscriptions') {
				return json(makeOverview({ subscription: activeSubscription() }))
			}
			if (method === 'POST' && path === '/api/subscriptions/cancel_subscription') {
				return json(actionResult(activeSubscription({ cancelAtPeriodEnd: true }), 'Ends on December 15, 2026.'))
			}
			return undefined
		})
		const { user } = renderBilling()
		await user.click(await screen.findByRole('button', { name: 'Cancel subscription' }))
		const confirm = await screen.findByRole('alertdialog', { name: 'Cancel the subscription?' })
		expect(within(confirm).getByText(/keeps working until Dec 15, 2026/)).toBeInTheDocument()
		expect(within(confirm).getByText(/Nothing is deleted/)).toBeInTheDocument()
		await user.click(within(confirm).getByRole('button', { name: 'Cancel subscription' }))
		await waitFor(() =>
			expect(api.calls.filter((call) => call.path === '/api/subscriptions/cancel_subscription')).toHaveLength(1),
		)
	})

	test('with Stripe, updating the payment details goes to Stripe’s page', async () => {
		const assign = vi.fn()
		vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
		mockApi(({ method, path }) => {
			if (path === '/api/plans') {
				return json(makePlans({ provider: 'stripe' }))
			}
			if (path === '/api/subscriptions') {
				return json(makeOverview({ subscription: activeSubscription({ provider: 'stripe', status: 'past_due' }) }))
			}
			if (method === 'POST' && path === '/api/subscriptions/update_payment_details') {
				return json({
					subscription: activeSubscription({ provider: 'stripe', status: 'past_due' }),
					redirectUrl: 'https://billing.stripe.test/p/session',
					message: 'Continue on Stripe.',
				})
			}
			return undefined
		})
		const { user } = renderBilling()
		expect(await screen.findByText('A payment failed')).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Update payment details' }))
		await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/session'))
	})
})
