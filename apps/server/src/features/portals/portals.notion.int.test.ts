import { randomUUID } from 'node:crypto'
import { portalAccessSchema, portalBrandingSchema, portalPageSchema } from '@blocksmith/contracts/portals.ts'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion, type FakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import type { DemoWorkspace } from '#src/test/fake-notion/seed.ts'
import { memberWithSession } from '#src/test/portals.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { refreshContent } from '#src/workspaces/workspaces.content.ts'
import { workspaceDatabases, workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { portals } from './portals.schema.ts'

// The same portal on a Notion workspace (the fake Notion, through the official SDK): rows by
// the company relation, including relations past Notion's 25 references per page object (the
// mirror reads them in full), people by name, files and the page content's hosted image behind
// portal links.

let t: TestApp
let fake: FakeNotion
let demo: DemoWorkspace
const extraClients = 24
const acmePhases = 30

type Database = { id: string; name: string; properties: { id: string; name: string; type: string }[] }
let byName: Record<string, Database>
let portal: typeof portals.$inferSelect
let ana: { id: string; token: string }
let gil: { id: string; token: string }
let consortium: string

const prop = (database: string, name: string) => {
	const found = byName[database]?.properties.find((property) => property.name === name)
	if (!found) {
		throw new Error(`no ${database}.${name}`)
	}
	return found.id
}

beforeAll(async () => {
	fake = await createFakeNotion({})
	demo = fake.seed()
	const store = fake.state
	const clients = store.getDataSource(demo.dataSources.clients)
	const projects = store.getDataSource(demo.dataSources.projects)
	const title = (content: string) => ({ title: [{ text: { content } }] })
	const relation = (...ids: string[]) => ({ relation: ids.map((id) => ({ id })) })
	const [acme, globex] = demo.pages.clients as [string, string]
	const more = Array.from(
		{ length: extraClients },
		(_, index) => store.createPage({ dataSource: clients, properties: { Name: title(`Client ${index + 7}`) } }).id,
	)
	// A bid of 30 clients, Acme the last: past the 25 references a page object carries.
	consortium = store.createPage({
		dataSource: projects,
		properties: {
			Name: title('Consortium bid'),
			Client: relation(globex, ...demo.pages.clients.slice(2), ...more, acme),
		},
	}).id
	// Acme's own projects: its dual "Projects" relation then holds more than 25.
	for (let index = 0; index < acmePhases; index++) {
		store.createPage({
			dataSource: projects,
			properties: { Name: title(`Acme phase ${index + 1}`), Client: relation(acme) },
		})
	}

	t = await createTestApp({ LOG_LEVEL: 'error', NOTION_API_BASE_URL: fake.url, NOTION_REQUESTS_PER_SECOND: '50' })
	const owner = await t.signUp()
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
	const orgId = details.body.id as string
	const connected = await t.request('POST', '/dashboard/workspaces', {
		token: owner.token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	expect(connected.status).toBe(201)
	const workspaceId = connected.body.workspace.id as string
	const synced = await until(
		'the first sync',
		async () =>
			(await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token: owner.token }))
				.body as (Database & { sync: { state: string; lastSyncedAt: string | null } })[],
		(list) => list.length >= 4 && list.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt !== null),
	)
	byName = Object.fromEntries(synced.map((database) => [database.name, database]))
	const projectsDb = byName.Projects as Database
	const clientsDb = byName.Clients as Database

	// The content mirror for the Projects database, read now rather than after the next sync.
	await t.db.update(workspaceDatabases).set({ mirrorContent: true }).where(eq(workspaceDatabases.id, projectsDb.id))
	await refreshContent(t.services.workspaces.deps, projectsDb.id, 200)

	const id = randomUUID()
	const [stored] = await t.db
		.insert(portals)
		.values({
			id,
			organizationId: orgId,
			tool: 'notion',
			name: 'Agency portal',
			slug: `notion-${id.slice(0, 8)}`,
			branding: portalBrandingSchema.parse({}),
			access: portalAccessSchema.parse({ companiesDatabaseId: clientsDb.id }),
			people: {
				[demo.users.ada]: 'Ada Lovelace',
				[demo.users.grace]: 'Grace Hopper',
				[demo.users.alan]: 'Alan Turing',
			},
			pages: [
				portalPageSchema.parse({
					id: 'projects',
					title: 'Projects',
					databaseId: projectsDb.id,
					properties: [
						prop('Projects', 'Client'),
						prop('Projects', 'Status'),
						prop('Projects', 'Budget'),
						prop('Projects', 'Owner'),
					],
					rule: { kind: 'company', property: prop('Projects', 'Client') },
				}),
				portalPageSchema.parse({
					id: 'company',
					title: 'Your company',
					databaseId: clientsDb.id,
					properties: [prop('Clients', 'Projects'), prop('Clients', 'Account manager'), prop('Clients', 'Logo')],
					rule: { kind: 'company_row' },
				}),
			],
		})
		.returning()
	portal = stored as typeof portal
	ana = await memberWithSession(t, portal, { email: 'ana@acme.example', companyRowId: demo.pages.clients[0] })
	gil = await memberWithSession(t, portal, { email: 'gil@globex.example', companyRowId: demo.pages.clients[1] })
}, 180_000)
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

async function rowsOf(token: string, pageId: string) {
	const rows: { id: string; title: string; cells: Record<string, { kind: string; [key: string]: unknown }> }[] = []
	let cursor: string | null = null
	do {
		const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
		const response = await t.request('GET', `/api/portal/${portal.slug}/pages/${pageId}/rows?limit=7${query}`, {
			token,
		})
		expect(response.status, JSON.stringify(response.body)).toBe(200)
		rows.push(...response.body.rows)
		cursor = response.body.nextCursor
	} while (cursor)
	return rows
}

