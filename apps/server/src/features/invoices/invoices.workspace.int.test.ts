import { decimalToMinor } from '@blocksmith/contracts/invoice-currencies.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { deliveredRow, invoiceProfile, mapInvoices, type Rates } from '#src/test/invoices-workspace.ts'
import { expectRefusedByRole, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { type Database, idOf, sample } from '#src/test/time.ts'
import { workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'

// Invoices ↔ the sample workspace as a new user finds it (PGlite, or PostgreSQL with
// DATABASE_URL): the suggested mapping, finalization creating the row, payments and credit notes
// writing what changed, the rounding table's totals read back from the row, a draft from a row,
// sync_invoices putting our status back, tenancy and bad mappings naming the field.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const docs = '/dashboard/local_invoice/invoices'

/** An account with a profile, the sample workspace and its Invoices mapped as suggested. */
async function setUp(options: { currency?: string; rates?: Rates } = {}) {
	const owner = await t.signUp()
	const profile = await invoiceProfile(t, owner.token, options)
	const { byName } = await sample(t, owner.token)
	const invoices = byName.Invoices as Database
	const clients = byName.Clients as Database
	const mapped = await mapInvoices(t, owner.token, 'local')
	const [client] = await t.db
		.select()
		.from(workspaceRows)
		.where(eq(workspaceRows.databaseId, clients.id))
		.orderBy(workspaceRows.title)
		.limit(1)
	return { token: owner.token, ...profile, invoices, clients, client: client as { id: string; title: string }, mapped }
}

type Setup = Awaited<ReturnType<typeof setUp>>

async function finalized(s: Setup, json: Record<string, unknown>) {
	const draft = await t.request('POST', docs, {
		token: s.token,
		json: {
			clientRow: { databaseId: s.clients.id, rowId: s.client.id, mapping: { name: idOf(s.clients, 'Name') } },
			...json,
		},
	})
	expect(draft.status, JSON.stringify(draft.body)).toBe(201)
	const done = await t.request('POST', `${docs}/${draft.body.id}/finalize`, { token: s.token })
	expect(done.status, JSON.stringify(done.body)).toBe(200)
	return done.body as { id: string; number: string; total: { minor: number; decimal: string }; currency: string }
}

const line = (taxRateId: string, quantity: string, unitPrice: string, extra: Record<string, unknown> = {}) => ({
	description: `Work ${quantity} × ${unitPrice}`,
	quantity,
	unitPrice,
	taxRateId,
	...extra,
})

const fieldsOf = (response: { body: { errors?: { field: string }[] } }) =>
	(response.body.errors ?? []).map((error) => error.field)

/** A number as the row holds it, in minor units of the currency (exact: parsed from its shortest decimal). */
function minorOf(value: unknown, currency: string): bigint | null {
	if (typeof value !== 'number') {
		return null
	}
	const parsed = decimalToMinor(
		value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 }),
		currency,
	)
	return parsed.ok ? parsed.minor : null
}

