import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectAbsent, recorded, runContributor } from '#src/test/export-archive.ts'
import { invoiceProfile } from '#src/test/invoices-workspace.ts'
import { orgIdOf } from '#src/test/portals-setup.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { createInvoicesExport } from './invoices.public.ts'
import { invoiceStripeAccounts } from './invoices.schema.ts'

// The invoices part of an organization's export: settings without Stripe secrets, every document
// as JSON (drafts too) with payments and history, a finalized one's PDF and UBL e-invoice as its
// downloads have them; nothing of another organization's.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const base = '/dashboard/local_invoice/invoices'
const client = { name: 'Northwind Ltd', address: { lines: [], postcode: 'BS1', city: 'Bristol', country: 'GB' } }

async function invoices(token: string) {
	const { profileId, rateIds } = await invoiceProfile(t, token)
	const lines = [{ description: 'Design work', quantity: '2', unitPrice: '100.00', taxRateId: rateIds[0] }]
	const finalized = await t.request('POST', base, { token, json: { client, issueDate: '2026-03-01', lines } })
	expect(finalized.status, JSON.stringify(finalized.body)).toBe(201)
	const numbered = await t.request('POST', `${base}/${finalized.body.id}/finalize`, { token })
	expect(numbered.status, JSON.stringify(numbered.body)).toBe(200)
	const payment = await t.request('POST', `${base}/${finalized.body.id}/payments`, {
		token,
		json: { date: '2026-03-10', amount: '50.00', method: 'bank_transfer' },
	})
	expect(payment.status, JSON.stringify(payment.body)).toBe(201)
	const draft = await t.request('POST', base, { token, json: { client: { name: 'Draft client' }, lines } })
	expect(draft.status).toBe(201)
	return { profileId, finalized: numbered.body, draft: draft.body }
}

describe('invoices export', () => {
	test('settings, documents, PDFs and e-invoices, without Stripe secrets', async () => {
		const owner = await t.signUp()
		const orgId = await orgIdOf(t, owner.token)
		const { profileId, finalized, draft } = await invoices(owner.token)
		// A connected Stripe account as stored (sealed secrets); connecting one needs Stripe itself.
		const secretKey = 'sealed:sk_test_export_must_not_hold_this'
		const webhookSecret = 'sealed:whsec_export_must_not_hold_this'
		await t.db.insert(invoiceStripeAccounts).values({
			profileId,
			organizationId: orgId,
			secretKey,
			webhookSecret,
			webhookEndpointId: 'we_123',
			accountName: 'Acme payments',
			accountId: 'acct_123',
		})
		const other = await t.signUp()
		const theirs = await invoices(other.token)

		const archive = await runContributor(t, createInvoicesExport(t.services.invoices.deps), orgId)

		expect(recorded(archive, 'invoiceProfiles')).toEqual([profileId])
		expect(recorded(archive, 'invoices')).toEqual([finalized.id, draft.id].sort())
		const documents = archive.json('invoices/documents.json') as {
			id: string
			number: string | null
			status: string
			payments: { id: string; amountMinor: number }[]
			events: { kind: string }[]
		}[]
		const invoice = documents.find((document) => document.id === finalized.id)
		expect(invoice).toMatchObject({ number: finalized.number, status: 'partially_paid' })
		expect(invoice?.payments.map((payment) => payment.amountMinor)).toEqual([5000])
		expect(invoice?.events.map((event) => event.kind)).toContain('finalized')
		expect(recorded(archive, 'invoicePayments')).toEqual(invoice?.payments.map((payment) => payment.id))
		expect(documents.find((document) => document.id === draft.id)).toMatchObject({ status: 'draft', number: null })

		const settings = archive.json('invoices/settings.json') as { profiles: Record<string, unknown>[] }
		expect(settings.profiles).toEqual([
			expect.objectContaining({
				id: profileId,
				legalName: 'Acme GmbH',
				taxRates: [expect.objectContaining({ rate: '19' }), expect.objectContaining({ rate: '7' })],
				numbers: [expect.objectContaining({ number: finalized.number })],
				stripeAccount: expect.objectContaining({ accountName: 'Acme payments', accountId: 'acct_123' }),
			}),
		])

		// The finalized invoice's files; the draft has none.
		const pdf = Buffer.from(archive.files.get(`invoices/${finalized.number}.pdf`) ?? [])
		expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
		const ubl = await t.request('GET', `${base}/${finalized.id}/einvoice?format=ubl`, { token: owner.token })
		expect(ubl.status).toBe(200)
		expect(archive.text(`invoices/${finalized.number}-ubl.xml`)).toBe(ubl.body)
		expect([...archive.files.keys()].filter((path) => /\.(pdf|xml)$/.test(path))).toHaveLength(2)

		const [stored] = await t.db
			.select()
			.from(invoiceStripeAccounts)
			.where(eq(invoiceStripeAccounts.profileId, profileId))
		expect(stored?.secretKey).toBe(secretKey)
		expectAbsent(archive, secretKey)
		expectAbsent(archive, webhookSecret)
		expectAbsent(archive, theirs.finalized.id)
		expectAbsent(archive, theirs.profileId)
	})
})
