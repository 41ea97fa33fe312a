import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chartProjections } from '#src/features/charts/charts.schema.ts'
import { invoiceDocuments } from '#src/features/invoices/invoices.documents.schema.ts'
import { finishedExport } from '#src/test/exports.ts'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { fieldOf, publishedEnquiryForm, submitAnswers, uploadFile } from '#src/test/forms.ts'
import { insertSamplePortal, memberWithSession, type SampleDatabase } from '#src/test/portals.ts'
import { orgIdOf } from '#src/test/portals-setup.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { trackedWeek } from '#src/test/time-reports.ts'
import { until } from '#src/test/until.ts'
import { purgeDue } from './deletion.purge.ts'
import { organizationDeletions } from './deletion.schema.ts'

// The issue's walk (decision 040): two organizations with one of (nearly) everything; A is
// deleted by its owner, its public pages stop at once while B's answer; past the grace period the
// purge runs, and then no row of any table in any schema (pgboss.job included) holds A's id or
// the id of anything A had, no projection table of A's is left, and the file store holds nothing
// under A's prefixes; B's rows and files are as they were.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>

beforeAll(async () => {
	fake = await createFakeNotion()
	fake.seed()
	t = await createTestApp({
		FORM_MIN_FILL_SECONDS: '0',
		NOTION_API_BASE_URL: fake.url,
		NOTION_REQUESTS_PER_SECOND: '40',
		SYNC_INTERVAL_SECONDS: '3600',
	})
})
afterAll(async () => {
	await t?.close()
	await fake?.close()
})

const address = { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' }
const pdf = { name: 'brief.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.7 a short brief') }

type World = Awaited<ReturnType<typeof world>>

/** An organization with a form and answers with a file, a chart with its projection, a dashboard, a portal with a member, an invitation, a sent invoice and an export. */
async function world(name: string) {
	const owner = await t.signUp({ name: `${name} Owner` })
	const orgId = await orgIdOf(t, owner.token)
	// Time entries with a view and its shared report.
	const tracked = await trackedWeek(t, { owner, member: owner })
	const share = await t.request('POST', `/dashboard/local_time/views/${tracked.viewId}/shares`, {
		token: owner.token,
		json: {},
	})
	expect(share.status, JSON.stringify(share.body)).toBe(201)
	const timeReportToken = new URL(share.body.url as string).pathname.split('/').pop() as string
	const { form, databases } = await publishedEnquiryForm(t, owner.token)
	const upload = await uploadFile(t, form.id, fieldOf(form, 'Attachments').id, pdf)
	const answered = await submitAnswers(t, form, {
		[fieldOf(form, 'Name').id]: `${name} visitor`,
		[fieldOf(form, 'Attachments').id]: [upload],
	})
	expect(answered.status, JSON.stringify(answered.body)).toBe(201)

	const invoicesDatabase = databases.Invoices as SampleDatabase
	const amount = invoicesDatabase.properties.find((property) => property.name === 'Amount')?.id as string
	const chart = await t.request('POST', '/dashboard/local_charts/charts', {
		token: owner.token,
		json: {
			databaseId: invoicesDatabase.id,
			name: 'Amounts',
			config: { type: 'number', series: [{ id: 's', aggregation: 'sum', property: amount }] },
		},
	})
	expect(chart.status).toBe(201)
	const chartId = chart.body.id as string
	await t.request('PATCH', `/dashboard/local_charts/charts/${chartId}`, {
		token: owner.token,
		json: { published: true },
	})
	await t.request('GET', `/dashboard/local_charts/charts/${chartId}/render`, { token: owner.token })
	await until(
		'the projection',
		() => t.db.select().from(chartProjections).where(eq(chartProjections.databaseId, invoicesDatabase.id)),
		(rows) => rows.length === 1,
	)
	const dashboard = await t.request('POST', '/dashboard/charts/dashboards', {
		token: owner.token,
		json: { name: 'Overview', chartIds: [chartId] },
	})
	expect(dashboard.status).toBe(201)
	const dashboardId = dashboard.body.id as string
	await t.request('PATCH', `/dashboard/charts/dashboards/${dashboardId}`, {
		token: owner.token,
		json: { published: true },
	})

	const portal = await insertSamplePortal(t, orgId, databases)
	const portalMember = await memberWithSession(t, portal, { email: `client-${name}@example.com` })

	const invited = await t.request('POST', '/dashboard/team_invites', {
		token: owner.token,
		json: { email: `invitee-${name.toLowerCase()}@example.com`, role: 'member' },
	})
	expect(invited.status, JSON.stringify(invited.body)).toBeLessThan(300)

	const profile = await t.request('POST', '/dashboard/local_invoice/settings', {
		token: owner.token,
		json: {
			legalName: `${name} GmbH`,
			address,
			email: 'billing@acme.example',
			taxRates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true }],
		},
	})
	expect(profile.status, JSON.stringify(profile.body)).toBe(201)
	const draft = await t.request('POST', '/dashboard/local_invoice/invoices', {
		token: owner.token,
		json: {
			client: { name: 'Northwind Ltd', email: `ap-${name.toLowerCase()}@northwind.example`, address: null },
			issueDate: '2026-03-01',
			lines: [
				{ description: 'Design work', quantity: '1', unitPrice: '1000.00', taxRateId: profile.body.taxRates[0].id },
			],
		},
	})
	expect(draft.status, JSON.stringify(draft.body)).toBe(201)
	const invoiceId = draft.body.id as string
	expect(
		(await t.request('POST', `/dashboard/local_invoice/invoices/${invoiceId}/finalize`, { token: owner.token })).status,
	).toBe(200)
	const sent = await t.request('POST', `/dashboard/local_invoice/invoices/${invoiceId}/send`, {
		token: owner.token,
		json: {},
	})
	expect(sent.status, JSON.stringify(sent.body)).toBe(200)
	const [document] = await t.db
		.select({ publicToken: invoiceDocuments.publicToken })
		.from(invoiceDocuments)
		.where(eq(invoiceDocuments.id, invoiceId))
	const invoiceToken = document?.publicToken as string
	await until(
		'the sent PDF',
		async () => filesUnder(`invoices/${orgId}`),
		(files) => files.length > 0,
	)

	// A Notion workspace (the same one for both organizations), its databases mirrored.
	const notion = await t.request('POST', '/dashboard/workspaces', {
		token: owner.token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	expect(notion.status).toBe(201)
	await until(
		'the Notion sync',
		async () =>
			(
				await t.request('GET', `/dashboard/notion/databases?workspaceId=${notion.body.workspace.id}`, {
					token: owner.token,
				})
			).body as { sync: { state: string; lastSyncedAt: string | null } }[],
		(found) => found.length >= 4 && found.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt !== null),
	)

	const started = await t.request('POST', '/dashboard/exports', { token: owner.token })
	expect(started.status, JSON.stringify(started.body)).toBeLessThan(300)
	const exported = await finishedExport(t, owner.token, started.body.id ?? started.body.export?.id)
	expect(exported.status).toBe('ready')

	return { owner, orgId, formId: form.id, chartId, dashboardId, portal, portalMember, invoiceToken, timeReportToken }
}

