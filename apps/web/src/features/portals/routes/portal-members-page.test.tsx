import type { BulkInviteInput, PortalMember } from '@blocksmith/contracts/portals.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi, problem } from '#src/test/mock-api.tsx'
import { makePortal } from '../lib/testing.ts'
import { PortalMembersPage } from './portal-members-page.tsx'

const routes = [{ path: '/portals/:id/members', Component: PortalMembersPage }]
const base = '/dashboard/local_portal'

function member(changes: Partial<PortalMember>): PortalMember {
	return {
		id: 'm1',
		email: 'ana@northwind.com',
		name: 'Ana Lima',
		companyRowId: 'row-northwind',
		companyName: 'Northwind',
		status: 'active',
		hasPassword: false,
		invitedAt: '2026-11-20T10:00:00.000Z',
		lastSeenAt: '2026-11-25T09:30:00.000Z',
		...changes,
	}
}

function withMembers(initial: PortalMember[]) {
	let members = initial
	return mockApi((call) => {
		if (call.path === `${base}/setup`) {
			return json({ portals: [makePortal()], limit: 1 })
		}
		if (call.path === `${base}/invitations` && call.method === 'GET') {
			return json(members)
		}
		if (call.path === `${base}/invitations/bulk_invite`) {
			const input = call.body as BulkInviteInput
			// The second line's company is unknown: refused with why, the others invited.
			const invited = input.members
				.filter((_, index) => index !== 1)
				.map((one, index) => member({ id: `new${index}`, email: one.email, name: one.name ?? null, status: 'invited' }))
			members = [...members, ...invited]
			return json({
				invited,
				existing: [],
				refused: [{ index: 1, email: input.members[1]?.email ?? '', reason: 'No company named Umbrella.' }],
			})
		}
		if (call.path === `${base}/invitations/m1` && call.method === 'PATCH') {
			const body = call.body as { company?: string | null }
			if (body.company === 'Nope Inc') {
				return problem(400, 'VALIDATION_FAILED', 'Some fields are invalid.', [
					{ field: 'company', message: "No company “Nope Inc” in the portal's companies database." },
				])
			}
			members = members.map((one) => (one.id === 'm1' ? { ...one, companyName: body.company ?? null } : one))
			return json(members[0])
		}
		if (call.path === `${base}/invitations/m1` && call.method === 'DELETE') {
			members = members.filter((one) => one.id !== 'm1')
			return new Response(null, { status: 204 })
		}
		return undefined
	})
}

