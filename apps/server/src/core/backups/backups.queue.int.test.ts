import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { createTestApp } from '#src/test/test-app.ts'
import { createBackupQueue, pruneBackups } from './backups.queue.ts'
import { backupFilePattern } from './backups.ts'

// Automatic backups keep BACKUP_KEEP archives: the newest ones, and nothing but backups is ever
// deleted from the folder. The scheduled job runs on the embedded database (PGlite) only.

// biome-ignore lint/style/noProcessEnv: the test harness chooses the database the same way the app does.
const isPostgres = Boolean(process.env.DATABASE_URL)
const root = mkdtempSync(path.join(os.tmpdir(), 'bs-retention-'))

afterAll(() => {
	rmSync(root, { recursive: true, force: true })
})

describe('retention of backups', () => {
	test('keeps exactly the newest `keep` backups, by the time in their names, and no other file is touched', async () => {
		const dir = path.join(root, 'prune')
		mkdirSync(dir)
		const backups = [
			'blocksmith-backup-2026-11-20T03-00-00Z.tar.gz',
			'blocksmith-backup-2026-11-24T03-00-00Z.tar.gz',
			'blocksmith-backup-2026-11-24T03-00-00Z-2.tar.gz',
			'blocksmith-backup-2025-12-31T23-59-59Z.tar.gz',
			'blocksmith-backup-2026-11-22T03-00-00Z.tar.gz',
			'blocksmith-backup-2026-11-23T03-00-00Z.tar.gz',
		]
		const others = [
			'notes.txt',
			'blocksmith-backup-2026-11-26T03-00-00Z.tar.gz.partial',
			'blocksmith-backup-manual.tar.gz',
			'my-blocksmith-backup-2019-01-01T00-00-00Z.tar.gz',
		]
		// Written newest first: the order of creation must not matter, only the names' times.
		for (const name of [...backups].reverse().concat(others)) {
			writeFileSync(path.join(dir, name), name)
		}
		const removed = await pruneBackups(dir, 3)
		expect(removed.sort()).toEqual(
			[
				'blocksmith-backup-2025-12-31T23-59-59Z.tar.gz',
				'blocksmith-backup-2026-11-20T03-00-00Z.tar.gz',
				'blocksmith-backup-2026-11-22T03-00-00Z.tar.gz',
			].sort(),
		)
		expect(readdirSync(dir).sort()).toEqual(
			[
				'blocksmith-backup-2026-11-23T03-00-00Z.tar.gz',
				'blocksmith-backup-2026-11-24T03-00-00Z.tar.gz',
				'blocksmith-backup-2026-11-24T03-00-00Z-2.tar.gz',
				...others,
			].sort(),
		)
		expect(await pruneBackups(dir, 3)).toEqual([])
	})

	test.skipIf(isPostgres)(
		'the scheduled job writes a backup each run and keeps the newest `keep`',
		async () => {
			const t = await createTestApp()
			try {
				const dir = path.join(root, 'job')
				mkdirSync(dir)
				writeFileSync(path.join(dir, 'README.txt'), 'not a backup')
				const config = { ...t.config, backups: { schedule: '0 3 * * *', keep: 2, dir } }
				const queue = createBackupQueue({ database: t.services.database, config, log: t.services.log })
				expect(queue.cron).toBe('0 3 * * *')
				// Staging folders: one left hours ago by a backup whose process died (its hard links would
				// keep deleted uploads' bytes on disk), one as young as a backup running now.
				const stale = path.join(t.config.dataDir, '.backup-staging-deadbeef0001')
				const young = path.join(t.config.dataDir, '.backup-staging-deadbeef0002')
				mkdirSync(path.join(stale, 'uploads'), { recursive: true })
				mkdirSync(young)
				const hoursAgo = new Date(Date.now() - 7 * 60 * 60 * 1000)
				utimesSync(stale, hoursAgo, hoursAgo)
				const written: string[] = []
				for (let run = 0; run < 3; run++) {
					const before = new Set(readdirSync(dir))
					await queue.handle({})
					const added = readdirSync(dir).filter((name) => !before.has(name))
					expect(added).toHaveLength(1)
					expect(added[0]).toMatch(backupFilePattern)
					written.push(added[0] as string)
				}
				expect(readdirSync(dir).sort()).toEqual(['README.txt', ...written.slice(1)].sort())
				expect(existsSync(stale)).toBe(false)
				expect(existsSync(young)).toBe(true)
			} finally {
				await t.close()
			}
		},
		120_000,
	)
})
