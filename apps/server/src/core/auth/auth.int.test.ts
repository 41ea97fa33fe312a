import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { authRateLimitRules } from '#src/core/auth/auth.ts'
import { createTestApp, randomIp, type TestApp } from '#src/test/test-app.ts'

let t: TestApp
beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

describe('sign-up and tokens', () => {
	test('sign-up returns a token that validate_token accepts', async () => {
		const account = await t.signUp({ name: 'Ada' })
		const response = await t.request('GET', '/auth/validate_token', { token: account.token })
		expect(response.status).toBe(200)
		expect(response.body.success).toBe(true)
		expect(response.body.data).toMatchObject({
			id: account.userId,
			email: account.email,
			name: 'Ada',
			emailVerified: false,
		})
		expect(response.body.data.activeOrganizationId).toEqual(expect.any(String))
	})

	test('validate_token without or with a wrong token is 401 problem+json', async () => {
		const missing = await t.request('GET', '/auth/validate_token')
		expect(missing.status).toBe(401)
		expect(missing.headers.get('content-type')).toBe('application/problem+json')
		expect(missing.body.code).toBe('UNAUTHENTICATED')
		const wrong = await t.request('GET', '/auth/validate_token', { token: 'not-a-token' })
		expect(wrong.status).toBe(401)
	})

	test('a cookie alone does not authenticate API calls', async () => {
		const account = await t.signUp()
		const response = await t.request('GET', '/auth/validate_token', {
			headers: { cookie: `better-auth.session_token=${encodeURIComponent(account.token)}` },
		})
		expect(response.status).toBe(401)
	})

	test('signing up twice with one address is refused', async () => {
		const account = await t.signUp()
		const again = await t.request('POST', '/api/auth/sign-up/email', {
			json: { email: account.email, password: 'another password', name: 'X' },
			ip: randomIp(),
		})
		expect(again.status).toBeGreaterThanOrEqual(400)
		expect(again.status).toBeLessThan(500)
		expect(again.headers.get('content-type')).toBe('application/problem+json')
	})

	test('a short password is a field error on password', async () => {
		const response = await t.request('POST', '/api/auth/sign-up/email', {
			json: { email: 'short@example.com', password: 'short', name: 'S' },
			ip: randomIp(),
		})
		expect(response.status).toBe(400)
		expect(response.body.errors).toEqual([expect.objectContaining({ field: 'password' })])
	})
})

describe('sign-in', () => {
	test('the right password signs in; a wrong one is 401 INVALID_CREDENTIALS', async () => {
		const account = await t.signUp()
		const ok = await t.signIn(account.email, account.password)
		expect(ok.status).toBe(200)
		expect(ok.headers.get('set-auth-token')).toBeTruthy()
		const wrong = await t.signIn(account.email, 'wrong password!')
		expect(wrong.status).toBe(401)
		expect(wrong.body.code).toBe('INVALID_CREDENTIALS')
	})

	test('repeated failed sign-ins from one address get 429 with Retry-After', async () => {
		const account = await t.signUp()
		const ip = randomIp()
		const statuses: number[] = []
		for (let i = 0; i < authRateLimitRules.signIn.max + 1; i++) {
			statuses.push((await t.signIn(account.email, 'wrong password!', ip)).status)
		}
		expect(statuses.slice(0, authRateLimitRules.signIn.max)).toEqual(Array(authRateLimitRules.signIn.max).fill(401))
		const limited = await t.signIn(account.email, account.password, ip)
		expect(limited.status).toBe(429)
		expect(limited.body.code).toBe('RATE_LIMITED')
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
		// Another address is not affected.
		expect((await t.signIn(account.email, account.password)).status).toBe(200)
	})

	test('the sign-in limit is kept in the database, so it holds across instances', async () => {
		const account = await t.signUp()
		const ip = randomIp()
		for (let i = 0; i < authRateLimitRules.signIn.max; i++) {
			await t.signIn(account.email, 'wrong password!', ip)
		}
		// A second app on the same database: the counter is shared.
		const { createApp, createServices } = await import('#src/app.ts')
		const other = createApp(createServices({ config: t.config, database: t.services.database, log: t.services.log }))
		const response = await other.request('/api/auth/sign-in/email', {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
			body: JSON.stringify({ email: account.email, password: account.password }),
		})
		expect(response.status).toBe(429)
	})
})

