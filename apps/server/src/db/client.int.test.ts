import { randomBytes } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { afterEach, describe, expect, inject, test, vi } from 'vitest'
import { type Database, migrateDatabase, openPostgres, wrapPglite } from '#src/db/client.ts'
import { adminQuery, withDatabase } from '#src/test/global-setup.ts'

const migrationsFolder = path.join(import.meta.dirname, 'migrations')
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
	entries: Array<{ tag: string; when: number }>
}

/** A database with nothing in it, on the engine this run tests (PGlite, or PostgreSQL with DATABASE_URL). */
async function openEmptyDatabase(): Promise<Database> {
	const snapshot = inject('dbSnapshot')
	if (snapshot.kind === 'pglite') {
		return wrapPglite(await PGlite.create())
	}
	const name = `bs_test_${randomBytes(6).toString('hex')}`
	await adminQuery(snapshot.url, `create database "${name}"`)
	const database = openPostgres(withDatabase(snapshot.url, name))
	return {
		...database,
		close: async () => {
			await database.close()
			await adminQuery(snapshot.url, `drop database if exists "${name}" with (force)`)
		},
	}
}

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
	return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows
}

async function appliedMigrations(database: Database): Promise<number[]> {
	const applied = await rows<{ created_at: string | number }>(
		database,
		sql`select created_at from drizzle.__drizzle_migrations order by created_at`,
	)
	return applied.map((row) => Number(row.created_at))
}

let database: Database | undefined
afterEach(async () => {
	vi.restoreAllMocks()
	await database?.close()
	database = undefined
})

describe('migrations at start-up', () => {
	test('a new database gets every migration; a migrated one is left alone without a statement of DDL', async () => {
		database = await openEmptyDatabase()
		await migrateDatabase(database)
		expect(await appliedMigrations(database)).toEqual(journal.entries.map((entry) => entry.when))

		// The second start: two reads, then nothing. Drizzle's migrator would run CREATE SCHEMA and
		// CREATE TABLE IF NOT EXISTS and an empty transaction; on PostgreSQL it would first take a
		// connection for the advisory lock.
		const current = database
		if (current.kind === 'pglite') {
			const query = vi.spyOn(current.pglite, 'query')
			const exec = vi.spyOn(current.pglite, 'exec')
			const transaction = vi.spyOn(current.pglite, 'transaction')
			await migrateDatabase(current)
			expect(query).toHaveBeenCalledTimes(2)
			expect(exec).not.toHaveBeenCalled()
			expect(transaction).not.toHaveBeenCalled()
		} else {
			const connect = vi.spyOn(current.pool, 'connect')
			const query = vi.spyOn(current.pool, 'query')
			await migrateDatabase(current)
			expect(query).toHaveBeenCalledTimes(2)
			// pg's Pool.query takes a connection for each query itself; the advisory lock would take
			// one more, held on its own.
			expect(connect).toHaveBeenCalledTimes(query.mock.calls.length)
		}
	})

	test('a database one migration behind gets that migration', async () => {
		database = await openEmptyDatabase()
		// The database as the previous release left it: every migration but the newest.
		const previous = mkdtempSync(path.join(os.tmpdir(), 'bs-migrations-'))
		try {
			cpSync(migrationsFolder, previous, { recursive: true })
			writeFileSync(
				path.join(previous, 'meta/_journal.json'),
				JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }),
			)
			if (database.kind === 'pglite') {
				await migratePglite(database.db as Parameters<typeof migratePglite>[0], { migrationsFolder: previous })
			} else {
				await migratePg(database.db as Parameters<typeof migratePg>[0], { migrationsFolder: previous })
			}
		} finally {
			rmSync(previous, { recursive: true, force: true })
		}
		expect(await appliedMigrations(database)).toEqual(journal.entries.slice(0, -1).map((entry) => entry.when))

		await migrateDatabase(database)
		expect(await appliedMigrations(database)).toEqual(journal.entries.map((entry) => entry.when))
	})
})

describe('PGlite on the server thread', () => {
	test('statements start one per turn of the event loop, so sockets are served between them', async () => {
		const pglite = await PGlite.create()
		const database = wrapPglite(pglite)
		try {
			// A callback that reschedules itself every turn stands for the sockets waiting to be served.
			let turns = 0
			let isWaiting = true
			const turn = () => {
				turns++
				if (isWaiting) {
					setImmediate(turn)
				}
			}
			setImmediate(turn)
			const results = await Promise.all([
				...Array.from({ length: 20 }, (_, index) => pglite.query<{ n: number }>(`select ${index} as n`)),
				pglite.transaction(async (tx) => (await tx.query<{ n: number }>('select 20 as n')).rows[0]?.n),
			])
			isWaiting = false
			// Without the gate they all ran in one turn, back to back.
			expect(turns).toBeGreaterThanOrEqual(20)
			// In the order asked, each with its own answer.
			expect(results.slice(0, 20).map((result) => (result as { rows: { n: number }[] }).rows[0]?.n)).toEqual(
				Array.from({ length: 20 }, (_, index) => index),
			)
			expect(results[20]).toBe(20)
			// A failed statement leaves the next ones to run.
			await expect(pglite.query('select * from no_such_table')).rejects.toThrow(/no_such_table/)
			expect((await pglite.query<{ n: number }>('select 1 as n')).rows[0]?.n).toBe(1)
		} finally {
			await database.close()
		}
	})
})
