import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, randomIp, type TestApp } from '#src/test/test-app.ts'

let t: TestApp
beforeAll(async () => {
	t = await createTestApp({ BODY_LIMIT_BYTES: '4096' })
})
afterAll(async () => {
	await t.close()
})

describe('problems', () => {
	test('malformed JSON is 400 MALFORMED_JSON', async () => {
		const { token } = await t.signUp()
		const response = await t.request('POST', '/dashboard/team_invites', {
			token,
			body: '{"email": ',
			headers: { 'content-type': 'application/json' },
		})
		expect(response.status).toBe(400)
		expect(response.headers.get('content-type')).toBe('application/problem+json')
		expect(response.body).toMatchObject({ code: 'MALFORMED_JSON', status: 400, instance: '/dashboard/team_invites' })
		expect(response.body.requestId).toBe(response.headers.get('x-request-id'))
	})

	test('a body over the limit is 413, before it is parsed', async () => {
		const response = await t.request('POST', '/auth/password', { json: { email: `${'a'.repeat(5000)}@example.com` } })
		expect(response.status).toBe(413)
		expect(response.body.code).toBe('PAYLOAD_TOO_LARGE')
	})

	test('wrongly typed fields are 400 with each field named', async () => {
		const response = await t.request('PUT', '/auth/password', { json: { token: 42, password: ['x'] } })
		expect(response.status).toBe(400)
		expect(response.body.code).toBe('VALIDATION_FAILED')
		expect(new Set(response.body.errors.map((e: { field: string }) => e.field))).toEqual(new Set(['password', 'token']))
	})

	test('a body in another format is 415', async () => {
		const response = await t.request('POST', '/auth/password', {
			body: 'email=a@example.com',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		})
		expect(response.status).toBe(415)
	})

	test('an unknown API path is a 404 problem', async () => {
		for (const path of ['/api/nope', '/dashboard/nope', '/auth/nope']) {
			const response = await t.request('GET', path)
			expect(response.status).toBe(404)
			expect(response.body.code).toBe('NOT_FOUND')
		}
	})

	test('an unexpected error is a 500 that reveals nothing and is logged with the request id', async () => {
		const lines: { reqId?: string; msg?: string; err?: { message?: string } }[] = []
		const { createApp, createServices } = await import('#src/app.ts')
		const { default: pino } = await import('pino')
		const log = pino({ level: 'error' }, { write: (line: string) => lines.push(JSON.parse(line)) })
		const app = createApp(createServices({ config: t.config, database: t.services.database, log }))
		// A route that fails the way a bug would, with something secret in its message.
		app.get('/api/test-boom', () => {
			throw new Error('secret internals: password=hunter2')
		})
		const boom = await app.request('/api/test-boom')
		const text = await boom.text()
		expect(boom.status).toBe(500)
		expect(text).not.toContain('hunter2')
		expect(JSON.parse(text)).toMatchObject({ code: 'INTERNAL', status: 500 })
		expect(
			lines.some((line) => line.msg === 'unhandled error' && line.reqId === boom.headers.get('x-request-id')),
		).toBe(true)
	})
})

describe('headers and health', () => {
	test('API answers carry a CSP that allows nothing, and refuse framing and sniffing', async () => {
		for (const path of ['/healthz', '/auth/validate_token', '/api/openapi.json', '/dashboard/forms']) {
			const response = await t.app.request(path)
			expect(response.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'")
			expect(response.headers.get('x-frame-options'), path).toBe('DENY')
			expect(response.headers.get('x-content-type-options'), path).toBe('nosniff')
			expect(response.headers.get('cross-origin-resource-policy'), path).toBe('same-origin')
			expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin')
		}
	})

	test('pages carry a strict CSP and the usual security headers', async () => {
		const response = await t.app.request('/api/docs')
		const csp = response.headers.get('content-security-policy') ?? ''
		expect(csp).toContain("default-src 'self'")
		expect(csp).toContain("script-src 'self'")
		expect(csp).toContain("frame-ancestors 'none'")
		expect(csp).toContain("object-src 'none'")
		expect(csp).toContain("frame-src 'self' blob:")
		expect(response.headers.get('x-content-type-options')).toBe('nosniff')
		expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
	})

	test('healthz is ok and readyz is ready while the database answers', async () => {
		expect((await t.request('GET', '/healthz')).body).toEqual({ status: 'ok' })
		expect((await t.request('GET', '/readyz')).body).toEqual({ status: 'ready' })
	})

	test('readyz answers 503 while draining', async () => {
		t.services.state.isDraining = true
		try {
			expect((await t.request('GET', '/readyz')).status).toBe(503)
		} finally {
			t.services.state.isDraining = false
		}
	})

	test('a request id given by a proxy is kept', async () => {
		const response = await t.app.request('/healthz', { headers: { 'x-request-id': 'from-the-proxy-1' } })
		expect(response.headers.get('x-request-id')).toBe('from-the-proxy-1')
	})
})

describe('OpenAPI', () => {
	test('the document lists the API paths with their schemas', async () => {
		const response = await t.request('GET', '/api/openapi.json')
		expect(response.status).toBe(200)
		expect(response.body.openapi).toBe('3.1.0')
		const paths = Object.keys(response.body.paths)
		for (const path of [
			'/auth/validate_token',
			'/auth/password',
			'/api/confirm_user',
			'/dashboard/team_invites',
			'/dashboard/team_invites/all_members',
			'/dashboard/team_invites/remove_team_member',
			'/dashboard/users/forgot_password',
			'/dashboard/users/get_org_details',
			'/dashboard/active_storage/direct_uploads',
			'/api/log',
		]) {
			expect(paths).toContain(path)
		}
		expect(response.body.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' })
	})

	test('the reference page is served from our own files', async () => {
		const page = await t.app.request('/api/docs')
		expect(page.status).toBe(200)
		const html = await page.text()
		expect(html).toContain('/api/docs/assets/swagger-ui-bundle.js')
		expect(html).not.toMatch(/https?:\/\//)
		expect((await t.app.request('/api/docs/assets/swagger-ui-bundle.js')).status).toBe(200)
	})
})

describe('client error beacon', () => {
	test('a report is accepted with 204', async () => {
		const response = await t.request('POST', '/api/log', {
			json: { message: 'TypeError: x is undefined', stack: 'at y (app.js:1:2)', url: 'http://localhost:3000/forms' },
			ip: randomIp(),
		})
		expect(response.status).toBe(204)
	})

	test('a report over 16 KB is 413', async () => {
		const response = await t.request('POST', '/api/log', {
			json: { message: 'x', stack: 'y'.repeat(17_000) },
			ip: randomIp(),
		})
		expect(response.status).toBe(413)
	})

	test('a malformed report is 400', async () => {
		const response = await t.request('POST', '/api/log', { json: { level: 'panic' }, ip: randomIp() })
		expect(response.status).toBe(400)
	})

	test('reports are rate limited per address', async () => {
		const ip = randomIp()
		const statuses: number[] = []
		for (let i = 0; i < 31; i++) {
			statuses.push((await t.request('POST', '/api/log', { json: { message: `error ${i}` }, ip })).status)
		}
		expect(statuses.slice(0, 30).every((status) => status === 204)).toBe(true)
		expect(statuses[30]).toBe(429)
		expect((await t.request('POST', '/api/log', { json: { message: 'other' }, ip: randomIp() })).status).toBe(204)
	})
})
