import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createGate, finishedExport, openLink } from '#src/test/exports.ts'
import { expectRefusedByRole, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { organizationExports } from './exports.schema.ts'
import { downloadUrl } from './exports.service.ts'

// The export's rules: owners and admins only, one at a time and five a day per organization,
// another organization's export missing everywhere, bad input a 400 naming the field, a wrong
// token a 404, an expired link a 410, and the hourly job deleting expired archives.

let t: TestApp
const gate = createGate()
const realNow = () => new Date()

beforeAll(async () => {
	t = await createTestApp()
	t.services.exports.register(gate.part)
})
afterEach(() => {
	t.services.exports.deps.now = realNow
	gate.release()
})
afterAll(async () => {
	await t.close()
})

async function readyExport(token: string) {
	const started = await t.request('POST', '/dashboard/exports', { token })
	expect(started.status).toBe(202)
	const ready = await finishedExport(t, token, started.body.id)
	expect(ready.status).toBe('ready')
	return ready
}

describe('who may export', () => {
	test('owners and admins; a member is refused on every route with a sentence', async () => {
		const team = await teamWithEveryRole(t)
		const started = await t.request('POST', '/dashboard/exports', { token: team.admin.token })
		expect(started.status).toBe(202)
		expect(started.body.requestedBy).toMatchObject({ name: 'Ada Admin', email: team.admin.email })
		await finishedExport(t, team.admin.token, started.body.id)
		const listed = await t.request('GET', '/dashboard/exports', { token: team.owner.token })
		expect(listed.body.exports.map((item: { id: string }) => item.id)).toEqual([started.body.id])

		expectRefusedByRole(await t.request('GET', '/dashboard/exports', { token: team.member.token }))
		expectRefusedByRole(await t.request('POST', '/dashboard/exports', { token: team.member.token }))
		expectRefusedByRole(await t.request('GET', `/dashboard/exports/${started.body.id}`, { token: team.member.token }))
		expect((await t.request('GET', '/dashboard/exports')).status).toBe(401)
		const rows = await t.db.select().from(organizationExports).where(eq(organizationExports.organizationId, team.orgId))
		expect(rows).toHaveLength(1)
	})
})

describe('how many', () => {
	test('one at a time: a second start while one is built is a 409 saying so', async () => {
		const owner = await t.signUp()
		const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
		gate.arm(orgId)
		const first = await t.request('POST', '/dashboard/exports', { token: owner.token })
		expect(first.status).toBe(202)
		await until(
			'the export to run',
			() => t.request('GET', `/dashboard/exports/${first.body.id}`, { token: owner.token }),
			(response) => response.body.status === 'running',
		)
		const second = await t.request('POST', '/dashboard/exports', { token: owner.token })
		expect(second.status).toBe(409)
		expect(second.body.code).toBe('CONFLICT')
		expect(second.body.detail).toMatch(/being built/)
		gate.release()
		expect((await finishedExport(t, owner.token, first.body.id)).status).toBe('ready')
		const third = await t.request('POST', '/dashboard/exports', { token: owner.token })
		expect(third.status).toBe(202)
		await finishedExport(t, owner.token, third.body.id)
	})

	test('five a day: the sixth is a 429 with the seconds until the oldest is a day old', async () => {
		const owner = await t.signUp()
		const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
		const hour = 3_600_000
		// Four from the last day (the oldest 23 hours ago) and one from two days ago, which no longer counts.
		await t.db.insert(organizationExports).values(
			[23, 10, 5, 1, 48].map((hoursAgo) => ({
				id: randomUUID(),
				organizationId: orgId,
				status: 'failed' as const,
				createdAt: new Date(Date.now() - hoursAgo * hour),
			})),
		)
		const fifth = await t.request('POST', '/dashboard/exports', { token: owner.token })
		expect(fifth.status).toBe(202)
		await finishedExport(t, owner.token, fifth.body.id)
		const sixth = await t.request('POST', '/dashboard/exports', { token: owner.token })
		expect(sixth.status).toBe(429)
		expect(sixth.body.code).toBe('RATE_LIMITED')
		const retryAfter = Number(sixth.headers.get('retry-after'))
		expect(retryAfter).toBeGreaterThan(3600 - 60)
		expect(retryAfter).toBeLessThanOrEqual(3600)
		// The list shows the newest ten at most, newest first.
		const list = await t.request('GET', '/dashboard/exports', { token: owner.token })
		expect(list.body.exports).toHaveLength(6)
		expect(list.body.exports[0].id).toBe(fifth.body.id)
	})
})

describe('tenancy and links', () => {
	test("another organization's export is missing on every route, and a token opens only its own export", async () => {
		const a = await t.signUp()
		const b = await t.signUp()
		const exportA = await readyExport(a.token)
		const exportB = await readyExport(b.token)

		expect((await t.request('GET', `/dashboard/exports/${exportA.id}`, { token: b.token })).status).toBe(404)
		const listB = await t.request('GET', '/dashboard/exports', { token: b.token })
		expect(listB.body.exports.map((item: { id: string }) => item.id)).toEqual([exportB.id])

		const tokenOf = (url: string | null) => new URL(url as string).searchParams.get('token') as string
		const link = (id: string, token: string) => `http://localhost:3000/api/exports/${id}/download?token=${token}`
		// B's token on A's export, A's on B's, a well-formed token of neither, an unknown id.
		for (const url of [
			link(exportA.id, tokenOf(exportB.downloadUrl)),
			link(exportB.id, tokenOf(exportA.downloadUrl)),
			link(exportA.id, 'A'.repeat(43)),
			link(randomUUID(), tokenOf(exportA.downloadUrl)),
			// Signed with another server's secret.
			downloadUrl(
				{ publicUrl: 'http://localhost:3000', authSecret: 'another-secret-another-secret-32' },
				exportA.id,
				new Date(exportA.expiresAt as string),
			),
		]) {
			const response = await openLink(t, url)
			expect(response.status, url).toBe(404)
			expect(JSON.parse(new TextDecoder().decode(response.bytes)).code).toBe('NOT_FOUND')
		}
		expect((await openLink(t, exportA.downloadUrl as string)).status).toBe(200)
		expect((await openLink(t, exportB.downloadUrl as string)).status).toBe(200)
	})

	test('bad input is a 400 naming the field', async () => {
		const owner = await t.signUp()
		const ready = await readyExport(owner.token)
		const token = new URL(ready.downloadUrl as string).searchParams.get('token') as string
		const cases: [string, string, string | undefined][] = [
			[`/dashboard/exports/${'x'.repeat(65)}`, 'id', owner.token],
			['/dashboard/exports/ab%00cd', 'id', owner.token],
			[`/api/exports/${'x'.repeat(65)}/download?token=${token}`, 'id', undefined],
			[`/api/exports/ab%00cd/download?token=${token}`, 'id', undefined],
			[`/api/exports/${ready.id}/download?token=ab%00cd`, 'token', undefined],
			[`/api/exports/${ready.id}/download?token=${'t'.repeat(201)}`, 'token', undefined],
			[`/api/exports/${ready.id}/download`, 'token', undefined],
		]
		for (const [url, field, session] of cases) {
			const response = await t.request('GET', url, session ? { token: session } : {})
			expect(response.status, url).toBe(400)
			expect(response.body.code, url).toBe('VALIDATION_FAILED')
			expect(
				response.body.errors.map((error: { field: string }) => error.field),
				url,
			).toContain(field)
		}
	})

	test('an expired link is a 410, and the hourly job deletes the archive', async () => {
		const owner = await t.signUp()
		const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
		const ready = await readyExport(owner.token)
		const key = `exports/${orgId}/${ready.id}`
		expect(await t.services.storage.get(key)).not.toBeNull()

		// The link works until its expiry, to the millisecond.
		const expiresAt = new Date(ready.expiresAt as string).getTime()
		t.services.exports.deps.now = () => new Date(expiresAt - 1)
		expect((await openLink(t, ready.downloadUrl as string)).status).toBe(200)
		t.services.exports.deps.now = () => new Date(expiresAt + 1)
		const expired = await openLink(t, ready.downloadUrl as string)
		expect(expired.status).toBe(410)
		expect(JSON.parse(new TextDecoder().decode(expired.bytes)).code).toBe('EXPORT_EXPIRED')
		const shown = await t.request('GET', `/dashboard/exports/${ready.id}`, { token: owner.token })
		expect(shown.body).toMatchObject({ status: 'ready', downloadUrl: null })

		await t.services.jobs.send(t.services.exports.deps.queues.expire, {})
		await until(
			'the export to expire',
			() => t.request('GET', `/dashboard/exports/${ready.id}`, { token: owner.token }),
			(response) => response.body.status === 'expired',
		)
		expect(await t.services.storage.get(key)).toBeNull()
		const [record] = await t.db.select().from(organizationExports).where(eq(organizationExports.id, ready.id))
		expect(record?.storageKey).toBeNull()
		// Still a 410 with the right token (not a 404: the link was real), even with the clock back.
		t.services.exports.deps.now = realNow
		expect((await openLink(t, ready.downloadUrl as string)).status).toBe(410)
	})

	test('an export left unfinished by a process that died is failed by the hourly job, and no longer blocks a new one', async () => {
		const owner = await t.signUp()
		const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
		const hour = 3_600_000
		const [stuck, recent] = [randomUUID(), randomUUID()]
		await t.db.insert(organizationExports).values([
			{ id: stuck, organizationId: orgId, status: 'running', createdAt: new Date(Date.now() - 7 * hour) },
			{ id: recent, organizationId: orgId, status: 'queued', createdAt: new Date(Date.now() - hour) },
		])
		expect((await t.request('POST', '/dashboard/exports', { token: owner.token })).status).toBe(409)
		await t.services.jobs.send(t.services.exports.deps.queues.expire, {})
		const failed = await until(
			'the stuck export to fail',
			() => t.request('GET', `/dashboard/exports/${stuck}`, { token: owner.token }),
			(response) => response.body.status === 'failed',
		)
		expect(failed.body.error).toMatch(/did not finish/)
		// An hour is not stuck: a queue may be that long.
		expect((await t.request('GET', `/dashboard/exports/${recent}`, { token: owner.token })).body.status).toBe('queued')
		await t.db.delete(organizationExports).where(eq(organizationExports.id, recent))
		const started = await t.request('POST', '/dashboard/exports', { token: owner.token })
		expect(started.status).toBe(202)
		expect((await finishedExport(t, owner.token, started.body.id)).status).toBe('ready')
	})
})
