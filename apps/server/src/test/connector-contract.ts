import type { Property, RowValues } from '@blocksmith/contracts/workspaces.ts'
import { describe, expect, test } from 'vitest'
import type { ExternalDatabase, WorkspaceConnector } from '#src/workspaces/connector.ts'
import { sameValue } from '#src/workspaces/values.ts'

/** What each connector's test file provides: a connector and a database with every writable type. */
export type ContractSetup = {
	connector: WorkspaceConnector
	/** Its properties include one of each writable type; the relation points at `relationTarget`. */
	database: ExternalDatabase
	/** Two row ids in the related database. */
	relationTargets: [string, string]
	/** A person's id in the workspace. */
	personId: string
	/** Makes later edits carry a later `last_edited_time` than earlier ones (Notion's are by the minute). */
	tick: () => Promise<void>
}

function propertyOf(database: ExternalDatabase, type: Property['type']): Property {
	const property = database.properties.find((p) => p.type === type)
	if (!property) {
		throw new Error(`the contract database has no ${type} property`)
	}
	return property
}

function everyValue(setup: ContractSetup, title: string): RowValues {
	const { database } = setup
	const option = (type: Property['type'], index = 0) => propertyOf(database, type).options?.[index]?.name ?? null
	return {
		[propertyOf(database, 'title').id]: title,
		[propertyOf(database, 'rich_text').id]: `Notes for ${title}, ${'long '.repeat(500)}`,
		[propertyOf(database, 'number').id]: 1234.5,
		[propertyOf(database, 'select').id]: option('select', 1),
		[propertyOf(database, 'multi_select').id]: [option('multi_select', 0), option('multi_select', 1)].filter(
			(name): name is string => name !== null,
		),
		[propertyOf(database, 'status').id]: option('status', 0),
		[propertyOf(database, 'date').id]: { start: '2026-04-01', end: '2026-04-03', timeZone: null },
		[propertyOf(database, 'checkbox').id]: true,
		[propertyOf(database, 'url').id]: 'https://example.com/brief',
		[propertyOf(database, 'email').id]: 'client@example.com',
		[propertyOf(database, 'phone_number').id]: '+44 20 7946 0000',
		[propertyOf(database, 'people').id]: [setup.personId],
		[propertyOf(database, 'files').id]: [{ name: 'brief.pdf', url: 'https://example.com/brief.pdf', blobId: null }],
		[propertyOf(database, 'relation').id]: [...setup.relationTargets],
	}
}

function expectSameValues(actual: RowValues, expected: RowValues) {
	for (const [id, value] of Object.entries(expected)) {
		expect(sameValue(actual[id], value), `${id}: ${JSON.stringify(actual[id])} vs ${JSON.stringify(value)}`).toBe(true)
	}
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
	const all: T[] = []
	for await (const page of pages) {
		all.push(...page)
	}
	return all
}

/**
 * The behaviour every workspace connector promises, run against each implementation (local
 * on the real database, Notion through the official SDK against the fake server).
 */
