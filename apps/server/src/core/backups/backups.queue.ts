import { readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import type { Config } from '#src/config.ts'
import type { Database } from '#src/db/client.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import { backupFilePattern, createBackup } from './backups.ts'

/**
 * Deletes the oldest backups in `dir` beyond the newest `keep`. Only files named as a backup
 * is (`blocksmith-backup-<UTC time>.tar.gz`) count and are ever deleted; the names sort by time.
 */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
	const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => backupFilePattern.test(name))
	// By time, then by the -2, -3 of backups taken within one second.
	const stem = (name: string) => name.replace(/\.tar\.gz$/, '')
	const byAge = names.sort((a, b) => (stem(a) < stem(b) ? -1 : stem(a) > stem(b) ? 1 : 0))
	const removed = byAge.slice(0, Math.max(0, byAge.length - keep))
	for (const name of removed) {
		await rm(path.join(dir, name), { force: true })
	}
	return removed
}

/** Automatic backups of the embedded database on BACKUP_SCHEDULE, keeping BACKUP_KEEP of them. */
export function createBackupQueue(deps: { database: Database; config: Config; log: Logger }): JobQueue<object> {
	const { database, config, log } = deps
	return {
		name: 'backup',
		// A failed backup is not retried at once: the next one is at the next scheduled time.
		options: { retryLimit: 0, expireInSeconds: 3600 },
		...(config.backups.schedule ? { cron: config.backups.schedule } : {}),
		handle: async () => {
			const started = performance.now()
			try {
				const result = await createBackup({
					database,
					dataDir: config.dataDir,
					isS3: config.s3 !== null,
					dir: config.backups.dir,
				})
				const removed = await pruneBackups(config.backups.dir, config.backups.keep)
				log.info({ ...result, removed, ms: Math.round(performance.now() - started) }, 'automatic backup written')
			} catch (error) {
				log.error({ err: error, dir: config.backups.dir }, 'automatic backup failed')
				throw error
			}
		},
	}
}
