import { and, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { TestApp } from '#src/test/test-app.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'

// Time tracking tests' shared steps: the sample workspace with its Time entries mapped as
// suggested, waiting for deliveries, and a row as stored.

type Property = { id: string; name: string; type: string }
export type Database = { id: string; name: string; properties: Property[] }
export type Check = { field: string; propertyId: string | null; propertyName: string | null; isMapped: boolean }
type Review = { mapping: Record<string, unknown>; fields: Check[]; isComplete: boolean }
export type TimeDatabase = { id: string; name: string; saved: Review | null; suggested: Review }

export async function until<T>(
	what: string,
	read: () => Promise<T>,
	isDone: (value: T) => boolean,
	timeoutMs = 20_000,
) {
	const deadline = Date.now() + timeoutMs
	let last = await read()
	while (!isDone(last)) {
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last).slice(0, 800)}`)
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
		last = await read()
	}
	return last
}

/** A new sample workspace: its databases by name. */
export async function sample(t: TestApp, token: string) {
	const created = await t.request('POST', '/dashboard/workspaces/sample', { token })
	expect(created.status).toBe(201)
	const workspaceId = created.body.workspace.id as string
	const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${workspaceId}`, { token })
	const byName = Object.fromEntries((list.body as Database[]).map((database) => [database.name, database]))
	return { workspaceId, byName: byName as Record<string, Database> }
}

export const idOf = (database: Database, name: string) => database.properties.find((p) => p.name === name)?.id

export async function timeDatabase(t: TestApp, token: string, id: string): Promise<TimeDatabase> {
	const response = await t.request('GET', `/dashboard/local_time/databases/${id}`, { token })
	expect(response.status).toBe(200)
	return response.body
}

/** The sample's Time entries with the suggested mapping saved. */
export async function mappedSample(t: TestApp, token: string) {
	const { workspaceId, byName } = await sample(t, token)
	const entries = byName['Time entries'] as Database
	const suggested = (await timeDatabase(t, token, entries.id)).suggested
	const saved = await t.request('PUT', `/dashboard/local_time/databases/${entries.id}`, {
		token,
		json: { mapping: suggested.mapping },
	})
	expect(saved.status).toBe(200)
	return { workspaceId, byName, entries }
}

/** The row as stored (the rows API pages through a database; one row is enough here). */
export async function storedRow(t: TestApp, databaseId: string, rowId: string) {
	const [stored] = await t.db
		.select()
		.from(workspaceRows)
		.where(and(eq(workspaceRows.id, rowId), eq(workspaceRows.databaseId, databaseId)))
	expect(stored).toBeDefined()
	return stored as { values: Record<string, unknown>; title: string }
}
