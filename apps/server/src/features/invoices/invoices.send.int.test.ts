import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import PostalMime from 'postal-mime'
import { extractText } from 'unpdf'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectRefusedByRole, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { download } from '#src/test/time-reports.ts'
import { until } from '#src/test/until.ts'

// Sending an invoice (PGlite, or PostgreSQL with DATABASE_URL): the mail job writes an .eml whose
// PDF attachment is the invoice's PDF, with the public link in the text; the history; the public
// page (viewed once, void and unknown links alike 404); tenancy of all of it.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const base = '/dashboard/local_invoice/invoices'
const address = { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' }

async function finalized(options: { clientEmail?: string | null; token?: string } = {}) {
	const token = options.token ?? (await t.signUp({ name: 'Sam Sender' })).token
	const profile = await t.request('POST', '/dashboard/local_invoice/settings', {
		token,
		json: {
			legalName: 'Acme GmbH',
			address,
			email: 'billing@acme.example',
			taxRates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true }],
		},
	})
	expect(profile.status, JSON.stringify(profile.body)).toBe(201)
	const rateId = profile.body.taxRates[0].id as string
	const email = options.clientEmail === undefined ? 'ap@northwind.example' : options.clientEmail
	const draft = await t.request('POST', base, {
		token,
		json: {
			client: { name: 'Northwind Ltd', email, address: null },
			issueDate: '2026-03-01',
			lines: [{ description: 'Design work', quantity: '1', unitPrice: '1000.00', taxRateId: rateId }],
		},
	})
	expect(draft.status, JSON.stringify(draft.body)).toBe(201)
	const done = await t.request('POST', `${base}/${draft.body.id}/finalize`, { token })
	expect(done.status, JSON.stringify(done.body)).toBe(200)
	return { token, profileId: profile.body.id as string, invoice: done.body, draftId: draft.body.id as string }
}

type Parsed = Awaited<ReturnType<typeof PostalMime.parse>>

/** The .eml the mail job wrote to `to`, parsed (attachments included). */
async function mailTo(to: string): Promise<Parsed> {
	const dir = path.join(t.dataDir, 'mail')
	return until(
		`mail to ${to}`,
		async () => {
			let files: string[] = []
			try {
				files = readdirSync(dir).filter((file) => file.endsWith('.eml'))
			} catch {
				// Not written yet.
			}
			for (const file of files) {
				const parsed = await PostalMime.parse(readFileSync(path.join(dir, file)))
				if (parsed.to?.some((address) => address.address === to)) {
					return parsed
				}
			}
			return null
		},
		(found) => found !== null,
		20_000,
	) as Promise<Parsed>
}

