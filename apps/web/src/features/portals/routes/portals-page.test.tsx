import type { Portal, PortalSetupInput } from '@blocksmith/contracts/portals.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi, problem } from '#src/test/mock-api.tsx'
import { emptyTimer, makePortal, sampleDatabases } from '../lib/testing.ts'
import { PortalSetupPage } from './portal-setup-page.tsx'
import { PortalsPage } from './portals-page.tsx'

const routes = [
	{ path: '/portals', Component: PortalsPage },
	{ path: '/portals/:id', Component: PortalSetupPage },
]
const setupPath = '/dashboard/local_portal/setup'

/** The API of an organization without a portal, on the sample workspace; a save creates `created`. */
function withoutPortal(onSave: (body: PortalSetupInput) => Response) {
	let portals: Portal[] = []
	return mockApi((call) => {
		if (call.path === setupPath) {
			return json({ portals, limit: 1 })
		}
		if (call.path === `${setupPath}/fetch_public_databases`) {
			return json(sampleDatabases({ companiesDatabaseId: call.search.get('companiesDatabaseId') }))
		}
		if (call.path === `${setupPath}/update_setup`) {
			const answer = onSave(call.body as PortalSetupInput)
			if (answer.ok) {
				portals = [makePortal({ id: 'portal-new', name: 'Acme', slug: 'acme' })]
			}
			return answer
		}
		if (call.path === '/dashboard/local_portal/databases/get_job_timer') {
			return json(emptyTimer)
		}
		return undefined
	})
}

describe('portals: the first run', () => {
	test('the empty state suggests a portal on the sample workspace and creates it in one click', async () => {
		const { calls } = withoutPortal(() => json(makePortal({ id: 'portal-new' }), 201))
		const { user, router } = renderApp(routes, '/portals')

		const form = await screen.findByRole('form', { name: 'New portal' })
		expect(within(form).getByRole('heading', { name: 'Open your first portal' })).toBeInTheDocument()
		// The organization's name and a slug from it, with the link members will open.
		expect(within(form).getByRole('textbox', { name: /^Portal name/ })).toHaveValue('Acme')
		expect(within(form).getByRole('textbox', { name: /^Address/ })).toHaveValue('acme')
		expect(within(form).getByRole('textbox', { name: /^Address/ })).toHaveAccessibleDescription(/\/p\/acme$/)
		// Clients is the database the others relate to; Projects and Invoices are checked, Enquiries offered.
		expect(within(form).getByText('Clients')).toBeInTheDocument()
		expect(await within(form).findByRole('checkbox', { name: 'Projects' })).toBeChecked()
		expect(within(form).getByRole('checkbox', { name: 'Projects' })).toHaveAccessibleDescription(
			"Rows whose Client is the member's company",
		)
		expect(within(form).getByRole('checkbox', { name: 'Invoices' })).toBeChecked()
		expect(within(form).getByRole('checkbox', { name: 'Enquiries' })).not.toBeChecked()
		expect(within(form).queryByRole('checkbox', { name: 'Time entries' })).toBeNull()

		await user.click(within(form).getByRole('button', { name: 'Create portal' }))

		await waitFor(() => expect(router.state.location.pathname).toBe('/portals/portal-new'))
		const save = calls.find((call) => call.path === `${setupPath}/update_setup`)
		const body = save?.body as PortalSetupInput
		expect(body).toMatchObject({ name: 'Acme', slug: 'acme', access: { companiesDatabaseId: 'db-clients' } })
		expect(body.id).toBeUndefined()
		expect(body.pages?.map((page) => [page.id, page.databaseId, page.rule])).toEqual([
			['projects', 'db-projects', { kind: 'company', property: 'p-client' }],
			['invoices', 'db-invoices', { kind: 'company', property: 'i-client' }],
		])
		// The rule's relation is not shown again, nor who works on it inside the team; the title always is.
		expect(body.pages?.[0]?.properties).toEqual(['p-status', 'p-budget', 'p-timeline'])
		expect(body.pages?.[0]?.filterable).toEqual(['p-status'])
		expect(await screen.findByRole('form', { name: 'Portal Acme' })).toBeInTheDocument()
	})

	test('a taken address is said at the address, and nothing is created', async () => {
		withoutPortal(() =>
			problem(409, 'CONFLICT', 'This address is taken. Choose another.', [
				{ field: 'slug', message: 'This address is taken.' },
			]),
		)
		const { user, router } = renderApp(routes, '/portals')
		const form = await screen.findByRole('form', { name: 'New portal' })
		await within(form).findByRole('checkbox', { name: 'Projects' })
		await user.click(within(form).getByRole('button', { name: 'Create portal' }))
		const slug = within(form).getByRole('textbox', { name: /^Address/ })
		await waitFor(() => expect(slug).toHaveAccessibleDescription(/This address is taken\./))
		expect(slug).toHaveAttribute('aria-invalid', 'true')
		expect(router.state.location.pathname).toBe('/portals')
	})

	test('without any database, the empty state leads to the workspaces', async () => {
		mockApi((call) => {
			if (call.path === setupPath) {
				return json({ portals: [], limit: 1 })
			}
			if (call.path === `${setupPath}/fetch_public_databases`) {
				return json([])
			}
			return undefined
		})
		renderApp(routes, '/portals')
		expect(await screen.findByRole('heading', { name: 'A portal shows your databases to your clients' })).toBeVisible()
		expect(screen.getByRole('link', { name: 'Go to Workspaces' })).toHaveAttribute('href', '/workspaces')
	})
})