describe('the mapping', () => {
	test('the sample’s Invoices: Number, Client, Amount, Issued, Due, Status and Paid suggested, the client’s name and e-mail', async () => {
		const owner = await t.signUp()
		const { byName } = await sample(t, owner.token)
		const invoices = byName.Invoices as Database
		const clients = byName.Clients as Database
		const state = await t.request('GET', '/dashboard/local/invoices/database', { token: owner.token })
		expect(state.status).toBe(200)
		expect(state.body.mapped).toBeNull()
		const candidate = state.body.candidates.find((one: { name: string }) => one.name === 'Invoices')
		expect(candidate.suggested.mapping).toMatchObject({
			number: idOf(invoices, 'Number'),
			client: idOf(invoices, 'Client'),
			amount: idOf(invoices, 'Amount'),
			issueDate: idOf(invoices, 'Issued'),
			dueDate: idOf(invoices, 'Due'),
			status: idOf(invoices, 'Status'),
			paid: idOf(invoices, 'Paid'),
			netAmount: null,
			paidDate: null,
			statusOptions: {
				draft: 'Draft',
				finalized: 'Sent',
				sent: 'Sent',
				partially_paid: 'Sent',
				paid: 'Paid',
				void: null,
				overdue: 'Overdue',
			},
			clientMapping: { name: idOf(clients, 'Name'), email: idOf(clients, 'Email') },
			lineItems: null,
		})
		expect(candidate.suggested.isComplete).toBe(true)
		expect(candidate.suggested.unmappedStatuses).toEqual(['void'])
		const missing = candidate.suggested.fields.filter((field: { isMapped: boolean }) => !field.isMapped)
		expect(missing.map((field: { field: string }) => field.field)).toContain('paidDate')
		expect(missing.every((field: { message: string | null }) => field.message)).toBe(true)
	})

	test('a bad mapping is a 400 naming mapping.<field>; members may read but not change it', async () => {
		const s = await setUp()
		const { databaseId, mapping } = s.mapped
		const put = (json: Record<string, unknown>) =>
			t.request('PUT', '/dashboard/local/invoices/database', { token: s.token, json: { databaseId, ...json } })
		const wrongType = await put({ mapping: { ...mapping, status: idOf(s.invoices, 'Amount') } })
		expect(wrongType.status).toBe(400)
		expect(fieldsOf(wrongType)).toEqual(['mapping.status'])
		const noOption = await put({
			mapping: { ...mapping, statusOptions: { ...(mapping.statusOptions as object), paid: 'Settled' } },
		})
		expect(fieldsOf(noOption)).toEqual(['mapping.statusOptions.paid'])
		expect(fieldsOf(await put({ mapping: { ...mapping, number: undefined } }))).toEqual(['mapping.number'])
		expect(fieldsOf(await put({ mapping: { ...mapping, paid: 'nope' } }))).toEqual(['mapping.paid'])
		expect(fieldsOf(await put({ mapping: { ...mapping, issueDate: mapping.dueDate } }))).toEqual(['mapping.dueDate'])
		const badClient = await put({ mapping: { ...mapping, clientMapping: { name: idOf(s.invoices, 'Amount') } } })
		expect(fieldsOf(badClient)).toEqual(['mapping.clientMapping.name'])
		const other = await t.signUp()
		const otherSample = await sample(t, other.token)
		const foreign = await put({ databaseId: (otherSample.byName.Invoices as Database).id, mapping })
		expect(fieldsOf(foreign)).toEqual(['databaseId'])
		const read = await t.request('GET', '/dashboard/local/invoices/database', { token: s.token })
		expect(read.body.mapped).toMatchObject({ id: databaseId, tool: 'local', lastSyncAt: null })
		expect(read.body.mapped.review.mapping).toEqual(mapping)
	})
})

