import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { lockDataDir } from './lock.ts'
import * as schema from './schema.ts'

/** One Drizzle type over both drivers: code never knows which database it runs on. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export type Database =
	| { kind: 'pglite'; db: Db; pglite: PGlite; close: () => Promise<void> }
	| { kind: 'postgres'; db: Db; connectionString: string; pool: pg.Pool; close: () => Promise<void> }

const migrationsFolder = path.join(import.meta.dirname, 'migrations')

/** Opens PGlite in `dataDir/db` (default) or PostgreSQL at `databaseUrl`, and applies migrations. */
export async function openDatabase(options: { dataDir: string; databaseUrl?: string | undefined }): Promise<Database> {
	const database = options.databaseUrl
		? openPostgres(options.databaseUrl)
		: await openPglite(path.join(options.dataDir, 'db'))
	try {
		await migrateDatabase(database)
	} catch (error) {
		await database.close()
		throw error
	}
	return database
}

async function openPglite(dir: string): Promise<Database> {
	mkdirSync(dir, { recursive: true })
	const unlock = lockDataDir(path.dirname(dir))
	try {
		const pglite = await PGlite.create({ dataDir: dir })
		return wrapPglite(pglite, async () => {
			await pglite.close()
			unlock()
		})
	} catch (error) {
		unlock()
		throw error
	}
}

export function wrapPglite(pglite: PGlite, close: () => Promise<void> = () => pglite.close()): Database {
	const db = drizzlePglite({ client: pglite, schema, casing: 'snake_case' }) as unknown as Db
	return { kind: 'pglite', db, pglite, close }
}

export function openPostgres(connectionString: string): Database {
	const pool = new pg.Pool({ connectionString, max: 10 })
	// An idle client that loses its connection must not crash the process; the pool replaces it.
	pool.on('error', () => {})
	const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Db
	return { kind: 'postgres', db, connectionString, pool, close: () => pool.end() }
}

export async function migrateDatabase(database: Database): Promise<void> {
	if (database.kind === 'pglite') {
		await migratePglite(database.db as Parameters<typeof migratePglite>[0], { migrationsFolder })
		return
	}
	// Several instances may start at once against one PostgreSQL: one migrates, the others wait.
	const client = await database.pool.connect()
	try {
		await client.query('select pg_advisory_lock(7355608)')
		await migratePg(drizzlePg({ client }), { migrationsFolder })
	} finally {
		await client.query('select pg_advisory_unlock(7355608)').catch(() => {})
		client.release()
	}
}

export async function pingDatabase(database: Database): Promise<void> {
	await database.db.execute(sql`select 1`)
}
