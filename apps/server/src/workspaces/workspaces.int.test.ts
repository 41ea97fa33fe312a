import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { publicReadLimit } from './workspaces.routes.ts'
import { workspaces } from './workspaces.schema.ts'

let t: TestApp
beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

type Property = { id: string; name: string; type: string; options?: { name: string }[] }
type Database = { id: string; name: string; properties: Property[]; sync: { rowCount: number } }

function prop(database: Database, name: string): string {
	const property = database.properties.find((p) => p.name === name)
	if (!property) {
		throw new Error(`no property ${name}`)
	}
	return property.id
}

async function localWorkspace(token: string, name = 'Mine') {
	const response = await t.request('POST', '/dashboard/workspaces', { token, json: { tool: 'local', name } })
	expect(response.status).toBe(201)
	return response.body.workspace as { id: string }
}

/** A local database with one property of every writable type. */
async function everyTypeDatabase(token: string) {
	const workspace = await localWorkspace(token)
	const other = await t.request('POST', '/dashboard/local/databases', {
		token,
		json: { workspaceId: workspace.id, name: 'Companies', properties: [{ name: 'Name', type: 'title' }] },
	})
	expect(other.status).toBe(201)
	const created = await t.request('POST', '/dashboard/local/databases', {
		token,
		json: {
			workspaceId: workspace.id,
			name: 'Everything',
			properties: [
				{ name: 'Name', type: 'title' },
				{ name: 'Notes', type: 'rich_text' },
				{ name: 'Amount', type: 'number', format: 'euro' },
				{ name: 'Kind', type: 'select', options: [{ name: 'A' }, { name: 'B' }] },
				{ name: 'Tags', type: 'multi_select', options: [{ name: 'x' }, { name: 'y' }] },
				{ name: 'Stage', type: 'status', options: [{ name: 'Todo' }, { name: 'Doing' }, { name: 'Done' }] },
				{ name: 'When', type: 'date' },
				{ name: 'Done', type: 'checkbox' },
				{ name: 'Site', type: 'url' },
				{ name: 'Mail', type: 'email' },
				{ name: 'Phone', type: 'phone_number' },
				{ name: 'Owner', type: 'people' },
				{ name: 'Files', type: 'files' },
				{ name: 'Company', type: 'relation', relationDatabaseId: other.body.id },
			],
		},
	})
	expect(created.status).toBe(201)
	return { workspace, database: created.body as Database, companies: other.body as Database }
}

