import { type Form, formLimitsSchema, formNotificationsSchema, formThemeSchema } from '@blocksmith/contracts/forms.ts'
import type { OrgDetails, Role } from '@blocksmith/contracts/teams.ts'
import type { Database } from '@blocksmith/contracts/workspaces.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'

// Shared by the forms screens' tests: a form on a database with one property of most kinds,
// a fetch stand-in that answers by method and path, and a page rendered in a memory router.

export const database: Database = {
	id: 'db1',
	workspaceId: 'ws1',
	tool: 'local',
	externalId: 'db1',
	name: 'Leads',
	icon: null,
	url: null,
	properties: [
		{ id: 'name', name: 'Name', type: 'title' },
		{ id: 'email', name: 'Email', type: 'email' },
		{
			id: 'stage',
			name: 'Stage',
			type: 'select',
			options: [
				{ id: 'o1', name: 'New', color: 'blue' },
				{ id: 'o2', name: 'Won', color: 'green' },
			],
		},
		{ id: 'notes', name: 'Notes', type: 'rich_text' },
		{ id: 'due', name: 'Due', type: 'date' },
		{ id: 'created', name: 'Created', type: 'created_time' },
	],
	sync: { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 0 },
}

function field(id: string, propertyId: string, kind: Form['fields'][number]['kind'], label: string) {
	return {
		id,
		propertyId,
		kind,
		label,
		helpText: null,
		placeholder: null,
		required: propertyId === 'name',
		defaultValue: null,
		includeTime: false,
		hidden: false,
		param: null,
		fileRules: null,
	}
}

export function makeForm(changes: Partial<Form> = {}): Form {
	return {
		id: 'f1',
		name: 'Lead form',
		slug: null,
		tool: 'local',
		logic: [],
		limits: formLimitsSchema.parse({}),
		notifications: formNotificationsSchema.parse({}),
		theme: formThemeSchema.parse({}),
		themeCss: null,
		redirectUrl: null,
		redirectWithAnswers: false,
		workspaceId: 'ws1',
		databaseId: 'db1',
		databaseName: 'Leads',
		fields: [
			field('fa', 'name', 'short_text', 'Name'),
			field('fb', 'email', 'email', 'Email'),
			field('fc', 'stage', 'select', 'Stage'),
		],
		page: {
			pageTitle: 'Lead form',
			pageDescription: null,
			pageThumbnail: null,
			favicon: null,
			extras: { indexable: false },
		},
		confirmationMessage: 'Thank you!',
		submitLabel: 'Submit',
		published: false,
		acceptingResponses: true,
		closedMessage: 'Closed.',
		hasPassword: false,
		submissionsCount: 0,
		createdAt: '2026-01-01T10:00:00.000Z',
		updatedAt: '2026-01-02T10:00:00.000Z',
		...changes,
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

/** The caller's organization, as `get_org_details` answers: an owner unless a test says otherwise. */
function orgDetails(role: Role = 'owner'): OrgDetails {
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

/**
 * Answers each request with the first handler that knows it; anything else is a 404 problem.
 * The caller's organization details are answered for the handler that does not know them, with
 * `role` (owner by default): the screens hide what the role may not do.
 */
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
