import { useQuery } from '@tanstack/react-query'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { AppLayout } from '#src/app/layouts/app-layout.tsx'
import { renderApp } from '#src/core/billing/testing.tsx'
import { api } from '#src/lib/api-client.ts'
import { tokenStorageKey } from '#src/lib/token-store.ts'
import { json, makeOrgDetails, mockApi, problem } from '#src/test/mock-api.tsx'

// An account that belongs to no organization (its last one deleted, or removed from it): the
// dashboard's gate shows a page to create one instead of the modules.

const noOrganization = () => problem(403, 'NO_ORGANIZATION', 'Your account does not belong to an organization.')

/** A screen that reads its organization's data, as the modules do. */
function FormsPage() {
	const forms = useQuery({ queryKey: ['forms'], queryFn: () => api('/dashboard/forms') })
	return <h1>{forms.data ? 'Forms' : 'Loading forms'}</h1>
}

function renderShell(path = '/') {
	return renderApp(
		[
			{
				Component: AppLayout,
				children: [
					{ path: '/', element: <h1>Home</h1> },
					{ path: '/forms', element: <FormsPage /> },
				],
			},
		],
		path,
	)
}

describe('an account without an organization', () => {
	test('sees why, creates one, and the dashboard of it appears; no toast repeats the refusals', async () => {
		let organization: string | null = null
		const calls = mockApi((call) => {
			if (call.path === '/dashboard/users/get_org_details') {
				return organization ? json(makeOrgDetails('owner', { id: 'org9', name: organization })) : noOrganization()
			}
			if (call.method === 'POST' && call.path === '/dashboard/organizations') {
				organization = (call.body as { name: string }).name
				return json({ id: 'org9', name: organization, slug: 'ws-1', role: 'owner', isActive: true }, 201)
			}
			if (call.path === '/dashboard/organizations') {
				return json(
					organization ? [{ id: 'org9', name: organization, slug: 'ws-1', role: 'owner', isActive: true }] : [],
				)
			}
			if (call.path === '/dashboard/forms') {
				return organization ? json([]) : noOrganization()
			}
			return undefined
		}).calls
		const { user, router } = renderShell('/forms')

		expect(await screen.findByRole('heading', { name: "You're not in an organization any more" })).toBeInTheDocument()
		expect(screen.getByText(/was deleted, or you were removed from it/)).toBeInTheDocument()
		expect(screen.getByText(/Open the invitation from its e-mail to join it/)).toBeInTheDocument()
		// The module read before the gate closed was refused too: the page says it, no toast does.
		await waitFor(() => expect(calls.some((call) => call.path === '/dashboard/forms')).toBe(true))
		expect(screen.queryByText('Your account does not belong to an organization.')).toBeNull()
		// Its own refusal is not read again and again (once more at most, for the module's refusal).
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect(calls.filter((call) => call.path === '/dashboard/users/get_org_details').length).toBeLessThanOrEqual(2)

		const create = screen.getByRole('button', { name: 'Create an organization' })
		expect(create).toBeDisabled()
		await user.type(screen.getByLabelText('Organization name'), '  Second Co ')
		await user.click(create)

		expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument()
		expect(router.state.location.pathname).toBe('/')
		expect(screen.queryByRole('heading', { name: /not in an organization/ })).toBeNull()
		expect(calls.filter((call) => call.method === 'POST' && call.path === '/dashboard/organizations')).toEqual([
			expect.objectContaining({ body: { name: 'Second Co' } }),
		])
		expect(await screen.findByRole('button', { name: 'Second Co, switch organization' })).toBeInTheDocument()
		expect(screen.getByText('Created Second Co.')).toBeInTheDocument()
		expect(screen.queryByText('Your account does not belong to an organization.')).toBeNull()
	})

	test('NO_ORGANIZATION met while working reads the organization again, and the page appears', async () => {
		let isMember = true
		mockApi((call) => {
			if (call.path === '/dashboard/users/get_org_details') {
				return isMember ? json(makeOrgDetails('member')) : noOrganization()
			}
			if (call.path === '/dashboard/forms') {
				// Removed from the team in the meantime.
				isMember = false
				return noOrganization()
			}
			if (call.path === '/dashboard/organizations') {
				return json([])
			}
			return undefined
		})
		const { router } = renderShell('/')
		expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument()
		await router.navigate('/forms')
		expect(await screen.findByRole('heading', { name: "You're not in an organization any more" })).toBeInTheDocument()
		expect(screen.queryByText('Your account does not belong to an organization.')).toBeNull()
	})

	test('signs out from the page', async () => {
		mockApi((call) => (call.path === '/dashboard/users/get_org_details' ? noOrganization() : json({ success: true })))
		const { user, router } = renderShell()
		await user.click(await screen.findByRole('button', { name: 'Sign out' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
		expect(window.localStorage.getItem(tokenStorageKey)).toBeNull()
	})

	test("the switcher's New organization dialog makes one with the same form", async () => {
		let created: string | null = null
		const calls = mockApi((call) => {
			if (call.method === 'POST' && call.path === '/dashboard/organizations') {
				created = (call.body as { name: string }).name
				return json({ id: 'org2', name: created, slug: 'ws-2', role: 'owner', isActive: true }, 201)
			}
			if (call.path === '/dashboard/organizations') {
				const acme = { id: 'org1', name: 'Acme', slug: 'acme', role: 'owner', isActive: !created }
				return json(
					created ? [acme, { id: 'org2', name: created, slug: 'ws-2', role: 'owner', isActive: true }] : [acme],
				)
			}
			return undefined
		}).calls
		const { user } = renderShell('/forms')
		await user.click((await screen.findAllByRole('button', { name: 'Acme, switch organization' }))[0] as HTMLElement)
		await user.click(await screen.findByRole('menuitem', { name: 'New organization' }))
		const dialog = await screen.findByRole('dialog', { name: 'New organization' })
		await user.type(await within(dialog).findByLabelText('Organization name'), 'Side Co')
		await user.click(within(dialog).getByRole('button', { name: 'Create' }))
		expect(await screen.findByText('Created Side Co.')).toBeInTheDocument()
		await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New organization' })).toBeNull())
		expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument()
		expect(calls.filter((call) => call.method === 'POST' && call.path === '/dashboard/organizations')).toHaveLength(1)
	})
})