describe('local databases', () => {
	test('a row of every property type is stored, read back, edited and listed', async () => {
		const account = await t.signUp()
		const { database, companies } = await everyTypeDatabase(account.token)
		const company = await t.request('POST', `/dashboard/local/databases/${companies.id}/rows`, {
			token: account.token,
			json: { values: { title: 'Acme' } },
		})
		expect(company.status).toBe(201)
		const values = {
			[prop(database, 'Name')]: 'First',
			[prop(database, 'Notes')]: 'x'.repeat(5000),
			[prop(database, 'Amount')]: 12.5,
			[prop(database, 'Kind')]: 'B',
			[prop(database, 'Tags')]: ['x', 'y'],
			[prop(database, 'Stage')]: 'Doing',
			[prop(database, 'When')]: {
				start: '2026-03-01T09:00:00+01:00',
				end: '2026-03-01T11:00:00+01:00',
				timeZone: 'Europe/Paris',
			},
			[prop(database, 'Done')]: true,
			[prop(database, 'Site')]: 'https://example.com',
			[prop(database, 'Mail')]: 'a@example.com',
			[prop(database, 'Phone')]: '+33 1 23 45 67 89',
			[prop(database, 'Owner')]: [account.userId],
			[prop(database, 'Files')]: [{ name: 'spec.pdf', url: 'https://example.com/spec.pdf' }],
			[prop(database, 'Company')]: [company.body.id],
		}
		const created = await t.request('POST', `/dashboard/local/databases/${database.id}/rows`, {
			token: account.token,
			json: { values },
		})
		expect(created.status).toBe(201)
		expect(created.body.title).toBe('First')
		expect(created.body.values[prop(database, 'Files')]).toEqual([
			{ name: 'spec.pdf', url: 'https://example.com/spec.pdf', blobId: null },
		])
		const edited = await t.request('PATCH', `/dashboard/local/databases/${database.id}/rows/${created.body.id}`, {
			token: account.token,
			json: { values: { [prop(database, 'Amount')]: 99, [prop(database, 'Name')]: 'Renamed' } },
		})
		expect(edited.status).toBe(200)
		expect(edited.body.values[prop(database, 'Amount')]).toBe(99)
		expect(edited.body.values[prop(database, 'Kind')]).toBe('B')
		expect(edited.body.title).toBe('Renamed')
		const page = await t.request('GET', `/dashboard/local/databases/${database.id}/rows`, { token: account.token })
		expect(page.body.total).toBe(1)
		expect(page.body.rows[0].values).toMatchObject({
			...values,
			[prop(database, 'Amount')]: 99,
			[prop(database, 'Name')]: 'Renamed',
		})
	})

	test('bad values get a 400 that names each property, and nothing is stored', async () => {
		const account = await t.signUp()
		const { database } = await everyTypeDatabase(account.token)
		const cases: [string, unknown][] = [
			['Amount', 'twelve'],
			['Kind', 'C'],
			['Tags', ['x', 'nope']],
			['Stage', 'Unknown'],
			['When', '2026-13-45'],
			['Done', 'yes'],
			['Site', 'not a url'],
			['Mail', 'nobody'],
			['Phone', 'call me'],
			['Owner', ['someone-else']],
			['Files', [{ name: 'x' }]],
			['Company', ['no-such-row']],
			['Notes', 'x'.repeat(200_001)],
		]
		for (const [name, value] of cases) {
			const response = await t.request('POST', `/dashboard/local/databases/${database.id}/rows`, {
				token: account.token,
				json: { values: { [prop(database, name)]: value } },
			})
			expect(response.status, name).toBe(400)
			expect(response.body.errors?.[0]?.field, name).toBe(`values.${prop(database, name)}`)
			expect(response.body.detail, name).toContain(name)
		}
		const unknown = await t.request('POST', `/dashboard/local/databases/${database.id}/rows`, {
			token: account.token,
			json: { values: { nope: 1 } },
		})
		expect(unknown.status).toBe(400)
		const page = await t.request('GET', `/dashboard/local/databases/${database.id}/rows`, { token: account.token })
		expect(page.body.total).toBe(0)
	})

	test('a new database can relate to itself', async () => {
		const account = await t.signUp()
		const workspace = await localWorkspace(account.token)
		const created = await t.request('POST', '/dashboard/local/databases', {
			token: account.token,
			json: {
				workspaceId: workspace.id,
				name: 'Tasks',
				properties: [
					{ name: 'Name', type: 'title' },
					{ name: 'Parent', type: 'relation', relationDatabaseId: 'self' },
				],
			},
		})
		expect(created.status).toBe(201)
		const parent = created.body.properties.find((p: Property) => p.name === 'Parent')
		expect(parent.relationDatabaseId).toBe(created.body.id)
		const top = await t.request('POST', `/dashboard/local/databases/${created.body.id}/rows`, {
			token: account.token,
			json: { values: { title: 'Top' } },
		})
		const child = await t.request('POST', `/dashboard/local/databases/${created.body.id}/rows`, {
			token: account.token,
			json: { values: { title: 'Child', [parent.id]: [top.body.id] } },
		})
		expect(child.status).toBe(201)
	})

	test('a batch import is all or nothing, and the row count follows', async () => {
		const account = await t.signUp()
		const { database } = await everyTypeDatabase(account.token)
		const bad = await t.request('POST', `/dashboard/local/databases/${database.id}/rows/batch`, {
			token: account.token,
			json: { rows: [{ values: { title: 'ok' } }, { values: { [prop(database, 'Amount')]: 'bad' } }] },
		})
		expect(bad.status).toBe(400)
		expect(bad.body.errors[0].field).toBe(`rows.1.values.${prop(database, 'Amount')}`)
		const rows = Array.from({ length: 1000 }, (_, i) => ({
			values: { title: `Row ${i}`, [prop(database, 'Amount')]: i },
		}))
		const good = await t.request('POST', `/dashboard/local/databases/${database.id}/rows/batch`, {
			token: account.token,
			json: { rows },
		})
		expect(good.status).toBe(201)
		expect(good.body.created).toBe(1000)
		const tooMany = await t.request('POST', `/dashboard/local/databases/${database.id}/rows/batch`, {
			token: account.token,
			json: { rows: [...rows, { values: {} }] },
		})
		expect(tooMany.status).toBe(400)
		const fresh = await t.request('GET', `/dashboard/local/databases/${database.id}`, { token: account.token })
		expect(fresh.body.sync.rowCount).toBe(1000)
	})

	test('schema edits keep values that still fit and drop the rest', async () => {
		const account = await t.signUp()
		const { database } = await everyTypeDatabase(account.token)
		const kind = prop(database, 'Kind')
		const notes = prop(database, 'Notes')
		const amount = prop(database, 'Amount')
		await t.request('POST', `/dashboard/local/databases/${database.id}/rows/batch`, {
			token: account.token,
			json: {
				rows: [
					{ values: { title: 'a', [kind]: 'A', [notes]: 'keep me', [amount]: 5 } },
					{ values: { title: 'b', [kind]: 'B', [notes]: 'and me' } },
				],
			},
		})
		const properties = database.properties
			.filter((p) => p.name !== 'Mail')
			.map((p) => {
				const input: Record<string, unknown> = { id: p.id, name: p.name, type: p.type }
				if (p.options) {
					input.options = p.options.filter((o) => o.name !== 'B')
				}
				if (p.type === 'relation') {
					input.relationDatabaseId = (p as { relationDatabaseId?: string }).relationDatabaseId
				}
				if (p.id === notes) {
					input.name = 'Remarks'
				}
				if (p.id === amount) {
					input.type = 'rich_text'
				}
				return input
			})
		const updated = await t.request('PATCH', `/dashboard/local/databases/${database.id}`, {
			token: account.token,
			json: { name: 'Renamed', properties },
		})
		expect(updated.status).toBe(200)
		expect(updated.body.name).toBe('Renamed')
		expect(updated.body.properties.some((p: Property) => p.name === 'Mail')).toBe(false)
		const page = await t.request('GET', `/dashboard/local/databases/${database.id}/rows`, { token: account.token })
		const byTitle = Object.fromEntries(
			page.body.rows.map((r: { title: string; values: Record<string, unknown> }) => [r.title, r.values]),
		)
		expect(byTitle.a?.[kind]).toBe('A')
		expect(byTitle.b?.[kind]).toBeUndefined()
		expect(byTitle.b?.[notes]).toBe('and me')
		// A number property turned into text keeps its values as text.
		expect(byTitle.a?.[amount]).toBe('5')
	})
})

