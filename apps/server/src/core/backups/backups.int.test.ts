import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, test } from 'vitest'
import { fieldOf, publishedEnquiryForm, submitAnswers, type TestForm, uploadFile } from '#src/test/forms.ts'
import { freePort, startServerProcess, waitUntilReady } from '#src/test/server-process.ts'
import type { TestApp } from '#src/test/test-app.ts'
import { backupFileOf, manifestOf, readJson, remoteApp, runCli } from './backups.testing.ts'
import { tableManifest } from './backups.ts'

// The promise of a backup taken while the server works: the archive is the database and files
// exactly as they were at one moment, and a restore gives that moment back. The real server in
// its own process, answers with files arriving, `npm run backup` from another process, `npm run
// restore` into a new folder. The embedded database (PGlite) only: PostgreSQL is backed up
// with pg_dump, so this file is skipped when DATABASE_URL is set.

// biome-ignore lint/style/noProcessEnv: the test harness chooses the database the same way the app does.
const isPostgres = Boolean(process.env.DATABASE_URL)
const root = mkdtempSync(path.join(os.tmpdir(), 'bs-backup-'))
const children: ChildProcess[] = []

afterAll(() => {
	for (const child of children) {
		child.kill('SIGKILL')
	}
	rmSync(root, { recursive: true, force: true })
})

const serverEnv = (dataDir: string, port: number) => ({
	PORT: String(port),
	DATA_DIR: dataDir,
	PUBLIC_URL: `http://localhost:${port}`,
	LOG_LEVEL: 'warn',
	RATE_LIMITS: 'false',
	FORM_MIN_FILL_SECONDS: '0',
	BACKUP_SCHEDULE: 'off',
})

type Sent = { id: string; sentAt: number; ackedAt: number; blobIds: string[] }

/** Each row of a table as PostgreSQL prints it, for comparing two databases row by row. */
async function rowTexts(pglite: PGlite, table: string): Promise<Map<string, string>> {
	const { rows } = await pglite.query<{ id: string; text: string }>(`select t.id, t::text as text from ${table} t`)
	return new Map(rows.map((row) => [row.id, row.text]))
}

describe.skipIf(isPostgres)('a backup of the embedded database while answers arrive', () => {
	test('restores exactly the moment it was taken: every table, every acknowledged answer, every file', async () => {
		const source = path.join(root, 'source')
		const port = await freePort()
		const server = startServerProcess(serverEnv(source, port), children)
		await waitUntilReady(port, server.exited)
		const t = remoteApp(port) as unknown as TestApp
		const signUp = await t.request('POST', '/api/auth/sign-up/email', {
			json: { email: 'backup@example.com', password: 'backup test password', name: 'Backup' },
		})
		expect(signUp.status).toBe(200)
		const token = signUp.headers.get('set-auth-token') as string
		const { form: created } = await publishedEnquiryForm(t, token)
		const withRules = created.fields.map((field) =>
			field.label === 'Attachments'
				? { ...field, fileRules: { maxFiles: 2, maxFileBytes: 1024 * 1024, accept: [] } }
				: field,
		)
		const saved = await t.request('PATCH', `/dashboard/forms/${created.id}`, { token, json: { fields: withRules } })
		expect(saved.status, JSON.stringify(saved.body)).toBe(200)
		const form = saved.body as TestForm
		const name = fieldOf(form, 'Name')
		const files = fieldOf(form, 'Attachments')

		// Four visitors answer without pause; every other answer carries a file of its own bytes.
		const sent: Sent[] = []
		let isDone = false
		const visitor = async (n: number) => {
			for (let index = 0; !isDone; index++) {
				const sentAt = Date.now()
				const attached =
					index % 2 === 0
						? [
								await uploadFile(t, form.id, files.id, {
									name: `note-${n}-${index}.txt`,
									type: 'text/plain',
									bytes: new TextEncoder().encode(`visitor ${n}, answer ${index}, ${'x'.repeat(index * 37)}`),
								}),
							]
						: []
				const response = await submitAnswers(t, form, { [name.id]: `Backup ${n}-${index}`, [files.id]: attached })
				expect(response.status, JSON.stringify(response.body)).toBe(201)
				sent.push({ id: response.body.id, sentAt, ackedAt: Date.now(), blobIds: attached.map((a) => a.blobId) })
			}
		}
		const visitors = Array.from({ length: 4 }, (_, n) => visitor(n))
		while (sent.length < 12) {
			await new Promise((resolve) => setTimeout(resolve, 50))
		}
		const backupStarted = Date.now()
		const run = await runCli('backup', [], serverEnv(source, port), children)
		const backupEnded = Date.now()
		const archive = backupFileOf(run)
		expect(run.stdout).toContain('The server is running')
		// Answers go on a moment after the backup, then stop.
		const countAtEnd = sent.length
		while (sent.length < countAtEnd + 4) {
			await new Promise((resolve) => setTimeout(resolve, 50))
		}
		isDone = true
		await Promise.all(visitors)
		server.child.kill('SIGTERM')
		expect(await server.exited).toBe(0)

		const restored = path.join(root, 'restored')
		const restore = await runCli('restore', [archive], { DATA_DIR: restored }, children)
		expect(restore.code, restore.stderr).toBe(0)
		expect(restore.stdout).toContain('secrets.json restored')
		expect(readJson(path.join(restored, 'secrets.json'))).toEqual(readJson(path.join(source, 'secrets.json')))

		const manifest = await manifestOf(archive)
		const before = await PGlite.create({ dataDir: path.join(source, 'db') })
		const after = await PGlite.create({ dataDir: path.join(restored, 'db') })
		try {
			// Every table (the app's, pg-boss's, the migrations') is the source's at the backup's moment.
			const names = Object.keys(manifest.tables)
			expect(names).toEqual(expect.arrayContaining(['public.form_submissions', 'public.blobs']))
			expect(names.some((name) => name.startsWith('pgboss.'))).toBe(true)
			expect(await tableManifest(after)).toEqual(manifest.tables)

			const restoredAnswers = await rowTexts(after, 'form_submissions')
			const sourceAnswers = await rowTexts(before, 'form_submissions')
			for (const answer of sent.filter((s) => s.ackedAt < backupStarted)) {
				expect(restoredAnswers.has(answer.id), `answer ${answer.id} acknowledged before the backup`).toBe(true)
			}
			for (const answer of sent.filter((s) => s.sentAt > backupEnded)) {
				expect(restoredAnswers.has(answer.id), `answer ${answer.id} sent after the backup`).toBe(false)
			}
			expect(restoredAnswers.size).toBeLessThan(sourceAnswers.size)
			for (const [id, text] of restoredAnswers) {
				expect(sourceAnswers.get(id), `restored answer ${id}`).toBe(text)
			}

			// Every uploaded file a restored row names is there, byte for byte the source's.
			const { rows: blobs } = await after.query<{ key: string }>(`select key from blobs where status = 'uploaded'`)
			const withFiles = sent.filter((s) => s.ackedAt < backupStarted && s.blobIds.length > 0)
			expect(withFiles.length).toBeGreaterThan(0)
			expect(blobs.length).toBeGreaterThanOrEqual(withFiles.length)
			for (const blob of blobs) {
				const restoredFile = readFileSync(path.join(restored, 'uploads', blob.key))
				expect(restoredFile.equals(readFileSync(path.join(source, 'uploads', blob.key))), blob.key).toBe(true)
			}
			expect(manifest.uploads.files.length).toBeGreaterThanOrEqual(blobs.length)
		} finally {
			await before.close()
			await after.close()
		}
	}, 300_000)
})
