import { and, eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { insertSamplePortal, memberWithSession, page } from '#src/test/portals.ts'
import { allRows, expectedRows, setValues, type VisitorWorld, visitorWorld } from '#src/test/portals-visitor.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { workspaceDatabases, workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { grantedRows } from './portals.rules.ts'
import { portals } from './portals.schema.ts'

// A member's pages, rows and files on the sample workspace: exactly the rows the rule grants
// (compared with the rows computed apart, in JavaScript), only the shown properties, filters,
// sorts, search and keyset pages, relation cells linking only granted rows, file links, names.

let t: TestApp
let w: VisitorWorld
const base = () => `/api/portal/${w.portal.slug}`

beforeAll(async () => {
	t = await createTestApp()
	w = await visitorWorld(t)
})
afterAll(async () => {
	await t?.close()
})

describe('what each member sees', () => {
	test('each of three members (two companies) sees exactly the rows the rule grants, on every page', async () => {
		const { members, companies, databases, props } = w
		const cases = [
			{ member: members.ana, company: companies.acmeId },
			{ member: members.ben, company: companies.acmeId },
			{ member: members.gil, company: companies.globexId },
		]
		for (const { member, company } of cases) {
			for (const [pageId, databaseId, rule] of [
				['projects', databases.projects.id, { kind: 'company', property: props.p('Client') }],
				['invoices', databases.invoices.id, { kind: 'company', property: props.i('Client') }],
				['company', databases.clients.id, { kind: 'company_row' }],
			] as const) {
				const expected = await expectedRows(t, databaseId, rule, company)
				expect(expected.length).toBeGreaterThan(0)
				const seen = await allRows(t, `${base()}/pages/${pageId}/rows`, member.token, 1)
				expect(seen.map((row) => row.id).sort()).toEqual(expected.map((row) => row.externalId).sort())
			}
		}
		// The shared project is on both companies' lists.
		const acme = await allRows(t, `${base()}/pages/projects/rows`, members.ana.token)
		const globex = await allRows(t, `${base()}/pages/projects/rows`, members.gil.token)
		expect(acme.map((row) => row.id)).toContain(w.rows.shared)
		expect(globex.map((row) => row.id)).toContain(w.rows.shared)
	})

	test('me: the member, their company, the pages; a page whose rule no longer applies is gone (404), never open to all', async () => {
		const me = await t.request('GET', `${base()}/me`, { token: w.members.ana.token })
		expect(me.status).toBe(200)
		expect(me.body).toMatchObject({
			member: { email: 'ana@acme.example', companyName: 'Acme Ltd', hasPassword: false },
			forms: [],
			charts: [],
			hasInvoices: false,
			lastSyncedAt: null,
		})
		expect(me.body.pages).toEqual([
			{ id: 'projects', title: 'Projects', view: 'table' },
			{ id: 'invoices', title: 'Invoices', view: 'table' },
			{ id: 'company', title: 'Your company', view: 'table' },
		])

		// The rule's property deleted from the database (as a schema change in Notion would).
		const [projects] = await t.db
			.select()
			.from(workspaceDatabases)
			.where(eq(workspaceDatabases.id, w.databases.projects.id))
		const clientProperty = w.props.p('Client')
		await t.db
			.update(workspaceDatabases)
			.set({ properties: projects?.properties.filter((property) => property.id !== clientProperty) ?? [] })
			.where(eq(workspaceDatabases.id, w.databases.projects.id))
		try {
			const after = await t.request('GET', `${base()}/me`, { token: w.members.ana.token })
			expect(after.body.pages.map((page: { id: string }) => page.id)).toEqual(['invoices', 'company'])
			const rows = await t.request('GET', `${base()}/pages/projects/rows`, { token: w.members.ana.token })
			expect(rows.status).toBe(404)
			const row = await t.request('GET', `${base()}/pages/projects/rows/${w.rows.shared}`, {
				token: w.members.ana.token,
			})
			expect(row.status).toBe(404)
		} finally {
			await t.db
				.update(workspaceDatabases)
				.set({ properties: projects?.properties ?? [] })
				.where(eq(workspaceDatabases.id, w.databases.projects.id))
		}
	})

	test('only the shown properties leave the server: in the page and in every cell', async () => {
		const response = await t.request('GET', `${base()}/pages/projects/rows`, { token: w.members.ana.token })
		expect(response.status).toBe(200)
		const shown = ['Name', 'Client', 'Status', 'Budget', 'Timeline']
		expect(response.body.page.properties.map((property: { name: string }) => property.name)).toEqual(shown)
		const ids = response.body.page.properties.map((property: { id: string }) => property.id).sort()
		for (const row of response.body.rows) {
			expect(Object.keys(row.cells).sort()).toEqual(ids)
		}
		// The Brief and Tags are not shown: their values are nowhere in the answer.
		const text = JSON.stringify(response.body)
		expect(text).not.toContain('for Acme Ltd.')
		expect(text).not.toContain(w.props.p('Brief'))
		expect(text).not.toContain('Design')
		// Nothing of the team's about a property: not the related database, not descriptions.
		expect(text).not.toContain('relationDatabaseId')
		expect(text).not.toContain(w.databases.clients.id)
	})

	test('a select’s options are only those the member’s rows use (others may name other clients)', async () => {
		const company = await t.request('GET', `${base()}/pages/company/rows`, { token: w.members.ana.token })
		const stage = company.body.page.properties.find((property: { name: string }) => property.name === 'Stage')
		expect(stage.options.map((option: { name: string }) => option.name)).toEqual(['Active'])
		const projects = await t.request('GET', `${base()}/pages/projects/rows?limit=100`, { token: w.members.gil.token })
		const status = projects.body.page.properties.find((property: { name: string }) => property.name === 'Status')
		const used = new Set(
			projects.body.rows.flatMap((row: { cells: Record<string, { options?: { name: string }[] }> }) =>
				(row.cells[w.props.p('Status')]?.options ?? []).map((option) => option.name),
			),
		)
		expect(status.options.map((option: { name: string }) => option.name).sort()).toEqual([...used].sort())
		expect(used.size).toBeLessThan(3)
	})
})

describe('cells', () => {
	test('a relation links only to rows the member may open, through the page on that database', async () => {
		const { body } = await t.request('GET', `${base()}/pages/projects/rows/${w.rows.shared}`, {
			token: w.members.ana.token,
		})
		expect(body.row.cells[w.props.p('Client')]).toEqual({
			kind: 'relation',
			rows: [{ pageId: 'company', rowId: w.companies.acmeId, title: 'Acme Ltd' }],
		})
		const globex = await t.request('GET', `${base()}/pages/projects/rows/${w.rows.shared}`, {
			token: w.members.gil.token,
		})
		expect(globex.body.row.cells[w.props.p('Client')].rows).toEqual([
			{ pageId: 'company', rowId: w.companies.globexId, title: 'Globex Corporation' },
		])
		expect(JSON.stringify(globex.body)).not.toContain('Acme')
	})

	test('numbers, options, dates, checkboxes, links and people as the portal sends them', async () => {
		const { body } = await t.request('GET', `${base()}/pages/company/rows/${w.companies.acmeId}`, {
			token: w.members.ana.token,
		})
		const { c } = w.props
		expect(body.row.title).toBe('Acme Ltd')
		expect(body.row.cells[c('Email')]).toEqual({
			kind: 'url',
			url: 'mailto:billing@acmeltd.example',
			text: 'billing@acmeltd.example',
		})
		expect(body.row.cells[c('Stage')]).toEqual({ kind: 'options', options: [{ name: 'Active', color: 'green' }] })
		// People by the setup's snapshot of names: never an id or an e-mail.
		expect(body.row.cells[c('Account manager')]).toEqual({ kind: 'people', names: ['Olive Owner'] })
		expect(JSON.stringify(body)).not.toContain(w.owner.userId)
		expect(JSON.stringify(body)).not.toContain(w.owner.email)
		expect(body.blocks).toBeNull()

		const project = await t.request('GET', `${base()}/pages/projects/rows/${w.rows.shared}`, {
			token: w.members.ana.token,
		})
		const { p } = w.props
		const budget = project.body.row.cells[p('Budget')]
		expect(budget.kind).toBe('number')
		expect(budget.text).toBe(
			new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(budget.value),
		)
		expect(project.body.row.cells[p('Timeline')]).toMatchObject({
			kind: 'date',
			start: '2026-01-05',
			end: '2026-02-04',
		})
		expect(project.body.row.cells[p('Timeline')].text).toBe('Jan 5, 2026 → Feb 4, 2026')
		expect(project.body.row.cells[p('Status')]).toEqual({
			kind: 'options',
			options: [{ name: 'Not started', color: 'gray' }],
		})
	})

	test('files are portal links: with the token or the link’s signature, a 302 to the file; to nobody else', async () => {
		const { body } = await t.request('GET', `${base()}/pages/invoices/rows/${w.rows.acmeInvoice}`, {
			token: w.members.ana.token,
		})
		const files = body.row.cells[w.props.i('Attachments')].files
		expect(files.map((file: { name: string; isImage: boolean }) => [file.name, file.isImage])).toEqual([
			['acme-invoice.pdf', false],
			['acme-photo.png', true],
		])
		for (const file of files) {
			expect(file.url.startsWith(`${base()}/files/invoices/${w.rows.acmeInvoice}/`)).toBe(true)
			expect(file.url).not.toContain('files.example')
			expect(file.url).not.toContain('blob-acme-1')
		}
		// The signed link alone (as an <img> opens it), then with the bearer token and no signature.
		const blob = await t.request('GET', files[0].url)
		expect(blob.status).toBe(302)
		expect(blob.headers.get('location')).toContain('/api/uploads/blob-acme-1?expires=')
		const external = await t.request('GET', files[1].url.split('?')[0], { token: w.members.ben.token })
		expect(external.status).toBe(302)
		expect(external.headers.get('location')).toBe('https://files.example/acme-photo.png')

		// Another company's member: 404 with their own token, 401 without one or with a forged signature.
		const bare = files[1].url.split('?')[0]
		expect((await t.request('GET', bare, { token: w.members.gil.token })).status).toBe(404)
		expect((await t.request('GET', bare)).status).toBe(401)
		expect((await t.request('GET', files[1].url.replace(/sig=[^&]+/, 'sig=forged'))).status).toBe(401)
		expect((await t.request('GET', files[1].url.replace(/\/1\?/, '/0?'))).status).toBe(401)
		// A file past the list, and a property that is not a shown files property: 404.
		expect((await t.request('GET', bare.replace(/\/1$/, '/7'), { token: w.members.ana.token })).status).toBe(404)
		const amount = bare.replace(encodeURIComponent(w.props.i('Attachments')), encodeURIComponent(w.props.i('Amount')))
		expect((await t.request('GET', amount.replace(/\/1$/, '/0'), { token: w.members.ana.token })).status).toBe(404)
	})

	test('a signed file link stops working once the member is removed or the row leaves their rule', async () => {
		const { body } = await t.request('GET', `${base()}/pages/invoices/rows/${w.rows.acmeInvoice}`, {
			token: w.members.ben.token,
		})
		const url = body.row.cells[w.props.i('Attachments')].files[1].url
		expect((await t.request('GET', url)).status).toBe(302)
		const { i } = w.props
		await setValues(t, w.databases.invoices.id, w.rows.acmeInvoice, { [i('Client')]: [w.companies.globexId] })
		try {
			expect((await t.request('GET', url)).status).toBe(404)
		} finally {
			await setValues(t, w.databases.invoices.id, w.rows.acmeInvoice, { [i('Client')]: [w.companies.acmeId] })
		}
		expect((await t.request('GET', url)).status).toBe(302)
	})
})

describe('filter, sort, search, pages', () => {
	test('the page’s sort by default, the visitor’s on shown properties, a stable order across pages', async () => {
		const budgets = (rows: { cells: Record<string, unknown> }[]) =>
			rows.map((row) => (row.cells[w.props.p('Budget')] as { value: number }).value)
		const byDefault = await allRows(t, `${base()}/pages/projects/rows`, w.members.ana.token, 1)
		expect(budgets(byDefault)).toEqual([...budgets(byDefault)].sort((a, b) => b - a))
		const sort = encodeURIComponent(JSON.stringify([{ property: w.props.p('Budget'), direction: 'ascending' }]))
		const ascending = await allRows(t, `${base()}/pages/projects/rows?sort=${sort}`, w.members.gil.token, 1)
		expect(budgets(ascending)).toEqual([...budgets(ascending)].sort((a, b) => a - b))
		const byTitle = encodeURIComponent(JSON.stringify([{ property: w.props.p('Name'), direction: 'descending' }]))
		const titles = (await allRows(t, `${base()}/pages/projects/rows?sort=${byTitle}`, w.members.ana.token, 1)).map(
			(row) => row.title,
		)
		expect(titles).toEqual([...titles].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())))
		// Not shown, or a relation (whose order would hint at rows outside the rule): 400 naming the sort.
		for (const property of [w.props.p('Brief'), w.props.p('Client')]) {
			const bad = await t.request(
				'GET',
				`${base()}/pages/projects/rows?sort=${encodeURIComponent(JSON.stringify([{ property }]))}`,
				{ token: w.members.ana.token },
			)
			expect(bad.status).toBe(400)
			expect(bad.body.errors[0].field).toBe('sort.0.property')
		}
	})

	test('filters only on filterable properties; search on titles', async () => {
		const { p } = w.props
		const filter = encodeURIComponent(JSON.stringify([{ property: p('Budget'), operator: 'greater_than', value: 0 }]))
		const all = await allRows(t, `${base()}/pages/projects/rows`, w.members.ana.token)
		const filtered = await allRows(t, `${base()}/pages/projects/rows?filter=${filter}`, w.members.ana.token)
		expect(filtered.length).toBe(all.length)
		const none = encodeURIComponent(JSON.stringify([{ property: p('Budget'), operator: 'less_than', value: 0 }]))
		expect(await allRows(t, `${base()}/pages/projects/rows?filter=${none}`, w.members.ana.token)).toEqual([])
		const statusOf = (row: (typeof all)[number] | undefined) =>
			(row?.cells[p('Status')] as { options: { name: string }[] } | undefined)?.options[0]?.name
		const status = statusOf(all[0])
		const byStatus = encodeURIComponent(JSON.stringify([{ property: p('Status'), operator: 'equals', value: status }]))
		const sameStatus = await allRows(t, `${base()}/pages/projects/rows?filter=${byStatus}`, w.members.ana.token)
		expect(sameStatus.length).toBe(all.filter((row) => statusOf(row) === status).length)
		for (const [property, why] of [
			[p('Timeline'), 'shown, not filterable'],
			[p('Brief'), 'not shown'],
			[p('Client'), 'a relation'],
		] as const) {
			const bad = await t.request(
				'GET',
				`${base()}/pages/projects/rows?filter=${encodeURIComponent(JSON.stringify([{ property, operator: 'is_not_empty' }]))}`,
				{ token: w.members.ana.token },
			)
			expect(bad.status, why).toBe(400)
			expect(bad.body.errors[0].field).toBe('filter.0.property')
		}
		const malformed = await t.request('GET', `${base()}/pages/projects/rows?filter=nope`, {
			token: w.members.ana.token,
		})
		expect(malformed.status).toBe(400)

		const title = all[0]?.title as string
		const found = await allRows(
			t,
			`${base()}/pages/projects/rows?search=${encodeURIComponent(title.slice(2, 8))}`,
			w.members.ana.token,
		)
		expect(found.map((row) => row.title)).toContain(title)
		for (const row of found) {
			expect(row.title.toLowerCase()).toContain(title.slice(2, 8).toLowerCase())
		}
		// A search for another company's project title finds nothing.
		const other = await allRows(t, `${base()}/pages/projects/rows?search=Brand%20guidelines`, w.members.ana.token)
		expect(other).toEqual([])
	})

	test('a cursor is opaque: changed, forged, or from another list or member → 400; limit at most 100', async () => {
		const first = await t.request('GET', `${base()}/pages/invoices/rows?limit=1`, { token: w.members.ana.token })
		const cursor = first.body.nextCursor as string
		expect(cursor).toBeTruthy()
		const next = await t.request('GET', `${base()}/pages/invoices/rows?limit=1&cursor=${encodeURIComponent(cursor)}`, {
			token: w.members.ana.token,
		})
		expect(next.status).toBe(200)
		expect(next.body.rows[0].id).not.toBe(first.body.rows[0].id)
		const [body, signature] = cursor.split('.')
		const forgedBody = Buffer.from(JSON.stringify(['x', 'y', 'z'])).toString('base64url')
		for (const bad of [
			`${body}x.${signature}`,
			`${forgedBody}.${signature}`,
			'not-a-cursor',
			`${body}.${signature}.x`,
			`${Buffer.from("' or 1=1 --").toString('base64url')}.${signature}`,
		]) {
			const response = await t.request('GET', `${base()}/pages/invoices/rows?cursor=${encodeURIComponent(bad)}`, {
				token: w.members.ana.token,
			})
			expect(response.status).toBe(400)
			expect(response.body.errors[0].field).toBe('cursor')
		}
		const otherMember = await t.request('GET', `${base()}/pages/invoices/rows?cursor=${encodeURIComponent(cursor)}`, {
			token: w.members.ben.token,
		})
		expect(otherMember.status).toBe(400)
		const otherPage = await t.request('GET', `${base()}/pages/projects/rows?cursor=${encodeURIComponent(cursor)}`, {
			token: w.members.ana.token,
		})
		expect(otherPage.status).toBe(400)
		expect(
			(await t.request('GET', `${base()}/pages/invoices/rows?limit=101`, { token: w.members.ana.token })).status,
		).toBe(400)
	})
})

