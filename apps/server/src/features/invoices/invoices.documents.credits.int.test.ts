import { extractText } from 'unpdf'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { download } from '#src/test/time-reports.ts'

// What credit notes do to the invoice they correct (the amount due, the status, what can still be
// paid), and a stored document's e-invoice and its public link in the PDF. PGlite, or PostgreSQL
// with DATABASE_URL.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const base = '/dashboard/local_invoice/invoices'
const client = {
	name: 'Northwind Ltd',
	address: { lines: ['1 Quay St'], postcode: 'BS1 4DJ', city: 'Bristol', country: 'GB' },
}

async function finalized(lines: [string, string][], currency = 'EUR', discounts: unknown[] = []) {
	const owner = await t.signUp()
	const profile = await t.request('POST', '/dashboard/local_invoice/settings', {
		token: owner.token,
		json: {
			legalName: 'Acme GmbH',
			address: { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' },
			taxIds: { vatId: 'DE123456789', other: [] },
			currency,
			taxRates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true }],
		},
	})
	expect(profile.status, JSON.stringify(profile.body)).toBe(201)
	const rate = (profile.body.taxRates as { id: string }[])[0]?.id
	const draft = await t.request('POST', base, {
		token: owner.token,
		json: {
			client,
			issueDate: '2026-05-01',
			dueDate: '2026-05-15',
			discounts,
			lines: lines.map(([quantity, unitPrice], index) => ({
				description: `Line ${index}`,
				quantity,
				unitPrice,
				taxRateId: rate,
			})),
		},
	})
	expect(draft.status, JSON.stringify(draft.body)).toBe(201)
	const done = await t.request('POST', `${base}/${draft.body.id}/finalize`, { token: owner.token })
	expect(done.status, JSON.stringify(done.body)).toBe(200)
	return { token: owner.token, invoice: done.body }
}

const read = async (token: string, id: string) => (await t.request('GET', `${base}/${id}`, { token })).body

describe('credit notes and the amount due', () => {
	test('a partial credit note lowers what is due and what can be paid; paying the rest settles it', async () => {
		// 2 × 100 + 1 × 50 = 250, VAT 47.50, total 297.50.
		const { token, invoice } = await finalized([
			['2', '100'],
			['1', '50'],
		])
		expect(invoice.due).toEqual({ minor: 29750, decimal: '297.50' })
		const note = await t.request('POST', `${base}/${invoice.id}/credit_note`, {
			token,
			json: { lines: [{ line: 1 }] },
		})
		expect(note.status, JSON.stringify(note.body)).toBe(201)
		expect(note.body.total.minor).toBe(-5950)
		// A credit note owes nothing itself.
		expect(note.body.due.minor).toBe(0)

		const notes = await t.request('GET', `${base}?correctsId=${invoice.id}`, { token })
		expect(notes.body.invoices.map((one: { id: string }) => one.id)).toEqual([note.body.id])
		expect(notes.body.nextCursor).toBeNull()

		const after = await read(token, invoice.id)
		expect(after.credited).toEqual({ minor: 5950, decimal: '59.50' })
		expect(after.due).toEqual({ minor: 23800, decimal: '238.00' })
		expect(after.status).toBe('finalized')

		const tooMuch = await t.request('POST', `${base}/${invoice.id}/payments`, {
			token,
			json: { date: '2026-05-10', amount: '238.01', method: 'bank_transfer' },
		})
		expect(tooMuch.status).toBe(400)
		expect(tooMuch.body.errors[0].field).toBe('amount')
		expect(tooMuch.body.errors[0].message).toContain('238.00')

		const rest = await t.request('POST', `${base}/${invoice.id}/payments`, {
			token,
			json: { date: '2026-05-10', amount: '238.00', method: 'bank_transfer' },
		})
		expect(rest.status, JSON.stringify(rest.body)).toBe(201)
		const paid = await read(token, invoice.id)
		expect(paid).toMatchObject({ status: 'paid', due: { minor: 0 }, paid: { minor: 23800 } })
		expect(paid.paidAt).toBe('2026-05-10T00:00:00.000Z')
	})

	test('an unpaid invoice credited whole is void, owes nothing and is never overdue', async () => {
		// Three lines whose per-note VAT rounding leaves the notes a cent short of the invoice.
		// 3 × 0.02 = 0.06, VAT 0.0114 → 0.01: total 0.07; each note's VAT 0.0038 → 0.00, so the
		// three notes come to 0.06.
		const { token, invoice } = await finalized([
			['1', '0.02'],
			['1', '0.02'],
			['1', '0.02'],
		])
		expect(invoice.total.minor).toBe(7)
		for (const line of [0, 1, 2]) {
			const note = await t.request('POST', `${base}/${invoice.id}/credit_note`, { token, json: { lines: [{ line }] } })
			expect(note.status, JSON.stringify(note.body)).toBe(201)
			expect(note.body.total.minor).toBe(-2)
		}
		const after = await read(token, invoice.id)
		expect(after).toMatchObject({ status: 'void', isOverdue: false, due: { minor: 0 } })
		expect(after.credited.minor).toBe(invoice.total.minor)
		expect(after.voidedAt).not.toBeNull()
		const pay = await t.request('POST', `${base}/${invoice.id}/payments`, {
			token,
			json: { date: '2026-05-10', amount: '0.01', method: 'cash' },
		})
		expect(pay.status).toBe(409)
		const list = await t.request('GET', `${base}?status=overdue`, { token })
		expect(list.body.invoices).toEqual([])
	})

	test('crediting a paid invoice leaves it paid', async () => {
		const { token, invoice } = await finalized([['1', '100']])
		await t.request('POST', `${base}/${invoice.id}/payments`, {
			token,
			json: { date: '2026-05-02', amount: '119.00', method: 'card' },
		})
		const note = await t.request('POST', `${base}/${invoice.id}/credit_note`, { token, json: {} })
		expect(note.status).toBe(201)
		expect(await read(token, invoice.id)).toMatchObject({
			status: 'paid',
			due: { minor: 0 },
			credited: { minor: 11900 },
		})
	})
})

