import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { nextNumber } from './invoices.numbering.ts'
import type { DocumentKind } from './invoices.schema.ts'

// The gapless allocator on the app's own database (PGlite, or PostgreSQL with DATABASE_URL):
// concurrent transactions get consecutive unique numbers, a rolled-back one gives its number to
// the next, counters restart by year or month, credit notes count on their own, a number
// issued before a change of pattern or reset is skipped, and another organization's profile
// is not found.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const settings = '/dashboard/local_invoice/settings'
const address = { lines: [], postcode: '10115', city: 'Berlin', country: 'DE' }

async function profileOf(numbering?: unknown) {
	const owner = await t.signUp()
	const org = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
	const created = await t.request('POST', settings, {
		token: owner.token,
		json: { legalName: 'Acme GmbH', address, ...(numbering ? { numbering } : {}) },
	})
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	return { token: owner.token, orgId: org.body.id as string, profileId: created.body.id as string }
}

type Profile = Awaited<ReturnType<typeof profileOf>>

/** One number in a transaction of its own, as a finalization takes it. */
function allocate(profile: Profile, day: string, kind: DocumentKind = 'invoice') {
	return t.db.transaction(async (tx) => (await nextNumber(tx, profile.orgId, profile.profileId, kind, day)).number)
}

describe('invoice numbers', () => {
	test('50 finalizations at once get 50 consecutive unique numbers', async () => {
		const profile = await profileOf()
		const numbers = await Promise.all(
			Array.from({ length: 50 }, (_, index) =>
				// Each transaction does some work of its own before and after it takes its number.
				t.db.transaction(async (tx) => {
					await tx.execute(sql`select 1`)
					const { number } = await nextNumber(tx, profile.orgId, profile.profileId, 'invoice', '2026-03-09')
					if (index % 7 === 0) {
						await new Promise((resolve) => setTimeout(resolve, 5))
					}
					await tx.execute(sql`select 1`)
					return number
				}),
			),
		)
		expect(new Set(numbers).size).toBe(50)
		expect([...numbers].sort()).toEqual(
			Array.from({ length: 50 }, (_, index) => `INV-2026-${String(index + 1).padStart(4, '0')}`),
		)
		expect(await allocate(profile, '2026-03-10')).toBe('INV-2026-0051')
	})

	test('a rolled-back finalization leaves no gap: the next one gets its number', async () => {
		const profile = await profileOf()
		expect(await allocate(profile, '2026-05-01')).toBe('INV-2026-0001')
		let taken = ''
		await expect(
			t.db.transaction(async (tx) => {
				taken = (await nextNumber(tx, profile.orgId, profile.profileId, 'invoice', '2026-05-02')).number
				throw new Error('the PDF could not be made')
			}),
		).rejects.toThrow(/PDF/)
		expect(taken).toBe('INV-2026-0002')
		expect(await allocate(profile, '2026-05-02')).toBe('INV-2026-0002')
		// Concurrent with failures: the committed ones are still consecutive.
		const results = await Promise.allSettled(
			Array.from({ length: 20 }, (_, index) =>
				t.db.transaction(async (tx) => {
					const { number } = await nextNumber(tx, profile.orgId, profile.profileId, 'invoice', '2026-05-03')
					if (index % 3 === 0) {
						throw new Error('rolled back')
					}
					return number
				}),
			),
		)
		const committed = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
		expect(committed).toHaveLength(13)
		expect(committed.sort()).toEqual(
			Array.from({ length: 13 }, (_, index) => `INV-2026-${String(index + 3).padStart(4, '0')}`),
		)
	})

	test('a yearly counter restarts each year; credit notes have their own sequence', async () => {
		const profile = await profileOf()
		expect(await allocate(profile, '2026-12-30')).toBe('INV-2026-0001')
		expect(await allocate(profile, '2026-12-31')).toBe('INV-2026-0002')
		expect(await allocate(profile, '2026-12-31', 'credit_note')).toBe('CN-2026-0001')
		expect(await allocate(profile, '2027-01-01')).toBe('INV-2027-0001')
		expect(await allocate(profile, '2027-01-01', 'credit_note')).toBe('CN-2027-0001')
		// A late invoice dated in the old year continues that year's sequence.
		expect(await allocate(profile, '2026-12-31')).toBe('INV-2026-0003')
	})

	test('a monthly counter restarts each month; one that never resets goes on', async () => {
		const monthly = await profileOf({
			invoice: { pattern: 'R{YY}{MM}-{counter:3}', reset: 'monthly' },
			creditNote: { pattern: 'G{YY}{MM}-{counter:3}', reset: 'monthly' },
		})
		expect(await allocate(monthly, '2026-01-31')).toBe('R2601-001')
		expect(await allocate(monthly, '2026-01-31')).toBe('R2601-002')
		expect(await allocate(monthly, '2026-02-01')).toBe('R2602-001')
		expect(await allocate(monthly, '2027-01-15')).toBe('R2701-001')
		const never = await profileOf({
			invoice: { pattern: '{counter}', reset: 'never' },
			creditNote: { pattern: 'CN{counter}', reset: 'never' },
		})
		expect(await allocate(never, '2026-12-31')).toBe('1')
		expect(await allocate(never, '2027-01-01')).toBe('2')
	})

	test('after the reset changes, numbers issued before are skipped, never issued twice; the settings show the next one', async () => {
		const profile = await profileOf({
			invoice: { pattern: 'INV-{YYYY}-{counter:4}', reset: 'never' },
			creditNote: { pattern: 'CN-{YYYY}-{counter:4}', reset: 'never' },
		})
		const today = new Date().toISOString().slice(0, 10)
		const year = today.slice(0, 4)
		for (const expected of ['0001', '0002', '0003']) {
			expect(await allocate(profile, today)).toBe(`INV-${year}-${expected}`)
		}
		const shown = await t.request('GET', `${settings}/${profile.profileId}`, { token: profile.token })
		expect(shown.body.nextNumbers).toEqual({ invoice: `INV-${year}-0004`, creditNote: `CN-${year}-0001` })
		const changed = await t.request('PATCH', `${settings}/${profile.profileId}`, {
			token: profile.token,
			json: {
				numbering: {
					invoice: { pattern: 'INV-{YYYY}-{counter:4}', reset: 'yearly' },
					creditNote: { pattern: 'CN-{YYYY}-{counter:4}', reset: 'yearly' },
				},
			},
		})
		expect(changed.status).toBe(200)
		// The year's new counter starts at 1, but 1–3 of this year were issued under the old reset.
		expect(changed.body.nextNumbers.invoice).toBe(`INV-${year}-0004`)
		expect(await allocate(profile, today)).toBe(`INV-${year}-0004`)
		expect(await allocate(profile, today)).toBe(`INV-${year}-0005`)
	})

	test("a profile with numbered documents is kept; another organization's profile is not found", async () => {
		const profile = await profileOf()
		const stranger = await profileOf()
		await expect(
			t.db.transaction((tx) => nextNumber(tx, profile.orgId, stranger.profileId, 'invoice', '2026-01-01')),
		).rejects.toMatchObject({ code: 'NOT_FOUND' })
		await expect(
			t.db.transaction((tx) => nextNumber(tx, profile.orgId, profile.profileId, 'invoice', '2026-1-1')),
		).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'issueDate' }] })
		await allocate(profile, '2026-01-01')
		const refused = await t.request('DELETE', `${settings}/${profile.profileId}`, { token: profile.token })
		expect(refused.status).toBe(409)
		expect(refused.body.code).toBe('CONFLICT')
		// One never numbered from can go.
		const unused = await t.request('DELETE', `${settings}/${stranger.profileId}`, { token: stranger.token })
		expect(unused.status).toBe(200)
	})
})