describe('portal members', () => {
	test('bulk invite: the lines are previewed with their problems, only good ones are sent, refusals come back on their line', async () => {
		const { calls } = withMembers([])
		const { user } = renderApp(routes, '/portals/portal1/members')
		const box = await screen.findByRole('textbox', { name: /^Members to invite/ })
		await user.type(
			box,
			'ben@contoso.com, Ben, Contoso{enter}not-an-email, Bob{enter}cy@umbrella.com, Cy, Umbrella{enter}dee@contoso.com, Dee, Contoso',
		)
		const preview = screen.getByRole('table', { name: 'Preview of the members to invite' })
		expect(within(preview).getByText('“not-an-email” is not an e-mail address.')).toBeInTheDocument()
		expect(screen.getByText(/3 ready to invite/)).toHaveTextContent('3 ready to invite, 1 line needs a look')

		await user.click(screen.getByRole('button', { name: 'Invite 3 members' }))
		const refused = await screen.findByRole('list', { name: 'Refused' })
		expect(refused).toHaveTextContent('cy@umbrella.com — No company named Umbrella.')
		const sent = calls.find((call) => call.path.endsWith('/bulk_invite'))?.body as BulkInviteInput
		expect(sent).toEqual({
			portalId: 'portal1',
			sendEmails: true,
			members: [
				{ email: 'ben@contoso.com', name: 'Ben', company: 'Contoso' },
				{ email: 'cy@umbrella.com', name: 'Cy', company: 'Umbrella' },
				{ email: 'dee@contoso.com', name: 'Dee', company: 'Contoso' },
			],
		})
		// The refused line stays in the box to fix, its reason on it in the preview; the invited ones are in the list.
		// (The server's index 1 is the second line sent, line 3 of the text: not the bad line 2.)
		expect(box).toHaveValue('cy@umbrella.com, Cy, Umbrella')
		const left = screen.getByRole('table', { name: 'Preview of the members to invite' })
		expect(within(left).getAllByRole('row')).toHaveLength(2)
		expect(within(left).getByText('No company named Umbrella.')).toBeInTheDocument()
		expect(screen.getByText(/^2 members invited by e-mail, 1 refused/)).toBeInTheDocument()
		const list = await screen.findByRole('list', { name: 'Members' })
		await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2))
	})

	test('a member is removed only after the confirmation', async () => {
		const { calls } = withMembers([member({})])
		const { user } = renderApp(routes, '/portals/portal1/members')
		const list = await screen.findByRole('list', { name: 'Members' })
		expect(within(list).getByText('Northwind')).toBeInTheDocument()
		expect(within(list).getByText('Active')).toBeInTheDocument()
		await user.click(within(list).getByRole('button', { name: 'Remove ana@northwind.com' }))
		const dialog = await screen.findByRole('alertdialog', { name: 'Remove Ana Lima?' })
		expect(calls.some((call) => call.method === 'DELETE')).toBe(false)
		await user.click(within(dialog).getByRole('button', { name: 'Remove member' }))
		expect(await screen.findByRole('heading', { name: 'No member yet' })).toBeInTheDocument()
		expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
			`${base}/invitations/m1`,
		])
	})

	test('an uploaded CSV is read in the browser and previewed before anything is sent', async () => {
		const { calls } = withMembers([])
		const { user } = renderApp(routes, '/portals/portal1/members')
		const csv = 'Email;Name;Company\n"gus@hooli.com";"Gus ""G"" Ho";"Hooli; Inc."\nbad@;Bad;Hooli'
		await user.upload(await screen.findByLabelText('CSV file'), new File([csv], 'members.csv', { type: 'text/csv' }))
		const preview = await screen.findByRole('table', { name: 'Preview of the members to invite' })
		const rows = within(preview).getAllByRole('row').slice(1)
		expect(rows.map((row) => row.textContent)).toEqual([
			'2gus@hooli.comGus "G" HoHooli; Inc.',
			'3bad@“bad@” is not an e-mail address.BadHooli',
		])
		expect(screen.getByRole('button', { name: 'Invite 1 member' })).toBeEnabled()
		expect(calls.some((call) => call.path.endsWith('/bulk_invite'))).toBe(false)
	})

	test("a member's company is changed in a dialog; an unknown company is said at the field", async () => {
		const { calls } = withMembers([member({})])
		const { user } = renderApp(routes, '/portals/portal1/members')
		const list = await screen.findByRole('list', { name: 'Members' })
		await user.click(within(list).getByRole('button', { name: 'Edit ana@northwind.com' }))
		const dialog = await screen.findByRole('dialog', { name: 'Edit ana@northwind.com' })
		const company = within(dialog).getByRole('textbox', { name: /^Company/ })
		await user.clear(company)
		await user.type(company, 'Nope Inc')
		await user.click(within(dialog).getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(company).toHaveAccessibleDescription(/No company “Nope Inc”/))
		await user.clear(company)
		await user.type(company, 'Contoso')
		await user.click(within(dialog).getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
		expect(await within(list).findByText('Contoso')).toBeInTheDocument()
		// The name was not changed, the company was: both sent as the API takes them.
		expect(calls.filter((call) => call.method === 'PATCH').at(-1)?.body).toEqual({
			name: 'Ana Lima',
			company: 'Contoso',
		})
	})
})
