import { createHash, randomBytes } from 'node:crypto'
import type { PlanId } from '@blocksmith/contracts/subscriptions.ts'
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { subscriptions } from '#src/core/subscriptions/subscriptions.schema.ts'
import { propertyId, type SampleDatabase, sampleDatabases } from '#src/test/portals.ts'
import type { TestApp } from '#src/test/test-app.ts'

// What the portal setup tests share: an account with the sample workspace, a valid setup over
// its databases (Projects and Invoices by their Client relation, Clients as the companies), the
// save call, and a logo upload.

export type SetupAccount = {
	token: string
	userId: string
	orgId: string
	databases: Record<string, SampleDatabase>
}

export async function orgIdOf(t: TestApp, token: string): Promise<string> {
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token })
	expect(details.status).toBe(200)
	return details.body.id as string
}

export async function accountWithSample(t: TestApp): Promise<SetupAccount> {
	const account = await t.signUp()
	const databases = await sampleDatabases(t, account.token)
	return { token: account.token, userId: account.userId, orgId: await orgIdOf(t, account.token), databases }
}

export function uniqueSlug(prefix = 'portal'): string {
	return `${prefix}-${randomBytes(4).toString('hex')}`
}

/** A setup that saves: the sample's Projects and Invoices shared company-wide. */
export function sampleSetup(databases: Record<string, SampleDatabase>, overrides: Record<string, unknown> = {}) {
	const projects = databases.Projects as SampleDatabase
	const invoices = databases.Invoices as SampleDatabase
	const clients = databases.Clients as SampleDatabase
	return {
		name: 'Client portal',
		slug: uniqueSlug(),
		access: { companiesDatabaseId: clients.id },
		pages: [
			{
				id: 'projects',
				title: 'Projects',
				databaseId: projects.id,
				properties: ['Client', 'Status', 'Budget', 'Timeline'].map((name) => propertyId(projects, name)),
				rule: { kind: 'company', property: propertyId(projects, 'Client') },
			},
			{
				id: 'invoices',
				title: 'Invoices',
				databaseId: invoices.id,
				properties: ['Client', 'Amount', 'Due', 'Status'].map((name) => propertyId(invoices, name)),
				rule: { kind: 'company', property: propertyId(invoices, 'Client') },
				showContent: false,
			},
		],
		...overrides,
	}
}

export function saveSetup(t: TestApp, token: string, body: unknown, tool: 'local' | 'notion' = 'local') {
	return t.request('POST', `/dashboard/${tool}_portal/setup/update_setup`, { token, json: body })
}

export function fieldsOf(response: { body: { errors?: { field: string }[] } }): string[] {
	return (response.body.errors ?? []).map((error) => error.field)
}

/** Moves the organization to another plan (its subscription row read first, so it exists). */
export async function putOnPlan(t: TestApp, token: string, orgId: string, planId: PlanId): Promise<void> {
	expect((await t.request('GET', '/dashboard/local_portal/setup', { token })).status).toBe(200)
	await t.db.update(subscriptions).set({ planId }).where(eq(subscriptions.organizationId, orgId))
}

/** A PNG's first bytes uploaded as the team's file, as the dashboard's direct upload does. */
export async function uploadImage(t: TestApp, token: string, name: string, type: string) {
	const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82])
	const announced = await t.request('POST', '/dashboard/active_storage/direct_uploads', {
		token,
		json: {
			filename: name,
			byteSize: bytes.byteLength,
			checksum: createHash('md5').update(bytes).digest('base64'),
			contentType: type,
		},
	})
	expect(announced.status, JSON.stringify(announced.body)).toBe(200)
	const url = new URL(announced.body.directUpload.url)
	const put = await t.request('PUT', `${url.pathname}${url.search}`, {
		body: bytes,
		headers: announced.body.directUpload.headers,
	})
	expect(put.status).toBe(200)
	return { id: announced.body.id as string, bytes }
}
