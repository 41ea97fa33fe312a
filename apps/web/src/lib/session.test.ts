import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createSessionStore } from './session.ts'
import { tokenStorageKey } from './token-store.ts'

const user = {
	id: 'u1',
	name: 'Ada',
	email: 'ada@example.com',
	emailVerified: true,
	image: null,
	createdAt: '2026-01-01T00:00:00.000Z',
	activeOrganizationId: 'o1',
}

/** A server that accepts exactly the tokens in `valid`. */
function server(valid: Set<string>) {
	return vi.fn(async (_url: string, init?: RequestInit) => {
		const token = new Headers(init?.headers).get('authorization')?.replace('Bearer ', '') ?? ''
		if (valid.has(token)) {
			return new Response(JSON.stringify({ success: true, data: user }), { status: 200 })
		}
		return new Response(JSON.stringify({ status: 401, code: 'UNAUTHENTICATED', detail: 'Sign in.' }), { status: 401 })
	})
}

async function settled(store: ReturnType<typeof createSessionStore>) {
	await vi.waitFor(() => expect(store.getSnapshot().status).not.toBe('loading'))
	return store.getSnapshot()
}

let stop: (() => void) | undefined
beforeEach(() => {
	localStorage.clear()
})
afterEach(() => {
	stop?.()
	vi.unstubAllGlobals()
	vi.useRealTimers()
})

describe('the session', () => {
	test('without a stored token it is unauthenticated at once, without asking the server', async () => {
		const fetchMock = server(new Set())
		vi.stubGlobal('fetch', fetchMock)
		const store = createSessionStore()
		stop = store.start()
		expect((await settled(store)).status).toBe('unauthenticated')
		expect(fetchMock).not.toHaveBeenCalled()
	})

	test('it stays loading until the server answers, then is authenticated with the user', async () => {
		localStorage.setItem(tokenStorageKey, 'good')
		vi.stubGlobal('fetch', server(new Set(['good'])))
		const store = createSessionStore()
		expect(store.getSnapshot().status).toBe('loading')
		stop = store.start()
		const state = await settled(store)
		expect(state).toMatchObject({ status: 'authenticated', token: 'good', user: { id: 'u1' } })
	})

	test('a token the server refuses is forgotten', async () => {
		localStorage.setItem(tokenStorageKey, 'revoked')
		vi.stubGlobal('fetch', server(new Set()))
		const store = createSessionStore()
		stop = store.start()
		expect((await settled(store)).status).toBe('unauthenticated')
		expect(localStorage.getItem(tokenStorageKey)).toBeNull()
	})

	test('signing out in another tab signs out this one', async () => {
		localStorage.setItem(tokenStorageKey, 'good')
		vi.stubGlobal('fetch', server(new Set(['good'])))
		const store = createSessionStore()
		stop = store.start()
		await settled(store)
		localStorage.removeItem(tokenStorageKey)
		window.dispatchEvent(new StorageEvent('storage', { key: tokenStorageKey, newValue: null }))
		await vi.waitFor(() => expect(store.getSnapshot().status).toBe('unauthenticated'))
	})

	test('signing in in another tab signs in this one', async () => {
		vi.stubGlobal('fetch', server(new Set(['fresh'])))
		const store = createSessionStore()
		stop = store.start()
		await settled(store)
		localStorage.setItem(tokenStorageKey, 'fresh')
		window.dispatchEvent(new StorageEvent('storage', { key: tokenStorageKey, newValue: 'fresh' }))
		await vi.waitFor(() => expect(store.getSnapshot()).toMatchObject({ status: 'authenticated', token: 'fresh' }))
	})

	test('gaining focus re-checks the token; a token revoked elsewhere signs out', async () => {
		localStorage.setItem(tokenStorageKey, 'good')
		const valid = new Set(['good'])
		const fetchMock = server(valid)
		vi.stubGlobal('fetch', fetchMock)
		const store = createSessionStore()
		stop = store.start()
		await settled(store)
		valid.delete('good')
		window.dispatchEvent(new Event('focus'))
		await vi.waitFor(() => expect(store.getSnapshot().status).toBe('unauthenticated'))
		expect(fetchMock).toHaveBeenCalledTimes(2)
	})

	test('it polls only when a refresh interval is configured', async () => {
		vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
		localStorage.setItem(tokenStorageKey, 'good')
		const fetchMock = server(new Set(['good']))
		vi.stubGlobal('fetch', fetchMock)

		const quiet = createSessionStore()
		const stopQuiet = quiet.start()
		await settled(quiet)
		vi.advanceTimersByTime(600_000)
		expect(fetchMock).toHaveBeenCalledTimes(1)
		stopQuiet()

		const polling = createSessionStore({ refreshIntervalSeconds: 60 })
		stop = polling.start()
		await settled(polling)
		vi.advanceTimersByTime(180_000)
		await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(5))
	})

	test('signIn stores the token for every tab; clear removes it', async () => {
		vi.stubGlobal('fetch', server(new Set()))
		const store = createSessionStore()
		stop = store.start()
		await settled(store)
		store.signIn('new-token', user)
		expect(store.getSnapshot()).toMatchObject({ status: 'authenticated', user: { id: 'u1' } })
		expect(localStorage.getItem(tokenStorageKey)).toBe('new-token')
		store.clear()
		expect(store.getSnapshot().status).toBe('unauthenticated')
		expect(localStorage.getItem(tokenStorageKey)).toBeNull()
	})

	test('an unreachable server keeps the token and reports offline', async () => {
		localStorage.setItem(tokenStorageKey, 'good')
		vi.stubGlobal(
			'fetch',
			vi.fn(async () => {
				throw new TypeError('Failed to fetch')
			}),
		)
		const store = createSessionStore()
		stop = store.start()
		expect((await settled(store)).status).toBe('offline')
		expect(localStorage.getItem(tokenStorageKey)).toBe('good')
	})
})
