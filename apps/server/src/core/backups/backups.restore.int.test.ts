import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as tar from 'tar'
import { afterAll, describe, expect, test } from 'vitest'
import { freePort, startServerProcess, waitUntilReady } from '#src/test/server-process.ts'
import { readControlFile } from './backups.control.ts'
import { backupFileOf, readJson, remoteApp, runCli } from './backups.testing.ts'

// `npm run backup` and `npm run restore` around one data folder's life: the control endpoint
// of a running server, the refusals of a restore, and a backup of a stopped server's folder that
// still starts afterwards. The embedded database (PGlite) only: skipped when DATABASE_URL is set.

// biome-ignore lint/style/noProcessEnv: the test harness chooses the database the same way the app does.
const isPostgres = Boolean(process.env.DATABASE_URL)
const root = mkdtempSync(path.join(os.tmpdir(), 'bs-restore-'))
const children: ChildProcess[] = []

afterAll(() => {
	for (const child of children) {
		child.kill('SIGKILL')
	}
	rmSync(root, { recursive: true, force: true })
})

const envOf = (dataDir: string, port: number) => ({
	PORT: String(port),
	DATA_DIR: dataDir,
	PUBLIC_URL: `http://localhost:${port}`,
	LOG_LEVEL: 'warn',
	RATE_LIMITS: 'false',
	BACKUP_SCHEDULE: 'off',
})

const account = { email: 'restore@example.com', password: 'restore test password' }

/** A copy of `archive` with `change` made to its unpacked contents. */
async function repacked(archive: string, name: string, change: (dir: string) => void): Promise<string> {
	const dir = path.join(root, `unpacked-${name}`)
	mkdirSync(dir)
	await tar.x({ file: archive, cwd: dir })
	change(dir)
	const file = path.join(root, `${name}.tar.gz`)
	await tar.c({ gzip: true, file, cwd: dir }, readdirSync(dir))
	return file
}

describe.skipIf(isPostgres)('backup and restore of a data folder', () => {
	const data = path.join(root, 'data')
	let archive = ''

	test('a running server takes the backup through its control endpoint, which is a 404 to anyone without its token', async () => {
		const port = await freePort()
		const server = startServerProcess(envOf(data, port), children)
		await waitUntilReady(port, server.exited)
		const t = remoteApp(port)
		expect((await t.request('POST', '/api/auth/sign-up/email', { json: { ...account, name: 'Restore' } })).status).toBe(
			200,
		)
		const control = readControlFile(data)
		expect(control?.pid).toBe(server.child.pid)
		expect(statSync(path.join(data, 'control.json')).mode & 0o777).toBe(0o600)

		const nothing = await t.request('POST', '/internal/nothing-here', { json: {} })
		expect(nothing.status).toBe(404)
		const attempts: Record<string, string>[] = [
			{},
			{ authorization: 'Bearer wrong-token' },
			{ authorization: `Bearer ${control?.token}x` },
		]
		for (const headers of attempts) {
			const refused = await t.request('POST', '/internal/backup', { json: {}, headers })
			expect(refused.status).toBe(404)
			expect(refused.body.title).toBe(nothing.body.title)
		}
		// The endpoint is not part of the API's document.
		expect(JSON.stringify((await t.request('GET', '/api/openapi.json')).body)).not.toContain('/internal/')

		const out = path.join(root, 'by-endpoint.tar.gz')
		const taken = await t.request('POST', '/internal/backup', {
			json: { out },
			headers: { authorization: `Bearer ${control?.token}` },
		})
		expect(taken.status, JSON.stringify(taken.body)).toBe(200)
		expect(taken.body).toMatchObject({ file: out, byteSize: statSync(out).size })
		expect(taken.body.tables).toBeGreaterThan(20)
		expect(statSync(out).mode & 0o777).toBe(0o600)

		// A restore into the folder the server holds is refused, and leaves it as it was.
		const inUse = await runCli('restore', [out], { DATA_DIR: data }, children)
		expect(inUse.code).toBe(1)
		expect(inUse.stderr).toMatch(/in use by another process/)

		server.child.kill('SIGTERM')
		expect(await server.exited).toBe(0)
		expect(existsSync(path.join(data, 'control.json'))).toBe(false)
	}, 180_000)

	test('with the server stopped, the backup opens the folder itself, and the folder starts afterwards', async () => {
		const run = await runCli('backup', ['--out', path.join(root, 'stopped')], { DATA_DIR: data }, children)
		archive = backupFileOf(run)
		expect(path.dirname(archive)).toBe(path.join(root, 'stopped'))
		expect(path.basename(archive)).toMatch(/^blocksmith-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/)
		expect(run.stdout).not.toContain('The server is running')
		expect(existsSync(path.join(data, 'db.lock'))).toBe(false)

		const port = await freePort()
		const server = startServerProcess(envOf(data, port), children)
		await waitUntilReady(port, server.exited)
		const signIn = await remoteApp(port).request('POST', '/api/auth/sign-in/email', { json: account })
		expect(signIn.status).toBe(200)
		server.child.kill('SIGTERM')
		expect(await server.exited).toBe(0)
	}, 180_000)

	test('a restore is refused into a folder with a database, and for an archive that differs from its manifest', async () => {
		const intoData = await runCli('restore', [archive], { DATA_DIR: data }, children)
		expect(intoData.code).toBe(1)
		expect(intoData.stderr).toMatch(/already holds a database/)

		// A table whose rows are not the ones the manifest counted and hashed.
		const changedTable = await repacked(archive, 'changed-table', (dir) => {
			const manifest = readJson(path.join(dir, 'manifest.json'))
			const users = manifest.tables['public.users']
			expect(users.rows).toBe(1)
			manifest.tables['public.users'] = { ...users, md5: '0'.repeat(32) }
			writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest))
		})
		const fresh = path.join(root, 'fresh')
		const refused = await runCli('restore', [changedTable], { DATA_DIR: fresh }, children)
		expect(refused.code).toBe(1)
		expect(refused.stderr).toMatch(/differs from the backup's manifest[\s\S]*public\.users/)
		// Nothing of the refused restore is left: the folder takes a good archive afterwards.
		expect(readdirSync(fresh).sort()).toEqual([])

		// A file the manifest does not list.
		const unlisted = await repacked(archive, 'unlisted', (dir) => {
			mkdirSync(path.join(dir, 'uploads', 'org'), { recursive: true })
			writeFileSync(path.join(dir, 'uploads', 'org', 'evil'), 'x')
		})
		const listed = await runCli('restore', [unlisted], { DATA_DIR: fresh }, children)
		expect(listed.code).toBe(1)
		expect(listed.stderr).toMatch(/files its manifest does not list/)
		expect(readdirSync(fresh)).toEqual([])

		const good = await runCli('restore', [archive], { DATA_DIR: fresh }, children)
		expect(good.code, good.stderr).toBe(0)
		expect(readJson(path.join(fresh, 'secrets.json'))).toEqual(readJson(path.join(data, 'secrets.json')))
	}, 180_000)
})
