import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { setImmediate as setImmediatePromise } from 'node:timers/promises'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { lockDataDir } from './lock.ts'
import { withPreparedSelects } from './pglite-prepared.ts'
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
	oneStatementPerTurn(pglite)
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

/**
 * Whether the database already has the newest migration in the journal. Drizzle's migrator
 * applies each migration newer than the last one recorded, so then it would apply nothing; it
 * would still run its CREATE SCHEMA/TABLE IF NOT EXISTS and an empty transaction, and read and
 * hash every migration file, on every start. Migrations are recorded in the transaction that
 * applies them, so a recorded last migration means a complete schema.
 */
async function isMigrated(db: Db): Promise<boolean> {
	const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
		entries: Array<{ when: number }>
	}
	const newest = Math.max(...journal.entries.map((entry) => entry.when))
	const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows
	const [table] = rowsOf<{ present: boolean }>(
		await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`),
	)
	if (!table?.present) {
		return false
	}
	const [last] = rowsOf<{ createdAt: string | number | null }>(
		await db.execute(sql`select max(created_at) as "createdAt" from drizzle.__drizzle_migrations`),
	)
	return last?.createdAt != null && Number(last.createdAt) >= newest
}

export async function migrateDatabase(database: Database): Promise<void> {
	// Checked without the lock below: what it reads was committed with the schema it stands for.
	if (await isMigrated(database.db)) {
		return
	}
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

/**
 * PGlite runs Postgres on this thread, one statement or transaction at a time, and each one's
 * end starts the next queued one in the same turn of the event loop: under load they ran back
 * to back for 150–300 ms with no request read and no response written (monitorEventLoopDelay,
 * 50 simultaneous form submissions), and some answers waited seconds. Here they are started one
 * per turn of the event loop, in the order asked, so sockets are served between them. A
 * transaction is one item: its own statements run inside it without waiting.
 */
function oneStatementPerTurn(pglite: PGlite): void {
	const methods = pglite as unknown as Record<
		'query' | 'exec' | 'transaction',
		(...args: unknown[]) => Promise<unknown>
	>
	let last: Promise<unknown> = Promise.resolve()
	const enqueue = <T>(run: () => Promise<T>): Promise<T> => {
		const result = last.then(() => setImmediatePromise()).then(run)
		last = result.catch(() => undefined)
		return result
	}
	const direct: Record<string, unknown> = {}
	for (const name of ['query', 'exec', 'transaction'] as const) {
		const own = methods[name].bind(pglite)
		direct[name] = own
		// Repeated selects are planned once (decision 042); each is still one item of the queue.
		const run = name === 'query' ? (withPreparedSelects(pglite, own as never) as typeof own) : own
		methods[name] = (...args: unknown[]) => enqueue(() => run(...args))
	}
	chains.set(pglite, { enqueue, direct: direct as unknown as AloneClient })
}

/** PGlite's own methods, not queued: only for the function `runAlone` runs, which holds the queue. */
export type AloneClient = Pick<PGlite, 'query' | 'exec'>

const chains = new WeakMap<PGlite, { enqueue: <T>(run: () => Promise<T>) => Promise<T>; direct: AloneClient }>()

/**
 * Runs `fn` as one item of the queue every statement and transaction of the app (and of pg-boss)
 * goes through: it starts when none is in flight, and none starts until it ends. A backup's
 * copy of the database files is consistent then. `fn` must query through the client it is given:
 * a statement through the app's own connection would wait behind `fn` for ever.
 */
export function runAlone<T>(database: Database, fn: (client: AloneClient) => Promise<T>): Promise<T> {
	const chain = database.kind === 'pglite' ? chains.get(database.pglite) : undefined
	if (!chain) {
		throw new Error('runAlone needs the embedded database (PGlite) opened by openDatabase or wrapPglite')
	}
	return chain.enqueue(() => fn(chain.direct))
}
