import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fieldOf, publishedEnquiryForm } from '#src/test/forms.ts'
import { insertSamplePortal, memberWithSession, propertyId, rowIdByTitle } from '#src/test/portals.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { portalMembers, portals } from './portals.schema.ts'

// The team's forms inside a portal (issue 18 item 5): a member opens a form from the portal and
// the answer's row is linked to their company by the server, whatever the page sent; an identity
// that is forged, ended, for another form or of a removed member is refused.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
})

afterAll(async () => {
	await t.close()
})

async function setUp() {
	const owner = await t.signUp()
	const { form, databases } = await publishedEnquiryForm(t, owner.token)
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
	const enquiries = databases.Enquiries as {
		id: string
		name: string
		properties: { id: string; name: string; type: string }[]
	}
	const clientProperty = propertyId(enquiries, 'Client')
	const portal = await insertSamplePortal(t, details.body.id, databases)
	await t.db
		.update(portals)
		.set({ forms: [{ formId: form.id, linkProperty: clientProperty }] })
		.where(eq(portals.id, portal.id))
	const clients = databases.Clients as { id: string }
	const acme = await rowIdByTitle(t, clients.id, 'Acme Ltd')
	const globex = await rowIdByTitle(t, clients.id, 'Globex Corporation')
	const member = await memberWithSession(t, portal, { email: 'Ada@Acme.example', companyRowId: acme })
	return { owner, form, portal, member, acme, globex, enquiries, clientProperty }
}

async function open(slug: string, formId: string, token: string) {
	return t.request('POST', `/api/portal/${slug}/forms/${formId}/open`, { token })
}

async function send(formId: string, answers: Record<string, unknown>, portalToken?: string) {
	const page = await t.request('GET', `/api/forms/${formId}`)
	return t.request('POST', '/api/submissions', {
		ip: '198.51.100.9',
		json: {
			formId,
			answers,
			idempotencyKey: randomUUID(),
			renderToken: page.body.renderToken,
			...(portalToken === undefined ? {} : { portalToken }),
		},
	})
}

function tokenOf(url: string): string {
	return new URL(url).searchParams.get('portal') ?? ''
}