describe('the write-back', () => {
	test('finalize creates the row; sent, paid (date, checkbox) and a credit note write only what changed', async () => {
		const s = await setUp()
		// Paid on, Amount due and Link added to the sample's database, and mapped.
		const properties = s.invoices.properties.map(({ id, name, type, ...rest }) => ({
			id,
			name,
			type,
			...('options' in rest ? { options: (rest as { options: unknown }).options } : {}),
			...('relationDatabaseId' in rest
				? { relationDatabaseId: (rest as { relationDatabaseId: string }).relationDatabaseId }
				: {}),
		}))
		const changed = await t.request('PATCH', `/dashboard/local/databases/${s.invoices.id}`, {
			token: s.token,
			json: {
				properties: [
					...properties,
					{ name: 'Paid on', type: 'date' },
					{ name: 'Amount due', type: 'number' },
					{ name: 'Public link', type: 'url' },
				],
			},
		})
		expect(changed.status, JSON.stringify(changed.body)).toBe(200)
		const invoices = changed.body as Database
		const { mapping } = await mapInvoices(t, s.token, 'local')
		expect(mapping).toMatchObject({
			paidDate: idOf(invoices, 'Paid on'),
			amountDue: idOf(invoices, 'Amount due'),
			link: idOf(invoices, 'Public link'),
		})
		const [standard] = s.rateIds as [string]
		const invoice = await finalized(s, {
			issueDate: '2026-11-02',
			dueDate: '2026-12-02',
			lines: [line(standard, '1', '1000.00')],
		})
		const id = (name: string) => idOf(invoices, name) as string
		const created = await deliveredRow(t, invoice.id, 1)
		expect(created.writes[0]?.kind).toBe('create')
		expect(created.row?.values).toMatchObject({
			[id('Number')]: invoice.number,
			[id('Client')]: [s.client.id],
			[id('Amount')]: 1190,
			[id('Amount due')]: 1190,
			[id('Issued')]: { start: '2026-11-02' },
			[id('Due')]: { start: '2026-12-02' },
			[id('Status')]: 'Sent',
			[id('Paid')]: false,
			[id('Paid on')]: null,
		})
		expect(String(created.row?.values[id('Public link')])).toMatch(/^http:\/\/localhost:3000\/i\/[\w-]{32}$/)

		// Sent: the status option is "Sent" already, so nothing is written.
		expect((await t.request('POST', `${docs}/${invoice.id}/mark_sent`, { token: s.token })).status).toBe(200)
		const pay = (amount: string, date: string) =>
			t.request('POST', `${docs}/${invoice.id}/payments`, {
				token: s.token,
				json: { date, amount, method: 'bank_transfer' },
			})
		expect((await pay('190.00', '2026-11-10')).status).toBe(201)
		const partly = await deliveredRow(t, invoice.id, 2)
		expect(partly.writes.find((write) => write.kind === 'update')?.values).toEqual({ [id('Amount due')]: 1000 })
		const credit = await t.request('POST', `${docs}/${invoice.id}/credit_note`, {
			token: s.token,
			json: { lines: [{ line: 0, quantity: '0.5' }] },
		})
		expect(credit.status, JSON.stringify(credit.body)).toBe(201)
		await deliveredRow(t, invoice.id, 3)
		expect((await pay('405.00', '2026-11-20')).status).toBe(201)
		const paid = await deliveredRow(t, invoice.id, 4)
		expect(paid.row?.values).toMatchObject({
			[id('Status')]: 'Paid',
			[id('Paid')]: true,
			[id('Paid on')]: { start: '2026-11-20' },
			[id('Amount due')]: 0,
			[id('Amount')]: 1190,
		})
		// One row for the invoice and none for the credit note; each write after the one before.
		const chain = paid.writes.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
		expect(chain.slice(1).map((write) => write.afterWriteId)).toEqual(chain.slice(0, -1).map((write) => write.id))
		expect(new Set(chain.map((write) => write.externalRowId))).toEqual(new Set([created.externalId]))
		const noteWrites = await t.db
			.select()
			.from(workspaceWrites)
			.where(eq(workspaceWrites.source, `invoice:${credit.body.id}`))
		expect(noteWrites).toEqual([])
	})

	test('nothing is written when no database is mapped', async () => {
		const owner = await t.signUp()
		const { rateIds } = await invoiceProfile(t, owner.token)
		const draft = await t.request('POST', docs, {
			token: owner.token,
			json: { client: { name: 'Typed In' }, lines: [line(rateIds[0] as string, '1', '10')] },
		})
		const done = await t.request('POST', `${docs}/${draft.body.id}/finalize`, { token: owner.token })
		expect(done.status).toBe(200)
		const writes = await t.db
			.select()
			.from(workspaceWrites)
			.where(eq(workspaceWrites.source, `invoice:${draft.body.id}`))
		expect(writes).toEqual([])
	})
})

// The rounding table of the invoice documents' tests: the row's amount is the stored total.
const roundingCases = [
	{ name: '1000.00 at 19 % = 1190.00', rates: [['19']], lines: [['0', '1', '1000.00']], total: '1190.00' },
	{
		name: '100 lines of 0.01 at 19 %',
		rates: [['19']],
		lines: Array.from({ length: 100 }, () => ['0', '1', '0.01']),
		total: '1.19',
	},
	{
		name: 'mixed rates',
		rates: [['19'], ['7'], ['0', 'E']],
		lines: [
			['0', '3', '33.33'],
			['1', '1.5', '19.99'],
			['2', '1', '10'],
		],
		total: '161.08',
	},
	{
		name: 'a 100 % discount leaves 0',
		rates: [['19']],
		lines: [['0', '2', '49.99', '100']],
		total: '0.00',
	},
	{ name: 'JPY', currency: 'JPY', rates: [['10']], lines: [['0', '3', '333']], total: '1099' },
	{ name: 'BHD, three decimals', currency: 'BHD', rates: [['10']], lines: [['0', '1', '1.255']], total: '1.381' },
] as const

describe('rounding table: the row holds the stored total', () => {
	for (const testCase of roundingCases) {
		test(testCase.name, async () => {
			const currency = 'currency' in testCase ? testCase.currency : 'EUR'
			const s = await setUp({
				currency,
				rates: testCase.rates.map(([rate, category]) => ({
					name: `Rate ${rate}`,
					categoryCode: category ?? 'S',
					rate,
					...(category === 'E' ? { exemptionReason: 'Exempt' } : {}),
				})),
			})
			const invoice = await finalized(s, {
				lines: testCase.lines.map(([rate, quantity, price, percent]) =>
					line(s.rateIds[Number(rate)] as string, quantity, price, {
						...(percent ? { discount: { kind: 'percent', percent } } : {}),
					}),
				),
			})
			expect(invoice.total.decimal).toBe(testCase.total)
			const { row } = await deliveredRow(t, invoice.id, 1)
			const amount = row?.values[idOf(s.invoices, 'Amount') as string]
			expect(minorOf(amount, currency)).toBe(BigInt(invoice.total.minor))
		})
	}
})

