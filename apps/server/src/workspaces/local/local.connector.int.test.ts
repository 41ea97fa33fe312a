import { eq } from 'drizzle-orm'
import { afterAll, beforeAll } from 'vitest'
import { type ContractSetup, describeConnectorContract } from '#src/test/connector-contract.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { workspaces } from '../workspaces.schema.ts'

let t: TestApp
beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

async function setup(): Promise<ContractSetup> {
	const account = await t.signUp()
	const token = account.token
	const workspace = await t.request('POST', '/dashboard/workspaces', {
		token,
		json: { tool: 'local', name: 'Contract' },
	})
	const workspaceId = workspace.body.workspace.id as string
	const companies = await t.request('POST', '/dashboard/local/databases', {
		token,
		json: { workspaceId, name: 'Companies', properties: [{ name: 'Name', type: 'title' }] },
	})
	const targets = await Promise.all(
		['Acme', 'Globex'].map((name) =>
			t.request('POST', `/dashboard/local/databases/${companies.body.id}/rows`, {
				token,
				json: { values: { title: name } },
			}),
		),
	)
	const created = await t.request('POST', '/dashboard/local/databases', {
		token,
		json: {
			workspaceId,
			name: 'Deals',
			properties: [
				{ name: 'Name', type: 'title' },
				{ name: 'Notes', type: 'rich_text' },
				{ name: 'Value', type: 'number', format: 'dollar' },
				{ name: 'Kind', type: 'select', options: [{ name: 'New' }, { name: 'Renewal' }] },
				{ name: 'Tags', type: 'multi_select', options: [{ name: 'hot' }, { name: 'cold' }] },
				{ name: 'Stage', type: 'status', options: [{ name: 'Open' }, { name: 'Won' }] },
				{ name: 'Close', type: 'date' },
				{ name: 'Signed', type: 'checkbox' },
				{ name: 'Link', type: 'url' },
				{ name: 'Email', type: 'email' },
				{ name: 'Phone', type: 'phone_number' },
				{ name: 'Owner', type: 'people' },
				{ name: 'Files', type: 'files' },
				{ name: 'Company', type: 'relation', relationDatabaseId: companies.body.id },
			],
		},
	})
	const [record] = await t.db.select().from(workspaces).where(eq(workspaces.id, workspaceId))
	if (!record) {
		throw new Error('workspace not stored')
	}
	return {
		connector: t.services.workspaces.deps.connectors.for(record),
		database: {
			externalId: created.body.id,
			name: 'Deals',
			icon: null,
			url: null,
			properties: created.body.properties,
		},
		relationTargets: [targets[0]?.body.id, targets[1]?.body.id],
		personId: account.userId,
		// Edits are stamped to the millisecond.
		tick: () => new Promise((resolve) => setTimeout(resolve, 5)),
	}
}

describeConnectorContract('local', setup)