describe('sending an invoice', () => {
	test('the .eml has the invoice PDF attached as <number>.pdf and the public link; the invoice is sent', async () => {
		const s = await finalized()
		const number = s.invoice.number as string
		const sent = await t.request('POST', `${base}/${s.invoice.id}/send`, { token: s.token, json: {} })
		expect(sent.status, JSON.stringify(sent.body)).toBe(200)
		expect(sent.body).toMatchObject({ status: 'sent', number })
		expect(sent.body.sentAt).not.toBeNull()

		const mail = await mailTo('ap@northwind.example')
		expect(mail.subject).toBe(`Invoice ${number} from Acme GmbH`)
		const link = `http://localhost:3000/i/${s.invoice.publicToken}`
		expect(mail.text).toContain(link)
		expect(mail.text).toContain('Hello Northwind Ltd')
		expect(mail.text).toContain('€1,190.00')
		expect(mail.replyTo?.[0]?.address).toBe('billing@acme.example')
		expect(mail.attachments).toHaveLength(1)
		const [attachment] = mail.attachments
		expect(attachment?.mimeType).toBe('application/pdf')
		expect(attachment?.filename).toBe(`${number}.pdf`)
		const bytes = new Uint8Array(attachment?.content as ArrayBuffer)
		expect(Buffer.from(bytes.slice(0, 4)).toString('latin1')).toBe('%PDF')

		const pdf = await download(t, `${base}/${s.invoice.id}/pdf`, s.token)
		const attached = await extractText(bytes, { mergePages: true })
		const served = await extractText(new Uint8Array(pdf.bytes), { mergePages: true })
		expect(attached.totalPages).toBe(served.totalPages)
		expect(attached.text).toBe(served.text)
		expect(attached.text).toContain(number)
		expect(attached.text).toContain('1,190.00')

		const events = await t.request('GET', `${base}/${s.invoice.id}/events`, { token: s.token })
		expect(events.status).toBe(200)
		expect(events.body.map((event: { kind: string }) => event.kind).slice(0, 2)).toEqual(['sent', 'finalized'])
		expect(events.body[0]).toMatchObject({
			kind: 'sent',
			actorName: 'Sam Sender',
			detail: { by: 'email', to: ['ap@northwind.example'], subject: mail.subject },
		})
	})

	test('recipients, copy, subject and message given in the request, with placeholders', async () => {
		const s = await finalized({ clientEmail: null })
		const noOne = await t.request('POST', `${base}/${s.invoice.id}/send`, { token: s.token, json: {} })
		expect(noOne.status).toBe(400)
		expect(noOne.body.errors.map((error: { field: string }) => error.field)).toEqual(['to'])
		const badAddress = await t.request('POST', `${base}/${s.invoice.id}/send`, {
			token: s.token,
			json: { to: ['not an address'] },
		})
		expect(badAddress.status).toBe(400)
		expect(badAddress.body.errors[0].field).toBe('to.0')

		const sent = await t.request('POST', `${base}/${s.invoice.id}/send`, {
			token: s.token,
			json: {
				to: ['boss@northwind.example'],
				cc: ['books@acme.example'],
				subject: 'Your invoice {number}',
				message: 'Due {due_date}: {amount}.',
			},
		})
		expect(sent.status, JSON.stringify(sent.body)).toBe(200)
		const mail = await mailTo('boss@northwind.example')
		expect(mail.subject).toBe(`Your invoice ${s.invoice.number}`)
		expect(mail.cc?.map((address) => address.address)).toEqual(['books@acme.example'])
		// The link is added when the message leaves it out.
		expect(mail.text).toContain(`Due 15 March 2026: €1,190.00.`)
		expect(mail.text).toContain(`/i/${s.invoice.publicToken}`)
	})

	test('a draft is a 409; a void invoice too', async () => {
		const s = await finalized()
		const other = await t.request('POST', base, { token: s.token, json: { client: { name: 'X' } } })
		const draft = await t.request('POST', `${base}/${other.body.id}/send`, {
			token: s.token,
			json: { to: ['a@b.example'] },
		})
		expect(draft.status).toBe(409)
		expect((await t.request('POST', `${base}/${s.invoice.id}/void`, { token: s.token })).status).toBe(200)
		const voided = await t.request('POST', `${base}/${s.invoice.id}/send`, { token: s.token, json: {} })
		expect(voided.status).toBe(409)
	})
})

