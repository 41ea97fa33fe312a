import {
	type Chart,
	type ChartConfigInput,
	type ChartRender,
	chartConfigSchema,
	chartEmbedSchema,
} from '@blocksmith/contracts/charts.ts'
import type { OrgDetails, Role } from '@blocksmith/contracts/teams.ts'
import type { Database, Workspace } from '@blocksmith/contracts/workspaces.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'

// Shared by the charts screens' tests: a database with properties of the kinds a chart cares
// about, charts on it, a fetch stand-in that answers by method and path, and a page rendered in
// a memory router (as the forms tests do).

export const workspace: Workspace = {
	id: 'ws1',
	tool: 'local',
	name: 'Sample workspace',
	icon: null,
	status: 'connected',
	databasesCount: 1,
	createdAt: '2026-01-01T10:00:00.000Z',
}

export const database: Database = {
	id: 'db1',
	workspaceId: 'ws1',
	tool: 'local',
	externalId: 'db1',
	name: 'Deals',
	icon: null,
	url: null,
	properties: [
		{ id: 'name', name: 'Name', type: 'title' },
		{ id: 'amount', name: 'Amount', type: 'number' },
		{
			id: 'stage',
			name: 'Stage',
			type: 'select',
			options: [
				{ id: 'o1', name: 'New', color: 'blue' },
				{ id: 'o2', name: 'Won', color: 'green' },
			],
		},
		{ id: 'closed', name: 'Closed on', type: 'date' },
		{ id: 'weighted', name: 'Weighted', type: 'formula', resultType: 'number' },
		{ id: 'owner_name', name: 'Owner name', type: 'formula', resultType: 'string' },
	],
	sync: { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 3 },
}

export function makeConfig(input: ChartConfigInput = {}) {
	return chartConfigSchema.parse({ x: { property: 'stage' }, timeZone: 'UTC', ...input })
}

export function makeChart(changes: Partial<Chart> = {}): Chart {
	return {
		id: 'c1',
		name: 'Deals by stage',
		tool: 'local',
		workspaceId: 'ws1',
		databaseId: 'db1',
		databaseName: 'Deals',
		config: makeConfig(),
		embed: chartEmbedSchema.parse({}),
		published: false,
		problems: [],
		createdAt: '2026-01-01T10:00:00.000Z',
		updatedAt: '2026-01-02T10:00:00.000Z',
		...changes,
	}
}

export function makeRender(
	changes: Partial<ChartRender['figures']> = {},
	svg = '<svg role="img" aria-label="Drawn chart"></svg>',
): ChartRender {
	return {
		figures: {
			type: 'bar',
			xKind: 'category',
			categories: [
				{ key: 'New', label: 'New' },
				{ key: 'Won', label: 'Won' },
			],
			series: [
				{ key: 's1', name: 'Count', seriesId: 's1', group: null, isOther: false, isComparison: false, values: [2, 1] },
			],
			rowCount: 3,
			isTruncated: false,
			problems: [],
			computedAt: '2026-01-02T10:00:00.000Z',
			...changes,
		},
		svg,
	}
}

export function json(body: unknown, status = 200): Response {
	return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

export function problem(status: number, code: string, detail: string, errors?: { field: string; message: string }[]) {
	return json({ type: 'about:blank', title: code, status, code, detail, ...(errors ? { errors } : {}) }, status)
}

type Call = { method: string; path: string; search: URLSearchParams; body: unknown }
type Handler = (call: Call) => Response | Promise<Response> | undefined

function orgDetails(role: Role): OrgDetails {
	return {
		id: 'org1',
		name: 'Acme',
		slug: 'acme',
		role,
		membersCount: 2,
		plan: 'trial',
		subscriptionState: 'trialing',
		trialEndsAt: null,
		createdAt: '2026-01-01T10:00:00.000Z',
	}
}

/** Answers each request with the handler, else a 404 problem (the organization's details aside). */
export function mockApi(handler: Handler, { role = 'owner' }: { role?: Role } = {}) {
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
			return json(orgDetails(role))
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
