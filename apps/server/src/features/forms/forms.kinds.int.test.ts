import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import {
	announceFile,
	pngOf,
	propertyIdOf,
	publishedFormWith,
	rowsOf,
	submitAnswers,
	surveyDatabase,
	uploadFile,
	waitFor,
} from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { signatureFileRules, signatureMaxPixels } from './forms.files.ts'

// The newer question kinds end to end on the real database (issue 19): each answer checked by the
// server, written into a built-in database's row in the property's shape, or kept with the answer
// alone when its question has no property; calculations worked out by the server; every wrong
// answer a 400 naming its field; every wrong question a 400 naming its item on save.

let t: TestApp
/** A webhook receiver on this machine: the bodies it got. */
let receiver: Server
let receiverUrl = ''
const received: string[] = []

beforeAll(async () => {
	receiver = createServer((request, response) => {
		let body = ''
		request.on('data', (chunk) => {
			body += chunk
		})
		request.on('end', () => {
			received.push(body)
			response.writeHead(200).end('ok')
		})
	})
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0', WEBHOOK_ALLOW_PRIVATE: 'true' })
})
afterAll(async () => {
	await t.close()
	await new Promise((resolve) => receiver.close(resolve))
})

const png = { name: 'signature.png', type: 'image/png', bytes: pngOf(40, 20) }
const pdf = { name: 'brief.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.7 brief') }

/** A published survey with one question of each newer kind, and three without a property. */
async function surveyForm(extra: Record<string, unknown> = {}) {
	const account = await t.signUp()
	const database = await surveyDatabase(t, account.token)
	const on = (name: string) => propertyIdOf(database, name)
	const form = await publishedFormWith(
		t,
		account.token,
		database.id,
		[
			{ id: 'name', propertyId: on('Name'), kind: 'short_text', label: 'Name', required: true },
			{ id: 'intro', kind: 'heading', label: 'About us' },
			{ id: 'stars', propertyId: on('Stars'), kind: 'rating', label: 'Stars', scale: { min: 1, max: 5 } },
			{ id: 'effort', propertyId: on('Effort'), kind: 'scale', label: 'Effort', scale: { min: 0, max: 10 } },
			{ id: 'recommend', propertyId: on('Recommend'), kind: 'nps', label: 'Recommend' },
			{
				id: 'total',
				propertyId: on('Total'),
				kind: 'calculated',
				label: 'Score',
				calculation: {
					start: '1',
					steps: [
						{ operation: 'add', operand: { fieldId: 'stars' } },
						{ operation: 'add', operand: { fieldId: 'recommend' } },
					],
					suffix: ' pts',
				},
			},
			{ id: 'priorities', propertyId: on('Priorities'), kind: 'ranking', label: 'Priorities' },
			{ id: 'order', propertyId: on('Order'), kind: 'ranking', label: 'Order', choices: ['Alpha', 'Beta', 'Gamma'] },
			{
				id: 'grid',
				propertyId: on('Grid'),
				kind: 'matrix',
				label: 'Grid',
				matrix: { rows: ['Quality', 'Price'], columns: ['Good', 'Bad'] },
			},
			{ id: 'signature', propertyId: on('Signature'), kind: 'signature', label: 'Signature' },
			{ id: 'referral', kind: 'short_text', label: 'Referral', maxLength: 20 },
			{ id: 'colour', kind: 'select', label: 'Colour', choices: ['Red', 'Blue'] },
			{ id: 'extra', kind: 'files', label: 'Extra' },
			{ id: 'contact', kind: 'email', label: 'Contact' },
		],
		extra,
	)
	return { ...account, database, form }
}

const good = {
	name: 'Grace',
	stars: 4,
	effort: 0,
	recommend: 9,
	priorities: ['Support', 'Speed', 'Price'],
	order: ['Beta', 'Alpha', 'Gamma'],
	grid: { Quality: 'Good', Price: 'Bad' },
	referral: 'A friend',
	colour: 'Blue',
}

