import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { type Database, idOf, sample } from '#src/test/time.ts'
import { expected, trackedWeek } from '#src/test/time-reports.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { unbilledTime } from '../time/time.public.ts'

// Lines made from the workspace: rows of the sample's Projects read from the mirror with a
// mapping; a time view's unbilled time through the time module's door, marked billed when the
// invoice is finalized (another invoice's rows stop a finalization, and no number is used) and
// offered again when it is voided. Another organization's database or view is refused.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const base = '/dashboard/local_invoice/invoices'
const client = { name: 'Northwind Ltd' }

async function profileFor(token: string) {
	const created = await t.request('POST', '/dashboard/local_invoice/settings', {
		token,
		json: {
			legalName: 'Acme GmbH',
			address: { lines: [], postcode: '10115', city: 'Berlin', country: 'DE' },
			currency: 'EUR',
			taxRates: [
				{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true },
				{ name: 'VAT 7 %', categoryCode: 'S', rate: '7' },
			],
		},
	})
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	return created.body as { id: string; taxRates: { id: string }[] }
}

async function draftOf(token: string, json: Record<string, unknown> = {}) {
	const created = await t.request('POST', base, { token, json: { client, ...json } })
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	return created.body as { id: string }
}

const fieldsOf = (response: { body: { errors?: { field: string }[] } }) =>
	(response.body.errors ?? []).map((error) => error.field)

describe('lines from rows', () => {
	test('three Projects rows become lines with the mapped name and budget, after the free lines', async () => {
		const owner = await t.signUp()
		const stranger = await t.signUp()
		const profile = await profileFor(owner.token)
		await profileFor(stranger.token)
		const { byName } = await sample(t, owner.token)
		const projects = byName.Projects as Database
		const name = idOf(projects, 'Name') as string
		const budget = idOf(projects, 'Budget') as string
		const rows = (await t.db.select().from(workspaceRows).where(eq(workspaceRows.databaseId, projects.id)))
			.filter((row) => typeof row.values[budget] === 'number')
			.slice(0, 3)
		expect(rows).toHaveLength(3)
		const reduced = profile.taxRates[1]?.id as string
		const draft = await draftOf(owner.token, {
			lines: [{ description: 'Setup', quantity: '1', unitPrice: '50', taxRateId: reduced }],
		})
		const mapping = { description: name, unitPrice: budget }
		const added = await t.request('POST', `${base}/${draft.id}/lines/from_rows`, {
			token: owner.token,
			json: { databaseId: projects.id, rowIds: rows.map((row) => row.id), mapping },
		})
		expect(added.status, JSON.stringify(added.body)).toBe(200)
		expect(added.body.lines.slice(1)).toEqual(
			rows.map((row) => ({
				description: row.values[name],
				quantity: '1',
				unit: null,
				unitPrice: String(row.values[budget]),
				discount: null,
				taxRateId: profile.taxRates[0]?.id,
			})),
		)
		expect(added.body.totals.vatBreakdown.map((group: { rate: string }) => group.rate)).toEqual(['7', '19'])

		const bad = await t.request('POST', `${base}/${draft.id}/lines/from_rows`, {
			token: owner.token,
			json: { databaseId: projects.id, rowIds: [rows[0]?.id, 'nope'], mapping: { ...mapping, unit: 'missing' } },
		})
		expect(bad.status).toBe(400)
		expect(fieldsOf(bad)).toEqual(['mapping.unit'])
		const unknownRow = await t.request('POST', `${base}/${draft.id}/lines/from_rows`, {
			token: owner.token,
			json: { databaseId: projects.id, rowIds: [rows[0]?.id, 'nope'], mapping },
		})
		expect(fieldsOf(unknownRow)).toEqual(['rowIds.1'])
		// Another organization's database is not one to choose; its invoice is not found.
		const theirs = await draftOf(stranger.token)
		const foreign = await t.request('POST', `${base}/${theirs.id}/lines/from_rows`, {
			token: stranger.token,
			json: { databaseId: projects.id, rowIds: [rows[0]?.id], mapping },
		})
		expect(foreign.status).toBe(400)
		expect(fieldsOf(foreign)).toEqual(['databaseId'])
		const notFound = await t.request('POST', `${base}/${draft.id}/lines/from_rows`, {
			token: stranger.token,
			json: { databaseId: projects.id, rowIds: [rows[0]?.id], mapping },
		})
		expect(notFound.status).toBe(404)
	})
})

