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

function MembersStandIn() {
	return <p>Members here</p>
}

function withPortal(
	portal: Portal,
	handlers: { onSave?: (body: PortalSetupInput) => Response; onReset?: (body: unknown) => Response } = {},
) {
	let portals = [portal]
	return mockApi((call) => {
		if (call.path === setupPath) {
			return json({ portals, limit: 1 })
		}
		if (call.path === `${setupPath}/fetch_public_databases`) {
			return json(sampleDatabases({ companiesDatabaseId: call.search.get('companiesDatabaseId') }))
		}
		if (call.path === `${setupPath}/update_setup`) {
			const body = call.body as PortalSetupInput
			return handlers.onSave
				? handlers.onSave(body)
				: json({ ...portal, ...body, updatedAt: '2026-11-26T11:00:00.000Z' })
		}
		if (call.path === `${setupPath}/reset_portal_config` && handlers.onReset) {
			return handlers.onReset(call.body)
		}
		if (call.path === `${setupPath}/${portal.id}` && call.method === 'DELETE') {
			portals = []
			return new Response(null, { status: 204 })
		}
		if (call.path === '/dashboard/local_portal/databases/get_job_timer') {
			return json(emptyTimer)
		}
		if (call.path === '/dashboard/forms') {
			return json([
				{ id: 'form1', name: 'Request', tool: 'local', databaseId: 'db-projects', published: true },
				{ id: 'form2', name: 'Draft form', tool: 'local', databaseId: 'db-projects', published: false },
				{ id: 'form3', name: 'On Notion', tool: 'notion', databaseId: 'n-db', published: true },
			])
		}
		if (call.path === '/dashboard/local_charts/charts') {
			return json([
				{ id: 'chart1', name: 'Budget by status', tool: 'local', databaseId: 'db-projects', published: true },
			])
		}
		return undefined
	})
}

async function openPage(user: ReturnType<typeof renderApp>['user'], name: string) {
	const pages = await screen.findByRole('list', { name: 'Pages' })
	await user.click(within(pages).getByRole('button', { name: new RegExp(`^${name}`) }))
	return pages
}

