import type { OrgDetails, Role } from '@blocksmith/contracts/teams.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { vi } from 'vitest'
import { renderWithUser } from './render.tsx'

// The screens' tests answer the API by method and path instead of mocking the api modules, so
// the real request code (paths, bodies, problem parsing) runs in every screen test.

export function json(body: unknown, status = 200): Response {
	return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

export function problem(status: number, code: string, detail: string, errors?: { field: string; message: string }[]) {
	return json({ type: 'about:blank', title: code, status, code, detail, ...(errors ? { errors } : {}) }, status)
}

type Call = { method: string; path: string; search: URLSearchParams; body: unknown }
type Handler = (call: Call) => Response | Promise<Response> | undefined

/** The caller's organization: on its trial (of Pro, with no end date) unless `changes` say otherwise. */
export function makeOrgDetails(role: Role, changes: Partial<OrgDetails> = {}): OrgDetails {
	return {
		id: 'org1',
		name: 'Acme',
		slug: 'acme',
		role,
		membersCount: 2,
		plan: 'pro',
		planName: 'Pro',
		subscriptionState: 'trialing',
		pauseReason: null,
		trialEndsAt: null,
		createdAt: '2026-01-01T10:00:00.000Z',
		deletion: null,
		...changes,
	}
}

/**
 * Answers each request with the handler; anything else is a 404 problem. The caller's
 * organization details are answered for a handler that does not know them, with `role` (owner by
 * default) and `org` changes: the screens hide what the role may not do, and the billing screens
 * follow the subscription's state.
 */
export function mockApi(handler: Handler, { role = 'owner', org }: { role?: Role; org?: Partial<OrgDetails> } = {}) {
	const calls: Call[] = []
	const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
		const url = new URL(input, 'http://localhost')
		const call: Call = {
			method: init.method ?? 'GET',
			path: url.pathname,
			search: url.searchParams,
			body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
		}
		calls.push(call)
		const answer = await handler(call)
		if (!answer && call.path === '/dashboard/users/get_org_details') {
			return json(makeOrgDetails(role, org))
		}
		return answer ?? problem(404, 'NOT_FOUND', `No mock for ${call.method} ${call.path}`)
	})
	vi.stubGlobal('fetch', fetchMock)
	return { calls, fetchMock }
}

/** Renders one page at `path` in a memory router with a fresh query client. */
export function renderPage(Component: ComponentType, routePath: string, path: string) {
	const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
	const router = createMemoryRouter(
		[
			{ path: routePath, Component },
			{ path: '*', Component: () => null },
		],
		{ initialEntries: [path] },
	)
	const rendered = renderWithUser(
		<QueryClientProvider client={queryClient}>
			<RouterProvider router={router} />
		</QueryClientProvider>,
	)
	return { ...rendered, router, queryClient }
}
