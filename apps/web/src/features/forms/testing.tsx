import {
	type Form,
	formFieldSchema,
	formLayoutSchema,
	formLimitsSchema,
	formNotificationsSchema,
	formThemeSchema,
} from '@blocksmith/contracts/forms.ts'
import type { Database } from '@blocksmith/contracts/workspaces.ts'

// Shared by the forms screens' tests: a form on a database with one property of most kinds
// (the API stand-in is #src/test/mock-api.tsx).

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

/** A field with the contract's defaults for everything not given. */
export function makeField(
	changes: Partial<Form['fields'][number]> & Pick<Form['fields'][number], 'id' | 'kind' | 'label'>,
) {
	return formFieldSchema.parse(changes)
}

function field(id: string, propertyId: string, kind: Form['fields'][number]['kind'], label: string) {
	return makeField({ id, propertyId, kind, label, required: propertyId === 'name' })
}

export function makeForm(changes: Partial<Form> = {}): Form {
	return {
		id: 'f1',
		name: 'Lead form',
		slug: null,
		tool: 'local',
		logic: [],
		layout: formLayoutSchema.parse({}),
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