/** The files the local store holds under a prefix (DATA_DIR/uploads). */
function filesUnder(prefix: string): string[] {
	const folder = path.join(t.dataDir, 'uploads', prefix)
	if (!existsSync(folder)) {
		return []
	}
	return readdirSync(folder, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.join(entry.parentPath, entry.name))
}

/** The public pages of a world, by name: their status codes. */
async function publicStatuses(w: World) {
	return {
		form: (await t.request('GET', `/api/forms/${w.formId}`)).status,
		chart: (await t.request('GET', `/api/local_charts/charts/${w.chartId}`)).status,
		dashboard: (await t.request('GET', `/api/charts/dashboards/${w.dashboardId}`)).status,
		portal: (await t.request('GET', `/api/portal/${w.portal.slug}/me`, { token: w.portalMember.token })).status,
		invoice: (await t.request('GET', `/api/invoices/${w.invoiceToken}`)).status,
		timeReport: (await t.request('GET', `/api/time/reports/${w.timeReportToken}`)).status,
	}
}

type Table = { schema: string; name: string }

async function everyTable(): Promise<Table[]> {
	const result = (await t.db.execute(sql`
		select table_schema as schema, table_name as name from information_schema.tables
		where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
		order by 1, 2`)) as unknown as { rows: Table[] }
	return result.rows
}

/** Every id of the organization's objects: the `id` of each row of each table with an organization column. */
async function idsOf(orgId: string): Promise<string[]> {
	const result = (await t.db.execute(sql`
		select c.table_name as name from information_schema.columns c
		join information_schema.columns i on i.table_schema = c.table_schema and i.table_name = c.table_name and i.column_name = 'id'
		join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
		where c.table_schema = current_schema() and c.column_name = 'organization_id'`)) as unknown as {
		rows: { name: string }[]
	}
	const ids = new Set<string>([orgId])
	for (const { name } of result.rows) {
		const rows = (await t.db.execute(
			sql`select id::text as id from ${sql.identifier(name)} where organization_id = ${orgId}`,
		)) as unknown as { rows: { id: string }[] }
		for (const row of rows.rows) {
			// Short ids (a page's "projects") are not unique enough to look for in text.
			if (row.id.length >= 12) {
				ids.add(row.id)
			}
		}
	}
	return [...ids]
}

