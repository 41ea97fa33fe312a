import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { insertSamplePortal, memberWithSession, sampleDatabases } from '#src/test/portals.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { portalMagicLinks, portalSessions } from './portals.schema.ts'
import { createPortalCleanupQueue } from './portals.session.ts'

// The hourly clean-up: ended sessions go, and links a day past their use or end; the rest stays.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})

afterAll(async () => {
	await t.close()
})

test('ended sessions and old links are deleted, live ones kept', async () => {
	const owner = await t.signUp()
	const databases = await sampleDatabases(t, owner.token)
	const orgId = (await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })).body.id
	const portal = await insertSamplePortal(t, orgId, databases)
	const live = await memberWithSession(t, portal, { email: 'live@example.com' })
	const gone = await memberWithSession(t, portal, { email: 'gone@example.com' })
	const now = new Date()
	const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000)
	await t.db
		.update(portalSessions)
		.set({ expiresAt: hoursAgo(1) })
		.where(eq(portalSessions.memberId, gone.id))
	const link = (memberId: string, expiresAt: Date, usedAt: Date | null) => ({
		id: randomUUID(),
		organizationId: orgId,
		portalId: portal.id,
		memberId,
		tokenHash: randomUUID(),
		expiresAt,
		usedAt,
	})
	const links = [
		link(live.id, new Date(now.getTime() + 3_600_000), null),
		link(live.id, new Date(now.getTime() + 3_600_000), hoursAgo(2)),
		link(gone.id, hoursAgo(30), null),
		link(gone.id, new Date(now.getTime() + 86_400_000 * 3), hoursAgo(30)),
	]
	await t.db.insert(portalMagicLinks).values(links)

	await createPortalCleanupQueue(() => ({ db: t.db, now: () => now })).handle({})

	const sessions = await t.db.select({ memberId: portalSessions.memberId }).from(portalSessions)
	expect(sessions.map((s) => s.memberId)).toContain(live.id)
	expect(sessions.map((s) => s.memberId)).not.toContain(gone.id)
	const kept = await t.db.select({ id: portalMagicLinks.id }).from(portalMagicLinks)
	expect(kept.map((row) => row.id).sort()).toEqual([links[0]?.id, links[1]?.id].sort())
})
