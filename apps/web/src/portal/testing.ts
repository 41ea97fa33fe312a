import type { PortalMe, PortalPublicInfo, PortalRow, PortalRows } from '@blocksmith/contracts/portals.ts'
import { vi } from 'vitest'

// What the portal's tests share: a stubbed fetch that records calls, and a portal, a member and a
// page of rows as the server would send them.

export type Call = { method: string; path: string; url: URL; body: unknown; authorization: string | null }

export function json(status: number, body: unknown) {
	return new Response(status === 204 ? null : JSON.stringify(body), {
		status,
		headers: { 'content-type': 'application/json' },
	})
}

export function problem(status: number, code: string, detail: string) {
	return json(status, { type: 'about:blank', title: code, status, code, detail })
}

/** Stubs fetch with `handler`; returns every call made, bodies parsed. */
export function mockFetch(handler: (call: Call) => Response | Promise<Response>) {
	const calls: Call[] = []
	vi.stubGlobal(
		'fetch',
		vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
			const url = new URL(String(input), 'http://localhost')
			const headers = new Headers(init?.headers)
			const call: Call = {
				method: init?.method ?? 'GET',
				path: url.pathname,
				url,
				body: init?.body ? JSON.parse(String(init.body)) : undefined,
				authorization: headers.get('authorization'),
			}
			calls.push(call)
			return handler(call)
		}),
	)
	return calls
}

export const info: PortalPublicInfo = {
	slug: 'acme',
	name: 'Acme Studio',
	logoUrl: null,
	accentColor: '#16a34a',
	backgroundColor: null,
	theme: 'light',
	welcome: 'Your projects with us.',
	allowPasswords: true,
	basePath: '/p/acme',
}

export const me: PortalMe = {
	member: { id: 'm1', email: 'ana@client.example', name: 'Ana', companyName: 'Globex', hasPassword: false },
	pages: [
		{ id: 'projects', title: 'Projects', view: 'table' },
		{ id: 'invoices', title: 'Invoices', view: 'list' },
	],
	forms: [],
	charts: [],
	hasInvoices: false,
	lastSyncedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
}

const statusOptions = [
	{ id: 'o1', name: 'Planned', color: 'gray' as const },
	{ id: 'o2', name: 'Active', color: 'blue' as const },
	{ id: 'o3', name: 'Done', color: 'green' as const },
]

export function rowsPage(overrides: Partial<PortalRows['page']> = {}): PortalRows['page'] {
	return {
		id: 'projects',
		title: 'Projects',
		view: 'table',
		groupBy: null,
		coverProperty: null,
		properties: [
			{ id: 'title', name: 'Name', type: 'title' },
			{ id: 'status', name: 'Status', type: 'status', options: statusOptions },
			{ id: 'budget', name: 'Budget', type: 'number' },
			{ id: 'client', name: 'Client', type: 'relation' },
			{ id: 'files', name: 'Files', type: 'files' },
			{ id: 'due', name: 'Due', type: 'date' },
		],
		filterable: ['status', 'due'],
		isSearchable: true,
		...overrides,
	}
}

export function row(id: string, title: string, status: string | null): PortalRow {
	return {
		id,
		title,
		cells: {
			status: status ? { kind: 'options', options: [{ name: status, color: 'blue' }] } : { kind: 'empty' },
			budget: { kind: 'number', value: 1200, text: '$1,200.00' },
			client: { kind: 'relation', rows: [{ pageId: 'clients', rowId: 'c1', title: 'Globex' }] },
			files: {
				kind: 'files',
				files: [{ name: 'brief.png', url: `/api/portal/acme/files/${id}`, isImage: true }],
			},
			due: { kind: 'date', start: '2026-12-01', end: null, text: 'Dec 1, 2026' },
		},
	}
}

export function rows(overrides: Partial<PortalRows> = {}, page: Partial<PortalRows['page']> = {}): PortalRows {
	return {
		page: rowsPage(page),
		rows: [row('r1', 'Website redesign', 'Active'), row('r2', 'Brand book', 'Done')],
		nextCursor: null,
		lastSyncedAt: null,
		...overrides,
	}
}
