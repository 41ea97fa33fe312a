import { randomBytes, randomInt } from 'node:crypto'

// Talking to the server directly, as another device would: to set up data a journey is not
// about (an account to start from), and to act "elsewhere" (revoke sessions from a second
// device) while the browser watches.

/** An address in 10.0.0.0/8, sent as X-Forwarded-For: every context and device is a visitor of its own. */
export function randomClientIp(): string {
	return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
}

/** An address nobody else uses, so journeys never collide (in one run, or on a reused server). */
export function uniqueEmail(label: string): string {
	return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.com`
}

export type Account = { name: string; email: string; password: string; token: string }

export type ApiCall = {
	method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
	token?: string
	json?: unknown
	/** e.g. a User-Agent, so a session reads as a particular device in the sessions list */
	headers?: Record<string, string>
}

export function createHttpApi(baseUrl: string) {
	// better-auth refuses POSTs whose Origin is not the app's own (a browser always sends it);
	// a script has to say it is coming from the app.
	const origin = new URL(baseUrl).origin

	async function call(path: string, options: ApiCall = {}): Promise<Response> {
		const headers = new Headers({
			accept: 'application/json',
			origin,
			'x-forwarded-for': randomClientIp(),
			...options.headers,
		})
		if (options.token) {
			headers.set('authorization', `Bearer ${options.token}`)
		}
		if (options.json !== undefined) {
			headers.set('content-type', 'application/json')
		}
		return fetch(`${baseUrl}${path}`, {
			method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
			headers,
			...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
		})
	}

	/** Like `call`, but a non-2xx answer throws with the server's problem in the message. */
	async function callOk<T = unknown>(path: string, options: ApiCall = {}): Promise<T> {
		const response = await call(path, options)
		const text = await response.text()
		if (!response.ok) {
			throw new Error(
				`${options.method ?? (options.json === undefined ? 'GET' : 'POST')} ${path}: ${response.status} ${text}`,
			)
		}
		return (text ? JSON.parse(text) : null) as T
	}

	function tokenOf(response: Response, what: string): string {
		const token = response.headers.get('set-auth-token')
		if (!token) {
			throw new Error(`${what}: ${response.status}, no set-auth-token header`)
		}
		return token
	}

	return {
		call,
		callOk,
		/** A new account (and, as for every new account, its own organization). */
		async signUp(input: Partial<Omit<Account, 'token'>> = {}, headers?: Record<string, string>): Promise<Account> {
			const name = input.name ?? 'Journey Tester'
			const email = input.email ?? uniqueEmail('journey')
			const password = input.password ?? `pw-${randomBytes(9).toString('base64url')}`
			const response = await call('/api/auth/sign-up/email', {
				json: { name, email, password },
				...(headers ? { headers } : {}),
			})
			return { name, email, password, token: tokenOf(response, `sign-up of ${email}`) }
		},
		/** A second session of an existing account: another device signing in. */
		async signIn(email: string, password: string, headers?: Record<string, string>): Promise<string> {
			const response = await call('/api/auth/sign-in/email', {
				json: { email, password },
				...(headers ? { headers } : {}),
			})
			return tokenOf(response, `sign-in of ${email}`)
		},
	}
}
