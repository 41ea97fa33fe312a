import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { chartProjections } from './charts.schema.ts'

// The typed projection in the running app (decision 022): a chart computed on a database with
// no projection asks for one; the job builds it; a row edit makes it stale (figures read the
// mirror and stay right) until the job builds it again.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

type Database = { id: string; name: string; properties: { id: string; name: string; type: string }[] }

describe('the typed projection', () => {
	test('is built when a chart needs it, and rebuilt after the rows change', async () => {
		const owner = await t.signUp()
		const sample = await t.request('POST', '/dashboard/workspaces/sample', { token: owner.token })
		const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${sample.body.workspace.id}`, {
			token: owner.token,
		})
		const invoices = (list.body as Database[]).find((database) => database.name === 'Invoices') as Database
		const amount = invoices.properties.find((property) => property.name === 'Amount')?.id as string
		const config = { type: 'number', series: [{ id: 's', aggregation: 'sum', property: amount }] }
		const preview = () =>
			t.request('POST', '/dashboard/local_charts/preview', {
				token: owner.token,
				json: { databaseId: invoices.id, config },
			})
		const projection = () => t.db.select().from(chartProjections).where(eq(chartProjections.databaseId, invoices.id))

		const before = await preview()
		expect(before.status).toBe(200)
		const built = await until('the projection', projection, (rows) => rows.length === 1)
		const version = built[0]?.rowsVersion

		const rows = await t.request('GET', `/dashboard/local/databases/${invoices.id}/rows?limit=1`, {
			token: owner.token,
		})
		const row = rows.body.rows[0] as { id: string; values: Record<string, unknown> }
		const was = typeof row.values[amount] === 'number' ? (row.values[amount] as number) : 0
		await t.request('PATCH', `/dashboard/local/databases/${invoices.id}/rows/${row.id}`, {
			token: owner.token,
			json: { values: { [amount]: was + 500 } },
		})
		// Stale now: the figures come from the mirror, with the edit in them.
		const after = await preview()
		expect(after.body.figures.kpi.value).toBeCloseTo(before.body.figures.kpi.value + 500, 6)
		const rebuilt = await until('the rebuild', projection, (found) => found[0]?.rowsVersion !== version)
		expect(rebuilt).toHaveLength(1)
		const fromProjection = await preview()
		expect(fromProjection.body.figures.kpi.value).toBeCloseTo(after.body.figures.kpi.value, 6)
	})

	test('holds only what charts read, and grows when a chart reads another property', async () => {
		const owner = await t.signUp()
		const sample = await t.request('POST', '/dashboard/workspaces/sample', { token: owner.token })
		const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${sample.body.workspace.id}`, {
			token: owner.token,
		})
		const invoices = (list.body as Database[]).find((database) => database.name === 'Invoices') as Database
		const propertyId = (name: string) => invoices.properties.find((property) => property.name === name)?.id as string
		const amount = propertyId('Amount')
		const status = propertyId('Status')
		const created = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: {
				databaseId: invoices.id,
				name: 'Amounts',
				config: { type: 'number', series: [{ id: 's', aggregation: 'sum', property: amount }] },
			},
		})
		expect(created.status).toBe(201)
		const projection = () => t.db.select().from(chartProjections).where(eq(chartProjections.databaseId, invoices.id))
		const figures = (id: string) =>
			t.request('GET', `/dashboard/local_charts/charts/${id}/render`, { token: owner.token })

		await figures(created.body.id)
		const built = await until('the projection', projection, (rows) => rows.length === 1)
		expect(Object.keys(built[0]?.columns ?? {})).toEqual([amount])

		// A second chart by status: its first read comes from the mirror and asks for the column.
		const byStatus = await t.request('POST', '/dashboard/local_charts/charts', {
			token: owner.token,
			json: {
				databaseId: invoices.id,
				name: 'By status',
				config: { type: 'bar', x: { property: status }, series: [{ id: 's', aggregation: 'count' }] },
			},
		})
		const fromMirror = await figures(byStatus.body.id)
		const grown = await until('the wider projection', projection, (rows) => Boolean(rows[0]?.columns[status]))
		expect(Object.keys(grown[0]?.columns ?? {}).sort()).toEqual([amount, status].sort())
		const fromProjection = await t.request('POST', '/dashboard/local_charts/preview', {
			token: owner.token,
			json: { databaseId: invoices.id, config: byStatus.body.config },
		})
		expect(fromProjection.body.figures.series).toEqual(fromMirror.body.figures.series)
	})
})
