import type { Member } from '@blocksmith/contracts/teams.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { actionResult, activeSubscription, makeOverview, renderApp } from '#src/core/billing/testing.tsx'
import { makeForm } from '#src/features/forms/testing.tsx'
import { json, makeOrgDetails, mockApi } from '#src/test/mock-api.tsx'
import { PausedPage } from './paused-page.tsx'

const routes = [{ path: '/paused', Component: PausedPage }]

function member(id: string, name: string, role: Member['role']): Member {
	return {
		id,
		userId: `u-${id}`,
		name,
		email: `${id}@acme.test`,
		image: null,
		role,
		createdAt: '2026-01-01T10:00:00.000Z',
	}
}

describe('/paused', () => {
	test('a member learns what happened, that nothing is lost, and whom to ask', async () => {
		mockApi(
			({ path }) => {
				if (path === '/dashboard/team_invites/all_members') {
					return json([
						member('m1', 'Grace Hopper', 'owner'),
						member('m2', 'Alan Turing', 'admin'),
						member('m3', 'Ada Lovelace', 'member'),
					])
				}
				return undefined
			},
			{ role: 'member', org: { subscriptionState: 'paused', pauseReason: 'trial_ended' } },
		)
		renderApp(routes, '/paused')
		expect(await screen.findByRole('heading', { name: 'Your trial has ended' })).toBeInTheDocument()
		expect(screen.getByText(/Nothing was deleted/)).toBeInTheDocument()
		expect(screen.getByText('Ask an owner or admin of Acme to choose a plan.')).toBeInTheDocument()
		const managers = await screen.findByRole('list', { name: 'Owners and admins of Acme' })
		const names = within(managers)
			.getAllByRole('listitem')
			.map((item) => item.textContent)
		expect(names).toEqual(['Grace Hopper (owner) · m1@acme.test', 'Alan Turing (admin) · m2@acme.test'])
		expect(screen.queryByRole('button', { name: 'Resume subscription' })).toBeNull()
		expect(screen.queryByRole('link', { name: 'Choose a plan' })).toBeNull()
	})

	test('an owner of a paused organization resumes it, and the page says it is active', async () => {
		let org = makeOrgDetails('owner', { subscriptionState: 'paused', pauseReason: 'requested' })
		const api = mockApi(({ method, path }) => {
			if (path === '/dashboard/users/get_org_details') {
				return json(org)
			}
			if (path === '/api/subscriptions') {
				return json(
					makeOverview({
						subscription: activeSubscription({
							status: 'paused',
							pauseReason: 'requested',
							pausedAt: '2026-11-20T12:00:00.000Z',
							resumesAt: '2027-01-10T12:00:00.000Z',
						}),
					}),
				)
			}
			if (method === 'POST' && path === '/api/subscriptions/resume_subscription') {
				org = { ...org, subscriptionState: 'active', pauseReason: null }
				return json(actionResult(activeSubscription(), 'Your subscription is active again.'))
			}
			return undefined
		})
		const { user } = renderApp(routes, '/paused')
		expect(await screen.findByRole('heading', { name: 'Acme is paused' })).toBeInTheDocument()
		expect(await screen.findByText(/It resumes by itself on Jan 10, 2027/)).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Resume subscription' }))
		expect(await screen.findByRole('heading', { name: 'Nothing to resume' })).toBeInTheDocument()
		expect(screen.getByText("Acme's subscription is active and everything works.")).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/')
		await waitFor(() =>
			expect(api.calls.filter((call) => call.path === '/api/subscriptions/resume_subscription')).toHaveLength(1),
		)
	})

	test('an owner whose payment failed is offered to update the payment details', async () => {
		mockApi(() => undefined, { org: { subscriptionState: 'past_due' } })
		renderApp(routes, '/paused')
		expect(await screen.findByRole('heading', { name: 'A payment failed' })).toBeInTheDocument()
		expect(screen.getByRole('button', { name: 'Update payment details' })).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Billing settings' })).toHaveAttribute('href', '/settings?tab=billing')
	})

	test('signed out, it asks to sign in', async () => {
		mockApi(() => undefined)
		renderApp(routes, '/paused', { user: null })
		expect(await screen.findByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?next=%2Fpaused')
	})

	test('the team’s data stays downloadable: every database and every form’s answers as CSV', async () => {
		const database = {
			id: 'db1',
			workspaceId: 'ws1',
			tool: 'local',
			externalId: 'db1',
			name: 'Clients',
			icon: null,
			url: null,
			properties: [{ id: 'name', name: 'Name', type: 'title' }],
			sync: { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 3 },
		}
		const api = mockApi(
			({ path }) => {
				if (path === '/dashboard/local/databases') {
					return json([database])
				}
				if (path === '/dashboard/notion/databases') {
					return json([])
				}
				if (path === '/dashboard/forms') {
					return json([makeForm({ id: 'f1', name: 'Contact us' })])
				}
				if (path === '/dashboard/local/databases/db1/export.csv') {
					return new Response('Name\nAcme\n', { headers: { 'content-type': 'text/csv' } })
				}
				return undefined
			},
			{ role: 'member', org: { subscriptionState: 'past_due' } },
		)
		vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }))
		const { user } = renderApp(routes, '/paused')
		await user.click(await screen.findByText('Download your data'))
		const downloads = await screen.findByRole('list', { name: 'Downloads' })
		expect(within(downloads).getByText('Clients')).toBeInTheDocument()
		expect(within(downloads).getByText('Contact us')).toBeInTheDocument()
		await user.click(within(downloads).getByRole('button', { name: 'Download Clients as CSV' }))
		await waitFor(() =>
			expect(api.calls.some((call) => call.path === '/dashboard/local/databases/db1/export.csv')).toBe(true),
		)
	})
})
