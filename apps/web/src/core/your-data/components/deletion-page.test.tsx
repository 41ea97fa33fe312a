import type { OrganizationSummary, OrgDetails } from '@blocksmith/contracts/teams.ts'
import { useMutation } from '@tanstack/react-query'
import { screen, waitFor } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { AppLayout } from '#src/app/layouts/app-layout.tsx'
import { renderApp } from '#src/core/billing/testing.tsx'
import { api } from '#src/lib/api-client.ts'
import { tokenStorageKey } from '#src/lib/token-store.ts'
import { json, makeOrgDetails, mockApi, problem } from '#src/test/mock-api.tsx'

// An organization scheduled for deletion: the dashboard's gate shows its page instead of the modules.

const deletion: NonNullable<OrgDetails['deletion']> = {
	requestedAt: '2026-11-26T12:00:00.000Z',
	purgeAfter: '2026-12-26T12:00:00.000Z',
	requestedBy: 'Ada Lovelace',
}

const organizations: OrganizationSummary[] = [
	{ id: 'org1', name: 'Acme', slug: 'acme', role: 'member', isActive: true },
	{ id: 'org2', name: 'Globex', slug: 'globex', role: 'owner', isActive: false },
]

/** A screen that makes something, as the modules do. */
function MakerPage() {
	const make = useMutation({ mutationFn: () => api('/dashboard/forms', { json: { name: 'One more' } }) })
	return (
		<button type="button" onClick={() => make.mutate()}>
			Make a form
		</button>
	)
}

function renderShell(path = '/') {
	return renderApp(
		[
			{
				Component: AppLayout,
				children: [
					{ path: '/', element: <h1>Home</h1> },
					{ path: '/forms', element: <MakerPage /> },
				],
			},
		],
		path,
	)
}

function serveOrganizations(call: { path: string }) {
	if (call.path === '/dashboard/organizations') {
		return json(organizations)
	}
	if (call.path === '/dashboard/exports') {
		return json({ exports: [] })
	}
	return undefined
}

describe('an organization scheduled for deletion', () => {
	test('an owner sees when, exports, and restores it: the dashboard comes back', async () => {
		let isDeleting = true
		const calls = mockApi((call) => {
			if (call.path === '/dashboard/users/get_org_details') {
				return json(makeOrgDetails('owner', { deletion: isDeleting ? deletion : null }))
			}
			if (call.method === 'POST' && call.path === '/dashboard/organization/restore') {
				isDeleting = false
				return json({ success: true })
			}
			return serveOrganizations(call)
		}).calls
		const { user } = renderShell()
		expect(
			await screen.findByRole('heading', { name: 'Acme is scheduled for deletion on Dec 26, 2026' }),
		).toBeInTheDocument()
		expect(screen.queryByRole('heading', { name: 'Home' })).toBeNull()
		expect(await screen.findByRole('button', { name: 'Export everything' })).toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Restore organization' }))
		expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument()
		expect(screen.queryByRole('heading', { name: /scheduled for deletion/ })).toBeNull()
		expect(calls.filter((call) => call.path === '/dashboard/organization/restore')).toHaveLength(1)
	})

	test('a member can neither restore nor export: they switch to another organization or sign out', async () => {
		mockApi(
			(call) => {
				if (call.path === '/dashboard/users/get_org_details') {
					return json(makeOrgDetails('member', { deletion }))
				}
				return serveOrganizations(call)
			},
			{ role: 'member' },
		)
		const { user, router } = renderShell()
		expect(
			await screen.findByRole('heading', { name: 'Acme is scheduled for deletion on Dec 26, 2026' }),
		).toBeInTheDocument()
		expect(screen.getByText(/Switch to another organization, or sign out/)).toBeInTheDocument()
		expect(screen.queryByRole('button', { name: 'Restore organization' })).toBeNull()
		expect(screen.queryByRole('button', { name: 'Export everything' })).toBeNull()

		await user.click(await screen.findByRole('button', { name: 'Acme, switch organization' }))
		expect(await screen.findByRole('menuitem', { name: /Globex/ })).toBeInTheDocument()
		await user.keyboard('{Escape}')

		await user.click(screen.getByRole('button', { name: 'Sign out' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
		expect(window.localStorage.getItem(tokenStorageKey)).toBeNull()
	})

	test('an admin exports its data but cannot restore it', async () => {
		mockApi(
			(call) => {
				if (call.path === '/dashboard/users/get_org_details') {
					return json(makeOrgDetails('admin', { deletion }))
				}
				return serveOrganizations(call)
			},
			{ role: 'admin' },
		)
		renderShell()
		expect(await screen.findByRole('button', { name: 'Export everything' })).toBeInTheDocument()
		expect(screen.queryByRole('button', { name: 'Restore organization' })).toBeNull()
	})

	test('ORGANIZATION_DELETING met while working reads the organization again, and the page appears', async () => {
		let isDeleting = false
		const calls = mockApi((call) => {
			if (call.path === '/dashboard/users/get_org_details') {
				return json(makeOrgDetails('owner', { deletion: isDeleting ? deletion : null }))
			}
			if (call.method === 'POST' && call.path === '/dashboard/forms') {
				// Another owner deleted it in the meantime.
				isDeleting = true
				return problem(409, 'ORGANIZATION_DELETING', 'This organization is scheduled for deletion.')
			}
			return serveOrganizations(call)
		}).calls
		const { user } = renderShell('/forms')
		await user.click(await screen.findByRole('button', { name: 'Make a form' }))
		expect(
			await screen.findByRole('heading', { name: 'Acme is scheduled for deletion on Dec 26, 2026' }),
		).toBeInTheDocument()
		expect(calls.filter((call) => call.path === '/dashboard/users/get_org_details')).toHaveLength(2)
		// The page says it; no toast repeats the refusal.
		expect(screen.queryByText('This organization is scheduled for deletion.')).toBeNull()
	})
})
