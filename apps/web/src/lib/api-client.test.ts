import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { ApiError, api, apiRequest, setUnauthorizedHandler } from './api-client.ts'
import { tokenStorageKey } from './token-store.ts'

function respond(status: number, body: unknown, headers: Record<string, string> = {}) {
	const text = typeof body === 'string' ? body : JSON.stringify(body)
	return vi.fn(async () => new Response(status === 204 ? null : text, { status, headers }))
}

beforeEach(() => {
	localStorage.clear()
})
afterEach(() => {
	vi.unstubAllGlobals()
	setUnauthorizedHandler(() => {})
})

describe('the API client', () => {
	test('sends the stored token as a bearer header and JSON bodies as JSON', async () => {
		localStorage.setItem(tokenStorageKey, 'tok.sig')
		const fetchMock = respond(200, { ok: 1 })
		vi.stubGlobal('fetch', fetchMock)
		await api('/dashboard/x', { json: { a: 1 } })
		const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
		const headers = new Headers(init.headers)
		expect(url).toBe('/dashboard/x')
		expect(init.method).toBe('POST')
		expect(headers.get('authorization')).toBe('Bearer tok.sig')
		expect(headers.get('content-type')).toBe('application/json')
		expect(init.body).toBe('{"a":1}')
	})

	test('a problem becomes an ApiError with its code, detail and field errors', async () => {
		vi.stubGlobal(
			'fetch',
			respond(
				400,
				{
					type: '/problems/validation-failed',
					title: 'Validation failed',
					status: 400,
					detail: 'Some fields are invalid.',
					code: 'VALIDATION_FAILED',
					requestId: 'r1',
					errors: [{ field: 'email', message: 'Invalid email' }],
				},
				{ 'content-type': 'application/problem+json' },
			),
		)
		const error = await api('/dashboard/x').catch((e: unknown) => e)
		expect(error).toBeInstanceOf(ApiError)
		expect(error).toMatchObject({
			status: 400,
			code: 'VALIDATION_FAILED',
			detail: 'Some fields are invalid.',
			requestId: 'r1',
			fieldErrors: [{ field: 'email', message: 'Invalid email' }],
		})
	})

	test('a 401 calls the unauthorized handler, except for a credential check', async () => {
		const handler = vi.fn()
		setUnauthorizedHandler(handler)
		vi.stubGlobal('fetch', respond(401, { code: 'UNAUTHENTICATED', detail: 'Sign in to continue.', status: 401 }))
		await expect(api('/dashboard/x')).rejects.toBeInstanceOf(ApiError)
		expect(handler).toHaveBeenCalledTimes(1)
		await expect(api('/api/auth/sign-in/email', { json: {}, isCredentialCheck: true })).rejects.toMatchObject({
			status: 401,
		})
		expect(handler).toHaveBeenCalledTimes(1)
	})

	test('a body that is not a problem (a proxy page) still gives a readable error', async () => {
		vi.stubGlobal('fetch', respond(502, '<html>Bad gateway</html>'))
		await expect(api('/dashboard/x')).rejects.toMatchObject({ status: 502, code: 'INTERNAL' })
	})

	test('a network failure is an ApiError with status 0', async () => {
		vi.stubGlobal(
			'fetch',
			vi.fn(async () => {
				throw new TypeError('Failed to fetch')
			}),
		)
		await expect(api('/dashboard/x')).rejects.toMatchObject({ status: 0, code: 'NETWORK' })
	})

	test('204 gives null, and headers are available', async () => {
		vi.stubGlobal('fetch', respond(204, '', { 'set-auth-token': 'abc' }))
		const response = await apiRequest('/api/log', { json: {} })
		expect(response.data).toBeNull()
		expect(response.headers.get('set-auth-token')).toBe('abc')
	})
})
