import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { migrateDatabase, openPostgres, wrapPglite } from '#src/db/client.ts'
import { createJobs } from '#src/lib/jobs.ts'
import { createLogger } from '#src/lib/logger.ts'

declare module 'vitest' {
	export interface ProvidedContext {
		/** PGlite: a tarball of a migrated data folder. PostgreSQL: the name of a migrated template database. */
		dbSnapshot: { kind: 'pglite'; file: string } | { kind: 'postgres'; template: string; url: string }
	}
}

/**
 * Migrates one database before any test runs — PGlite dumped to a tarball, or a PostgreSQL
 * template database — so that each test file starts from a copy instead of running migrations.
 */
export default async function setup(project: TestProject) {
	const log = createLogger('silent')
	// biome-ignore lint/style/noProcessEnv: the test harness chooses the database the same way the app does.
	const databaseUrl = process.env.DATABASE_URL
	if (databaseUrl) {
		const template = `bs_template_${randomBytes(4).toString('hex')}`
		await adminQuery(databaseUrl, `create database "${template}"`)
		const database = openPostgres(withDatabase(databaseUrl, template))
		await migrateDatabase(database)
		await installJobSchema(database, log)
		await database.close()
		project.provide('dbSnapshot', { kind: 'postgres', template, url: databaseUrl })
		return async () => {
			await adminQuery(databaseUrl, `drop database if exists "${template}" with (force)`)
		}
	}
	const dir = mkdtempSync(path.join(os.tmpdir(), 'bs-snapshot-'))
	const pglite = await PGlite.create()
	const database = wrapPglite(pglite)
	await migrateDatabase(database)
	await installJobSchema(database, log)
	const dump = await pglite.dumpDataDir('none')
	const file = path.join(dir, 'snapshot.tar')
	writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
	await pglite.close()
	project.provide('dbSnapshot', { kind: 'pglite', file })
	return () => rmSync(dir, { recursive: true, force: true })
}

async function installJobSchema(
	database: Parameters<typeof createJobs>[0]['database'],
	log: ReturnType<typeof createLogger>,
) {
	const jobs = createJobs({ database, log })
	await jobs.start()
	await jobs.stop(1000)
}

export function withDatabase(url: string, name: string): string {
	const parsed = new URL(url)
	parsed.pathname = `/${name}`
	return parsed.toString()
}

export async function adminQuery(url: string, text: string): Promise<void> {
	const client = new pg.Client({ connectionString: url })
	await client.connect()
	try {
		await client.query(text)
	} finally {
		await client.end()
	}
}
