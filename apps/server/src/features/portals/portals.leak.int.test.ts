import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
	insertSamplePortal,
	memberWithSession,
	propertyId,
	rowIdByTitle,
	type SampleDatabase,
	sampleDatabases,
} from '#src/test/portals.ts'
import { allRows, expectedRows, type VisitorWorld, visitorWorld } from '#src/test/portals-visitor.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// The leak probe (decision 038): as each of two members of different companies, every portal
// route is walked with the OTHER's row ids, relation ids and file ids, and every answer is
// searched whole for anything of the other's; tokens are tried on other portals and on every
// /dashboard route of the OpenAPI document (so a route added later is probed too).

let t: TestApp
let w: VisitorWorld
type Member = { token: string; id: string }
/** What belongs to one side only: never to be seen by the other. */
type Secrets = { member: Member; rows: { pageId: string; id: string }[]; strings: string[]; files: string[] }
const sides: Record<'acme' | 'globex', Secrets> = {} as never
let openapi: { paths: Record<string, Record<string, unknown>> }

beforeAll(async () => {
	t = await createTestApp()
	w = await visitorWorld(t)
	const { databases, props, companies, members } = w
	const pages = [
		['projects', databases.projects.id, { kind: 'company', property: props.p('Client') }],
		['invoices', databases.invoices.id, { kind: 'company', property: props.i('Client') }],
		['company', databases.clients.id, { kind: 'company_row' }],
	] as const
	for (const [side, company, member, other] of [
		['acme', companies.acmeId, members.ana, companies.globexId],
		['globex', companies.globexId, members.gil, companies.acmeId],
	] as const) {
		const rows: Secrets['rows'] = []
		const strings: string[] = []
		for (const [pageId, databaseId, rule] of pages) {
			const mine = await expectedRows(t, databaseId, rule, company)
			const theirs = new Set((await expectedRows(t, databaseId, rule, other)).map((row) => row.externalId))
			// A row both companies share is each one's to see: only the rest is secret.
			for (const row of mine.filter((candidate) => !theirs.has(candidate.externalId))) {
				rows.push({ pageId, id: row.externalId })
				strings.push(row.externalId, row.title)
			}
		}
		sides[side] = { member, rows, strings, files: [] }
	}
	sides.acme.strings.push('acme-invoice.pdf', 'acme-photo.png', 'blob-acme-1', 'billing@acmeltd.example')
	sides.acme.files.push(`invoices/${w.rows.acmeInvoice}/${encodeURIComponent(props.i('Attachments'))}/0`)
	sides.acme.files.push(`invoices/${w.rows.acmeInvoice}/${encodeURIComponent(props.i('Attachments'))}/1`)
	sides.globex.strings.push('globex-secret.pdf', 'files.example/globex-secret', 'billing@globexcorporation.example')
	sides.globex.files.push(`invoices/${w.rows.globexInvoice}/${encodeURIComponent(props.i('Attachments'))}/0`)
	expect(sides.acme.strings).toContain('Acme Ltd')
	expect(sides.globex.strings).toContain('Globex Corporation')
	openapi = (await t.request('GET', '/api/openapi.json')).body
})
afterAll(async () => {
	await t?.close()
})

function expectNothingOf(secrets: Secrets, body: unknown, where: string) {
	// A problem's `instance` is the path the caller asked for: their own words echoed, nothing of ours.
	const { instance: _, ...rest } = (body ?? {}) as Record<string, unknown>
	const text = JSON.stringify(Array.isArray(body) ? body : rest)
	for (const secret of secrets.strings) {
		expect(text.includes(secret), `${where} shows "${secret}"`).toBe(false)
	}
}

/** The member-facing GET routes of the portal, from the OpenAPI document. */
function portalGetPaths(): string[] {
	return Object.entries(openapi.paths)
		.filter(([path, methods]) => path.startsWith('/api/portal/{slug}/') && 'get' in methods)
		.map(([path]) => path)
}