describe('an invoice with a discount of a fixed amount', () => {
	test('credited a third at a time: each note carries its share of the discount, the last what is left', async () => {
		// 3 × 100.00 = 300.00, less 10.00 = 290.00, VAT 19 % 55.10: total 345.10.
		const { token, invoice } = await finalized(
			[
				['1', '100'],
				['1', '100'],
				['1', '100'],
			],
			'EUR',
			[{ kind: 'amount', amount: '10.00', reason: 'Goodwill' }],
		)
		expect(invoice.total.decimal).toBe('345.10')
		const notes = []
		for (const line of [0, 1, 2]) {
			const note = await t.request('POST', `${base}/${invoice.id}/credit_note`, { token, json: { lines: [{ line }] } })
			expect(note.status, JSON.stringify(note.body)).toBe(201)
			notes.push(note.body)
		}
		// 10.00 shared as 3.33, 3.33 and 3.34; each note 96.67 or 96.66 net.
		expect(notes.map((note) => note.discounts[0].amount)).toEqual(['3.33', '3.33', '3.34'])
		expect(notes.map((note) => note.totals.allowanceTotal.decimal)).toEqual(['-3.33', '-3.33', '-3.34'])
		expect(notes.map((note) => note.total.decimal)).toEqual(['-115.04', '-115.04', '-115.03'])
		const sum = notes.reduce((total, note) => total + note.total.minor, 0)
		expect(Math.abs(sum + invoice.total.minor)).toBeLessThanOrEqual(1)
		expect(await read(token, invoice.id)).toMatchObject({ status: 'void', due: { minor: 0 } })
	})

	test('credited whole at once: the note is the invoice negated to the cent', async () => {
		const { token, invoice } = await finalized(
			[
				['3', '33.335'],
				['7', '0.05'],
			],
			'EUR',
			[{ kind: 'amount', amount: '12.34' }],
		)
		const note = await t.request('POST', `${base}/${invoice.id}/credit_note`, { token, json: {} })
		expect(note.status, JSON.stringify(note.body)).toBe(201)
		expect(note.body.total.minor).toBe(-invoice.total.minor)
		expect(note.body.totals.vatTotal.minor).toBe(-invoice.totals.vatTotal.minor)
	})
})

describe('a stored document as an e-invoice, and its link', () => {
	test('UBL, CII and Factur-X of a finalized invoice; a draft names what is missing; another organization gets 404', async () => {
		const { token, invoice } = await finalized([['3', '33.33']])
		const ubl = await download(t, `${base}/${invoice.id}/einvoice?format=ubl`, token)
		const ublText = new TextDecoder().decode(ubl.bytes)
		expect(ublText).toContain('<cbc:ID>INV-2026-0001</cbc:ID>')
		expect(ublText).toContain(`<cbc:PayableAmount currencyID="EUR">${invoice.due.decimal}</cbc:PayableAmount>`)
		const cii = await download(t, `${base}/${invoice.id}/einvoice?format=cii`, token)
		expect(new TextDecoder().decode(cii.bytes)).toContain(
			`<ram:GrandTotalAmount>${invoice.total.decimal}</ram:GrandTotalAmount>`,
		)
		const facturX = await download(t, `${base}/${invoice.id}/einvoice?format=facturx`, token)
		expect(Buffer.from(facturX.bytes.slice(0, 5)).toString('latin1')).toBe('%PDF-')
		expect(Buffer.from(facturX.bytes).toString('latin1')).toContain('factur-x.xml')

		const bad = await t.request('GET', `${base}/${invoice.id}/einvoice?format=pdf`, { token })
		expect(bad.status).toBe(400)
		expect(bad.body.errors[0].field).toBe('format')

		const draft = await t.request('POST', base, { token, json: { client } })
		const refused = await t.request('GET', `${base}/${draft.body.id}/einvoice?format=ubl`, { token })
		expect(refused.status).toBe(400)
		expect(refused.body.errors.map((error: { field: string }) => error.field)).toContain('number')

		const stranger = await t.signUp()
		const foreign = await t.request('GET', `${base}/${invoice.id}/einvoice?format=ubl`, { token: stranger.token })
		expect(foreign.status).toBe(404)
	})

	test('the PDF of a finalized invoice links to its public page', async () => {
		const { token, invoice } = await finalized([['1', '10']])
		expect(invoice.publicToken).toMatch(/^[\w-]{32}$/)
		const pdf = await download(t, `${base}/${invoice.id}/pdf`, token)
		const text = (await extractText(pdf.bytes.slice(), { mergePages: true })).text.replace(/\s+/g, '')
		expect(text).toContain(`/i/${invoice.publicToken}`.replace(/\s+/g, ''))
	})
})