describe('clients without a browser', () => {
	test('with a bearer token and no cookie, no Origin is needed to sign in, call the API and sign out', async () => {
		const account = await t.signUp()
		// t.request sends neither an Origin nor a cookie, as a script or a mobile app would.
		const signedIn = await t.signIn(account.email, account.password)
		expect(signedIn.status).toBe(200)
		const token = signedIn.headers.get('set-auth-token') ?? ''
		expect((await t.request('GET', '/auth/validate_token', { token })).status).toBe(200)
		const renamed = await t.request('POST', '/api/auth/update-user', { token, json: { name: 'Script' } })
		expect(renamed.status).toBe(200)
		const out = await t.request('POST', '/api/auth/sign-out', { token, json: {} })
		expect(out.status).toBe(200)
		expect((await t.request('GET', '/auth/validate_token', { token })).status).toBe(401)
	})

	test('a request that sends a cookie still needs a trusted Origin: cross-site forgery rides on cookies', async () => {
		const account = await t.signUp()
		const cookie = { cookie: `better-auth.session_token=${account.token}` }
		const body = { email: account.email, password: account.password }
		const missing = await t.request('POST', '/api/auth/sign-in/email', { json: body, headers: cookie })
		expect(missing.status).toBe(403)
		const foreign = await t.request('POST', '/api/auth/sign-in/email', {
			json: body,
			headers: { ...cookie, origin: 'https://evil.example' },
		})
		expect(foreign.status).toBe(403)
		const ours = await t.request('POST', '/api/auth/sign-in/email', {
			json: body,
			headers: { ...cookie, origin: t.config.publicUrl },
		})
		expect(ours.status).toBe(200)
	})
})

describe('sessions', () => {
	test('sign out ends the session', async () => {
		const account = await t.signUp()
		const out = await t.request('POST', '/api/auth/sign-out', { token: account.token, json: {} })
		expect(out.status).toBe(200)
		expect((await t.request('GET', '/auth/validate_token', { token: account.token })).status).toBe(401)
	})

	test('sign out everywhere revokes every session of the user', async () => {
		const account = await t.signUp()
		const second = await t.signIn(account.email, account.password)
		const secondToken = second.headers.get('set-auth-token') ?? ''
		const revoke = await t.request('POST', '/api/auth/revoke-sessions', { token: account.token, json: {} })
		expect(revoke.status).toBe(200)
		expect((await t.request('GET', '/auth/validate_token', { token: account.token })).status).toBe(401)
		expect((await t.request('GET', '/auth/validate_token', { token: secondToken })).status).toBe(401)
	})

	test('changing the password keeps the account reachable only with the new one', async () => {
		const account = await t.signUp()
		const change = await t.request('POST', '/api/auth/change-password', {
			token: account.token,
			json: { currentPassword: account.password, newPassword: 'a brand new secret', revokeOtherSessions: true },
		})
		expect(change.status).toBe(200)
		expect((await t.signIn(account.email, account.password)).status).toBe(401)
		expect((await t.signIn(account.email, 'a brand new secret')).status).toBe(200)
	})
})

