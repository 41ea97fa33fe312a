import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectAbsent, recorded, runContributor } from '#src/test/export-archive.ts'
import { insertSamplePortal, memberWithSession, rowIdByTitle } from '#src/test/portals.ts'
import { accountWithSample } from '#src/test/portals-setup.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { createPortalsExport } from './portals.public.ts'
import { portalMagicLinks, portalMembers, portalSessions, portals } from './portals.schema.ts'

// The portals part of an organization's export: every portal's setup, its members with their
// links, and no password hash, session or sign-in link token; nothing of another organization's.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

describe('portals export', () => {
	test('setups and members, without hashes or tokens', async () => {
		const account = await accountWithSample(t)
		const portal = await insertSamplePortal(t, account.orgId, account.databases, { name: 'Acme portal' })
		const companyRowId = await rowIdByTitle(t, account.databases.Clients?.id as string, 'Acme Ltd')
		const member = await memberWithSession(t, portal, { email: 'Ada@Example.com', companyRowId })
		const passwordHash = 'salt0123456789abcdef:hash0123456789abcdef0123456789'
		await t.db.update(portalMembers).set({ passwordHash, name: 'Ada' }).where(eq(portalMembers.id, member.id))
		const linkHash = `magic-link-hash-${randomUUID()}`
		await t.db.insert(portalMagicLinks).values({
			id: randomUUID(),
			organizationId: account.orgId,
			portalId: portal.id,
			memberId: member.id,
			tokenHash: linkHash,
			expiresAt: new Date(Date.now() + 60_000),
		})
		const other = await accountWithSample(t)
		const theirs = await insertSamplePortal(t, other.orgId, other.databases)
		const theirMember = await memberWithSession(t, theirs, { email: 'not-theirs@example.com' })

		const archive = await runContributor(t, createPortalsExport(), account.orgId)

		expect(recorded(archive, 'portals')).toEqual([portal.id])
		expect(recorded(archive, 'portalMembers')).toEqual([member.id])
		const [stored] = await t.db.select().from(portals).where(eq(portals.id, portal.id))
		expect(archive.json('portals/portals.json')).toEqual([
			expect.objectContaining({
				id: portal.id,
				name: 'Acme portal',
				slug: stored?.slug,
				access: stored?.access,
				pages: stored?.pages,
				branding: stored?.branding,
			}),
		])
		const members = Papa.parse<Record<string, string>>(archive.text('portals/members.csv'), {
			header: true,
			skipEmptyLines: true,
		}).data
		expect(members).toEqual([
			expect.objectContaining({
				id: member.id,
				portalId: portal.id,
				email: 'ada@example.com',
				name: 'Ada',
				status: 'active',
				companyRowId,
				hasPassword: 'true',
			}),
		])

		const [session] = await t.db.select().from(portalSessions).where(eq(portalSessions.memberId, member.id))
		expectAbsent(archive, passwordHash)
		expectAbsent(archive, linkHash)
		expectAbsent(archive, session?.tokenHash as string)
		expectAbsent(archive, member.token)
		expectAbsent(archive, theirs.id)
		expectAbsent(archive, theirMember.id)
	})
})