describe('portal setup', () => {
	test('the rule picker offers the rules in plain words; every row to every member only on purpose, with a warning', async () => {
		const { calls } = withPortal(makePortal())
		const { user } = renderApp(routes, '/portals/portal1')
		await screen.findByRole('form', { name: 'Portal Acme' })
		const pages = await openPage(user, 'Projects')
		const rule = within(pages).getByRole('group', { name: 'Who sees which rows of Projects' })
		await within(rule).findByRole('radio', { name: 'Rows where the member is one of the Owner' })
		expect(
			within(rule)
				.getAllByRole('radio')
				.map((radio) => radio.closest('label')?.textContent),
		).toEqual(["Rows whose Client is the member's company", 'Rows where the member is one of the Owner'])
		expect(within(rule).getByRole('radio', { name: "Rows whose Client is the member's company" })).toBeChecked()
		expect(within(rule).queryByRole('radio', { name: 'Every row, to every member' })).toBeNull()

		await user.click(within(rule).getByRole('button', { name: 'Share every row with every member…' }))
		await user.click(within(rule).getByRole('radio', { name: 'Every row, to every member' }))
		expect(within(rule).getByRole('alert')).toHaveTextContent('Each client sees the other clients’ rows')

		await user.click(within(rule).getByRole('radio', { name: 'Rows where the member is one of the Owner' }))
		expect(within(rule).queryByRole('alert')).toBeNull()
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(calls.some((call) => call.path.endsWith('/update_setup'))).toBe(true))
		const body = calls.find((call) => call.path.endsWith('/update_setup'))?.body as PortalSetupInput
		expect(body.id).toBe('portal1')
		expect(body.pages?.[0]?.rule).toEqual({ kind: 'person', property: 'p-owner' })
	})

	test('a database added without a company relation asks for a rule before saving', async () => {
		const { calls } = withPortal(makePortal())
		const { user } = renderApp(routes, '/portals/portal1')
		await screen.findByRole('form', { name: 'Portal Acme' })
		const add = await screen.findByRole('combobox', { name: 'Add a database' })
		await user.selectOptions(add, 'db-time')
		await user.click(screen.getByRole('button', { name: 'Add page' }))
		const rule = await screen.findByRole('group', { name: 'Who sees which rows of Time entries' })
		expect(within(rule).getByText(/No property of this database points at a member yet/)).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(within(rule).getByText('Choose which rows a member sees.')).toBeInTheDocument())
		expect(calls.some((call) => call.path.endsWith('/update_setup'))).toBe(false)
	})

	test("the server's field errors land on their fields (a page's rule, the address), and its 409 on the domain", async () => {
		let answer = problem(400, 'VALIDATION_FAILED', 'Check the highlighted fields.', [
			{ field: 'pages.0.rule.property', message: 'Choose a relation to the companies database.' },
			{ field: 'pages.0.properties.1', message: 'This database has no such property.' },
			{ field: 'slug', message: 'This address is reserved. Choose another.' },
		])
		withPortal(makePortal(), { onSave: () => answer })
		const { user } = renderApp(routes, '/portals/portal1')
		const form = await screen.findByRole('form', { name: 'Portal Acme' })
		const slug = within(form).getByRole('textbox', { name: /^Address/ })
		await user.clear(slug)
		await user.type(slug, 'admin')
		await user.click(screen.getByRole('button', { name: 'Save' }))

		await waitFor(() => expect(slug).toHaveAccessibleDescription(/This address is reserved\. Choose another\./))
		expect(slug).toHaveAttribute('aria-invalid', 'true')
		// The page with the problem opens by itself, its rule and properties saying what is wrong.
		const rule = await screen.findByRole('group', { name: 'Who sees which rows of Projects' })
		expect(rule).toHaveAccessibleDescription('Choose a relation to the companies database.')
		expect(screen.getByRole('group', { name: 'Properties of Projects' })).toHaveAccessibleDescription(
			'This database has no such property.',
		)

		answer = problem(409, 'CONFLICT', 'Another portal uses this domain.', [
			{ field: 'customDomain', message: 'Another portal uses this domain.' },
		])
		await user.clear(slug)
		await user.type(slug, 'acme-clients')
		const domain = within(form).getByRole('textbox', { name: /^Custom domain/ })
		await user.type(domain, 'portal.acme.com')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(domain).toHaveAccessibleDescription(/Another portal uses this domain\./))
		expect(slug).not.toHaveAttribute('aria-invalid')
	})

	test('reset asks for the portal’s name typed out before it is sent', async () => {
		const portal = makePortal({ name: 'Acme clients' })
		const { calls } = withPortal(portal, {
			onReset: () => json({ ...portal, pages: [], updatedAt: '2026-11-26T12:00:00.000Z' }),
		})
		const { user } = renderApp(routes, '/portals/portal1')
		await screen.findByRole('form', { name: 'Portal Acme clients' })
		await user.click(screen.getByRole('button', { name: 'Reset…' }))
		const dialog = await screen.findByRole('alertdialog', { name: 'Reset Acme clients?' })
		await user.click(within(dialog).getByRole('button', { name: 'Reset portal' }))
		expect(within(dialog).getByRole('textbox', { name: 'Type Acme clients to confirm' })).toHaveAccessibleDescription(
			'Type Acme clients exactly as it is written.',
		)
		await user.type(within(dialog).getByRole('textbox', { name: 'Type Acme clients to confirm' }), 'acme')
		await user.click(within(dialog).getByRole('button', { name: 'Reset portal' }))
		expect(calls.some((call) => call.path.endsWith('/reset_portal_config'))).toBe(false)

		await user.clear(within(dialog).getByRole('textbox', { name: 'Type Acme clients to confirm' }))
		await user.type(within(dialog).getByRole('textbox', { name: 'Type Acme clients to confirm' }), 'Acme clients')
		await user.click(within(dialog).getByRole('button', { name: 'Reset portal' }))
		await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
		expect(calls.find((call) => call.path.endsWith('/reset_portal_config'))?.body).toEqual({
			id: 'portal1',
			confirm: 'Acme clients',
		})
		// The form shows the reset setup: no page left.
		expect(await screen.findByText('No page yet: add a database below.')).toBeInTheDocument()
	})

	test('leaving with unsaved changes asks first', async () => {
		withPortal(makePortal())
		const { user, router } = renderApp(
			[...routes, { path: '/portals/:id/members', Component: MembersStandIn }],
			'/portals/portal1',
		)
		const form = await screen.findByRole('form', { name: 'Portal Acme' })
		await user.type(within(form).getByRole('textbox', { name: /^Welcome text/ }), 'Hello')
		await user.click(screen.getByRole('link', { name: 'Members' }))
		const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' })
		await user.click(within(dialog).getByRole('button', { name: 'Stay' }))
		expect(router.state.location.pathname).toBe('/portals/portal1')
		expect(within(form).getByRole('textbox', { name: /^Welcome text/ })).toHaveValue('Hello')
	})

	test('members get a form linked to their company, their invoices and a chart of their rows', async () => {
		const { calls } = withPortal(makePortal())
		const { user } = renderApp(routes, '/portals/portal1')
		const extras = await screen.findByRole('region', { name: 'For members' })
		const addForm = await within(extras).findByRole('combobox', { name: 'Add a form' })
		// Only the published forms of the portal's tool.
		expect(
			within(addForm)
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual(['Choose a published form…', 'Request'])
		await user.selectOptions(addForm, 'form1')
		await user.click(within(extras).getByRole('button', { name: 'Add form' }))
		// The new row is linked to the member's company through the relation to the companies database.
		expect(within(extras).getByRole('combobox', { name: /^Link the new row to the member/ })).toHaveValue('p-client')
		await user.click(within(extras).getByRole('switch', { name: /their company’s invoices/ }))
		await user.selectOptions(within(extras).getByRole('combobox', { name: 'Add a chart' }), 'chart1')
		await user.click(within(extras).getByRole('button', { name: 'Add chart' }))
		expect(within(extras).getByRole('list', { name: 'Charts of the portal' })).toHaveTextContent(
			'Budget by status · rows of Projects',
		)
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(calls.some((call) => call.path.endsWith('/update_setup'))).toBe(true))
		expect(calls.find((call) => call.path.endsWith('/update_setup'))?.body).toMatchObject({
			forms: [{ formId: 'form1', linkProperty: 'p-client' }],
			showInvoices: true,
			charts: [{ chartId: 'chart1', pageId: 'projects' }],
		})
	})

	test('a custom domain the plan lacks: the field says so and the toast offers the upgrade', async () => {
		withPortal(makePortal(), {
			onSave: () =>
				problem(402, 'PLAN_LIMIT_REACHED', 'A custom domain is not part of your plan. Upgrade to use one.', [
					{ field: 'customDomain', message: 'A custom domain is not part of your plan.' },
				]),
		})
		const { user, router } = renderApp(routes, '/portals/portal1')
		const form = await screen.findByRole('form', { name: 'Portal Acme' })
		const domain = within(form).getByRole('textbox', { name: /^Custom domain/ })
		await user.type(domain, 'portal.acme.com')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(domain).toHaveAccessibleDescription(/A custom domain is not part of your plan\./))
		await user.click(await screen.findByRole('button', { name: 'Upgrade' }))
		// The domain typed is not saved: leaving for the plans asks first.
		const leave = await screen.findByRole('alertdialog', { name: 'Leave without saving?' })
		await user.click(within(leave).getByRole('button', { name: 'Leave without saving' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/settings'))
		expect(router.state.location.search).toContain('dialog=change-plan')
	})

	test('delete asks first, then goes back to the portals', async () => {
		const { calls } = withPortal(makePortal())
		const { user, router } = renderApp(routes, '/portals/portal1')
		await screen.findByRole('form', { name: 'Portal Acme' })
		await user.click(screen.getByRole('button', { name: 'Delete…' }))
		const dialog = await screen.findByRole('alertdialog', { name: 'Delete Acme?' })
		expect(calls.some((call) => call.method === 'DELETE')).toBe(false)
		await user.click(within(dialog).getByRole('button', { name: 'Delete portal' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/portals'))
		expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([`${setupPath}/portal1`])
		// No portal left: the first one is suggested again.
		expect(await screen.findByRole('form', { name: 'New portal' })).toBeInTheDocument()
	})
})