describe('forms in a portal', () => {
	test('the answer’s row is linked to the member’s company, whatever the page sent', async () => {
		const { owner, form, portal, member, acme, globex, enquiries, clientProperty } = await setUp()
		const me = await t.request('GET', `/api/portal/${portal.slug}/me`, { token: member.token })
		expect(me.body.forms).toEqual([{ id: form.id, title: 'Contact' }])
		const opened = await open(portal.slug, form.id, member.token)
		expect(opened.status).toBe(200)
		expect(opened.body.url).toMatch(new RegExp(`/forms/${form.id}\\?portal=`))
		// What the page reads without a key: the e-mail to prefill and the field to leave out.
		const payload = JSON.parse(Buffer.from(tokenOf(opened.body.url).split('.')[0] ?? '', 'base64url').toString())
		expect(payload).toMatchObject({ e: 'ada@acme.example', l: clientProperty, f: form.id })

		const client = fieldOf(form, 'Client')
		const name = fieldOf(form, 'Name')
		const sent = await send(form.id, { [name.id]: 'Portal request', [client.id]: [globex] }, tokenOf(opened.body.url))
		expect(sent.status).toBe(201)
		const rows = await until(
			'the answer’s row',
			() =>
				t.request('GET', `/dashboard/local/databases/${enquiries.id}/rows?search=Portal%20request`, {
					token: owner.token,
				}),
			(response) => response.body.rows?.length === 1,
		)
		expect(rows.body.rows[0].values[clientProperty]).toEqual([acme])
	})

	test('the member’s link stands even when the question’s choices leave their company out', async () => {
		const { owner, form, portal, member, acme, globex, enquiries, clientProperty } = await setUp()
		const client = fieldOf(form, 'Client')
		// Visitors may pick Globex only; the member's company (Acme) is set by the server, not picked.
		const fields = form.fields.map((field) =>
			field.id === client.id ? { ...field, choiceScope: { mode: 'subset', ids: [globex] } } : field,
		)
		const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, { token: owner.token, json: { fields } })
		expect(saved.status).toBe(200)
		const name = fieldOf(form, 'Name')
		// Without the portal, Acme is a choice the form does not offer.
		const outside = await send(form.id, { [name.id]: 'Scoped outside', [client.id]: [acme] })
		expect(outside.status).toBe(400)
		expect(outside.body.errors).toEqual([expect.objectContaining({ field: `answers.${client.id}` })])
		const opened = await open(portal.slug, form.id, member.token)
		const sent = await send(form.id, { [name.id]: 'Scoped request' }, tokenOf(opened.body.url))
		expect(sent.status).toBe(201)
		const rows = await until(
			'the answer’s row',
			() =>
				t.request('GET', `/dashboard/local/databases/${enquiries.id}/rows?search=Scoped%20request`, {
					token: owner.token,
				}),
			(response) => response.body.rows?.length === 1,
		)
		expect(rows.body.rows[0].values[clientProperty]).toEqual([acme])
	})

	test('a form without a field for the link still gets it', async () => {
		const { owner, form, portal, member, acme, enquiries, clientProperty } = await setUp()
		const client = fieldOf(form, 'Client')
		const withoutClient = form.fields.filter((field) => field.id !== client.id)
		const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: owner.token,
			json: { fields: withoutClient },
		})
		expect(saved.status).toBe(200)
		const opened = await open(portal.slug, form.id, member.token)
		const name = fieldOf(form, 'Name')
		expect((await send(form.id, { [name.id]: 'No field request' }, tokenOf(opened.body.url))).status).toBe(201)
		const rows = await until(
			'the answer’s row',
			() =>
				t.request('GET', `/dashboard/local/databases/${enquiries.id}/rows?search=No%20field`, { token: owner.token }),
			(response) => response.body.rows?.length === 1,
		)
		expect(rows.body.rows[0].values[clientProperty]).toEqual([acme])
	})

	test('a forged, other form’s or removed member’s identity is refused on portalToken', async () => {
		const { form, portal, member } = await setUp()
		const opened = await open(portal.slug, form.id, member.token)
		const token = tokenOf(opened.body.url)
		const name = fieldOf(form, 'Name').id
		const [body, signature] = token.split('.') as [string, string]
		const payload = JSON.parse(Buffer.from(body, 'base64url').toString())
		const forged = `${Buffer.from(JSON.stringify({ ...payload, m: 'someone-else' })).toString('base64url')}.${signature}`
		for (const bad of [forged, `${token}x`, 'not-a-token']) {
			const refused = await send(form.id, { [name]: 'Nope' }, bad)
			expect(refused.status).toBe(400)
			expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'portalToken' })])
		}
		// Another form of the same organization does not take this form's identity.
		const other = await publishedEnquiryForm(t, (await t.signUp()).token)
		expect((await send(other.form.id, { [fieldOf(other.form, 'Name').id]: 'Nope' }, token)).status).toBe(400)

		await t.db.delete(portalMembers).where(eq(portalMembers.id, member.id))
		const afterRemoval = await send(form.id, { [name]: 'Nope' }, token)
		expect(afterRemoval.status).toBe(400)
		expect(afterRemoval.body.errors[0].field).toBe('portalToken')
	})

	test('only the portal’s published forms open, only for its members', async () => {
		const { owner, form, portal, member } = await setUp()
		expect((await open(portal.slug, randomUUID(), member.token)).status).toBe(404)
		expect((await open(portal.slug, form.id, owner.token)).status).toBe(401)
		expect((await open(portal.slug, form.id, 'x'.repeat(43))).status).toBe(401)
		const unpublished = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: owner.token,
			json: { published: false },
		})
		expect(unpublished.status).toBe(200)
		expect((await open(portal.slug, form.id, member.token)).status).toBe(404)
		// An unpublished form is not offered either.
		expect((await t.request('GET', `/api/portal/${portal.slug}/me`, { token: member.token })).body.forms).toEqual([])
	})
})
