import { createHmac, randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { members, sessions } from '#src/core/auth/auth.schema.ts'
import { sessionLifetime } from '#src/core/auth/auth.session.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// The fast session check (auth.session.ts) against better-auth's own getSession: for every
// kind of bearer header and every state a session can be in, both must agree, and both must
// give the answer the rule names.

let t: TestApp
beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

async function fastPath(authorization: string) {
	const result = await t.services.auth.checkSession(authorization)
	return result ? { sessionId: result.session.id, userId: result.user.id, expiresAt: result.session.expiresAt } : null
}

async function betterAuthPath(authorization: string) {
	const result = await t.services.auth.api.getSession({ headers: new Headers({ authorization }) })
	return result ? { sessionId: result.session.id, userId: result.user.id, expiresAt: result.session.expiresAt } : null
}

/** What a client holds: the URL-encoded `token.signature` from `set-auth-token`. */
async function newSession() {
	const account = await t.signUp()
	const signed = decodeURIComponent(account.token)
	const token = signed.slice(0, signed.lastIndexOf('.'))
	const [row] = await t.db.select().from(sessions).where(eq(sessions.token, token))
	if (!row) {
		throw new Error('the new session is not stored')
	}
	return { ...account, signed, bare: token, sessionId: row.id }
}

function signWith(secret: string, token: string): string {
	return `${token}.${createHmac('sha256', secret).update(token).digest('base64')}`
}

describe('the fast session check keeps better-auth rules', () => {
	test('the forms of a valid bearer header are accepted by both', async () => {
		const s = await newSession()
		const headers = [
			`Bearer ${s.token}`,
			`Bearer ${s.signed}`,
			`bearer ${s.token}`,
			`BEARER   ${s.token}  `,
			`Bearer ${s.bare}`,
			`Bearer ${signWith(t.config.authSecret, s.bare)}`,
		]
		for (const header of headers) {
			const expected = { sessionId: s.sessionId, userId: s.userId }
			expect(await fastPath(header), header).toMatchObject(expected)
			expect(await betterAuthPath(header), header).toMatchObject(expected)
		}
	})

	test('a wrong signature, another secret, an unknown token or another scheme is refused by both', async () => {
		const s = await newSession()
		const signature = s.signed.slice(s.signed.lastIndexOf('.') + 1)
		const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
		const unknownToken = randomBytes(24).toString('base64url')
		const headers = [
			`Bearer ${s.bare}.${flipped}`,
			`Bearer ${s.bare}.${signature.slice(0, -2)}=`,
			`Bearer ${s.bare}.${signature}AA`,
			`Bearer ${signWith(`${t.config.authSecret}x`, s.bare)}`,
			`Bearer ${signWith(t.config.authSecret, unknownToken)}`,
			`Bearer ${unknownToken}`,
			`Bearer .${signature}`,
			`Bearer ${s.bare}.`,
			'Bearer ',
			'Bearer %E0%A4%A',
			`Basic ${s.token}`,
			s.token,
			'',
		]
		for (const header of headers) {
			expect(await fastPath(header), header).toBeNull()
			expect(await betterAuthPath(header), header).toBeNull()
		}
	})

	test('an expired session is refused and deleted by both', async () => {
		for (const check of [fastPath, betterAuthPath]) {
			const s = await newSession()
			await t.db
				.update(sessions)
				.set({ expiresAt: new Date(Date.now() - 1000) })
				.where(eq(sessions.id, s.sessionId))
			expect(await check(`Bearer ${s.token}`), check.name).toBeNull()
			expect(await t.db.select().from(sessions).where(eq(sessions.id, s.sessionId)), check.name).toEqual([])
		}
	})

	test('a session older than a day slides its expiry forward in both; a younger one is left alone', async () => {
		const { expiresInSeconds, updateAgeSeconds } = sessionLifetime
		for (const check of [fastPath, betterAuthPath]) {
			const due = await newSession()
			// Last extended a day and an hour ago.
			const dueExpiry = new Date(Date.now() + (expiresInSeconds - updateAgeSeconds - 3600) * 1000)
			await t.db.update(sessions).set({ expiresAt: dueExpiry }).where(eq(sessions.id, due.sessionId))
			const before = Date.now()
			const refreshed = await check(`Bearer ${due.token}`)
			const [stored] = await t.db.select().from(sessions).where(eq(sessions.id, due.sessionId))
			expect(refreshed?.sessionId, check.name).toBe(due.sessionId)
			expect(stored?.expiresAt.getTime(), check.name).toBeGreaterThanOrEqual(before + expiresInSeconds * 1000 - 1000)
			expect(new Date(refreshed?.expiresAt ?? 0).getTime(), check.name).toBe(stored?.expiresAt.getTime())

			const young = await newSession()
			// Last extended an hour ago.
			const youngExpiry = new Date(Date.now() + (expiresInSeconds - 3600) * 1000)
			await t.db.update(sessions).set({ expiresAt: youngExpiry }).where(eq(sessions.id, young.sessionId))
			expect(await check(`Bearer ${young.token}`), check.name).toMatchObject({ sessionId: young.sessionId })
			const [untouched] = await t.db.select().from(sessions).where(eq(sessions.id, young.sessionId))
			expect(untouched?.expiresAt.getTime(), check.name).toBe(youngExpiry.getTime())
		}
	})

	test('signing out takes effect at once in both', async () => {
		const s = await newSession()
		expect(await fastPath(`Bearer ${s.token}`)).not.toBeNull()
		const out = await t.request('POST', '/api/auth/sign-out', { token: s.token, json: {} })
		expect(out.status).toBe(200)
		expect(await fastPath(`Bearer ${s.token}`)).toBeNull()
		expect(await betterAuthPath(`Bearer ${s.token}`)).toBeNull()
		expect((await t.request('GET', '/auth/validate_token', { token: s.token })).status).toBe(401)
	})

	test('the membership comes with the session, and is gone once the member is removed', async () => {
		const s = await newSession()
		const checked = await t.services.auth.checkSession(`Bearer ${s.token}`)
		expect(checked?.membership).toMatchObject({
			userId: s.userId,
			organizationId: checked?.session.activeOrganizationId,
			role: 'owner',
		})
		await t.db.delete(members).where(eq(members.userId, s.userId))
		expect((await t.services.auth.checkSession(`Bearer ${s.token}`))?.membership).toBeNull()
		// With no organization left, dashboard calls are refused rather than reaching the old one.
		const response = await t.request('GET', '/dashboard/team_invites', { token: s.token })
		expect(response.body.code).toBe('NO_ORGANIZATION')
	})
})
