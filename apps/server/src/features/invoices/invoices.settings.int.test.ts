import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectRefusedByRole, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { resolveTaxRates } from './invoices.tax-rates.ts'

// Invoice settings profiles through the API: defaults, a full profile read back, the one
// default, roles, tenancy (another organization's profile is a 404, its tax rate a 400), tax
// rates changed, added and retired, and bad input as 400s naming the field.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const settings = '/dashboard/local_invoice/settings'
const address = { lines: ['Hauptstraße 1'], postcode: '10115', city: 'Berlin', country: 'de' }
const vat19 = { name: 'VAT 19 %', categoryCode: 'S', rate: '19.00', isDefault: true }
const vat7 = { name: 'VAT 7 %', categoryCode: 'S', rate: '7' }

async function orgIdOf(token: string): Promise<string> {
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token })
	return details.body.id as string
}

async function createProfile(token: string, body: Record<string, unknown> = {}) {
	const created = await t.request('POST', settings, { token, json: { legalName: 'Acme GmbH', address, ...body } })
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	return created.body
}

async function uploadImage(token: string, name: string, type: string): Promise<string> {
	const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82])
	const announced = await t.request('POST', '/dashboard/active_storage/direct_uploads', {
		token,
		json: {
			filename: name,
			byteSize: bytes.byteLength,
			checksum: createHash('md5').update(bytes).digest('base64'),
			contentType: type,
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

function fieldsOf(response: { body: { errors?: { field: string }[] } }): string[] {
	return (response.body.errors ?? []).map((error) => error.field)
}

describe('invoice settings profiles', () => {
	test('a profile made from a legal name and an address gets the defaults and is the default', async () => {
		const owner = await t.signUp()
		const profile = await createProfile(owner.token)
		expect(profile).toMatchObject({
			name: 'Acme GmbH',
			legalName: 'Acme GmbH',
			isDefault: true,
			address: { ...address, country: 'DE' },
			currency: 'EUR',
			locale: 'en-GB',
			taxRates: [],
			numbering: {
				invoice: { pattern: 'INV-{YYYY}-{counter:4}', reset: 'yearly' },
				creditNote: { pattern: 'CN-{YYYY}-{counter:4}', reset: 'yearly' },
			},
			paymentTermsDays: 14,
			isLineLevelVatRounding: false,
			logo: null,
			bank: null,
		})
		const year = new Date().getUTCFullYear()
		expect(profile.nextNumbers).toEqual({ invoice: `INV-${year}-0001`, creditNote: `CN-${year}-0001` })
		const read = await t.request('GET', `${settings}/${profile.id}`, { token: owner.token })
		expect(read.status).toBe(200)
		expect(read.body).toEqual(profile)
	})

	test('every field is saved as sent and read back, by any tool’s path', async () => {
		const owner = await t.signUp()
		const logoBlobId = await uploadImage(owner.token, 'logo.png', 'image/png')
		const profile = await createProfile(owner.token, {
			name: 'Acme (Germany)',
			taxIds: { vatId: 'de 123 456 789', other: [{ label: 'Steuernummer', value: '30/123/45678' }] },
			email: 'billing@acme.example',
			logoBlobId,
			currency: 'jpy',
			locale: 'de-de',
			taxRates: [
				vat19,
				vat7,
				{ name: 'Reverse charge', categoryCode: 'AE', rate: '0', exemptionReasonCode: 'vatex-eu-ae' },
			],
			numbering: {
				invoice: { pattern: 'A{YY}{MM}-{counter:3}', reset: 'monthly' },
				creditNote: { pattern: 'G{YY}{MM}-{counter:3}', reset: 'monthly' },
			},
			paymentTermsDays: 30,
			notes: 'Thank you for your business.',
			footer: 'Acme GmbH · Amtsgericht Berlin HRB 1',
			bank: { kind: 'iban', iban: 'de89 3704 0044 0532 0130 00', bic: 'cobadeffxxx', accountHolder: 'Acme GmbH' },
			emailMessage: { subject: 'Rechnung {number}', body: 'Hallo {client}, {amount} bis {due_date}. {link}' },
			isLineLevelVatRounding: true,
			template: { design: 'modern', accentColor: '#0EA5E9', textColor: '#111111', font: 'serif' },
		})
		expect(profile).toMatchObject({
			name: 'Acme (Germany)',
			taxIds: { vatId: 'DE123456789', other: [{ label: 'Steuernummer', value: '30/123/45678' }] },
			currency: 'JPY',
			locale: 'de-DE',
			bank: { kind: 'iban', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountHolder: 'Acme GmbH' },
			template: { design: 'modern', accentColor: '#0ea5e9', textColor: '#111111', font: 'serif' },
			logo: {
				blobId: logoBlobId,
				contentType: 'image/png',
				url: expect.stringContaining(`/api/uploads/${logoBlobId}?`),
			},
		})
		expect(profile.taxRates).toMatchObject([
			{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true },
			{ name: 'VAT 7 %', categoryCode: 'S', rate: '7', isDefault: false },
			{ name: 'Reverse charge', categoryCode: 'AE', rate: '0', exemptionReasonCode: 'VATEX-EU-AE' },
		])
		const local = await t.request('GET', `${settings}/${profile.id}`, { token: owner.token })
		const notion = await t.request('GET', `/dashboard/notion_invoice/settings/${profile.id}`, { token: owner.token })
		expect(local.body).toEqual(notion.body)
		const { logo: _a, updatedAt: _b, ...saved } = local.body
		const { logo: _c, updatedAt: _d, ...sent } = profile
		expect(saved).toEqual(sent)
	})

	test('one profile is the default: choosing another moves it, deleting it passes it on', async () => {
		const owner = await t.signUp()
		const first = await createProfile(owner.token, { name: 'First' })
		const second = await createProfile(owner.token, { name: 'Second' })
		expect(second.isDefault).toBe(false)
		const third = await createProfile(owner.token, { name: 'Third', isDefault: true })
		expect(third.isDefault).toBe(true)
		const list = await t.request('GET', settings, { token: owner.token })
		expect(list.body.map((profile: { name: string; isDefault: boolean }) => [profile.name, profile.isDefault])).toEqual(
			[
				['Third', true],
				['First', false],
				['Second', false],
			],
		)
		const unset = await t.request('PATCH', `${settings}/${third.id}`, {
			token: owner.token,
			json: { isDefault: false },
		})
		expect(unset.status).toBe(400)
		expect(fieldsOf(unset)).toEqual(['isDefault'])
		const chosen = await t.request('PATCH', `${settings}/${second.id}`, {
			token: owner.token,
			json: { isDefault: true },
		})
		expect(chosen.body.isDefault).toBe(true)
		const deleted = await t.request('DELETE', `${settings}/${second.id}`, { token: owner.token })
		expect(deleted.status).toBe(200)
		const after = await t.request('GET', settings, { token: owner.token })
		expect(after.body.map((profile: { id: string; isDefault: boolean }) => [profile.id, profile.isDefault])).toEqual([
			[first.id, true],
			[third.id, false],
		])
	})

	test('members read the settings; owners and admins change them', async () => {
		const team = await teamWithEveryRole(t)
		const profile = await createProfile(team.owner.token)
		const read = await t.request('GET', `${settings}/${profile.id}`, { token: team.member.token })
		expect(read.status).toBe(200)
		expect((await t.request('GET', settings, { token: team.member.token })).body).toHaveLength(1)
		expectRefusedByRole(
			await t.request('POST', settings, { token: team.member.token, json: { legalName: 'X', address } }),
		)
		expectRefusedByRole(
			await t.request('PATCH', `${settings}/${profile.id}`, { token: team.member.token, json: { notes: 'x' } }),
		)
		expectRefusedByRole(await t.request('DELETE', `${settings}/${profile.id}`, { token: team.member.token }))
		const changed = await t.request('PATCH', `${settings}/${profile.id}`, {
			token: team.admin.token,
			json: { notes: 'Changed by an admin' },
		})
		expect(changed.status).toBe(200)
		expect(changed.body.notes).toBe('Changed by an admin')
	})

	test("another organization's profile is a 404, and its tax rates are 400s naming the field", async () => {
		const owner = await t.signUp()
		const stranger = await t.signUp()
		const mine = await createProfile(owner.token, { taxRates: [vat19] })
		const other = await createProfile(owner.token, { name: 'Other', taxRates: [vat7] })
		const theirs = await createProfile(stranger.token, { taxRates: [vat19] })
		for (const [method, json] of [['GET'], ['PATCH', { notes: 'x' }], ['DELETE']] as const) {
			const response = await t.request(method, `${settings}/${theirs.id}`, { token: owner.token, json })
			expect(response.status, method).toBe(404)
		}
		expect((await t.request('GET', settings, { token: owner.token })).body).toHaveLength(2)
		// A rate listed by id must be the profile's own: not another profile's, not another organization's.
		for (const foreign of [other.taxRates[0], theirs.taxRates[0]]) {
			const response = await t.request('PATCH', `${settings}/${mine.id}`, {
				token: owner.token,
				json: { taxRates: [mine.taxRates[0], { ...vat7, id: foreign.id }] },
			})
			expect(response.status).toBe(400)
			expect(fieldsOf(response)).toEqual(['taxRates.1.id'])
		}
		// What an invoice line refers to is checked the same way, naming the line's field.
		const orgId = await orgIdOf(owner.token)
		const resolved = await resolveTaxRates(t.db, orgId, mine.id, [
			{ field: 'lines.0.taxRateId', id: mine.taxRates[0].id },
		])
		expect(resolved.get(mine.taxRates[0].id)).toMatchObject({ rate: '19', categoryCode: 'S' })
		const refs = [
			{ field: 'lines.0.taxRateId', id: mine.taxRates[0].id },
			{ field: 'lines.1.taxRateId', id: other.taxRates[0].id },
			{ field: 'lines.2.taxRateId', id: theirs.taxRates[0].id },
			{ field: 'lines.3.taxRateId', id: 'no-such-rate' },
		]
		await expect(resolveTaxRates(t.db, orgId, mine.id, refs)).rejects.toMatchObject({
			code: 'VALIDATION_FAILED',
			errors: [
				{ field: 'lines.1.taxRateId', message: expect.any(String) },
				{ field: 'lines.2.taxRateId', message: expect.any(String) },
				{ field: 'lines.3.taxRateId', message: expect.any(String) },
			],
		})
		const untouched = await t.request('GET', `${settings}/${theirs.id}`, { token: stranger.token })
		expect(untouched.body).toEqual(theirs)
	})

	test('tax rates: changed by id, added without, retired when left out (and no longer usable)', async () => {
		const owner = await t.signUp()
		const orgId = await orgIdOf(owner.token)
		const profile = await createProfile(owner.token, { taxRates: [vat19, vat7] })
		const [standard, reduced] = profile.taxRates
		const changed = await t.request('PATCH', `${settings}/${profile.id}`, {
			token: owner.token,
			json: {
				taxRates: [
					{ ...vat7, id: reduced.id, name: 'Reduced', isDefault: true },
					{ name: 'Zero', categoryCode: 'Z', rate: '0' },
				],
			},
		})
		expect(changed.status, JSON.stringify(changed.body)).toBe(200)
		expect(changed.body.taxRates).toMatchObject([
			{ id: reduced.id, name: 'Reduced', rate: '7', isDefault: true },
			{ id: expect.any(String), name: 'Zero', categoryCode: 'Z', rate: '0', isDefault: false },
		])
		await expect(
			resolveTaxRates(t.db, orgId, profile.id, [{ field: 'lines.0.taxRateId', id: standard.id }]),
		).rejects.toMatchObject({ errors: [{ field: 'lines.0.taxRateId' }] })
		// A retired rate listed again by its id is back.
		const back = await t.request('PATCH', `${settings}/${profile.id}`, {
			token: owner.token,
			json: { taxRates: [{ ...vat19, id: standard.id }] },
		})
		expect(back.body.taxRates).toMatchObject([{ id: standard.id, rate: '19' }])
	})

	test('the routes are in the OpenAPI document', async () => {
		const document = await t.request('GET', '/api/openapi.json')
		expect(document.status).toBe(200)
		expect(Object.keys(document.body.paths)).toEqual(
			expect.arrayContaining(['/dashboard/local_invoice/settings', '/dashboard/notion_invoice/settings/{id}']),
		)
	})

	test('bad input is a 400 naming the field', async () => {
		const owner = await t.signUp()
		const stranger = await t.signUp()
		const profile = await createProfile(owner.token)
		const svg = await uploadImage(owner.token, 'logo.svg', 'image/svg+xml')
		const theirLogo = await uploadImage(stranger.token, 'logo.png', 'image/png')
		const numbering = (invoice: string, creditNote = 'CN-{YYYY}-{counter:4}', reset = 'yearly') => ({
			numbering: { invoice: { pattern: invoice, reset }, creditNote: { pattern: creditNote, reset } },
		})
		const cases: [Record<string, unknown>, string][] = [
			[numbering('INV-{YYYY}'), 'numbering.invoice.pattern'],
			[numbering('INV-{YEAR}-{counter}'), 'numbering.invoice.pattern'],
			[numbering('INV-{counter}'), 'numbering.invoice.pattern'],
			[numbering('INV-{YYYY}-{counter}', 'CN-{YYYY}-{counter}', 'monthly'), 'numbering.invoice.pattern'],
			[numbering('INV-{YYYY}-{counter}', 'INV-{YYYY}-{counter:5}'), 'numbering.creditNote.pattern'],
			[{ numbering: { invoice: { pattern: 'INV-{YYYY}-{counter}', reset: 'weekly' } } }, 'numbering.invoice.reset'],
			[{ address: { ...address, country: 'XX' } }, 'address.country'],
			[{ address: { ...address, country: 'DEU' } }, 'address.country'],
			[{ currency: 'XYZ' }, 'currency'],
			[{ currency: 'EURO' }, 'currency'],
			[{ locale: 'not a locale' }, 'locale'],
			[{ taxRates: [{ ...vat19, rate: '101' }] }, 'taxRates.0.rate'],
			[{ taxRates: [{ ...vat19, rate: '-1' }] }, 'taxRates.0.rate'],
			[{ taxRates: [{ ...vat19, rate: '19,5' }] }, 'taxRates.0.rate'],
			[{ taxRates: [{ ...vat19, rate: '0' }] }, 'taxRates.0.rate'],
			[{ taxRates: [vat19, { ...vat7, categoryCode: 'Z' }] }, 'taxRates.1.rate'],
			[{ taxRates: [{ ...vat19, categoryCode: 'X' }] }, 'taxRates.0.categoryCode'],
			[{ taxRates: [{ name: 'Exempt', categoryCode: 'E', rate: '0' }] }, 'taxRates.0.exemptionReason'],
			[{ taxRates: [vat19, { ...vat7, isDefault: true }] }, 'taxRates'],
			[{ bank: { kind: 'iban', iban: 'DE89 3704 0044 0532 0130 01' } }, 'bank.iban'],
			[{ bank: { kind: 'iban', iban: 'DE89370400440532013000', bic: 'COBA' } }, 'bank.bic'],
			[{ bank: { kind: 'cheque' } }, 'bank.kind'],
			[{ taxIds: { vatId: '123', other: [] } }, 'taxIds.vatId'],
			[{ email: 'not-an-address' }, 'email'],
			[{ emailMessage: { subject: 'Invoice {invoice_no}', body: '' } }, 'emailMessage.subject'],
			[{ emailMessage: { subject: 'Invoice', body: 'Pay {total}' } }, 'emailMessage.body'],
			[{ paymentTermsDays: -1 }, 'paymentTermsDays'],
			[{ paymentTermsDays: 1.5 }, 'paymentTermsDays'],
			[
				{ template: { design: 'classic', accentColor: 'red', textColor: '#000000', font: 'sans' } },
				'template.accentColor',
			],
			[{ logoBlobId: svg }, 'logoBlobId'],
			[{ logoBlobId: theirLogo }, 'logoBlobId'],
			[{ logoBlobId: 'no-such-upload' }, 'logoBlobId'],
			[{ legalName: '' }, 'legalName'],
		]
		for (const [change, field] of cases) {
			const patched = await t.request('PATCH', `${settings}/${profile.id}`, { token: owner.token, json: change })
			expect(patched.status, JSON.stringify(change)).toBe(400)
			expect(patched.body.code).toBe('VALIDATION_FAILED')
			expect(fieldsOf(patched), JSON.stringify(change)).toContain(field)
			const created = await t.request('POST', settings, {
				token: owner.token,
				json: { legalName: 'Acme GmbH', address, ...change },
			})
			expect(created.status, JSON.stringify(change)).toBe(400)
			expect(fieldsOf(created), JSON.stringify(change)).toContain(field)
		}
		const missing = await t.request('POST', settings, { token: owner.token, json: { address } })
		expect(fieldsOf(missing)).toEqual(['legalName'])
		const unchanged = await t.request('GET', `${settings}/${profile.id}`, { token: owner.token })
		expect(unchanged.body).toEqual(profile)
		expect((await t.request('GET', settings, { token: owner.token })).body).toHaveLength(1)
	})
})