/** Per table, the rows whose text holds any of `ids`. */
async function rowsNaming(ids: string[]): Promise<Map<string, number>> {
	const patterns = sql`array[${sql.join(
		ids.map((id) => sql`${`%${id}%`}`),
		sql`, `,
	)}]::text[]`
	const counts = new Map<string, number>()
	for (const table of await everyTable()) {
		const qualified = sql`${sql.identifier(table.schema)}.${sql.identifier(table.name)}`
		const result = (await t.db.execute(
			sql`select count(*)::int as n from ${qualified} x where x::text like any(${patterns})`,
		)) as unknown as { rows: { n: number }[] }
		const n = Number(result.rows[0]?.n ?? 0)
		if (n > 0) {
			counts.set(`${table.schema}.${table.name}`, n)
		}
	}
	return counts
}

describe('deleting an organization, then its purge', () => {
	test('public pages stop at once; after the purge nothing of it is left anywhere, and the other organization is untouched', {
		timeout: 240_000,
	}, async () => {
		const a = await world('Alpha')
		const b = await world('Bravo')
		const served = { form: 200, chart: 200, dashboard: 200, portal: 200, invoice: 200, timeReport: 200 }
		expect(await publicStatuses(a)).toEqual(served)
		expect(await publicStatuses(b)).toEqual(served)

		const idsA = await idsOf(a.orgId)
		const idsB = await idsOf(b.orgId)
		expect(idsA.length).toBeGreaterThan(50)
		expect((await rowsNaming(idsA)).size).toBeGreaterThan(10)
		const bBefore = await rowsNaming(idsB)
		const bFilesBefore = [
			...filesUnder(b.orgId),
			...filesUnder(`invoices/${b.orgId}`),
			...filesUnder(`exports/${b.orgId}`),
		]
		expect(filesUnder(a.orgId).length).toBeGreaterThan(0)
		expect(filesUnder(`exports/${a.orgId}`).length).toBeGreaterThan(0)

		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: a.owner.token })
		const deleted = await t.request('POST', '/dashboard/organization/delete', {
			token: a.owner.token,
			json: { name: ` ${details.body.name} ` },
		})
		expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
		expect(deleted.body.deletion.requestedBy).toBe('Alpha Owner')
		// At once, in this process (charts and forms answer UNAVAILABLE, portals and invoices 404).
		expect(await publicStatuses(a)).toEqual({
			form: 409,
			chart: 409,
			dashboard: 409,
			portal: 404,
			invoice: 404,
			timeReport: 409,
		})
		expect(await publicStatuses(b)).toEqual(served)

		// Past the grace period: the hourly pass purges it.
		await t.db
			.update(organizationDeletions)
			.set({ purgeAfter: new Date(Date.now() - 1000) })
			.where(eq(organizationDeletions.organizationId, a.orgId))
		expect(await purgeDue(t.services.deletion.deps)).toBe(1)
		// Run again (a purge that failed halfway): nothing left to do, no error.
		expect(await purgeDue(t.services.deletion.deps)).toBe(0)

		expect(Object.fromEntries(await rowsNaming(idsA))).toEqual({})
		const projections = (await t.db.execute(
			sql`select tablename from pg_tables where starts_with(tablename, 'chart_proj_')`,
		)) as unknown as { rows: { tablename: string }[] }
		const registered = await t.db.select({ tableName: chartProjections.tableName }).from(chartProjections)
		expect(projections.rows.map((row) => row.tablename).sort()).toEqual(registered.map((row) => row.tableName).sort())
		expect(registered).toHaveLength(1)
		expect([...filesUnder(a.orgId), ...filesUnder(`invoices/${a.orgId}`), ...filesUnder(`exports/${a.orgId}`)]).toEqual(
			[],
		)

		// B's rows as they were; its jobs come and go with the background work, so pgboss is left out.
		const ownRows = (counts: Map<string, number>) =>
			Object.fromEntries([...counts].filter(([table]) => !table.startsWith('pgboss.')))
		expect(ownRows(await rowsNaming(idsB))).toEqual(ownRows(bBefore))
		expect(Object.keys(ownRows(bBefore)).length).toBeGreaterThan(10)
		expect([...filesUnder(b.orgId), ...filesUnder(`invoices/${b.orgId}`), ...filesUnder(`exports/${b.orgId}`)]).toEqual(
			bFilesBefore,
		)
		expect(await publicStatuses(b)).toEqual(served)
		// A's owner has no organization left in the list (the account stays).
		const list = await t.request('GET', '/dashboard/organizations', { token: a.owner.token })
		expect(JSON.stringify(list.body)).not.toContain(a.orgId)
	})
})
