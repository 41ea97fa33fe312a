import type { Portal, PortalDatabaseOption, PortalRule } from '@blocksmith/contracts/portals.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'

// The portal screens' tests: the sample workspace's databases as fetch_public_databases answers
// them, and a saved portal.

const prop = (id: string, name: string, type: Property['type'], extra: Partial<Property> = {}): Property => ({
	id,
	name,
	type,
	...extra,
})

/** The sample's databases; the rules follow whether a companies database is chosen (as the server's do). */
export function sampleDatabases({ companiesDatabaseId }: { companiesDatabaseId?: string | null } = {}) {
	const company = (property: string): PortalRule[] =>
		companiesDatabaseId === 'db-clients' ? [{ kind: 'company', property }] : []
	const databases: PortalDatabaseOption[] = [
		{
			id: 'db-clients',
			workspaceId: 'ws1',
			name: 'Clients',
			icon: null,
			rowCount: 6,
			properties: [
				prop('p-name', 'Name', 'title'),
				prop('p-email', 'Email', 'email'),
				prop('p-manager', 'Account manager', 'people'),
			],
			suggestedRules: [
				...(companiesDatabaseId === 'db-clients' ? [{ kind: 'company_row' } as const] : []),
				{ kind: 'email', property: 'p-email' },
				{ kind: 'person', property: 'p-manager' },
			],
		},
		{
			id: 'db-projects',
			workspaceId: 'ws1',
			name: 'Projects',
			icon: null,
			rowCount: 12,
			properties: [
				prop('p-title', 'Name', 'title'),
				prop('p-client', 'Client', 'relation', { relationDatabaseId: 'db-clients' }),
				prop('p-status', 'Status', 'status', { options: [] }),
				prop('p-budget', 'Budget', 'number'),
				prop('p-timeline', 'Timeline', 'date'),
				prop('p-owner', 'Owner', 'people'),
			],
			suggestedRules: [...company('p-client'), { kind: 'person', property: 'p-owner' }],
		},
		{
			id: 'db-invoices',
			workspaceId: 'ws1',
			name: 'Invoices',
			icon: null,
			rowCount: 9,
			properties: [
				prop('i-number', 'Number', 'title'),
				prop('i-client', 'Client', 'relation', { relationDatabaseId: 'db-clients' }),
				prop('i-amount', 'Amount', 'number'),
				prop('i-status', 'Status', 'select', { options: [] }),
				prop('i-files', 'Attachments', 'files'),
			],
			suggestedRules: company('i-client'),
		},
		{
			id: 'db-enquiries',
			workspaceId: 'ws1',
			name: 'Enquiries',
			icon: null,
			rowCount: 4,
			properties: [
				prop('e-name', 'Name', 'title'),
				prop('e-client', 'Client', 'relation', { relationDatabaseId: 'db-clients' }),
				prop('e-email', 'Email', 'email'),
			],
			suggestedRules: [...company('e-client'), { kind: 'email', property: 'e-email' }],
		},
		{
			id: 'db-time',
			workspaceId: 'ws1',
			name: 'Time entries',
			icon: null,
			rowCount: 40,
			properties: [prop('t-task', 'Task', 'title'), prop('t-hours', 'Hours', 'number')],
			suggestedRules: [],
		},
	]
	return databases
}

export function makePortal(changes: Partial<Portal> = {}): Portal {
	return {
		id: 'portal1',
		tool: 'local',
		name: 'Acme',
		slug: 'acme',
		customDomain: null,
		isEnabled: true,
		url: 'http://localhost:3000/p/acme',
		logoUrl: null,
		membersCount: 2,
		branding: { logoBlobId: null, accentColor: '#2563eb', backgroundColor: null, theme: 'system', welcome: '' },
		access: {
			companiesDatabaseId: 'db-clients',
			membersDatabaseId: null,
			membersEmailProperty: null,
			allowPasswords: true,
		},
		pages: [
			{
				id: 'projects',
				title: 'Projects',
				databaseId: 'db-projects',
				properties: ['p-status', 'p-budget'],
				view: 'table',
				groupBy: null,
				coverProperty: null,
				sort: [],
				filterable: ['p-status'],
				isSearchable: true,
				rule: { kind: 'company', property: 'p-client' },
				showContent: true,
			},
		],
		forms: [],
		showInvoices: false,
		charts: [],
		createdAt: '2026-11-26T10:00:00.000Z',
		updatedAt: '2026-11-26T10:00:00.000Z',
		...changes,
	}
}

export const emptyTimer = { databases: [], lastSyncedAt: null, nextSyncAt: null, isRunning: false }
