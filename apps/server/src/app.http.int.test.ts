import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFastServer } from '#src/app.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// What only a real socket shows: the app behind @hono/node-server as main.ts serves it, with
// its fast routes in front (decision 041), keep-alive connections, chunked bodies and compressed answers.

let t: TestApp
let server: ReturnType<typeof serve>
let port: number
const bodyLimit = 64 * 1024
/** Requests that reached the app: a fast route's answer never does. */
let appCalls = 0

beforeAll(async () => {
	t = await createTestApp({ BODY_LIMIT_BYTES: String(bodyLimit), FORM_VIEW_FLUSH_MS: '600000' })
	server = serve({
		fetch: (request, env) => {
			appCalls += 1
			return t.app.fetch(request, env)
		},
		createServer: await createFastServer(t.services),
		port: 0,
		hostname: '127.0.0.1',
	})
	await once(server, 'listening')
	port = (server.address() as AddressInfo).port
})
afterAll(async () => {
	await new Promise((resolve) => server.close(resolve))
	await t.close()
})

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; socketId: number }

const socketIds = new WeakMap<object, number>()
let nextSocketId = 1

/** One request on `agent`; the body is sent with its length, or chunked without one. */
function send(
	agent: http.Agent,
	options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer; chunked?: boolean },
): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string> = { ...options.headers }
		if (options.body && !options.chunked) {
			headers['content-length'] = String(options.body.byteLength)
		}
		const request = http.request(
			{ host: '127.0.0.1', port, agent, method: options.method, path: options.path, headers },
			(response) => {
				const chunks: Buffer[] = []
				response.on('data', (chunk: Buffer) => chunks.push(chunk))
				response.on('end', () => {
					const socket = request.socket as object
					if (!socketIds.has(socket)) {
						socketIds.set(socket, nextSocketId++)
					}
					resolve({
						status: response.statusCode ?? 0,
						headers: response.headers,
						body: Buffer.concat(chunks),
						socketId: socketIds.get(socket) ?? 0,
					})
				})
			},
		)
		request.on('error', reject)
		if (options.body && options.chunked) {
			// Several writes, so the body really arrives in chunks with no length up front.
			for (let offset = 0; offset < options.body.byteLength; offset += 16 * 1024) {
				request.write(options.body.subarray(offset, offset + 16 * 1024))
			}
			request.end()
		} else {
			request.end(options.body)
		}
	})
}

const json = { 'content-type': 'application/json' }
/** A view beacon padded to about `size` bytes (the padding is refused as unknown, if it gets that far). */
const beacon = (size: number) =>
	Buffer.from(JSON.stringify({ events: [{ formId: 'no-such-form', kind: 'view' }], padding: 'x'.repeat(size) }))

describe('body limits on a real connection', () => {
	test('a declared length over the limit is 413, the connection is closed, and the client carries on', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
		try {
			const warm = await send(agent, { method: 'GET', path: '/healthz' })
			expect(warm.status).toBe(200)
			const refused = await send(agent, {
				method: 'POST',
				path: '/api/views',
				headers: json,
				body: beacon(bodyLimit * 4),
			})
			expect(refused.status).toBe(413)
			expect(refused.headers.connection).toBe('close')
			expect(JSON.parse(refused.body.toString()).code).toBe('PAYLOAD_TOO_LARGE')
			// The same agent goes on; the refused socket is not reused.
			const after = await send(agent, { method: 'GET', path: '/healthz' })
			expect(after.status).toBe(200)
			expect(after.socketId).not.toBe(refused.socketId)
		} finally {
			agent.destroy()
		}
	})

	test('a chunked body is counted as it streams: over the limit is 413, under it is read as usual', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
		try {
			const refused = await send(agent, {
				method: 'POST',
				path: '/api/views',
				headers: json,
				body: beacon(bodyLimit * 2),
				chunked: true,
			})
			expect(refused.status).toBe(413)
			expect(refused.headers.connection).toBe('close')
			const accepted = await send(agent, {
				method: 'POST',
				path: '/api/views',
				headers: json,
				body: Buffer.from(JSON.stringify({ events: [{ formId: 'no-such-form', kind: 'view' }] })),
				chunked: true,
			})
			// Read and validated like any other body (the beacon does not say which forms exist).
			expect(accepted.status).toBe(202)
		} finally {
			agent.destroy()
		}
	})

	test('a body within its length limit keeps the connection open', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
		try {
			const first = await send(agent, { method: 'POST', path: '/api/views', headers: json, body: beacon(100) })
			const second = await send(agent, { method: 'GET', path: '/healthz' })
			expect(first.headers.connection).toBe('keep-alive')
			expect(second.socketId).toBe(first.socketId)
		} finally {
			agent.destroy()
		}
	})
})

