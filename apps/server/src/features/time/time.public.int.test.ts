import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { AppError } from '#src/lib/errors.ts'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { expected, trackedWeek } from '#src/test/time-reports.ts'
import { markBilled, unbilledTime, unmarkBilled } from './time.public.ts'

// The hand-off to invoices: a view's unbilled billable time equals its analytics while nothing
// is billed; rows marked billed leave the next call and come back when the invoice is voided;
// marking is idempotent for one invoice and refused, whole, for another; another
// organization's rows and databases cannot be marked.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

type Group = { key: string; label: string; billableSeconds: number; amount: number | null }

async function refusal(promise: Promise<unknown>) {
	const error = await promise.then(
		() => null,
		(caught: unknown) => caught,
	)
	expect(error).toBeInstanceOf(AppError)
	return error as AppError
}

describe('unbilled time', () => {
	test('equals the analytics of the billable entries, and marked rows leave it', async () => {
		const team = await teamWithEveryRole(t)
		const { owner } = team
		const { viewId, databaseId, p1, p2, rows } = await trackedWeek(t, team)
		const deps = t.services.time.deps

		const analytics = await t.request('GET', `/dashboard/local_time/views/${viewId}/analytics`, { token: owner.token })
		const billableGroups = (analytics.body.groups.project as Group[]).filter((group) => group.billableSeconds > 0)
		const response = await t.request('GET', `/dashboard/local_time/views/${viewId}/unbilled?groupBy=project`, {
			token: team.member.token,
		})
		expect(response.status).toBe(200)
		expect(response.body).toEqual({
			viewId,
			currency: 'EUR',
			lines: [
				{
					key: p1.id,
					description: p1.title,
					seconds: expected.p1.seconds,
					rate: 12050,
					amount: expected.p1.amount,
					rowIds: [rows.a.externalId, rows.c.externalId].sort(),
				},
				{
					key: p2.id,
					description: p2.title,
					seconds: expected.p2.seconds,
					rate: 10000,
					amount: expected.p2.amount,
					rowIds: [rows.e.externalId],
				},
			],
			total: { seconds: expected.billableSeconds, amount: expected.amount },
		})
		expect(
			response.body.lines.map((line: { key: string; seconds: number; amount: number | null }) => [
				line.key,
				line.seconds,
				line.amount,
			]),
		).toEqual(billableGroups.map((group) => [group.key, group.billableSeconds, group.amount]))

		// By task: Design is billed at two rates (p1's and the default), so it is two lines.
		const byTask = await unbilledTime(deps, team.orgId, 'local', viewId, 'task')
		expect(byTask.lines.map((line) => [line.description, line.seconds, line.rate, line.amount])).toEqual([
			['Design (120.50 EUR/h)', 9900, 12050, 33138],
			['Design (100.00 EUR/h)', 4500, 10000, 12500],
			['Build', 1800, 12050, 6025],
		])

		// Invoice 1 bills A: only C is left of p1.
		expect(await markBilled(deps, team.orgId, databaseId, [rows.a.externalId], 'INV-1')).toEqual({ marked: 1 })
		const after = await unbilledTime(deps, team.orgId, 'local', viewId, 'project')
		expect(after.lines.map((line) => [line.key, line.seconds, line.amount, line.rowIds])).toEqual([
			[p2.id, 4500, 12500, [rows.e.externalId]],
			[p1.id, 1800, 6025, [rows.c.externalId]],
		])
		expect(after.total).toEqual({ seconds: 6300, amount: 18525 })
		// Again for the same invoice: nothing changes.
		expect(await markBilled(deps, team.orgId, databaseId, [rows.a.externalId], 'INV-1')).toEqual({ marked: 0 })
		// Another invoice may not bill A again, and C is not marked by the refused call either.
		const taken = await refusal(
			markBilled(deps, team.orgId, databaseId, [rows.c.externalId, rows.a.externalId], 'INV-2'),
		)
		expect(taken.code).toBe('CONFLICT')
		expect((await unbilledTime(deps, team.orgId, 'local', viewId, 'project')).lines).toHaveLength(2)

		// Invoice 1 voided: A is unbilled again.
		expect(await unmarkBilled(deps, team.orgId, databaseId, null, 'INV-1')).toEqual({ unmarked: 1 })
		expect((await unbilledTime(deps, team.orgId, 'local', viewId, 'project')).total).toEqual({
			seconds: expected.billableSeconds,
			amount: expected.amount,
		})
	})

	test('running and non-billable entries are not offered; a non-billable view has nothing', async () => {
		const team = await teamWithEveryRole(t)
		const { viewId, databaseId } = await trackedWeek(t, team)
		const deps = t.services.time.deps
		const started = await t.request('POST', '/dashboard/local_time/timer/start', {
			token: team.owner.token,
			json: { databaseId, description: 'Still going', billable: true },
		})
		expect(started.status).toBe(201)
		// An hour on: the timer has run an hour, counted in the analytics but not offered.
		const realNow = deps.now
		deps.now = () => new Date(Date.now() + 3600_000)
		try {
			const view = await t.request('PATCH', `/dashboard/local_time/views/${viewId}`, {
				token: team.owner.token,
				json: {
					settings: {
						range: { kind: 'relative', preset: 'all_time' },
						timeZone: 'Europe/Berlin',
						rounding: { mode: 'up', minutes: 15, scope: 'entry' },
					},
				},
			})
			expect(view.status).toBe(200)
			const analytics = await t.request('GET', `/dashboard/local_time/views/${viewId}/analytics`, {
				token: team.owner.token,
			})
			expect(analytics.body.running).toBe(1)
			expect(analytics.body.totals.billableSeconds).toBeGreaterThanOrEqual(16200 + 3600)
			const unbilled = await unbilledTime(deps, team.orgId, 'local', viewId, 'project')
			expect(unbilled.total.seconds).toBe(16200)
			await t.request('PATCH', `/dashboard/local_time/views/${viewId}`, {
				token: team.owner.token,
				json: { settings: { ...view.body.settings, billable: 'non_billable' } },
			})
			expect((await unbilledTime(deps, team.orgId, 'local', viewId, 'project')).lines).toEqual([])
		} finally {
			deps.now = realNow
		}
	})

	test("another organization's rows, databases and views cannot be reached", async () => {
		const team = await teamWithEveryRole(t)
		const { viewId, databaseId, rows } = await trackedWeek(t, team)
		const other = await teamWithEveryRole(t)
		const theirs = await trackedWeek(t, other)
		const deps = t.services.time.deps

		// Their database, from our organization: 404.
		const foreignDatabase = await refusal(
			markBilled(deps, team.orgId, theirs.databaseId, [theirs.rows.a.externalId], 'X'),
		)
		expect(foreignDatabase.code).toBe('NOT_FOUND')
		// Their row in our database: not one of its rows.
		const foreignRow = await refusal(markBilled(deps, team.orgId, databaseId, [theirs.rows.a.externalId], 'X'))
		expect(foreignRow.code).toBe('VALIDATION_FAILED')
		expect(foreignRow.errors?.map((error) => error.field)).toEqual(['externalRowIds'])
		// Nothing of theirs was marked.
		expect((await unbilledTime(deps, other.orgId, 'local', theirs.viewId, 'project')).total.amount).toBe(
			expected.amount,
		)
		// Nor can we void their invoices.
		await markBilled(deps, other.orgId, theirs.databaseId, [theirs.rows.a.externalId], 'THEIRS')
		expect((await refusal(unmarkBilled(deps, team.orgId, theirs.databaseId, null, 'THEIRS'))).code).toBe('NOT_FOUND')
		expect((await unbilledTime(deps, other.orgId, 'local', theirs.viewId, 'project')).total.seconds).toBe(6300)

		// Their view, through the route and the module: 404; a bad grouping is a 400 naming it.
		const route = await t.request('GET', `/dashboard/local_time/views/${theirs.viewId}/unbilled`, {
			token: team.owner.token,
		})
		expect(route.status).toBe(404)
		expect((await refusal(unbilledTime(deps, team.orgId, 'local', theirs.viewId, 'project'))).code).toBe('NOT_FOUND')
		expect((await refusal(unbilledTime(deps, team.orgId, 'notion', viewId, 'project'))).code).toBe('NOT_FOUND')
		const bad = await t.request('GET', `/dashboard/local_time/views/${viewId}/unbilled?groupBy=client`, {
			token: team.owner.token,
		})
		expect(bad.status).toBe(400)
		expect(bad.body.errors.map((error: { field: string }) => error.field)).toEqual(['groupBy'])
		// Empty or oversized requests are refused naming the field.
		const empty = await refusal(markBilled(deps, team.orgId, databaseId, [], 'X'))
		expect(empty.errors?.map((error) => error.field)).toEqual(['externalRowIds'])
		const noInvoice = await refusal(markBilled(deps, team.orgId, databaseId, [rows.a.externalId], ' '))
		expect(noInvoice.errors?.map((error) => error.field)).toEqual(['invoiceRef'])
	})
})
