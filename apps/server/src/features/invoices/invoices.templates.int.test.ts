import { createHash } from 'node:crypto'
import { crc32, deflateSync } from 'node:zlib'
import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { InvoiceProfile } from '@blocksmith/contracts/invoices.ts'
import { extractText } from 'unpdf'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { download } from '#src/test/time-reports.ts'
import { sampleDocument } from './invoices.templates.ts'

// Invoice templates through the API: the designs listed; each drawn as a PDF with the sample
// company, or with a profile's sender, logo, currency, rates and next number; another
// organization's profile is a 404; a bad design or format a 400 naming the field.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const base = '/dashboard/local_invoice/templates'
const flat = (text: string) => text.replace(/\s+/g, ' ')

/** A real 2×2 red PNG (a logo pdfkit can embed). */
function tinyPng(): Uint8Array {
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
		const length = Buffer.alloc(4)
		length.writeUInt32BE(data.length)
		const crc = Buffer.alloc(4)
		crc.writeUInt32BE(crc32(body))
		return Buffer.concat([length, body, crc])
	}
	const header = Buffer.alloc(13)
	header.writeUInt32BE(2, 0)
	header.writeUInt32BE(2, 4)
	header.set([8, 2, 0, 0, 0], 8)
	const rows = Buffer.from([0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0])
	return new Uint8Array(
		Buffer.concat([
			Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
			chunk('IHDR', header),
			chunk('IDAT', deflateSync(rows)),
			chunk('IEND', Buffer.alloc(0)),
		]),
	)
}

async function uploadLogo(token: string): Promise<string> {
	const bytes = tinyPng()
	const announced = await t.request('POST', '/dashboard/active_storage/direct_uploads', {
		token,
		json: {
			filename: 'logo.png',
			byteSize: bytes.byteLength,
			checksum: createHash('md5').update(bytes).digest('base64'),
			contentType: 'image/png',
		},
	})
	expect(announced.status, JSON.stringify(announced.body)).toBe(200)
	const url = new URL(announced.body.directUpload.url)
	const put = await t.request('PUT', `${url.pathname}${url.search}`, {
		body: bytes,
		headers: announced.body.directUpload.headers,
	})
	expect(put.status).toBe(200)
	return announced.body.id
}

async function pdfText(bytes: Uint8Array): Promise<string> {
	return flat((await extractText(bytes.slice(), { mergePages: true })).text)
}

function fieldsOf(response: { body: { errors?: { field: string }[] } }): string[] {
	return (response.body.errors ?? []).map((error) => error.field)
}

describe('invoice templates', () => {
	test('lists the three designs with a name and a description, to members only', async () => {
		const owner = await t.signUp()
		const listed = await t.request('GET', base, { token: owner.token })
		expect(listed.status).toBe(200)
		expect(listed.body.map((design: { design: string }) => design.design)).toEqual(['classic', 'modern', 'compact'])
		for (const design of listed.body) {
			expect(design.name).toBeTruthy()
			expect(design.description.length).toBeGreaterThan(20)
		}
		expect((await t.request('GET', base)).status).toBe(401)
		expect((await download(t, `${base}/get_template?template=classic`)).status).toBe(401)
	})

	test('each design is drawn with the sample company and the money core’s totals', async () => {
		const owner = await t.signUp()
		for (const design of ['classic', 'modern', 'compact'] as const) {
			const pdf = await download(t, `${base}/get_template?template=${design}`, owner.token)
			expect(pdf.status).toBe(200)
			expect(pdf.headers.get('content-type')).toBe('application/pdf')
			const text = await pdfText(pdf.bytes)
			const { totals } = sampleDocument(design, '2026-01-01', null)
			expect(text).toContain('Blue Fern Studio GmbH')
			expect(text).toContain('Northwind Outdoor Supply Ltd')
			expect(text).toContain(`Total ${flat(formatMoney(totals.taxInclusiveAmount.minor, 'EUR', 'en-GB'))}`)
		}
	})

	test('with a profile: its sender, logo, currency, rates and next number; a member may look', async () => {
		const team = await teamWithEveryRole(t)
		const logoBlobId = await uploadLogo(team.owner.token)
		const created = await t.request('POST', '/dashboard/local_invoice/settings', {
			token: team.owner.token,
			json: {
				legalName: 'Kaiju Works KK',
				address: { lines: ['1-2-3 Shibuya'], postcode: '150-0002', city: 'Tokyo', country: 'JP' },
				currency: 'JPY',
				locale: 'en-US',
				logoBlobId,
				taxRates: [
					{ name: 'Consumption tax 10 %', categoryCode: 'S', rate: '10', isDefault: true },
					{ name: 'Reduced 8 %', categoryCode: 'S', rate: '8' },
				],
				template: { design: 'classic', accentColor: '#b91c1c', textColor: '#1f2937', font: 'serif' },
			},
		})
		expect(created.status, JSON.stringify(created.body)).toBe(201)
		const profile = created.body as InvoiceProfile
		for (const design of ['classic', 'modern', 'compact'] as const) {
			const pdf = await download(
				t,
				`${base}/get_template?template=${design}&profileId=${profile.id}`,
				team.member.token,
			)
			expect(pdf.status).toBe(200)
			const text = await pdfText(pdf.bytes)
			const { totals } = sampleDocument(design, '2026-01-01', { profile, logo: null })
			expect(totals.currency).toBe('JPY')
			expect(text).toContain('Kaiju Works KK')
			expect(text).toContain(profile.nextNumbers.invoice)
			expect(text).toContain('Consumption tax 10 %')
			expect(text).toContain('Reduced 8 %')
			expect(text).toContain(`Total ${flat(formatMoney(totals.taxInclusiveAmount.minor, 'JPY', 'en-US'))}`)
			expect(text).not.toContain('Blue Fern')
			// The logo is drawn: an image object is in the file.
			expect(Buffer.from(pdf.bytes).toString('latin1')).toContain('/Subtype /Image')
		}
	})

	test('another organization’s profile is a 404; a bad design or format a 400 naming the field', async () => {
		const owner = await t.signUp()
		const stranger = await t.signUp()
		const created = await t.request('POST', '/dashboard/local_invoice/settings', {
			token: owner.token,
			json: { legalName: 'Acme GmbH', address: { lines: [], postcode: '10115', city: 'Berlin', country: 'DE' } },
		})
		expect(created.status).toBe(201)
		const theirs = await download(
			t,
			`${base}/get_template?template=classic&profileId=${created.body.id}`,
			stranger.token,
		)
		expect(theirs.status).toBe(404)
		expect((await download(t, `${base}/get_template?template=classic&profileId=nope`, owner.token)).status).toBe(404)

		const badDesign = await t.request('GET', `${base}/get_template?template=fancy`, { token: owner.token })
		expect(badDesign.status).toBe(400)
		expect(fieldsOf(badDesign)).toEqual(['template'])
		const missing = await t.request('GET', `${base}/get_template`, { token: owner.token })
		expect(missing.status).toBe(400)
		expect(fieldsOf(missing)).toEqual(['template'])
		const png = await t.request('GET', `${base}/get_template?template=modern&format=png`, { token: owner.token })
		expect(png.status).toBe(400)
		expect(fieldsOf(png)).toEqual(['format'])
		const pdf = await download(t, `${base}/get_template?template=modern&format=pdf`, owner.token)
		expect(pdf.status).toBe(200)
	})
})
