import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invoiceProfile } from '#src/test/invoices-workspace.ts'
import {
	insertSamplePortal,
	memberWithSession,
	propertyId,
	rowIdByTitle,
	type SampleDatabase,
	sampleDatabases,
} from '#src/test/portals.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { portals } from './portals.schema.ts'

// The invoices of the member's company in the portal (issue 18 item 5): only finalized documents
// billed to their company's row, never drafts or another company's, each with its own page.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})

afterAll(async () => {
	await t.close()
})

const base = '/dashboard/local_invoice/invoices'

async function invoiceFor(token: string, clients: SampleDatabase, rowId: string, price: string, finalize: boolean) {
	const rates = (await t.request('GET', '/dashboard/local_invoice/settings', { token })).body[0].taxRates
	const created = await t.request('POST', base, {
		token,
		json: {
			client: null,
			clientRow: { databaseId: clients.id, rowId, mapping: { name: propertyId(clients, 'Name') } },
			issueDate: '2020-01-01',
			dueDate: '2020-01-31',
			lines: [{ description: 'Design', quantity: '1', unitPrice: price, taxRateId: rates[0].id }],
		},
	})
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	if (finalize) {
		const finalized = await t.request('POST', `${base}/${created.body.id}/finalize`, { token })
		expect(finalized.status, JSON.stringify(finalized.body)).toBe(200)
		return finalized.body as { id: string; number: string; publicToken: string }
	}
	return created.body as { id: string }
}

describe('invoices in a portal', () => {
	test('a member sees their company’s finalized invoices, with what is due and their page', async () => {
		const owner = await t.signUp()
		await invoiceProfile(t, owner.token)
		const databases = await sampleDatabases(t, owner.token)
		const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
		const clients = databases.Clients as SampleDatabase
		const acme = await rowIdByTitle(t, clients.id, 'Acme Ltd')
		const globex = await rowIdByTitle(t, clients.id, 'Globex Corporation')
		const acmeInvoice = await invoiceFor(owner.token, clients, acme, '100', true)
		await invoiceFor(owner.token, clients, acme, '50', false)
		const globexInvoice = await invoiceFor(owner.token, clients, globex, '70', true)
		const portal = await insertSamplePortal(t, orgId, databases)
		const ada = await memberWithSession(t, portal, { email: 'ada@acme.example', companyRowId: acme })
		const gus = await memberWithSession(t, portal, { email: 'gus@globex.example', companyRowId: globex })
		const nobody = await memberWithSession(t, portal, { email: 'solo@example.com' })
		const list = (token: string) => t.request('GET', `/api/portal/${portal.slug}/invoices`, { token })

		// Off until the setup shows invoices.
		expect((await list(ada.token)).status).toBe(404)
		const me = (token: string) => t.request('GET', `/api/portal/${portal.slug}/me`, { token })
		expect((await me(ada.token)).body.hasInvoices).toBe(false)
		await t.db.update(portals).set({ showInvoices: true }).where(eq(portals.id, portal.id))
		expect((await me(ada.token)).body.hasInvoices).toBe(true)

		const seen = await list(ada.token)
		expect(seen.status).toBe(200)
		expect(seen.body.invoices).toEqual([
			expect.objectContaining({
				id: acmeInvoice.id,
				kind: 'invoice',
				status: 'finalized',
				isOverdue: true,
				total: '€119.00',
				due: '€119.00',
				dueMinor: 11900,
				url: expect.stringMatching(/\/i\/[\w-]{20,}$/),
			}),
		])
		const page = await t.request('GET', new URL(seen.body.invoices[0].url).pathname.replace('/i/', '/api/invoices/'))
		expect(page.status).toBe(200)
		expect(JSON.stringify(seen.body)).not.toContain(globexInvoice.id)

		const theirs = await list(gus.token)
		expect(theirs.body.invoices.map((one: { id: string }) => one.id)).toEqual([globexInvoice.id])
		expect((await list(nobody.token)).body).toEqual({ invoices: [] })
		expect((await list(owner.token)).status).toBe(401)
	})
})
