import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { propertyId, type SampleDatabase } from '#src/test/portals.ts'
import {
	accountWithSample,
	fieldsOf,
	type SetupAccount,
	sampleSetup,
	saveSetup,
	uploadImage,
} from '#src/test/portals-setup.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { portals } from './portals.schema.ts'

// Every check of update_setup against what a setup names: each refused with 400 naming its field
// and nothing stored; the organization's own forms, charts, logos and databases accepted.

let t: TestApp
let a: SetupAccount
let other: SetupAccount
let db: Record<string, SampleDatabase>

beforeAll(async () => {
	t = await createTestApp()
	a = await accountWithSample(t)
	other = await accountWithSample(t)
	db = a.databases
})
afterAll(async () => {
	await t?.close()
})

const p = (name: string, property: string) => propertyId(db[name] as SampleDatabase, property)

/** The sample setup with its first page changed. */
function withPage(change: Record<string, unknown>, setup: Record<string, unknown> = {}) {
	const base = sampleSetup(db, setup)
	return { ...base, pages: [{ ...base.pages[0], ...change }, base.pages[1]] }
}

async function storedCount(orgId: string) {
	const [row] = await t.db.select({ n: count() }).from(portals).where(eq(portals.organizationId, orgId))
	return row?.n ?? 0
}

async function createForm(account: SetupAccount) {
	const form = await t.request('POST', '/dashboard/forms', {
		token: account.token,
		json: { name: 'Request', databaseId: account.databases.Enquiries?.id },
	})
	expect(form.status, JSON.stringify(form.body)).toBe(201)
	return form.body.id as string
}

async function createChart(account: SetupAccount, databaseName: string, published: boolean) {
	const chart = await t.request('POST', '/dashboard/local_charts/charts', {
		token: account.token,
		json: { name: `${databaseName} chart`, databaseId: account.databases[databaseName]?.id },
	})
	expect(chart.status, JSON.stringify(chart.body)).toBe(201)
	if (published) {
		const patched = await t.request('PATCH', `/dashboard/local_charts/charts/${chart.body.id}`, {
			token: account.token,
			json: { published: true },
		})
		expect(patched.status).toBe(200)
	}
	return chart.body.id as string
}