describe.each([
	['acme', 'globex'],
	['globex', 'acme'],
] as const)('as the %s member, with the %s member’s ids', (mine, theirs) => {
	test('every list and page of mine carries nothing of theirs, whatever the search, filter or sort', async () => {
		const me = sides[mine].member
		const other = sides[theirs]
		const base = `/api/portal/${w.portal.slug}`
		const meBody = await t.request('GET', `${base}/me`, { token: me.token })
		expect(meBody.status).toBe(200)
		expectNothingOf(other, meBody.body, '/me')
		for (const pageId of ['projects', 'invoices', 'company']) {
			const rows = await allRows(t, `${base}/pages/${pageId}/rows`, me.token, 1)
			expect(rows.length).toBeGreaterThan(0)
			expectNothingOf(other, rows, `${pageId} rows`)
			for (const row of rows) {
				const detail = await t.request('GET', `${base}/pages/${pageId}/rows/${row.id}`, { token: me.token })
				expect(detail.status).toBe(200)
				expectNothingOf(other, detail.body, `${pageId}/${row.title}`)
			}
			// Searching for their titles finds nothing (no count, no cursor).
			for (const row of other.rows.filter((candidate) => candidate.pageId === pageId)) {
				const title = other.strings[other.strings.indexOf(row.id) + 1] as string
				const found = await t.request('GET', `${base}/pages/${pageId}/rows?search=${encodeURIComponent(title)}`, {
					token: me.token,
				})
				expect(found.status).toBe(200)
				expect(found.body.rows).toEqual([])
				expect(found.body.nextCursor).toBeNull()
			}
		}
		// Filtering by their company in the relation is refused outright (it would tell a row holds it).
		const byClient = encodeURIComponent(
			JSON.stringify([
				{
					property: w.props.p('Client'),
					operator: 'contains',
					value: theirs === 'acme' ? w.companies.acmeId : w.companies.globexId,
				},
			]),
		)
		const probe = await t.request('GET', `${base}/pages/projects/rows?filter=${byClient}`, { token: me.token })
		expect(probe.status).toBe(400)
		expectNothingOf(other, probe.body, 'the refused filter')
	})

	test('every portal route with their row, relation and file ids: 404, nothing of theirs', async () => {
		const me = sides[mine].member
		const other = sides[theirs]
		const paths = portalGetPaths()
		// The routes this probe knows how to fill; a new one makes this fail until it is added here.
		expect(paths.sort()).toEqual(
			[
				'/api/portal/{slug}/files/{pageId}/{rowId}/{propertyId}/{index}',
				'/api/portal/{slug}/me',
				'/api/portal/{slug}/pages/{pageId}/rows',
				'/api/portal/{slug}/pages/{pageId}/rows/{rowId}',
				'/api/portal/{slug}/pages/{pageId}/rows/{rowId}/content/{blockId}',
				...paths.filter((path) => !path.includes('{pageId}') && !path.endsWith('/me')),
			].sort(),
		)
		let probed = 0
		for (const path of paths.filter((candidate) => candidate.includes('{rowId}'))) {
			for (const row of other.rows) {
				for (const pageId of ['projects', 'invoices', 'company']) {
					const properties = [w.props.i('Attachments'), w.props.p('Client'), w.props.c('Email')]
					for (const property of properties) {
						const url = path
							.replace('{slug}', w.portal.slug)
							.replace('{pageId}', pageId)
							.replace('{rowId}', row.id)
							.replace('{propertyId}', encodeURIComponent(property))
							.replace('{index}', '0')
							.replace('{blockId}', 'block-1')
						const response = await t.request('GET', url, { token: me.token })
						expect(response.status, url).toBe(404)
						expect(response.headers.get('location')).toBeNull()
						expectNothingOf(other, response.body, url)
						probed++
					}
				}
			}
		}
		expect(probed).toBeGreaterThan(20)
		// Their files by their own paths, with my token: 404; the relation target (their company): 404.
		for (const file of other.files) {
			const response = await t.request('GET', `/api/portal/${w.portal.slug}/files/${file}`, { token: me.token })
			expect(response.status).toBe(404)
		}
		const theirCompany = theirs === 'acme' ? w.companies.acmeId : w.companies.globexId
		const company = await t.request('GET', `/api/portal/${w.portal.slug}/pages/company/rows/${theirCompany}`, {
			token: me.token,
		})
		expect(company.status).toBe(404)
		// The same 404 as a row that never existed.
		const unknown = await t.request('GET', `/api/portal/${w.portal.slug}/pages/company/rows/no-such-row`, {
			token: me.token,
		})
		expect(unknown.status).toBe(404)
		expect(company.body.detail).toBe(unknown.body.detail)
	})

	test('their signed file links do not open as mine, nor with my member id', async () => {
		const me = sides[mine].member
		const other = sides[theirs]
		const otherRow = theirs === 'acme' ? w.rows.acmeInvoice : w.rows.globexInvoice
		const detail = await t.request('GET', `/api/portal/${w.portal.slug}/pages/invoices/rows/${otherRow}`, {
			token: other.member.token,
		})
		const link = detail.body.row.cells[w.props.i('Attachments')].files[0].url as string
		expect((await t.request('GET', link)).status).toBe(302)
		const asMe = link.replace(/m=[^&]+/, `m=${me.id}`)
		expect((await t.request('GET', asMe)).status).toBe(401)
		expect((await t.request('GET', link.split('?')[0] as string, { token: me.token })).status).toBe(404)
	})
})