describe('newer question kinds', () => {
	test('each kind lands in the row in its property’s shape; the calculation is the server’s; unbound answers stay with the submission', async () => {
		const { token, email, userId, database, form } = await surveyForm()
		await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token,
			json: { notifications: { memberIds: [userId] } },
		})
		const signature = await uploadFile(t, form.id, 'signature', png)
		const extra = await uploadFile(t, form.id, 'extra', pdf)
		// The browser's total is wrong on purpose: the server works it out again.
		const sent = await submitAnswers(t, form, { ...good, total: 999, signature: [signature], extra: [extra] })
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)

		const rows = await waitFor(
			() => rowsOf(t, token, database.id),
			(list) => list.some((row) => row.title === 'Grace'),
		)
		const row = rows.find((candidate) => candidate.title === 'Grace')
		const value = (name: string) => row?.values[propertyIdOf(database, name)]
		expect(value('Stars')).toBe(4)
		expect(value('Effort')).toBe(0)
		expect(value('Recommend')).toBe(9)
		expect(value('Total')).toBe(14)
		expect(value('Priorities')).toEqual(['Support', 'Speed', 'Price'])
		expect(value('Order')).toBe('1. Beta\n2. Alpha\n3. Gamma')
		expect(value('Grid')).toBe('Quality: Good\nPrice: Bad')
		expect(value('Signature')).toEqual([{ name: 'signature.png', url: null, blobId: signature.blobId }])
		// The questions without a property wrote nothing into the row.
		for (const unbound of ['A friend', 'Blue', 'brief.pdf']) {
			expect(JSON.stringify(row?.values)).not.toContain(unbound)
		}

		const list = await t.request('GET', `/dashboard/forms/${form.id}/submissions`, { token })
		const answers = list.body.submissions[0].answers
		expect(answers).toMatchObject({
			total: 14,
			referral: 'A friend',
			colour: 'Blue',
			grid: { Quality: 'Good', Price: 'Bad' },
			extra: [{ name: 'brief.pdf', url: null, blobId: extra.blobId }],
		})
		expect(answers).not.toHaveProperty('intro')
		// The unbound question's file is the submission's, like a bound one's: claimed, kept, downloadable.
		const claimed = await t.db
			.select({ id: blobs.id, claimedBy: blobs.claimedBy })
			.from(blobs)
			.where(inArray(blobs.id, [signature.blobId, extra.blobId]))
		expect(claimed.map((blob) => blob.claimedBy)).toEqual([
			`form-submission:${sent.body.id}`,
			`form-submission:${sent.body.id}`,
		])
		expect((await t.request('GET', `/dashboard/active_storage/blobs/${extra.blobId}`, { token })).status).toBe(200)

		// The CSV reads each answer as people would write it, with no column for content.
		const csv = await t.request('GET', `/dashboard/forms/${form.id}/submissions/export.csv`, { token })
		const [header, line] = String(csv.body)
			.replace(/^\uFEFF/, '')
			.trim()
			.split(/\r?\n/)
		expect(header).toContain('Referral')
		expect(header).not.toContain('About us')
		for (const text of ['4/5', '14 pts', '1. Beta, 2. Alpha, 3. Gamma', 'Quality: Good; Price: Bad', 'A friend']) {
			expect(line).toContain(text)
		}

		// The members' mail reads every question the same way, bound or not, and no content.
		const mail = await t.waitForMail(email, /New answer/)
		expect(mail.text).toContain('Stars: 4/5')
		expect(mail.text).toContain('Recommend: 9')
		expect(mail.text).toContain('Score: 14 pts')
		expect(mail.text).toContain('Order: 1. Beta, 2. Alpha, 3. Gamma')
		expect(mail.text).toContain('Grid: Quality: Good; Price: Bad')
		expect(mail.text).toContain('Signature: signature.png')
		expect(mail.text).toContain('Referral: A friend')
		expect(mail.text).not.toContain('About us')
	})

	test('a webhook carries every answer, those without a property too, each with its text; content is left out', async () => {
		const { token, form } = await surveyForm()
		const hook = await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, { token, json: { url: receiverUrl } })
		expect(hook.status).toBe(201)
		const signature = await uploadFile(t, form.id, 'signature', png)
		const sent = await submitAnswers(t, form, { ...good, signature: [signature] })
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)
		const body = await waitFor(
			async () => received.find((payload) => payload.includes(sent.body.id)),
			(payload) => payload !== undefined,
		)
		const payload = JSON.parse(body ?? '{}')
		expect(payload.submission.answers).toMatchObject({ referral: 'A friend', colour: 'Blue', total: 14, stars: 4 })
		expect(payload.submission.answers.signature[0].url).toMatch(/^https?:\/\//)
		const fields = Object.fromEntries(
			payload.submission.fields.map((field: { id: string; text: string }) => [field.id, field]),
		)
		expect(fields).not.toHaveProperty('intro')
		expect(fields.referral).toMatchObject({ label: 'Referral', kind: 'short_text', propertyId: null, text: 'A friend' })
		expect(fields.stars.text).toBe('4/5')
		expect(fields.total.text).toBe('14 pts')
		expect(fields.grid.text).toBe('Quality: Good; Price: Bad')
	})

	test('every wrong answer is a 400 naming its field', async () => {
		const { form } = await surveyForm()
		const cases: [Record<string, unknown>, string, RegExp][] = [
			[{ stars: 6 }, 'stars', /from 1 to 5/],
			[{ stars: 3.5 }, 'stars', /whole number/],
			[{ effort: -1 }, 'effort', /from 0 to 10/],
			[{ recommend: 11 }, 'recommend', /from 0 to 10/],
			[{ recommend: 'nine' }, 'recommend', /whole number/],
			[{ priorities: ['Speed', 'Price'] }, 'priorities', /every choice/],
			[{ priorities: ['Speed', 'Price', 'Price'] }, 'priorities', /twice/],
			[{ order: ['Alpha', 'Beta', 'Delta'] }, 'order', /no choice "Delta"/],
			[{ grid: { Quality: 'Good', Taste: 'Bad' } }, 'grid', /no row "Taste"/],
			[{ grid: { Quality: 'Great' } }, 'grid', /no column "Great"/],
			[{ grid: { Quality: ['Good'] } }, 'grid', /one column/],
			[{ grid: 'Good' }, 'grid', /per row/],
			[{ signature: 'scribble' }, 'signature', /uploaded files/],
			[{ signature: [{ blobId: 'not-uploaded' }] }, 'signature', /not uploaded/],
			[{ colour: 'Green' }, 'colour', /no choice "Green"/],
			[{ contact: 'not-an-address' }, 'contact', /e-mail address/],
			[{ referral: 'x'.repeat(21) }, 'referral', /at most 20 characters/],
			[{ intro: 'hello' }, 'intro', /not a question/],
			[{ nothing: 'x' }, 'nothing', /no such field/],
		]
		for (const [answers, fieldId, message] of cases) {
			const sent = await submitAnswers(t, form, { name: 'Bad', ...answers })
			expect(sent.status, JSON.stringify(answers)).toBe(400)
			expect(sent.body.errors, JSON.stringify(answers)).toEqual([
				{ field: `answers.${fieldId}`, message: expect.stringMatching(message) },
			])
		}
		// Two signatures are one too many, even uploaded to the field.
		const first = await uploadFile(t, form.id, 'signature', png)
		const second = await uploadFile(t, form.id, 'signature', { ...png, bytes: pngOf(30, 10) })
		const two = await submitAnswers(t, form, { name: 'Two', signature: [first, second] })
		expect(two.status).toBe(400)
		expect(two.body.errors).toEqual([{ field: 'answers.signature', message: '"Signature" takes one signature.' }])
	})

	test('a required matrix needs every row; a required ranking needs its order', async () => {
		const account = await t.signUp()
		const database = await surveyDatabase(t, account.token)
		const form = await publishedFormWith(t, account.token, database.id, [
			{ id: 'name', propertyId: propertyIdOf(database, 'Name'), kind: 'short_text', label: 'Name' },
			{
				id: 'grid',
				kind: 'matrix',
				label: 'Grid',
				required: true,
				matrix: { rows: ['Quality', 'Price'], columns: ['Good', 'Fair', 'Bad'], multiple: true },
			},
			{ id: 'order', kind: 'ranking', label: 'Order', required: true, choices: ['A', 'B'] },
		])
		const missingRow = await submitAnswers(t, form, { grid: { Quality: ['Good'] }, order: ['A', 'B'] })
		expect(missingRow.status).toBe(400)
		expect(missingRow.body.errors).toEqual([{ field: 'answers.grid', message: '"Grid": answer "Price".' }])
		const empty = await submitAnswers(t, form, { grid: { Quality: [], Price: [] } })
		expect(empty.status).toBe(400)
		expect(empty.body.errors.map((error: { field: string }) => error.field)).toEqual(['answers.grid', 'answers.order'])
		// Several columns a row, kept in the question's order.
		const sent = await submitAnswers(t, form, {
			grid: { Quality: ['Bad', 'Good'], Price: ['Fair'] },
			order: ['B', 'A'],
		})
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)
		const list = await t.request('GET', `/dashboard/forms/${form.id}/submissions`, { token: account.token })
		expect(list.body.submissions[0].answers).toEqual({
			grid: { Quality: ['Good', 'Bad'], Price: ['Fair'] },
			order: ['B', 'A'],
		})
	})

	test('a signature takes one PNG of up to 1 MB', async () => {
		const { form } = await surveyForm()
		expect(signatureFileRules.maxFileBytes).toBe(1024 * 1024)
		const jpeg = await announceFile(t, form.id, 'signature', {
			name: 'signature.jpg',
			type: 'image/jpeg',
			bytes: png.bytes,
		})
		expect(jpeg.status).toBe(415)
		const large = await announceFile(t, form.id, 'signature', png, { byteSize: 1024 * 1024 + 1 })
		expect(large.status).toBe(413)
		expect((await announceFile(t, form.id, 'signature', png, { byteSize: 1024 * 1024 })).status).toBe(201)
		// Not a file question at all.
		expect((await announceFile(t, form.id, 'stars', png)).status).toBe(400)
	})

	test('a signature is taken by its bytes, not its declared type: a real PNG passes, a page or an SVG sent as image/png does not', async () => {
		const { token, database, form } = await surveyForm()
		const encode = (text: string) => new TextEncoder().encode(text)
		const impostors = {
			html: encode('<!doctype html><script>alert(document.cookie)</script>'.padEnd(64, ' ')),
			svg: encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'.padEnd(64, ' ')),
			// The PNG signature with something else after it.
			header: new Uint8Array([...pngOf(4, 4).subarray(0, 8), ...encode('<html>'.padEnd(40, ' '))]),
			huge: pngOf(signatureMaxPixels + 1, 1),
			empty: pngOf(0, 0),
			short: pngOf(4, 4).subarray(0, 20),
		}
		for (const [label, bytes] of Object.entries(impostors)) {
			const signature = await uploadFile(t, form.id, 'signature', { ...png, bytes })
			const sent = await submitAnswers(t, form, { ...good, name: `Impostor ${label}`, signature: [signature] })
			expect(sent.status, label).toBe(400)
			expect(sent.body.errors, label).toEqual([
				{ field: 'answers.signature', message: expect.stringMatching(/must be a PNG picture/) },
			])
			const [blob] = await t.db.select().from(blobs).where(eq(blobs.id, signature.blobId))
			expect(blob?.claimedBy, label).toBeNull()
		}
		const list = await t.request('GET', `/dashboard/forms/${form.id}/submissions`, { token })
		expect(list.body.submissions).toEqual([])

		const real = await uploadFile(t, form.id, 'signature', { ...png, bytes: pngOf(signatureMaxPixels, 2) })
		const sent = await submitAnswers(t, form, { ...good, name: 'Real', signature: [real] })
		expect(sent.status, JSON.stringify(sent.body)).toBe(201)
		const rows = await waitFor(
			() => rowsOf(t, token, database.id),
			(found) => found.some((row) => row.title === 'Real'),
		)
		// Only the real one reached the database.
		expect(rows.filter((row) => String(row.title).startsWith('Impostor'))).toEqual([])
		expect(rows.find((row) => row.title === 'Real')?.values[propertyIdOf(database, 'Signature')]).toEqual([
			{ name: 'signature.png', url: null, blobId: real.blobId },
		])
	})
})

