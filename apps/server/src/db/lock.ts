import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import path from 'node:path'

export class DataDirLockedError extends Error {}

/**
 * PGlite has no lock of its own, and two processes writing one data folder lose data. Like
 * PostgreSQL's postmaster.pid, we keep a pid file beside the database and refuse to open
 * a folder whose pid file names a live process.
 */
export function lockDataDir(dir: string): () => void {
	const file = path.join(dir, 'db.lock')
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			const fd = openSync(file, 'wx', 0o600)
			writeSync(fd, `${process.pid}\n`)
			closeSync(fd)
			return () => rmSync(file, { force: true })
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw error
			}
			const holder = Number.parseInt(readFileSync(file, 'utf8'), 10)
			if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
				throw new DataDirLockedError(
					`The data folder ${dir} is in use by another process (pid ${holder}). Stop it first, or set DATA_DIR to another folder.`,
				)
			}
			// The holder is gone (crash, kill -9): the lock is stale. Remove it and try once more;
			// if another process wins the race, the next attempt reports it.
			rmSync(file, { force: true })
		}
	}
	throw new DataDirLockedError(`The data folder ${dir} is being opened by another process.`)
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0)
		return true
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM'
	}
}