describe('compression where it pays', () => {
	const agent = new http.Agent({ keepAlive: true })
	afterAll(() => agent.destroy())

	test('large JSON read by GET is gzipped for a client that asks, and says it varies', async () => {
		const answer = await send(agent, {
			method: 'GET',
			path: '/api/openapi.json',
			headers: { 'accept-encoding': 'gzip, deflate, br' },
		})
		expect(answer.status).toBe(200)
		expect(answer.headers['content-encoding']).toBe('gzip')
		expect(answer.headers.vary).toMatch(/accept-encoding/i)
		expect(Number(answer.headers['content-length'])).toBe(answer.body.byteLength)
		const document = JSON.parse(gunzipSync(answer.body).toString())
		expect(document.openapi).toBe('3.1.0')
	})

	test('the same for a client that does not ask is sent as it is, still saying it varies', async () => {
		const answer = await send(agent, { method: 'GET', path: '/api/openapi.json' })
		expect(answer.headers['content-encoding']).toBeUndefined()
		expect(answer.headers.vary).toMatch(/accept-encoding/i)
		expect(JSON.parse(answer.body.toString()).openapi).toBe('3.1.0')
	})

	test('small JSON and answers to POST are never compressed', async () => {
		const small = await send(agent, { method: 'GET', path: '/healthz', headers: { 'accept-encoding': 'gzip' } })
		expect(small.headers['content-encoding']).toBeUndefined()
		expect(JSON.parse(small.body.toString())).toEqual({ status: 'ok' })
		const refused = await send(agent, {
			method: 'POST',
			path: '/api/auth/sign-in/email',
			headers: { ...json, 'accept-encoding': 'gzip' },
			body: Buffer.from(JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' })),
		})
		expect(refused.status).toBe(401)
		expect(refused.headers['content-encoding']).toBeUndefined()
	})

	test('a client that refuses gzip (q=0) gets no gzip', async () => {
		const answer = await send(agent, {
			method: 'GET',
			path: '/api/openapi.json',
			headers: { 'accept-encoding': 'gzip;q=0, identity' },
		})
		expect(answer.headers['content-encoding']).toBeUndefined()
	})
})

describe('fast routes: the view beacon', () => {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
	afterAll(() => agent.destroy())

	/** A beacon for a form: its view and two steps reached. */
	const beaconOf = (formId: string) =>
		Buffer.from(
			JSON.stringify({
				events: [
					{ formId, kind: 'view' },
					{ formId, kind: 'reach', step: 'first' },
					{ formId, kind: 'reach', step: 'second' },
				],
			}),
		)

	/** The answer, and whether it reached the app. */
	async function sent(options: Parameters<typeof send>[1]): Promise<Answer & { isFromApp: boolean }> {
		const before = appCalls
		const answer = await send(agent, options)
		return { ...answer, isFromApp: appCalls > before }
	}

	test('a valid beacon is answered before the app, as the app answers it, and counted', async () => {
		const { token } = await t.signUp()
		const created = await t.request('POST', '/dashboard/forms', { token, json: { newDatabase: {}, name: 'Fast' } })
		expect(created.status).toBe(201)
		const formId: string = created.body.id
		expect((await t.request('PATCH', `/dashboard/forms/${formId}`, { token, json: { published: true } })).status).toBe(
			200,
		)

		const fast = await sent({ method: 'POST', path: '/api/views', headers: json, body: beaconOf(formId) })
		// The same beacon with no length up front is the app's to read (chunked bodies are counted as they stream).
		const viaApp = await sent({
			method: 'POST',
			path: '/api/views',
			headers: json,
			body: beaconOf(formId),
			chunked: true,
		})
		expect(fast.isFromApp).toBe(false)
		expect(viaApp.isFromApp).toBe(true)
		expect([fast.status, JSON.parse(fast.body.toString())]).toEqual([202, { accepted: 3 }])
		expect([viaApp.status, JSON.parse(viaApp.body.toString())]).toEqual([202, { accepted: 3 }])
		// Every header the app sends, with the same value, and no other: only the request's own id and
		// the clock differ, and how the body was framed.
		const comparable = (headers: http.IncomingHttpHeaders) => {
			const { date, 'x-request-id': id, 'content-length': length, 'transfer-encoding': encoding, ...rest } = headers
			expect(id).toMatch(/^[\w-]{20,}$/)
			return rest
		}
		expect(comparable(fast.headers)).toEqual(comparable(viaApp.headers))
		expect(fast.headers['content-length']).toBe(String(fast.body.byteLength))
		expect(fast.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
		expect(fast.headers['x-frame-options']).toBe('DENY')

		await t.services.forms.views.flush()
		const analytics = await t.request('GET', `/dashboard/forms/${formId}/analytics?timeZone=UTC`, { token })
		expect(analytics.status).toBe(200)
		expect(analytics.body.views).toBe(2)
	})

	test('a request id the client sent is kept when it is sane, as the app keeps it', async () => {
		const given = await sent({
			method: 'POST',
			path: '/api/views',
			headers: { ...json, 'x-request-id': 'edge-42' },
			body: beaconOf('no-such-form'),
		})
		const made = await sent({
			method: 'POST',
			path: '/api/views',
			headers: { ...json, 'x-request-id': 'not sane!' },
			body: beaconOf('no-such-form'),
		})
		expect([given.isFromApp, given.headers['x-request-id']]).toEqual([false, 'edge-42'])
		expect(made.isFromApp).toBe(false)
		expect(made.headers['x-request-id']).not.toBe('not sane!')
	})

	test('anything but a valid beacon reaches the app, body and all, and gets its answer', async () => {
		const nul = await sent({
			method: 'POST',
			path: '/api/views',
			headers: json,
			body: Buffer.from(JSON.stringify({ events: [{ formId: 'a\u0000b', kind: 'view' }] })),
		})
		expect([nul.isFromApp, nul.status]).toEqual([true, 400])
		expect(JSON.parse(nul.body.toString()).errors).toEqual([expect.objectContaining({ field: 'events.0.formId' })])

		const unknownKind = await sent({
			method: 'POST',
			path: '/api/views',
			headers: json,
			body: Buffer.from(JSON.stringify({ events: [{ formId: 'f', kind: 'click' }] })),
		})
		expect([unknownKind.isFromApp, unknownKind.status]).toEqual([true, 400])
		expect(JSON.parse(unknownKind.body.toString()).errors).toEqual([
			expect.objectContaining({ field: 'events.0.kind' }),
		])

		const notJson = await sent({ method: 'POST', path: '/api/views', headers: json, body: Buffer.from('{"events": [') })
		expect([notJson.isFromApp, notJson.status]).toEqual([true, 400])
		expect(notJson.headers['content-type']).toBe('application/problem+json')

		const text = await sent({
			method: 'POST',
			path: '/api/views',
			headers: { 'content-type': 'text/plain' },
			body: beaconOf('no-such-form'),
		})
		expect(text.isFromApp).toBe(true)
		expect(text.status).toBeGreaterThanOrEqual(400)

		// Read by the app from the body the fast route had already taken off the socket.
		const withQuery = await sent({ method: 'POST', path: '/api/views?from=embed', headers: json, body: beaconOf('f') })
		expect([withQuery.isFromApp, withQuery.status]).toEqual([true, 202])
		// And the connection goes on: all of these went over one socket.
		const after = await sent({ method: 'POST', path: '/api/views', headers: json, body: beaconOf('f') })
		expect([after.isFromApp, after.status, after.socketId]).toEqual([false, 202, nul.socketId])
	})

	test('over the body limit it is the app that answers 413', async () => {
		const refused = await sent({ method: 'POST', path: '/api/views', headers: json, body: beacon(bodyLimit * 2) })
		expect([refused.isFromApp, refused.status, refused.headers.connection]).toEqual([true, 413, 'close'])
	})
})