describe('e-mail confirmation', () => {
	test('the link in the confirmation mail confirms the address', async () => {
		const account = await t.signUp()
		const mail = await t.waitForMail(account.email, /Confirm your e-mail/)
		const link = new URL(mail.links[0] ?? '')
		expect(link.pathname).toBe('/confirm')
		const confirm = await t.request('POST', '/api/confirm_user', { json: { token: link.searchParams.get('token') } })
		expect(confirm.status).toBe(200)
		const me = await t.request('GET', '/auth/validate_token', { token: account.token })
		expect(me.body.data.emailVerified).toBe(true)
	})

	test('a forged confirmation token is a 400 problem', async () => {
		const response = await t.request('POST', '/api/confirm_user', {
			json: { token: 'eyJhbGciOiJIUzI1NiJ9.e30.forged' },
		})
		expect(response.status).toBe(400)
		expect(response.body.code).toBe('INVALID_TOKEN')
	})

	test('changing the e-mail address goes through both mailboxes', async () => {
		const account = await t.signUp()
		const confirmFirst = await t.waitForMail(account.email, /Confirm your e-mail/)
		await t.request('POST', '/api/confirm_user', {
			json: { token: new URL(confirmFirst.links[0] ?? '').searchParams.get('token') },
		})
		const newEmail = `new-${account.email}`
		const change = await t.request('POST', '/api/auth/change-email', { token: account.token, json: { newEmail } })
		expect(change.status).toBe(200)
		const approval = await t.waitForMail(account.email, /Confirm your new e-mail/)
		await t.request('POST', '/api/confirm_user', {
			json: { token: new URL(approval.links[0] ?? '').searchParams.get('token') },
		})
		const verification = await t.waitForMail(newEmail, /Confirm your e-mail/)
		const done = await t.request('POST', '/api/confirm_user', {
			json: { token: new URL(verification.links[0] ?? '').searchParams.get('token') },
		})
		expect(done.status).toBe(200)
		const me = await t.request('GET', '/auth/validate_token', { token: account.token })
		expect(me.body.data.email).toBe(newEmail)
	})
})

describe('password reset', () => {
	test('reset by the mailed link: new password works, the link is single-use, old sessions end', async () => {
		const account = await t.signUp()
		const asked = await t.request('POST', '/auth/password', { json: { email: account.email }, ip: randomIp() })
		expect(asked.status).toBe(200)
		const mail = await t.waitForMail(account.email, /Reset your password/)
		const token = new URL(mail.links[0] ?? '').searchParams.get('token') ?? ''
		expect(new URL(mail.links[0] ?? '').pathname).toBe('/reset-password')

		const reset = await t.request('PUT', '/auth/password', {
			json: { token, password: 'my new password' },
			ip: randomIp(),
		})
		expect(reset.status).toBe(200)
		expect((await t.signIn(account.email, 'my new password')).status).toBe(200)
		expect((await t.signIn(account.email, account.password)).status).toBe(401)
		expect((await t.request('GET', '/auth/validate_token', { token: account.token })).status).toBe(401)

		const reuse = await t.request('PUT', '/auth/password', {
			json: { token, password: 'yet another one' },
			ip: randomIp(),
		})
		expect(reuse.status).toBe(400)
		expect(reuse.body.code).toBe('INVALID_TOKEN')
	})

	test('the sign-in screen path sends the same reset mail', async () => {
		const account = await t.signUp()
		const asked = await t.request('POST', '/dashboard/users/forgot_password', {
			json: { email: account.email },
			ip: randomIp(),
		})
		expect(asked.status).toBe(200)
		await t.waitForMail(account.email, /Reset your password/)
	})

	test('an unknown address gets the same answer, so accounts cannot be discovered', async () => {
		const account = await t.signUp()
		const known = await t.request('POST', '/auth/password', { json: { email: account.email }, ip: randomIp() })
		const unknown = await t.request('POST', '/auth/password', { json: { email: 'nobody@example.com' }, ip: randomIp() })
		expect(unknown.status).toBe(known.status)
		expect(unknown.body).toEqual(known.body)
	})

	test('reset requests are rate limited per address', async () => {
		const ip = randomIp()
		const statuses: number[] = []
		for (let i = 0; i < 11; i++) {
			statuses.push((await t.request('POST', '/auth/password', { json: { email: `x${i}@example.com` }, ip })).status)
		}
		expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true)
		expect(statuses[10]).toBe(429)
	})

	test('an expired or unknown reset token is refused', async () => {
		const response = await t.request('PUT', '/auth/password', { json: { token: 'unknown', password: 'whatever123' } })
		expect(response.status).toBe(400)
		expect(response.body.code).toBe('INVALID_TOKEN')
	})
})
