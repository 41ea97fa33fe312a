import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import Papa from 'papaparse'
import { extractText } from 'unpdf'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { users } from '#src/core/auth/auth.schema.ts'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { download, expected, trackedWeek } from '#src/test/time-reports.ts'
import { timeShares } from './time.schema.ts'
import { shareGone, shareLimits } from './time.shares.ts'

// Read-only shared links: made with a token shown once (only its hash stored), read signed out
// with labels and figures only (no row, person or filter ids, no e-mail), the default series,
// a summary download; revoked, expired and unknown links one neutral 404; a paused
// organization UNAVAILABLE; tenancy; the public download's rate limit.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ BILLING_TRIAL_PLAN: 'starter' })
})
afterAll(async () => {
	await t.close()
})

const tokenOf = (url: string) => url.split('/time/shared/')[1] as string

describe('shared links', () => {
	test('a link opens the report signed out, without ids or e-mails, until it is revoked', async () => {
		const team = await teamWithEveryRole(t)
		const { owner, member } = team
		const { viewId, databaseId, p1, p2, rows } = await trackedWeek(t, team)
		const base = `/dashboard/local_time/views/${viewId}/shares`

		const created = await t.request('POST', base, { token: member.token, json: {} })
		expect(created.status).toBe(201)
		expect(created.body).toMatchObject({ viewId, expiresAt: null, revokedAt: null, lastOpenedAt: null })
		expect(created.body.url).toMatch(/^http:\/\/localhost:3000\/time\/shared\/[A-Za-z0-9_-]{43}$/)
		const token = tokenOf(created.body.url)
		const [stored] = await t.db.select().from(timeShares).where(eq(timeShares.id, created.body.id))
		expect(stored?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'))
		expect(JSON.stringify(stored)).not.toContain(token)

		const report = await t.request('GET', `/api/time/reports/${token}`)
		expect(report.status).toBe(200)
		expect(report.body.name).toBe('End of March')
		expect(report.body.analytics.totals).toEqual({
			seconds: expected.seconds,
			billableSeconds: expected.billableSeconds,
			amount: expected.amount,
			entries: 4,
		})
		expect(report.body.analytics).not.toHaveProperty('viewId')
		expect(report.body.analytics.groups.project).toEqual([
			{ key: 'project-1', label: p1.title, seconds: 11700, billableSeconds: 11700, amount: 39163, entries: 2 },
			{ key: 'project-2', label: p2.title, seconds: 4500, billableSeconds: 4500, amount: 12500, entries: 1 },
			{ key: 'none', label: 'No project', seconds: 3600, billableSeconds: 0, amount: null, entries: 1 },
		])
		// Three days: a daily series, broken down by the view's grouping with the same public keys.
		expect(report.body.series.interval).toBe('day')
		expect(report.body.series.buckets.map((bucket: { key: string }) => bucket.key)).toEqual([
			'2026-03-28',
			'2026-03-29',
			'2026-03-30',
		])
		expect(report.body.series.breakdown).toEqual([
			{ key: 'project-1', label: p1.title, seconds: [1800, 9900, 0] },
			{ key: 'project-2', label: p2.title, seconds: [0, 0, 4500] },
			{ key: 'none', label: 'No project', seconds: [0, 0, 3600] },
		])
		const text = JSON.stringify(report.body)
		for (const secret of [
			p1.id,
			p1.externalId,
			owner.userId,
			member.userId,
			owner.email,
			member.email,
			databaseId,
			viewId,
			rows.a.id,
			rows.a.externalId,
		]) {
			expect(text).not.toContain(secret)
		}
		expect(report.body.analytics.groups.person.map((group: { label: string }) => group.label)).toEqual([
			'Olive Owner',
			'Max Member',
		])

		// Its summary as CSV and PDF, signed out.
		const csv = await download(t, `/api/time/reports/${token}/export?format=csv`)
		expect(csv.status).toBe(200)
		const parsed = Papa.parse<string[]>(new TextDecoder().decode(csv.bytes), { skipEmptyLines: true })
		expect(parsed.data.at(-1)).toEqual(['Total', '5.50', '5:30', '4.50', '516.63', '4'])
		const pdf = await download(t, `/api/time/reports/${token}/export?format=pdf`)
		expect(pdf.status).toBe(200)
		expect((await extractText(pdf.bytes, { mergePages: true })).text).toContain('516.63 EUR')
		const xlsx = await t.request('GET', `/api/time/reports/${token}/export?format=xlsx`)
		expect(xlsx.status).toBe(400)

		// Members see the link, opened, without its token.
		const listed = await t.request('GET', base, { token: owner.token })
		expect(listed.status).toBe(200)
		expect(listed.body).toHaveLength(1)
		expect(listed.body[0]).toMatchObject({ id: created.body.id, url: null, revokedAt: null })
		expect(listed.body[0].lastOpenedAt).not.toBeNull()

		const revoked = await t.request('DELETE', `${base}/${created.body.id}`, { token: owner.token })
		expect(revoked.status).toBe(200)
		expect(revoked.body.revokedAt).not.toBeNull()
		for (const pathname of [`/api/time/reports/${token}`, `/api/time/reports/${token}/export?format=csv`]) {
			const gone = await t.request('GET', pathname)
			expect(gone.status, pathname).toBe(404)
			expect(gone.body.detail).toBe(shareGone)
		}
		const again = await t.request('DELETE', `${base}/${created.body.id}`, { token: owner.token })
		expect(again.status).toBe(200)
		expect(again.body.revokedAt).toBe(revoked.body.revokedAt)
	})

	test('past 31 days the series is weekly; a member named by an e-mail address is not named so', async () => {
		const team = await teamWithEveryRole(t)
		await t.db.update(users).set({ name: team.member.email }).where(eq(users.id, team.member.userId))
		const { viewId } = await trackedWeek(t, team)
		const changed = await t.request('PATCH', `/dashboard/local_time/views/${viewId}`, {
			token: team.owner.token,
			json: { settings: { range: { kind: 'fixed', from: '2026-03-01', to: '2026-04-05' }, groupBy: 'person' } },
		})
		expect(changed.status).toBe(200)
		const created = await t.request('POST', `/dashboard/local_time/views/${viewId}/shares`, {
			token: team.owner.token,
			json: {},
		})
		const report = await t.request('GET', `/api/time/reports/${tokenOf(created.body.url)}`)
		expect(report.status).toBe(200)
		expect(report.body.series.interval).toBe('week')
		expect(report.body.series.buckets[0].key).toBe('2026-W09')
		expect(report.body.analytics.groups.person.map((group: { label: string }) => group.label)).toEqual([
			'Olive Owner',
			'(e-mail hidden)',
		])
		expect(report.body.series.breakdown.map((group: { key: string; label: string }) => group.label)).toEqual([
			'Olive Owner',
			'(e-mail hidden)',
		])
		expect(JSON.stringify(report.body)).not.toContain(team.member.email)
	})

	test('an expired or unknown link reads as the revoked one; an expiry in the past is a 400 naming it', async () => {
		const team = await teamWithEveryRole(t)
		const { viewId } = await trackedWeek(t, team)
		const base = `/dashboard/local_time/views/${viewId}/shares`
		const past = await t.request('POST', base, {
			token: team.owner.token,
			json: { expiresAt: new Date(Date.now() - 60_000).toISOString() },
		})
		expect(past.status).toBe(400)
		expect(past.body.errors.map((error: { field: string }) => error.field)).toEqual(['expiresAt'])
		const notADate = await t.request('POST', base, { token: team.owner.token, json: { expiresAt: 'tomorrow' } })
		expect(notADate.status).toBe(400)
		expect(notADate.body.errors.map((error: { field: string }) => error.field)).toEqual(['expiresAt'])

		const expiresAt = new Date(Date.now() + 60 * 60_000).toISOString()
		const created = await t.request('POST', base, { token: team.owner.token, json: { expiresAt } })
		expect(created.status).toBe(201)
		expect(created.body.expiresAt).toBe(expiresAt)
		const token = tokenOf(created.body.url)
		const open = await t.request('GET', `/api/time/reports/${token}`)
		expect(open.status).toBe(200)
		expect(open.body.expiresAt).toBe(expiresAt)
		// An hour later (the module's clock), the link has expired.
		const clock = t.services.time.deps
		const realNow = clock.now
		clock.now = () => new Date(Date.now() + 61 * 60_000)
		try {
			const expired = await t.request('GET', `/api/time/reports/${token}`)
			expect(expired.status).toBe(404)
			expect(expired.body.detail).toBe(shareGone)
		} finally {
			clock.now = realNow
		}
		for (const unknown of ['x'.repeat(43), 'not-a-token', '%20']) {
			const response = await t.request('GET', `/api/time/reports/${unknown}`)
			expect(response.status, unknown).toBe(404)
			expect(response.body.detail).toBe(shareGone)
		}
	})

	test("another organization's view and links are 404", async () => {
		const team = await teamWithEveryRole(t)
		const { viewId } = await trackedWeek(t, team)
		const base = `/dashboard/local_time/views/${viewId}/shares`
		const created = await t.request('POST', base, { token: team.owner.token, json: {} })
		const stranger = await t.signUp()
		for (const [method, pathname] of [
			['POST', base],
			['GET', base],
			['DELETE', `${base}/${created.body.id}`],
			['GET', `/dashboard/notion_time/views/${viewId}/shares`],
		] as const) {
			const response = await t.request(method, pathname, {
				token: stranger.token,
				json: method === 'POST' ? {} : undefined,
			})
			expect(response.status, `${method} ${pathname}`).toBe(404)
		}
		// A link of another view of the same organization is not this view's.
		const { viewId: otherView } = await trackedWeek(t, team)
		const wrongView = await t.request('DELETE', `/dashboard/local_time/views/${otherView}/shares/${created.body.id}`, {
			token: team.owner.token,
		})
		expect(wrongView.status).toBe(404)
		const signedOut = await t.request('GET', base)
		expect(signedOut.status).toBe(401)
	})

	test('a paused organization’s link answers UNAVAILABLE, and serves again on resume', async () => {
		const team = await teamWithEveryRole(t)
		const { viewId } = await trackedWeek(t, team)
		const created = await t.request('POST', `/dashboard/local_time/views/${viewId}/shares`, {
			token: team.owner.token,
			json: {},
		})
		const pathname = `/api/time/reports/${tokenOf(created.body.url)}`
		expect((await t.request('GET', pathname)).status).toBe(200)
		const act = async (action: string) => {
			const response = await t.request('POST', `/api/subscriptions/${action}`, { token: team.owner.token, json: {} })
			expect(response.status, JSON.stringify(response.body)).toBe(200)
		}
		await act('end_trial_and_bill')
		await act('pause_subscription')
		const paused = await t.request('GET', pathname)
		expect(paused.status).toBe(409)
		expect(paused.body).toMatchObject({ code: 'UNAVAILABLE', detail: 'This page is unavailable right now.' })
		await act('resume_subscription')
		expect((await t.request('GET', pathname)).status).toBe(200)
	})

	test(`downloads from one address stop at ${shareLimits.exportPerIp.limit} per ${shareLimits.exportPerIp.windowSeconds / 60} minutes (429 with Retry-After)`, async () => {
		const team = await teamWithEveryRole(t)
		const { viewId } = await trackedWeek(t, team)
		const created = await t.request('POST', `/dashboard/local_time/views/${viewId}/shares`, {
			token: team.owner.token,
			json: {},
		})
		const pathname = `/api/time/reports/${tokenOf(created.body.url)}/export?format=csv`
		for (let index = 0; index < shareLimits.exportPerIp.limit; index++) {
			expect((await t.request('GET', pathname, { ip: '198.51.100.77' })).status).toBe(200)
		}
		const limited = await t.request('GET', pathname, { ip: '198.51.100.77' })
		expect(limited.status).toBe(429)
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
		// Another address is not held back.
		expect((await t.request('GET', pathname, { ip: '198.51.100.78' })).status).toBe(200)
	})
})
