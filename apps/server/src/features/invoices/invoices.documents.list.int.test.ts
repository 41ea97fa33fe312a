import { Decimal } from '@blocksmith/contracts/invoice-decimal.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// The invoices list done in SQL, and its saved filters (PGlite, or PostgreSQL with
// DATABASE_URL): each filter narrows as a reference computed over every document says, and they
// combine; the totals by status and currency (and overdue) equal a reference sum; keyset pages
// cover every document once, also when all were created in the same instant; a saved filter
// applies like its query; 400s naming the field; tenancy.

let t: TestApp

const base = '/dashboard/local_invoice/invoices'
const filters = '/dashboard/local/invoice_filter'
const address = { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' }

type Doc = {
	id: string
	kind: string
	number: string | null
	status: string
	isOverdue: boolean
	client: { name: string } | null
	currency: string
	issueDate: string
	total: { minor: number; decimal: string }
	due: { minor: number }
}

let owner: { token: string }
let stranger: { token: string }
/** Every document of the owner's organization, read one by one (the reference). */
let all: Doc[]

async function call(method: string, path: string, json?: unknown, token = owner.token) {
	const response = await t.request(method, path, { token, ...(json === undefined ? {} : { json }) })
	expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
	return response.body
}

beforeAll(async () => {
	t = await createTestApp()
	// Every document created in the same instant: the pages must still be exact (ties on the id).
	t.services.invoices.deps.now = () => new Date('2026-06-01T09:00:00Z')
	owner = await t.signUp()
	stranger = await t.signUp()
	const settings = await call('POST', '/dashboard/local_invoice/settings', {
		legalName: 'Acme GmbH',
		address,
		currency: 'EUR',
		taxRates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true }],
	})
	const rate = settings.taxRates[0].id as string
	const make = async (name: string, issueDate: string, prices: string[], extra: Record<string, unknown> = {}) =>
		(await call('POST', base, {
			client: { name },
			issueDate,
			lines: prices.map((unitPrice) => ({ description: 'Work', quantity: '1', unitPrice, taxRateId: rate })),
			...extra,
		})) as Doc
	const finalize = (doc: Doc) => call('POST', `${base}/${doc.id}/finalize`)

	await make('Northwind Ltd', '2026-01-10', ['100'])
	const overdue = await make('Northwind Ltd', '2026-01-05', ['200'], { dueDate: '2026-01-06' })
	await finalize(overdue)
	await call('POST', `${base}/${overdue.id}/payments`, { date: '2026-01-20', amount: '38.00', method: 'cash' })
	const paid = await make('Ümlaut & Co', '2026-02-01', ['50'])
	await finalize(paid)
	await call('POST', `${base}/${paid.id}/payments`, { date: '2026-02-02', amount: '59.50', method: 'card' })
	const voided = await make('=HYPERLINK("x")', '2026-02-10', ['10'])
	await finalize(voided)
	await call('POST', `${base}/${voided.id}/void`)
	const credited = await make('100% Design', '2026-03-01', ['100', '200'], { dueDate: '2026-03-15' })
	await finalize(credited)
	await call('POST', `${base}/${credited.id}/credit_note`, { lines: [{ line: 0 }] })
	await make('Globex', '2026-02-15', ['1000'], { currency: 'USD' })
	const yen = await make('Globex', '2026-04-01', ['1200'], { currency: 'JPY' })
	await finalize(yen)
	for (let index = 0; index < 5; index++) {
		await make('Initech', '2026-05-01', [String(10 + index)])
	}

	const ids: string[] = []
	let cursor: string | null = null
	do {
		const page = await call('GET', `${base}?limit=200${cursor ? `&cursor=${cursor}` : ''}`)
		ids.push(...page.invoices.map((one: Doc) => one.id))
		cursor = page.nextCursor
	} while (cursor)
	all = await Promise.all(ids.map(async (id) => (await call('GET', `${base}/${id}`)) as Doc))
})
afterAll(async () => {
	await t.close()
})

async function listed(query: string, token = owner.token): Promise<string[]> {
	const response = await t.request('GET', `${base}?limit=200&${query}`, { token })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body.invoices.map((one: Doc) => one.id)
}

const idsWhere = (keep: (doc: Doc) => boolean) => all.filter(keep).map((doc) => doc.id)
const fieldsOf = (response: { body: { errors?: { field: string }[] } }) =>
	(response.body.errors ?? []).map((error) => error.field)

/** The totals the list must give for `docs`, computed here from each document as read. */
function referenceTotals(docs: Doc[]) {
	const totals = new Map<
		string,
		{ status: string; currency: string; count: number; totalMinor: number; dueMinor: number }
	>()
	const add = (status: string, doc: Doc) => {
		const key = `${status} ${doc.currency}`
		const entry = totals.get(key) ?? { status, currency: doc.currency, count: 0, totalMinor: 0, dueMinor: 0 }
		entry.count += 1
		entry.totalMinor += doc.total.minor
		entry.dueMinor += doc.due.minor
		totals.set(key, entry)
	}
	for (const doc of docs) {
		add(doc.status, doc)
		if (doc.isOverdue) {
			add('overdue', doc)
		}
	}
	const order = (entry: { status: string; currency: string }) => `${entry.status} ${entry.currency}`
	return [...totals.values()].sort((a, b) => order(a).localeCompare(order(b)))
}