describe('rows, drafts from rows, and sync_invoices', () => {
	test('a draft from a row is kept in it (409 the second time), finalized onto the same row', async () => {
		const s = await setUp()
		const list = await t.request('GET', '/dashboard/local/invoices?limit=5', { token: s.token })
		expect(list.status).toBe(200)
		expect(list.body.rows).toHaveLength(5)
		expect(list.body.nextCursor).toBeTruthy()
		const next = await t.request('GET', `/dashboard/local/invoices?limit=50&cursor=${list.body.nextCursor}`, {
			token: s.token,
		})
		expect(next.body.rows).toHaveLength(15)
		const all = [...list.body.rows, ...next.body.rows]
		expect(new Set(all.map((row: { id: string }) => row.id)).size).toBe(20)
		const source = all.find((row: { status: string }) => row.status === 'Draft')
		expect(source).toMatchObject({ document: null, clientNames: [expect.any(String)] })
		const found = await t.request('GET', `/dashboard/local/invoices?search=${encodeURIComponent(source.number)}`, {
			token: s.token,
		})
		expect(found.body.rows.map((row: { id: string }) => row.id)).toEqual([source.id])

		const draft = await t.request('POST', `/dashboard/local/invoices/${source.id}/draft`, { token: s.token, json: {} })
		expect(draft.status, JSON.stringify(draft.body)).toBe(201)
		expect(draft.body).toMatchObject({
			status: 'draft',
			rowId: source.id,
			issueDate: source.issueDate,
			dueDate: source.dueDate,
			client: { name: source.clientNames[0] },
			lines: [{ quantity: '1', unitPrice: source.amount }],
		})
		const again = await t.request('POST', `/dashboard/local/invoices/${source.id}/draft`, { token: s.token, json: {} })
		expect(again.status).toBe(409)
		expect(again.body.detail).toContain(draft.body.id)
		// The draft status is written to the row ("Draft" is mapped).
		await deliveredRow(t, draft.body.id, 1)
		const done = await t.request('POST', `${docs}/${draft.body.id}/finalize`, { token: s.token })
		expect(done.status).toBe(200)
		const { row, writes } = await deliveredRow(t, draft.body.id, 2)
		expect(row?.id).toBe(source.id)
		expect(writes.every((write) => write.kind === 'update')).toBe(true)
		expect(row?.values[idOf(s.invoices, 'Number') as string]).toBe(done.body.number)
		expect(minorOf(row?.values[idOf(s.invoices, 'Amount') as string], 'EUR')).toBe(BigInt(done.body.total.minor))
		const listed = await t.request('GET', `/dashboard/local/invoices?search=${done.body.number}`, { token: s.token })
		const kept = listed.body.rows.find((one: { id: string }) => one.id === source.id)
		expect(kept.document).toMatchObject({ id: draft.body.id, status: 'finalized' })
	})

	test('a status changed in the workspace is put back by the sync; overdue written by the sync only', async () => {
		const s = await setUp()
		const [standard] = s.rateIds as [string]
		const current = await finalized(s, { lines: [line(standard, '2', '50')] })
		const late = await finalized(s, {
			issueDate: '2026-01-05',
			dueDate: '2026-01-19',
			lines: [line(standard, '1', '10')],
		})
		const { row } = await deliveredRow(t, current.id, 1)
		const lateRow = (await deliveredRow(t, late.id, 1)).row
		expect(lateRow?.values[idOf(s.invoices, 'Status') as string]).toBe('Sent')
		const status = idOf(s.invoices, 'Status') as string
		const edited = await t.request('PATCH', `/dashboard/local/databases/${s.invoices.id}/rows/${row?.id}`, {
			token: s.token,
			json: { values: { [status]: 'Paid', [idOf(s.invoices, 'Paid') as string]: true } },
		})
		expect(edited.status, JSON.stringify(edited.body)).toBe(200)

		const sync = await t.request('POST', '/dashboard/local/sync_invoices', { token: s.token })
		expect(sync.status, JSON.stringify(sync.body)).toBe(200)
		// The sample's 20 rows keep no invoice of ours; both of ours differ from our records.
		expect(sync.body).toMatchObject({ checked: 2, pushed: 2, unchanged: 0, notLinked: 20, failed: 0 })
		expect(sync.body.pushes).toEqual(
			expect.arrayContaining([
				{ number: current.number, from: 'Paid', to: 'Sent', error: null },
				{ number: late.number, from: 'Sent', to: 'Overdue', error: null },
			]),
		)
		const back = await deliveredRow(t, current.id, 2)
		expect(back.row?.values).toMatchObject({ [status]: 'Sent', [idOf(s.invoices, 'Paid') as string]: false })
		const overdue = await deliveredRow(t, late.id, 2)
		expect(overdue.row?.values[status]).toBe('Overdue')
		const last = await t.request('GET', '/dashboard/local/sync_invoices', { token: s.token })
		expect(last.body).toEqual(sync.body)

		// Again: only what changed since (our own deliveries), all as our records say now.
		const second = await t.request('POST', '/dashboard/local/sync_invoices', { token: s.token })
		expect(second.body).toMatchObject({ pushed: 0, failed: 0, notLinked: 0 })
		expect(second.body.unchanged).toBe(second.body.checked)
		// Paid in full: the payment's write replaces "Overdue" with "Paid".
		const paid = await t.request('POST', `${docs}/${late.id}/payments`, {
			token: s.token,
			json: { date: '2026-02-01', amount: '11.90', method: 'cash' },
		})
		expect(paid.status).toBe(201)
		expect((await deliveredRow(t, late.id, 3)).row?.values[status]).toBe('Paid')
	})
})

