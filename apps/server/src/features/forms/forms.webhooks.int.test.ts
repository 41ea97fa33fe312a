import { createHmac, randomUUID } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fieldOf, localPath, publishedEnquiryForm, submitAnswers, uploadFile } from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// Webhooks end to end: a receiver on loopback (allowed by WEBHOOK_ALLOW_PRIVATE, as an operator
// would for a receiver on their own network) gets each submission signed, retried until it
// answers 2xx.

let t: TestApp
let receiver: Server
let receiverUrl = ''
type Delivery = { id: string; state: string; attempts: { status: number | null; error: string | null }[] }
type Received = { headers: IncomingHttpHeaders; body: string }
const received: Received[] = []
/** The statuses the receiver answers with, in turn; 200 once they run out. */
let script: number[] = []

beforeAll(async () => {
	receiver = createServer((request, response) => {
		let body = ''
		request.on('data', (chunk) => {
			body += chunk
		})
		request.on('end', () => {
			received.push({ headers: request.headers, body })
			response.writeHead(script.shift() ?? 200, { 'content-type': 'text/plain' })
			response.end('ok')
		})
	})
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
	t = await createTestApp({
		FORM_MIN_FILL_SECONDS: '0',
		FORM_WEBHOOK_RETRY_DELAY_SECONDS: '0.2',
		WEBHOOK_ALLOW_PRIVATE: 'true',
	})
})
afterAll(async () => {
	await t?.close()
	await new Promise((resolve) => receiver.close(resolve))
})

/** Verifies a Standard Webhooks signature the way a receiver would, from the secret alone. */
function verifies(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
	const expected = createHmac('sha256', key)
		.update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
		.digest('base64')
	return String(headers['webhook-signature']).split(' ').includes(`v1,${expected}`)
}

async function until<T>(read: () => Promise<T>, isDone: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
	const deadline = Date.now() + timeoutMs
	let value = await read()
	while (!isDone(value) && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 100))
		value = await read()
	}
	return value
}

async function publishedForm(app: TestApp) {
	const account = await app.signUp()
	const sample = await app.request('POST', '/dashboard/workspaces/sample', { token: account.token })
	const databases = await app.request('GET', `/dashboard/local/databases?workspaceId=${sample.body.workspace.id}`, {
		token: account.token,
	})
	const enquiries = databases.body.find((d: { name: string }) => d.name === 'Enquiries')
	const form = await app.request('POST', '/dashboard/forms', {
		token: account.token,
		json: { name: 'Hooked', databaseId: enquiries.id },
	})
	await app.request('PATCH', `/dashboard/forms/${form.body.id}`, { token: account.token, json: { published: true } })
	return { token: account.token, form: form.body as { id: string; fields: { id: string; label: string }[] } }
}

async function submit(app: TestApp, form: { id: string; fields: { id: string }[] }, title: string) {
	const page = await app.request('GET', `/api/forms/${form.id}`)
	const response = await app.request('POST', '/api/submissions', {
		json: {
			formId: form.id,
			answers: { [form.fields[0]?.id ?? '']: title },
			idempotencyKey: randomUUID(),
			renderToken: page.body.renderToken,
		},
	})
	expect(response.status).toBe(201)
	return response.body.id as string
}

