import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { subscriptions } from '#src/core/subscriptions/subscriptions.schema.ts'
import { publishedEnquiryForm } from '#src/test/forms.ts'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { organizationDeletions } from './deletion.schema.ts'

// Deleting an organization and restoring it (decision 040): owners only, confirmed by the exact
// name; while scheduled the dashboard answers ORGANIZATION_DELETING except on the paths that
// stay open, public pages are gone and the subscription has ended; restored, the dashboard
// works again and the subscription stays canceled until an owner subscribes again.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

async function nameOf(token: string): Promise<string> {
	return (await t.request('GET', '/dashboard/users/get_org_details', { token })).body.name as string
}

describe('deleting an organization', () => {
	test('only an owner, only with its exact name', async () => {
		const team = await teamWithEveryRole(t)
		const name = await nameOf(team.owner.token)
		for (const account of [team.admin, team.member]) {
			const refused = await t.request('POST', '/dashboard/organization/delete', {
				token: account.token,
				json: { name },
			})
			expect(refused.status).toBe(403)
			expect(refused.body.code).toBe('FORBIDDEN')
		}
		for (const wrong of ['', name.toUpperCase(), `${name}x`, name.slice(1)]) {
			const refused = await t.request('POST', '/dashboard/organization/delete', {
				token: team.owner.token,
				json: { name: wrong },
			})
			expect(refused.status).toBe(400)
			expect(refused.body.code).toBe('VALIDATION_FAILED')
			expect(refused.body.errors.map((error: { field: string }) => error.field)).toEqual(['name'])
		}
		const missing = await t.request('POST', '/dashboard/organization/delete', { token: team.owner.token, json: {} })
		expect(missing.status).toBe(400)
		const rows = await t.db
			.select()
			.from(organizationDeletions)
			.where(eq(organizationDeletions.organizationId, team.orgId))
		expect(rows).toEqual([])
	})

	test('closes the dashboard except what stays open; restore by an owner opens it again, the subscription stays ended', async () => {
		const team = await teamWithEveryRole(t)
		const other = await t.signUp({ name: 'Other Owner' })
		const { form } = await publishedEnquiryForm(t, team.owner.token)
		expect((await t.request('GET', `/api/forms/${form.id}`)).status).toBe(200)
		const name = await nameOf(team.owner.token)
		const restoreEarly = await t.request('POST', '/dashboard/organization/restore', { token: team.owner.token })
		expect(restoreEarly.status).toBe(409)
		expect(restoreEarly.body.code).toBe('CONFLICT')

		const before = Date.now()
		const deleted = await t.request('POST', '/dashboard/organization/delete', {
			token: team.owner.token,
			json: { name },
		})
		expect(deleted.status).toBe(200)
		const purgeAfter = Date.parse(deleted.body.deletion.purgeAfter)
		const graceMs = t.config.deletion.graceDays * 86_400_000
		expect(purgeAfter).toBeGreaterThanOrEqual(before + graceMs - 1000)
		expect(purgeAfter).toBeLessThanOrEqual(Date.now() + graceMs + 1000)
		expect(deleted.body.deletion.requestedBy).toBe('Olive Owner')

		// The public form is gone at once; the subscription has ended.
		const page = await t.request('GET', `/api/forms/${form.id}`)
		expect(page.status).toBe(409)
		expect(page.body.code).toBe('UNAVAILABLE')
		const [subscription] = await t.db
			.select({ status: subscriptions.status })
			.from(subscriptions)
			.where(eq(subscriptions.organizationId, team.orgId))
		expect(subscription?.status).toBe('canceled')

		for (const account of [team.owner, team.admin, team.member]) {
			for (const [method, path] of [
				['GET', '/dashboard/forms'],
				['GET', '/dashboard/team_invites/all_members'],
				['GET', '/dashboard/local/databases'],
				['GET', '/dashboard/local_invoice/invoices'],
			] as const) {
				const closed = await t.request(method, path, { token: account.token })
				expect(closed.status, `${method} ${path}`).toBe(409)
				expect(closed.body.code).toBe('ORGANIZATION_DELETING')
			}
			const details = await t.request('GET', '/dashboard/users/get_org_details', { token: account.token })
			expect(details.status).toBe(200)
			expect(details.body.deletion).toMatchObject({ requestedBy: 'Olive Owner' })
			expect((await t.request('GET', '/dashboard/organizations', { token: account.token })).status).toBe(200)
		}
		// Deleting again is closed too; exports stay open to owners and admins.
		const again = await t.request('POST', '/dashboard/organization/delete', { token: team.owner.token, json: { name } })
		expect(again.body.code).toBe('ORGANIZATION_DELETING')
		expect((await t.request('GET', '/dashboard/exports', { token: team.admin.token })).status).toBe(200)
		// Another organization's members work as before.
		expect((await t.request('GET', '/dashboard/forms', { token: other.token })).status).toBe(200)

		// A member moves to another organization of theirs: there, everything works.
		const made = await t.request('POST', '/dashboard/organizations', {
			token: team.member.token,
			json: { name: 'Elsewhere' },
		})
		expect(made.status, JSON.stringify(made.body)).toBeLessThan(300)
		const switched = await t.request('POST', `/dashboard/organizations/${made.body.id}/switch`, {
			token: team.member.token,
		})
		expect(switched.status).toBe(200)
		expect((await t.request('GET', '/dashboard/forms', { token: team.member.token })).status).toBe(200)

		for (const account of [team.admin]) {
			const refused = await t.request('POST', '/dashboard/organization/restore', { token: account.token })
			expect(refused.status).toBe(403)
		}
		const restored = await t.request('POST', '/dashboard/organization/restore', { token: team.owner.token })
		expect(restored.status).toBe(200)
		expect((await t.request('GET', '/dashboard/forms', { token: team.admin.token })).status).toBe(200)
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: team.owner.token })
		expect(details.body.deletion).toBeNull()
		// Restoring does not start the ended subscription again: the form stays unavailable until an owner subscribes.
		expect(details.body.subscriptionState).toBe('canceled')
		expect((await t.request('GET', `/api/forms/${form.id}`)).body.code).toBe('UNAVAILABLE')
		const restoredTwice = await t.request('POST', '/dashboard/organization/restore', { token: team.owner.token })
		expect(restoredTwice.status).toBe(409)
	})
})
