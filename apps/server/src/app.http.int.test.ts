import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// What only a real socket shows: the app behind @hono/node-server as main.ts serves it, with
// keep-alive connections, chunked bodies and compressed answers.

let t: TestApp
let server: ReturnType<typeof serve>
let port: number
const bodyLimit = 64 * 1024

beforeAll(async () => {
	t = await createTestApp({ BODY_LIMIT_BYTES: String(bodyLimit) })
	server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' })
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