describe('questions on save', () => {
	test('every wrong question is a 400 naming its item and setting', async () => {
		const account = await t.signUp()
		const database = await surveyDatabase(t, account.token)
		const on = (name: string) => propertyIdOf(database, name)
		const form = await publishedFormWith(t, account.token, database.id, [
			{ id: 'name', propertyId: on('Name'), kind: 'short_text', label: 'Name' },
		])
		const name = form.fields[0]
		const cases: [Record<string, unknown>, string][] = [
			[{ propertyId: on('Stars'), kind: 'rating', scale: { min: 0, max: 5 } }, 'scale'],
			[{ propertyId: on('Stars'), kind: 'rating', scale: { min: 1, max: 2 } }, 'scale'],
			[{ propertyId: on('Stars'), kind: 'rating', defaultValue: 7 }, 'defaultValue'],
			[{ propertyId: on('Order'), kind: 'rating' }, 'kind'],
			[{ propertyId: on('Name'), kind: 'short_text' }, 'propertyId'],
			[{ propertyId: 'no-such-property', kind: 'short_text' }, 'propertyId'],
			[{ kind: 'people' }, 'propertyId'],
			[{ kind: 'ranking' }, 'choices'],
			[{ kind: 'select', choices: ['Red', 'red'] }, 'choices'],
			[{ kind: 'select', choices: ['Red', 'Blue'], defaultValue: 'Green' }, 'defaultValue'],
			[{ kind: 'matrix' }, 'matrix'],
			[{ kind: 'email', defaultValue: 'not-an-address' }, 'defaultValue'],
			[{ kind: 'calculated' }, 'calculation'],
			[{ kind: 'signature', defaultValue: [] }, 'defaultValue'],
			[{ kind: 'heading', propertyId: on('Order') }, 'propertyId'],
			[{ kind: 'paragraph' }, 'body'],
			[{ kind: 'image' }, 'image'],
		]
		for (const [item, key] of cases) {
			const saved = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
				token: account.token,
				json: { fields: [name, { id: 'item', label: 'Item', ...item }] },
			})
			expect(saved.status, JSON.stringify(item)).toBe(400)
			expect(saved.body.errors, JSON.stringify(item)).toContainEqual({
				field: `fields.1.${key}`,
				message: expect.any(String),
			})
		}
		// A calculation reads earlier numeric questions only.
		const later = await t.request('PATCH', `/dashboard/forms/${form.id}`, {
			token: account.token,
			json: {
				fields: [
					name,
					{
						id: 'total',
						label: 'Total',
						kind: 'calculated',
						calculation: { steps: [{ operation: 'add', operand: { fieldId: 'name' } }] },
					},
				],
			},
		})
		expect(later.status).toBe(400)
		expect(later.body.errors[0].field).toBe('fields.1.calculation.steps.0.operand.fieldId')
	})
})
