import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import path from 'node:path'
import { getConnInfo } from '@hono/node-server/conninfo'
import { Hono } from 'hono'
import { z } from 'zod'
import type { Config } from '#src/config.ts'
import type { Database } from '#src/db/client.ts'
import type { AppEnv } from '#src/lib/context.ts'
import { AppError } from '#src/lib/errors.ts'
import { type BackupResult, createBackup } from './backups.ts'

// While the server runs, it holds the embedded database's folder (db/lock.ts): `npm run backup`
// then asks it to take the backup, through a local endpoint whose token only the folder's owner
// can read (DATA_DIR/control.json, mode 0600). Decision 040.

type Control = { pid: number; port: number; token: string }

const controlSchema = z.object({ pid: z.number().int(), port: z.number().int(), token: z.string().min(32) })

const controlFileOf = (dataDir: string) => path.join(dataDir, 'control.json')

/** Written once the server listens; the returned function removes it (at a clean shutdown). */
export function writeControlFile(dataDir: string, port: number): () => void {
	const file = controlFileOf(dataDir)
	const control: Control = { pid: process.pid, port, token: randomBytes(32).toString('base64url') }
	// Removed first: a file left by a crash may belong to another user's umask; ours is 0600 from its creation.
	rmSync(file, { force: true })
	writeFileSync(file, `${JSON.stringify(control)}\n`, { mode: 0o600, flag: 'wx' })
	return () => {
		if (readControlFile(dataDir)?.pid === process.pid) {
			rmSync(file, { force: true })
		}
	}
}

export function readControlFile(dataDir: string): Control | null {
	try {
		const parsed = controlSchema.safeParse(JSON.parse(readFileSync(controlFileOf(dataDir), 'utf8')))
		return parsed.success ? parsed.data : null
	} catch {
		return null
	}
}

/** The live process that holds the data folder's lock (db/lock.ts), if any. */
export function lockHolder(dataDir: string): number | null {
	let pid: number
	try {
		pid = Number.parseInt(readFileSync(path.join(dataDir, 'db.lock'), 'utf8'), 10)
	} catch {
		return null
	}
	if (!Number.isInteger(pid) || pid === process.pid) {
		return null
	}
	try {
		process.kill(pid, 0)
		return pid
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null
	}
}

/** Equal-length digests, so the comparison takes the same time whatever the guess. */
function isSameToken(given: string, expected: string): boolean {
	const digest = (text: string) => createHash('sha256').update(text).digest()
	return timingSafeEqual(digest(given), digest(expected))
}

function isLoopback(address: string | undefined): boolean {
	return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1'
}

const bodySchema = z.object({ out: z.string().min(1).max(4096).optional() }).strict()

/**
 * POST /internal/backup: takes a backup in this process. Only from this machine (the socket's own
 * address, whatever TRUST_PROXY says) and with this process's control token; anything else gets
 * the same 404 as a path that does not exist. Left out of the OpenAPI document: not an API.
 */
export function createBackupControlRoutes(deps: { database: Database; config: Config }) {
	const router = new Hono<AppEnv>()
	router.post('/internal/backup', async (c) => {
		const notFound = () => new AppError('NOT_FOUND', { detail: `Nothing at ${c.req.method} ${c.req.path}.` })
		let remote: string | undefined
		try {
			remote = getConnInfo(c).remote.address
		} catch {
			// No socket (an in-process request): not from this machine's loopback.
		}
		const given = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1]
		const control = readControlFile(deps.config.dataDir)
		if (
			!isLoopback(remote) ||
			!given ||
			!control ||
			control.pid !== process.pid ||
			!isSameToken(given, control.token)
		) {
			throw notFound()
		}
		const text = await c.req.text()
		let json: unknown
		try {
			json = text ? JSON.parse(text) : {}
		} catch {
			throw new AppError('MALFORMED_JSON')
		}
		const parsed = bodySchema.safeParse(json)
		if (!parsed.success) {
			throw new AppError('VALIDATION_FAILED', {
				errors: parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message })),
			})
		}
		const started = performance.now()
		const result = await createBackup({
			database: deps.database,
			dataDir: deps.config.dataDir,
			isS3: deps.config.s3 !== null,
			dir: deps.config.backups.dir,
			out: parsed.data.out,
		})
		c.var.log.info({ ...result, ms: Math.round(performance.now() - started), via: 'control' }, 'backup written')
		return c.json(result)
	})
	return router
}

/** The CLI's side: asks the server named by control.json for a backup. No time limit: a large one takes a while. */
export function askRunningServer(control: Control, out: string | undefined): Promise<BackupResult> {
	const body = JSON.stringify(out ? { out } : {})
	return new Promise((resolve, reject) => {
		const call = request(
			{
				host: '127.0.0.1',
				port: control.port,
				method: 'POST',
				path: '/internal/backup',
				headers: {
					authorization: `Bearer ${control.token}`,
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
				},
			},
			(response) => {
				let text = ''
				response.setEncoding('utf8')
				response.on('data', (chunk: string) => {
					text += chunk
				})
				response.on('end', () => {
					if (response.statusCode === 200) {
						resolve(JSON.parse(text) as BackupResult)
						return
					}
					let detail = text
					try {
						const problem = JSON.parse(text) as { detail?: string; title?: string }
						detail = problem.detail ?? problem.title ?? text
					} catch {
						// Not a problem document: its text as it came.
					}
					reject(new Error(`the server (pid ${control.pid}) answered ${response.statusCode}: ${detail}`))
				})
			},
		)
		call.on('error', reject)
		call.end(body)
	})
}