describe('the list', () => {
	test('the data set has what the filters need', () => {
		expect(all).toHaveLength(13)
		expect(new Set(all.map((doc) => doc.status))).toEqual(
			new Set(['draft', 'partially_paid', 'paid', 'void', 'finalized']),
		)
		// The part-paid, the part-credited and the yen invoice, all due before 1 June.
		expect(all.filter((doc) => doc.isOverdue).length).toBe(3)
		expect(all.filter((doc) => doc.kind === 'credit_note')).toHaveLength(1)
	})

	test('each filter narrows to what the reference says, and they combine', async () => {
		const total = (doc: Doc) => new Decimal(doc.total.decimal)
		const cases: [string, (doc: Doc) => boolean][] = [
			['status=paid', (doc) => doc.status === 'paid'],
			['status=draft', (doc) => doc.status === 'draft'],
			['status=overdue', (doc) => doc.isOverdue],
			['clientId=Globex', (doc) => doc.client?.name === 'Globex'],
			['from=2026-02-01&to=2026-03-01', (doc) => doc.issueDate >= '2026-02-01' && doc.issueDate <= '2026-03-01'],
			['currency=jpy', (doc) => doc.currency === 'JPY'],
			['amountMin=100&amountMax=300', (doc) => total(doc).gte('100') && total(doc).lte('300')],
			['amountMin=1000', (doc) => total(doc).gte('1000')],
			['amountMax=-0.01', (doc) => total(doc).lt('0')],
			['amountMin=59.5&amountMax=59.50', (doc) => doc.total.decimal === '59.50'],
			['kind=credit_note', (doc) => doc.kind === 'credit_note'],
			['kind=invoice&status=void', (doc) => doc.kind === 'invoice' && doc.status === 'void'],
			['search=MLAUT', (doc) => doc.client?.name === 'Ümlaut & Co'],
			['search=100%25', (doc) => doc.client?.name === '100% Design'],
			['search=_', () => false],
			[
				`search=${encodeURIComponent(all.find((doc) => doc.number)?.number ?? '')}`,
				(doc) => doc.number === all.find((one) => one.number)?.number,
			],
			['currency=EUR&status=overdue', (doc) => doc.currency === 'EUR' && doc.isOverdue],
			['clientId=Initech&amountMin=14', (doc) => doc.client?.name === 'Initech' && total(doc).gte('14')],
		]
		for (const [query, keep] of cases) {
			const expected = idsWhere(keep)
			expect(await listed(query), query).toEqual(expected)
			if (query !== 'search=_') {
				expect(expected.length, query).toBeGreaterThan(0)
				expect(expected.length, query).toBeLessThan(all.length)
			}
		}
	})

	test('the totals by status and currency equal a reference sum, for everything and for a filter', async () => {
		const sorted = (totals: { status: string; currency: string }[]) =>
			[...totals].sort((a, b) => `${a.status} ${a.currency}`.localeCompare(`${b.status} ${b.currency}`))
		const page = await call('GET', `${base}?limit=1`)
		// One page shown, every document counted.
		expect(page.invoices).toHaveLength(1)
		expect(sorted(page.totals)).toEqual(referenceTotals(all))
		const eur = await call('GET', `${base}?currency=EUR&from=2026-01-05`)
		expect(sorted(eur.totals)).toEqual(
			referenceTotals(all.filter((doc) => doc.currency === 'EUR' && doc.issueDate >= '2026-01-05')),
		)
	})

	test('keyset pages cover every document once, newest first, whatever the page size', async () => {
		for (const limit of [1, 3, 13]) {
			const seen: string[] = []
			let cursor: string | null = null
			let pages = 0
			do {
				const page = await call('GET', `${base}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
				expect(page.invoices.length).toBeLessThanOrEqual(limit)
				seen.push(...page.invoices.map((one: Doc) => one.id))
				cursor = page.nextCursor
				pages += 1
			} while (cursor && pages < 50)
			expect(seen).toEqual(all.map((doc) => doc.id))
			expect(pages).toBe(Math.ceil(all.length / limit))
		}
		const days = all.map((doc) => doc.issueDate)
		expect(days).toEqual([...days].sort().reverse())
		const filtered = await call('GET', `${base}?limit=2&clientId=Initech`)
		const rest = await call('GET', `${base}?limit=200&clientId=Initech&cursor=${filtered.nextCursor}`)
		expect([...filtered.invoices, ...rest.invoices].map((one: Doc) => one.id)).toEqual(
			idsWhere((doc) => doc.client?.name === 'Initech'),
		)
		expect(rest.nextCursor).toBeNull()
	})

	test('bad input is a 400 naming the field', async () => {
		const cases: [string, string[]][] = [
			['limit=0', ['limit']],
			['limit=201', ['limit']],
			['cursor=bm90IGEgY3Vyc29y', ['cursor']],
			['amountMin=abc', ['amountMin']],
			['amountMin=1.23456', ['amountMin']],
			['amountMin=10&amountMax=5', ['amountMax']],
			['kind=receipt', ['kind']],
			['currency=XYZ', ['currency']],
			['filterId=nope', ['filterId']],
		]
		for (const [query, fields] of cases) {
			const response = await t.request('GET', `${base}?${query}`, { token: owner.token })
			expect(response.status, query).toBe(400)
			expect(fieldsOf(response), query).toEqual(fields)
		}
	})

	test('another organization sees none of it', async () => {
		expect(await listed('', stranger.token)).toEqual([])
		const totals = await t.request('GET', base, { token: stranger.token })
		expect(totals.body).toEqual({ invoices: [], totals: [], nextCursor: null })
	})
})

describe('saved filters', () => {
	test('saved, listed, applied like their query (fields given win), renamed, deleted', async () => {
		const created = await call('POST', filters, { name: 'Overdue EUR', filter: { currency: 'eur', status: 'overdue' } })
		expect(created).toMatchObject({ name: 'Overdue EUR', filter: { currency: 'EUR', status: 'overdue' } })
		expect((await call('GET', filters)).map((one: { id: string }) => one.id)).toEqual([created.id])
		expect(await listed(`filterId=${created.id}`)).toEqual(await listed('currency=EUR&status=overdue'))
		expect(await listed(`filterId=${created.id}&status=paid`)).toEqual(await listed('currency=EUR&status=paid'))
		const withFilter = await call('GET', `${base}?filterId=${created.id}`)
		const direct = await call('GET', `${base}?currency=EUR&status=overdue`)
		expect(withFilter.totals).toEqual(direct.totals)

		const renamed = await call('PATCH', `${filters}/${created.id}`, { name: 'Late', filter: { kind: 'credit_note' } })
		expect(renamed).toMatchObject({ name: 'Late', filter: { kind: 'credit_note' } })
		expect(await listed(`filterId=${created.id}`)).toEqual(idsWhere((doc) => doc.kind === 'credit_note'))
		await call('DELETE', `${filters}/${created.id}`)
		expect(await call('GET', filters)).toEqual([])
		const gone = await t.request('GET', `${base}?filterId=${created.id}`, { token: owner.token })
		expect(fieldsOf(gone)).toEqual(['filterId'])
	})

	test('another organization’s filter is a 404, and no filter of its list', async () => {
		const mine = await call('POST', filters, { name: 'Mine', filter: { currency: 'USD' } })
		expect(await call('GET', filters, undefined, stranger.token)).toEqual([])
		for (const [method, json] of [
			['PATCH', { name: 'Theirs' }],
			['DELETE', undefined],
		] as const) {
			const response = await t.request(method, `${filters}/${mine.id}`, { token: stranger.token, json })
			expect(response.status, method).toBe(404)
		}
		const applied = await t.request('GET', `${base}?filterId=${mine.id}`, { token: stranger.token })
		expect(applied.status).toBe(400)
		expect(fieldsOf(applied)).toEqual(['filterId'])
		expect((await call('GET', filters)).map((one: { name: string }) => one.name)).toEqual(['Mine'])
	})

	test('a member saves a filter the whole team then sees and uses', async () => {
		const team = await teamWithEveryRole(t)
		const saved = await t.request('POST', filters, {
			token: team.member.token,
			json: { name: 'Drafts', filter: { status: 'draft' } },
		})
		expect(saved.status).toBe(201)
		const seen = await t.request('GET', filters, { token: team.owner.token })
		expect(seen.body.map((one: { id: string }) => one.id)).toEqual([saved.body.id])
		const renamed = await t.request('PATCH', `${filters}/${saved.body.id}`, {
			token: team.admin.token,
			json: { name: 'Open drafts' },
		})
		expect(renamed.body).toMatchObject({ name: 'Open drafts', filter: { status: 'draft' } })
	})

	test('bad input is a 400 naming the field', async () => {
		const post = (json: unknown) => t.request('POST', filters, { token: owner.token, json })
		expect(fieldsOf(await post({ name: ' ', filter: {} }))).toEqual(['name'])
		expect(fieldsOf(await post({ name: 'x', filter: { status: 'late' } }))).toEqual(['filter.status'])
		expect(fieldsOf(await post({ name: 'x', filter: { from: '2026-02-30' } }))).toEqual(['filter.from'])
		expect(fieldsOf(await post({ name: 'x', filter: { amountMin: '1,5' } }))).toEqual(['filter.amountMin'])
		const unknown = await post({ name: 'x', filter: { limit: 5 } })
		expect(unknown.status).toBe(400)
		expect(fieldsOf(unknown)[0]).toMatch(/^filter/)
	})
})
