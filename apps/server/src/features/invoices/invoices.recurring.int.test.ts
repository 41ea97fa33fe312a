import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { runDue } from './invoices.recurring.ts'

// Recurring invoices through the API and the job (PGlite, or PostgreSQL with DATABASE_URL): the
// schedule's days (months keep their day), a run's copy (dates, figures, client), `send`
// numbering and sending, two jobs at once producing each run once, the ends of a series, a
// failing run pausing its series, pause and resume, tenancy and bad input naming the field.

let t: TestApp
const realNow = () => new Date()

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})
afterEach(() => {
	t.services.invoices.deps.now = realNow
})

/** Sets the invoices' clock to noon UTC of `day`. */
function today(day: string) {
	t.services.invoices.deps.now = () => new Date(`${day}T12:00:00Z`)
}

const base = '/dashboard/local_invoice/recurring'
const invoices = '/dashboard/local_invoice/invoices'
const address = { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' }
const client = { name: 'Northwind Ltd', address: { lines: [], postcode: 'BS1', city: 'Bristol', country: 'GB' } }

async function setUp() {
	const owner = await t.signUp()
	const created = await t.request('POST', '/dashboard/local_invoice/settings', {
		token: owner.token,
		json: {
			legalName: 'Acme GmbH',
			address,
			currency: 'EUR',
			taxRates: [
				{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true },
				{ name: 'VAT 7 %', categoryCode: 'S', rate: '7' },
			],
		},
	})
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	const rateIds = (created.body.taxRates as { id: string }[]).map((rate) => rate.id) as [string, string]
	return { token: owner.token, profileId: created.body.id as string, rateIds }
}

type Setup = Awaited<ReturnType<typeof setUp>>

async function source(s: Setup, extra: Record<string, unknown> = {}) {
	const response = await t.request('POST', invoices, {
		token: s.token,
		json: {
			client,
			lines: [
				{ description: 'Retainer', quantity: '1', unitPrice: '1000.00', taxRateId: s.rateIds[0] },
				{ description: 'Books', quantity: '3', unitPrice: '12.50', taxRateId: s.rateIds[1] },
			],
			discounts: [{ kind: 'percent', percent: '10', reason: 'Loyalty' }],
			notes: 'Thank you',
			...extra,
		},
	})
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body
}

async function recur(s: Setup, json: Record<string, unknown>) {
	const response = await t.request('POST', base, { token: s.token, json: { action: 'draft', interval: 1, ...json } })
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body
}

/** The invoices a series produced, oldest first. */
async function producedBy(s: Setup, recurrenceId: string) {
	const list = await t.request('GET', `${invoices}?limit=200`, { token: s.token })
	expect(list.status).toBe(200)
	return (list.body.invoices as { recurrenceId: string | null; issueDate: string }[])
		.filter((one) => one.recurrenceId === recurrenceId)
		.reverse()
}

const fieldsOf = (response: { body: { errors?: { field: string }[] } }) =>
	(response.body.errors ?? []).map((error) => error.field)

describe('the schedule', () => {
	test('monthly from 31 January: a year of runs keeps the day, or the month’s last', async () => {
		const s = await setUp()
		today('2027-01-20')
		const body = await source(s)
		const series = await recur(s, { sourceId: body.id, frequency: 'month', startDate: '2027-01-31' })
		expect(series).toMatchObject({ nextDate: '2027-01-31', anchorDate: '2027-01-31', runs: 0, isActive: true })
		today('2027-12-31')
		await runDue(t.services.invoices.deps)
		const days = (await producedBy(s, series.id)).map((one) => one.issueDate)
		expect(days).toEqual([
			'2027-01-31',
			'2027-02-28',
			'2027-03-31',
			'2027-04-30',
			'2027-05-31',
			'2027-06-30',
			'2027-07-31',
			'2027-08-31',
			'2027-09-30',
			'2027-10-31',
			'2027-11-30',
			'2027-12-31',
		])
		const read = await t.request('GET', `${base}/${series.id}`, { token: s.token })
		expect(read.body).toMatchObject({ runs: 12, nextDate: '2028-01-31', isActive: true })
	})

	test('yearly from 29 February and every two weeks', async () => {
		const s = await setUp()
		today('2028-02-01')
		const body = await source(s)
		const yearly = await recur(s, { sourceId: body.id, frequency: 'year', startDate: '2028-02-29' })
		const weekly = await recur(s, { sourceId: body.id, frequency: 'week', interval: 2, startDate: '2028-02-27' })
		today('2032-03-01')
		await runDue(t.services.invoices.deps)
		expect((await producedBy(s, yearly.id)).map((one) => one.issueDate)).toEqual([
			'2028-02-29',
			'2029-02-28',
			'2030-02-28',
			'2031-02-28',
			'2032-02-29',
		])
		const fortnightly = (await producedBy(s, weekly.id)).map((one) => one.issueDate)
		expect(fortnightly.slice(0, 3)).toEqual(['2028-02-27', '2028-03-12', '2028-03-26'])
		// 27 Feb 2028 to 1 Mar 2032: 1464 days, so runs on days 0, 14, … 1456.
		expect(fortnightly).toHaveLength(105)
		expect(fortnightly.at(-1)).toBe('2032-02-22')
	})

	test('a count or an end date ends the series', async () => {
		const s = await setUp()
		today('2027-01-01')
		const body = await source(s)
		const counted = await recur(s, { sourceId: body.id, frequency: 'week', startDate: '2027-01-04', count: 2 })
		const dated = await recur(s, {
			sourceId: body.id,
			frequency: 'month',
			startDate: '2027-01-15',
			endDate: '2027-03-20',
		})
		today('2027-06-30')
		await runDue(t.services.invoices.deps)
		expect((await producedBy(s, counted.id)).map((one) => one.issueDate)).toEqual(['2027-01-04', '2027-01-11'])
		expect((await producedBy(s, dated.id)).map((one) => one.issueDate)).toEqual([
			'2027-01-15',
			'2027-02-15',
			'2027-03-15',
		])
		for (const id of [counted.id, dated.id]) {
			const read = await t.request('GET', `${base}/${id}`, { token: s.token })
			expect(read.body).toMatchObject({ isActive: false, nextDate: null })
		}
		expect((await t.request('GET', `${base}/${counted.id}`, { token: s.token })).body.remaining).toBe(0)
		const resumed = await t.request('PATCH', `${base}/${counted.id}`, { token: s.token, json: { isActive: true } })
		expect(fieldsOf(resumed)).toEqual(['isActive'])
		expect(await runDue(t.services.invoices.deps)).toBe(0)
	})
})

describe('runs', () => {
	test('a run is a draft dated its day with the source’s figures, client and notes', async () => {
		const s = await setUp()
		today('2027-03-10')
		const body = await source(s, { issueDate: '2027-01-05' })
		const series = await recur(s, { sourceId: body.id, frequency: 'month', startDate: '2027-03-10' })
		await runDue(t.services.invoices.deps)
		const [made] = await producedBy(s, series.id)
		const read = await t.request('GET', `${invoices}/${(made as unknown as { id: string }).id}`, { token: s.token })
		expect(read.body).toMatchObject({
			status: 'draft',
			number: null,
			issueDate: '2027-03-10',
			dueDate: '2027-03-24',
			profileId: s.profileId,
			currency: 'EUR',
			notes: 'Thank you',
			recurrenceId: series.id,
			total: body.total,
		})
		expect(read.body.client).toEqual(body.client)
		expect(read.body.lines).toEqual(body.lines)
		expect(read.body.discounts).toEqual(body.discounts)
		expect(read.body.totals).toEqual(body.totals)
		const after = await t.request('GET', base, { token: s.token })
		expect(after.body).toEqual([
			expect.objectContaining({
				id: series.id,
				runs: 1,
				nextDate: '2027-04-10',
				lastDocumentId: read.body.id,
				lastError: null,
				source: { number: null, status: 'draft', clientName: 'Northwind Ltd', currency: 'EUR', total: body.total },
			}),
		])
	})

	test('a series whose first day is today produces that invoice when it is made; one from tomorrow waits', async () => {
		const s = await setUp()
		today('2027-03-10')
		const email = `first-day-${Date.now()}@northwind.test`
		const body = await source(s, { client: { ...client, email } })
		// No job run: the creation itself produced (and, for `send`, numbered and e-mailed) today's invoice.
		const series = await recur(s, { sourceId: body.id, frequency: 'month', startDate: '2027-03-10', action: 'send' })
		expect(series).toMatchObject({ runs: 1, nextDate: '2027-04-10', isActive: true, lastError: null })
		const [made] = (await producedBy(s, series.id)) as unknown as { id: string; issueDate: string; status: string }[]
		expect(made).toMatchObject({ id: series.lastDocumentId, issueDate: '2027-03-10', status: 'sent' })
		await t.waitForMail(email, /INV-/)
		const later = await recur(s, { sourceId: body.id, frequency: 'month', startDate: '2027-03-11' })
		expect(later).toMatchObject({ runs: 0, nextDate: '2027-03-11', lastDocumentId: null })
		expect(await producedBy(s, later.id)).toEqual([])
	})

	test('`send` finalizes with the next number and e-mails it; run_now produces the next run today', async () => {
		const s = await setUp()
		today('2027-05-02')
		const email = `billing-${Date.now()}@northwind.test`
		const body = await source(s, { client: { ...client, email } })
		const finalized = await t.request('POST', `${invoices}/${body.id}/finalize`, { token: s.token })
		expect(finalized.status).toBe(200)
		const first = Number(/(\d+)$/.exec(finalized.body.number)?.[1])
		const series = await recur(s, { sourceId: body.id, frequency: 'month', startDate: '2027-06-01', action: 'send' })
		const now = await t.request('POST', `${base}/${series.id}/run_now`, { token: s.token })
		expect(now.status, JSON.stringify(now.body)).toBe(200)
		expect(now.body).toMatchObject({ status: 'sent', issueDate: '2027-05-02', recurrenceId: series.id })
		expect(now.body.number).toBe(finalized.body.number.replace(/\d+$/, String(first + 1).padStart(4, '0')))
		expect(now.body.sentAt).not.toBeNull()
		const mail = await t.waitForMail(email, new RegExp(now.body.number))
		expect(mail.links.some((link) => link.includes(now.body.publicToken))).toBe(true)
		const read = await t.request('GET', `${base}/${series.id}`, { token: s.token })
		// The run scheduled for 1 June was the one sent now: the series goes on from 1 July.
		expect(read.body).toMatchObject({ runs: 1, nextDate: '2027-07-01', lastDocumentId: now.body.id, lastError: null })
	})

	test('`send` to a client without an address: the invoice is issued, the series paused and told why', async () => {
		const s = await setUp()
		today('2027-05-02')
		const body = await source(s)
		const series = await recur(s, { sourceId: body.id, frequency: 'month', startDate: '2027-05-02', action: 'send' })
		await runDue(t.services.invoices.deps)
		const [made] = (await producedBy(s, series.id)) as unknown as { status: string; number: string | null }[]
		expect(made).toMatchObject({ status: 'finalized' })
		expect(made?.number).not.toBeNull()
		const read = await t.request('GET', `${base}/${series.id}`, { token: s.token })
		expect(read.body).toMatchObject({ isActive: false, runs: 1, nextDate: '2027-06-02' })
		expect(read.body.lastError.message).toMatch(/^to: /)
	})

	test('two jobs at once produce each run once', async () => {
		const s = await setUp()
		today('2027-02-01')
		const body = await source(s)
		const series = await recur(s, { sourceId: body.id, frequency: 'week', startDate: '2027-02-01' })
		const made = await Promise.all([runDue(t.services.invoices.deps), runDue(t.services.invoices.deps)])
		expect(made[0] + made[1]).toBeLessThanOrEqual(1)
		expect(await producedBy(s, series.id)).toHaveLength(1)
		const read = await t.request('GET', `${base}/${series.id}`, { token: s.token })
		expect(read.body).toMatchObject({ runs: 1, nextDate: '2027-02-08' })
	})

	test('a run that fails pauses its series and says why; resuming skips the days missed', async () => {
		const s = await setUp()
		today('2027-04-01')
		const body = await source(s)
		const series = await recur(s, { sourceId: body.id, frequency: 'week', startDate: '2027-04-05' })
		const profile = await t.request('GET', `/dashboard/local_invoice/settings/${s.profileId}`, { token: s.token })
		const kept = profile.body.taxRates.filter((rate: { id: string }) => rate.id === s.rateIds[0])
		const retired = await t.request('PATCH', `/dashboard/local_invoice/settings/${s.profileId}`, {
			token: s.token,
			json: { taxRates: kept },
		})
		expect(retired.status, JSON.stringify(retired.body)).toBe(200)
		today('2027-04-06')
		await runDue(t.services.invoices.deps)
		expect(await runDue(t.services.invoices.deps)).toBe(0)
		const read = await t.request('GET', `${base}/${series.id}`, { token: s.token })
		expect(read.body).toMatchObject({ isActive: false, runs: 0, nextDate: '2027-04-05' })
		expect(read.body.lastError.message).toMatch(/^lines\.1\.taxRateId: /)
		const runNow = await t.request('POST', `${base}/${series.id}/run_now`, { token: s.token })
		expect(runNow.status).toBe(409)

		// Fixed on the source: its line now uses the rate still in use.
		const lines = body.lines.map((one: Record<string, unknown>) => ({ ...one, taxRateId: s.rateIds[0] }))
		expect((await t.request('PATCH', `${invoices}/${body.id}`, { token: s.token, json: { lines } })).status).toBe(200)
		today('2027-04-20')
		const resumed = await t.request('PATCH', `${base}/${series.id}`, { token: s.token, json: { isActive: true } })
		expect(resumed.body).toMatchObject({ isActive: true, nextDate: '2027-04-26' })
		today('2027-04-26')
		await runDue(t.services.invoices.deps)
		expect((await producedBy(s, series.id)).map((one) => one.issueDate)).toEqual(['2027-04-26'])
		expect((await t.request('GET', `${base}/${series.id}`, { token: s.token })).body.lastError).toBeNull()
	})

	test('pausing stops runs; a new schedule starts from its start date', async () => {
		const s = await setUp()
		today('2027-01-10')
		const body = await source(s)
		const series = await recur(s, { sourceId: body.id, frequency: 'month', startDate: '2027-01-10' })
		await t.request('PATCH', `${base}/${series.id}`, { token: s.token, json: { isActive: false } })
		expect(await runDue(t.services.invoices.deps)).toBe(0)
		const changed = await t.request('PATCH', `${base}/${series.id}`, {
			token: s.token,
			json: { isActive: true, frequency: 'year', interval: 2, startDate: '2027-02-01' },
		})
		expect(changed.body).toMatchObject({
			frequency: 'year',
			interval: 2,
			anchorDate: '2027-02-01',
			nextDate: '2027-02-01',
		})
		expect((await t.request('DELETE', `${base}/${series.id}`, { token: s.token })).status).toBe(200)
		expect((await t.request('GET', `${base}/${series.id}`, { token: s.token })).status).toBe(404)
	})
})

describe('tenancy and bad input', () => {
	test('another organization’s series is a 404 for every route; its invoice is no source', async () => {
		const s = await setUp()
		const stranger = await setUp()
		today('2027-01-01')
		const body = await source(s)
		const series = await recur(s, { sourceId: body.id, frequency: 'month', startDate: '2027-01-02' })
		for (const [method, path] of [
			['GET', ''],
			['PATCH', ''],
			['DELETE', ''],
			['POST', '/run_now'],
		] as const) {
			const json = method === 'GET' ? undefined : {}
			const response = await t.request(method, `${base}/${series.id}${path}`, { token: stranger.token, json })
			expect(response.status, `${method} ${path}`).toBe(404)
		}
		expect((await t.request('GET', base, { token: stranger.token })).body).toEqual([])
		const foreign = await t.request('POST', base, {
			token: stranger.token,
			json: { sourceId: body.id, frequency: 'month', interval: 1, startDate: '2027-01-02', action: 'draft' },
		})
		expect(foreign.status).toBe(400)
		expect(fieldsOf(foreign)).toEqual(['sourceId'])
	})

	test('a credit note, interval 0, an unknown frequency, a past start: 400 naming the field', async () => {
		const s = await setUp()
		today('2027-01-01')
		const body = await source(s)
		await t.request('POST', `${invoices}/${body.id}/finalize`, { token: s.token })
		const note = await t.request('POST', `${invoices}/${body.id}/credit_note`, { token: s.token, json: {} })
		expect(note.status).toBe(201)
		const post = (json: Record<string, unknown>) =>
			t.request('POST', base, {
				token: s.token,
				json: { sourceId: body.id, frequency: 'month', interval: 1, startDate: '2027-01-05', action: 'draft', ...json },
			})
		expect(fieldsOf(await post({ sourceId: note.body.id }))).toEqual(['sourceId'])
		expect(fieldsOf(await post({ interval: 0 }))).toEqual(['interval'])
		expect(fieldsOf(await post({ frequency: 'day' }))).toEqual(['frequency'])
		expect(fieldsOf(await post({ startDate: '2026-12-31' }))).toEqual(['startDate'])
		expect(fieldsOf(await post({ endDate: '2027-01-04' }))).toEqual(['endDate'])
		expect(fieldsOf(await post({ count: 0 }))).toEqual(['count'])
		const bad = await post({ action: 'mail' })
		expect(bad.status).toBe(400)
		expect(fieldsOf(bad)).toEqual(['action'])
	})
})
