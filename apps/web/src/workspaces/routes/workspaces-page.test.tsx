import type { Database, Workspace } from '@blocksmith/contracts/workspaces.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { expect, test, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { WorkspacesPage } from './workspaces-page.tsx'

const sample: Workspace = {
	id: 'ws1',
	tool: 'local',
	name: 'Sample workspace',
	icon: null,
	status: 'connected',
	databasesCount: 4,
	createdAt: new Date().toISOString(),
}

function database(id: string, name: string, rowCount: number): Database {
	return {
		id,
		workspaceId: 'ws1',
		tool: 'local',
		externalId: id,
		name,
		icon: null,
		url: null,
		properties: [{ id: 'title', name: 'Name', type: 'title' }],
		sync: { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount },
	}
}

function json(body: unknown, status = 200): Response {
	return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

test('a new user sees the empty state and gets a sample workspace in one click', async () => {
	let workspaces: Workspace[] = []
	const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
		const method = init.method ?? 'GET'
		if (url === '/dashboard/workspaces' && method === 'GET') {
			return json(workspaces)
		}
		if (url === '/dashboard/workspaces/sample' && method === 'POST') {
			workspaces = [sample]
			return json({ workspace: sample }, 201)
		}
		if (url === '/dashboard/local/databases?workspaceId=ws1') {
			return json([database('d1', 'Clients', 12), database('d2', 'Projects', 30)])
		}
		return json({ type: 'about:blank', title: 'Not found', status: 404, code: 'NOT_FOUND', detail: 'No.' }, 404)
	})
	vi.stubGlobal('fetch', fetchMock)
	const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
	const router = createMemoryRouter([{ path: '/workspaces', Component: WorkspacesPage }], {
		initialEntries: ['/workspaces'],
	})
	const { user } = renderWithUser(
		<QueryClientProvider client={queryClient}>
			<RouterProvider router={router} />
		</QueryClientProvider>,
	)

	expect(await screen.findByRole('heading', { name: 'Start with data' })).toBeInTheDocument()
	expect(screen.getByRole('button', { name: 'Connect Notion' })).toBeInTheDocument()
	await user.click(screen.getByRole('button', { name: 'Create a sample workspace' }))

	await waitFor(() =>
		expect(fetchMock).toHaveBeenCalledWith('/dashboard/workspaces/sample', expect.objectContaining({ method: 'POST' })),
	)
	expect(await screen.findByRole('heading', { name: 'Sample workspace' })).toBeInTheDocument()
	expect(await screen.findByRole('link', { name: 'Clients' })).toHaveAttribute('href', '/workspaces/ws1/databases/d1')
	expect(screen.getByRole('link', { name: 'Projects' })).toBeInTheDocument()
	expect(router.state.location.search).toBe('?workspace=ws1')
	router.dispose()
})

test('coming back from Notion with an error says so', async () => {
	const { toast } = await import('sonner')
	const error = vi.spyOn(toast, 'error')
	vi.stubGlobal(
		'fetch',
		vi.fn(async () => json([])),
	)
	const router = createMemoryRouter([{ path: '/workspaces', Component: WorkspacesPage }], {
		initialEntries: ['/workspaces?error=access_denied'],
	})
	renderWithUser(
		<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
			<RouterProvider router={router} />
		</QueryClientProvider>,
	)
	await waitFor(() => expect(error).toHaveBeenCalledWith('Notion was not connected: access_denied'))
	await waitFor(() => expect(router.state.location.search).toBe(''))
	router.dispose()
})
