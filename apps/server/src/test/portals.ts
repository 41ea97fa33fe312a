import { randomUUID } from 'node:crypto'
import {
	type PortalPage,
	type PortalSetupInput,
	portalAccessSchema,
	portalBrandingSchema,
	portalPageSchema,
} from '@blocksmith/contracts/portals.ts'
import { and, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { portalMembers, portals } from '#src/features/portals/portals.schema.ts'
import { createPortalSession } from '#src/features/portals/portals.session.ts'
import type { TestApp } from '#src/test/test-app.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'

// What the portal tests share: the sample workspace, a portal on it stored directly (the setup
// API has its own tests), members of two client companies, and their sessions.

export type SampleDatabase = { id: string; name: string; properties: { id: string; name: string; type: string }[] }

/** Creates the sample workspace for the account and returns its databases by name. */
export async function sampleDatabases(t: TestApp, token: string): Promise<Record<string, SampleDatabase>> {
	const created = await t.request('POST', '/dashboard/workspaces/sample', { token })
	expect(created.status).toBe(201)
	const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${created.body.workspace.id}`, { token })
	return Object.fromEntries((list.body as SampleDatabase[]).map((database) => [database.name, database]))
}

export function propertyId(database: SampleDatabase, name: string): string {
	const found = database.properties.find((property) => property.name === name)
	if (!found) {
		throw new Error(`No property ${name} in ${database.name}`)
	}
	return found.id
}

/** The external id of a row by its title. */
export async function rowIdByTitle(t: TestApp, databaseId: string, title: string): Promise<string> {
	const [row] = await t.db
		.select({ id: workspaceRows.externalId })
		.from(workspaceRows)
		.where(and(eq(workspaceRows.databaseId, databaseId), eq(workspaceRows.title, title)))
	if (!row) {
		throw new Error(`No row ${title}`)
	}
	return row.id
}

/** A page as the setup stores it, with defaults filled. */
export function page(
	input: Partial<PortalPage> & Pick<PortalPage, 'id' | 'title' | 'databaseId' | 'rule'>,
): PortalPage {
	return portalPageSchema.parse({ properties: [], ...input })
}

/**
 * A portal stored directly: the sample's Projects and Invoices shared company-wide through
 * their Client relation, Clients as the companies database.
 */
export async function insertSamplePortal(
	t: TestApp,
	orgId: string,
	databases: Record<string, SampleDatabase>,
	overrides: Partial<PortalSetupInput> & { slug?: string } = {},
) {
	const projects = databases.Projects as SampleDatabase
	const invoices = databases.Invoices as SampleDatabase
	const clients = databases.Clients as SampleDatabase
	const id = randomUUID()
	const pages = overrides.pages ?? [
		page({
			id: 'projects',
			title: 'Projects',
			databaseId: projects.id,
			properties: ['Client', 'Status', 'Budget', 'Timeline'].map((name) => propertyId(projects, name)),
			rule: { kind: 'company', property: propertyId(projects, 'Client') },
		}),
		page({
			id: 'invoices',
			title: 'Invoices',
			databaseId: invoices.id,
			properties: ['Client', 'Amount', 'Due', 'Status', 'Attachments'].map((name) => propertyId(invoices, name)),
			rule: { kind: 'company', property: propertyId(invoices, 'Client') },
		}),
	]
	const [portal] = await t.db
		.insert(portals)
		.values({
			id,
			organizationId: orgId,
			tool: 'local',
			name: overrides.name ?? 'Client portal',
			slug: overrides.slug ?? `portal-${id.slice(0, 8)}`,
			customDomain: overrides.customDomain ?? null,
			branding: portalBrandingSchema.parse(overrides.branding ?? {}),
			access: portalAccessSchema.parse({ companiesDatabaseId: clients.id, ...overrides.access }),
			pages: pages.map((p) => portalPageSchema.parse(p)),
		})
		.returning()
	if (!portal) {
		throw new Error('portal not stored')
	}
	return portal
}

/** A member stored directly (invitations have their own tests), with a session token. */
export async function memberWithSession(
	t: TestApp,
	portal: { id: string; organizationId: string },
	member: { email: string; companyRowId?: string | null; memberRowId?: string | null; personRef?: string | null },
) {
	const id = randomUUID()
	await t.db.insert(portalMembers).values({
		id,
		organizationId: portal.organizationId,
		portalId: portal.id,
		email: member.email.toLowerCase(),
		companyRowId: member.companyRowId ?? null,
		memberRowId: member.memberRowId ?? null,
		personRef: member.personRef ?? null,
		status: 'active',
	})
	const session = await createPortalSession(
		{ db: t.db, now: () => new Date() },
		{ id, portalId: portal.id, organizationId: portal.organizationId },
	)
	return { id, token: session.token }
}