describe('a client from a row', () => {
	test('copied from the mirror when saved and when finalized, then frozen; filtered by its row id', async () => {
		const owner = await t.signUp()
		const stranger = await t.signUp()
		await profileFor(owner.token)
		await profileFor(stranger.token)
		const { byName } = await sample(t, owner.token)
		const clients = byName.Clients as Database
		const [row] = await t.db.select().from(workspaceRows).where(eq(workspaceRows.databaseId, clients.id)).limit(1)
		const clientRow = {
			databaseId: clients.id,
			rowId: row?.id as string,
			mapping: { name: idOf(clients, 'Name') as string, email: idOf(clients, 'Email') as string },
		}
		const rename = (name: string) =>
			t.db
				.update(workspaceRows)
				.set({ values: { ...row?.values, [clientRow.mapping.name]: name } })
				.where(eq(workspaceRows.id, clientRow.rowId))
		await rename('Initech Ltd')
		const rates = (await t.request('GET', '/dashboard/local_invoice/settings', { token: owner.token })).body[0].taxRates
		const draft = await draftOf(owner.token, {
			client: null,
			clientRow,
			lines: [{ description: 'Audit', quantity: '1', unitPrice: '10', taxRateId: rates[0].id }],
		})
		const read = await t.request('GET', `${base}/${draft.id}`, { token: owner.token })
		expect(read.body.client).toMatchObject({ name: 'Initech Ltd', email: row?.values[clientRow.mapping.email] ?? null })
		await rename('Initech Holdings Ltd')
		const finalized = await t.request('POST', `${base}/${draft.id}/finalize`, { token: owner.token })
		expect(finalized.body.client.name).toBe('Initech Holdings Ltd')
		await rename('Someone Else')
		expect((await t.request('GET', `${base}/${draft.id}`, { token: owner.token })).body.client.name).toBe(
			'Initech Holdings Ltd',
		)
		const listed = await t.request('GET', `${base}?clientId=${clientRow.rowId}`, { token: owner.token })
		expect(listed.body.invoices.map((one: { id: string }) => one.id)).toEqual([draft.id])

		const foreign = await t.request('POST', base, { token: stranger.token, json: { clientRow } })
		expect(foreign.status).toBe(400)
		expect(fieldsOf(foreign)).toEqual(['clientRow.databaseId'])
		const badRow = await t.request('POST', base, {
			token: owner.token,
			json: { clientRow: { ...clientRow, rowId: 'nope' } },
		})
		expect(fieldsOf(badRow)).toEqual(['clientRow.rowId'])
		const badProperty = await t.request('POST', base, {
			token: owner.token,
			json: { clientRow: { ...clientRow, mapping: { name: 'nope' } } },
		})
		expect(fieldsOf(badProperty)).toEqual(['clientRow.mapping.name'])
	})
})

describe('lines from time', () => {
	test('unbilled time as hours × rate, marked billed on finalization and offered again when voided', async () => {
		const team = await teamWithEveryRole(t)
		const { owner } = team
		await profileFor(owner.token)
		const { viewId } = await trackedWeek(t, team)
		const first = await draftOf(owner.token, { issueDate: '2026-04-01' })
		const second = await draftOf(owner.token, { issueDate: '2026-04-01' })
		const add = (id: string) =>
			t.request('POST', `${base}/${id}/lines/from_time`, { token: owner.token, json: { viewId, groupBy: 'project' } })

		const added = await add(first.id)
		expect(added.status, JSON.stringify(added.body)).toBe(200)
		expect(added.body.lines.map((line: { quantity: string; unit: string; unitPrice: string }) => line)).toMatchObject([
			{ quantity: '3.25', unit: 'h', unitPrice: '120.50' },
			{ quantity: '1.25', unit: 'h', unitPrice: '100.00' },
		])
		// The lines' nets are the time module's amounts to the cent.
		expect(added.body.totals.lineNetTotal.minor).toBe(expected.amount)
		expect((await add(first.id)).status).toBe(409)
		expect((await add(second.id)).status).toBe(200)

		// Finalized twice at once: one numbers it, the other's 409 leaves its rows marked.
		const [one, two] = await Promise.all(
			[0, 1].map(() => t.request('POST', `${base}/${first.id}/finalize`, { token: owner.token })),
		)
		expect([one?.status, two?.status].sort()).toEqual([200, 409])
		const finalized = await t.request('GET', `${base}/${first.id}`, { token: owner.token })
		expect(finalized.body.number).toBe('INV-2026-0001')
		expect((await unbilledTime(t.services.time.deps, team.orgId, 'local', viewId, 'project')).lines).toEqual([])
		// The second draft bills the same rows: refused whole, no number used.
		const refused = await t.request('POST', `${base}/${second.id}/finalize`, { token: owner.token })
		expect(refused.status).toBe(409)
		expect((await t.request('GET', `${base}/${second.id}`, { token: owner.token })).body.status).toBe('draft')
		const third = await draftOf(owner.token, {
			issueDate: '2026-04-02',
			lines: [{ description: 'x', quantity: '1', unitPrice: '1', taxRateId: added.body.lines[0].taxRateId }],
		})
		const nothingLeft = await add(third.id)
		expect(fieldsOf(nothingLeft)).toEqual(['viewId'])
		expect((await t.request('POST', `${base}/${third.id}/finalize`, { token: owner.token })).body.number).toBe(
			'INV-2026-0002',
		)

		expect((await t.request('POST', `${base}/${first.id}/void`, { token: owner.token })).status).toBe(200)
		const again = await unbilledTime(t.services.time.deps, team.orgId, 'local', viewId, 'project')
		expect(again.total.amount).toBe(expected.amount)

		const stranger = await t.signUp()
		await profileFor(stranger.token)
		const theirs = await draftOf(stranger.token)
		const foreign = await t.request('POST', `${base}/${theirs.id}/lines/from_time`, {
			token: stranger.token,
			json: { viewId },
		})
		expect(foreign.status).toBe(404)
	})
})