describe('tenancy of the member’s request', () => {
	test('a member of a disabled portal, or without a token, is turned away', async () => {
		expect((await t.request('GET', `${base()}/me`)).status).toBe(401)
		await t.db.update(portals).set({ isEnabled: false }).where(eq(portals.id, w.portal.id))
		try {
			expect((await t.request('GET', `${base()}/me`, { token: w.members.ana.token })).status).toBe(404)
		} finally {
			await t.db.update(portals).set({ isEnabled: true }).where(eq(portals.id, w.portal.id))
		}
	})
})

describe('the rule on many rows', () => {
	test('a member’s rows among 20,000 are read through the GIN index on values, not by walking the database', async () => {
		const { projects } = w.databases
		const client = w.props.p('Client')
		await t.db.execute(sql`
			insert into workspace_rows (id, organization_id, database_id, external_id, values, title, created_time, last_edited_time)
			select 'bulk-' || g, ${w.orgId}, ${projects.id}, 'bulk-' || g,
				jsonb_build_object(${client}::text, jsonb_build_array('other-company-' || (g % 1000))),
				'Bulk ' || g, now(), now()
			from generate_series(1, 20000) g`)
		try {
			await t.db.execute(sql`analyze workspace_rows`)
			const [database] = await t.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, projects.id))
			const granted = grantedRows(
				{ databaseId: projects.id, rule: { kind: 'company', property: client } },
				{
					orgId: w.orgId,
					email: 'ana@acme.example',
					companyRowId: w.companies.acmeId,
					memberRowId: null,
					personRef: null,
				},
				database?.properties ?? [],
			)
			const query = t.db
				.select({ id: workspaceRows.id })
				.from(workspaceRows)
				.where(granted ?? sql`false`)
				.orderBy(workspaceRows.createdTime, workspaceRows.id)
				.limit(51)
			const plan = await t.db.execute(sql`explain ${query}`)
			const text = (plan as unknown as { rows: Record<string, string>[] }).rows
				.map((row) => Object.values(row).join(''))
				.join('\n')
			expect(text).toContain('workspace_rows_values_idx')
			// And the answer is still exactly Acme's projects.
			const rows = await allRows(t, `${base()}/pages/projects/rows`, w.members.ana.token, 50)
			expect(rows.length).toBe(
				(await expectedRows(t, projects.id, { kind: 'company', property: client }, w.companies.acmeId)).length,
			)
		} finally {
			await t.db
				.delete(workspaceRows)
				.where(and(eq(workspaceRows.databaseId, projects.id), like(workspaceRows.id, 'bulk-%')))
		}
	})
})

