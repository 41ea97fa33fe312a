import { and, count, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { memberWithSession, propertyId, type SampleDatabase } from '#src/test/portals.ts'
import {
	accountWithSample,
	fieldsOf,
	orgIdOf,
	putOnPlan,
	type SetupAccount,
	sampleSetup,
	saveSetup,
	uniqueSlug,
} from '#src/test/portals-setup.ts'
import { expectRefusedByRole, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import { portalMembers, portalSessions, portals } from './portals.schema.ts'

// The setup API end to end on the sample workspace: create, read, update, reset, delete; the
// plan's portal limit; roles; tenancy; which databases mirror row content; the people's names.
// The checks of what a setup names are in portals.setup-checks.int.test.ts.

let t: TestApp
let a: SetupAccount

beforeAll(async () => {
	// A public address with a real host name, so the own-host check can be met.
	t = await createTestApp({ PUBLIC_URL: 'https://app.blocksmith.test' })
	a = await accountWithSample(t)
})
afterAll(async () => {
	await t?.close()
})

const setupPath = '/dashboard/local_portal/setup'

async function created(account: SetupAccount, overrides: Record<string, unknown> = {}) {
	const response = await saveSetup(t, account.token, sampleSetup(account.databases, overrides))
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body
}

async function mirrorFlags(databases: SampleDatabase[]) {
	const rows = await t.db
		.select({ name: workspaceDatabases.name, mirrorContent: workspaceDatabases.mirrorContent })
		.from(workspaceDatabases)
		.where(
			inArray(
				workspaceDatabases.id,
				databases.map((database) => database.id),
			),
		)
	return Object.fromEntries(rows.map((row) => [row.name, row.mirrorContent]))
}

describe('saving and reading', () => {
	test('a portal is created (201), listed with the plan limit, and its setup replaced (200)', async () => {
		const account = await accountWithSample(t)
		const body = sampleSetup(account.databases, { branding: { accentColor: '#112233', theme: 'dark' } })
		const first = await saveSetup(t, account.token, body)
		expect(first.status, JSON.stringify(first.body)).toBe(201)
		expect(first.body).toMatchObject({
			tool: 'local',
			name: 'Client portal',
			slug: body.slug,
			customDomain: null,
			isEnabled: true,
			url: `${t.config.publicUrl}/p/${body.slug}`,
			logoUrl: null,
			membersCount: 0,
			branding: { accentColor: '#112233', theme: 'dark', logoBlobId: null, welcome: '' },
			access: { companiesDatabaseId: account.databases.Clients?.id, allowPasswords: true },
			showInvoices: false,
		})
		expect(first.body.pages.map((page: { id: string }) => page.id)).toEqual(['projects', 'invoices'])
		// Defaults of a page are filled and kept.
		expect(first.body.pages[0]).toMatchObject({ view: 'table', showContent: true, isSearchable: true, sort: [] })

		const list = await t.request('GET', setupPath, { token: account.token })
		expect(list.status).toBe(200)
		expect(list.body.limit).toBe(3)
		expect(list.body.portals).toHaveLength(1)
		expect(list.body.portals[0]).toEqual(first.body)
		// The other tool's path lists only its own portals.
		const notion = await t.request('GET', '/dashboard/notion_portal/setup', { token: account.token })
		expect(notion.body).toEqual({ portals: [], limit: 3 })

		const slug = uniqueSlug('renamed')
		const updated = await saveSetup(t, account.token, {
			...body,
			id: first.body.id,
			name: 'Our clients',
			slug,
			pages: body.pages.slice(0, 1),
			showInvoices: true,
		})
		expect(updated.status, JSON.stringify(updated.body)).toBe(200)
		expect(updated.body).toMatchObject({ id: first.body.id, name: 'Our clients', slug, showInvoices: true })
		expect(updated.body.pages).toHaveLength(1)
		const again = await t.request('GET', setupPath, { token: account.token })
		expect(again.body.portals).toHaveLength(1)
		expect(again.body.portals[0]).toMatchObject({ name: 'Our clients', slug, url: `${t.config.publicUrl}/p/${slug}` })
	})

	test('the plan limits portals: the second on Starter is refused (402) and the limit is shown', async () => {
		const account = await accountWithSample(t)
		await putOnPlan(t, account.token, account.orgId, 'starter')
		await created(account)
		const second = await saveSetup(t, account.token, sampleSetup(account.databases))
		expect(second.status, JSON.stringify(second.body)).toBe(402)
		expect(second.body).toMatchObject({
			code: 'PLAN_LIMIT_REACHED',
			limit: { key: 'portals', used: 1, allowed: 1, planId: 'starter' },
		})
		const list = await t.request('GET', setupPath, { token: account.token })
		expect(list.body.limit).toBe(1)
		expect(list.body.portals).toHaveLength(1)
		// Updating the one there is still works.
		const portal = list.body.portals[0]
		const updated = await saveSetup(t, account.token, { ...sampleSetup(account.databases), id: portal.id })
		expect(updated.status).toBe(200)
	})

	test('a custom domain needs the plan switch; the server’s own host is refused', async () => {
		const account = await accountWithSample(t)
		const portal = await created(account)
		const domain = `portal-${portal.id.slice(0, 8)}.example.com`
		const withDomain = { ...sampleSetup(account.databases), id: portal.id, slug: portal.slug, customDomain: domain }
		const saved = await saveSetup(t, account.token, withDomain)
		expect(saved.status, JSON.stringify(saved.body)).toBe(200)
		expect(saved.body).toMatchObject({ customDomain: domain, url: `https://${domain}` })

		const own = await saveSetup(t, account.token, { ...withDomain, customDomain: 'app.blocksmith.test' })
		expect(own.status).toBe(400)
		expect(fieldsOf(own)).toEqual(['customDomain'])

		await putOnPlan(t, account.token, account.orgId, 'starter')
		// The domain it has is kept on a smaller plan; a new one is refused.
		expect((await saveSetup(t, account.token, withDomain)).status).toBe(200)
		const other = await saveSetup(t, account.token, { ...withDomain, customDomain: `x-${domain}` })
		expect(other.status).toBe(402)
		expect(other.body.code).toBe('PLAN_LIMIT_REACHED')
		expect(fieldsOf(other)).toEqual(['customDomain'])
		const [stored] = await t.db.select().from(portals).where(eq(portals.id, portal.id))
		expect(stored?.customDomain).toBe(domain)
	})
})

describe('reset and delete', () => {
	test('reset needs the name typed; pages, branding and access go back, name, address, domain and members stay', async () => {
		const account = await accountWithSample(t)
		const portal = await created(account, {
			name: 'Acme portal',
			customDomain: `reset-${uniqueSlug()}.example.com`,
			branding: { accentColor: '#aa0000', welcome: 'Hello' },
		})
		await memberWithSession(t, { id: portal.id, organizationId: account.orgId }, { email: 'client@example.com' })
		const path = `${setupPath}/reset_portal_config`
		const wrong = await t.request('POST', path, { token: account.token, json: { id: portal.id, confirm: 'acme' } })
		expect(wrong.status).toBe(400)
		expect(fieldsOf(wrong)).toEqual(['confirm'])
		const reset = await t.request('POST', path, {
			token: account.token,
			json: { id: portal.id, confirm: 'Acme portal' },
		})
		expect(reset.status, JSON.stringify(reset.body)).toBe(200)
		expect(reset.body).toMatchObject({
			id: portal.id,
			name: 'Acme portal',
			slug: portal.slug,
			customDomain: portal.customDomain,
			pages: [],
			forms: [],
			charts: [],
			showInvoices: false,
			branding: { accentColor: '#2563eb', welcome: '', logoBlobId: null, theme: 'system' },
			access: { companiesDatabaseId: null, membersDatabaseId: null, allowPasswords: true },
			membersCount: 1,
		})
		expect(await mirrorFlags([account.databases.Projects as SampleDatabase])).toEqual({ Projects: false })
	})

	test('delete answers 204; its members, their sessions and the mirror flags go with it', async () => {
		const account = await accountWithSample(t)
		const portal = await created(account)
		const member = await memberWithSession(
			t,
			{ id: portal.id, organizationId: account.orgId },
			{ email: 'gone@example.com' },
		)
		expect(await mirrorFlags([account.databases.Projects as SampleDatabase])).toEqual({ Projects: true })
		const removed = await t.request('DELETE', `${setupPath}/${portal.id}`, { token: account.token })
		expect(removed.status).toBe(204)
		const [members] = await t.db.select({ n: count() }).from(portalMembers).where(eq(portalMembers.id, member.id))
		const [sessions] = await t.db
			.select({ n: count() })
			.from(portalSessions)
			.where(eq(portalSessions.memberId, member.id))
		expect([members?.n, sessions?.n]).toEqual([0, 0])
		expect(await mirrorFlags([account.databases.Projects as SampleDatabase])).toEqual({ Projects: false })
		expect((await t.request('GET', setupPath, { token: account.token })).body.portals).toEqual([])
		expect((await t.request('DELETE', `${setupPath}/${portal.id}`, { token: account.token })).status).toBe(404)
	})
})

describe('roles and tenancy', () => {
	test('every team member reads; a member is refused every change (403), owners and admins change', async () => {
		const team = await teamWithEveryRole(t)
		const workspace = await t.request('POST', '/dashboard/workspaces/sample', { token: team.owner.token })
		expect(workspace.status).toBe(201)
		const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${workspace.body.workspace.id}`, {
			token: team.owner.token,
		})
		const databases = Object.fromEntries((list.body as SampleDatabase[]).map((database) => [database.name, database]))
		const byAdmin = await saveSetup(t, team.admin.token, sampleSetup(databases))
		expect(byAdmin.status).toBe(201)
		const id = byAdmin.body.id as string

		const read = await t.request('GET', setupPath, { token: team.member.token })
		expect(read.status).toBe(200)
		expect(read.body.portals.map((portal: { id: string }) => portal.id)).toEqual([id])
		const options = await t.request('GET', `${setupPath}/fetch_public_databases?portalId=${id}`, {
			token: team.member.token,
		})
		expect(options.status).toBe(200)
		const timer = await t.request('GET', `/dashboard/local_portal/databases/get_job_timer?portalId=${id}`, {
			token: team.member.token,
		})
		expect(timer.status).toBe(200)

		const token = team.member.token
		expectRefusedByRole(await saveSetup(t, token, sampleSetup(databases)))
		expectRefusedByRole(await saveSetup(t, token, { ...sampleSetup(databases), id }))
		expectRefusedByRole(
			await t.request('POST', `${setupPath}/reset_portal_config`, { token, json: { id, confirm: 'Client portal' } }),
		)
		expectRefusedByRole(await t.request('DELETE', `${setupPath}/${id}`, { token }))
		const [stored] = await t.db.select({ n: count() }).from(portals).where(eq(portals.organizationId, team.orgId))
		expect(stored?.n).toBe(1)
		expect((await t.request('DELETE', `${setupPath}/${id}`, { token: team.owner.token })).status).toBe(204)
	})

	test("another organization's portal reads as 404 on every route, and through the other tool's path too", async () => {
		const theirs = await created(a)
		const other = await accountWithSample(t)
		const token = other.token
		const expectNotFound = (response: { status: number; body: { code?: string } }) => {
			expect(response.status, JSON.stringify(response.body)).toBe(404)
			expect(response.body.code).toBe('NOT_FOUND')
		}
		expectNotFound(await saveSetup(t, token, { ...sampleSetup(other.databases), id: theirs.id }))
		expectNotFound(
			await t.request('POST', `${setupPath}/reset_portal_config`, {
				token,
				json: { id: theirs.id, confirm: 'Client portal' },
			}),
		)
		expectNotFound(await t.request('DELETE', `${setupPath}/${theirs.id}`, { token }))
		expectNotFound(await t.request('GET', `${setupPath}/fetch_public_databases?portalId=${theirs.id}`, { token }))
		expectNotFound(
			await t.request('GET', `/dashboard/local_portal/databases/get_job_timer?portalId=${theirs.id}`, { token }),
		)
		expectNotFound(
			await t.request('POST', '/dashboard/local_portal/databases/refresh', { token, json: { portalId: theirs.id } }),
		)
		// The owner's own portal through the notion path: not there either.
		expectNotFound(await t.request('DELETE', `/dashboard/notion_portal/setup/${theirs.id}`, { token: a.token }))
		expectNotFound(
			await t.request('GET', `/dashboard/notion_portal/databases/get_job_timer?portalId=${theirs.id}`, {
				token: a.token,
			}),
		)
		const [stored] = await t.db.select().from(portals).where(eq(portals.id, theirs.id))
		expect(stored?.organizationId).toBe(await orgIdOf(t, a.token))
		expect(stored?.pages).toHaveLength(2)
	})
})

describe('what saving changes beyond the portal', () => {
	test('mirror_content is on for exactly the databases an enabled portal shows with their content', async () => {
		const account = await accountWithSample(t)
		const { Projects, Invoices, Clients } = account.databases as Record<string, SampleDatabase>
		const all = [Projects, Invoices, Clients] as SampleDatabase[]
		const portal = await created(account)
		// Projects shows content (the default), Invoices does not.
		expect(await mirrorFlags(all)).toEqual({ Projects: true, Invoices: false, Clients: false })

		const body = sampleSetup(account.databases, { id: portal.id, slug: portal.slug })
		body.pages = body.pages.map((page) => ({ ...page, showContent: page.id === 'invoices' }))
		expect((await saveSetup(t, account.token, body)).status).toBe(200)
		expect(await mirrorFlags(all)).toEqual({ Projects: false, Invoices: true, Clients: false })

		// A second portal showing Projects' content turns it on; disabling the first turns Invoices off.
		const second = await created(account)
		expect(await mirrorFlags(all)).toEqual({ Projects: true, Invoices: true, Clients: false })
		expect((await saveSetup(t, account.token, { ...body, isEnabled: false })).status).toBe(200)
		expect(await mirrorFlags(all)).toEqual({ Projects: true, Invoices: false, Clients: false })
		expect((await t.request('DELETE', `${setupPath}/${second.id}`, { token: account.token })).status).toBe(204)
		expect(await mirrorFlags(all)).toEqual({ Projects: false, Invoices: false, Clients: false })
	})

	test("the people snapshot holds the names of the shown people properties' workspace, never e-mails", async () => {
		const team = await teamWithEveryRole(t)
		const workspace = await t.request('POST', '/dashboard/workspaces/sample', { token: team.owner.token })
		const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${workspace.body.workspace.id}`, {
			token: team.owner.token,
		})
		const databases = Object.fromEntries((list.body as SampleDatabase[]).map((database) => [database.name, database]))
		const entries = databases['Time entries'] as SampleDatabase
		const withoutPeople = await saveSetup(t, team.owner.token, sampleSetup(databases))
		expect(withoutPeople.status).toBe(201)
		const [before] = await t.db
			.select({ people: portals.people })
			.from(portals)
			.where(eq(portals.id, withoutPeople.body.id))
		expect(before?.people).toEqual({})

		const body = sampleSetup(databases, {
			id: withoutPeople.body.id,
			slug: withoutPeople.body.slug,
			pages: [
				{
					id: 'time',
					title: 'Time',
					databaseId: entries.id,
					properties: [propertyId(entries, 'Person'), propertyId(entries, 'Hours')],
					rule: { kind: 'everyone' },
				},
			],
		})
		expect((await saveSetup(t, team.owner.token, body)).status).toBe(200)
		const [after] = await t.db
			.select({ people: portals.people })
			.from(portals)
			.where(eq(portals.id, withoutPeople.body.id))
		const people = after?.people ?? {}
		expect(Object.values(people).sort()).toEqual(['Ada Admin', 'Max Member', 'Olive Owner'])
		expect(Object.keys(people).sort()).toEqual([team.admin.userId, team.member.userId, team.owner.userId].sort())
		const stored = JSON.stringify(people)
		for (const email of [team.owner.email, team.admin.email, team.member.email]) {
			expect(stored).not.toContain(email)
		}
		expect(stored).not.toContain('@')
	})
})

describe('fetch_public_databases', () => {
	test('lists the databases with the rules each supports, from the saved access or the one sent; never everyone', async () => {
		const account = await accountWithSample(t)
		const { Projects, Clients, Enquiries } = account.databases as Record<string, SampleDatabase>
		const bare = await t.request('GET', `${setupPath}/fetch_public_databases`, { token: account.token })
		expect(bare.status).toBe(200)
		type Option = { id: string; name: string; rowCount: number; properties: unknown[]; suggestedRules: unknown[] }
		const byName = (body: Option[]) => Object.fromEntries(body.map((option) => [option.name, option]))
		const plain = byName(bare.body)
		expect(Object.keys(plain).sort()).toEqual(Object.keys(account.databases).sort())
		// Without a companies database, nothing relates to one.
		expect(plain.Projects?.suggestedRules).toEqual([])
		expect(plain.Clients?.suggestedRules).toEqual([
			{ kind: 'email', property: propertyId(Clients as SampleDatabase, 'Email') },
			{ kind: 'person', property: propertyId(Clients as SampleDatabase, 'Account manager') },
		])
		expect(plain.Projects?.rowCount).toBeGreaterThan(0)
		expect(plain.Projects?.properties).toHaveLength((Projects as SampleDatabase).properties.length)

		const portal = await created(account)
		const saved = byName(
			(await t.request('GET', `${setupPath}/fetch_public_databases?portalId=${portal.id}`, { token: account.token }))
				.body,
		)
		expect(saved.Projects?.suggestedRules).toEqual([
			{ kind: 'company', property: propertyId(Projects as SampleDatabase, 'Client') },
		])
		expect(saved.Clients?.suggestedRules?.[0]).toEqual({ kind: 'company_row' })
		expect(saved.Enquiries?.suggestedRules).toEqual([
			{ kind: 'company', property: propertyId(Enquiries as SampleDatabase, 'Client') },
			{ kind: 'email', property: propertyId(Enquiries as SampleDatabase, 'Email') },
			{ kind: 'person', property: propertyId(Enquiries as SampleDatabase, 'Assignee') },
		])

		// The editor asks before saving: Clients as the members database instead.
		const sent = byName(
			(
				await t.request(
					'GET',
					`${setupPath}/fetch_public_databases?portalId=${portal.id}&membersDatabaseId=${Clients?.id}&companiesDatabaseId=${Projects?.id}`,
					{ token: account.token },
				)
			).body,
		)
		expect(sent.Projects?.suggestedRules).toEqual([
			{ kind: 'company_row' },
			{ kind: 'member', property: propertyId(Projects as SampleDatabase, 'Client') },
		])
		const every = Object.values(sent).flatMap((option) => option.suggestedRules) as { kind: string }[]
		expect(every.some((rule) => rule.kind === 'everyone')).toBe(false)
		// Only the organization's own databases.
		const others = await t.request('GET', `${setupPath}/fetch_public_databases`, { token: a.token })
		const ids = new Set(Object.values(account.databases).map((database) => database.id))
		expect((others.body as Option[]).some((option) => ids.has(option.id))).toBe(false)
	})
})

describe('custom domains and slugs across organizations', () => {
	test('a slug or domain another organization uses is refused with 409 naming the field', async () => {
		const mine = await created(a, { customDomain: `shared-${uniqueSlug()}.example.com` })
		const other = await accountWithSample(t)
		const sameSlug = await saveSetup(t, other.token, sampleSetup(other.databases, { slug: mine.slug }))
		expect(sameSlug.status).toBe(409)
		expect(sameSlug.body.code).toBe('CONFLICT')
		expect(fieldsOf(sameSlug)).toEqual(['slug'])
		// Slugs are compared lowercase (the contract lowercases them).
		const upper = await saveSetup(t, other.token, sampleSetup(other.databases, { slug: mine.slug.toUpperCase() }))
		expect(upper.status).toBe(409)
		const sameDomain = await saveSetup(
			t,
			other.token,
			sampleSetup(other.databases, { customDomain: mine.customDomain.toUpperCase() }),
		)
		expect(sameDomain.status).toBe(409)
		expect(fieldsOf(sameDomain)).toEqual(['customDomain'])
		const [stored] = await t.db
			.select({ n: count() })
			.from(portals)
			.where(and(eq(portals.organizationId, other.orgId)))
		expect(stored?.n).toBe(0)
	})
})
