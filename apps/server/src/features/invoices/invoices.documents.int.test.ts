import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import { extractText } from 'unpdf'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { download } from '#src/test/time-reports.ts'

// Invoice documents through the API (PGlite, or PostgreSQL with DATABASE_URL): drafts with
// server-computed totals, finalization (numbers, immutability, 50 at once), credit notes,
// statuses and payments, the list, the PDF; tenancy and bad input naming the field.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const base = '/dashboard/local_invoice/invoices'
const address = { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' }
const client = { name: 'Northwind Ltd', address: { lines: [], postcode: 'BS1', city: 'Bristol', country: 'GB' } }

type Rates = { name: string; categoryCode: string; rate: string; exemptionReason?: string; isDefault?: boolean }[]

async function setUp(options: { currency?: string; rates?: Rates } = {}) {
	const owner = await t.signUp()
	const created = await t.request('POST', '/dashboard/local_invoice/settings', {
		token: owner.token,
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
	const rateIds = (created.body.taxRates as { id: string }[]).map((rate) => rate.id)
	return { token: owner.token, profileId: created.body.id as string, rateIds }
}

type Setup = Awaited<ReturnType<typeof setUp>>

const line = (taxRateId: string, quantity: string, unitPrice: string, extra: Record<string, unknown> = {}) => ({
	description: `Work ${quantity} × ${unitPrice}`,
	quantity,
	unitPrice,
	taxRateId,
	...extra,
})

async function draft(s: Setup, json: Record<string, unknown>) {
	const response = await t.request('POST', base, { token: s.token, json: { client, ...json } })
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body
}

const fieldsOf = (response: { body: { errors?: { field: string }[] } }) =>
	(response.body.errors ?? []).map((error) => error.field)

describe('drafts', () => {
	test('a draft has no number, the profile’s currency and due date, and the server’s totals', async () => {
		const s = await setUp()
		const body = await draft(s, {
			issueDate: '2026-03-01',
			lines: [line(s.rateIds[0] as string, '1', '1000.00'), line(s.rateIds[1] as string, '2', '50')],
			discounts: [{ kind: 'percent', percent: '10', reason: 'Loyalty' }],
		})
		expect(body).toMatchObject({ number: null, status: 'draft', currency: 'EUR', dueDate: '2026-03-15' })
		// 1000 + 100 = 1100, less 10 % = 990; VAT 900 × 19 % = 171 and 90 × 7 % = 6.30.
		expect(body.total).toEqual({ minor: 116730, decimal: '1167.30' })
		expect(body.totals.vatTotal).toEqual({ minor: 17730, decimal: '177.30' })

		const changed = await t.request('PATCH', `${base}/${body.id}`, {
			token: s.token,
			json: { lines: [line(s.rateIds[0] as string, '3', '10')], discounts: [] },
		})
		expect(changed.status).toBe(200)
		expect(changed.body.total.decimal).toBe('35.70')
		const read = await t.request('GET', `${base}/${body.id}`, { token: s.token })
		expect(read.body.total.decimal).toBe('35.70')
		expect((await t.request('DELETE', `${base}/${body.id}`, { token: s.token })).status).toBe(200)
		expect((await t.request('GET', `${base}/${body.id}`, { token: s.token })).status).toBe(404)
	})

	test('bad input is a 400 naming the field', async () => {
		const s = await setUp()
		const other = await setUp()
		const [rate] = s.rateIds as [string]
		const post = (json: Record<string, unknown>) =>
			t.request('POST', base, { token: s.token, json: { client, ...json } })

		expect(fieldsOf(await post({ currency: 'XYZ' }))).toEqual(['currency'])
		const negative = await post({ lines: [line(rate, '1', '5'), line(rate, '-1', '5')] })
		expect(negative.status).toBe(400)
		expect(fieldsOf(negative)).toEqual(['lines.1.quantity'])
		const foreignRate = await post({ lines: [line(rate, '1', '5'), line(other.rateIds[0] as string, '1', '5')] })
		expect(foreignRate.status).toBe(400)
		expect(fieldsOf(foreignRate)).toEqual(['lines.1.taxRateId'])
		expect(fieldsOf(await post({ profileId: other.profileId }))).toEqual(['profileId'])
		expect(fieldsOf(await post({ issueDate: '2026-02-30' }))).toEqual(['issueDate'])
		expect(fieldsOf(await post({ issueDate: '2026-03-10', dueDate: '2026-03-01' }))).toEqual(['dueDate'])
		expect(fieldsOf(await post({ lines: [line(rate, '1', '1.001')] }))).toEqual([])
		const cents = await post({ lines: [line(rate, '1', '1.123456789')] })
		expect(fieldsOf(cents)).toEqual(['lines.0.unitPrice'])
		const noProfile = await t.request('POST', base, { token: (await t.signUp()).token, json: {} })
		expect(fieldsOf(noProfile)).toEqual(['profileId'])
	})

	test('a draft whose rate was retired is drawn as saved, and is told when changed or finalized', async () => {
		const s = await setUp()
		const [standard, reduced] = s.rateIds as [string, string]
		const body = await draft(s, { lines: [line(reduced, '2', '10'), line(standard, '1', '5')] })
		const profile = await t.request('GET', `/dashboard/local_invoice/settings/${s.profileId}`, { token: s.token })
		const kept = profile.body.taxRates.filter((rate: { id: string }) => rate.id === standard)
		const retired = await t.request('PATCH', `/dashboard/local_invoice/settings/${s.profileId}`, {
			token: s.token,
			json: { taxRates: kept },
		})
		expect(retired.status, JSON.stringify(retired.body)).toBe(200)
		const pdf = await download(t, `${base}/${body.id}/pdf`, s.token)
		expect(pdf.status).toBe(200)
		expect((await extractText(pdf.bytes.slice(), { mergePages: true })).text).toContain('VAT 7 %')
		const changed = await t.request('PATCH', `${base}/${body.id}`, { token: s.token, json: { notes: 'Thanks' } })
		expect(fieldsOf(changed)).toEqual(['lines.0.taxRateId'])
		const finalized = await t.request('POST', `${base}/${body.id}/finalize`, { token: s.token })
		expect(fieldsOf(finalized)).toEqual(['lines.0.taxRateId'])
	})

	test('another organization’s invoice is a 404 for every route', async () => {
		const s = await setUp()
		const stranger = await setUp()
		const body = await draft(s, { lines: [line(s.rateIds[0] as string, '1', '10')] })
		const paths = [
			['GET', ''],
			['PATCH', ''],
			['DELETE', ''],
			['POST', '/finalize'],
			['POST', '/mark_sent'],
			['POST', '/void'],
			['POST', '/credit_note'],
			['GET', '/payments'],
			['GET', '/pdf'],
		] as const
		for (const [method, path] of paths) {
			const json = method === 'GET' ? undefined : {}
			const response = await t.request(method, `${base}/${body.id}${path}`, { token: stranger.token, json })
			expect(response.status, `${method} ${path}`).toBe(404)
		}
		const list = await t.request('GET', base, { token: stranger.token })
		expect(list.body.invoices).toEqual([])
		expect((await t.request('GET', base)).status).toBe(401)
	})
})

describe('finalizing', () => {
	test('numbers the invoice, freezes it, and refuses changes with a 409 naming credit notes', async () => {
		const s = await setUp()
		const body = await draft(s, { issueDate: '2026-05-04', lines: [line(s.rateIds[0] as string, '1', '100')] })
		const empty = await draft(s, { issueDate: '2026-05-04', client: null })
		const refused = await t.request('POST', `${base}/${empty.id}/finalize`, { token: s.token })
		expect(refused.status).toBe(400)
		expect(fieldsOf(refused).sort()).toEqual(['client', 'lines'])

		const finalized = await t.request('POST', `${base}/${body.id}/finalize`, { token: s.token })
		expect(finalized.status, JSON.stringify(finalized.body)).toBe(200)
		expect(finalized.body).toMatchObject({ number: 'INV-2026-0001', status: 'finalized' })
		for (const [method, json] of [
			['PATCH', { notes: 'x' }],
			['DELETE', undefined],
		] as const) {
			const response = await t.request(method, `${base}/${body.id}`, { token: s.token, json })
			expect(response.status).toBe(409)
			expect(response.body.detail).toMatch(/credit note/)
		}
		expect((await t.request('POST', `${base}/${body.id}/finalize`, { token: s.token })).status).toBe(409)
		// The sender is frozen: a later change of the profile does not reach the PDF.
		await t.request('PATCH', `/dashboard/local_invoice/settings/${s.profileId}`, {
			token: s.token,
			json: { legalName: 'Renamed AG' },
		})
		const pdf = await download(t, `${base}/${body.id}/pdf`, s.token)
		const text = (await extractText(pdf.bytes.slice(), { mergePages: true })).text
		expect(text).toContain('Acme GmbH')
		expect(text).toContain('INV-2026-0001')
		expect(text).not.toContain('Renamed AG')
	})

	test('50 drafts finalized at once get 50 consecutive unique numbers', async () => {
		const s = await setUp()
		const drafts = []
		for (let index = 0; index < 50; index++) {
			drafts.push(await draft(s, { issueDate: '2026-06-01', lines: [line(s.rateIds[0] as string, '1', '1')] }))
		}
		const results = await Promise.all(
			drafts.map((one) => t.request('POST', `${base}/${one.id}/finalize`, { token: s.token })),
		)
		expect(results.map((result) => result.status)).toEqual(Array(50).fill(200))
		const numbers = results.map((result) => result.body.number as string).sort()
		expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `INV-2026-${String(i + 1).padStart(4, '0')}`))
	})
})

// Each case: the profile's currency and rates, the lines, and the known total; stored on
// finalization and read back (the invoice, the list) identically.
const roundingCases = [
	{
		name: '1000.00 at 19 % = 1190.00',
		rates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19' }],
		lines: [['0', '1', '1000.00']],
		total: '1190.00',
	},
	{
		name: '100 lines of 0.01 at 19 %: VAT rounded once on 1.00',
		rates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19' }],
		lines: Array.from({ length: 100 }, () => ['0', '1', '0.01']),
		total: '1.19',
	},
	{
		name: 'mixed rates',
		rates: [
			{ name: 'VAT 19 %', categoryCode: 'S', rate: '19' },
			{ name: 'VAT 7 %', categoryCode: 'S', rate: '7' },
			{ name: 'Exempt', categoryCode: 'E', rate: '0', exemptionReason: 'Exempt under § 4 UStG' },
		],
		lines: [
			['0', '3', '33.33'],
			['1', '1.5', '19.99'],
			['2', '1', '10'],
		],
		// 99.99 + 19.00 = 118.99; 29.985 → 29.99 + 2.10 = 32.09; + 10 = 161.08
		total: '161.08',
	},
	{
		name: 'a 100 % line discount leaves exactly 0',
		rates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19' }],
		lines: [['0', '2', '49.99', { kind: 'percent', percent: '100' }]],
		total: '0.00',
	},
	{
		name: 'JPY has no minor units',
		currency: 'JPY',
		rates: [{ name: 'Consumption tax 10 %', categoryCode: 'S', rate: '10' }],
		lines: [['0', '3', '333']],
		total: '1099',
	},
	{
		name: 'BHD has three decimals',
		currency: 'BHD',
		rates: [{ name: 'VAT 10 %', categoryCode: 'S', rate: '10' }],
		lines: [['0', '1', '1.255']],
		total: '1.381',
	},
] as const

describe('rounding table', () => {
	for (const testCase of roundingCases) {
		test(`${testCase.name}: stored and read back identically`, async () => {
			const s = await setUp({
				currency: 'currency' in testCase ? testCase.currency : 'EUR',
				rates: [...testCase.rates],
			})
			const lines = testCase.lines.map(([rate, quantity, price, discount]) =>
				line(s.rateIds[Number(rate)] as string, quantity, price, discount ? { discount } : {}),
			)
			const body = await draft(s, { lines })
			expect(body.total.decimal).toBe(testCase.total)
			const finalized = await t.request('POST', `${base}/${body.id}/finalize`, { token: s.token })
			expect(finalized.body.total.decimal).toBe(testCase.total)
			const read = await t.request('GET', `${base}/${body.id}`, { token: s.token })
			expect(read.body.totals).toEqual(body.totals)
			const list = await t.request('GET', base, { token: s.token })
			expect(list.body.invoices[0].totals).toEqual(body.totals)
			// The PDF prints the same total, formatted in the profile's locale.
			const pdf = await download(t, `${base}/${body.id}/pdf`, s.token)
			const text = (await extractText(pdf.bytes.slice(), { mergePages: true })).text.replace(/\s+/g, ' ')
			const total = formatMoney(body.total.minor, body.currency, 'en-GB').replace(/\s+/g, ' ')
			expect(text).toContain(`Total ${total}`)
		})
	}
})

describe('credit notes', () => {
	test('partial and then the rest: negative totals, own sequence, refers to the invoice', async () => {
		const s = await setUp()
		const [standard, reduced] = s.rateIds as [string, string]
		const body = await draft(s, {
			issueDate: '2026-04-01',
			lines: [
				line(standard, '10', '33.33'),
				line(reduced, '1', '19.99', { discount: { kind: 'amount', amount: '2' } }),
			],
		})
		await t.request('POST', `${base}/${body.id}/finalize`, { token: s.token })

		const wrong = await t.request('POST', `${base}/${body.id}/credit_note`, {
			token: s.token,
			json: { lines: [{ line: 0, quantity: '11' }, { line: 1, quantity: '0.5' }, { line: 7 }] },
		})
		expect(wrong.status).toBe(400)
		expect(fieldsOf(wrong)).toEqual(['lines.0.quantity', 'lines.1.quantity', 'lines.2.line'])

		const first = await t.request('POST', `${base}/${body.id}/credit_note`, {
			token: s.token,
			json: { issueDate: '2026-04-10', lines: [{ line: 0, quantity: '4' }] },
		})
		expect(first.status, JSON.stringify(first.body)).toBe(201)
		expect(first.body).toMatchObject({ kind: 'credit_note', number: 'CN-2026-0001', correctsId: body.id })
		expect(first.body.lines[0]).toMatchObject({ quantity: '-4', creditsLine: 0 })
		// 4 × 33.33 = 133.32, VAT 25.33 (−25.3308 rounded half-up away from zero).
		expect(first.body.total).toEqual({ minor: -15865, decimal: '-158.65' })

		const rest = await t.request('POST', `${base}/${body.id}/credit_note`, {
			token: s.token,
			json: { issueDate: '2026-04-10' },
		})
		expect(rest.status).toBe(201)
		expect(rest.body.number).toBe('CN-2026-0002')
		expect(rest.body.lines.map((one: { quantity: string }) => one.quantity)).toEqual(['-6', '-1'])
		// Both credit notes together undo the invoice to within the per-note VAT rounding.
		expect(first.body.total.minor + rest.body.total.minor + body.total.minor).toBeLessThanOrEqual(1)
		const again = await t.request('POST', `${base}/${body.id}/credit_note`, { token: s.token, json: {} })
		expect(again.status).toBe(409)
		const pdf = await download(t, `${base}/${rest.body.id}/pdf`, s.token)
		const text = (await extractText(pdf.bytes.slice(), { mergePages: true })).text
		expect(text).toContain('CN-2026-0002')
		expect(text).toContain('INV-2026-0001')
	})

	test('a whole credit note mirrors the invoice to the cent', async () => {
		const s = await setUp()
		const body = await draft(s, {
			lines: [line(s.rateIds[0] as string, '3', '33.335'), line(s.rateIds[1] as string, '7', '0.05')],
			discounts: [{ kind: 'percent', percent: '12.5' }],
		})
		await t.request('POST', `${base}/${body.id}/finalize`, { token: s.token })
		const note = await t.request('POST', `${base}/${body.id}/credit_note`, { token: s.token, json: {} })
		expect(note.body.total.minor).toBe(-body.total.minor)
		expect(note.body.totals.vatTotal.minor).toBe(-body.totals.vatTotal.minor)
	})
})

describe('statuses and payments', () => {
	test('sent, partially paid, paid; over-payment refused; overdue derived; void', async () => {
		const s = await setUp()
		const body = await draft(s, {
			issueDate: '2020-01-01',
			dueDate: '2020-01-15',
			lines: [line(s.rateIds[0] as string, '1', '100')],
		})
		const early = await t.request('POST', `${base}/${body.id}/payments`, {
			token: s.token,
			json: { date: '2020-01-02', amount: '10', method: 'cash' },
		})
		expect(early.status).toBe(409)
		await t.request('POST', `${base}/${body.id}/finalize`, { token: s.token })
		const sent = await t.request('POST', `${base}/${body.id}/mark_sent`, { token: s.token })
		expect(sent.body).toMatchObject({ status: 'sent', isOverdue: true })

		const pay = (amount: string) =>
			t.request('POST', `${base}/${body.id}/payments`, {
				token: s.token,
				json: { date: '2020-01-20', amount, method: 'bank_transfer', note: null },
			})
		expect(fieldsOf(await pay('100.001'))).toEqual(['amount'])
		expect(fieldsOf(await pay('0'))).toEqual(['amount'])
		const part = await pay('50.00')
		expect(part.status).toBe(201)
		expect(part.body.amount).toEqual({ minor: 5000, decimal: '50.00' })
		let read = await t.request('GET', `${base}/${body.id}`, { token: s.token })
		expect(read.body).toMatchObject({ status: 'partially_paid', isOverdue: true, due: { decimal: '69.00' } })
		const over = await pay('69.01')
		expect(over.status).toBe(400)
		expect(fieldsOf(over)).toEqual(['amount'])
		expect((await pay('69.00')).status).toBe(201)
		read = await t.request('GET', `${base}/${body.id}`, { token: s.token })
		expect(read.body).toMatchObject({ status: 'paid', isOverdue: false, due: { minor: 0 } })
		expect(read.body.paidAt).toBe('2020-01-20T00:00:00.000Z')

		const list = await t.request('GET', `${base}?status=paid&currency=EUR`, { token: s.token })
		expect(list.body.invoices.map((one: { id: string }) => one.id)).toEqual([body.id])
		expect(list.body.totals).toEqual([{ status: 'paid', currency: 'EUR', count: 1, totalMinor: 11900, dueMinor: 0 }])

		expect((await t.request('POST', `${base}/${body.id}/void`, { token: s.token })).status).toBe(409)
		const payments = await t.request('GET', `${base}/${body.id}/payments`, { token: s.token })
		expect(payments.body).toHaveLength(2)
		for (const payment of payments.body) {
			expect((await t.request('DELETE', `${base}/${body.id}/payments/${payment.id}`, { token: s.token })).status).toBe(
				200,
			)
		}
		read = await t.request('GET', `${base}/${body.id}`, { token: s.token })
		expect(read.body).toMatchObject({ status: 'sent', paid: { minor: 0 }, paidAt: null })
		const voided = await t.request('POST', `${base}/${body.id}/void`, { token: s.token })
		expect(voided.body).toMatchObject({ status: 'void', isOverdue: false, number: 'INV-2020-0001' })
	})

	test('payments recorded at once never pay more than the total', async () => {
		const s = await setUp()
		const body = await draft(s, { lines: [line(s.rateIds[0] as string, '1', '100')] })
		await t.request('POST', `${base}/${body.id}/finalize`, { token: s.token })
		const results = await Promise.all(
			Array.from({ length: 6 }, () =>
				t.request('POST', `${base}/${body.id}/payments`, {
					token: s.token,
					json: { date: '2026-01-05', amount: '30.00', method: 'card' },
				}),
			),
		)
		// 119.00 due: three payments of 30.00 fit, a fourth would pay 120.00.
		expect(results.map((result) => result.status).sort()).toEqual([201, 201, 201, 400, 400, 400])
		const read = await t.request('GET', `${base}/${body.id}`, { token: s.token })
		expect(read.body).toMatchObject({ status: 'partially_paid', paid: { minor: 9000 }, due: { minor: 2900 } })
	})

	test('the list filters by status, overdue, client, dates and currency, with totals per status', async () => {
		const s = await setUp()
		const [rate] = s.rateIds as [string]
		const a = await draft(s, { issueDate: '2020-02-01', dueDate: '2020-02-10', lines: [line(rate, '1', '100')] })
		await draft(s, {
			issueDate: '2026-02-01',
			currency: 'USD',
			client: { name: 'Globex' },
			lines: [line(rate, '1', '10')],
		})
		await t.request('POST', `${base}/${a.id}/finalize`, { token: s.token })
		const ids = async (query: string) =>
			(await t.request('GET', `${base}${query}`, { token: s.token })).body.invoices.map((one: { id: string }) => one.id)
		expect(await ids('?status=overdue')).toEqual([a.id])
		expect(await ids('?status=draft')).toHaveLength(1)
		expect(await ids('?clientId=Northwind%20Ltd')).toEqual([a.id])
		expect(await ids('?from=2026-01-01')).toHaveLength(1)
		expect(await ids('?to=2020-12-31')).toEqual([a.id])
		expect(await ids('?currency=usd')).toHaveLength(1)
		const all = await t.request('GET', base, { token: s.token })
		expect(all.body.totals).toEqual(
			expect.arrayContaining([
				{ status: 'finalized', currency: 'EUR', count: 1, totalMinor: 11900, dueMinor: 11900 },
				{ status: 'overdue', currency: 'EUR', count: 1, totalMinor: 11900, dueMinor: 11900 },
				{ status: 'draft', currency: 'USD', count: 1, totalMinor: 1190, dueMinor: 1190 },
			]),
		)
		const bad = await t.request('GET', `${base}?status=late&from=yesterday`, { token: s.token })
		expect(bad.status).toBe(400)
		expect(fieldsOf(bad).sort()).toEqual(['from', 'status'])
	})
})