describe('the sample workspace', () => {
	test('creates five related databases whose rows page, filter, sort and export', async () => {
		const account = await t.signUp()
		const created = await t.request('POST', '/dashboard/workspaces/sample', { token: account.token })
		expect(created.status).toBe(201)
		const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${created.body.workspace.id}`, {
			token: account.token,
		})
		const byName = Object.fromEntries((list.body as Database[]).map((d) => [d.name, d]))
		expect(Object.keys(byName).sort()).toEqual(['Clients', 'Enquiries', 'Invoices', 'Projects', 'Time entries'])
		const entries = byName['Time entries'] as Database
		expect(entries.sync.rowCount).toBe(160)
		const hours = prop(entries, 'Hours')
		const first = await t.request(
			'GET',
			`/dashboard/local/databases/${entries.id}/rows?limit=20&offset=20&sort=${encodeURIComponent(JSON.stringify([{ property: hours, direction: 'descending' }]))}`,
			{ token: account.token },
		)
		expect(first.status).toBe(200)
		expect(first.body.total).toBe(160)
		expect(first.body.rows).toHaveLength(20)
		const values = first.body.rows.map((r: { values: Record<string, number> }) => r.values[hours])
		expect([...values].sort((a, b) => b - a)).toEqual(values)
		const filter = encodeURIComponent(JSON.stringify([{ property: hours, operator: 'greater_than', value: 3 }]))
		const big = await t.request('GET', `/dashboard/local/databases/${entries.id}/rows?limit=200&filter=${filter}`, {
			token: account.token,
		})
		expect(big.body.total).toBeGreaterThan(0)
		expect(big.body.total).toBeLessThan(160)
		expect(big.body.rows.every((r: { values: Record<string, number> }) => (r.values[hours] ?? 0) > 3)).toBe(true)
		const invoices = byName.Invoices as Database
		const status = prop(invoices, 'Status')
		const paid = encodeURIComponent(JSON.stringify([{ property: status, operator: 'equals', value: 'Paid' }]))
		const paidRows = await t.request('GET', `/dashboard/local/databases/${invoices.id}/rows?filter=${paid}`, {
			token: account.token,
		})
		expect(paidRows.body.total).toBe(8)
		const badFilter = await t.request(
			'GET',
			`/dashboard/local/databases/${invoices.id}/rows?filter=${encodeURIComponent('[{"property":"nope","operator":"equals","value":1}]')}`,
			{ token: account.token },
		)
		expect(badFilter.status).toBe(400)
		expect(badFilter.body.errors[0].field).toBe('filter.0.property')
		const csv = await t.request('GET', `/dashboard/local/databases/${invoices.id}/export.csv`, { token: account.token })
		expect(csv.status).toBe(200)
		expect(csv.headers.get('content-type')).toContain('text/csv')
		const lines = String(csv.body).trim().split('\r\n')
		expect(lines[0]).toBe('Number,Client,Amount,Issued,Due,Status,Paid,Attachments')
		// A byte-order mark first, so spreadsheet programs read the file as UTF-8.
		const raw = await t.app.request(`/dashboard/local/databases/${invoices.id}/export.csv`, {
			headers: { authorization: `Bearer ${account.token}` },
		})
		expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		expect(lines).toHaveLength(21)
		expect(lines[1]).toMatch(/^#10\d\d,[A-Z]/)
	})
})

describe('tenancy', () => {
	test("another organization's workspaces, databases, rows and deliveries read as 404", async () => {
		const owner = await t.signUp()
		const stranger = await t.signUp()
		const { workspace, database } = await everyTypeDatabase(owner.token)
		const row = await t.request('POST', `/dashboard/local/databases/${database.id}/rows`, {
			token: owner.token,
			json: { values: { title: 'secret' } },
		})
		const token = stranger.token
		const attempts = [
			t.request('GET', `/dashboard/local/databases/${database.id}`, { token }),
			t.request('GET', `/dashboard/local/databases/${database.id}/rows`, { token }),
			t.request('GET', `/dashboard/local/databases/${database.id}/export.csv`, { token }),
			t.request('POST', `/dashboard/local/databases/${database.id}/rows`, { token, json: { values: { title: 'x' } } }),
			t.request('PATCH', `/dashboard/local/databases/${database.id}/rows/${row.body.id}`, {
				token,
				json: { values: { title: 'x' } },
			}),
			t.request('DELETE', `/dashboard/local/databases/${database.id}/rows/${row.body.id}`, { token }),
			t.request('PATCH', `/dashboard/local/databases/${database.id}`, { token, json: { name: 'x' } }),
			t.request('DELETE', `/dashboard/local/databases/${database.id}`, { token }),
			t.request('GET', `/dashboard/workspaces/${workspace.id}/writes`, { token }),
			t.request('DELETE', `/dashboard/workspaces/${workspace.id}`, { token }),
			t.request('POST', '/dashboard/local/databases', {
				token,
				json: { workspaceId: workspace.id, name: 'x', properties: [{ name: 'Name', type: 'title' }] },
			}),
		]
		for (const response of await Promise.all(attempts)) {
			expect(response.status).toBe(404)
		}
		const theirs = await t.request('GET', '/dashboard/workspaces', { token })
		expect(theirs.body).toEqual([])
		const mine = await t.request('GET', `/dashboard/local/databases/${database.id}/rows`, { token: owner.token })
		expect(mine.body.rows.map((r: { title: string }) => r.title)).toEqual(['secret'])
	})

	test('a granted scope exposes only its databases, properties and row titles, and people without e-mail', async () => {
		const owner = await t.signUp({ name: 'Olive Owner' })
		const { workspace, database, companies } = await everyTypeDatabase(owner.token)
		await t.request('POST', `/dashboard/local/databases/${companies.id}/rows/batch`, {
			token: owner.token,
			json: { rows: [{ values: { title: 'Acme' } }, { values: { title: 'Globex' } }] },
		})
		const [org] = await t.db
			.select({ orgId: workspaces.organizationId })
			.from(workspaces)
			.where(eq(workspaces.id, workspace.id))
		// A published form with a relation field to Companies and a people field, as the forms module will grant.
		t.services.workspaces.registerPublicScope('test-form', async (_db, objectId) =>
			objectId === 'published'
				? {
						orgId: org?.orgId ?? '',
						databases: new Map([[companies.id, { propertyIds: ['title'], rows: { mode: 'all' as const } }]]),
						people: { workspaceId: workspace.id, ids: null, searchOnly: false },
					}
				: null,
		)
		const choices = await t.request('GET', `/api/local/databases?scope=test-form:published&database=${companies.id}`)
		expect(choices.status).toBe(200)
		expect(choices.body[0].rows.map((r: { title: string }) => r.title)).toEqual(['Acme', 'Globex'])
		expect(choices.body[0].properties.map((p: Property) => p.id)).toEqual(['title'])
		const searched = await t.request('GET', '/api/local/databases?scope=test-form:published&search=glob')
		expect(searched.body[0].rows.map((r: { title: string }) => r.title)).toEqual(['Globex'])
		const notGranted = await t.request('GET', `/api/local/databases?scope=test-form:published&database=${database.id}`)
		expect(notGranted.status).toBe(404)
		const otherObject = await t.request('GET', '/api/local/databases?scope=test-form:draft')
		expect(otherObject.status).toBe(404)
		const wrongTool = await t.request('GET', '/api/notion/databases?scope=test-form:published')
		expect(wrongTool.status).toBe(404)
		const people = await t.request('GET', '/api/local/users?scope=test-form:published')
		expect(people.status).toBe(200)
		expect(people.body).toEqual([expect.objectContaining({ name: 'Olive Owner', email: null })])
	})

	test('public reads are rate-limited per visitor address', async () => {
		const ip = '198.51.100.77'
		for (let i = 0; i < publicReadLimit.limit; i++) {
			const response = await t.request('GET', '/api/local/databases?scope=form:nothing', { ip })
			expect(response.status).toBe(404)
		}
		const limited = await t.request('GET', '/api/local/users?scope=form:nothing', { ip })
		expect(limited.status).toBe(429)
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
		const someoneElse = await t.request('GET', '/api/local/databases?scope=form:nothing', { ip: '198.51.100.78' })
		expect(someoneElse.status).toBe(404)
	})

	test('public reads need a scope some published object grants', async () => {
		const response = await t.request('GET', '/api/local/databases?scope=form:nothing')
		expect(response.status).toBe(404)
		const users = await t.request('GET', '/api/local/users?scope=form:nothing')
		expect(users.status).toBe(404)
	})
})
