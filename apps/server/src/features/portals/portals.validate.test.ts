import { portalSetupInputSchema } from '@blocksmith/contracts/portals.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { describe, expect, test } from 'vitest'
import { type SetupFacts, setupErrors } from './portals.validate.ts'

// The pure checks of a setup against its databases' properties, for the property types the
// sample workspace has none of (formulas, created by, last edited by).

const tasks = {
	id: 'db-tasks',
	workspaceId: 'ws',
	tool: 'notion' as const,
	name: 'Tasks',
	properties: [
		{ id: 'title', name: 'Name', type: 'title' },
		{ id: 'f-text', name: 'Contact', type: 'formula' },
		{ id: 'f-string', name: 'Contact (text)', type: 'formula', resultType: 'string' },
		{ id: 'f-number', name: 'Score', type: 'formula', resultType: 'number' },
		{ id: 'creator', name: 'Created by', type: 'created_by' },
		{ id: 'editor', name: 'Last edited by', type: 'last_edited_by' },
		{ id: 'phone', name: 'Phone', type: 'phone_number' },
		{ id: 'status', name: 'Status', type: 'status' },
	] as Property[],
}

const facts: SetupFacts = {
	databases: new Map([[tasks.id, tasks]]),
	anyDatabases: new Map([[tasks.id, tasks]]),
	forms: new Map(),
	charts: new Map(),
	logo: null,
}

function errorsFor(rule: Record<string, unknown>, page: Record<string, unknown> = {}) {
	const setup = portalSetupInputSchema.parse({
		name: 'Portal',
		slug: 'tasks-portal',
		pages: [{ id: 'tasks', title: 'Tasks', databaseId: tasks.id, properties: [], rule, ...page }],
	})
	return setupErrors(setup, facts).map((error) => error.field)
}

describe('rule properties', () => {
	test('an e-mail rule takes text and formulas not known to be other than text; never a phone or a number', () => {
		for (const property of ['title', 'f-text', 'f-string']) {
			expect(errorsFor({ kind: 'email', property }), property).toEqual([])
		}
		for (const property of ['f-number', 'phone', 'status']) {
			expect(errorsFor({ kind: 'email', property }), property).toEqual(['pages.0.rule.property'])
		}
	})

	test('a person rule takes created by and last edited by too', () => {
		expect(errorsFor({ kind: 'person', property: 'creator' })).toEqual([])
		expect(errorsFor({ kind: 'person', property: 'editor' })).toEqual([])
		expect(errorsFor({ kind: 'person', property: 'title' })).toEqual(['pages.0.rule.property'])
	})

	test('everyone needs nothing; a board by status is fine; sorting by the row times is fine', () => {
		expect(
			errorsFor(
				{ kind: 'everyone' },
				{
					view: 'board',
					groupBy: 'status',
					sort: [{ property: 'last_edited_time' }, { property: 'created_time', direction: 'descending' }],
				},
			),
		).toEqual([])
	})
})
