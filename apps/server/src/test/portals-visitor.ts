import type { PortalRule } from '@blocksmith/contracts/portals.ts'
import type { RowValues } from '@blocksmith/contracts/workspaces.ts'
import { and, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { portals } from '#src/features/portals/portals.schema.ts'
import {
	insertSamplePortal,
	memberWithSession,
	page,
	propertyId,
	rowIdByTitle,
	type SampleDatabase,
	sampleDatabases,
} from '#src/test/portals.ts'
import type { TestApp } from '#src/test/test-app.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'

// The visitor tests' world: the sample workspace with a portal of three pages (Projects and
// Invoices by company, the member's own Clients row), three members of two companies (two at
// Acme, one at Globex), and rows changed so that relations and files cross the two companies.

export type VisitorWorld = Awaited<ReturnType<typeof visitorWorld>>

export async function visitorWorld(t: TestApp) {
	const owner = await t.signUp({ name: 'Olive Owner' })
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
	expect(details.status).toBe(200)
	const orgId = details.body.id as string
	const databases = await sampleDatabases(t, owner.token)
	const projects = databases.Projects as SampleDatabase
	const invoices = databases.Invoices as SampleDatabase
	const clients = databases.Clients as SampleDatabase
	const p = (name: string) => propertyId(projects, name)
	const i = (name: string) => propertyId(invoices, name)
	const c = (name: string) => propertyId(clients, name)
	const portal = await insertSamplePortal(t, orgId, databases, {
		pages: [
			page({
				id: 'projects',
				title: 'Projects',
				databaseId: projects.id,
				properties: [p('Client'), p('Status'), p('Budget'), p('Timeline')],
				filterable: [p('Status'), p('Budget'), p('Client')],
				sort: [{ property: p('Budget'), direction: 'descending' }],
				rule: { kind: 'company', property: p('Client') },
			}),
			page({
				id: 'invoices',
				title: 'Invoices',
				databaseId: invoices.id,
				properties: [i('Client'), i('Amount'), i('Due'), i('Status'), i('Attachments')],
				rule: { kind: 'company', property: i('Client') },
			}),
			page({
				id: 'company',
				title: 'Your company',
				databaseId: clients.id,
				properties: [c('Email'), c('Stage'), c('Account manager')],
				rule: { kind: 'company_row' },
			}),
		],
	})
	await t.db
		.update(portals)
		.set({ people: { [owner.userId]: 'Olive Owner' } })
		.where(eq(portals.id, portal.id))

	const acmeId = await rowIdByTitle(t, clients.id, 'Acme Ltd')
	const globexId = await rowIdByTitle(t, clients.id, 'Globex Corporation')
	const ana = await memberWithSession(t, portal, { email: 'ana@acme.example', companyRowId: acmeId })
	const ben = await memberWithSession(t, portal, { email: 'ben@acme.example', companyRowId: acmeId })
	const gil = await memberWithSession(t, portal, { email: 'gil@globex.example', companyRowId: globexId })

	// A project of both companies: each sees it, with only their own company in its Client cell.
	const shared = await rowIdByTitle(t, projects.id, 'Website redesign')
	await setValues(t, projects.id, shared, { [p('Client')]: [acmeId, globexId] })
	// Files on one invoice of each company: a blob, and a file elsewhere on the web.
	const acmeInvoice = await rowIdByTitle(t, invoices.id, '#1001')
	const globexInvoice = await rowIdByTitle(t, invoices.id, '#1002')
	await setValues(t, invoices.id, acmeInvoice, {
		[i('Attachments')]: [
			{ name: 'acme-invoice.pdf', url: null, blobId: 'blob-acme-1' },
			{ name: 'acme-photo.png', url: 'https://files.example/acme-photo.png', blobId: null },
		],
	})
	await setValues(t, invoices.id, globexInvoice, {
		[i('Attachments')]: [{ name: 'globex-secret.pdf', url: 'https://files.example/globex-secret.pdf', blobId: null }],
	})
	return {
		t,
		owner,
		orgId,
		portal,
		databases: { projects, invoices, clients },
		props: { p, i, c },
		companies: { acmeId, globexId },
		members: { ana, ben, gil },
		rows: { shared, acmeInvoice, globexInvoice },
	}
}

export async function setValues(t: TestApp, databaseId: string, externalId: string, values: RowValues) {
	const [row] = await t.db
		.select({ values: workspaceRows.values })
		.from(workspaceRows)
		.where(and(eq(workspaceRows.databaseId, databaseId), eq(workspaceRows.externalId, externalId)))
	if (!row) {
		throw new Error(`no row ${externalId}`)
	}
	await t.db
		.update(workspaceRows)
		.set({ values: { ...row.values, ...values } })
		.where(and(eq(workspaceRows.databaseId, databaseId), eq(workspaceRows.externalId, externalId)))
}

/**
 * The rows a rule should grant, computed apart from the portal's SQL: every row of the database
 * read here and matched in JavaScript.
 */
export async function expectedRows(t: TestApp, databaseId: string, rule: PortalRule, companyRowId: string) {
	const rows = await t.db
		.select({ externalId: workspaceRows.externalId, title: workspaceRows.title, values: workspaceRows.values })
		.from(workspaceRows)
		.where(eq(workspaceRows.databaseId, databaseId))
	return rows.filter((row) => {
		if (rule.kind === 'company') {
			const value = row.values[rule.property]
			return Array.isArray(value) && (value as unknown[]).includes(companyRowId)
		}
		if (rule.kind === 'company_row') {
			return row.externalId === companyRowId
		}
		throw new Error(`rule ${rule.kind} not used here`)
	})
}

/** Every page of a list, following its cursor. */
export async function allRows(t: TestApp, path: string, token: string, limit = 2) {
	const rows: { id: string; title: string; cells: Record<string, unknown> }[] = []
	let cursor: string | null = null
	for (let pageNumber = 0; pageNumber < 100; pageNumber++) {
		const separator = path.includes('?') ? '&' : '?'
		const url: string = `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
		const response = await t.request('GET', url, { token })
		expect(response.status, JSON.stringify(response.body)).toBe(200)
		rows.push(...response.body.rows)
		cursor = response.body.nextCursor
		if (!cursor) {
			return rows
		}
	}
	throw new Error('more than 100 pages')
}