describe('the public page', () => {
	test('shows what the invoice shows, marks it viewed once, serves the PDF; void and unknown links are 404', async () => {
		const s = await finalized()
		const token = s.invoice.publicToken as string
		expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/)
		const first = await t.request('GET', `/api/invoices/${token}`)
		expect(first.status, JSON.stringify(first.body)).toBe(200)
		expect(first.body).toMatchObject({
			kind: 'invoice',
			number: s.invoice.number,
			status: 'finalized',
			currency: 'EUR',
			dueDate: '2026-03-15',
			sender: { legalName: 'Acme GmbH', email: 'billing@acme.example' },
			client: { name: 'Northwind Ltd' },
			lines: [{ description: 'Design work', quantity: '1', net: { minor: 100000, decimal: '1000.00' } }],
			taxBreakdown: [{ categoryCode: 'S', rate: '19', tax: { minor: 19000 } }],
			totals: { total: { decimal: '1190.00' }, due: { decimal: '1190.00' }, paid: { minor: 0 } },
			canPayOnline: false,
			accentColor: '#1f2937',
		})
		// Nothing that is not printed on the invoice: no ids, no client e-mail.
		expect(JSON.stringify(first.body)).not.toContain(s.invoice.id)
		expect(JSON.stringify(first.body)).not.toContain('ap@northwind.example')
		await t.request('GET', `/api/invoices/${token}`)
		const read = await t.request('GET', `${base}/${s.invoice.id}`, { token: s.token })
		expect(read.body.viewedAt).not.toBeNull()
		const events = await t.request('GET', `${base}/${s.invoice.id}/events`, { token: s.token })
		const viewed = events.body.filter((event: { kind: string }) => event.kind === 'viewed')
		expect(viewed).toEqual([expect.objectContaining({ kind: 'viewed', actorName: null })])

		const pdf = await t.app.request(`/api/invoices/${token}/pdf`)
		expect(pdf.status).toBe(200)
		expect(pdf.headers.get('content-type')).toBe('application/pdf')
		expect(
			Buffer.from(await pdf.arrayBuffer())
				.subarray(0, 4)
				.toString('latin1'),
		).toBe('%PDF')

		expect((await t.request('GET', '/api/invoices/not-a-token')).status).toBe(404)
		expect((await t.request('POST', `${base}/${s.invoice.id}/void`, { token: s.token })).status).toBe(200)
		expect((await t.request('GET', `/api/invoices/${token}`)).status).toBe(404)
		expect((await t.app.request(`/api/invoices/${token}/pdf`)).status).toBe(404)
	})

	test('a discount over lines of two rates is one discount, its allowances added up, between the lines’ sum and the net', async () => {
		const { token } = await t.signUp({ name: 'Dana Discount' })
		const profile = await t.request('POST', '/dashboard/local_invoice/settings', {
			token,
			json: {
				legalName: 'Acme GmbH',
				address,
				taxRates: [
					{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true },
					{ name: 'VAT 7 %', categoryCode: 'S', rate: '7' },
				],
			},
		})
		expect(profile.status, JSON.stringify(profile.body)).toBe(201)
		const rate = (percent: string) =>
			(profile.body.taxRates as { id: string; rate: string }[]).find((one) => one.rate === percent)?.id
		const draft = await t.request('POST', base, {
			token,
			json: {
				client: { name: 'Northwind Ltd', email: null, address: null },
				issueDate: '2026-03-01',
				lines: [
					{ description: 'Design work', quantity: '1', unitPrice: '1000.00', taxRateId: rate('19') },
					{ description: 'Prints', quantity: '4', unitPrice: '50.00', taxRateId: rate('7') },
				],
				discounts: [{ kind: 'percent', percent: '10', reason: 'Early booking' }],
			},
		})
		expect(draft.status, JSON.stringify(draft.body)).toBe(201)
		const done = await t.request('POST', `${base}/${draft.body.id}/finalize`, { token })
		expect(done.status, JSON.stringify(done.body)).toBe(200)

		const page = await t.request('GET', `/api/invoices/${done.body.publicToken}`)
		expect(page.status, JSON.stringify(page.body)).toBe(200)
		expect(page.body.discounts).toEqual([
			{ percent: '10', reason: 'Early booking', amount: { minor: 12000, decimal: '120.00' } },
		])
		expect(page.body.totals).toMatchObject({
			lines: { decimal: '1200.00' },
			net: { decimal: '1080.00' },
			tax: { decimal: '183.60' },
			total: { decimal: '1263.60' },
		})
	})
})

describe('tenancy and roles', () => {
	test('another organization’s invoice and profile are 404 on send, events and the Stripe settings; members may not connect', async () => {
		const s = await finalized()
		const stranger = await t.signUp()
		const send = await t.request('POST', `${base}/${s.invoice.id}/send`, { token: stranger.token, json: {} })
		expect(send.status).toBe(404)
		expect((await t.request('GET', `${base}/${s.invoice.id}/events`, { token: stranger.token })).status).toBe(404)
		const stripePath = `/dashboard/local_invoice/settings/${s.profileId}/stripe`
		expect((await t.request('GET', stripePath, { token: stranger.token })).status).toBe(404)
		const put = await t.request('PUT', stripePath, {
			token: stranger.token,
			json: { secretKey: 'sk_test_abcdefghijklmnop' },
		})
		expect(put.status).toBe(404)
		expect((await t.request('DELETE', stripePath, { token: stranger.token })).status).toBe(404)
		expect((await t.request('GET', stripePath, { token: s.token })).body).toMatchObject({ isConnected: false })

		const team = await teamWithEveryRole(t)
		const own = await finalized({ token: team.owner.token })
		const memberPath = `/dashboard/local_invoice/settings/${own.profileId}/stripe`
		expect((await t.request('GET', memberPath, { token: team.member.token })).status).toBe(200)
		expectRefusedByRole(
			await t.request('PUT', memberPath, { token: team.member.token, json: { secretKey: 'sk_test_abcdefghijklmnop' } }),
		)
		expectRefusedByRole(await t.request('DELETE', memberPath, { token: team.member.token }))
		// A member may send the organization's invoices.
		const sent = await t.request('POST', `${base}/${own.invoice.id}/send`, { token: team.member.token, json: {} })
		expect(sent.status).toBe(200)
	})
})
