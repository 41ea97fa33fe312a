import type { Role } from '@blocksmith/contracts/teams.ts'
import type { Database, Workspace } from '@blocksmith/contracts/workspaces.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { describe, expect, test, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { WorkspacePanel } from './workspace-panel.tsx'

// Removing a workspace and deleting a database are for owners and admins (the server refuses
// members with 403): a member sees who can, instead of the buttons.

const workspace: Workspace = {
	id: 'ws1',
	tool: 'local',
	name: 'Team data',
	icon: null,
	status: 'connected',
	databasesCount: 1,
	createdAt: '2026-01-01T10:00:00.000Z',
}

const leads: Database = {
	id: 'db1',
	workspaceId: 'ws1',
	tool: 'local',
	externalId: 'db1',
	name: 'Leads',
	icon: null,
	url: null,
	properties: [{ id: 'title', name: 'Name', type: 'title' }],
	sync: { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 3 },
}

function json(body: unknown): Response {
	return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
}

function renderPanelAs(role: Role) {
	vi.stubGlobal(
		'fetch',
		vi.fn(async (input: string) => {
			const path = new URL(input, 'http://localhost').pathname
			if (path === '/dashboard/users/get_org_details') {
				return json({
					id: 'org1',
					name: 'Acme',
					slug: 'acme',
					role,
					membersCount: 3,
					plan: 'pro',
					planName: 'Pro',
					subscriptionState: 'trialing',
					pauseReason: null,
					trialEndsAt: null,
					createdAt: '2026-01-01T10:00:00.000Z',
					deletion: null,
				})
			}
			if (path === '/dashboard/local/databases') {
				return json([leads])
			}
			return json([])
		}),
	)
	const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
	return renderWithUser(
		<QueryClientProvider client={queryClient}>
			<MemoryRouter>
				<WorkspacePanel workspace={workspace} onDisconnected={() => undefined} />
			</MemoryRouter>
		</QueryClientProvider>,
	)
}

describe('the workspace panel by role', () => {
	test('a member builds (new database, import) but sees who can delete the workspace and its databases', async () => {
		renderPanelAs('member')
		expect(await screen.findByText('Only an owner or admin can delete this workspace.')).toBeInTheDocument()
		const table = await screen.findByRole('table', { name: 'Databases of Team data' })
		expect(screen.getByText('Only an owner or admin can delete a database.')).toBeInTheDocument()
		expect(within(table).queryByRole('button', { name: 'Delete Leads' })).not.toBeInTheDocument()
		expect(screen.queryByRole('button', { name: /^(Disconnect|Delete)$/ })).not.toBeInTheDocument()
		expect(screen.getByRole('button', { name: 'New database' })).toBeEnabled()
	})

	test.each(['admin', 'owner'] as const)('an %s has the buttons, and no notice', async (role) => {
		renderPanelAs(role)
		const table = await screen.findByRole('table', { name: 'Databases of Team data' })
		expect(await within(table).findByRole('button', { name: 'Delete Leads' })).toBeInTheDocument()
		expect(screen.getByRole('button', { name: /^(Disconnect|Delete)$/ })).toBeInTheDocument()
		expect(screen.queryByText(/Only an owner or admin/)).not.toBeInTheDocument()
	})
})