describe('tenancy', () => {
	test('another organization’s rows and documents read as 404; none mapped is a 404 too', async () => {
		const s = await setUp()
		const stranger = await t.signUp()
		await invoiceProfile(t, stranger.token)
		const rows = await t.request('GET', '/dashboard/local/invoices', { token: s.token })
		const rowId = rows.body.rows[0].id as string
		for (const [method, path] of [
			['GET', '/dashboard/local/invoices'],
			['POST', `/dashboard/local/invoices/${rowId}/draft`],
			['POST', '/dashboard/local/sync_invoices'],
			['GET', '/dashboard/local/sync_invoices'],
		] as const) {
			const response = await t.request(method, path, {
				token: stranger.token,
				...(method === 'POST' ? { json: {} } : {}),
			})
			expect(response.status, `${method} ${path}`).toBe(404)
		}
		// Mapped on their side, the row of another organization is still not theirs.
		await sample(t, stranger.token)
		await mapInvoices(t, stranger.token, 'local')
		const draft = await t.request('POST', `/dashboard/local/invoices/${rowId}/draft`, {
			token: stranger.token,
			json: {},
		})
		expect(draft.status).toBe(404)
		const theirs = await t.request('GET', '/dashboard/local/invoices?limit=200', { token: stranger.token })
		expect(theirs.body.rows.some((row: { id: string }) => row.id === rowId)).toBe(false)
		// Our Notion tool has no mapped database.
		expect((await t.request('GET', '/dashboard/notion/invoices', { token: s.token })).status).toBe(404)
		expect((await t.request('GET', '/dashboard/local/invoices')).status).toBe(401)
	})

	test('members may list and sync but not choose the database', async () => {
		const team = await teamWithEveryRole(t)
		await sample(t, team.owner.token)
		const { databaseId, mapping } = await mapInvoices(t, team.owner.token, 'local')
		const put = await t.request('PUT', '/dashboard/local/invoices/database', {
			token: team.member.token,
			json: { databaseId, mapping },
		})
		expectRefusedByRole(put)
		expectRefusedByRole(await t.request('DELETE', '/dashboard/local/invoices/database', { token: team.member.token }))
		expect((await t.request('GET', '/dashboard/local/invoices', { token: team.member.token })).status).toBe(200)
		expect((await t.request('POST', '/dashboard/local/sync_invoices', { token: team.member.token })).status).toBe(200)
		expect((await t.request('GET', '/dashboard/local/sync_invoices', { token: team.member.token })).body).not.toBeNull()
		// Another database starts its sync afresh.
		await mapInvoices(t, team.admin.token, 'local', 'Projects')
		expect((await t.request('GET', '/dashboard/local/sync_invoices', { token: team.member.token })).body).toBeNull()
		const state = await t.request('GET', '/dashboard/local/invoices/database', { token: team.member.token })
		expect(state.body.mapped).toMatchObject({ name: 'Projects', lastSyncAt: null })
		const admin = await t.request('DELETE', '/dashboard/local/invoices/database', { token: team.admin.token })
		expect(admin.status).toBe(200)
		expect((await t.request('GET', '/dashboard/local/invoices', { token: team.member.token })).status).toBe(404)
	})
})
