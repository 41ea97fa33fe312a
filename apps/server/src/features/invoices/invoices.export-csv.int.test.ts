import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// The invoices list as CSV (PGlite, or PostgreSQL with DATABASE_URL): a BOM, the columns, money
// as exact decimals (negative on credit notes), overdue shown, formula injection neutralised,
// quoting; the list's filters; every document once across the export's pages; 400s; tenancy.

let t: TestApp
let owner: { token: string }

const base = '/dashboard/local_invoice/invoices'
const exportPath = '/dashboard/local_invoice/invoices_export'
const address = { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' }

async function call(method: string, path: string, json?: unknown) {
	const response = await t.request(method, path, { token: owner.token, ...(json === undefined ? {} : { json }) })
	expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
	return response.body
}

/** The CSV's rows as cells (a small parser: quoted cells with doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
	const rows: string[][] = []
	let row: string[] = []
	let cell = ''
	let quoted = false
	for (let index = 0; index < text.length; index++) {
		const character = text[index]
		if (quoted) {
			if (character === '"' && text[index + 1] === '"') {
				cell += '"'
				index += 1
			} else if (character === '"') {
				quoted = false
			} else {
				cell += character
			}
		} else if (character === '"') {
			quoted = true
		} else if (character === ',') {
			row.push(cell)
			cell = ''
		} else if (character === '\r' && text[index + 1] === '\n') {
			row.push(cell)
			rows.push(row)
			row = []
			cell = ''
			index += 1
		} else {
			cell += character
		}
	}
	expect(cell, 'the file ends with CRLF').toBe('')
	return rows
}

async function exported(query = '', token = owner.token) {
	const response = await t.app.request(`${exportPath}${query}`, {
		headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' },
	})
	const bytes = new Uint8Array(await response.arrayBuffer())
	return { response, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) }
}

const header = 'number,kind,status,client,issue date,due date,currency,net,tax,total,paid,credited,due,paid date'

beforeAll(async () => {
	t = await createTestApp()
	t.services.invoices.deps.now = () => new Date('2026-06-01T09:00:00Z')
	owner = await t.signUp()
	const settings = await call('POST', '/dashboard/local_invoice/settings', {
		legalName: 'Acme GmbH',
		address,
		currency: 'EUR',
		taxRates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true }],
	})
	const rate = settings.taxRates[0].id as string
	const make = async (name: string, issueDate: string, prices: string[], extra: Record<string, unknown> = {}) =>
		call('POST', base, {
			client: { name },
			issueDate,
			lines: prices.map((unitPrice) => ({ description: 'Work', quantity: '1', unitPrice, taxRateId: rate })),
			...extra,
		})
	const paid = await make('Smith, "Jr"', '2026-05-01', ['1000.00'])
	await call('POST', `${base}/${paid.id}/finalize`)
	await call('POST', `${base}/${paid.id}/payments`, { date: '2026-05-03', amount: '1190.00', method: 'card' })
	const late = await make('=HYPERLINK("http://evil")', '2026-04-01', ['100', '50'], { dueDate: '2026-04-15' })
	await call('POST', `${base}/${late.id}/finalize`)
	await call('POST', `${base}/${late.id}/credit_note`, { lines: [{ line: 1 }], issueDate: '2026-04-20' })
	await make('+SUM(A1)', '2026-03-01', ['1'])
	await make('-2+3', '2026-03-02', ['1'])
	await make('@cmd', '2026-03-03', ['1'])
	// The API trims names; a tab or CR first can still come from a client row of the workspace.
	const tabbed = await make('Tabbed', '2026-03-04', ['1'])
	await t.db.execute(
		sql`update invoice_documents set client = jsonb_set(client, '{name}', to_jsonb(${'\tTabbed'}::text)) where id = ${tabbed.id}`,
	)
	await make('Yamada', '2026-03-05', ['1200'], { currency: 'JPY' })
})
afterAll(async () => {
	await t.close()
})

describe('the CSV export', () => {
	test('UTF-8 with a BOM, the columns, exact money, overdue shown, injection neutralised', async () => {
		const { response, bytes, text } = await exported()
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="invoices-.*\.csv"$/)
		expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		const [head, ...rows] = parseCsv(text.slice(1))
		expect(head?.join(',')).toBe(header)
		const byClient = new Map(rows.map((row) => [row[3], row]))
		expect(rows).toHaveLength(8)

		const paid = byClient.get('Smith, "Jr"')
		expect(paid?.slice(1)).toEqual([
			'invoice',
			'paid',
			'Smith, "Jr"',
			'2026-05-01',
			'2026-05-15',
			'EUR',
			'1000.00',
			'190.00',
			'1190.00',
			'1190.00',
			'0.00',
			'0.00',
			// The day of the payment that paid it, not the day it was recorded.
			'2026-05-03',
		])
		expect(paid?.[0]).toMatch(/^INV-2026-\d{4}$/)
		// 178.50 issued, 59.50 credited: 119.00 still due after 15 April.
		const late = byClient.get(`'=HYPERLINK("http://evil")`)
		expect(late?.slice(1, 3)).toEqual(['invoice', 'overdue'])
		expect(late?.slice(9, 13)).toEqual(['178.50', '0.00', '59.50', '119.00'])
		const note = rows.find((row) => row[1] === 'credit_note')
		expect(note?.slice(2)).toEqual([
			'finalized',
			`'=HYPERLINK("http://evil")`,
			'2026-04-20',
			note?.[5],
			'EUR',
			'-50.00',
			'-9.50',
			'-59.50',
			'0.00',
			'0.00',
			'0.00',
			'',
		])
		for (const name of ["'+SUM(A1)", "'-2+3", "'@cmd", "'\tTabbed"]) {
			expect(byClient.has(name), name).toBe(true)
		}
		expect(byClient.get('Yamada')?.slice(6, 10)).toEqual(['JPY', '1200', '228', '1428'])
		expect(byClient.get('+SUM(A1)')).toBeUndefined()
	})

	test('the list’s filters apply', async () => {
		const overdue = parseCsv((await exported('?status=overdue')).text.slice(1))
		expect(overdue.slice(1).map((row) => row[3])).toEqual([`'=HYPERLINK("http://evil")`])
		const jpy = parseCsv((await exported('?currency=JPY&limit=1&cursor=ignored')).text.slice(1))
		expect(jpy.slice(1).map((row) => row[3])).toEqual(['Yamada'])
	})

	test('bad input is a 400 naming the field; another organization gets only the header', async () => {
		const bad = await exported('?status=late&amountMin=x')
		expect(bad.response.status).toBe(400)
		const body = JSON.parse(bad.text)
		expect(body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['amountMin', 'status'])
		const stranger = await t.signUp()
		const theirs = await exported('', stranger.token)
		expect(theirs.response.status).toBe(200)
		expect(parseCsv(theirs.text.slice(1))).toEqual([header.split(',')])
		expect((await exported('', 'not-a-token')).response.status).toBe(401)
	})

	test('a large organization is exported page by page, every document once', async () => {
		const [template] = (await call('GET', `${base}?clientId=Yamada`)).invoices
		// 1,234 copies in one statement: more than two of the export's pages.
		await t.db.execute(sql`
			insert into invoice_documents (id, organization_id, profile_id, kind, status, number, client, currency,
				issue_date, due_date, lines, discounts, totals, total_minor, created_at, updated_at)
			select gen_random_uuid()::text, organization_id, profile_id, kind, 'finalized', 'BULK-' || n, client,
				currency, issue_date - (n % 40), due_date, lines, discounts, totals, total_minor, created_at, updated_at
			from invoice_documents, generate_series(1, 1234) as n
			where id = ${template.id}`)
		const rows = parseCsv((await exported('?currency=JPY')).text.slice(1)).slice(1)
		const numbers = rows.map((row) => row[0]).filter((number) => number?.startsWith('BULK-'))
		expect(numbers).toHaveLength(1234)
		expect(new Set(numbers).size).toBe(1234)
		const days = rows.map((row) => row[4] as string)
		expect(days).toEqual([...days].sort().reverse())
	})
})
