import { useMutation } from '@tanstack/react-query'
import { screen, waitFor } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { teamKeys } from '#src/core/teams/api/teams.ts'
import { api } from '#src/lib/api-client.ts'
import { json, mockApi } from '#src/test/mock-api.tsx'
import { AppLayout } from './app-layout.tsx'

// The dashboard's shell and billing: the gate of an inactive organization, the trial's banner,
// and a plan's limit met on any screen.

function Page({ name }: { name: string }) {
	return <h1>{name}</h1>
}

/** A screen that makes something, as the forms or charts pages do. */
function MakerPage() {
	const make = useMutation({ mutationFn: () => api('/dashboard/forms', { json: { name: 'One more' } }) })
	return (
		<button type="button" onClick={() => make.mutate()}>
			Make a form
		</button>
	)
}

const routes = [
	{
		Component: AppLayout,
		children: [
			{ path: '/', element: <Page name="Home" /> },
			{ path: '/forms', element: <MakerPage /> },
			{ path: '/settings', element: <Page name="Settings" /> },
		],
	},
	{ path: '/paused', element: <Page name="Paused page" /> },
]

function renderShell(path: string) {
	return renderApp(routes, path)
}

describe('the dashboard shell and billing', () => {
	test.each(['paused', 'past_due', 'canceled'] as const)('a %s organization is sent to /paused', async (state) => {
		mockApi(() => undefined, { org: { subscriptionState: state } })
		const { router } = renderShell('/forms')
		expect(await screen.findByRole('heading', { name: 'Paused page' })).toBeInTheDocument()
		expect(router.state.location.pathname).toBe('/paused')
	})

	test('Settings stays open to a paused organization, so owners reach Billing', async () => {
		mockApi(() => undefined, { org: { subscriptionState: 'paused', pauseReason: 'requested' } })
		const { router, queryClient } = renderShell('/settings')
		// Once the organization's details have arrived, the page stays.
		await waitFor(() => expect(queryClient.getQueryData(teamKeys.orgDetails)).toBeDefined())
		expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument()
		expect(router.state.location.pathname).toBe('/settings')
	})

	test('an active organization stays in the dashboard, without a trial banner', async () => {
		mockApi(() => undefined, { org: { subscriptionState: 'active', trialEndsAt: null } })
		const { router, queryClient } = renderShell('/forms')
		await waitFor(() => expect(queryClient.getQueryData(teamKeys.orgDetails)).toBeDefined())
		expect(screen.getByRole('button', { name: 'Make a form' })).toBeInTheDocument()
		expect(router.state.location.pathname).toBe('/forms')
		expect(screen.queryByRole('link', { name: 'Choose a plan' })).toBeNull()
	})

	test('a trial shows its days left, rounded up, with a link to choose a plan', async () => {
		const inTwoAndAHalfDays = new Date(Date.now() + 2.5 * 86_400_000).toISOString()
		mockApi(() => undefined, { org: { subscriptionState: 'trialing', trialEndsAt: inTwoAndAHalfDays } })
		renderShell('/')
		expect(await screen.findByText('Trial: 3 days left')).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/settings?tab=billing')
	})

	test('a plan’s limit reached says which, how much, on which plan, with an Upgrade link', async () => {
		mockApi(
			({ method, path }) => {
				if (method === 'POST' && path === '/dashboard/forms') {
					return json(
						{
							type: 'about:blank',
							title: 'PLAN_LIMIT_REACHED',
							status: 402,
							code: 'PLAN_LIMIT_REACHED',
							detail: 'Your plan allows 5 forms.',
							limit: { key: 'forms', used: 5, allowed: 5, planId: 'starter', planName: 'Starter' },
						},
						402,
					)
				}
				return undefined
			},
			{ org: { subscriptionState: 'active', plan: 'starter', planName: 'Starter' } },
		)
		const { user, router } = renderShell('/forms')
		await user.click(await screen.findByRole('button', { name: 'Make a form' }))
		expect(await screen.findByText('Forms: 5 of 5 on the Starter plan')).toBeInTheDocument()
		const upgrade = screen.getByRole('link', { name: 'Upgrade' })
		// The next plan up is preselected in Settings → Billing's change-plan dialog.
		expect(upgrade).toHaveAttribute('href', '/settings?tab=billing&dialog=change-plan&plan=pro')
		await user.click(upgrade)
		await waitFor(() => expect(router.state.location.pathname).toBe('/settings'))
		expect(router.state.location.search).toBe('?tab=billing&dialog=change-plan&plan=pro')
	})

	test('a stopped subscription met while working links to /paused', async () => {
		mockApi(
			({ method, path }) => {
				if (method === 'POST' && path === '/dashboard/forms') {
					return json(
						{
							type: 'about:blank',
							title: 'SUBSCRIPTION_INACTIVE',
							status: 402,
							code: 'SUBSCRIPTION_INACTIVE',
							detail: 'The subscription is paused: nothing new can be made.',
						},
						402,
					)
				}
				return undefined
			},
			{ org: { subscriptionState: 'active' } },
		)
		const { user } = renderShell('/forms')
		await user.click(await screen.findByRole('button', { name: 'Make a form' }))
		expect(await screen.findByText('The subscription is paused: nothing new can be made.')).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'What to do' })).toHaveAttribute('href', '/paused')
	})
})