describe('form webhooks', () => {
	test('each submission arrives signed; the signature verifies with the secret and fails for a changed body', async () => {
		const { token, form } = await publishedForm(t)
		const created = await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, {
			token,
			json: { url: receiverUrl },
		})
		expect(created.status).toBe(201)
		expect(created.body.secret).toMatch(/^whsec_/)
		received.length = 0
		const submissionId = await submit(t, form, 'Signed answer')
		await until(
			async () => received.length,
			(n) => n >= 1,
		)
		const [delivery] = received
		expect(delivery).toBeDefined()
		const payload = JSON.parse(delivery?.body ?? '{}')
		expect(payload).toMatchObject({
			type: 'form.submission',
			form: { id: form.id, name: 'Hooked' },
			submission: { id: submissionId, answers: { [form.fields[0]?.id ?? '']: 'Signed answer' } },
		})
		expect(payload.submission.fields[0]).toMatchObject({ id: form.fields[0]?.id, label: 'Name' })
		expect(Math.abs(Number(delivery?.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60)
		expect(verifies(created.body.secret, delivery?.headers ?? {}, delivery?.body ?? '')).toBe(true)
		expect(
			verifies(created.body.secret, delivery?.headers ?? {}, (delivery?.body ?? '').replace('Signed', 'Forged')),
		).toBe(false)
	})

	test('a file answer arrives with a link that downloads it without signing in', async () => {
		const account = await t.signUp()
		const { form } = await publishedEnquiryForm(t, account.token)
		await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, {
			token: account.token,
			json: { url: receiverUrl },
		})
		const files = fieldOf(form, 'Attachments')
		const bytes = new TextEncoder().encode('quarterly figures')
		const file = await uploadFile(t, form.id, files.id, { name: 'q3.txt', type: 'text/plain', bytes })
		received.length = 0
		const sent = await submitAnswers(t, form, { [fieldOf(form, 'Name').id]: 'With a file', [files.id]: [file] })
		expect(sent.status).toBe(201)
		await until(
			async () => received.length,
			(n) => n >= 1,
		)
		const payload = JSON.parse(received[0]?.body ?? '{}')
		const [sentFile] = payload.submission.answers[files.id]
		expect(sentFile).toMatchObject({ name: 'q3.txt', blobId: file.blobId })
		const download = await t.request('GET', localPath(sentFile.url))
		expect(download.status).toBe(200)
		expect(download.body).toBe('quarterly figures')
	})

	test('a receiver that fails twice then succeeds gets the submission acknowledged once, after retries; each attempt is kept', async () => {
		const { token, form } = await publishedForm(t)
		const webhook = await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, {
			token,
			json: { url: receiverUrl },
		})
		received.length = 0
		script = [500, 503]
		await submit(t, form, 'Retried answer')
		const deliveries = await until(
			async () =>
				(await t.request('GET', `/dashboard/forms/${form.id}/webhooks/${webhook.body.id}/deliveries`, { token }))
					.body as { state: string; attempts: { status: number | null }[] }[],
			(list) => list[0]?.state === 'delivered',
		)
		expect(deliveries).toHaveLength(1)
		expect(deliveries[0]?.attempts.map((a) => a.status)).toEqual([500, 503, 200])
		expect(received).toHaveLength(3)
		// The same delivery id each time, so a receiver can tell a retry from a new submission.
		expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1)
	})

	test('a failed delivery can be sent again by hand; limits and tenancy hold', async () => {
		const { token, form } = await publishedForm(t)
		const webhook = await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, {
			token,
			json: { url: receiverUrl },
		})
		script = [500]
		await submit(t, form, 'Manual retry')
		const failed = await until(
			async () =>
				(await t.request('GET', `/dashboard/forms/${form.id}/webhooks/${webhook.body.id}/deliveries`, { token }))
					.body as Delivery[],
			(list) => list[0]?.state !== 'pending',
		)
		const deliveryId = failed[0]?.id
		const retried = await t.request(
			'POST',
			`/dashboard/forms/${form.id}/webhooks/${webhook.body.id}/deliveries/${deliveryId}/retry`,
			{ token },
		)
		expect([200, 409]).toContain(retried.status)
		await until(
			async () =>
				(await t.request('GET', `/dashboard/forms/${form.id}/webhooks/${webhook.body.id}/deliveries`, { token })).body,
			(list: { state: string }[]) => list[0]?.state === 'delivered',
		)
		const again = await t.request(
			'POST',
			`/dashboard/forms/${form.id}/webhooks/${webhook.body.id}/deliveries/${deliveryId}/retry`,
			{ token },
		)
		expect(again.status).toBe(409)

		expect(
			(await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, { token, json: { url: 'ftp://x' } })).status,
		).toBe(400)
		for (let index = 1; index < 10; index++) {
			expect(
				(
					await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, {
						token,
						json: { url: `${receiverUrl}?n=${index}` },
					})
				).status,
			).toBe(201)
		}
		expect(
			(await t.request('POST', `/dashboard/forms/${form.id}/webhooks`, { token, json: { url: receiverUrl } })).status,
		).toBe(409)

		const intruder = await t.signUp()
		for (const [method, path] of [
			['GET', `/dashboard/forms/${form.id}/webhooks`],
			['POST', `/dashboard/forms/${form.id}/webhooks`],
			['DELETE', `/dashboard/forms/${form.id}/webhooks/${webhook.body.id}`],
			['GET', `/dashboard/forms/${form.id}/webhooks/${webhook.body.id}/deliveries`],
		] as const) {
			const response = await t.request(method, path, {
				token: intruder.token,
				...(method === 'POST' ? { json: { url: 'https://example.com/steal' } } : {}),
			})
			expect(response.status, `${method} ${path}`).toBe(404)
		}
	})

	test('without the operator allowing it, a receiver on a loopback address is refused and never called', async () => {
		const strict = await createTestApp({ FORM_MIN_FILL_SECONDS: '0', FORM_WEBHOOK_RETRY_DELAY_SECONDS: '0.2' })
		try {
			const { token, form } = await publishedForm(strict)
			const webhook = await strict.request('POST', `/dashboard/forms/${form.id}/webhooks`, {
				token,
				json: { url: receiverUrl },
			})
			received.length = 0
			await submit(strict, form, 'Not for loopback')
			const deliveries = await until(
				async () =>
					(await strict.request('GET', `/dashboard/forms/${form.id}/webhooks/${webhook.body.id}/deliveries`, { token }))
						.body as Delivery[],
				(list) => (list[0]?.attempts.length ?? 0) > 0,
			)
			expect(deliveries[0]?.state).toBe('failed')
			expect(deliveries[0]?.attempts[0]?.error).toMatch(/private or loopback/)
			expect(received).toHaveLength(0)
		} finally {
			await strict.close()
		}
	})
})