describe('tokens where they do not belong', () => {
	test('a member’s token on another portal (same or other organization) is 401, and a team member’s token on a portal too', async () => {
		const sameOrg = await insertSamplePortal(
			t,
			w.orgId,
			{ Projects: w.databases.projects, Invoices: w.databases.invoices, Clients: w.databases.clients },
			{ slug: `second-${Date.now().toString(36)}` },
		)
		const stranger = await t.signUp({ name: 'Other Org' })
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: stranger.token })
		const strangerDatabases = await sampleDatabases(t, stranger.token)
		const otherOrg = await insertSamplePortal(t, details.body.id, strangerDatabases, {
			slug: `third-${Date.now().toString(36)}`,
		})
		const outsider = await memberWithSession(t, otherOrg, {
			email: 'ana@acme.example',
			companyRowId: await rowIdByTitle(t, (strangerDatabases.Clients as SampleDatabase).id, 'Acme Ltd'),
		})
		for (const slug of [sameOrg.slug, otherOrg.slug]) {
			for (const path of ['me', 'pages/projects/rows', `pages/projects/rows/${w.rows.shared}`]) {
				const response = await t.request('GET', `/api/portal/${slug}/${path}`, { token: w.members.ana.token })
				expect(response.status, `${slug}/${path}`).toBe(401)
			}
		}
		expect((await t.request('GET', `/api/portal/${w.portal.slug}/me`, { token: outsider.token })).status).toBe(401)
		expect((await t.request('GET', `/api/portal/${w.portal.slug}/me`, { token: w.owner.token })).status).toBe(401)

		// The other organization's row ids on this portal: 404, like ids that never existed.
		const strangerProjects = strangerDatabases.Projects as SampleDatabase
		const theirRow = await rowIdByTitle(t, strangerProjects.id, 'Website redesign')
		const theirInvoice = await rowIdByTitle(t, (strangerDatabases.Invoices as SampleDatabase).id, '#1001')
		const attachments = encodeURIComponent(propertyId(strangerDatabases.Invoices as SampleDatabase, 'Attachments'))
		for (const path of [
			`pages/projects/rows/${theirRow}`,
			`pages/company/rows/${await rowIdByTitle(t, (strangerDatabases.Clients as SampleDatabase).id, 'Acme Ltd')}`,
			`files/invoices/${theirInvoice}/${attachments}/0`,
			'pages/no-such-page/rows',
		]) {
			const response = await t.request('GET', `/api/portal/${w.portal.slug}/${path}`, { token: w.members.ana.token })
			expect(response.status, path).toBe(404)
		}
	})

	test('a portal member’s token gets 401 on every /dashboard route of the OpenAPI document', async () => {
		const routes = Object.entries(openapi.paths).filter(([path]) => path.startsWith('/dashboard'))
		expect(routes.length).toBeGreaterThan(50)
		let probed = 0
		const open: string[] = []
		for (const [path, methods] of routes) {
			const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000')
			for (const [method, operation] of Object.entries(methods as Record<string, { security?: unknown[] }>)) {
				if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) {
					continue
				}
				if (!operation.security?.length) {
					// Declared open to anyone: takes no session at all, so no token can matter.
					open.push(`${method} ${path}`)
					continue
				}
				const response = await t.request(method.toUpperCase(), url, {
					token: w.members.ana.token,
					...(method === 'get' || method === 'delete' ? {} : { json: {} }),
				})
				expect(response.status, `${method.toUpperCase()} ${path}`).toBe(401)
				probed++
			}
		}
		// Every other /dashboard route needs a session: a new open one must be looked at here.
		expect(open).toEqual(['post /dashboard/users/forgot_password'])
		expect(probed).toBeGreaterThan(50)
	})
})