describe('refused setups', () => {
	test('each problem is a 400 naming its field, and nothing is stored', async () => {
		const theirForm = await createForm(other)
		const theirChart = await createChart(other, 'Projects', true)
		const draftChart = await createChart(a, 'Projects', false)
		const invoicesChart = await createChart(a, 'Invoices', true)
		const byClientChart = await createChart(a, 'Projects', true)
		const chartRead = await t.request('GET', `/dashboard/local_charts/charts/${byClientChart}`, { token: a.token })
		const grouped = await t.request('PATCH', `/dashboard/local_charts/charts/${byClientChart}`, {
			token: a.token,
			json: { config: { ...chartRead.body.config, x: { property: p('Projects', 'Client') } } },
		})
		expect(grouped.status, JSON.stringify(grouped.body)).toBe(200)
		const theirLogo = await uploadImage(t, other.token, 'logo.png', 'image/png')
		const svgLogo = await uploadImage(t, a.token, 'logo.svg', 'image/svg+xml')
		const cases: [string, unknown, string[]][] = [
			['slug reserved', sampleSetup(db, { slug: 'dashboard' }), ['slug']],
			['slug malformed', sampleSetup(db, { slug: 'a b' }), ['slug']],
			['domain malformed', sampleSetup(db, { customDomain: 'https://x.example.com/' }), ['customDomain']],
			['another org database', withPage({ databaseId: other.databases.Projects?.id }), ['pages.0.databaseId']],
			['no such database', withPage({ databaseId: 'f'.repeat(8) }), ['pages.0.databaseId']],
			['unknown property', withPage({ properties: [p('Projects', 'Status'), 'nope'] }), ['pages.0.properties.1']],
			[
				'email rule on a number',
				withPage({ rule: { kind: 'email', property: p('Projects', 'Budget') } }),
				['pages.0.rule.property'],
			],
			[
				'person rule on a relation',
				withPage({ rule: { kind: 'person', property: p('Projects', 'Client') } }),
				['pages.0.rule.property'],
			],
			[
				'company rule on a status',
				withPage({ rule: { kind: 'company', property: p('Projects', 'Status') } }),
				['pages.0.rule.property'],
			],
			[
				'company rule on a missing property',
				withPage({ rule: { kind: 'company', property: 'gone' } }),
				['pages.0.rule.property'],
			],
			[
				'member rule without a members database',
				withPage({ rule: { kind: 'member', property: p('Projects', 'Client') } }),
				['pages.0.rule.kind'],
			],
			[
				'company rule without a companies database',
				sampleSetup(db, { access: {} }),
				['pages.0.rule.kind', 'pages.1.rule.kind'],
			],
			[
				'member rule on a relation to another database',
				withPage(
					{ rule: { kind: 'member', property: p('Projects', 'Client') } },
					{
						access: {
							companiesDatabaseId: db.Clients?.id,
							membersDatabaseId: db.Enquiries?.id,
							membersEmailProperty: p('Enquiries', 'Email'),
						},
					},
				),
				['pages.0.rule.property'],
			],
			['company_row off the companies database', withPage({ rule: { kind: 'company_row' } }), ['pages.0.rule.kind']],
			['board without groupBy', withPage({ view: 'board' }), ['pages.0.groupBy']],
			['board by a number', withPage({ view: 'board', groupBy: p('Projects', 'Budget') }), ['pages.0.groupBy']],
			[
				'cover not files',
				withPage({ view: 'gallery', coverProperty: p('Projects', 'Status') }),
				['pages.0.coverProperty'],
			],
			[
				'filter on a hidden property',
				withPage({ filterable: [p('Projects', 'Status'), p('Projects', 'Tags')] }),
				['pages.0.filterable.1'],
			],
			[
				'sort by nothing',
				withPage({ sort: [{ property: 'nope', direction: 'ascending' }] }),
				['pages.0.sort.0.property'],
			],
			['duplicate page id', withPage({ id: 'invoices' }), ['pages.1.id']],
			['page id malformed', withPage({ id: 'Bad Id' }), ['pages.0.id']],
			[
				'companies of another org',
				sampleSetup(db, { access: { companiesDatabaseId: other.databases.Clients?.id } }),
				['access.companiesDatabaseId', 'pages.0.rule.property', 'pages.1.rule.property'],
			],
			[
				'members e-mail property without members database',
				sampleSetup(db, { access: { companiesDatabaseId: db.Clients?.id, membersEmailProperty: 'x' } }),
				['access.membersEmailProperty'],
			],
			[
				'members e-mail property not text',
				sampleSetup(db, {
					access: {
						companiesDatabaseId: db.Clients?.id,
						membersDatabaseId: db.Clients?.id,
						membersEmailProperty: p('Clients', 'Stage'),
					},
				}),
				['access.membersEmailProperty'],
			],
			[
				'invoices without companies',
				{ ...sampleSetup(db, { access: {} }), pages: [], showInvoices: true },
				['showInvoices'],
			],
			['form of another org', sampleSetup(db, { forms: [{ formId: theirForm }] }), ['forms.0.formId']],
			[
				'form link not a relation to companies or members',
				sampleSetup(db, { forms: [{ formId: 'placeholder', linkProperty: p('Enquiries', 'Email') }] }),
				['forms.0.linkProperty'],
			],
			[
				'chart of another org',
				sampleSetup(db, { charts: [{ chartId: theirChart, pageId: 'projects' }] }),
				['charts.0.chartId'],
			],
			[
				'chart unpublished',
				sampleSetup(db, { charts: [{ chartId: draftChart, pageId: 'projects' }] }),
				['charts.0.chartId'],
			],
			[
				'chart on an unknown page',
				sampleSetup(db, { charts: [{ chartId: invoicesChart, pageId: 'nope' }] }),
				['charts.0.pageId'],
			],
			[
				'chart on a page of another database',
				sampleSetup(db, { charts: [{ chartId: invoicesChart, pageId: 'projects' }] }),
				['charts.0.pageId'],
			],
			[
				'chart grouped by a relation (its labels would be linked rows)',
				sampleSetup(db, { charts: [{ chartId: byClientChart, pageId: 'projects' }] }),
				['charts.0.chartId'],
			],
			['logo of another org', sampleSetup(db, { branding: { logoBlobId: theirLogo.id } }), ['branding.logoBlobId']],
			['logo an SVG', sampleSetup(db, { branding: { logoBlobId: svgLogo.id } }), ['branding.logoBlobId']],
			['colour malformed', sampleSetup(db, { branding: { accentColor: 'blue' } }), ['branding.accentColor']],
		]
		const ourForm = await createForm(a)
		for (const [name, body, fields] of cases) {
			const sent = JSON.parse(JSON.stringify(body).replaceAll('"placeholder"', JSON.stringify(ourForm)))
			const response = await saveSetup(t, a.token, sent)
			expect(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(400)
			expect(response.body.code, name).toBe('VALIDATION_FAILED')
			expect(fieldsOf(response), name).toEqual(fields)
		}
		expect(await storedCount(a.orgId)).toBe(0)
	})

	test('several problems are answered together', async () => {
		const response = await saveSetup(t, a.token, {
			...withPage({ view: 'board', properties: ['nope'] }),
			slug: 'api',
		})
		expect(response.status).toBe(400)
		expect(fieldsOf(response)).toEqual(['slug', 'pages.0.properties.0', 'pages.0.groupBy'])
	})
})

describe('accepted setups', () => {
	test("every rule kind, view and the organization's own form, chart and logo save", async () => {
		const form = await createForm(a)
		const chart = await createChart(a, 'Projects', true)
		const logo = await uploadImage(t, a.token, 'logo.png', 'image/png')
		const access = {
			companiesDatabaseId: db.Clients?.id,
			membersDatabaseId: db.Clients?.id,
			membersEmailProperty: p('Clients', 'Email'),
			allowPasswords: false,
		}
		const page = (id: string, database: string, rest: Record<string, unknown>) => ({
			id,
			title: id,
			databaseId: db[database]?.id,
			properties: [],
			...rest,
		})
		const body = {
			...sampleSetup(db),
			access,
			branding: { logoBlobId: logo.id, accentColor: '#0a0b0c', backgroundColor: '#ffffff', welcome: 'Hi' },
			pages: [
				page('projects', 'Projects', {
					view: 'board',
					groupBy: p('Projects', 'Status'),
					properties: [p('Projects', 'Status'), p('Projects', 'Tags')],
					filterable: [p('Projects', 'Tags')],
					sort: [{ property: 'created_time', direction: 'descending' }, { property: p('Projects', 'Budget') }],
					rule: { kind: 'company', property: p('Projects', 'Client') },
				}),
				page('mine', 'Projects', { rule: { kind: 'member', property: p('Projects', 'Client') } }),
				page('company', 'Clients', { rule: { kind: 'company_row' } }),
				page('by-email', 'Enquiries', { rule: { kind: 'email', property: p('Enquiries', 'Email') } }),
				page('by-title', 'Enquiries', { rule: { kind: 'email', property: p('Enquiries', 'Name') } }),
				page('by-person', 'Enquiries', { rule: { kind: 'person', property: p('Enquiries', 'Assignee') } }),
				page('files', 'Invoices', {
					view: 'gallery',
					coverProperty: p('Invoices', 'Attachments'),
					rule: { kind: 'everyone' },
				}),
			],
			forms: [{ formId: form, linkProperty: p('Enquiries', 'Client') }],
			charts: [{ chartId: chart, pageId: 'projects' }],
			showInvoices: true,
		}
		const saved = await saveSetup(t, a.token, body)
		expect(saved.status, JSON.stringify(saved.body)).toBe(201)
		expect(saved.body.logoUrl).toBe(`${t.config.publicUrl}/api/portal/${body.slug}/logo?v=${logo.id}`)
		expect(saved.body.forms).toEqual([{ formId: form, linkProperty: p('Enquiries', 'Client') }])
		expect(saved.body.charts).toEqual([{ chartId: chart, pageId: 'projects' }])
		expect(saved.body.access).toEqual(access)
		expect(saved.body.pages).toHaveLength(7)
		expect(saved.body.pages[0].sort).toEqual([
			{ property: 'created_time', direction: 'descending' },
			{ property: p('Projects', 'Budget'), direction: 'ascending' },
		])
	})
})
