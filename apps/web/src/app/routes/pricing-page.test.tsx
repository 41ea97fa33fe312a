import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { makePlans, renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi } from '#src/test/mock-api.tsx'
import { PricingPage } from './pricing-page.tsx'

const routes = [{ path: '/pricing', Component: PricingPage }]

function planCard(name: string): HTMLElement {
	return screen.getByRole('listitem', { name })
}

describe('the pricing page', () => {
	test('compares the plans, and the yearly switch shows the price per month and the saving', async () => {
		mockApi(({ path }) => (path === '/api/plans' ? json(makePlans()) : undefined))
		const { user } = renderApp(routes, '/pricing', { user: null })
		expect(await screen.findByText('14-day free trial, no card needed.')).toBeInTheDocument()
		const pro = planCard('Pro')
		expect(within(pro).getByText('Most popular')).toBeInTheDocument()
		expect(within(planCard('Starter')).queryByText('Most popular')).toBeNull()
		expect(within(pro).getByText('$29')).toBeInTheDocument()
		expect(within(pro).getByText('Billed monthly')).toBeInTheDocument()

		await user.click(screen.getByRole('radio', { name: 'Yearly save up to 17%' }))
		expect(within(pro).getByText('$24.17')).toBeInTheDocument()
		expect(within(pro).getByText('Billed $290 yearly')).toBeInTheDocument()
		expect(within(pro).getByText('Save 17%')).toBeInTheDocument()
		expect(within(planCard('Starter')).getByText('$10')).toBeInTheDocument()

		const table = screen.getByRole('table', { name: 'Compare the plans' })
		const row = (name: string) => within(table).getByRole('rowheader', { name }).closest('tr') as HTMLElement
		expect(
			within(row('Forms'))
				.getAllByRole('cell')
				.map((cell) => cell.textContent),
		).toEqual(['5', '50', 'Unlimited'])
		expect(
			within(row('File storage'))
				.getAllByRole('cell')
				.map((cell) => cell.textContent),
		).toEqual(['1 GB', '10 GB', '100 GB'])
		expect(
			within(row('Custom CSS'))
				.getAllByRole('cell')
				.map((cell) => cell.textContent),
		).toEqual(['Not included', 'Included', 'Included'])
	})

	test('promises no trial when the installation gives none', async () => {
		mockApi(({ path }) => (path === '/api/plans' ? json(makePlans({ trialDays: 0 })) : undefined))
		renderApp(routes, '/pricing', { user: null })
		expect(await screen.findByRole('listitem', { name: 'Pro' })).toBeInTheDocument()
		expect(screen.queryByText(/free trial/)).toBeNull()
		expect(screen.queryByText(/days free/)).toBeNull()
	})

	test('signed out, a plan asks for a name and work e-mail, then says to check the e-mail', async () => {
		const api = mockApi(({ method, path }) => {
			if (path === '/api/plans') {
				return json(makePlans())
			}
			if (method === 'POST' && path === '/api/subscriptions/create_subs_without_login') {
				return json({ redirectUrl: null, message: 'Check your e-mail to confirm your address and set a password.' })
			}
			return undefined
		})
		const { user } = renderApp(routes, '/pricing', { user: null })
		await user.click(await screen.findByRole('radio', { name: /Yearly/ }))
		await user.click(screen.getByRole('button', { name: 'Choose Pro' }))
		const dialog = await screen.findByRole('dialog', { name: 'Start with Pro' })
		await user.click(within(dialog).getByRole('button', { name: 'Continue' }))
		expect(await within(dialog).findByText('Tell us your name.')).toBeInTheDocument()
		expect(api.calls.some((call) => call.method === 'POST')).toBe(false)

		await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Grace Hopper')
		await user.type(within(dialog).getByRole('textbox', { name: 'Work e-mail' }), 'grace@acme.test')
		await user.click(within(dialog).getByRole('button', { name: 'Continue' }))
		expect(
			await within(dialog).findByText('Check your e-mail to confirm your address and set a password.'),
		).toBeInTheDocument()
		// No organization name given: none is sent, the server names it.
		expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
			planId: 'pro',
			interval: 'year',
			name: 'Grace Hopper',
			email: 'grace@acme.test',
		})
	})

	test('signed out with Stripe, the form leads to Checkout', async () => {
		const assign = vi.fn()
		vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
		const api = mockApi(({ method, path }) => {
			if (path === '/api/plans') {
				return json(makePlans({ provider: 'stripe' }))
			}
			if (method === 'POST' && path === '/api/subscriptions/create_subs_without_login') {
				return json({ redirectUrl: 'https://checkout.stripe.test/c/1', message: 'Continue on Stripe.' })
			}
			return undefined
		})
		const { user } = renderApp(routes, '/pricing', { user: null })
		await user.click(await screen.findByRole('button', { name: 'Choose Business' }))
		const dialog = await screen.findByRole('dialog', { name: 'Start with Business' })
		await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Grace Hopper')
		await user.type(within(dialog).getByRole('textbox', { name: 'Work e-mail' }), 'grace@acme.test')
		await user.type(within(dialog).getByRole('textbox', { name: 'Organization name (optional)' }), 'Acme')
		await user.click(within(dialog).getByRole('button', { name: 'Continue' }))
		await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/1'))
		expect(api.calls.find((call) => call.method === 'POST')?.body).toMatchObject({
			planId: 'business',
			interval: 'month',
			organizationName: 'Acme',
		})
	})

	test('signed in, a plan leads to Settings → Billing with it preselected', async () => {
		mockApi(({ path }) => (path === '/api/plans' ? json(makePlans()) : undefined))
		const { user, router } = renderApp(routes, '/pricing')
		await user.click(await screen.findByRole('radio', { name: /Yearly/ }))
		await user.click(screen.getByRole('button', { name: 'Choose Business' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/settings'))
		expect(router.state.location.search).toBe('?tab=billing&dialog=change-plan&plan=business&interval=year')
		expect(screen.queryByRole('dialog')).toBeNull()
	})
})
