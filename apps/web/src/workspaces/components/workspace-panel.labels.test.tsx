import type { Workspace, WorkspaceWrite } from '@blocksmith/contracts/workspaces.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { expect, test, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { WorkspacePanel } from './workspace-panel.tsx'

// What the panel calls things: a built-in workspace is deleted, a Notion one disconnected; a
// delivery names the form (or member) it came from, not `form:<id>`.

const base: Workspace = {
	id: 'ws1',
	tool: 'local',
	name: 'Sample workspace',
	icon: null,
	status: 'connected',
	databasesCount: 0,
	createdAt: '2026-01-01T10:00:00.000Z',
}

const write: WorkspaceWrite = {
	id: 'w1',
	workspaceId: 'ws1',
	databaseId: 'db1',
	kind: 'create',
	rowId: null,
	values: {},
	state: 'delivered',
	attempts: 1,
	lastError: null,
	source: 'form:0a3abf19-f9e6-4a4f-9510-354d3a8d4942',
	sourceLabel: 'Contact us',
	createdAt: '2026-01-01T10:00:00.000Z',
	deliveredAt: '2026-01-01T10:00:01.000Z',
	nextAttemptAt: null,
}

function json(body: unknown): Response {
	return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
}

function renderPanel(workspace: Workspace) {
	vi.stubGlobal(
		'fetch',
		vi.fn(async (input: string) => {
			const path = new URL(input, 'http://localhost').pathname
			if (path === '/dashboard/users/get_org_details') {
				return json({
					id: 'org1',
					name: 'Acme',
					slug: 'acme',
					role: 'owner',
					membersCount: 1,
					plan: 'pro',
					planName: 'Pro',
					subscriptionState: 'trialing',
					pauseReason: null,
					trialEndsAt: null,
					createdAt: '2026-01-01T10:00:00.000Z',
					deletion: null,
				})
			}
			if (path === `/dashboard/workspaces/${workspace.id}/writes`) {
				return json([write, { ...write, id: 'w2', source: 'user:u1', sourceLabel: 'Ada Lovelace' }])
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

test('a built-in workspace offers Delete, a Notion one Disconnect', async () => {
	const { unmount } = renderPanel(base)
	expect(await screen.findByRole('button', { name: 'Delete' })).toBeInTheDocument()
	expect(screen.queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument()
	unmount()
	renderPanel({ ...base, id: 'ws2', tool: 'notion', name: 'Acme Notion' })
	expect(await screen.findByRole('button', { name: 'Disconnect' })).toBeInTheDocument()
	expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
})

test('deliveries name the form and the member they came from', async () => {
	const { user } = renderPanel(base)
	await user.click(await screen.findByRole('tab', { name: /Deliveries/ }))
	expect(await screen.findByText('from the form Contact us')).toBeInTheDocument()
	expect(screen.getByText('by Ada Lovelace')).toBeInTheDocument()
	expect(screen.queryByText(/form:/)).not.toBeInTheDocument()
})