describe('every kind of rule, end to end', () => {
	test('email, person, member and everyone grant what they say; a member lacking what the rule needs sees nothing', async () => {
		const { clients, projects } = w.databases
		const { c, p } = w.props
		const other = await insertSamplePortal(
			t,
			w.orgId,
			{ Projects: projects, Invoices: w.databases.invoices, Clients: clients },
			{
				slug: `rules-${Date.now().toString(36)}`,
				pages: [
					page({ id: 'by-email', title: 'E', databaseId: clients.id, rule: { kind: 'email', property: c('Email') } }),
					page({
						id: 'by-person',
						title: 'P',
						databaseId: clients.id,
						properties: [c('Stage')],
						rule: { kind: 'person', property: c('Account manager') },
					}),
					page({
						id: 'by-member',
						title: 'M',
						databaseId: projects.id,
						rule: { kind: 'member', property: p('Client') },
					}),
					page({
						id: 'everyone',
						title: 'All',
						databaseId: clients.id,
						properties: [c('Stage')],
						rule: { kind: 'everyone' },
					}),
				],
			},
		)
		const billing = await memberWithSession(t, other, {
			email: 'Billing@AcmeLtd.example',
			memberRowId: w.companies.acmeId,
			personRef: w.owner.userId,
		})
		const bare = await memberWithSession(t, other, { email: 'nobody@example.com' })
		const titles = async (token: string, pageId: string) =>
			(await allRows(t, `/api/portal/${other.slug}/pages/${pageId}/rows`, token, 3)).map((row) => row.title).sort()
		const allClients = (await expectedRows(t, clients.id, { kind: 'company_row' }, w.companies.acmeId)).length
		expect(allClients).toBe(1)

		expect(await titles(billing.token, 'by-email')).toEqual(['Acme Ltd'])
		// The sample's every client has the owner as account manager.
		expect((await titles(billing.token, 'by-person')).length).toBe(8)
		const acmeProjects = await expectedRows(
			t,
			projects.id,
			{ kind: 'company', property: p('Client') },
			w.companies.acmeId,
		)
		expect(await titles(billing.token, 'by-member')).toEqual(acmeProjects.map((row) => row.title).sort())
		for (const pageId of ['by-email', 'by-person', 'by-member']) {
			expect(await titles(bare.token, pageId)).toEqual([])
		}
		const everyone = await t.request('GET', `/api/portal/${other.slug}/pages/everyone/rows?limit=100`, {
			token: bare.token,
		})
		expect(everyone.body.rows).toHaveLength(8)
		const stage = everyone.body.page.properties.find((property: { name: string }) => property.name === 'Stage')
		expect(stage.options.map((option: { name: string }) => option.name)).toEqual(['Lead', 'Active', 'Past'])
	})
})