export function describeConnectorContract(name: string, setup: () => Promise<ContractSetup>) {
	describe(`${name} connector contract`, () => {
		test('lists its databases with every writable property type', async () => {
			const s = await setup()
			const databases = await s.connector.listDatabases()
			const listed = databases.find((d) => d.externalId === s.database.externalId)
			expect(listed?.name).toBe(s.database.name)
			const types = new Set(listed?.properties.map((p) => p.type))
			for (const type of ['title', 'rich_text', 'number', 'select', 'multi_select', 'status', 'date', 'checkbox']) {
				expect(types.has(type as Property['type']), type).toBe(true)
			}
			const fetched = await s.connector.getDatabase(s.database.externalId)
			expect(fetched.properties.map((p) => p.id).sort()).toEqual(listed?.properties.map((p) => p.id).sort())
		})

		test('creates a row with a value of every writable type and reads the same values back', async () => {
			const s = await setup()
			const values = everyValue(s, 'Contract row')
			const created = await s.connector.createRow(s.database, values)
			expect(created.title).toBe('Contract row')
			expectSameValues(created.values, values)
			const read = await s.connector.getRow(s.database, created.externalId)
			expect(read).not.toBeNull()
			expectSameValues(read?.values ?? {}, values)
		})

		test('updates only the values it is given', async () => {
			const s = await setup()
			const values = everyValue(s, 'Before')
			const created = await s.connector.createRow(s.database, values)
			const number = propertyOf(s.database, 'number').id
			const title = propertyOf(s.database, 'title').id
			const updated = await s.connector.updateRow(s.database, created.externalId, { [number]: 7, [title]: 'After' })
			expect(updated.title).toBe('After')
			expect(updated.values[number]).toBe(7)
			expectSameValues(updated.values, { ...values, [number]: 7, [title]: 'After' })
		})

		test('queries every row, and incrementally only rows edited since a moment', async () => {
			const s = await setup()
			const title = propertyOf(s.database, 'title').id
			const first = await s.connector.createRow(s.database, { [title]: 'Old row' })
			await s.tick()
			const mark = await s.connector.createRow(s.database, { [title]: 'New row' })
			const all = await collect(s.connector.queryRows(s.database, {}))
			expect(all.map((r) => r.externalId)).toEqual(expect.arrayContaining([first.externalId, mark.externalId]))
			const recent = await collect(s.connector.queryRows(s.database, { editedSince: mark.lastEditedTime }))
			expect(recent.map((r) => r.externalId)).toContain(mark.externalId)
			expect(recent.map((r) => r.externalId)).not.toContain(first.externalId)
			const ids = await collect(s.connector.listRowIds(s.database))
			expect(ids).toEqual(expect.arrayContaining([first.externalId, mark.externalId]))
		})

		test('finds a row a lost create made, by its values, passing over rows already claimed', async () => {
			const s = await setup()
			const title = propertyOf(s.database, 'title').id
			const number = propertyOf(s.database, 'number').id
			const since = new Date(Date.now() - 120_000).toISOString()
			const values = { [title]: 'Submitted twice', [number]: 42 }
			const one = await s.connector.createRow(s.database, values)
			const two = await s.connector.createRow(s.database, values)
			const found = await s.connector.findCreatedRow(s.database, since, values)
			expect([one.externalId, two.externalId]).toContain(found?.externalId)
			const other = await s.connector.findCreatedRow(s.database, since, values, new Set([found?.externalId ?? '']))
			expect(other?.externalId).toBe(found?.externalId === one.externalId ? two.externalId : one.externalId)
			const none = await s.connector.findCreatedRow(s.database, since, { [title]: 'Never written' })
			expect(none).toBeNull()
		})

		test('deletes a row (gone from reads), deleting again is harmless, and restores it under its id with its values', async () => {
			const s = await setup()
			const values = everyValue(s, 'Deleted then restored')
			const created = await s.connector.createRow(s.database, values)
			const removed = await s.connector.deleteRow(s.database, created.externalId)
			expectSameValues(removed?.values ?? {}, values)
			expect(await s.connector.getRow(s.database, created.externalId)).toBeNull()
			const ids = await collect(s.connector.listRowIds(s.database))
			expect(ids).not.toContain(created.externalId)
			await s.connector.deleteRow(s.database, created.externalId)
			expect(await s.connector.getRow(s.database, created.externalId)).toBeNull()
			const restored = await s.connector.restoreRow(s.database, created.externalId, removed?.values ?? {})
			expect(restored.externalId).toBe(created.externalId)
			expectSameValues(restored.values, values)
			const read = await s.connector.getRow(s.database, created.externalId)
			expectSameValues(read?.values ?? {}, values)
			// Restoring a row that is there leaves it as it is.
			const again = await s.connector.restoreRow(s.database, created.externalId, {})
			expectSameValues(again.values, values)
		})

		test('lists people and answers null for a row that does not exist', async () => {
			const s = await setup()
			const people = await s.connector.listUsers()
			expect(people.map((p) => p.id)).toContain(s.personId)
			expect(await s.connector.getRow(s.database, '00000000-0000-4000-8000-000000000000')).toBeNull()
		})
	})
}
