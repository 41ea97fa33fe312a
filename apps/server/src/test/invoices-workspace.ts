import { and, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'

// The invoices ↔ workspace tests' shared steps: a settings profile, mapping the invoices
// database as suggested, and waiting for an invoice's row writes to be delivered.

export type Rates = {
	name: string
	categoryCode: string
	rate: string
	exemptionReason?: string
	isDefault?: boolean
}[]

const address = { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' }

/** A settings profile for the account (19 % and 7 % unless rates are given). */
export async function invoiceProfile(t: TestApp, token: string, options: { currency?: string; rates?: Rates } = {}) {
	const created = await t.request('POST', '/dashboard/local_invoice/settings', {
		token,
		json: {
			legalName: 'Acme GmbH',
			address,
			currency: options.currency ?? 'EUR',
			taxRates: options.rates ?? [
				{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true },
				{ name: 'VAT 7 %', categoryCode: 'S', rate: '7' },
			],
		},
	})
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	return { profileId: created.body.id as string, rateIds: (created.body.taxRates as { id: string }[]).map((r) => r.id) }
}

type Candidate = { id: string; name: string; suggested: { mapping: Record<string, unknown>; isComplete: boolean } }

/** Maps the tool's database named `name` as the invoices database, with its suggested mapping (changed by `adjust`). */
export async function mapInvoices(
	t: TestApp,
	token: string,
	tool: 'local' | 'notion',
	name = 'Invoices',
	adjust: (mapping: Record<string, unknown>) => Record<string, unknown> = (mapping) => mapping,
) {
	const state = await t.request('GET', `/dashboard/${tool}/invoices/database`, { token })
	expect(state.status).toBe(200)
	const candidate = (state.body.candidates as Candidate[]).find((one) => one.name === name) as Candidate
	expect(candidate.suggested.isComplete).toBe(true)
	const mapping = adjust(candidate.suggested.mapping)
	const saved = await t.request('PUT', `/dashboard/${tool}/invoices/database`, {
		token,
		json: { databaseId: candidate.id, mapping },
	})
	expect(saved.status, JSON.stringify(saved.body)).toBe(200)
	return { databaseId: candidate.id, mapping }
}

/** Waits until every row write of the document is delivered; the row as stored then. */
export async function deliveredRow(t: TestApp, documentId: string, count?: number) {
	const writes = await until(
		`the row writes of invoice ${documentId}`,
		() =>
			t.db
				.select()
				.from(workspaceWrites)
				.where(eq(workspaceWrites.source, `invoice:${documentId}`)),
		(list) =>
			list.length > 0 &&
			(count === undefined || list.length === count) &&
			list.every((write) => write.state === 'delivered' || write.state === 'dead'),
		30_000,
	)
	expect(writes.map((write) => [write.state, write.lastError])).toEqual(writes.map(() => ['delivered', null]))
	const externalId = writes[0]?.externalRowId as string
	const [row] = await t.db
		.select()
		.from(workspaceRows)
		.where(and(eq(workspaceRows.databaseId, writes[0]?.databaseId as string), eq(workspaceRows.externalId, externalId)))
	return { row, writes, externalId }
}