/** The projects that relate to the company, read from the mirror apart from the portal. */
async function projectsOf(company: string) {
	const all = await t.db
		.select({ externalId: workspaceRows.externalId, values: workspaceRows.values })
		.from(workspaceRows)
		.where(eq(workspaceRows.databaseId, (byName.Projects as Database).id))
	const client = prop('Projects', 'Client')
	return all
		.filter((row) => (row.values[client] as string[] | undefined)?.includes(company))
		.map((row) => row.externalId)
}

describe('a portal on a Notion workspace', () => {
	test('each member sees exactly their company’s projects, a relation’s 30th reference included', async () => {
		const [acme, globex] = demo.pages.clients as [string, string]
		const mine = await rowsOf(ana.token, 'projects')
		const expected = await projectsOf(acme)
		expect(expected.length).toBeGreaterThan(acmePhases)
		expect(mine.map((row) => row.id).sort()).toEqual(expected.sort())
		expect(mine.map((row) => row.id)).toContain(consortium)
		const theirs = await rowsOf(gil.token, 'projects')
		expect(theirs.map((row) => row.id).sort()).toEqual((await projectsOf(globex)).sort())
		expect(theirs.map((row) => row.title)).not.toContain('Acme phase 1')

		// The bid's 30 clients: each member's cell holds their own company only.
		const bid = mine.find((row) => row.id === consortium)
		expect(bid?.cells[prop('Projects', 'Client')]).toEqual({
			kind: 'relation',
			rows: [{ pageId: 'company', rowId: acme, title: 'Acme Ltd' }],
		})
		const owner = mine.find((row) => row.title === 'Website relaunch')?.cells[prop('Projects', 'Owner')]
		expect(owner).toEqual({ kind: 'people', names: ['Ada Lovelace'] })
		const budget = mine.find((row) => row.title === 'Website relaunch')?.cells[prop('Projects', 'Budget')]
		expect(budget).toEqual({ kind: 'number', value: 5000, text: '€5,000.00' })
	})

	test('the company’s page lists its projects past the 25th, each linking into the portal', async () => {
		const [acme] = demo.pages.clients as [string]
		const detail = await t.request('GET', `/api/portal/${portal.slug}/pages/company/rows/${acme}`, { token: ana.token })
		expect(detail.status).toBe(200)
		const cell = detail.body.row.cells[prop('Clients', 'Projects')]
		expect(cell.kind).toBe('relation')
		expect(cell.rows.length).toBeGreaterThan(25)
		expect(cell.rows.map((row: { rowId: string }) => row.rowId).sort()).toEqual((await projectsOf(acme)).sort())
		expect(cell.rows.every((row: { pageId: string }) => row.pageId === 'projects')).toBe(true)
		expect(detail.body.row.cells[prop('Clients', 'Account manager')]).toEqual({
			kind: 'people',
			names: ['Ada Lovelace'],
		})
		// Nobody's e-mail (Ada's) is sent.
		expect(JSON.stringify(detail.body)).not.toContain('ada@example.com')

		const logo = detail.body.row.cells[prop('Clients', 'Logo')].files[0]
		expect(logo).toMatchObject({ name: 'logo.png', isImage: true })
		const opened = await t.request('GET', logo.url)
		expect(opened.status).toBe(302)
		expect(opened.headers.get('location')).toBe('https://picsum.photos/seed/0/64')
		// Another company's member cannot open Acme's row or its logo.
		expect(
			(await t.request('GET', `/api/portal/${portal.slug}/pages/company/rows/${acme}`, { token: gil.token })).status,
		).toBe(404)
		expect((await t.request('GET', logo.url.split('?')[0], { token: gil.token })).status).toBe(404)
	})

	test('a row’s page content, its hosted image behind a portal link, never Notion’s URL', async () => {
		const [project] = demo.pages.projects as [string]
		const detail = await t.request('GET', `/api/portal/${portal.slug}/pages/projects/rows/${project}`, {
			token: ana.token,
		})
		expect(detail.status).toBe(200)
		const blocks = detail.body.blocks as { type: string; url?: string | null }[]
		expect(blocks.map((block) => block.type)).toEqual(
			expect.arrayContaining(['heading_1', 'paragraph', 'to_do', 'image']),
		)
		const image = blocks.find((block) => block.type === 'image')
		expect(image?.url).toMatch(new RegExp(`^/api/portal/${portal.slug}/pages/projects/rows/${project}/content/`))
		expect(JSON.stringify(detail.body)).not.toContain(fake.url)
		const opened = await t.request('GET', image?.url as string)
		expect(opened.status).toBe(302)
		expect(opened.headers.get('location')?.startsWith(fake.url)).toBe(true)
		// Another company's member: the row and its content file are 404.
		expect(
			(await t.request('GET', String(image?.url ?? '').split('?')[0] as string, { token: gil.token })).status,
		).toBe(404)

		const me = await t.request('GET', `/api/portal/${portal.slug}/me`, { token: ana.token })
		expect(me.body.lastSyncedAt).not.toBeNull()
		expect(me.body.member.companyName).toBe('Acme Ltd')
	})

	test('a row’s content is not sent when the page does not show it', async () => {
		const [project] = demo.pages.projects as [string]
		const pages = portal.pages.map((page) => (page.id === 'projects' ? { ...page, showContent: false } : page))
		await t.db
			.update(portals)
			.set({ pages })
			.where(and(eq(portals.id, portal.id)))
		try {
			const detail = await t.request('GET', `/api/portal/${portal.slug}/pages/projects/rows/${project}`, {
				token: ana.token,
			})
			expect(detail.body.blocks).toBeNull()
		} finally {
			await t.db.update(portals).set({ pages: portal.pages }).where(eq(portals.id, portal.id))
		}
	})
})
