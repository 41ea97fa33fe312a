import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { DataDirLockedError, lockDataDir } from './lock.ts'

let dir: string
afterEach(() => {
	rmSync(dir, { recursive: true, force: true })
})

describe('data folder lock', () => {
	test('a second lock on the same folder fails while the first is held, and works once released', () => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'bs-lock-'))
		// A live process other than us holds the lock.
		const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
		try {
			writeFileSync(path.join(dir, 'db.lock'), `${holder.pid}\n`)
			expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
			expect(() => lockDataDir(dir)).toThrow(/in use by another process/)
		} finally {
			holder.kill()
		}
	})

	test('a lock left by a dead process is taken over', async () => {
		dir = mkdtempSync(path.join(os.tmpdir(), 'bs-lock-'))
		const gone = spawn(process.execPath, ['-e', ''])
		await new Promise((resolve) => gone.on('exit', resolve))
		writeFileSync(path.join(dir, 'db.lock'), `${gone.pid}\n`)
		const unlock = lockDataDir(dir)
		expect(existsSync(path.join(dir, 'db.lock'))).toBe(true)
		unlock()
		expect(existsSync(path.join(dir, 'db.lock'))).toBe(false)
	})
})
